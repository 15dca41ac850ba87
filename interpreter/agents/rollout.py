"""The rollout agent: greedy's best few options, each played on to see which leads furthest ahead.

Bertsekas' rollout algorithm (one step of policy improvement over a base
policy): greedy (greedy.py) ranks every option by its look at the seat's own
next choices, and its best eight are the candidates (greedy often finds dozens
of places worth the same: which of them is ranked first is a coin toss). Each is
played on two guesses, and the best three of them on the rest. For each candidate, on
several guesses at the hidden parts (determinize; never the true state), the
game is played on from that option by a quick greedy for every seat to the
start of the third round after the decision's (phase entries; at most 16
decisions, 12 where phases are long) or to the end, and the position is valued by the seat's
outlook (score plus hints) over the best other seat's (by a trained model's predicted
final scores where the ruleset has one; a play-on that ended the game by its final scores,
WIN points more for a win and WIN less for a loss). The candidate with the
best mean margin is taken; greedy's order breaks ties. Back at a view it has
decided in, nothing changed, it leaves out the options it took there (as
greedy does: a menu whose sub-menu leads back to it is not entered forever).

Every candidate is played on the same guesses with the same dice and the same
quick choices where they meet the same options (common random numbers), so
the comparison between candidates is not drowned by the luck of the draws.
The quick greedy is greedy's one-step look with fewer tries: among many
options it values a sample, and a choice that leads to the same seat's next
choice is valued by the best of a sample of that one (which tile, then where).
Its ties go to a random one of the options worth the same (a choice showing no gain,
like which bag to draw from, went to the first option listed in every play-on).

A weaker quick greedy makes a weaker rollout: where greedy's own look follows
long chains of the seat's choices, the quick greedy (one choice ahead) plays
the candidates on worse than greedy would, and the rollout can lose to greedy
(docs/experiments.md has the duels).

Budget: `rollout` plays WIDEN candidates on SCREEN guesses and the best CANDIDATES of
them on the rest of GUESSES (the quick greedy plays a tile's place as its look through the
tile found it, not searching twice, which paid for 6 guesses where 4 were played before);
`rollout@N` on N guesses in all (reproducible: the same seed and budget make the same choice).
"""

from __future__ import annotations

import json

from meeple.interpreter import rng as game_rng
from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.greedy import FOLLOW_UP, one_step_gains
from meeple.interpreter.agents.learned import load_model
from meeple.interpreter.agents.mcts import GUESS_ERRORS
from meeple.interpreter.rng import Random

WIDEN = 8  # greedy's best this many options are played on, first on SCREEN guesses ...
SCREEN = 2
CANDIDATES = 3  # ... and the best this many of them on the rest of the GUESSES
GUESSES = 6  # guesses at the hidden parts (and dice) each candidate is played on; rollout@N
HORIZON = 12  # decisions the quick greedy plays after a candidate, where phases are long
ROUNDS = 3  # ... or on to the start of the phase entered this many times after the decision's,
CAP = 16  # at most this many decisions, wherever a phase was entered within HORIZON of them
SAMPLE = 48  # options the quick greedy values at a decision with more than this many
FOLLOW = 48  # options of the same seat's next choice it values to judge a choice leading there
# A play-on that ends the game is worth this many points more than its margin for a win, this many
# less for a loss: players play to win, and late in a game a likely win by a point is worth more
# than a gamble on winning by twenty (docs/experiments.md, stint 16, has the duels that measured it).
WIN = 10


