"""`action NAME(p) "Title" when TEST[, interrupting]:` on its own: offered at every
decision point while the test holds, asked again after it runs, and interrupting
other players only when the test newly holds."""

from __future__ import annotations

import json

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter import runner
from tests.conftest import rules

GAME = """
game "Coins"
players 2
counter coins per player = 3
counter vp per player = 0
counter round_number = 0
flag alarm = false
action buy(p) "Buy a point" when coins[p] >= 2:
    coins[p] -= 2
    vp[p] += 1
action ring(p) "Ring the bell" when alarm and coins[p] > 0, interrupting:
    coins[p] -= 1
    vp[p] += 2

effect collect(p):
    choose n from [1, 2] by p "How many coins?":
        coins[p] += n

setup:
    next round

phase round:
    round_number += 1
    alarm = round_number == 2
    for each player in turn_order:
        do collect(player)
    if round_number == 3:
        end game
    next round

score "VP": vp
"""


def ids(e, s):
    return [o.id for o in e.decision(s).options]


def test_own_actions_come_after_the_normal_options_and_the_decision_is_asked_again():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    assert ids(e, s) == ["1", "2", "act:buy"]
    assert e.decision(s).options[-1].label == "Buy a point"
    s, events = e.apply(s, "act:buy")
    assert {"e": "act", "player": 0, "action": "buy"} in events
    assert s["vars"]["vp/0"] == 1 and s["vars"]["coins/0"] == 1
    # The same decision again, its options recomputed: buying no longer holds.
    d = e.decision(s)
    assert d.actor == 0 and [o.id for o in d.options] == ["1", "2"]
    assert json.loads(json.dumps(s)) == s


def test_a_lone_option_is_asked_when_an_action_holds():
    e = rules(GAME.replace("choose n from [1, 2]", "choose n from [1]"))
    s, _ = e.start(2, 1)
    assert ids(e, s) == ["1", "act:buy"]
    s, _ = e.apply(s, "1")
    assert ids(e, s) == ["1", "act:buy"] and e.decision(s).actor == 1


def test_an_interrupting_action_is_offered_once_when_its_test_newly_holds():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "1")
    s, _ = e.apply(s, "1")  # round 1 over; round 2 sets the alarm
    d = e.decision(s)
    assert d.actor == 1 and d.prompt == "Act now, before P1 decides?"
    assert [o.id for o in d.options] == ["act:ring", "pass"]
    s, _ = e.apply(s, "pass")
    d = e.decision(s)
    assert d.actor == 0 and [o.id for o in d.options] == ["1", "2", "act:buy", "act:ring"]
    s, _ = e.apply(s, "1")
    # P2's own decision: the bell is among their options, no separate interrupt.
    assert e.decision(s).actor == 1 and "act:ring" in ids(e, s)
    s, _ = e.apply(s, "2")
    # Round 3: the alarm is off, nobody is interrupted.
    assert e.decision(s).actor == 0 and "act:ring" not in ids(e, s)


def test_an_interrupt_runs_before_the_interrupted_decision():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "1")
    s, _ = e.apply(s, "1")
    s, events = e.apply(s, "act:ring")
    assert s["vars"]["vp/1"] == 2 and {"e": "act", "player": 1, "action": "ring"} in events
    assert e.decision(s).actor == 0, "then the interrupted player decides"


def test_a_game_without_actions_has_no_marks_and_no_extra_options():
    e = rules(GAME.split("action buy")[0] + "effect collect" + GAME.split("effect collect")[1])
    s, _ = e.start(2, 1)
    assert ids(e, s) == ["1", "2"]
    assert not any(k.startswith("#") for k in s["vars"])


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_bots_play_with_actions(agent):
    e = rules(GAME)
    result = runner.play(e, 2, 3, [agent], "coins")
    assert e.is_terminal(result.state)


def test_two_actions_may_not_share_a_title():
    with pytest.raises(MeepleError) as err:
        rules(GAME.replace('"Ring the bell"', '"Buy a point"'))
    assert '<test>:10:1: error: two actions are called "Buy a point"' in str(err.value)


def test_an_unknown_name_in_the_test_is_located():
    with pytest.raises(MeepleError) as err:
        rules(GAME.replace("when coins[p] >= 2", "when coin[p] >= 2"))
    assert "<test>:7:" in str(err.value) and "coin" in str(err.value)


