"""Placements found by corners (interpreter/boards/placing.py; by covers on grids of more than
256 cells; with the free cells spread to bytes or not; outlines tested by written functions or
by a loop; on an empty grid, the whole table or tested; picked a byte of corners at a time,
selected from padded option lists or through byte tables) are the placements that fit, checked
placement by placement, on random grids, for shapes with and without holes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from meeple.interpreter import rng
from meeple.interpreter.boards import placing, polyomino
from meeple.interpreter.boards.grid import Geometry

SHAPES = ["a b / c d", "a", "a a a a", "a . / a . / a b", "a b . / . b a", "a . a / a a a", "a . / . a"]


@pytest.mark.parametrize("text", SHAPES)
@pytest.mark.parametrize("rows, cols", [(6, 8), (3, 3), (5, 2), (16, 16), (17, 16)])
def test_placements_by_corners_are_the_ones_that_fit(monkeypatch, text, rows, cols):
    shape = polyomino.parse_shape(text, {"a", "b", "c", "d"})
    game = SimpleNamespace(
        shapes={"p": shape}, cache={}, grids={"g": SimpleNamespace(geometry=Geometry.square(rows, cols))}
    )
    picker = {"rng": rng.seed_state(rows * cols + len(text))}
    seen = set()
    for fill in range(0, 11):  # tenths of the cells filled, up to all of them
        for _ in range(6):
            cells = [None if rng.below(picker, 10) >= fill else "x" for _ in range(rows * cols)]
            m = SimpleNamespace(game=game, state={"grids": {"g/0": {"cells": cells}}}, kept={})
            answers = []
            for corners, spread, written, empty, selected, picked in (
                (True, True, True, True, True, True),
                (True, True, True, True, True, False),
                (True, True, True, False, True, False),
                (True, True, True, True, False, False),
                (True, True, False, True, True, False),
                (True, False, True, True, True, False),
                (True, False, False, False, False, False),
                (False, False, False, False, False, False),
            ):
                monkeypatch.setattr(placing, "PICKED", picked)
                monkeypatch.setattr(placing, "BY_CORNERS", corners)
                monkeypatch.setattr(placing, "SPREAD", spread)
                monkeypatch.setattr(placing, "WRITTEN", written)
                monkeypatch.setattr(placing, "EMPTY", empty)
                monkeypatch.setattr(placing, "SELECTED", selected)
                answers.append((placing.placements_for(m, "p", "g/0"), placing._fits(m, "p", "g/0")))
            assert answers == [answers[0]] * 8
            seen.add(answers[0][1])
    assert seen == ({True, False} if polyomino.placements(shape, rows, cols) else {False})  # both occur


def played_in_place(engine, players: int, seed: int, copies: bool) -> list:
    """A random game as bench plays it (one state changed in place), or copying the state at
    each decision: every decision's options (ids), then the final state and scores."""
    from meeple.interpreter import state as st

    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    out = []
    while (d := engine.decision(state)) is not None:
        out.append([o.id for o in d.options])
        choice = rng.below(picker, len(d.options))
        state, _ = engine.apply(st.copy_state(state) if copies else state, choice, inplace=True, events=False)
    return out + [engine.scores(state), state]


@pytest.mark.parametrize(
    "name, players, seed",
    [("queens_wishes", 4, 41), ("queens_wishes", 2, 42), ("wild_gardens", 2, 43), ("apothebakery", 4, 44)],
)
def test_kept_occupancy_plays_the_same_games(monkeypatch, name, players, seed):
    from tests.conftest import shipped

    games = []
    for compared, keep, picked in (
        (True, True, True),
        (True, True, False),
        (False, True, False),
        (False, False, False),
        (True, False, False),
        (False, False, True),
    ):
        monkeypatch.setattr(placing, "PICKED", picked)  # on, it reads the kept copy itself
        monkeypatch.setattr(placing, "COMPARED", compared)
        monkeypatch.setattr(placing, "KEEP", keep)
        games.append([played_in_place(shipped(name), players, seed, copies) for copies in (False, True)])
    assert games == [games[0]] * 6
    assert games[0][0] == games[0][1]


