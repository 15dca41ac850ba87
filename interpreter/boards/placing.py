"""Where a component's shape may go on a grid: the tables behind `place` and `fits`.

A shape's placements on a grid size are worked out once (interpreter/boards/polyomino.py);
these functions test them against a grid's cells as the game stands.
"""

from __future__ import annotations

from functools import reduce
from itertools import compress, repeat
from operator import is_not, or_

from meeple.interpreter.boards import grid as gridlib
from meeple.interpreter.boards import polyomino


def _grid(m, key):
    return m.game.grids[key.split("/", 1)[0]]


def placement_table(m, piece, key) -> polyomino.Table:
    """The placements of a component's shape on a grid of this key's size (computed once)."""
    found = m.game.cache.get(("placements", piece, key))
    if found is None:
        shape = m.game.shapes.get(piece)
        if shape is None:
            raise ValueError(f"`{piece}` has no shape to place")
        geometry = _grid(m, key).geometry
        found = m.game.cache[("placements", piece, key)] = polyomino.table(shape, geometry.rows, geometry.cols)
    return found


KEEP = True  # tests turn it off to compare the cells with the last mask's at every use
# The compare alone: the last mask per grid is found by comparing its copy of the cells, never by
# the machine's kept one. In the shipped game that places most, 106 of 117 calls a game compare
# anyway (every `apply` starts with nothing kept), and the kept lookup and its write cost more
# than the compare of 48 cells they save when they hit. `put` still brings the compared mask up to date (`placed`).
# Tests turn it off (to the kept one, KEEP).
COMPARED = True


def occupied(m, key) -> int:
    """The grid's filled cells as a bitmask.

    Checks of many pieces against one grid come in runs (`any(fits(t, board) for each t in
    bag)`), so the last mask is kept with a copy of the cells it was computed from, and
    compared (a C-speed list compare) before reuse (COMPARED). Kept (KEEP), that compare is
    made once a run of the machine (an `apply`, a score): the mask is then kept on the machine
    beside the very cells list it describes and brought up to date by the engine's
    writers (`put` adds the placed cells; `put_checked` and setting a cell drop it).
    A caller may change a state's cells between two runs; within one, only rules do."""
    cells = m.state["grids"][key]["cells"]
    if COMPARED:
        try:
            last = m.game.cache["occupied"].get(key)
        except KeyError:
            last = None
        if last is not None and last[0] == cells:
            return last[1]
        occ = gridlib.occupancy(cells)
        m.game.cache.setdefault("occupied", {})[key] = (cells[:], occ)
        return occ
    if KEEP:
        last = m.kept.get(key)
        if last is not None and last[0] is cells:
            return last[1]
    masks = m.game.cache.get("occupied")
    if masks is None:
        masks = m.game.cache["occupied"] = {}
    last = masks.get(key)
    if last is not None and last[0] == cells:
        occ = last[1]
    else:
        occ = gridlib.occupancy(cells)
        masks[key] = (cells[:], occ)
    if KEEP:
        m.kept[key] = (cells, occ)
    return occ


def placed(m, key, cells, mask: int) -> None:
    """`put` filled the empty cells of `mask` (having asked `occupied` first): the kept mask
    grows by them, and so does the compared one (the next run's compare then finds it)."""
    if COMPARED:
        masks = m.game.cache["occupied"]
        masks[key] = (cells[:], masks[key][1] | mask)
        return
    last = m.kept.get(key)
    if last is not None and last[0] is cells:
        occ = last[1] | mask
        m.kept[key] = (cells, occ)
        m.game.cache["occupied"][key] = (cells[:], occ)


def forget(m, key) -> None:
    """A writer other than `put` is about to change the grid's cells: drop its kept mask."""
    m.kept.pop(key, None)


BY_CORNERS = True  # tests turn it off to play the same games checking placement by placement
DIGITS_AS_BYTES = bytes.maketrans(b"01", b"\x00\x01")  # a number's binary digits, as bytes 0 and 1
# The free cells spread to one byte each once a call, so that each outline's fitting corners are
# and-ed as bytes and come out as its table in one `to_bytes` (instead of a string of binary
# digits turned into bytes per outline). Tests turn it off to find the same placements.
SPREAD = True
FREE_DIGITS = bytes.maketrans(b"01", b"\x01\x00")  # an occupancy's binary digits, as 1 where free
# A choice's `where fits(item, grid)` asks `fitting` for all its items at once (dsl/compile_choices.py
# writes the call): pieces whose outlines are the same are answered once. Tests turn it off.
BY_FAMILY = True
# Outlines tested by their functions written out (interpreter/boards/corner_source.py), not by a
# loop over their masks and distances. Tests turn it off.
WRITTEN = True
# On an empty grid every placement in a table fits (the table holds those inside the grid), so
# they are the answer without a test: every game's first placement on each grid. Tests turn it off.
EMPTY = True
# A spread table's fitting placements selected from its padded option lists by its written
# selector (polyomino Table.padded, corner_source.selector): no translation of each orientation's
# corners through a byte table per outline. Tests turn it off.
SELECTED = True
# A table's fitting placements picked by its written `pick(occ)` (polyomino Table.pick,
# corner_source.picker): each orientation's fitting corners as bytes, a byte (eight cells)
# indexing a tuple of the options at its set bits, joined in one list display. No free cells
# spread to a byte each and no compress over every candidate (~219 a call in the shipped game
# that places most, ~67 fitting): docs/experiments.md, twelfth stint. On, it is taken whatever the
# switches above say (see placements_for); tests turn it off, and off to try those.
PICKED = True


