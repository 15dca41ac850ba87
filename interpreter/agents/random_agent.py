"""The random agent: a uniformly random legal option, from its own seeded generator."""

from __future__ import annotations

from meeple.interpreter.rng import Random


class RandomAgent:
    name = "random"

    def __init__(self, engine, seat: int, seed: int):
        self.rng = Random(seed)

    def choose(self, view: dict, decision) -> int:
        return self.rng.below(len(decision.options))
