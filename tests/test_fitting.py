"""A choice's `where fits(item, grid)` asked for all its items at once (dsl/compile_choices.py
`FITS`, interpreter/boards/placing.py `fitting` and `BY_FAMILY`): the same items kept, the
same games played and the same errors raised as asking `fits` item by item."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from meeple.dsl import compile_choices
from meeple.interpreter import rng
from meeple.interpreter.boards import placing, polyomino
from meeple.interpreter.boards.grid import Geometry
from meeple.interpreter.effects.choices import ChooseFrom
from tests.conftest import rules, shipped
from tests.helpers import both_ways
from tests.test_placing import played_in_place

# Pieces in families: the first two (and the next two) have the same outlines, their cells differ.
SHAPES = {
    "p1": "a b / c d",
    "p2": "d c / b a",
    "l1": "a . / a . / a b",
    "l2": "b . / b . / a a",
    "i": "a a a a",
    "z": "a b . / . b a",
    "dot": "a",
}


@pytest.mark.parametrize("rows, cols", [(6, 8), (3, 3), (4, 5)])
def test_fitting_keeps_the_pieces_fits_keeps(monkeypatch, rows, cols):
    shapes = {name: polyomino.parse_shape(text, {"a", "b", "c", "d"}) for name, text in SHAPES.items()}
    game = SimpleNamespace(shapes=shapes, cache={}, grids={"g": SimpleNamespace(geometry=Geometry.square(rows, cols))})
    picker = {"rng": rng.seed_state(rows * cols)}
    pieces = ["l1", "p1", "z", "p2", "i", "l2", "p1", "dot"]
    seen = set()
    for fill in range(0, 11):  # tenths of the cells filled, up to all of them
        for _ in range(6):
            cells = [None if rng.below(picker, 10) >= fill else "x" for _ in range(rows * cols)]
            m = SimpleNamespace(game=game, state={"grids": {"g/0": {"cells": cells}}}, kept={})
            monkeypatch.setattr(placing, "BY_CORNERS", False)  # placement by placement
            want = [p for p in pieces if placing._fits(m, p, "g/0")]
            answers = []
            for family, corners, written in (
                (True, True, True),
                (True, True, False),
                (False, True, True),
                (True, False, False),
            ):
                monkeypatch.setattr(placing, "BY_FAMILY", family)
                monkeypatch.setattr(placing, "BY_CORNERS", corners)
                monkeypatch.setattr(placing, "WRITTEN", written)
                answers.append(placing.fitting(m, pieces, "g/0"))
            assert answers == [want] * 4, (rows, cols, fill)
            seen.add(len(want))
    assert 0 in seen and len(seen) >= 3  # grids where none, some and all fit


def test_pieces_of_one_family_share_their_number():
    def family(text, rows=6, cols=8):
        return polyomino.table(polyomino.parse_shape(text, {"a", "b", "c", "d"}), rows, cols).family

    assert family(SHAPES["p1"]) == family(SHAPES["p2"]) != family(SHAPES["l1"]) == family(SHAPES["l2"])
    assert family(SHAPES["p1"]) != family(SHAPES["p1"], 5, 8)  # another grid size, other corners


def the_choices(engine) -> list:
    return [op for block in engine.game.blocks for op in block.ops if isinstance(op, ChooseFrom)]


@pytest.mark.parametrize(
    "name, players, seed",
    [
        ("queens_wishes", 4, 51),
        ("queens_wishes", 1, 52),
        ("queens_wishes", 2, 53),
        ("wild_gardens", 2, 54),
        ("apothebakery", 4, 55),
        ("tic_tac_toe", 2, 56),
    ],
)
def test_shipped_games_play_the_same_with_the_pieces_asked_together(monkeypatch, name, players, seed):
    games = []
    for on in (True, False):
        monkeypatch.setattr(compile_choices, "FITS", on)
        monkeypatch.setattr(placing, "BY_FAMILY", on)
        engine = shipped(name)
        games.append(played_in_place(engine, players, seed, False))
        if name == "queens_wishes":  # the tile choices are the ones asked together
            asked = [op for op in the_choices(engine) if op.filter and "FITTING" in op.filter.__code__.co_names]
            assert len(asked) == (2 if on else 0)
    assert games[0] == games[1]


@pytest.mark.parametrize(
    "name, players, seed", [("queens_wishes", 4, 57), ("queens_wishes", 1, 58), ("wild_gardens", 2, 59)]
)
def test_shipped_games_play_the_same_with_outlines_written_out(monkeypatch, name, players, seed):
    engine = shipped(name)
    games = []
    for on in (True, False):
        monkeypatch.setattr(placing, "WRITTEN", on)
        games.append(played_in_place(engine, players, seed, False))
    assert games[0] == games[1]


def test_written_outlines_share_their_shifts_and_answer_as_the_loop():
    from meeple.interpreter.boards import corner_source

    outlines = ((0b0011, (0, 1)), (0b0110, (1, 4)), (0b0001, (0, 4)))

    def looped(free):
        for corners, distances in outlines:
            for d in distances:
                corners &= free >> d
            if corners:
                return True
        return False

    fits = corner_source.fits_test(outlines)
    assert corner_source.fits_test(outlines) is fits  # made once
    answers = [fits(~occupied) for occupied in range(64)]
    assert answers == [looped(~occupied) for occupied in range(64)] and True in answers and False in answers
    assert fits.__code__.co_varnames == ("free", "s1", "s4")  # each shift made once


FITS_RULES = """
game "Fitting"
players 2
enum symbol = rose | tree
component tile from "tiles.csv":
    cells: shape of symbol
