"""Shortcuts of quiet play and valuation (what simulations and bots run) against the plain way:
the engine's reused quiet machine (engine.REUSE) and score rules and hints written as one
generated function (dsl/compile_pure.py) give the same states, scores, hints and rankings."""

from __future__ import annotations

import sys

import pytest

from meeple.dsl import compile_pure
from meeple.interpreter import engine as engine_module
from meeple.interpreter import rng
from meeple.interpreter.engine import Engine
from tests.conftest import rules, shipped
from tests.helpers import both_ways

GAMES = [
    ("queens_wishes", 4, 31),
    ("wild_gardens", 2, 32),
    ("apothebakery", 4, 33),
    ("mudcake_fair", 3, 34),
    ("tic_tac_toe", 2, 35),
    ("connect_four", 2, 36),
    ("breakthrough", 2, 37),
]


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


@pytest.mark.parametrize("name, players, seed", [g for g in GAMES if g[0] in ("queens_wishes", "mudcake_fair")])
def test_blocks_generated_and_as_closures_value_the_same(monkeypatch, name, players, seed):
    fast = shipped(name)
    assert any(
        r.fn.__code__.co_filename == "<rules: generated expression>" and r.fn.__name__ == "r" for r in fast.game.scores
    )  # a block written as one function
    monkeypatch.setattr(compile_pure, "ENABLED", False)
    assert valued(shipped(name), players, seed) == valued(fast, players, seed)


BLOCK_RULES = """
game "B"
players 2
counter a = 0
setup:
    end game
score "S":
    let xs = [1, 2, 3]
    for each x in xs where x > 1:
        let y = x * 2
        if y > 4:
            add y
        elif y == 4:
            add 1
        else:
            pass
    for each [p, q] in [[1, 2], [3, 4]]:
        add p * q
    add count(xs) + y
    add STEP
"""


@pytest.mark.parametrize("step, total", [("0", 30), ("[0][1]", None), ("xs", None), ("a[3]", None)])
def test_a_generated_block_fails_and_works_as_its_closures(monkeypatch, step, total):
    def run(enabled):
        engine = rules(BLOCK_RULES.replace("STEP", step))
        assert (engine.game.scores[0].fn.__name__ == "r") == enabled  # written as one function
        state, _ = engine.start(2, 1)
        return engine.scores(state)

    outcomes = both_ways(monkeypatch, compile_pure, "ENABLED", run)
    assert outcomes[0] == outcomes[1]
    if total is not None:
        assert outcomes[0][0]["total"] == total


def test_quiet_machines_are_never_shared_between_threads():
    """Bots of two tables of one game think in two threads on one engine (the play table)."""
    import threading

    engine = shipped("connect_four")
    results, alone = {}, {}

    def play(seed: int, into: dict) -> None:
        into[seed] = valued(engine, 2, seed)

    for seed in (1, 2, 3, 4):
        play(seed, alone)
    threads = [threading.Thread(target=play, args=(seed, results)) for seed in (1, 2, 3, 4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # threads take turns often (one machine shared between them fails then)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert results == alone


def test_groups_counted_and_built_value_the_same(monkeypatch):
    from meeple.dsl import compile_source

    fast = valued(shipped("queens_wishes"), 4, 38)
    monkeypatch.setattr(compile_source, "COUNT_GROUPS", False)
    assert valued(shipped("queens_wishes"), 4, 38) == fast


@pytest.mark.parametrize(
    "cells, count",
    [
        ("each c in cells(board) where c.empty", 1),
        ("[]", 0),
        ('[["board", 0], ["board", 2], ["board", 0]]', 2),
        ("[1, 2]", None),
        ("none", 0),
    ],
)
def test_a_group_count_fails_and_works_as_the_groups(monkeypatch, cells, count):
    from meeple.dsl import compile_source

    text = f"""
game "G"
players 2
enum mark = x | o
grid board: 3 x 3 of mark
setup:
    end game
score "S": count(groups({cells}))
"""

    def run(_):
        engine = rules(text)
        state, _ = engine.start(2, 1)
        return engine.scores(state)

    outcomes = both_ways(monkeypatch, compile_source, "COUNT_GROUPS", run)
    assert outcomes[0] == outcomes[1]
    if count is not None:
        assert outcomes[0][0]["total"] == count
