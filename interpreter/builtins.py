"""The functions a rules expression can call, with their arity, docs and an example.

Each entry is one small function of plain values. The checker reads the arity,
docs/language.md lists every entry (a test checks they match), and the
compiler calls `fn(machine, *args)`. Cells are `[grid_key, index]` lists,
players are seat numbers, components are their ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import eq

from meeple.interpreter.boards import grid as gridlib
from meeple.interpreter.boards.placing import _fits
from meeple.interpreter.effects.actions import MOMENT


@dataclass(frozen=True)
class Builtin:
    fn: Callable
    min_args: int
    max_args: int  # -1: any number
    doc: str
    example: str


def _count(m, xs):
    return len(xs)


def _sum(m, xs):
    return sum(xs)


def _max(m, *xs):
    values = xs[0] if len(xs) == 1 and isinstance(xs[0], list) else xs
    return max(values) if values else 0


def _min(m, *xs):
    values = xs[0] if len(xs) == 1 and isinstance(xs[0], list) else xs
    return min(values) if values else 0


def _any(m, xs):
    return any(xs)


def _all(m, xs):
    return all(xs)


def _list(m, xs):
    return list(xs)


def _pairs(m, xs):
    return [[xs[i], xs[i + 1]] for i in range(len(xs) - 1)]


def _abs(m, x):
    return abs(x)


def _top(m, xs):
    return xs[0] if xs else None


def _grid(m, key):
    name = key.split("/", 1)[0]
    return m.game.grids[name]


def _geometry_list(m, what: str, key: str, build):
    """Cell lists of a grid's geometry never change: build them once per grid."""
    cached = m.game.cache.get((what, key))
    if cached is None:
        cached = m.game.cache[(what, key)] = build(_grid(m, key).geometry)
    return cached


def _cells(m, key):
    return _geometry_list(m, "cells", key, lambda g: [[key, i] for i in range(g.size)])


def _rows(m, key):
    return _geometry_list(
        m, "rows", key, lambda g: [[[key, r * g.cols + c] for c in range(g.cols)] for r in range(g.rows)]
    )


def _columns(m, key):
    return _geometry_list(
        m, "columns", key, lambda g: [[[key, r * g.cols + c] for r in range(g.rows)] for c in range(g.cols)]
    )


def _groups(m, cells):
    if not cells:
        return []
    return gridlib.groups(cells, _grid(m, cells[0][0]).geometry)


def _neighbours(m, cell):
    if cell is None:
        return []
    key, i = cell
    return [[key, n] for n in _grid(m, key).geometry.neighbours[i]]


def _step(direction):
    def step(m, cell):
        if cell is None:
            return None
        key, i = cell
        j = _grid(m, key).geometry.steps[direction][i]
        return None if j < 0 else [key, j]

    step.__name__ = direction
    return step


def _next_player(m, p):
    return (p + 1) % m.state["players"]


def _board(m, name):
    board = m.game.boards.get(name)
    if board is None:
        raise ValueError(f"`{name}` is not a board")
    return board


def _reach(m, board, start, steps, blocked):
    return _board(m, board).reach(start, steps, blocked, m)


def _areas(m, board, space):
    return _board(m, board).areas(space)


def _tags(m, board, space):
    return _board(m, board).tags(space)


def _adjacent(m, board, space):
    b = _board(m, board)
    b.check(space)
    return list(b.neighbours[space])


def _spaces(m, board):
    return list(_board(m, board).order)


def _next_spaces(m, board, space):
    b = _board(m, board)
    b.check(space)
    return list(b.successors[space])


