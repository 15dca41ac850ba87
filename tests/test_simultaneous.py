"""`simultaneously for each player in LIST:` on its own: everyone chooses unseen, the
blocks run only once all have chosen, and nobody learns anything of an earlier choice."""

from __future__ import annotations

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter import runner
from meeple.interpreter.rng import Random
from tests.conftest import rules, shipped

CARDS = {"cards.csv": "id,value\na,1\nb,2\nc,3\nd,4\ne,5\nf,6\ng,7\nh,8\ni,9\n"}

GAME = """
game "Sealed bids"
players 2..3
component card from "cards.csv":
    value: int
zone hand per player: hand of card
zone played per player: hand of card
zone shown per player: pile of card
counter bid per player = 0
counter order = 0
setup:
    move card to hand[0]
    for each p in turn_order where p != 0:
        draw 3 from hand[0] into hand[p]
    simultaneously for each player in turn_order:
        choose team from subsets(hand, 1, 2) "Which cards do you bid?":
            move team to played
        move all from played to shown
        order += 1
        bid = sum(c.value for each c in shown) * 10 + order
"""


def first_two(e, s):
    """P1 bids one card in one world and two in the other."""
    options = e.decision(s).options
    one = next(o.id for o in options if "+" not in o.id)
    two = next(o.id for o in options if "+" in o.id)
    return e.apply(s, one), e.apply(s, two)


def test_later_choosers_see_nothing_of_earlier_choices(tmp_path):
    e = rules(GAME, tmp_path, CARDS)
    s, _ = e.start(3, 4)
    (a, events_a), (b, events_b) = first_two(e, s)
    assert events_a == events_b == [], "nothing of a choice runs before everyone has chosen"
    assert e.decision(a).actor == e.decision(b).actor == 1
    for viewer in (1, 2):
        assert e.view(a, viewer) == e.view(b, viewer), f"P{viewer + 1} can tell the worlds apart"
    assert e.view(a, 0) != e.view(b, 0), "the chooser keeps their own choice"
    assert [o.id for o in e.decision(a).options] == [o.id for o in e.decision(b).options]


def test_the_blocks_run_in_order_once_all_have_chosen(tmp_path):
    e = rules(GAME, tmp_path, CARDS)
    s, _ = e.start(3, 4)
    picks = []
    while (d := e.decision(s)) is not None:
        assert d.secret
        picks.append(d.options[-1].value)
        s, events = e.apply(s, len(d.options) - 1)
    assert [x["player"] for x in events if x["e"] == "reveal"] == [0, 1, 2]
    for p, team in enumerate(picks):
        assert s["zones"][f"shown/{p}"] == team
        assert s["vars"][f"bid/{p}"] == sum(e.game.components[c]["value"] for c in team) * 10 + p + 1


def test_menu_may_and_otherwise_inside_a_simultaneous_block():
    e = rules("""
game "Menus"
players 2
counter x per player = 0
setup:
    simultaneously for each player in turn_order:
        choose one "Which?":
            "Up":
                x += 1
            "Down":
                x -= 1
    simultaneously for each player in turn_order:
        may choose n from [5] where player == 0:
            x += n
        otherwise:
            x += 100
""")
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "Up")
    s, ev = e.apply(s, "Down")
    assert [s["vars"]["x/0"], s["vars"]["x/1"]] == [1, -1]
    s, _ = e.apply(s, "pass")  # P1 passes; P2 has nothing to choose
    assert e.is_terminal(s)
    assert [s["vars"]["x/0"], s["vars"]["x/1"]] == [101, 99]


def test_a_lone_option_is_taken_without_telling_the_others(tmp_path):
    e = rules(GAME.replace("subsets(hand, 1, 2)", "[list(hand)]"), tmp_path, CARDS)
    s, events = e.start(2, 4)
    autos = [x for x in events if x["e"] == "auto"]
    assert len(autos) == 2 and all(x["secret"] for x in autos)
    assert e.is_terminal(s)


def test_the_block_must_start_with_the_choice():
    with pytest.raises(MeepleError) as err:
        rules("""
game "Bad"
players 2
counter x = 0
setup:
    simultaneously for each player in turn_order:
        x += 1
        choose n from [1, 2]:
            x += n
""")
    text = str(err.value)
    assert "<test>:5:5: error: a `simultaneously` block starts with the choice" in text
    assert "hint: put `choose ...`" in text


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_bots_in_any_seat_play_it_from_their_views(tmp_path, agent):
    e = rules(GAME, tmp_path, CARDS)
    result = runner.play(e, 3, 5, [agent], "sealed")
    assert e.is_terminal(result.state)
    for viewer in range(3):
        for line in result.trace.lines[1:]:
            if "step" in line and line["actor"] != viewer:
                assert line.get("seen_by") is not None and viewer not in line["seen_by"]


def test_apothebakery_forrie_choice_is_sealed():
    """Today's main moved the chosen Forries at once: the next chooser saw how many."""
    e = shipped("apothebakery")
    s, _ = e.start(3, 11)
    rng = Random(3)
    while "Forries do you send out" not in e.decision(s).prompt:
        s, _ = e.apply(s, rng.below(len(e.decision(s).options)))
    first = e.decision(s).actor
    options = e.decision(s).options
    small = next(o.id for o in options if "+" not in o.id)
    big = max(options, key=lambda o: o.id.count("+")).id
    (a, _), (b, _) = e.apply(s, small), e.apply(s, big)
    nxt = e.decision(a).actor
    assert nxt != first and e.decision(b).actor == nxt
    assert e.view(a, nxt) == e.view(b, nxt)


def test_a_title_with_braces_is_filled_in_for_play_and_traces(tmp_path):
    """It was copied unfilled: `meeple play` and `run --trace` stopped on the title (plain `run` passed)."""
    from meeple.interpreter.trace import parse, render

    e = rules(
        GAME.replace('"Which cards do you bid?"', '"Which cards do you bid, {count(hand)} in hand?"'), tmp_path, CARDS
    )
    s, _ = e.start(2, 1)
    assert e.decision(s).prompt == "Which cards do you bid, 6 in hand?"
    s, _ = e.apply(s, 0)
    assert e.decision(s).prompt == "Which cards do you bid, 3 in hand?"
    result = runner.play(e, 2, 1, ["random"], "bids")
    assert "Which cards do you bid, 3 in hand?" in render(e.game, parse(result.trace.jsonl()))
