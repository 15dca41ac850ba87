"""The terminal speaks the game as the play table does: its header says whose turn it is and the
start player (no phase, no engine words), a ruleset's `layout:` arranges the summary and the whole
table (`s`), and before each decision "Changed since your last decision" names what changed, in the log's
words and only as the seat may see it."""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import load_game, shipped_rulesets
from meeple.interpreter.engine import Engine
from meeple.interpreter.rng import Random
from meeple.interpreter.terminal import since_lines, summary, table_text, whole_table
from tests.conftest import rules
from tests.test_log_words import engine_words
from tests.test_summary import TRICKS
from tests.test_summary import engine as tricks_engine

MARKET = """game "Market day"
players 2
enum fruit = apple | pear | plum
enum stall = left | right
component crate from "crates.csv":
    label "{fruit} crate"
    fruit: fruit
    price: int
zone stock per stall: pile of crate, public, label "the {stall} stall"
zone bag: bag of crate
zone basket per player: pile of crate, public, label "{player}'s basket"
counter coins per player = 5, max 10, label "{player}'s coins"
counter sold per stall = 0, label "sold at the {stall} stall"
counter day_number = 1, label "day"
layout:
    area "The market":
        columns per stall "The {stall} stall": stock, sold "Sold"
        bag
    player:
        coins track 0..10
        basket
    others: coins
    face crate "{fruit} crate": "costs {price}", colour fruit
setup:
    move crate to bag
    shuffle bag
    draw 2 from bag into stock[left]
    draw 1 from bag into stock[right]
    for each p in turn_order:
        choose c from stock[left] + stock[right] by p "Which crate do you buy?":
            move c to basket[p]
            coins[p] -= 1
"""
CRATES = "id,fruit,price\nc1,apple,2\nc2,pear,3\nc3,plum,1\nc4,apple,2\nc5,pear,4\n"


def market(tmp_path, text: str = MARKET) -> Engine:
    return rules(text, tmp_path, files={"crates.csv": CRATES})


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_no_engine_words_before_a_decision_or_on_the_whole_table(name):
    """What `meeple play` prints before each decision (the summary and what changed) and `s`,
    scanned over a random game for the words the play table's log may not say either."""
    engine = Engine(load_game(shipped_rulesets()[name]))
    game = engine.game
    players = 2 if game.min_players <= 2 <= game.max_players else game.min_players
    state, _ = engine.start(players, 1)
    rng, seen, said = Random(1), dict[int, dict](), list[str]()
    for i in range(150):
        d = engine.decision(state)
        if d is None:
            break
        view = engine.view(state, d.actor)
        said += summary(engine, view, d.actor, None, seen.get(d.actor))
        said += since_lines(game, seen.get(d.actor), view, d.actor)
        if i % 50 == 0:
            said += whole_table(engine, view, d.actor)
        state, _ = engine.apply(state, d.options[rng.below(len(d.options))].id)
        seen[d.actor] = engine.view(state, d.actor)
    assert any(": your turn" in line for line in said)
    assert engine_words(game, said) == {}, name


class TestHeader:
    def test_it_says_whose_turn_and_the_start_player_not_the_phase(self, tmp_path):
        e = tricks_engine(tmp_path, TRICKS)
        state, _ = e.start(3, 1)
        state, _ = e.apply(state, 0)
        assert summary(e, e.view(state, 1), 1)[0] == "P2: your turn · start player: P1"
        assert table_text(e.game, e.view(state, 1), 1)[:2] == ["P2 (you) · start player: P1", "On the table:"]

    def test_alone_there_is_no_start_player_to_speak_of(self, tmp_path):
        e = tricks_engine(tmp_path, TRICKS.replace("players 3", "players 1..3"))
        state, _ = e.start(1, 1)
        assert summary(e, e.view(state, 0), 0)[0] == "P1: your turn"


class TestLayout:
    def test_the_whole_table_is_arranged_as_the_layout_says(self, tmp_path):
        e = market(tmp_path)
        state, _ = e.start(2, 1)
        state, _ = e.apply(state, 0)  # P1 buys a crate
        lines = whole_table(e, e.view(state, 1), 1)
        # your area first, then the shared areas in order, then the others
        assert lines[:3] == ["start player: P1", "P2 (you)", "  coins 5/10"]
        market_at, p1_at = lines.index("The market"), lines.index("P1")
        assert 2 < market_at < p1_at
        # one line per column of the enum, the zone's cards by their face and the counter by its heading
        left, right = state["zones"]["stock/left"], state["zones"]["stock/right"]
        assert len(left) + len(right) == 2
        shown = [ln for ln in lines[market_at:p1_at] if ln.startswith("  The ")]
        assert all(ln.endswith("· Sold 0") for ln in shown) and len(shown) == sum(1 for z in (left, right) if z)
        assert any("crate (costs " in ln for ln in shown)
        assert "  bag: 2 face down" in lines
        # what the layout does not name is under "More", so nothing is out of reach
        assert lines[lines.index("More on the table:") + 1] == "  day 1"
        # the other player's area shows what `others:` names; the rest of it under its "More"
        theirs = lines[p1_at:]
        assert theirs[1] == "  coins 4/10" and theirs[2] == "  More:" and theirs[3].startswith("    basket: ")

    def test_the_summary_is_your_area_as_its_player_rows(self, tmp_path):
        e = market(tmp_path)
        state, _ = e.start(2, 1)
        assert summary(e, e.view(state, 0), 0) == ["P1: your turn · start player: P1", "  P1 (you)", "    coins 5/10"]

    def test_without_a_layout_the_generic_text_stays(self, tmp_path):
        e = market(tmp_path, MARKET.split("layout:")[0] + "setup:" + MARKET.split("setup:")[1])
        state, _ = e.start(2, 1)
        view = e.view(state, 0)
        assert whole_table(e, view, 0) == table_text(e.game, view, 0)
        assert "On the table:" in whole_table(e, view, 0)


