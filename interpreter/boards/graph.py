"""Path boards: spaces joined by arrows, with tags and neighbouring areas, as data.

A board file is JSON::

    {"spaces": {"s1": {"tags": ["start"], "areas": ["north", "pond"], "label": "the gate"}, ...},
     "arrows": [["s1", "s2"], ["s2", "s3"], ...]}

A space's optional "label" is how people read it (prompts, traces, the table);
the rules and saved states keep its name.

Arrows are one-way (a fork is a space with two arrows out; a link off the
board's edge is just an arrow). The board is a networkx DiGraph; its
undirected view gives "adjacent" spaces.

Movement (`reach`): move exactly n counted spaces along arrows, choosing at
forks; spaces in `blocked` (other pieces) are passed over and not counted, and
a move cannot end on one. The result is every distinct space a move can end on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from meeple.interpreter.work import charge

# Each space's position, tags and areas kept in plain dicts beside the graph: `reach` orders
# its ends by position instead of scanning every space, `areas` and `tags` skip networkx's
# node views (tests turn it off to play the same games on the graph alone).
INDEXED = True


class BoardError(ValueError):
    pass


@dataclass
class Board:
    name: str
    graph: nx.DiGraph = field(repr=False)
    order: tuple  # spaces in file order
    successors: dict = field(repr=False)  # space -> tuple of spaces (file order of arrows)
    neighbours: dict = field(repr=False)  # space -> sorted tuple (undirected)
    area_names: tuple = ()  # every area, in order of first appearance
    labels: dict = field(default_factory=dict, repr=False)  # space -> how people read it (optional)
    # space -> (position in `order`, tags, areas), from the graph (see INDEXED)
    index: dict = field(default_factory=dict, repr=False, compare=False)
    # (start, steps, blocked spaces) -> the ends of `reach`, in order (INDEXED): the board never
    # changes, and bots ask the same moves thousands of times a game (a hint for every option).
    reached: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        self.index = {
            s: (i, self.graph.nodes[s]["tags"], self.graph.nodes[s]["areas"]) for i, s in enumerate(self.order)
        }

    @classmethod
    def from_data(cls, name: str, data) -> Board:
        if not isinstance(data, dict) or not isinstance(data.get("spaces"), dict):
            raise BoardError('a board file is a JSON object with "spaces" (an object) and "arrows" (a list)')
        graph: nx.DiGraph[str] = nx.DiGraph()
        areas = []
        labels = {}
        for space, info in data["spaces"].items():
            info = info or {}
            if not isinstance(info, dict):
                raise BoardError(f"space `{space}`: expected an object with tags and areas")
            tags, space_areas = list(info.get("tags", [])), list(info.get("areas", []))
            if not all(isinstance(x, str) for x in tags + space_areas):
                raise BoardError(f"space `{space}`: tags and areas are lists of names")
            if not isinstance(info.get("label", ""), str):
                raise BoardError(f"space `{space}`: a label is a text")
            if info.get("label"):
                labels[space] = info["label"]
            graph.add_node(space, tags=tuple(tags), areas=tuple(space_areas))
            areas += [a for a in space_areas if a not in areas]
        successors: dict[str, list[str]] = {s: [] for s in graph}
        for arrow in data.get("arrows", []):
            if not (isinstance(arrow, list) and len(arrow) == 2 and all(a in graph for a in arrow)):
                raise BoardError(f"arrow {arrow!r}: an arrow is [from, to] between known spaces")
            graph.add_edge(*arrow)
            successors[arrow[0]].append(arrow[1])
        undirected = graph.to_undirected(as_view=True)
        neighbours = {s: tuple(sorted(undirected.neighbors(s))) for s in graph}
        return cls(
            name,
            graph,
            tuple(graph.nodes),
            {s: tuple(v) for s, v in successors.items()},
            neighbours,
            tuple(areas),
            labels,
        )

    def check(self, space) -> None:
        if space not in self.successors:
            raise BoardError(f"`{space}` is not a space of board `{self.name}`")

    def reach(self, start, steps: int, blocked, m=None) -> list:
        """Every space a move of exactly `steps` unblocked spaces from `start` can end on.

        Counted step by step as the set of spaces a move can stand on, which repeats sooner or
        later: once a set comes back (found by Brent's method, keeping one set), whole rounds
        of its cycle are skipped, so a far move on a loop of spaces costs the loop, not the
        distance. Each set is counted as work on `m` (interpreter/work.py); a move already
        worked out is remembered (`reached`) and costs nothing."""
        self.check(start)
        if steps < 0:
            raise BoardError(f"cannot move {steps} spaces")
        blocked = set(blocked or ()) - {start}
        if INDEXED:
            key = (start, steps, frozenset(blocked))
            ends = self.reached.get(key)
            if ends is None:
                if len(self.reached) > 100_000:  # bounded: a board with a long game of moves
                    self.reached.clear()
                ends = self.reached[key] = tuple(self._reach(start, steps, blocked, m))
            return list(ends)
        return self._reach(start, steps, blocked, m)

    def _reach(self, start, steps: int, blocked: set, m) -> list:
        layer, k = frozenset([start]), 0
        mark, mark_at, power, skipped = layer, 0, 1, False
        while k < steps and layer:
            if m is not None:
                charge(m, layer)
            layer, k = self._one_step(layer, blocked), k + 1
            if skipped:
                continue
            if layer == mark:  # the sets repeat every k - mark_at steps from here on
                k += (steps - k) // (k - mark_at) * (k - mark_at)
                skipped = True
            elif k - mark_at == power:
                mark, mark_at, power = layer, k, power * 2
        ends = layer
        if INDEXED:
            index = self.index
            return sorted(ends, key=lambda s: index[s][0])
        return [s for s in self.order if s in ends]

    def _one_step(self, layer: frozenset, blocked: set) -> frozenset:
        """The spaces one counted step from `layer` reaches, passing over blocked ones."""
        out, seen = set(), set()
        todo = list(layer)
        while todo:
            for nxt in self.successors[todo.pop()]:
                if nxt not in blocked:
                    out.add(nxt)
                elif nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return frozenset(out)

    def areas(self, space) -> list:
        if INDEXED:
            known = self.index.get(space) if type(space) is str else None
            if known is not None:
                return list(known[2])
        self.check(space)
        return list(self.graph.nodes[space]["areas"])

    def tags(self, space) -> list:
        if INDEXED:
            known = self.index.get(space) if type(space) is str else None
            if known is not None:
                return list(known[1])
        self.check(space)
        return list(self.graph.nodes[space]["tags"])
