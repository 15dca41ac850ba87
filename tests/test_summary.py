"""The few lines before each decision at the terminal: your own things, what the ruleset's
`summary:` names (every player's), and without one what is public and changed since you
last decided (the others' counters, a small shared pile such as the current trick)."""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import load_game
from meeple.dsl.errors import MeepleError
from meeple.interpreter.engine import Engine
from meeple.interpreter.terminal import summary

CARDS = "id,name\nc1,One\nc2,Two\nc3,Three\nc4,Four\nc5,Five\nc6,Six\n"
TRICKS = """game "Tricks"
players 3
component card from "cards.csv":
    label "{name}"
zone deck: deck of card
zone hand per player: hand of card
zone trick: pile of card, public
counter bid per player = 0
counter tricks per player = 0
setup:
    move card to deck
    for each player in turn_order:
        draw 2 from deck into hand
        choose b from [0, 1, 2] "How many tricks do you bid?":
            bid = b
    next round
phase round:
    for each player in turn_order:
        choose c from hand "Which card do you play?":
            move c to trick
    tricks[first_player] += 1
    move all from trick to deck
    if count(hand[first_player]) == 0:
        end game
    next round
"""


def engine(tmp_path, text: str) -> Engine:
    (tmp_path / "cards.csv").write_text(CARDS)
    path = tmp_path / "g.rules"
    path.write_text(text)
    return Engine(load_game(path))


def summaries(e, decisions: int) -> list[list[str]]:
    """Each decision's summary, as `meeple play` shows it (the seat's view after its last choice)."""
    state, _ = e.start(3, 1)
    seen, out = {}, []
    for _ in range(decisions):
        d = e.decision(state)
        out.append(summary(e, e.view(state, d.actor), d.actor, None, seen.get(d.actor)))
        state, _ = e.apply(state, min(1, len(d.options) - 1))
        seen[d.actor] = e.view(state, d.actor)
    return out


class TestDefault:
    def test_the_others_counters_and_the_trick_show_once_they_changed(self, tmp_path):
        said = summaries(engine(tmp_path, TRICKS), 5)
        assert "bid[P2]=1  bid[P3]=1" in "\n".join(said[3])  # P1 bid first; the others bid since
        assert "  trick: Two" in said[4]  # P2 sees the card P1 led

    def test_nothing_of_the_others_shows_at_a_seats_first_decision(self, tmp_path):
        said = summaries(engine(tmp_path, TRICKS), 3)
        assert not any("P1" in line for line in said[1][1:])


class TestDeclared:
    def test_a_summary_line_names_what_shows_for_every_player(self, tmp_path):
        said = summaries(engine(tmp_path, TRICKS.replace("counter tricks", "summary: bid, trick\ncounter tricks")), 4)
        assert "bid[P1]=1" in "\n".join(said[2])  # every player's bid, changed or not
        assert not any("bid" in line for line in said[0])  # zero: left out, as counters are

    def test_a_summary_naming_nothing_known_is_refused(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(tmp_path, TRICKS.replace("counter tricks", "summary: bids\ncounter tricks"))
        assert "`summary` names `bids`" in info.value.format() and "did you mean `bid`" in info.value.format()