MOMENTS = """
game "Moments"
players 2
counter coins per player = 2
counter hearts = 3
action nudge(p) "Add a heart" when moment() == "heal declared" and coins[p] > 0, interrupting:
    coins[p] -= 1
    hearts += 1
setup:
    for each player in turn_order:
        moment "healing turn"
        choose n from [1, 2] "Heal how many hearts?":
            moment "heal declared"
            hearts -= n
"""


def test_a_moment_asks_everyone_whose_test_holds_even_with_nobody_deciding():
    e = rules(MOMENTS)
    s, _ = e.start(2, 1)
    assert s["vars"]["#moment"] == "healing turn"
    assert ids(e, s) == ["1", "2"], "nudging holds only when a heal is declared"
    s, _ = e.apply(s, "2")
    # Nobody decides between the declaration and the heal: the moment asks, in turn order.
    d = e.decision(s)
    assert (d.actor, d.prompt, [o.id for o in d.options]) == (0, "Act now (heal declared)?", ["act:nudge", "pass"])
    s, _ = e.apply(s, "act:nudge")
    d = e.decision(s)
    assert d.actor == 1 and [o.id for o in d.options] == ["act:nudge", "pass"]
    s, _ = e.apply(s, "pass")
    assert s["vars"]["hearts"] == 3 - 2 + 1 and s["vars"]["coins/0"] == 1
    # P2's turn: a new moment; P1, asked at the last one, is asked again at the next.
    assert e.decision(s).actor == 1 and ids(e, s) == ["1", "2"]
    s, _ = e.apply(s, "1")
    assert e.decision(s).actor == 0 and e.decision(s).prompt == "Act now (heal declared)?"
    assert json.loads(json.dumps(s)) == s


def test_moment_reads_none_before_the_first_and_is_offered_on_own_decisions_while_it_lasts():
    e = rules(
        MOMENTS.replace('        moment "healing turn"\n', "").replace(
            '            moment "heal declared"\n            hearts -= n',
            '            moment "heal declared"\n            choose k from [0, 1] "Again?":\n                hearts -= n + k',
        )
    )
    s, _ = e.start(2, 1)
    assert "#moment" not in s["vars"] and ids(e, s) == ["1", "2"]
    s, _ = e.apply(s, "1")
    s, _ = e.apply(s, "pass")  # P1 at the moment
    s, _ = e.apply(s, "pass")  # P2 at the moment
    assert e.decision(s).prompt == "Again?" and ids(e, s) == ["0", "1", "act:nudge"]


def test_a_moment_without_an_interrupting_action_is_a_located_error():
    with pytest.raises(MeepleError) as err:
        rules(MOMENTS.replace(", interrupting:", ":"))
    assert "<test>:10:9: error: `moment` offers interrupting actions" in str(err.value)


def test_views_hide_whether_another_players_action_holds():
    e = rules(MOMENTS)
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "2")
    assert "#held/nudge/1" in s["vars"]
    v = e.view(s, 0)
    assert "#held/nudge/0" in v["vars"] and "#held/nudge/1" not in v["vars"]


REQUESTS = GAME.replace(
    'action buy(p) "Buy a point" when coins[p] >= 2:', 'action buy(p) "Buy a point" when coins[p] >= 2, on request:'
)


def test_an_on_request_action_is_listed_apart_and_taken_by_its_id():
    e = rules(REQUESTS)
    s, _ = e.start(2, 1)
    d = e.decision(s)
    assert [o.id for o in d.options] == ["1", "2"] and [(o.id, o.label) for o in d.requests] == [
        ("act:buy", "Buy a point")
    ]
    s, events = e.apply(s, "act:buy")
    assert {"e": "act", "player": 0, "action": "buy"} in events and s["vars"]["vp/0"] == 1
    d = e.decision(s)
    assert d.actor == 0 and d.requests == [], "the test no longer holds: nothing to ask for"
    with pytest.raises(ValueError):
        e.apply(s, "act:buy")


def test_bots_never_ask_for_a_request():
    def bought(text):
        return sum(line.get("choice") == "act:buy" for line in map(json.loads, text.splitlines()))

    assert bought(runner.play(rules(REQUESTS), 2, 3, ["random"], "coins").trace.jsonl()) == 0
    assert bought(runner.play(rules(GAME), 2, 3, ["random"], "coins").trace.jsonl()) > 0, "as an option they buy"


