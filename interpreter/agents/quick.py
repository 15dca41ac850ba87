"""The quick agent: greedy's look, kept from one decision to the next and pruned.

greedy (greedy.py) guesses the hidden parts afresh at every decision and tries
its options again, although most of its decisions follow its own previous one
(an action, then where to move, then which card) and the look it just took
went through them already. This agent keeps that look: the guess and every
position it reached, each applied once and valued once. When the next
decision's view is the view of the position its choice led to on the guess
(nothing was drawn that the guess got wrong, no other seat acted), the look
goes on from there and only positions it has not reached cost anything.

It values as greedy does (the score plus the ruleset's hints, engine.outlook,
the best its own chain of choices reaches, options that move the game on
before those that only reorder a zone, not the same option twice from the
same view), with three economies:

- A position its own choices go on from is worth what they reach: its own
  outlook is only asked where a chain stops (greedy asks it everywhere).
- Deep in a chain, options that show the same outlook (which of two goods to
  take) share one look: the first is followed and the others are worth what it
  reached; in the chain's last two choices by the outlook alone, in the two
  before only when they open the same next choice too. Closer to the decision
  every option is followed.
- Positions with the same board (the same choices in another order) are
  valued once.

The look is greedy's even split of `quick@N` new positions at a decision it
guessed for (default 1000), a hundredth of that where it goes on from its
last look. docs/agents.md has its cost, and how often it beats greedy.
"""

from __future__ import annotations

import gc

from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.agents.greedy import CHAIN, FOLLOW_UP, REVEAL_SAMPLES, WIDE, changed, pick_fresh, played_out
from meeple.interpreter.agents.mcts import GUESS_ERRORS
from meeple.interpreter.rng import Random
from meeple.interpreter.state import copy_state

TRIES = 1000  # new positions the look may apply at a decision it guessed for; quick@N
# Where the look goes on from its last one, a hundredth of that: the chain was looked
# through already, and what is new is mostly its far end.
GOING_ON = 100
# Within the last SAME_OUTLOOK choices of a chain, options showing the same outlook share one
# look; within the last SAME_NEXT, those that also open the same next choice. Shared by outlook
# alone deeper than that (4, the choice of a space to move to among spaces that look alike),
# quick's picks were worth greedy's at 97.7% of the decisions of greedy's own 2-player games of
# the shipped game with the longest turns, and it took 42% of 200 games from greedy; with these
# values 98.8-99.2% (greedy with another seed: 99.7%), 51.2% of 400 games, at half again the
# positions (docs/experiments.md, "How deep quick shares a look").
SAME_OUTLOOK = 2
SAME_NEXT = 4


class Node:
    """A position the look reached on the guess: applied once, valued once."""

    __slots__ = ("state", "value", "kids")

    def __init__(self, state):
        self.state, self.value, self.kids = state, None, None


BAD = Node(None)  # an option the guess cannot play (it lacks another player's secret)


