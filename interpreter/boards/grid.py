"""Square grids: geometry compiled once, cells as plain data in the state.

The compiled `Geometry` holds a networkx grid graph (orthogonal adjacency) and,
for the hot loop, flat neighbour lists. A cell value in rules is the list
`[grid_key, index]`; a grid in the state is ``{"cells": [...], "pieces": [...]}``
where `cells` holds each cell's content (or None) and `pieces` records which
component covers what (so every component is in exactly one place).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress, repeat
from operator import is_not

import networkx as nx

# Direction name -> (row step, column step)
DIRECTIONS = {"left": (0, -1), "right": (0, 1), "above": (-1, 0), "below": (1, 0)}


@dataclass
class Geometry:
    rows: int
    cols: int
    graph: nx.Graph = field(repr=False)
    neighbours: tuple = field(repr=False)
    steps: dict = field(repr=False)  # direction -> tuple(index or -1)

    @classmethod
    def square(cls, rows: int, cols: int) -> "Geometry":
        graph = nx.grid_2d_graph(rows, cols)
        index = {(r, c): r * cols + c for r in range(rows) for c in range(cols)}
        neighbours = tuple(
            tuple(sorted(index[n] for n in graph.neighbors((r, c))))
            for r in range(rows) for c in range(cols))
        steps = {}
        for name, (dr, dc) in DIRECTIONS.items():
            steps[name] = tuple(
                index.get((r + dr, c + dc), -1) for r in range(rows) for c in range(cols))
        return cls(rows, cols, graph, neighbours, steps)

    @property
    def size(self) -> int:
        return self.rows * self.cols


def new_grid(size: int) -> dict:
    return {"cells": [None] * size, "pieces": []}


def occupancy(cells: list) -> int:
    """The filled cells as a bitmask, summed at C speed (a loop over the cells is 1.5x slower)."""
    return sum(compress(_bits(len(cells)), map(is_not, cells, repeat(None))))


@lru_cache(maxsize=None)
def _bits(size: int) -> tuple:
    return tuple(1 << i for i in range(size))


def groups(cells: list, geometry: Geometry) -> list:
    """Orthogonally connected groups among the given cells ([key, index] lists)."""
    if not cells:
        return []
    key = cells[0][0]
    chosen = {c[1] for c in cells}
    seen: set = set()
    return [[[key, i] for i in sorted(_group(start, chosen, seen, geometry.neighbours))]
            for start in sorted(chosen) if start not in seen]


def group_count(cells: list, geometry: Geometry) -> int:
    """How many groups `groups` finds among the cells, without building them."""
    chosen = {c[1] for c in cells}
    seen: set = set()
    return sum(1 for start in chosen if start not in seen and _group(start, chosen, seen, geometry.neighbours))


def _group(start: int, chosen: set, seen: set, neighbours) -> list:
    """The indices connected to `start` among `chosen`, marked in `seen`."""
    seen.add(start)
    group, frontier = [], [start]
    while frontier:
        i = frontier.pop()
        group.append(i)
        for n in neighbours[i]:
            if n in chosen and n not in seen:
                seen.add(n)
                frontier.append(n)
    return group


def render(grid: dict, geometry: Geometry, codes: dict | None = None) -> list[str]:
    """Rows of the grid as text, one short code per cell ('.' when empty)."""
    codes = codes or {}
    width = max([len(codes.get(v, v)) for v in grid["cells"] if v is not None] + [1])
    lines = []
    for r in range(geometry.rows):
        row = grid["cells"][r * geometry.cols:(r + 1) * geometry.cols]
        lines.append(" ".join((codes.get(v, v) if v is not None else ".").ljust(width) for v in row).rstrip())
    return lines
