"""The rollout agent: greedy's best few options, each played on to see which leads furthest ahead.

Bertsekas' rollout algorithm (one step of policy improvement over a base
policy): greedy (greedy.py) ranks every option by its look at the seat's own
next choices, and its best few are the candidates. For each candidate, on
several guesses at the hidden parts (determinize; never the true state), the
game is played on from that option by a quick greedy for every seat, for a
number of decisions or to the end, and the position is valued by the seat's
outlook (score plus hints) over the best other seat's. The candidate with the
best mean margin is taken; greedy's order breaks ties. Back at a view it has
decided in, nothing changed, it leaves out the options it took there (as
greedy does: a menu whose sub-menu leads back to it is not entered forever).

Every candidate is played on the same guesses with the same dice and the same
quick choices where they meet the same options (common random numbers), so
the comparison between candidates is not drowned by the luck of the draws.
The quick greedy is greedy's one-step look with fewer tries: among many
options it values a sample, and a choice that leads to the same seat's next
choice is valued by the best of a sample of that one (which tile, then where).

A weaker quick greedy makes a weaker rollout: where greedy's own look follows
long chains of the seat's choices, the quick greedy (one choice ahead) plays
the candidates on worse than greedy would, and the rollout can lose to greedy
(docs/agents.md has the duels).

Budget: `rollout` plays each candidate on GUESSES guesses; `rollout@N` on N
guesses (reproducible: the same seed and budget make the same choice).
"""
from __future__ import annotations

import json

from meeple.interpreter import rng as game_rng
from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.greedy import FOLLOW_UP, one_step_gains
from meeple.interpreter.agents.mcts import GUESS_ERRORS
from meeple.interpreter.rng import Random

CANDIDATES = 4  # greedy's best this many options are played on
GUESSES = 4  # guesses at the hidden parts (and dice) each candidate is played on; rollout@N
HORIZON = 12  # decisions the quick greedy plays after a candidate before the position is valued
SAMPLE = 48  # options the quick greedy values at a decision with more than this many
FOLLOW = 48  # options of the same seat's next choice it values to judge a choice leading there


class RolloutAgent:
    name = "rollout"

    def __init__(self, engine, seat: int, seed: int, guesses: int = GUESSES, candidates: int = CANDIDATES,
                 horizon: int = HORIZON, sample: int = SAMPLE, follow: int = FOLLOW):
        self.engine, self.seat, self.rng = engine, seat, Random(seed)
        self.guesses, self.candidates, self.horizon, self.sample = guesses, candidates, horizon, sample
        self.follow = follow
        self.taken: dict[str, set] = {}  # per view it decided in: the option ids it took there

    def choose(self, view: dict, decision) -> int:
        n = len(decision.options)
        if n == 1:
            return 0
        engine, rng = self.engine, self.rng
        here = json.dumps({**view, "step": 0}, sort_keys=True, separators=(",", ":"))  # step counts decisions
        taken = self.taken.setdefault(here, set())
        guess = determinize(engine.game, view, rng.below(1 << 62))
        gains = one_step_gains(engine, guess, decision, self.seat, rng)
        ranked = sorted(range(n), key=lambda k: (-gains[k][0], not gains[k][1], rng.below(1 << 30)))
        fresh = [k for k in ranked if decision.options[k].id not in taken]
        top = (fresh or ranked)[:self.candidates]  # been here: not the same way round again (as greedy)
        pick = top[0] if self.guesses < 1 or len(top) == 1 else self.played_best(view, guess, top)
        taken.add(decision.options[pick].id)
        return pick

    def played_best(self, view: dict, guess: dict, top: list[int]) -> int:
        """Among the candidates, the one with the best mean margin played on (on `guess`
        first, the guess greedy's ranking was made on, then on fresh ones)."""
        engine, rng = self.engine, self.rng
        totals = [0.0] * len(top)
        for g in range(self.guesses):
            world = guess if g == 0 else determinize(engine.game, view, rng.below(1 << 62))
            dice = rng.below(1 << 62)
            for i, k in enumerate(top):
                totals[i] += self.played_on(world, k, dice)
        best = max(range(len(top)), key=lambda i: (round(totals[i], 9), -i))
        return top[best]

    def played_on(self, world: dict, k: int, dice: int) -> float:
        """The seat's margin after option k and `horizon` quick-greedy decisions, on one guess."""
        engine = self.engine
        try:
            state = engine.apply(world, k, events=False)[0]
        except GUESS_ERRORS:
            return 0.0  # the guess lacks something this option needs: no evidence either way
        # The same dice and the same quick choices after every candidate (common random numbers).
        state["rng"] = game_rng.seed_state(dice)
        quick = Random(dice)
        for _ in range(self.horizon):
            if state["over"] or state["pending"] is None:
                break
            try:
                engine.apply(state, quick_pick(engine, state, quick, self.sample, self.follow), inplace=True, events=False)
            except GUESS_ERRORS:
                break
        return margin(engine, state, self.seat)


def quick_pick(engine, state: dict, rng, sample: int = SAMPLE, follow: int = None) -> int:
    """The quick greedy: the option with the best outlook for the seat deciding, among at most
    `sample` of them; a small choice leading to the same seat's next choice is valued by
    the best of at most `follow` of that one's options (`sample` if not given)."""
    pending = state["pending"]
    n, actor = len(pending["options"]), pending["actor"]
    if n == 1:
        return 0
    best_k, best = rng.below(n), -float("inf")
    for k in sampled(n, sample, rng):
        try:
            after = engine.apply(state, k, events=False)[0]
            value = engine.outlook(after, actor)
            nxt = after["pending"]
            if n <= FOLLOW_UP and nxt is not None and not after["over"] and nxt["actor"] == actor:
                for j in sampled(len(nxt["options"]), follow or sample, rng):
                    try:
                        value = max(value, engine.outlook(engine.apply(after, j, events=False)[0], actor))
                    except GUESS_ERRORS:
                        continue
        except GUESS_ERRORS:
            continue
        if value > best:
            best_k, best = k, value
    return best_k


def sampled(n: int, sample: int, rng) -> list[int]:
    """All n option indices, or `sample` of them drawn without repeats."""
    if n <= sample:
        return list(range(n))
    picks = list(range(n))
    for i in range(sample):
        j = i + rng.below(n - i)
        picks[i], picks[j] = picks[j], picks[i]
    return picks[:sample]


def margin(engine, state: dict, seat: int) -> float:
    """The seat's outlook over the best other seat's (its own alone in a solo game); the
    score as the rules count it once the game is over."""
    look = engine.total if state["over"] else engine.outlook
    mine = look(state, seat)
    others = [look(state, p) for p in range(state["players"]) if p != seat]
    return mine - max(others) if others else mine