class QuickAgent:
    name = "quick"

    def __init__(self, engine, seat: int, seed: int, tries: int = TRIES):
        self.engine, self.seat, self.rng, self.tries = engine, seat, Random(seed), tries
        self.taken: dict = {}  # per choice (line, options): the views it decided in, the option ids taken there
        self.next = None  # the node its last choice led to on the guess
        self.fresh = 0  # positions applied (what the look cost), for benchmarks and tests
        # The positions valued in this decision's look, by their counters: the outlook reads only the
        # counters, zones and grids (and the first player), so an equal board has an equal outlook.
        self.boards: dict = {}

    # ------------------------------------------------------------------ the tree
    def kid(self, node: Node, j: int) -> Node:
        kids = node.kids
        if kids is None:
            kids = node.kids = [None] * len(node.state["pending"]["options"])
        got = kids[j]
        if got is None:
            self.fresh += 1
            try:
                state = self.engine.apply(node.state, j, events=False)[0]
            except GUESS_ERRORS:
                got = BAD
            else:
                got = Node(state)
            kids[j] = got
        return got

    def value(self, node: Node) -> float:
        if node.value is None:
            s = node.state
            try:  # the counters and the cells as a first sieve; every board with them is compared in full
                key = (tuple(s["vars"].values()), *(tuple(g["cells"]) for g in s["grids"].values()))
                alike = self.boards.setdefault(key, [])
            except TypeError:  # a counter holding a list: no sieve, just the outlook
                alike = []
            for other in alike:  # another order of the same choices (take a then b, b then a)
                o = other.state
                if (
                    o["vars"] == s["vars"]
                    and o["zones"] == s["zones"]
                    and o["grids"] == s["grids"]
                    and o["first"] == s["first"]
                    and o["over"] == s["over"]
                ):
                    node.value = other.value
                    return node.value
            node.value = self.engine.outlook(s, self.seat)
            alike.append(node)
        return node.value

    def own(self, node: Node):
        """The number of options of the seat's next choice at `node`, or 0 if it is not the seat's."""
        s = node.state
        p = s["pending"]
        if s["over"] or p is None or p["actor"] != self.seat:
            return 0
        return len(p["options"])

    # ------------------------------------------------------------------ choosing
    def choose(self, view: dict, decision) -> int:
        # The look keeps thousands of positions alive, plain dicts and lists without cycles:
        # the cyclic collector would walk them all again and again (a quarter of the time).
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self.decide(view, decision)
        finally:
            if enabled:
                gc.enable()

    def decide(self, view: dict, decision) -> int:
        if len(decision.options) == 1:
            self.next = None
            return 0
        root = self.next
        budget = self.tries // GOING_ON
        if root is None or root is BAD or self.engine.view(root.state, self.seat) != view:
            root = Node(determinize(self.engine.game, view, self.rng.below(1 << 62)))
            budget = self.tries
        taken = self.been(view, decision)
        gains = self.gains(root, decision, budget)
        # Kept, the boards would hold every position of the look alive, and the cyclic
        # collector would walk them all again after each decision (a tenth of the time).
        self.boards = {}
        pick = pick_fresh(self.rng, gains, decision, taken)
        self.next = root.kids[pick] if root.kids else None
        return pick

    def been(self, view: dict, decision) -> set:
        """The options taken before at this view (the step aside, which counts decisions)."""
        here = copy_state(view)  # kept: a copy, whatever the caller does with its view later
        here["step"] = 0
        views = self.taken.setdefault((decision.line, tuple(o.id for o in decision.options)), [])
        for seen, taken in views:
            if seen == here:
                return taken
        views.append((here, set()))
        return views[-1][1]

    def gains(self, root: Node, decision, tries: int) -> list[tuple]:
        """Per option: (the outlook it leads to, whether it moves the game on); see greedy."""
        seat, line, n = self.seat, decision.line, len(decision.options)
        share = tries // n  # each option its own share: no order bias (greedy's)
        out, reveal = list[list](), list[Node | None]()
        for k in range(n):
            node = self.kid(root, k)
            if node is BAD:
                out.append([0, True])
                reveal.append(None)
                continue
            s = node.state
            p = s["pending"]
            moved = p is None or s["over"] or (p["actor"], p.get("line", 0)) != (seat, line) or changed(root.state, s)
            m = self.own(node)
            deeper = -float("inf")
            if m and max(n, m) <= FOLLOW_UP:
                deeper = self.follow(node, CHAIN, share, (root.state, line))[0]
            elif m and n <= FOLLOW_UP:
                deeper = self.follow(node, 1, WIDE, (root.state, line))[0]
            value = deeper if deeper > -float("inf") else self.value(node)
            out.append([value, moved])
            simultaneous = p is not None and not s["over"] and p["actor"] != seat and p.get("line", 0) == line
            reveal.append(node if simultaneous else None)
        if len({round(g, 9) for g, _ in out}) == 1:  # a simultaneous pick shows nothing yet: play it out
            for row, shown in zip(out, reveal):
                if shown is not None:
                    try:
                        row[0] = (
                            sum(
                                self.engine.outlook(played_out(self.engine, shown.state, line, seat, self.rng), seat)
                                for _ in range(REVEAL_SAMPLES)
                            )
                            / REVEAL_SAMPLES
                        )
                    except GUESS_ERRORS:
                        pass
        return [(round(g, 9), m) for g, m in out]

    def follow(self, node: Node, depth: int, budget: int, origin) -> tuple[float, int]:
        """greedy's best_follow_up on the kept tree: the best outlook the seat's own next
        choices reach from `node`, and how many new positions that look applied (the budget
        counts those only: what an earlier look reached is free)."""
        best = -float("inf")
        n = self.own(node)
        kids = node.kids
        new = min(n if kids is None else kids.count(None), budget)
        pool = budget - new
        # What an option showed deep in the chain -> what its chain reached. By SAME_OUTLOOK: its
        # outlook -> [(None, reached)]. By SAME_NEXT: its next choice's line -> [(the node, that
        # choice's options, reached)], and a later option shares with the first whose options are
        # equal (==) and whose outlook is too: an outlook is asked only when the options are equal.
        seen: dict[tuple, list] = {}
        for j in range(n):
            if kids is None or kids[j] is None:
                if not new:
                    continue
                new -= 1
            after = self.kid(node, j)
            kids = node.kids
            if after is BAD:
                continue
            s = after.state
            p = s["pending"]
            if (
                origin is not None
                and p is not None
                and not s["over"]
                and p.get("line", 0) == origin[1]
                and not changed(origin[0], s)
            ):
                continue
            m = self.own(after)
            deeper = -float("inf")
            if depth > 1 and m and m <= FOLLOW_UP:
                alike, known = None, None
                if depth <= SAME_OUTLOOK:
                    alike = seen.setdefault((self.value(after),), [])
                    known = alike[0][2] if alike else None
                elif depth <= SAME_NEXT:
                    shown = p["options"]
                    alike = seen.setdefault((p.get("line", 0),), [])
                    for other, opened, got in alike:
                        if opened == shown and self.value(other) == self.value(after):
                            known = got
                            break
                if known is not None:
                    deeper = known
                else:
                    deeper, used = self.follow(after, depth - 1, pool // (n - j), origin)
                    pool -= used
                    if alike is not None:
                        alike.append((after, p["options"], deeper))
            value = deeper if deeper > -float("inf") else self.value(after)
            best = max(best, value)
        return best, budget - pool