@pytest.mark.parametrize("compared", [True, False])
def test_a_kept_mask_follows_put_and_is_rebuilt_for_new_or_changed_cells(monkeypatch, compared):
    from meeple.interpreter.effects import choices

    monkeypatch.setattr(placing, "COMPARED", compared)
    shape = polyomino.parse_shape("a b", {"a", "b"})
    game = SimpleNamespace(
        shapes={"p": shape, "q": shape}, cache={}, grids={"g": SimpleNamespace(geometry=Geometry.square(2, 3))}
    )
    cells = [None] * 6
    m = SimpleNamespace(
        game=game, state={"grids": {"g/0": {"cells": cells, "pieces": []}}, "zones": {}}, recording=False, kept={}
    )
    assert placing.occupied(m, "g/0") == 0 and placing._fits(m, "p", "g/0")
    choices.put(m, "p", "g/0", [0, 1, 1])  # cells 0 and 1
    assert placing.occupied(m, "g/0") == 0b11 and placing._fits(m, "q", "g/0")
    choices.put(m, "q", "g/0", [1, 1, 3])  # turned: cells 2 and 5
    assert placing.occupied(m, "g/0") == 0b100111 and placing._fits(m, "p", "g/0")  # cells 3 and 4
    game.shapes["r"] = shape
    choices.put(m, "r", "g/0", [0, 2, 1])
    assert placing.occupied(m, "g/0") == 0b111111 and not placing._fits(m, "p", "g/0")
    m.state["grids"]["g/0"]["cells"] = [None] * 6  # a new list (a copy, a loaded state): rebuilt
    assert placing.occupied(m, "g/0") == 0 and placing._fits(m, "p", "g/0")
    placing.forget(m, "g/0")  # what setting a cell does first
    m.state["grids"]["g/0"]["cells"][4] = "a"
    assert placing.occupied(m, "g/0") == 0b10000
    with pytest.raises(ValueError):  # half written, then stopped: the mask is dropped before
        choices.put(m, "p", "g/0", [0, 2, 2])  # a placement off the table: cell 4 is taken
    assert placing.occupied(m, "g/0") == gridlib_occupancy(m.state["grids"]["g/0"]["cells"])
    m.state["grids"]["g/0"]["cells"][:] = ["a"] * 5 + [None]  # changed in place by a caller,
    m.kept = {}  # between two runs of the machine: the next run compares
    assert placing.occupied(m, "g/0") == 0b11111 and not placing._fits(m, "p", "g/0")


def gridlib_occupancy(cells):
    return sum(1 << i for i, v in enumerate(cells) if v is not None)


def test_tables_of_up_to_256_cells_are_spread():
    """The spread form is used where it pays (polyomino.SPREAD_FROM outlines or more: since the
    written selector, one), so the test above tries it, for shapes of one outline too."""
    shapes = [polyomino.parse_shape(text, {"a", "b", "c", "d"}) for text in SHAPES]
    assert polyomino.SPREAD_FROM == 1
    assert all(polyomino.table(shape, 6, 8).spread is not None for shape in shapes)
    assert any(len(polyomino.table(shape, 6, 8).outlines) == 1 for shape in shapes)
    assert all(polyomino.table(shape, 17, 16).spread is None for shape in shapes)  # no segments there


@pytest.mark.parametrize("name, players, seed", [("queens_wishes", 4, 45), ("queens_wishes", 1, 46)])
def test_spread_free_cells_play_the_same_games(monkeypatch, name, players, seed):
    from tests.conftest import shipped

    games = []
    for spread in (True, False):
        monkeypatch.setattr(placing, "SPREAD", spread)
        games.append(played_in_place(shipped(name), players, seed, False))
    assert games[0] == games[1]


@pytest.mark.parametrize(
    "name, players, seed", [("queens_wishes", 4, 47), ("queens_wishes", 2, 48), ("queens_wishes", 1, 49)]
)
@pytest.mark.parametrize("switch", ["EMPTY", "SELECTED", "PICKED"])
def test_empty_grids_and_padded_options_play_the_same_games(monkeypatch, switch, name, players, seed):
    """`EMPTY`: on an empty grid the whole table is offered, as the test would find it;
    `SELECTED`: the padded option lists select the same placements as the byte tables;
    `PICKED`: the bytes of corners pick the same placements as the padded lists select."""
    from tests.conftest import shipped

    games = []
    for on in (True, False):
        monkeypatch.setattr(placing, switch, on)
        if switch != "PICKED":  # the earlier switches are measured with the padded lists
            monkeypatch.setattr(placing, "PICKED", False)
        games.append([played_in_place(shipped(name), players, seed, copies) for copies in (False, True)])
    assert games[0] == games[1]


# The twelfth stint's shortcuts (docs/experiments.md): the shipped games with each on and off
# (The Queen's Wishes at every player count; the others place nothing and must not notice).
TWELFTH = ["PICKED"]


@pytest.mark.parametrize("switch", TWELFTH)
@pytest.mark.parametrize(
    "name, players, seed",
    [
        ("queens_wishes", 4, 71),
        ("queens_wishes", 2, 72),
        ("queens_wishes", 1, 73),
        ("wild_gardens", 4, 74),
        ("apothebakery", 4, 75),
        ("tic_tac_toe", 2, 76),
        ("connect_four", 2, 77),
    ],
)
def test_a_placing_shortcut_plays_the_shipped_games_as_without_it(monkeypatch, switch, name, players, seed):
    from tests.conftest import shipped
    from tests.helpers import both_ways
    from tests.test_decision_points import played

    on, off = both_ways(monkeypatch, placing, switch, lambda on: played(shipped(name), players, seed))
    assert on == off
