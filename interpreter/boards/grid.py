"""Square grids: geometry compiled once, cells as plain data in the state.

The compiled `Geometry` holds a networkx grid graph (orthogonal adjacency) and,
for the hot loop, flat neighbour lists. A cell value in rules is the list
`[grid_key, index]`; a grid in the state is ``{"cells": [...], "pieces": [...]}``
where `cells` holds each cell's content (or None) and `pieces` records which
component covers what (so every component is in exactly one place).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
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
    def square(cls, rows: int, cols: int) -> Geometry:
        graph = nx.grid_2d_graph(rows, cols)
        index = {(r, c): r * cols + c for r in range(rows) for c in range(cols)}
        neighbours = tuple(
            tuple(sorted(index[n] for n in graph.neighbors((r, c)))) for r in range(rows) for c in range(cols)
        )
        steps = {}
        for name, (dr, dc) in DIRECTIONS.items():
            steps[name] = tuple(index.get((r + dr, c + dc), -1) for r in range(rows) for c in range(cols))
        return cls(rows, cols, graph, neighbours, steps)

    @property
    def size(self) -> int:
        return self.rows * self.cols


def new_grid(size: int) -> dict:
    return {"cells": [None] * size, "pieces": []}


def occupancy(cells: list) -> int:
    """The filled cells as a bitmask, summed at C speed (a loop over the cells is 1.5x slower)."""
    return sum(compress(_bits(len(cells)), map(is_not, cells, repeat(None))))


@cache
def _bits(size: int) -> tuple:
    return tuple(1 << i for i in range(size))


def groups(cells: list, geometry: Geometry) -> list:
    """Orthogonally connected groups among the given cells ([key, index] lists)."""
    if not cells:
        return []
    key = cells[0][0]
    chosen = {c[1] for c in cells}
    seen: set = set()
    return [
        [[key, i] for i in sorted(_group(start, chosen, seen, geometry.neighbours))]
        for start in sorted(chosen)
        if start not in seen
    ]


# `group_count` grows each group as a bitmask, the whole group a step further in every
# direction at once (a group takes as many steps as it is wide), rather than cell by cell:
# fewer Python steps for counting. Building the groups' cell lists this way was slower (sixth
# stint, docs/experiments.md), so `groups` searches cell by cell. Tests turn it off.
MASKS = True


def group_count(cells: list, geometry: Geometry) -> int:
    """How many groups `groups` finds among the cells, without building them."""
    chosen = {c[1] for c in cells}
    # A few cells are counted as fast cell by cell; a negative index means another cell there.
    if MASKS and len(chosen) > 8 and min(chosen) >= 0 and (masks := square_masks(geometry)):
        return _mask_count(sum(map(masks[0].__getitem__, chosen)), *masks[1:])
    seen: set = set()
    return sum(1 for start in chosen if start not in seen and _group(start, chosen, seen, geometry.neighbours))


def _mask_count(mask: int, keep_left: int, keep_right: int, cols: int) -> int:
    """Groups of orthogonal neighbours among the set bits of `mask` (bit r * cols + c)."""
    count = 0
    while mask:
        group = mask & -mask  # the lowest cell left starts a group
        while True:
            grown = (
                group | (group << 1) & keep_left | (group >> 1) & keep_right | group << cols | group >> cols
            ) & mask
            if grown == group:
                break
            group = grown
        mask ^= group
        count += 1
    return count


def flagged_group_count(masks: tuple, flags) -> int:
    """`group_count` of the cells whose flag (one per cell of the grid, in order) is true."""
    return _mask_count(sum(compress(masks[0], flags)), *masks[1:])


def square_masks(geometry: Geometry) -> tuple:
    """Per cell its bit; the cells a shift right (left) may land on, not the first (last) column;
    the columns. Or () for a grid whose neighbours are not the square's: counted cell by cell."""
    masks = geometry.__dict__.get("masks")  # kept on the geometry: worked out once a grid
    if masks is None:
        rows, cols = geometry.rows, geometry.cols
        masks = ()
        if geometry.neighbours == Geometry.square(rows, cols).neighbours:
            every = (1 << rows * cols) - 1
            first = sum(1 << (r * cols) for r in range(rows))
            last = sum(1 << (r * cols + cols - 1) for r in range(rows))
            masks = (_bits(rows * cols), every & ~first, every & ~last, cols)
        geometry.__dict__["masks"] = masks
    return masks


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
        row = grid["cells"][r * geometry.cols : (r + 1) * geometry.cols]
        lines.append(" ".join((codes.get(v, v) if v is not None else ".").ljust(width) for v in row).rstrip())
    return lines
