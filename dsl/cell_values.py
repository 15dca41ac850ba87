"""A component's field or a cell's attribute, read while a game runs.

`c.empty`, `c.row`, `tile.colour` (by the kinds' fields and the grids' layouts): the
readers the closures (dsl/compile_expr.py) and the generated source share, each failing
with a located error that names what the value lacks.
"""

from __future__ import annotations

from meeple.dsl.errors import MeepleError as fail
from meeple.dsl.errors import Span, did_you_mean
from meeple.dsl.runtime import KIND

CELL_ATTRS = {"row", "col", "empty"}


def attr_reader(game, name: str, span: Span):
    """`read(m, value)`: field `name` of a component or attribute of a cell, or a located error."""

    def read(m, value):
        if value is None:
            return None
        if isinstance(value, str):
            comp = game.components.get(value)
            if comp is None:
                raise fail(f"`{value}` is not a component, so it has no `{name}`", span)
            if name in comp:
                return comp[name]
            if name == "id":
                return value
            raise fail(f"{comp[KIND]} `{value}` has no field `{name}`", span, did_you_mean(name, comp, "field"))
        if isinstance(value, list) and len(value) == 2 and isinstance(value[0], str):
            return cell_attr(m, value, name, span)
        raise fail(f"{value!r} has no `{name}`", span)

    return read


def shared_content(game) -> str | None:
    """The name of the cells' content when every grid holds the same enum and no grid has a
    layout by that name: then `c.NAME` of any cell is its content, without asking its grid."""
    contents = {g.content for g in game.grids.values()}
    if len(contents) != 1:
        return None
    (name,) = contents
    return None if any(name in g.layouts for g in game.grids.values()) else name


def cell_attr(m, cell, name: str, span: Span):
    key, i = cell
    spec = m.game.grids[key.split("/", 1)[0]]
    if name == spec.content:
        return m.state["grids"][key]["cells"][i]
    if name == "empty":
        return m.state["grids"][key]["cells"][i] is None
    if name == "row":
        return i // spec.geometry.cols + 1
    if name == "col":
        return i % spec.geometry.cols + 1
    if name in spec.layouts:
        return spec.layouts[name][i]
    known = [spec.content, "empty", "row", "col", *spec.layouts]
    raise fail(f"a cell of `{spec.name}` has no `{name}`", span, did_you_mean(name, known, "attribute"))