class RolloutAgent:
    name = "rollout"

    def __init__(
        self,
        engine,
        seat: int,
        seed: int,
        guesses: int = GUESSES,
        candidates: int = CANDIDATES,
        horizon: int = HORIZON,
        sample: int = SAMPLE,
        follow: int = FOLLOW,
        rounds: int = ROUNDS,
        cap: int = CAP,
        widen: int = WIDEN,
        screen: int = SCREEN,
    ):
        self.engine, self.seat, self.rng = engine, seat, Random(seed)
        self.guesses, self.candidates, self.horizon, self.sample = guesses, candidates, horizon, sample
        self.widen, self.screen = max(widen, candidates), screen
        self.follow, self.rounds, self.cap = follow, rounds, cap
        self.round = 0  # the phase entries counted at the decision being made (the view's)
        self.taken: dict[str, set] = {}  # per view it decided in: the option ids it took there
        self.model = load_model(engine.game)  # `meeple train`'s evaluation, if the ruleset has one

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
        top = (fresh or ranked)[: self.widen]  # been here: not the same way round again (as greedy)
        pick = top[0] if self.guesses < 1 or len(top) == 1 else self.played_best(view, guess, top)
        taken.add(decision.options[pick].id)
        return pick

    def played_best(self, view: dict, guess: dict, top: list[int]) -> int:
        """Among the candidates, the one with the best mean margin played on (on `guess`
        first, the guess greedy's ranking was made on, then on fresh ones)."""
        engine, rng = self.engine, self.rng
        self.round = view.get("seq", 0)
        totals = [0.0] * len(top)
        alive = list(range(len(top)))
        for g in range(self.guesses):
            if g == self.screen and len(alive) > self.candidates:
                # Screened: only the best few go on to the rest of the guesses (greedy's order
                # breaks ties). Greedy's look often finds dozens of places worth the same, and
                # its first 4 of them, at random, were all that was played on.
                alive = sorted(alive, key=lambda i: (-round(totals[i], 9), i))[: self.candidates]
            world = guess if g == 0 else determinize(engine.game, view, rng.below(1 << 62))
            dice = rng.below(1 << 62)
            for i in alive:
                totals[i] += self.played_on(world, top[i], dice)
        best = max(alive, key=lambda i: (round(totals[i], 9), -i))
        return top[best]

    def played_on(self, world: dict, k: int, dice: int) -> float:
        """The seat's margin after option k and the quick greedy's play on (play_on), on one guess."""
        engine = self.engine
        try:
            state = engine.apply(world, k, events=False)[0]
        except GUESS_ERRORS:
            return 0.0  # the guess lacks something this option needs: no evidence either way
        # The same dice and the same quick choices after every candidate (common random numbers).
        state["rng"] = game_rng.seed_state(dice)
        quick = Random(dice)
        played = 0
        while self.play_on(state, played):
            try:
                k, then = quick_line(engine, state, quick, self.sample, self.follow)
                engine.apply(state, k, inplace=True, events=False)
                played += 1
                # The look through this choice already found the seat's best next one among
                # `follow` (a tile's best place): played as found, not searched a second time.
                if then is not None and self.play_on(state, played):
                    engine.apply(state, then, inplace=True, events=False)
                    played += 1
            except GUESS_ERRORS:
                break
        return margin(engine, state, self.seat, self.model)

    def play_on(self, state: dict, played: int) -> bool:
        """Whether the quick greedy plays another decision: until the start of the phase entered
        `rounds` times after the decision's (at most `cap` decisions), so that every seat has
        had its turns of the same rounds when the position is valued (stopped at a fixed
        count, whoever moved last in the round was ahead, and the agent was far stronger in
        the first seat than in the second); where no phase was entered within `horizon`
        decisions (long phases), after `horizon` decisions."""
        if state["over"] or state["pending"] is None:
            return False
        if played >= self.horizon and state["seq"] == self.round:
            return False
        return played < self.cap and state["seq"] < self.round + self.rounds


def quick_line(engine, state: dict, rng, sample: int = SAMPLE, follow: int | None = None) -> tuple:
    """The quick greedy: the option with the best outlook for the seat deciding, among at most
    `sample` of them, and None; or, for a small choice leading to the same seat's next choice
    (which tile, then where), the option valued by the best of at most `follow` of that one's
    options (`sample` if not given) and, when that next choice is a wide one (more than
    FOLLOW_UP options, each valued one step deep as this look would value it there), its best
    option found, to be played next (else None)."""
    pending = state["pending"]
    n, actor = len(pending["options"]), pending["actor"]
    if n == 1:
        return 0, None
    best_k, best, best_then, ties = rng.below(n), -float("inf"), None, 0
    for k in sampled(n, sample, rng):
        then = None
        try:
            after = engine.apply(state, k, events=False)[0]
            value = engine.outlook(after, actor)
            nxt = after["pending"]
            if n <= FOLLOW_UP and nxt is not None and not after["over"] and nxt["actor"] == actor:
                # Only a wide next choice is valued one step deep, as this look would value it
                # there: its best option found here is then the one to play (a bag, then which
                # tile, is not: a tile is worth its place, one step further).
                wide = len(nxt["options"]) > FOLLOW_UP
                for j in sampled(len(nxt["options"]), follow or sample, rng):
                    try:
                        worth = engine.outlook(engine.apply(after, j, events=False)[0], actor)
                    except GUESS_ERRORS:
                        continue
                    if worth > value or wide and then is None and worth >= value:
                        value, then = worth, (j if wide else None)
        except GUESS_ERRORS:
            continue
        # Ties go to a random one of them, not the first listed: a choice that shows no gain
        # one step on (which bag to draw from) was otherwise the first bag in every play-on.
        ties = 1 if value > best else ties + (value == best)
        if value > best or value == best and rng.below(ties) == 0:
            best_k, best, best_then = k, value, then
    return best_k, best_then


def sampled(n: int, sample: int, rng) -> list[int]:
    """All n option indices, or `sample` of them drawn without repeats."""
    if n <= sample:
        return list(range(n))
    picks = list(range(n))
    for i in range(sample):
        j = i + rng.below(n - i)
        picks[i], picks[j] = picks[j], picks[i]
    return picks[:sample]


def margin(engine, state: dict, seat: int, model=None) -> float:
    """The seat's outlook over the best other seat's (its own alone in a solo game), or with a
    trained model its predicted final score over theirs; once the game is over, the score as the
    rules count it over theirs, WIN more for a win (first place alone, after the tie-breaks) and
    WIN less for a loss (a shared first place is neither)."""
    if state["over"]:
        look = engine.total
    elif model is not None:

        def look(s, p):
            return model.predict(engine, s, p)
    else:
        look = engine.outlook
    mine = look(state, seat)
    others = [look(state, p) for p in range(state["players"]) if p != seat]
    if not others:
        return mine
    gap = mine - max(others)
    if state["over"]:
        firsts = [p for p, place in enumerate(engine.places(state)) if place == 1]
        gap += WIN if firsts == [seat] else 0 if seat in firsts else -WIN
    return gap
