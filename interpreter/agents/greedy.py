"""The greedy agent: the option with the best immediate change in its own outlook.

It guesses the hidden parts of its view (determinize), tries every option on
the guess, and values the result as the score rules count it plus the
ruleset's declared hints (engine.outlook). Two blind spots of a one-step look
are covered:

- A simultaneous pick (the same choice put to every seat in turn, often
  secret) only resolves after the last seat picks, so the others' picks are
  played out at random (a few samples) before the pick is valued, as if all
  were shown.
- A choice that leads straight to the same seat's next choices (an action,
  then a place to move to, then what to do there, then which card) is valued by the
  best that chain of its own choices reaches, up to 6 further choices of at
  most 16 options each and 1000 tries in all, split evenly among the options at
  every step: a one-step look never sees why a choice is worth taking when its
  payoff comes three choices later.
  A small choice that opens a wide one of the same seat (which tile, then where among a
  hundred places) is valued by the wide one's best option, one step deep.
- Among options worth the same, one that moves the game on beats one that
  comes back to the same choice having changed nothing but the order of a
  zone, so the bot does not shuffle its things while it could act.
  Trades that lose value already lose outlook through the hints.
- Back at a position it has already decided in (its view exactly as it was:
  nothing changed), it does not take the same option again while another is
  left: a menu entry whose sub-menu's "done" leads back to the menu would
  otherwise be taken forever, when the chain look values the entry by what
  lies beyond its horizon inside the sub-menu.

Remaining ties go to a seeded random pick.
"""

from __future__ import annotations

import json

from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.mcts import GUESS_ERRORS
from meeple.interpreter.rng import Random
from meeple.interpreter.state import copy_state

REVEAL_SAMPLES = 8  # the others' picks played out this many times to value a simultaneous pick
FOLLOW_UP = 16  # a choice leading to the seat's own next choice looks further, up to this many options
CHAIN = 6  # how many of the seat's own choices in a row that look follows
CHAIN_TRIES = 1000  # options tried in all along those chains, per decision (bounds greedy's cost); greedy@N
# A small choice that opens a wide one of the same seat (which card, then where among a hundred
# places) is valued by the best of the wide one's options, trying up to this many of them.
WIDE = 160
GUESSES = 1  # guesses at the hidden parts per decision (more made the last picker no fairer; see docs/experiments.md)


class GreedyAgent:
    name = "greedy"

    def __init__(self, engine, seat: int, seed: int, tries: int = CHAIN_TRIES):
        self.engine, self.seat, self.rng, self.tries = engine, seat, Random(seed), tries
        self.taken: dict[str, set] = {}  # per view it decided in: the option ids it took there

    def choose(self, view: dict, decision) -> int:
        if len(decision.options) == 1:
            return 0
        return self.pick(self.gains(view, decision), view, decision)

    def gains(self, view: dict, decision) -> list[tuple]:
        """Per option: (its gain in outlook, whether it moves the game on), on fresh guesses."""
        gains = None
        for _ in range(GUESSES):
            guess = determinize(self.engine.game, view, self.rng.below(1 << 62))
            sample = one_step_gains(self.engine, guess, decision, self.seat, self.rng, self.tries)
            gains = sample if gains is None else [(a[0] + b[0], a[1]) for a, b in zip(gains, sample)]
        assert gains is not None  # GUESSES is at least 1
        return gains

    def pick(self, gains: list, view: dict, decision) -> int:
        """The option `choose` takes given its gains (benchmarks/agent_strength.py values others' picks by them)."""
        here = json.dumps({**view, "step": 0}, sort_keys=True, separators=(",", ":"))  # step counts decisions
        return pick_fresh(self.rng, gains, decision, self.taken.setdefault(here, set()))


def pick_fresh(rng, gains: list, decision, taken: set) -> int:
    """The option of the best gain, ties by a seeded pick; back at a view it decided in before, not
    the same way round again while another option is left. The pick joins `taken`."""
    fresh = [k for k, o in enumerate(decision.options) if o.id not in taken]
    if fresh and len(fresh) < len(gains):
        gains = [g if k in fresh else (-float("inf"), False) for k, g in enumerate(gains)]
    best = max(gains)
    pick = rng.choice([k for k, g in enumerate(gains) if g == best])
    taken.add(decision.options[pick].id)
    return pick