def _lines(m, key, n):
    """Every straight run of n cells: across, down and both diagonals (computed once)."""
    cached = m.game.cache.get(("lines", key, n))
    if cached is not None:
        return cached
    g = _grid(m, key).geometry
    out = []
    for r in range(g.rows):
        for c in range(g.cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (n - 1), c + dc * (n - 1)
                if 0 <= end_r < g.rows and 0 <= end_c < g.cols:
                    out.append([[key, (r + dr * k) * g.cols + c + dc * k] for k in range(n)])
    m.game.cache[("lines", key, n)] = out
    return out


def _in_a_row(m, key, n, value):
    """True if n cells in a straight line (across, down, diagonal) all hold the value.

    On a small grid, line by line. On a larger one (a 6 x 7 grid has 69 lines of 4)
    the cells holding the value become one number, a byte per cell (built in C);
    and-ing it with itself shifted along a direction n - 1 times leaves a bit set
    where a whole line starts, which the direction's mask of line starts finds."""
    if type(n) is not int or n < 1:
        return _in_a_row_slow(m, key, n, value)
    check = m.game.cache.get(("line-check", key, n))
    if check is None:
        check = m.game.cache[("line-check", key, n)] = line_checker(_lines(m, key, n), n)
    return check(m.state["grids"][key]["cells"], value)


def line_checker(lines: list, n: int):
    """`check(cells, value)` for lines of n >= 1 cells (see `_in_a_row`)."""
    if len(lines) < SHIFT_FROM:
        # Few lines: one expression testing each line's cells in turn, written out as
        # Python (`c[0] == v and c[1] == v and c[2] == v or ...`) - no loop to run.
        tests = " or ".join("(" + " and ".join(f"c[{cell[1]}] == v" for cell in line) + ")" for line in lines)
        namespace: dict = {}
        exec(f"def by_lines(c, v):\n    return {tests or 'False'}\n", namespace)
        return namespace["by_lines"]
    starts: dict = {}
    for line in lines:
        first, second = line[0][1], line[1][1] if n > 1 else line[0][1] + 1
        starts[second - first] = starts.get(second - first, 0) | 1 << (8 * first)
    directions = tuple((tuple(8 * step * k for k in doubling(n)), mask) for step, mask in starts.items())

    def by_shifts(cells, value):
        own = int.from_bytes(bytes(map(eq, cells, repeat(value))), "little")
        if not own:
            return False
        for shifts, line_starts in directions:
            run = own
            for shift in shifts:
                run &= run >> shift
            if run & line_starts:
                return True
        return False

    return by_shifts


def doubling(n: int) -> list:
    """The steps that grow runs of 1 cell to runs of n, each step and-ing a run with itself
    shifted: 1, 2, 4... while that fits, then what is left (two runs overlapping). A bit set
    after a step of k on runs of length L marks a run of L + k cells (k <= L)."""
    steps, length = [], 1
    while length < n:
        k = min(length, n - length)
        steps.append(k)
        length += k
    return steps


SHIFT_FROM = 16  # lines on a grid from which shifting beats checking line by line (measured)


def _in_a_row_slow(m, key, n, value):
    """Line by line: for what is not a line of one cell or more."""
    cells = m.state["grids"][key]["cells"]
    for line in _lines(m, key, n):
        if all(cells[c[1]] == value for c in line):
            return True
    return False


def _roll(m, faces):
    """A random item: a die with these faces, a card from a list. Recorded as an event."""
    from meeple.interpreter import rng

    if not faces:
        raise ValueError("roll needs at least one face")
    value = faces[rng.below(m.state, len(faces))]
    m.emit("roll", value=value)
    return value


SUBSETS_LIMIT = 100_000


def _subsets(m, xs, lo, hi):
    from itertools import combinations
    from math import comb

    sizes = range(max(lo, 0), min(hi, len(xs)) + 1)
    if sum(comb(len(xs), k) for k in sizes) > SUBSETS_LIMIT:
        raise ValueError(f"subsets of {len(xs)} items would give more than {SUBSETS_LIMIT:,} choices")
    return [list(c) for k in sizes for c in combinations(xs, k)]


def _unique(m, xs):
    from meeple.interpreter.effects.choices import distinct

    return distinct(list(xs))


def _majority(m, values, points):
    """Per seat: the players with the most (more than 0) split the points, rounded down."""
    best = max(values) if values else 0
    if best <= 0:
        return [0] * len(values)
    tied = sum(1 for v in values if v == best)
    return [points // tied if v == best else 0 for v in values]


PAIRINGS_LIMIT = 10_395  # the pairings of 12 items


def _pairings(m, xs):
    """Every way to split a list of even length into pairs (the first item pairs with each other)."""
    from math import prod

    xs = list(xs)
    if len(xs) % 2:
        raise ValueError(f"{len(xs)} items cannot all be paired")
    if prod(range(len(xs) - 1, 0, -2)) > PAIRINGS_LIMIT:
        raise ValueError(f"pairings of {len(xs)} items would give more than {PAIRINGS_LIMIT:,} choices")

    def split(rest):
        if not rest:
            return [[]]
        first, others = rest[0], rest[1:]
        return [
            [[first, partner]] + tail
            for i, partner in enumerate(others)
            for tail in split(others[:i] + others[i + 1 :])
        ]

    return split(xs)


def _last(m, xs):
    return xs[-1] if xs else None


def _sort(m, xs):
    return sorted(xs, key=lambda x: (str(type(x)), x))


def _moment(m):
    """What happens now, as the last `moment` statement named it (none before the first)."""
    return m.state["vars"].get(MOMENT)


FUNCTIONS: dict[str, Builtin] = {
    "count": Builtin(
        _count, 1, 1, "How many items: of a list, a zone or a selection.", "count(each c in cells(board) where c.empty)"
    ),
    "sum": Builtin(_sum, 1, 1, "The total of a list of numbers.", "sum(c.row for each c in cells(board))"),
    "max": Builtin(
        _max, 1, -1, "The largest of a list or of the arguments; 0 for an empty list.", "max(3, count(hand))"
    ),
    "min": Builtin(
        _min, 1, -1, "The smallest of a list or of the arguments; 0 for an empty list.", "min(count(hand), 5)"
    ),
    "any": Builtin(_any, 1, 1, "True if any value is true.", "any(c.empty for each c in cells(board))"),
    "all": Builtin(
        _all,
        1,
        1,
        "True if every value is true (and for an empty list).",
        "all(not c.empty for each c in cells(board))",
    ),
    "list": Builtin(
        _list,
        1,
        1,
        "A selection or generator as a list, to keep in a `let`.",
        "list(each c in cells(board) where c.empty)",
    ),
    "pairs": Builtin(_pairs, 1, 1, "Neighbouring pairs of a list: [a, b], [b, c], ...", "pairs([1, 2, 3])"),
    "abs": Builtin(_abs, 1, 1, "The size of a number without its sign.", "abs(-3)"),
    "top": Builtin(_top, 1, 1, "The first item of a list or zone (the top of a deck), or none.", "top(supply)"),
    "cells": Builtin(_cells, 1, 1, "Every cell of a grid, row by row.", "cells(board)"),
    "rows": Builtin(_rows, 1, 1, "The grid's rows, top to bottom, each a list of cells.", "rows(board)"),
    "columns": Builtin(_columns, 1, 1, "The grid's columns, left to right, each a list of cells.", "columns(board)"),
    "groups": Builtin(
        _groups,
        1,
        1,
        "Orthogonally connected groups among the given cells.",
        "groups(each c in cells(board) where c.empty)",
    ),
    "neighbours": Builtin(_neighbours, 1, 1, "The cells orthogonally next to a cell.", "neighbours(top(cells(board)))"),
    "left": Builtin(_step("left"), 1, 1, "The cell to the left, or none at the edge.", "left(top(cells(board)))"),
    "right": Builtin(_step("right"), 1, 1, "The cell to the right, or none at the edge.", "right(top(cells(board)))"),
    "above": Builtin(_step("above"), 1, 1, "The cell above, or none at the edge.", "above(top(cells(board)))"),
    "below": Builtin(_step("below"), 1, 1, "The cell below, or none at the edge.", "below(top(cells(board)))"),
    "fits": Builtin(
        _fits, 2, 2, "True if a piece fits on empty cells of a grid in some orientation.", "fits(top(supply), board)"
    ),
    "next_player": Builtin(_next_player, 1, 1, "The player to the left (clockwise).", "next_player(first_player)"),
    "reach": Builtin(
        _reach,
        4,
        4,
        "Spaces a move of exactly n spaces along the arrows can end on; "
        "spaces in the last list are skipped and not counted.",
        'reach(path, "s1", 2, ["s2"])',
    ),
    "areas": Builtin(_areas, 2, 2, "The areas next to a space of a board.", 'areas(path, "s1")'),
    "tags": Builtin(_tags, 2, 2, "The tags of a space of a board.", 'tags(path, "s1")'),
    "adjacent": Builtin(_adjacent, 2, 2, "Spaces joined to a space by an arrow either way.", 'adjacent(path, "s1")'),
    "spaces": Builtin(_spaces, 1, 1, "Every space of a board, in file order.", "spaces(path)"),
    "next_spaces": Builtin(
        _next_spaces, 2, 2, "The spaces the arrows from a space lead to.", 'next_spaces(path, "s1")'
    ),
    "sort": Builtin(_sort, 1, 1, "A list in order, smallest first.", "sort([3, 1, 2])"),
    "moment": Builtin(
        _moment,
        0,
        0,
        "What happens now: the name the last `moment` statement gave (none before the first).",
        'moment() == "before attack"',
    ),
    "lines": Builtin(
        _lines, 2, 2, "Every straight run of n cells of a grid: across, down and diagonal.", "lines(board, 3)"
    ),
    "in_a_row": Builtin(
        _in_a_row,
        3,
        3,
        "True if n cells in a straight line (across, down or diagonal) all hold the value.",
        "in_a_row(board, 3, x)",
    ),
    "roll": Builtin(
        _roll, 1, 1, "One of the faces at random (a die roll; shown in the trace).", "roll([1, 2, 3, 4, 5, 6])"
    ),
    "subsets": Builtin(
        _subsets, 3, 3, "Every choice of between lo and hi items of a list, each as a list.", "subsets([1, 2, 3], 1, 2)"
    ),
    "unique": Builtin(_unique, 1, 1, "Each value of a list once, in first-seen order.", "unique([2, 1, 2])"),
    "majority": Builtin(
        _majority,
        2,
        2,
        "Per seat, from a list of values by seat: the players with the most "
        "(above 0) split the points, rounded down; the others get 0.",
        "majority([3, 5, 5], 6)",
    ),
    "pairings": Builtin(
        _pairings, 1, 1, "Every way to split a list of even length into pairs.", "pairings([1, 2, 3, 4])"
    ),
    "last": Builtin(_last, 1, 1, "The last item of a list or zone (the bottom of a deck), or none.", "last(supply)"),
}

# Names that count as generator consumers: `f(x for each ...)` and `f(each x in ...)`.
AGGREGATES = {"count", "sum", "max", "min", "any", "all", "list", "pairs", "groups"}
