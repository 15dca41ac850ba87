"""Polyomino pieces: shapes with one value per cell, their 8 orientations, and fits.

A shape is written as text, rows split by `/`, cells by spaces, `.` for a hole:
``"red red / blue ."``. Orientations 0-3 turn the piece a quarter clockwise
each; 4-7 mirror it first. Orientations that give the same cells with the same
values are the same placement and are offered once.

Placements on a grid are precomputed once per (shape, grid size) as bitmasks,
so a fit check is one `&` per placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from meeple.interpreter.boards import corner_source

EMPTY = "."


class ShapeError(ValueError):
    pass


def parse_shape(text: str, allowed: set[str]) -> tuple:
    """Text -> tuple of (row, col, value) with the top-left at (0, 0)."""
    rows = [r.split() for r in text.split("/")]
    cells = []
    for r, row in enumerate(rows):
        for c, word in enumerate(row):
            if word == EMPTY:
                continue
            if word not in allowed:
                raise ShapeError(f"`{word}` is not one of {', '.join(sorted(allowed))}")
            cells.append((r, c, word))
    if not cells:
        raise ShapeError("a shape needs at least one cell")
    return normalise(cells)


def normalise(cells) -> tuple:
    r0 = min(r for r, _, _ in cells)
    c0 = min(c for _, c, _ in cells)
    return tuple(sorted((r - r0, c - c0, v) for r, c, v in cells))


def orient(cells: tuple, k: int) -> tuple:
    """Orientation k of a shape: mirror if k >= 4, then turn k % 4 quarters clockwise."""
    out = [(r, -c, v) for r, c, v in cells] if k >= 4 else list(cells)
    for _ in range(k % 4):
        out = [(c, -r, v) for r, c, v in out]
    return normalise(out)


def describe_orientation(k: int) -> str:
    turn = (k % 4) * 90
    text = f"turned {turn}" if turn else "upright"
    return text + (", flipped" if k >= 4 else "")


@dataclass(frozen=True, slots=True)
class Placement:
    orientation: int
    row: int
    col: int
    mask: int
    cells: tuple  # ((index, value), ...)


@cache
def placements(cells: tuple, rows: int, cols: int) -> tuple:
    """Every distinct placement of the shape on an empty rows x cols grid."""
    seen = set()
    out = []
    for k in range(8):
        shape = orient(cells, k)
        if shape in seen:
            continue
        seen.add(shape)
        height = max(r for r, _, _ in shape) + 1
        width = max(c for _, c, _ in shape) + 1
        for r in range(rows - height + 1):
            for c in range(cols - width + 1):
                idx = tuple(((r + dr) * cols + (c + dc), v) for dr, dc, v in shape)
                mask = 0
                for i, _ in idx:
                    mask |= 1 << i
                out.append(Placement(k, r, c, mask, idx))
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """A shape's placements on one grid size, laid out for the hot loop: each placement's
    mask, its option `[orientation, row, col]` (1-based) and, by that option, the placement."""

    placements: tuple
    masks: tuple
    options: tuple  # (orientation, row + 1, col + 1) per placement
    footprints: tuple  # the distinct masks: whether a shape fits depends only on these
    by_option: dict
    # For finding the placements that fit (interpreter/builtins.py): per cell, the
    # placements covering it as a number with one byte per placement (1 where it
    # covers), `everything` with a 1 in every placement's byte, and the options as
    # lists, shared by every decision that offers them (option values are never changed).
    covers: tuple
    everything: int
    option_lists: tuple
    # For `fits` and the placements that fit, by corners: per outline (the shape's cells
    # without their values, one per distinct turn), the cells where its top-left corner
    # may stand (a bitmask) and its cells' distances from that corner in the grid's
    # numbering. The free cells shifted by each distance and and-ed together leave the
    # corners where the outline fits, whatever the grid holds. `segments`: per run of
    # placements of one orientation (in the table's order), its outline's index and each
    # placement's corner as a byte; None on grids of more than 256 cells (then the covers
    # above are used).
    outlines: tuple
    segments: tuple | None
    # The same outlines with one byte per cell instead of one bit (a corner mask whose byte i
    # is 1 where bit i was, distances times 8): the corners where an outline fits then come
    # out as the byte table `segments` translate by, with one `to_bytes`. None below
    # SPREAD_FROM outlines (and without segments).
    spread: tuple | None = None
    # The outlines' number, the same for every table with the same outlines (the shapes of a
    # set of pieces whose cells show different things): where one fits, so does the other.
    family: int = 0
    # The same tests written out as Python (interpreter/boards/corner_source.py): `fits_test(free)`
    # whether some outline fits; `spread_tables(spread free)` the byte table of each spread outline.
    fits_test: object = None
    spread_tables: object = None
    # The option lists again, each orientation's laid out by its corner from corner 0 up to its
    # outline's last possible one (None where no placement stands), and `chosen(spread free)` the
    # byte per entry that selects the ones that fit (corner_source.selector); spread tables only.
    padded: tuple | None = None
    chosen: object = None
    # `pick(occ)`: the options that fit, each orientation's fitting corners read a byte (eight
    # cells) at a time as tuples of options (corner_source.picker); tables with segments only.
    pick: object = None


@cache
def table(cells: tuple, rows: int, cols: int) -> Table:
    found = placements(cells, rows, cols)
    options = tuple((p.orientation, p.row + 1, p.col + 1) for p in found)
    masks = tuple(p.mask for p in found)
    outlines, which = corners(cells, rows, cols)
    size = rows * cols
    segments = pick = None
    if size <= 256:
        runs: dict = {}
        for p in found:  # the table lists each orientation's placements together
            runs.setdefault(p.orientation, []).append(p.row * cols + p.col)
        segments = tuple((which[k], bytes(at)) for k, at in runs.items())
        pick = corner_source.picker(outlines, tuple((k, which[k]) for k in runs), size, cols)
    covers = [0] * size
    if segments is None:
        for k, p in enumerate(found):
            for i, _ in p.cells:
                covers[i] |= 1 << (8 * k)
    everything = int.from_bytes(b"\x01" * len(found), "little")
    spread = None
    if segments is not None and len(outlines) >= SPREAD_FROM:
        spread = tuple((spread_bits(mask, size), tuple(8 * d for d in distances)) for mask, distances in outlines)
    option_lists = tuple(list(o) for o in options)
    padded = None if spread is None or segments is None else pad(option_lists, segments, spread)
    return Table(
        found,
        masks,
        options,
        tuple(dict.fromkeys(masks)),
        dict(zip(options, found)),
        tuple(covers),
        everything,
        option_lists,
        outlines,
        segments,
        spread,
        FAMILIES.setdefault(outlines, len(FAMILIES)),
        corner_source.fits_test(outlines),
        corner_source.spread_tables(spread) if spread is not None else None,
        padded,
        corner_source.selector(spread, segments) if spread is not None and segments is not None else None,
        pick,
    )


def pad(option_lists: tuple, segments: tuple, spread: tuple) -> tuple:
    """The option lists per orientation at their corners (see Table.padded)."""
    out: list[tuple | None] = []
    start = 0
    for i, at in segments:
        laid = [None] * ((spread[i][0].bit_length() + 7) // 8)
        for corner, option in zip(at, option_lists[start : start + len(at)]):
            laid[corner] = option
        out.extend(laid)
        start += len(at)
    return tuple(out)


# Spreading the free cells once cost about what two outlines save (timeit, eighth stint, docs/experiments.md), so
# tables of fewer than three outlines were left unspread; with the written selector (`chosen`)
# every table pays (0.3% fewer instructions with one: docs/experiments.md, eleventh stint).
SPREAD_FROM = 1
FAMILIES: dict = {}  # outlines (corner masks and distances) -> their number, as tables are made


def spread_bits(mask: int, size: int) -> int:
    """A bitmask of `size` cells as a number with one byte per cell (1 where the bit is set)."""
    return int.from_bytes(bytes((mask >> i) & 1 for i in range(size)), "little")


def corners(cells: tuple, rows: int, cols: int) -> tuple:
    """((corner mask, distances) per distinct outline, {orientation: its outline's index})."""
    index: dict = {}
    which = {}
    out: list[tuple[int, tuple]] = []
    for k in range(8):
        outline = tuple((r, c) for r, c, _ in orient(cells, k))
        if outline not in index:
            index[outline] = len(out)
            height = max(r for r, _ in outline) + 1
            width = max(c for _, c in outline) + 1
            mask = 0
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    mask |= 1 << (r * cols + c)
            out.append((mask, tuple(r * cols + c for r, c in outline)))
        which[k] = index[outline]
    return tuple(out), which


def render(cells: tuple) -> str:
    """A shape back to its text form (for labels and traces)."""
    height = max(r for r, _, _ in cells) + 1
    width = max(c for _, c, _ in cells) + 1
    grid = [[EMPTY] * width for _ in range(height)]
    for r, c, v in cells:
        grid[r][c] = v
    return " / ".join(" ".join(row) for row in grid)