def placements_for(m, piece, key):
    """The placements (as options `[orientation, row, col]`) of a component's shape that fit
    the grid as it is now."""
    if PICKED:
        # The usual way, with the table's lookup and `occupied`'s compare written here: two
        # calls fewer, ~1.5 k instructions of the 22 k a call (docs/experiments.md, twelfth
        # stint). It reads no older switch (each costs a global's read a call): the compare
        # with the kept copy of the cells is right whichever way `occupied` keeps it, and an
        # empty grid's whole table is what a test finds. Tests turn PICKED off to try those.
        game = m.game
        found = game.cache.get(("placements", piece, key)) or placement_table(m, piece, key)
        if found.pick is not None:
            cells = m.state["grids"][key]["cells"]
            try:
                last = game.cache["occupied"].get(key)
            except KeyError:
                last = None
            occ = last[1] if last is not None and last[0] == cells else occupied(m, key)
            return found.pick(occ) if occ else list(found.option_lists)
    return _placements_before(m, piece, key)


def _placements_before(m, piece, key):
    """`placements_for` the ways before PICKED (and on grids of more than 256 cells), as the
    older switches choose."""
    found = placement_table(m, piece, key)
    if BY_CORNERS:
        if found.segments is not None:
            occ = occupied(m, key)
            if not occ and EMPTY:
                return list(found.option_lists)
            # Per outline, the corners where it fits as a byte table (1 at a fitting corner);
            # each orientation's corners translated by it select the shared option lists.
            if SPREAD and found.spread is not None:
                # Cells above the highest filled one are free; the grid's size bounds them.
                size = len(m.state["grids"][key]["cells"])
                free = int.from_bytes(bin(occ)[:1:-1].encode().translate(FREE_DIGITS).ljust(size, b"\x01"), "little")
                if SELECTED and WRITTEN:
                    return list(compress(found.padded, found.chosen(free)))
                if WRITTEN:
                    fitting = found.spread_tables(free)
                else:
                    fitting = []
                    for corners, distances in found.spread:
                        for d in distances:
                            corners &= free >> d
                        fitting.append(corners.to_bytes(256, "little"))
                chosen = b"".join([at.translate(fitting[i]) for i, at in found.segments])
                return list(compress(found.option_lists, chosen))
            free = ~occ
            fitting = []
            for corners, distances in found.outlines:
                for d in distances:
                    corners &= free >> d
                fitting.append(bin(corners)[:1:-1].encode().translate(DIGITS_AS_BYTES).ljust(256, b"\x00"))
            chosen = b"".join([at.translate(fitting[i]) for i, at in found.segments])
            return list(compress(found.option_lists, chosen))
        # A grid of more than 256 cells: per cell, the placements covering it as one byte
        # each of a number; or-ed over the filled cells, the rest select the options.
        cells = m.state["grids"][key]["cells"]
        blocked = reduce(or_, compress(found.covers, map(is_not, cells, repeat(None))), 0)
        free = (found.everything & ~blocked).to_bytes(len(found.options), "little")
        return list(compress(found.option_lists, free))
    occ = occupied(m, key)
    return [list(o) for o, mask in zip(found.options, found.masks) if not mask & occ]


def _fits(m, piece, key):
    found = m.game.cache.get(("placements", piece, key)) or placement_table(m, piece, key)
    occ = occupied(m, key)
    if BY_CORNERS:
        return _fits_free(found, ~occ)
    for mask in found.footprints:
        if not mask & occ:
            return True
    return False


def fitting(m, pieces, key) -> list:
    """The pieces that fit the grid as it is now, in their order: `[p for p in pieces if
    fits(p, key)]` with the grid's free cells read once and one answer per family of outlines
    (a choice among the pieces of one bag, one shape with different cells, asks once).
    A piece without a shape raises as `fits` does."""
    if not (BY_FAMILY and BY_CORNERS):
        return [piece for piece in pieces if _fits(m, piece, key)]
    # The grid's tables by piece (a lookup by the piece alone, not by a new tuple per piece).
    tables = m.game.cache.get(("tables", key))
    if tables is None:
        tables = m.game.cache[("tables", key)] = {}
    free = ~occupied(m, key)
    answers: dict = {}
    out = []
    for piece in pieces:
        found = tables.get(piece)
        if found is None:
            found = tables[piece] = placement_table(m, piece, key)
        family = found.family
        answer = answers.get(family)
        if answer is None:
            # _fits_free's own dispatch written here: one call fewer per family (part of the 0.9%
            # measured for this loop, docs/experiments.md, eleventh stint).
            answer = answers[family] = found.fits_test(free) if WRITTEN else _fits_free(found, free)
        if answer:
            out.append(piece)
    return out


def _fits_free(found, free: int) -> bool:
    """Whether some placement of the table's piece lies on free cells only (`free`: a bit per
    free cell): some outline keeps a corner after every shift."""
    if WRITTEN:
        return found.fits_test(free)
    for corners, distances in found.outlines:
        for d in distances:
            corners &= free >> d
        if corners:
            return True
    return False
