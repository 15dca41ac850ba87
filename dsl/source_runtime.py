"""What generated source (dsl/compile_source.py) calls while a game runs.

The rules' expressions written as Python call these for what Python's own operators
do not say the way the rules mean it: ranges with a size limit, a table's lookup,
unpacking checked item by item, a cell's neighbour with the grid's step table found once.
"""

from __future__ import annotations

from itertools import repeat

from meeple.dsl.compile_expr import Table
from meeple.dsl.expr_operators import RANGE_LIMIT, _plus, _times
from meeple.dsl.runtime import charge, charge_one, gridlib


def _range(a, b):
    if b - a >= RANGE_LIMIT:
        raise ValueError("range too long")
    return list(range(a, b + 1))


def _index(container, i, m=None):
    if isinstance(container, Table):
        return container.lookup(i, m)
    return container[i]


def _unpacked(items, n: int):
    """`items` when each is a list of n values (`each [a, b] in ...`), else an error (the
    closure then runs and says which item could not be unpacked)."""
    for item in items:
        if type(item) is not list or len(item) != n:
            raise ValueError("cannot unpack")
    return items


def _group_count(m, cells):
    """`count(groups(cells))` without the groups' cell lists (bots value groups of empty
    spaces and the like at every playout's end); anything odd fails, and the closure runs."""
    if not cells:
        return 0
    return gridlib.group_count(cells, m.game.grids[cells[0][0].split("/", 1)[0]].geometry)


def _count_equal(m, items, value):
    """`count(each x in ITEMS where x == VALUE)`: a list's own count (one pass in C), counted as
    work as its loop would be."""
    charge(m, items)
    if type(items) is list:
        return items.count(value)
    return len([x for x in items if x == value])  # a text counts its letters, not its substrings


HELPERS = {
    "PLUS": _plus,
    "TIMES": _times,
    "RANGE": _range,
    "INDEX": _index,
    "UNPACKED": _unpacked,
    "GROUP_COUNT": _group_count,
    "REPEAT": repeat,
    "W": charge,
    "W1": charge_one,
    "COUNT_EQUAL": _count_equal,
}


def step_reader(game, direction: str):
    """`above(c)` and the like, as the builtin, with each grid's step table looked up once."""
    tables: dict = {}

    def step(cell):
        if cell is None:
            return None
        key, i = cell
        table = tables.get(key)
        if table is None:
            table = tables[key] = game.grids[key.split("/", 1)[0]].geometry.steps[direction]
        j = table[i]
        return None if j < 0 else [key, j]

    return step


def field_table(game, name: str, with_none: bool = False) -> dict:
    """Component id -> its value of field `name`, for the components that have it (built once);
    `with_none`: none -> none too (a field of none is none)."""
    table = game.cache.get(("source", "field", name, with_none))
    if table is None:
        table = game.cache[("source", "field", name, with_none)] = {
            cid: comp[name] for cid, comp in game.components.items() if name in comp
        }
        if with_none:
            table[None] = None
    return table


def content_reader(read):
    """A cell's content, as compile_expr.compile_attr reads it when the object is not a plain name."""

    def content(m, value):
        if value is None:
            return None
        if isinstance(value, list):
            return m.state["grids"][value[0]]["cells"][value[1]]
        return read(m, value)

    return content


def empty_reader(read):
    def empty(m, value):
        if isinstance(value, list):
            return m.state["grids"][value[0]]["cells"][value[1]] is None
        return read(m, value)

    return empty
