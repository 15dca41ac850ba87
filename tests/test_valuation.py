"""Shortcuts of quiet play and valuation (what simulations and bots run) against the plain way:
the engine's reused quiet machine (engine.REUSE) and score rules and hints written as one
generated function (dsl/compile_pure.py) give the same states, scores, hints and rankings."""
from __future__ import annotations

import pytest

from meeple.interpreter import engine as engine_module
from meeple.interpreter import rng
from meeple.interpreter.engine import Engine
from tests.conftest import shipped

GAMES = [("queens_wishes", 4, 31), ("wild_gardens", 2, 32), ("apothebakery", 4, 33), ("mudcake_fair", 3, 34),
         ("tic_tac_toe", 2, 35), ("connect_four", 2, 36), ("breakthrough", 2, 37)]


def valued(engine: Engine, players: int, seed: int) -> list:
    """A random game played quietly: each state, each player's scores and hints on it, the ranking."""
    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    out = []
    while True:
        out.append([state, engine.scores(state), [engine.hints(state, p) for p in range(players)]])
        n = engine.option_count(state)
        if n == 0:
            return out + [engine.ranking(state)]
        state, events = engine.apply(state, rng.below(picker, n), events=False)
        assert events == []


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_reused_quiet_machine_and_a_new_one_play_the_same(monkeypatch, name, players, seed):
    reused = valued(shipped(name), players, seed)
    monkeypatch.setattr(engine_module, "REUSE", False)
    assert valued(shipped(name), players, seed) == reused


def test_events_are_kept_whatever_quiet_calls_came_between():
    engine = shipped("tic_tac_toe")
    state, _ = engine.start(2, 1)
    quiet, _ = engine.apply(state, 0, events=False)
    engine.scores(quiet)
    _, events = engine.apply(quiet, 0)
    assert events and engine.apply(quiet, 1, events=False)[1] == []
