"""Each random draw of a game as an explicit chance event, and what follows from that: how long
a game can last. For the research adapters (meeple.openspiel); any ruleset, no extra needed.

The engine draws deep inside its effects (a bag draw, each step of a shuffle, a die), so a draw
cannot pause the engine the way a decision does. Instead the caller gives the draws' outcomes
(interpreter/rng.py, GIVEN): `step` runs a start or a decision with the outcomes given so far,
and where the step needs one more it says how many equally likely outcomes that draw has. The
caller picks one and runs the step again from the same state with one more outcome given; the
engine is deterministic, so the step replays up to there. A step with k draws costs k + 1 runs.
"""

from __future__ import annotations

import json
import re

from meeple.interpreter.engine import Engine
from meeple.interpreter.rng import GIVEN, NeedDraw
from meeple.interpreter.state import copy_state

BUDGET = 20_000  # distinct states `longest_game` may visit before it gives up
DRAWS_PER_STATE = 4  # and draws it may make (replays included) per state of its budget


def step(
    engine: Engine, players: int, seed: int, before: dict | None, option: int | None, given: list
) -> tuple[dict | None, int]:
    """The state after setup (`before` None) or after taking `option` in `before` (left as it is),
    with the first draws' outcomes `given`: (state, 0), or (None, n) when one more draw, of n
    equally likely outcomes, is needed."""
    try:
        if before is None:
            return engine.start(players, seed, events=False, draws=given)[0], 0
        state = copy_state(before)
        state[GIVEN] = list(given)
        state = engine.apply(state, option, inplace=True, events=False)[0]
        state.pop(GIVEN, None)
        return state, 0
    except NeedDraw as need:
        return None, need.n


def may_draw(engine: Engine) -> bool:
    """Whether the rules can draw at random: a bag, a zone refilled (and shuffled) from another,
    a `shuffle` or a `roll(...)`. Read off the zones and the rules' text, so that a word in a
    comment counts too: it errs towards chance, never away from it."""
    g = engine.game
    if any(z.kind == "bag" or z.refill for z in g.zones.values()):
        return True
    return re.search(r"\bshuffle\b|\broll\s*\(", g.source or "") is not None


def outcomes(engine: Engine, players: int, before: dict | None, option: int | None, runs: list | None = None):
    """Every state a start or a decision can lead to, over all its draws (each once per path);
    `runs`: [draws replayed so far, the most allowed] (_GiveUp past it)."""
    pending: list[list] = [[]]
    while pending:
        given = pending.pop()
        if runs is not None:
            runs[0] += 1 + len(given)  # a run replays the draws given before its own
            if runs[0] > runs[1]:
                raise _GiveUp
        state, n = step(engine, players, 0, before, option, given)
        if state is not None:
            yield state
        else:
            pending.extend(given + [k] for k in range(n - 1, -1, -1))


def longest_game(engine: Engine, players: int, budget: int = BUDGET) -> int | None:
    """The most decisions any game can take, over every option and every draw: an exact bound
    found by searching the game's states (the same state reached twice is searched once). None
    when there are more than `budget` states, more than DRAWS_PER_STATE x `budget` draws made
    (a step with k draws runs k + 1 times, replaying those before: a shuffle makes many before
    a first state), a state can come back (a loop: no bound), or a game runs deeper than
    Python's recursion allows."""
    longest: dict[str, int] = {}
    on_path: set[str] = set()
    runs = [0, DRAWS_PER_STATE * budget]

    def key(state: dict) -> str:
        return json.dumps({k: v for k, v in state.items() if k != "rng"}, sort_keys=True)

    def search(state: dict) -> int:
        k = key(state)
        if k in longest:
            return longest[k]
        if k in on_path or len(longest) >= budget:
            raise _GiveUp
        n = engine.option_count(state)
        if n == 0:
            longest[k] = 0
            return 0
        on_path.add(k)
        most = 1 + max(search(child) for option in range(n) for child in outcomes(engine, players, state, option, runs))
        on_path.discard(k)
        longest[k] = most
        return most

    try:
        return max(search(s) for s in outcomes(engine, players, None, None, runs))
    except (_GiveUp, RecursionError):
        return None


class _GiveUp(Exception):
    pass
