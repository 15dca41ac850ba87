"""Plug-in agents for the lab's tests of runs that stop, crash or hang (loaded as tests.lab_agents:Name).

Each plays like the random agent and misbehaves in the game whose seed is in the environment
variable MEEPLE_TEST_SEED, so the same agent (the same setup, as --resume demands) plays that
game normally once the variable is gone.
"""

from __future__ import annotations

import os
import time

from meeple.interpreter.agents.random_agent import RandomAgent

SEAT_FACTOR = 7919  # make_agent seeds each seat with game_seed * 7919 + seat


class _Misbehaving(RandomAgent):
    def __init__(self, engine, seat: int, seed: int):
        super().__init__(engine, seat, seed)
        self.marked = str(seed // SEAT_FACTOR) == os.environ.get("MEEPLE_TEST_SEED")

    def choose(self, view: dict, decision) -> int:
        if self.marked:
            self.misbehave()
        return super().choose(view, decision)


class Interrupted(_Misbehaving):
    """Ctrl-C pressed during that game (in this process)."""

    def misbehave(self):
        raise KeyboardInterrupt


class Crashing(_Misbehaving):
    """Its worker process dies in that game."""

    def misbehave(self):
        os._exit(3)


class Hanging(_Misbehaving):
    """That game never ends."""

    def misbehave(self):
        time.sleep(3600)


class Slow(RandomAgent):
    """Every decision takes a tenth of a second: a run long enough to stop from outside."""

    def choose(self, view: dict, decision) -> int:
        time.sleep(0.1)
        return super().choose(view, decision)