class TestSince:
    def test_what_changed_since_your_last_decision_is_named_in_the_logs_words(self, tmp_path):
        e = tricks_engine(tmp_path, TRICKS)
        state, _ = e.start(3, 1)
        assert since_lines(e.game, None, e.view(state, 0), 0) == []  # nothing at a seat's first decision
        state, _ = e.apply(state, 1)  # P1 bids 1
        before = e.view(state, 0)
        state, _ = e.apply(state, 2)  # P2 bids 2
        state, _ = e.apply(state, 0)  # P3 is dealt two cards and bids 0: no change to the bid
        lines = since_lines(e.game, before, e.view(state, 0), 0)
        assert lines == [
            "Changed since your last decision:",
            "  bid[P2]: 0 → 2 · deck: 0 face down (was 2) · hand[P3]: 2 face down (was 0)",
        ]

    def test_the_others_hidden_cards_are_counts(self, tmp_path):
        e = tricks_engine(tmp_path, TRICKS)
        state, _ = e.start(3, 1)
        for _ in range(3):  # the bids
            state, _ = e.apply(state, 0)
        state, _ = e.apply(state, 0)  # P1 leads a card
        before = e.view(state, 0)
        played = state["zones"]["hand/1"][0]
        state, _ = e.apply(state, 0)  # P2 plays one
        text = " ".join(since_lines(e.game, before, e.view(state, 0), 0))
        assert f"trick: + {e.game.labels[played]}" in text and "hand[P2]: 1 face down (was 2)" in text
        assert not any(e.game.labels[c] in text for c in state["zones"]["hand/1"] + state["zones"]["hand/2"])

    def test_a_long_list_of_changes_is_cut_with_a_count(self, tmp_path):
        e = market(tmp_path)
        state, _ = e.start(2, 1)
        before = e.view(state, 0)
        view = e.view(state, 0)
        view["vars"] = dict(view["vars"], **{f"extra/{i}": i + 1 for i in range(12)})
        before["vars"] = dict(before["vars"], **{f"extra/{i}": 0 for i in range(12)})
        lines = since_lines(e.game, before, view, 0)
        assert lines[-1].endswith("and 4 more (s shows the table)")

    def test_a_grid_says_the_cells_marked_or_the_pieces_placed(self):
        from tests.conftest import shipped

        e = shipped("tic_tac_toe")
        state, _ = e.start(2, 1)
        state, _ = e.apply(state, 4)  # P1 marks the middle
        before = e.view(state, 0)
        state, _ = e.apply(state, 0)  # P2 marks the top left corner
        assert since_lines(e.game, before, e.view(state, 0), 0)[1:] == ["  board row 1, column 1: o"]

        e = shipped("queens_wishes")
        state, _ = e.start(2, 4)
        while e.decision(state).actor == 0 or "piece" not in (state["pending"] or {}):
            state, _ = e.apply(state, 0)  # until P2 places a tile
        before = e.view(state, 0)
        piece = state["pending"]["piece"]
        state, _ = e.apply(state, 0)
        placed = state["grids"]["garden/1"]["pieces"][-1]
        text = " ".join(since_lines(e.game, before, e.view(state, 0), 0))
        assert f"P2's garden: + {e.game.labels.get(piece, piece)} at row {placed[2]}, column {placed[3]}" in text


def test_with_a_layout_a_summary_line_names_every_players_things_in_the_tables_words(tmp_path):
    e = market(tmp_path, MARKET.replace("counter day_number", "summary: coins, basket, stock\ncounter day_number"))
    state, _ = e.start(2, 1)
    state, _ = e.apply(state, 0)  # P1 buys a crate
    lines = summary(e, e.view(state, 1), 1)
    bought = e.game.page["faces"][state["zones"]["basket/0"][0]]
    assert lines[:3] == ["P2: your turn · start player: P1", "  P2 (you)", "    coins 5/10"]
    # the shared piles named, each by its label, and the other player's things on one line
    face = e.game.page["faces"][state["zones"]["stock/left"][0]]
    assert lines[3].startswith(f"  the left stall: {face['title']} ({face['lines'][0]}) · the right stall: ")
    assert lines[-1].startswith("  P1: coins 4 · basket: ") and bought["title"] in lines[-1]
