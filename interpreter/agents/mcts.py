"""The mcts agent: information-set Monte Carlo tree search from a player's view.

Each iteration guesses the hidden parts of the view afresh (determinize: cards
and bag contents the player has not seen are dealt at random, consistent with
what they saw), then walks one shared tree keyed by option ids. A node's
children are the options seen there across guesses; selection only considers
the options available in this guess and uses how often each was available
(ISMCTS "availability" counts), so a card that exists in few guesses is not
over-trusted. Every seat's decisions are in the tree, each maximising its own
reward.

After the tree, a random playout runs for at most `depth` decisions and the
position is valued by rank: a seat's reward is its rank utility (1 for first,
0 for last, shared places split), from the final ranking at the end of the game
or from the score rules applied to the position as it stands when cut short.
Playing alone, the reward is the total over the largest total seen so far. A
guess on which a rule cannot run (it needs something the player cannot see)
is valued as it stands, or as even.

Budget: `iterations` (reproducible: same seed and budget, same choice) or
`seconds` (a wall-clock limit: not reproducible). On the command line:
`mcts` (200 iterations), `mcts@500` (500 iterations), `mcts@2s` (2 seconds).
"""

from __future__ import annotations

import math
import time

from meeple.dsl.errors import MeepleError
from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.effects.choices import option_id
from meeple.interpreter.rng import Random

GUESS_ERRORS = (MeepleError, ValueError, KeyError, IndexError, TypeError, AttributeError)


class Node:
    __slots__ = ("children", "visits", "avail", "reward")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # summed reward of the seat that chose this node's option


class MctsAgent:
    name = "mcts"

    def __init__(
        self,
        engine,
        seat: int,
        seed: int,
        iterations: int = 200,
        seconds: float | None = None,
        depth: int = 10,
        exploration: float = 0.7,
    ):
        self.engine, self.seat, self.rng = engine, seat, Random(seed)
        self.iterations, self.seconds = iterations, seconds
        self.depth, self.exploration = depth, exploration
        self.scale = 1.0  # the largest total seen, for solo rewards
        self.order: list[int] = []  # the root options' ranks by immediate gain (greedy_order)

    # ------------------------------------------------------------- the search
    def choose(self, view: dict, decision) -> int:
        if len(decision.options) == 1:
            return 0
        root = Node()
        self.order = self.greedy_order(view, decision)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while (deadline is None and done < self.iterations) or (
            deadline is not None and (done == 0 or time.perf_counter() < deadline)
        ):
            self.iterate(root, view)
            done += 1
        # The most visited option; among equally visited ones (a small budget over many
        # options), the best average reward.
        ids = [o.id for o in decision.options]
        ranked = [
            ((c.visits, c.reward / c.visits), k)
            for k, i in enumerate(ids)
            if (c := root.children.get(i)) is not None and c.visits
        ]
        if not ranked:  # no guess let any option be tried: the best first look
            return self.order.index(0)
        best = max(key for key, _ in ranked)
        return self.rng.choice([k for key, k in ranked if key == best])

    def greedy_order(self, view: dict, decision) -> list[int]:
        """Each root option's rank by the immediate change in the chooser's score, on one guess."""
        engine = self.engine
        guess = determinize(engine.game, view, self.rng.below(1 << 62))
        before = engine.outlook(guess, self.seat)
        gains = []
        for k in range(len(decision.options)):
            try:
                after, _ = engine.apply(guess, k, events=False)
                gains.append((-(engine.outlook(after, self.seat) - before), self.rng.below(1 << 30), k))
            except GUESS_ERRORS:
                gains.append((0, self.rng.below(1 << 30), k))
        order = [0] * len(gains)
        for rank, (_, _, k) in enumerate(sorted(gains)):
            order[k] = rank
        return order

    def iterate(self, root: Node, view: dict) -> None:
        engine, game = self.engine, self.engine.game
        state = determinize(game, view, self.rng.below(1 << 62))
        path: list[tuple[Node, int]] = []  # (node, seat who chose it)
        node = root
        try:
            # Selection and expansion: down the tree while every option here has been tried.
            while not state["over"] and state["pending"] is not None:
                pending = state["pending"]
                actor, values = pending["actor"], pending["options"]
                ids = [option_id(game, v) for v in values]
                untried = [k for k, i in enumerate(ids) if i not in node.children]
                for i in ids:
                    child = node.children.get(i)
                    if child is not None:
                        child.avail += 1
                if node is root and len(untried) < len(ids):
                    untried = self.untried_at_root(untried)
                elif node is not root and len(untried) < len(ids):
                    untried = self.untried_below(node, ids, untried)
                if untried:
                    # At the root, the options with the best immediate gain first; below, as
                    # expand_below picks (at random here).
                    k = min(untried, key=self.order.__getitem__) if node is root else self.expand_below(state, untried)
                    engine.apply(state, k, inplace=True, events=False)
                    child = node.children[ids[k]] = Node()  # only once the option could be taken
                    child.avail = 1
                    path.append((child, actor))
                    break
                k = self.select(node, ids)
                engine.apply(state, k, inplace=True, events=False)
                node = node.children[ids[k]]
                path.append((node, actor))
            rewards = self.playout(state)
        except GUESS_ERRORS:
            # A guess can leave a rule with something it cannot read (a hidden card
            # in a pending effect); value the position as it stands, or call it even.
            try:
                rewards = self.value_now(state)
            except GUESS_ERRORS:
                rewards = [0.5] * state["players"]
        for n, seat in path:
            n.visits += 1
            n.reward += rewards[seat]
        root.visits += 1

    def untried_at_root(self, untried: list[int]) -> list[int]:
        """The root's untried options that may be expanded now (all of them: no widening)."""
        return untried

    def untried_below(self, node: Node, ids: list[str], untried: list[int]) -> list[int]:
        """A node's untried options that may be expanded now, below the root (all of them)."""
        return untried

    def expand_below(self, state: dict, untried: list[int]) -> int:
        """Which untried option below the root is expanded first: one at random."""
        return untried[self.rng.below(len(untried))]

    def select(self, node: Node, ids: list[str]) -> int:
        c = self.exploration
        best_k, best = 0, -math.inf
        for k, i in enumerate(ids):
            child = node.children.get(i)
            if child is None:  # held back by widening
                continue
            value = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best:
                best_k, best = k, value
        return best_k

    def playout(self, state: dict) -> list[float]:
        engine, rng = self.engine, self.rng
        for _ in range(self.depth):
            pending = state["pending"]
            if state["over"] or pending is None:
                break
            engine.apply(state, rng.below(len(pending["options"])), inplace=True, events=False)
        return self.value_now(state)

    # ------------------------------------------------------------- values
    def value_now(self, state: dict) -> list[float]:
        engine = self.engine
        players = state["players"]
        if players == 1:
            total = engine.total(state, 0)
            self.scale = max(self.scale, abs(total))
            return [total / self.scale]
        if state["over"]:
            # The final ranking: tie-breaks settle what the totals leave tied.
            return rank_utility([-place for place in engine.places(state)])
        return rank_utility(engine.totals(state))


def rank_utility(keys: list) -> list[float]:
    """1 for first, 0 for last (higher key is better); equal keys share their places."""
    n = len(keys)
    out = []
    for k in keys:  # counted in one plain loop: this ends every playout (two generators cost 2x)
        above = level = 0
        for x in keys:
            if x > k:
                above += 1
            elif x == k:
                level += 1
        out.append(1 - (above + (level - 1) / 2) / (n - 1))
    return out