def one_step_gains(engine, guess: dict, decision, seat: int, rng, tries: int = CHAIN_TRIES) -> list[tuple]:
    """Per option: (change in the seat's outlook, whether it moves the game on), on one guess.

    When one step shows no difference at all and the same choice goes to another
    seat next (a simultaneous pick), the others' picks are played out first."""
    before = engine.outlook(guess, seat)
    out, afters = [], []
    share = max(FOLLOW_UP, tries // len(decision.options))  # each option's own share: no order bias
    for k in range(len(decision.options)):
        try:
            after, _ = engine.apply(guess, k, events=False)
            nxt = engine.decision(after)
            moves_on = nxt is None or (nxt.actor, nxt.line) != (decision.actor, decision.line) or changed(guess, after)
            simultaneous = nxt is not None and nxt.actor != seat and nxt.line == decision.line
            value = engine.outlook(after, seat)
            if nxt is not None and nxt.actor == seat and max(len(decision.options), len(nxt.options)) <= FOLLOW_UP:
                value = max(value, best_follow_up(engine, after, nxt, seat, CHAIN, share, (guess, decision.line))[0])
            elif nxt is not None and nxt.actor == seat and len(decision.options) <= FOLLOW_UP:
                value = max(value, best_follow_up(engine, after, nxt, seat, 1, WIDE, (guess, decision.line))[0])
            out.append([value - before, moves_on])
            afters.append(after if simultaneous else None)
        except GUESS_ERRORS:
            out.append([0, True])  # the guess lacks something this option needs (another player's secret)
            afters.append(None)
    if len({round(g, 9) for g, _ in out}) == 1:
        for row, after in zip(out, afters):
            if after is not None:
                try:
                    row[0] = (
                        sum(
                            engine.outlook(played_out(engine, after, decision.line, seat, rng), seat)
                            for _ in range(REVEAL_SAMPLES)
                        )
                        / REVEAL_SAMPLES
                        - before
                    )
                except GUESS_ERRORS:
                    pass
    return [(round(g, 9), m) for g, m in out]


def best_follow_up(engine, state: dict, decision, seat: int, depth: int, budget: int, origin=None):
    """The best outlook the seat's own next decisions can reach (an action, then which card),
    and how many options that look tried.

    Follows the chain while the same seat decides among at most FOLLOW_UP options, for
    `depth` decisions, trying at most `budget` options in all. The budget is split evenly
    among the options at each step, what one leaves unused going to the next: spent
    depth-first, the first option's chain would use it all and the last ones (a section
    listed last, whose payoff is three choices on) would never be looked at.
    A step back to the choice the chain started from (`origin`: its state and line) with
    nothing changed is no way forward and is left out: a menu entry whose sub-menu's "done"
    leads back to the menu would otherwise be worth everything the menu offers."""
    best = -float("inf")
    tries = min(len(decision.options), budget)
    pool = budget - tries
    for j in range(tries):
        try:
            after = engine.apply(state, j, events=False)[0]
            value = engine.outlook(after, seat)
            nxt = engine.decision(after)
            if origin is not None and nxt is not None and nxt.line == origin[1] and not changed(origin[0], after):
                continue
            if depth > 1 and pool > 0 and nxt is not None and nxt.actor == seat and len(nxt.options) <= FOLLOW_UP:
                deeper, used = best_follow_up(engine, after, nxt, seat, depth - 1, pool // (tries - j), origin)
                pool -= used
                value = max(value, deeper)
            best = max(best, value)
        except GUESS_ERRORS:
            continue
    return best, budget - pool


def changed(before: dict, after: dict) -> bool:
    """Whether an option changed anything but the order of things in a zone."""
    if before["vars"] != after["vars"] or before["grids"] != after["grids"]:
        return True
    a, b = before["zones"], after["zones"]
    return any(a[k] != b[k] and sorted(a[k]) != sorted(b[k]) for k in a)


def played_out(engine, state: dict, line: int, seat: int, rng) -> dict:
    """The others' picks of the same simultaneous choice played at random, until it resolves."""
    state = copy_state(state)
    for _ in range(state["players"]):
        d = engine.decision(state)
        if d is None or d.actor == seat or d.line != line:
            break
        engine.apply(state, rng.below(len(d.options)), inplace=True, events=False)
    return state