zone supply: pile of tile
grid garden per player: 2 x 3 of symbol
counter misses per player = 0
setup:
    move tile to supply
    for each player in turn_order:
        repeat 3:
            choose t from supply where fits(t, garden) "Which tile?":
                place t on garden
            otherwise:
                misses += 1
    choose x from [1, 2] where fits(x, garden[0]) "Which number?":
        misses += x
"""
TILES = "id,cells\nt1,rose tree\nt2,tree tree / rose .\nt3,rose rose / tree tree\nt4,rose . / tree .\n"


def test_a_choice_among_things_without_a_shape_fails_alike(monkeypatch, tmp_path):
    def run(on):
        monkeypatch.setattr(placing, "BY_FAMILY", on)
        engine = rules(FITS_RULES, tmp_path, {"tiles.csv": TILES})
        state, _ = engine.start(2, 7)
        while engine.option_count(state):
            state, _ = engine.apply(state, 0)
        return state

    outcomes = both_ways(monkeypatch, compile_choices, "FITS", run)
    assert outcomes[0] == outcomes[1]
    assert isinstance(outcomes[0], str) and "`1` has no shape to place" in outcomes[0]


def test_a_choice_naming_its_item_player_reads_the_item_s_grid(monkeypatch, tmp_path):
    """`garden` inside the filter means the garden of the item when the item is named `player`:
    that filter is not asked together (it would read the frame's player), and fails as before."""
    text = FITS_RULES.replace(
        "choose t from supply where fits(t, garden)", "choose player from supply where fits(player, garden)"
    )
    text = text.replace("place t on garden", "place player on garden[0]")
    assert text.count("player") == FITS_RULES.count("player") + 3

    def run(on):
        engine = rules(text, tmp_path, {"tiles.csv": TILES})
        assert not any(
            op.filter and "FITTING" in op.filter.__code__.co_names for op in the_choices(engine) if op.var == "player"
        )
        state, _ = engine.start(2, 7)
        return state

    outcomes = both_ways(monkeypatch, compile_choices, "FITS", run)
    assert outcomes[0] == outcomes[1] and "garden/t1" in outcomes[0]
