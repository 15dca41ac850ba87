"""Cell filters read the grid directly (dsl/compile_cells.py); they must agree with
the general path. Each game is played twice, once over `cells(board)` (a direct
path) and once over `list(cells(board))` (the general path), with the same random
choices: every decision must offer the same options and every score must match.
A shared grid takes the one-comprehension path over its content array; a grid
kept per player takes the per-cell direct test."""

from __future__ import annotations

import pytest

from meeple.interpreter.rng import Random
from tests.conftest import rules

GAME = """
game "Cells"
players 2
enum mark = x | o | wall
GRID
counter walls = 0
counter seen = 0

setup:
    next turn

phase turn:
    let player = first_player
    let mine = [x, o][player]
    choose c from SOURCE where FILTER:
        c.mark = mine
    otherwise:
        end game
    seen += count(each c in SOURCE where c.mark == mine or c.mark == wall)
    if any(not c.empty and c.mark != wall for each c in SOURCE where c.row > 0):
        walls += 1
    if all(not c.empty for each c in SOURCE):
        end game
    if walls > 6 and any(c.empty for each c in SOURCE):
        choose w from SOURCE where w.empty:
            w.mark = wall
    first_player = next_player(player)
    next turn

score "Seen": seen
score "Walls": walls
"""

FILTERS = [
    "c.empty",
    "c.empty and not c.mark == wall",
    "c.mark == none or c.mark != x and c.empty",
    "not (not c.empty)",
    "c.empty and c.row != 1",
]


def play(text: str, seed: int):
    engine = rules(text)
    rng = Random(seed)
    state, _ = engine.start(2, seed)
    seen = []
    while (d := engine.decision(state)) is not None:
        seen.append([o.id for o in d.options])
        state, _ = engine.apply(state, rng.below(len(d.options)))
    return seen, engine.scores(state)


GRIDS = ["grid board: 4 x 4 of mark", "grid board per player: 4 x 4 of mark"]


@pytest.mark.parametrize("grid", GRIDS)
@pytest.mark.parametrize("where", FILTERS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_direct_and_general_paths_agree(grid, where, seed):
    text = GAME.replace("FILTER", where).replace("GRID", grid)
    direct = play(text.replace("SOURCE", "cells(board)"), seed)
    general = play(text.replace("SOURCE", "list(cells(board))"), seed)
    assert direct[0], f"seed {seed}: no decisions"
    assert direct == general, f"seed {seed}, where {where}"


def test_the_direct_paths_are_taken():
    def chooses(grid, source):
        engine = rules(GAME.replace("FILTER", "c.empty").replace("SOURCE", source).replace("GRID", grid))
        return [op for b in engine.game.blocks for op in b.ops if type(op).__name__ == "ChooseFrom"]

    shared, per_player = (chooses(g, "cells(board)") for g in GRIDS)
    assert len(shared) == 2 and all(op.where is None and op.cell_test is None for op in shared)  # folded
    assert all(op.cell_test is not None for op in per_player)
    assert all(op.where is not None and op.cell_test is None for op in chooses(GRIDS[0], "list(cells(board))"))
