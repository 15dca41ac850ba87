"""Benchmarks: how fast a ruleset plays, measured, never guessed.

`meeple bench` plays uniformly random full games on the engine's raw loop
(option count, apply by index, in place) for a fixed time, several times, and
reports the median with min-max: games/s, decisions/s, state copies/s and the
size of a mid-game state. Parsing, checking and compiling are timed apart.
"""

from __future__ import annotations

import statistics
import time

from meeple.interpreter import rng
from meeple.interpreter.state import copy_state, to_json


def time_compile(load, repeats: int = 3) -> list[float]:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        load()
        out.append(time.perf_counter() - t)
    return out


MAX_DECISIONS = 100_000  # as `meeple run`: a game longer than this never ends


class BenchError(Exception):
    """A game that cannot be timed (it never ends)."""


def play_random(engine, players: int, seed: int, picker: dict) -> int:
    """One uniformly random game; returns the number of decisions."""
    state, _ = engine.start(players, seed, events=False)
    decisions = 0
    count = engine.option_count
    apply = engine.apply
    while True:
        n = count(state)
        if n == 0:
            return decisions
        apply(state, rng.below(picker, n), inplace=True, events=False)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise BenchError(f"seed {seed}: the game does not end after {MAX_DECISIONS:,} random decisions")


def run_for(engine, players: int, seconds: float, seed: int) -> dict:
    picker = {"rng": rng.seed_state(seed)}
    games = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play_random(engine, players, seed + games, picker)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"games": games, "decisions": decisions, "seconds": elapsed}


def mid_game_state(engine, players: int, seed: int) -> dict:
    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    total = play_random(engine, players, seed, {"rng": rng.seed_state(seed)})
    for _ in range(total // 2):
        n = engine.option_count(state)
        if n == 0:
            break
        engine.apply(state, rng.below(picker, n), inplace=True)
    return state


def copies_per_second(state: dict, seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while True:
        for _ in range(100):
            copy_state(state)
        n += 100
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def bench(engine, players: int, seconds: float, repeats: int, seed: int = 1) -> dict:
    runs = [run_for(engine, players, seconds, seed + 1000 * r) for r in range(repeats)]
    state = mid_game_state(engine, players, seed)
    copies = [copies_per_second(state, min(seconds, 1.0)) for _ in range(repeats)]
    return {
        "games_per_s": [r["games"] / r["seconds"] for r in runs],
        "decisions_per_s": [r["decisions"] / r["seconds"] for r in runs],
        "decisions_per_game": [r["decisions"] / r["games"] for r in runs],
        "copies_per_s": copies,
        "state_bytes": len(to_json(state)),
    }


def spread(values: list[float]) -> str:
    med = statistics.median(values)
    return f"{med:,.1f} ({min(values):,.1f}-{max(values):,.1f})"