def test_a_title_with_parts_is_read_when_an_action_joins_the_options():
    e = rules(GAME.replace('"How many coins?"', '"How many coins ({coins[p]} now)?"'))
    s, _ = e.start(2, 1)
    d = e.decision(s)
    assert "act:buy" in [o.id for o in d.options] and d.prompt == "How many coins (3 now)?"


def _played_with_passes(e):
    """GAME played to its end, every offer to act now passed, recorded as a trace."""
    from meeple.interpreter.runner import choice_seen_by
    from meeple.interpreter.trace import TraceWriter

    s, events = e.start(2, 1)
    trace = TraceWriter(
        {"game": "Coins", "digest": "", "options": {}, "variants": [], "seed": 1, "players": 2, "agents": ["x", "x"]}
    )
    trace.setup(events)
    step, views = 0, []
    while (d := e.decision(s)) is not None:
        step += 1
        index = [o.id for o in d.options].index("pass" if d.private else "1")
        views.append((d, e.view(s, 0), e.view(s, 1)))
        seen = choice_seen_by(e.game, s, d, index, 2)
        s, events = e.apply(s, index)
        trace.decision(step, d, index, events, seen)
    return trace.lines, views


def test_an_offer_to_act_now_and_its_pass_are_kept_from_the_other_seats():
    # Being asked "act now?" tells what the asked seat may do (what it holds in secret): the
    # others' views show no decision pending, and their trace has no line for it.
    from meeple.interpreter.trace import render

    e = rules(GAME)
    lines, views = _played_with_passes(e)
    asked = [(d, v0, v1) for d, v0, v1 in views if d.private]
    assert asked and all(d.prompt.startswith("Act now") for d, _, _ in asked)
    for d, v0, v1 in asked:
        mine, theirs = (v0, v1) if d.actor == 0 else (v1, v0)
        assert mine["pending"]["actor"] == d.actor and theirs["pending"] is None
    for viewer in (0, 1):
        other = 1 - viewer
        text = render(e.game, lines, viewer)
        asked_other = [d for d, _, _ in asked if d.actor == other]
        if asked_other:
            assert "Act now" not in "\n".join(x for x in text.splitlines() if f"P{other + 1} chooses" in x)
            assert f"P{other + 1} chooses pass" not in text
        numbers = [int(x.split(".")[0]) for x in text.splitlines() if x[:1].isdigit()]
        assert numbers == list(range(1, len(numbers) + 1))  # no gap where the other was asked
    everyone = render(e.game, lines)
    assert everyone.count("chooses pass") == len(asked)  # the whole trace keeps them (replays, snapshots)


def test_the_play_table_keeps_an_offer_to_act_now_from_the_other_seats(tmp_path):
    # At the web table the others' pages wait for the seat that decides once the offer is passed,
    # and their logs have no line for the offer or its pass (the asked seat's page has both).
    from meeple.interpreter.table.live import LiveTable
    from meeple.interpreter.table.pages import seat_page

    path = tmp_path / "coins.rules"
    path.write_text(GAME.lstrip())
    e = rules(GAME)
    row = {
        "id": "t1",
        "ruleset": str(path),
        "options": {},
        "variants": [],
        "players": 2,
        "seed": 1,
        "digest": e.game.digest,
        "spectator": "s",
        "seats": [{"agent": "person", "token": "a"}, {"agent": "person", "token": "b"}],
    }
    live = LiveTable(row, e)
    while (d := live.decision()) is not None and not d.private:
        live.commit(d.options[0].id)
    assert d is not None and d.private
    asked, other = d.actor, 1 - d.actor
    mine, theirs = seat_page(live, asked), seat_page(live, other)
    assert mine["decision"]["mine"] and mine["decision"]["prompt"].startswith("Act now")
    after = e.decision(e.apply(live.state, [o.value for o in d.options].index(None), events=False)[0])
    assert theirs["decision"]["actor"] == after.actor and "Act now" not in json.dumps(theirs)
    live.commit("pass")
    assert "Act now" not in "\n".join(seat_page(live, other)["log"])
    assert "Act now" in "\n".join(seat_page(live, asked)["log"])
