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
  best that chain of its own choices reaches, up to 4 further choices of at
  most 12 options each and 200 tries in all, shared among the options: a one-step look never sees why a
  choice is worth taking when its payoff comes three choices later.
  A small choice that opens a wide one of the same seat (which tile, then where among a
  hundred places) is valued by the wide one's best option, one step deep.
- Among options worth the same, one that moves the game on beats one that
  comes back to the same choice having changed nothing but the order of a
  zone, so the bot does not shuffle its things while it could act.
  Trades that lose value already lose outlook through the hints.

Remaining ties go to a seeded random pick.
"""
from __future__ import annotations

from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.mcts import GUESS_ERRORS
from meeple.interpreter.rng import Random
from meeple.interpreter.state import copy_state

REVEAL_SAMPLES = 8  # the others' picks played out this many times to value a simultaneous pick
FOLLOW_UP = 12  # a choice leading to the seat's own next choice looks further, up to this many options
CHAIN = 4  # how many of the seat's own choices in a row that look follows
CHAIN_TRIES = 200  # options tried in all along those chains, per decision (bounds greedy's cost)
# A small choice that opens a wide one of the same seat (which card, then where among a hundred
# places) is valued by the best of the wide one's options, trying up to this many of them.
WIDE = 160
GUESSES = 1  # guesses at the hidden parts per decision (more made the last picker no fairer; see docs/agents.md)


class GreedyAgent:
    name = "greedy"

    def __init__(self, engine, seat: int, seed: int):
        self.engine, self.seat, self.rng = engine, seat, Random(seed)

    def choose(self, view: dict, decision) -> int:
        if len(decision.options) == 1:
            return 0
        gains = None
        for _ in range(GUESSES):
            guess = determinize(self.engine.game, view, self.rng.below(1 << 62))
            sample = one_step_gains(self.engine, guess, decision, self.seat, self.rng)
            gains = sample if gains is None else [(a[0] + b[0], a[1]) for a, b in zip(gains, sample)]
        best = max(gains)
        return self.rng.choice([k for k, g in enumerate(gains) if g == best])


def one_step_gains(engine, guess: dict, decision, seat: int, rng) -> list[tuple]:
    """Per option: (change in the seat's outlook, whether it moves the game on), on one guess.

    When one step shows no difference at all and the same choice goes to another
    seat next (a simultaneous pick), the others' picks are played out first."""
    before = engine.outlook(guess, seat)
    out, afters = [], []
    share = max(FOLLOW_UP, CHAIN_TRIES // len(decision.options))  # each option's own share: no order bias
    for k in range(len(decision.options)):
        try:
            after, _ = engine.apply(guess, k, events=False)
            nxt = engine.decision(after)
            moves_on = nxt is None or (nxt.actor, nxt.line) != (decision.actor, decision.line) or changed(guess, after)
            simultaneous = nxt is not None and nxt.actor != seat and nxt.line == decision.line
            value = engine.outlook(after, seat)
            if nxt is not None and nxt.actor == seat and max(len(decision.options), len(nxt.options)) <= FOLLOW_UP:
                value = max(value, best_follow_up(engine, after, nxt, seat, CHAIN, [share], (guess, decision.line)))
            elif nxt is not None and nxt.actor == seat and len(decision.options) <= FOLLOW_UP:
                value = max(value, best_follow_up(engine, after, nxt, seat, 1, [WIDE], (guess, decision.line)))
            out.append([value - before, moves_on])
            afters.append(after if simultaneous else None)
        except GUESS_ERRORS:
            out.append([0, True])  # the guess lacks something this option needs (another player's secret)
            afters.append(None)
    if len({round(g, 9) for g, _ in out}) == 1:
        for row, after in zip(out, afters):
            if after is not None:
                try:
                    row[0] = sum(engine.outlook(played_out(engine, after, decision.line, seat, rng), seat)
                                 for _ in range(REVEAL_SAMPLES)) / REVEAL_SAMPLES - before
                except GUESS_ERRORS:
                    pass
    return [(round(g, 9), m) for g, m in out]


def best_follow_up(engine, state: dict, decision, seat: int, depth: int, budget: list, origin=None) -> float:
    """The best outlook the seat's own next decisions can reach (an action, then which card).

    Follows the chain while the same seat decides among at most FOLLOW_UP options, for
    `depth` decisions, trying at most `budget[0]` options in all (shared, counted down).
    A step back to the choice the chain started from (`origin`: its state and line) with
    nothing changed is no way forward and is left out: a menu entry whose sub-menu's "done"
    leads back to the menu would otherwise be worth everything the menu offers, and be
    taken forever."""
    best = -float("inf")
    for j in range(len(decision.options)):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        try:
            after = engine.apply(state, j, events=False)[0]
            value = engine.outlook(after, seat)
            nxt = engine.decision(after)
            if origin is not None and nxt is not None and nxt.line == origin[1] and not changed(origin[0], after):
                continue
            if depth > 1 and nxt is not None and nxt.actor == seat and len(nxt.options) <= FOLLOW_UP:
                value = max(value, best_follow_up(engine, after, nxt, seat, depth - 1, budget, origin))
            best = max(best, value)
        except GUESS_ERRORS:
            continue
    return best


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
