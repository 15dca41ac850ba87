"""The greedy agent: the option with the best immediate change in its own score.

It guesses the hidden parts of its view (determinize), tries every option on
the guess, and scores the result with the ruleset's score rules. Ties go to a
seeded random pick.
"""
from __future__ import annotations

from interpreter.agents.determinize import determinize
from interpreter.agents.mcts import GUESS_ERRORS
from interpreter.rng import Random


class GreedyAgent:
    name = "greedy"

    def __init__(self, engine, seat: int, seed: int):
        self.engine, self.seat, self.rng = engine, seat, Random(seed)

    def choose(self, view: dict, decision) -> int:
        if len(decision.options) == 1:
            return 0
        engine = self.engine
        guess = determinize(engine.game, view, self.rng.below(1 << 62))
        before = self.total(guess)
        best, best_gain = [], None
        for i in range(len(decision.options)):
            try:
                after, _ = engine.apply(guess, i)
                gain = self.total(after) - before
            except GUESS_ERRORS:
                gain = 0  # the guess lacks something this option needs (another player's secret)
            if best_gain is None or gain > best_gain:
                best, best_gain = [i], gain
            elif gain == best_gain:
                best.append(i)
        return self.rng.choice(best)

    def total(self, state: dict) -> int:
        return self.engine.total(state, self.seat)
