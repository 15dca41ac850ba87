"""Placements found by corners (interpreter/boards/placing.py; by covers on grids of more than
256 cells) are the placements that fit, checked placement by placement, on random grids, for
shapes with and without holes."""
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
    game = SimpleNamespace(shapes={"p": shape}, cache={}, grids={"g": SimpleNamespace(geometry=Geometry.square(rows, cols))})
    picker = {"rng": rng.seed_state(rows * cols + len(text))}
    seen = set()
    for fill in range(0, 11):  # tenths of the cells filled, up to all of them
        for _ in range(6):
            cells = [None if rng.below(picker, 10) >= fill else "x" for _ in range(rows * cols)]
            m = SimpleNamespace(game=game, state={"grids": {"g/0": {"cells": cells}}})
            answers = []
            for corners in (True, False):
                monkeypatch.setattr(placing, "BY_CORNERS", corners)
                answers.append((placing.placements_for(m, "p", "g/0"), placing._fits(m, "p", "g/0")))
            assert answers[0] == answers[1]
            seen.add(answers[0][1])
    assert seen == ({True, False} if polyomino.placements(shape, rows, cols) else {False})  # both occur
