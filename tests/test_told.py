"""What the log tells: sentences of zones and counters (`says`), `quietly` bookkeeping, `reset`
as one line, and the engine's own words kept out (phases, the box, snake_case names)."""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import load_game
from meeple.dsl.errors import MeepleError
from meeple.interpreter.engine import Engine
from meeple.interpreter.render import event_text, shown_event

CARDS = "id,name\nc1,Rose Jelly\nc2,Mud Pie\nc3,Nut Cake\nc4,Fig Tart\n"
RULES = """game "Told"
players 2
component card from "cards.csv":
    label "{name}"
zone deck: deck of card
zone market: pile of card, public
zone hand per player: hand of card, label "{player}'s hand", says "{player} takes {items} from {from}"
counter vp per player = 0, label "{player}'s VP", says "{player} scores {change} VP ({value} in all)"
flag used per player = false
counter round_number = 0
setup:
    quietly "The market is laid out":
        move card to deck
        draw 2 from deck into market
    for each p in turn_order:
        used[p] = true
    reset used
    phase_two()
"""


def engine(tmp_path, text: str) -> Engine:
    (tmp_path / "cards.csv").write_text(CARDS)
    path = tmp_path / "g.rules"
    path.write_text(text)
    return Engine(load_game(path))


def told(e, events, viewer=None) -> list[str]:
    return [event_text(e.game, ev, viewer) for ev in events if shown_event(e.game, ev)]


BODY = RULES.replace(
    "    phase_two()\n",
    """    choose c from market by first_player "Which card?":
        move c to hand[first_player]
        vp[first_player] += 3
        vp[first_player] -= 1
""",
)


class TestSentences:
    def test_a_zone_and_a_counter_tell_their_changes_in_their_sentences(self, tmp_path):
        e = engine(tmp_path, BODY)
        state, _ = e.start(2, 1)
        state, events = e.apply(state, 0)
        lines = told(e, events)
        assert lines[0].startswith("P1 takes ") and lines[0].endswith(" from market")
        assert lines[1:3] == ["P1 scores +3 VP (3 in all)", "P1 scores -1 VP (2 in all)"]

    def test_what_a_viewer_cannot_see_reads_as_a_count(self, tmp_path):
        e = engine(
            tmp_path,
            BODY.replace(
                "        move c to hand[first_player]\n",
                "        move c to hand[first_player]\n        draw 1 from deck into hand[first_player]\n",
            ),
        )
        state, _ = e.start(2, 1)
        state, events = e.apply(state, 0)
        from meeple.interpreter.state import visible_events

        seen = visible_events(e.game, events, 1, state)
        assert "P1 takes a card from deck" in told(e, seen, 1)

    def test_a_change_that_is_not_a_number_reads_in_words(self, tmp_path):
        """`{change}` of an enum value, a component, a seat or a list says what it was and is."""
        e = engine(
            tmp_path,
            RULES.replace(
                "counter round_number = 0\n", 'counter round_number = 0\nenum site = clay_pit "clay pit" | quarry\n'
            )
            .replace(
                "flag used per player = false\n",
                'flag used per player = false\nvalue camp = quarry, says "the camp: {change}"\n'
                'value leader = none, says "the lead: {change}"\n'
                'value top = none, says "on top: {change}"\n'
                'value seen = [], says "seen: {change}"\n',
            )
            .replace(
                "    phase_two()\n",
                """    choose c from market by first_player "Which card?":
        camp = clay_pit
        for each p in turn_order:
            leader = p
        top = c
        seen = [quarry, clay_pit]
        seen = [clay_pit]
""",
            ),
        )
        state, _ = e.start(2, 1)
        card = e.game.labels[state["zones"]["market"][0]]
        state, events = e.apply(state, 0)
        assert told(e, events) == [
            "the camp: from quarry to clay pit",
            "the lead: P1",
            "the lead: from P1 to P2",  # a seat, not "+1"
            f"on top: {card}",
            "seen: + quarry, + clay pit",
            "seen: - quarry",
            "game over",
        ]

    def test_a_brace_naming_nothing_known_is_refused_with_what_it_may_name(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(tmp_path, BODY.replace("{change} VP", "{chnage} VP"))
        out = info.value.format()
        assert "names `{chnage}`, which it does not know" in out and "did you mean `change`" in out


class TestBookkeeping:
    def test_a_quietly_block_is_one_line_and_its_events_stay_in_the_trace(self, tmp_path):
        e = engine(tmp_path, BODY)
        state, events = e.start(2, 1)
        lines = told(e, events)
        assert lines[0] == "The market is laid out"
        assert not any(line.startswith("move") or line.startswith("draw") for line in lines)
        assert [ev["e"] for ev in events if ev.get("quiet")] == ["move", "draw"]
        assert len(state["zones"]["market"]) == 2

    def test_a_reset_is_one_line_and_sets_every_instance_back(self, tmp_path):
        e = engine(tmp_path, BODY)
        state, events = e.start(2, 1)
        assert [ev for ev in events if ev["e"] == "reset"] == [{"e": "reset", "var": "used", "value": False}]
        assert told(e, events)[-1] == "used: all cleared"
        assert state["vars"]["used/0"] is False and state["vars"]["used/1"] is False

    def test_a_reset_of_one_instance_names_it(self, tmp_path):
        e = engine(tmp_path, BODY.replace("    reset used\n", "    reset used[1]\n"))
        state, events = e.start(2, 1)
        assert told(e, events)[-1] == "used[P2]: cleared"
        assert state["vars"]["used/0"] is True

    def test_a_reset_may_say_its_own_line(self, tmp_path):
        e = engine(tmp_path, BODY.replace("    reset used\n", '    reset used "Every token is ready again"\n'))
        state, events = e.start(2, 1)
        assert told(e, events)[-1] == "Every token is ready again"

    def test_a_quietly_block_may_not_ask_for_a_decision(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(
                tmp_path,
                BODY.replace(
                    "        draw 2 from deck into market\n",
                    "        draw 2 from deck into market\n        choose c from market by first_player:\n            pass\n",
                ),
            )
        assert "a `quietly` block cannot ask for a decision" in info.value.format()


class TestEngineWords:
    def test_a_phase_reads_as_its_name_and_the_box_as_the_box(self, tmp_path):
        e = engine(
            tmp_path,
            RULES.replace("    phase_two()\n", "    next second_half\nphase second_half:\n    end game\n").replace(
                '    quietly "The market is laid out":\n        move card to deck\n        draw 2 from deck into market\n',
                "    move card to deck\n",
            ),
        )
        state, events = e.start(2, 1)
        lines = told(e, events)
        assert "move Rose Jelly, Mud Pie, Nut Cake, Fig Tart from the box to deck" in lines
        assert "— second half —" in lines
