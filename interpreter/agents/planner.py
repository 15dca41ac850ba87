"""The planner agent: mcts that judges positions by the score plus the ruleset's hints.

It is the information-set search of mcts.py (a fresh guess at the hidden parts
each iteration, one shared tree over option ids, every seat maximising its own
reward) with three changes that let a small budget find real plans:

- Leaves are valued by outlook (engine.outlook: the score as the rules count
  it now plus the declared hints), so progress the score does not count yet,
  like cards collected toward a set, is seen ten decisions ahead.
  With others at the table the reward mixes the rank (who leads) with a
  smooth margin over the best other seat, so being further ahead still pays.
- Playouts are greedy-ish: at each step a few options are sampled and the
  best by one-step outlook is taken (sometimes a purely random one), instead
  of a uniformly random option.
- Progressive widening at the root: with many options (a hundred placements)
  only the best few as greedy ranks them (one-step outlook, one own follow-up)
  are searched at first, one more as the
  visits grow (about 2 * sqrt(visits)), so the budget is not spread thin.

If `meeple train` left a model next to the ruleset (interpreter/agents/learned.py),
leaves are valued by its predicted final scores instead of the outlook.

The agent reads only its view and its guesses (the guard test in
tests/test_agents.py covers it). Budget: `planner` searches 30 iterations plus
one per option of the decision (widening needs visits to reach the options
further down a hundred placements, while a handful of options is settled by
30: docs/experiments.md has the duels that chose it); `planner@N` N iterations,
`planner@Xs` X seconds (wall clock: not reproducible).
"""

from __future__ import annotations

import math

from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.greedy import FOLLOW_UP, one_step_gains
from meeple.interpreter.agents.learned import load_model
from meeple.interpreter.agents.mcts import GUESS_ERRORS, MctsAgent, Node, rank_utility

SAMPLED = 3  # options a playout step compares by one-step outlook
RANDOM_STEP = 0.25  # the chance a playout step takes a random option instead
WIDEN = 2.0  # root options searched: 1 + WIDEN * sqrt(root visits)
BASE_ITERATIONS = 30  # `planner`: this many iterations plus one per option of the decision


class PlannerAgent(MctsAgent):
    name = "planner"

    def __init__(
        self,
        engine,
        seat: int,
        seed: int,
        iterations: int | None = None,
        seconds: float | None = None,
        depth: int = 10,
        exploration: float = 0.7,
    ):
        super().__init__(engine, seat, seed, iterations or BASE_ITERATIONS, seconds, depth, exploration)
        self.per_option = iterations is None and seconds is None  # `planner`: the budget grows with the options
        self.margin = 1.0  # the largest outlook gap between seats seen, to scale the margin reward
        self.model = load_model(engine.game)  # `meeple train`'s evaluation, if the ruleset has one

    def choose(self, view: dict, decision) -> int:
        if self.per_option:
            if len(decision.options) > FOLLOW_UP:
                # Too many options for the budget to visit each a few times: greedy's look
                # tries every one of them, and its best is taken.
                return self.greedy_order(view, decision).index(0)
            self.iterations = BASE_ITERATIONS + len(decision.options)
        return super().choose(view, decision)

    def iterate(self, root: Node, view: dict) -> None:
        # Progressive widening: the root's untried options are offered only while the
        # root has fewer children than its visits allow; the rest wait their turn.
        allowed = 1 + int(WIDEN * math.sqrt(root.visits))
        self.closed = len(root.children) >= allowed
        super().iterate(root, view)

    def greedy_order(self, view: dict, decision) -> list[int]:
        """The root options ranked as greedy ranks them (outlook, one own follow-up, moving on)."""
        guess = determinize(self.engine.game, view, self.rng.below(1 << 62))
        gains = one_step_gains(self.engine, guess, decision, self.seat, self.rng)
        ranked = sorted(range(len(gains)), key=lambda k: (-gains[k][0], not gains[k][1], self.rng.below(1 << 30)))
        order = [0] * len(gains)
        for rank, k in enumerate(ranked):
            order[k] = rank
        return order

    def untried_at_root(self, untried: list[int]) -> list[int]:
        return [] if self.closed else untried

    def untried_below(self, node: Node, ids: list[str], untried: list[int]) -> list[int]:
        # Widening below the root too, where the options are many: a tile's worth is the
        # worth of its best placements, not of a new random placement at each visit. (Called
        # only when some option here already has a child, so selection has one to take.)
        if len(ids) <= FOLLOW_UP:
            return untried
        return untried if len(node.children) < 1 + int(WIDEN * math.sqrt(node.visits)) else []

    def expand_below(self, state: dict, untried: list[int]) -> int:
        """Among many options, the best of a few sampled untried ones by the chooser's one-step
        outlook; among a few, one at random (each is tried soon anyway)."""
        engine, rng = self.engine, self.rng
        if len(state["pending"]["options"]) <= FOLLOW_UP:
            return untried[rng.below(len(untried))]
        actor = state["pending"]["actor"]
        best_k, best = untried[rng.below(len(untried))], -math.inf
        for k in {untried[rng.below(len(untried))] for _ in range(SAMPLED)}:
            try:
                value = engine.outlook(engine.apply(state, k, events=False)[0], actor)
            except GUESS_ERRORS:
                continue
            if value > best:
                best_k, best = k, value
        return best_k

    def playout(self, state: dict) -> list[float]:
        engine, rng, seat_outlook = self.engine, self.rng, self.engine.outlook
        for _ in range(self.depth):
            pending = state["pending"]
            if state["over"] or pending is None:
                break
            n = len(pending["options"])
            if n == 1 or rng.below(1000) < RANDOM_STEP * 1000:
                engine.apply(state, rng.below(n), inplace=True, events=False)
                continue
            actor = pending["actor"]
            best_k, best = 0, -math.inf
            for k in {rng.below(n) for _ in range(SAMPLED)}:
                try:
                    value = seat_outlook(engine.apply(state, k, events=False)[0], actor)
                except GUESS_ERRORS:
                    continue
                if value > best:
                    best_k, best = k, value
            engine.apply(state, best_k, inplace=True, events=False)
        return self.value_now(state)

    def value_now(self, state: dict) -> list[float]:
        engine = self.engine
        players = state["players"]
        if self.model is not None and not state["over"]:
            looks = [self.model.predict(engine, state, p) for p in range(players)]
        else:
            looks = [engine.outlook(state, p) for p in range(players)]
        if players == 1:
            self.scale = max(self.scale, abs(looks[0]))
            return [looks[0] / self.scale]
        if state["over"]:
            places = {r["player"]: r["place"] for r in engine.ranking(state)}
            ranks = rank_utility([-places[p] for p in range(players)])
        else:
            ranks = rank_utility(looks)
        out = []
        for p in range(players):
            gap = looks[p] - max(looks[q] for q in range(players) if q != p)
            self.margin = max(self.margin, abs(gap))
            out.append(0.5 * ranks[p] + 0.5 / (1 + math.exp(-4 * gap / self.margin)))
        return out
