"""A face-up pile of which only the top card shows (`zone discard: pile of card, top`): every
view shows its top card and counts the rest; what is put on it or taken off it is seen."""

from __future__ import annotations

from meeple.dsl.compiler import load_game
from meeple.interpreter.engine import Engine
from meeple.interpreter.render import event_text
from meeple.interpreter.state import HIDDEN, visible_events

CARDS = "id,name\nc1,One\nc2,Two\nc3,Three\nc4,Four\n"
RULES = """game "Top"
players 2
component card from "cards.csv":
    label "{name}"
zone deck: deck of card
zone hand per player: hand of card
zone discard: pile of card, top
setup:
    move card to deck
    draw 2 from deck into hand[0]
    for each c in hand[0]:
        move c to discard at top
    may choose c from [top(discard)] by 1 "Take the top card?":
        move c to hand[1]
"""


def engine(tmp_path) -> Engine:
    (tmp_path / "cards.csv").write_text(CARDS)
    path = tmp_path / "g.rules"
    path.write_text(RULES)
    return Engine(load_game(path))


def test_every_view_shows_the_top_card_and_counts_the_rest(tmp_path):
    e = engine(tmp_path)
    state, _ = e.start(2, 1)
    top, under = state["zones"]["discard"]
    for viewer in (0, 1, None):
        assert e.view(state, viewer)["zones"]["discard"] == [top, HIDDEN]


def test_a_card_put_on_it_is_seen_by_everyone(tmp_path):
    e = engine(tmp_path)
    state, events = e.start(2, 1)
    seen = visible_events(e.game, events, 1, state)
    onto = [event_text(e.game, ev, 1) for ev in seen if ev["e"] == "move" and ev["dst"] == "discard"]
    assert len(onto) == 2 and not any("a card" in line for line in onto)


def test_taking_the_top_card_is_public(tmp_path):
    e = engine(tmp_path)
    state, _ = e.start(2, 1)
    top = state["zones"]["discard"][0]
    d = e.decision(state)
    from meeple.interpreter.runner import choice_seen_by

    assert choice_seen_by(e.game, state, d, 0, 2) is None  # everyone sees which card was taken
    state, events = e.apply(state, 0)
    assert e.view(state, 0)["zones"]["discard"] == [state["zones"]["discard"][0]]
    assert top in state["zones"]["hand/1"]
