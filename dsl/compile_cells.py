"""Direct tests of grid cells, for the filters grid games run at every move.

`choose c from cells(board) where c.empty` or `any(c.mark == x for each c in
cells(board))` would, compiled the general way, bind `c` in the frame's locals
for every cell and call a closure chain to read it back. When the items are
cells (the source is `cells(...)` or `neighbours(...)`) and the test only reads
those cells' contents, we compile the test instead into one function
`test(grids, cell)` that reads the state's cell array directly. Anything else
returns None and the general path is used; both give the same answer.
"""

from __future__ import annotations

from meeple.dsl import ast
from meeple.dsl.cell_values import shared_content
from meeple.dsl.compile_expr import constant, is_constant
from meeple.dsl.expr_operators import _COMPARE
from meeple.dsl.runtime import charge

CELL_SOURCES = {"cells", "neighbours"}


def is_cell_source(node, scope) -> bool:
    """Does this expression always give a list of cells?"""
    return isinstance(node, ast.Call) and node.func in CELL_SOURCES and node.func not in scope.game.functions


def cell_test(node, var: str, scope):
    """`test(grids, cell) -> value` for `node` with `var` a cell, or None."""
    if node is None:
        return None
    test = value_test(node, var, scope)
    if test is None:
        return None
    return lambda grids, c: test(grids[c[0]]["cells"][c[1]])


def selection_test(selection, scope):
    """The direct test for `each c in cells(...) where TEST`, or None."""
    pattern = selection.pattern
    if pattern.unpack or selection.where is None or not is_cell_source(selection.source, scope):
        return None
    return cell_test(selection.where, pattern.names[0], scope.with_locals(pattern.names))


def value_test(node, var: str, scope, grid=None):
    """`test(content) -> bool` when `node` reads only the content of cell `var`, or None.

    `grid` is the cell's grid when it is known; else every grid must hold the same content."""
    fields = {f for comp in scope.game.components.values() for f in comp}
    content = (
        grid.content
        if grid is not None and grid.content not in grid.layouts
        else shared_content(scope.game)
        if grid is None
        else None
    )
    scope = scope.with_locals([var])

    def build(n):
        t = type(n)
        if t is ast.Attr and isinstance(n.obj, ast.Name) and n.obj.name == var and n.name not in fields:
            if n.name == "empty":
                return lambda v: v is None
            return (lambda v: v) if n.name == content else None
        if t is ast.Not:
            inner = build(n.operand)
            return None if inner is None else (lambda v: not inner(v))
        if t is ast.BoolOp:
            left, right = build(n.left), build(n.right)
            if left is None or right is None:
                return None
            if n.op == "and":
                return lambda v: left(v) and right(v)
            return lambda v: left(v) or right(v)
        if t is ast.Compare and n.op in ("==", "!=") and is_constant(n.right, scope):
            left = build(n.left)
            if left is None:
                return None
            value, op = constant(n.right, scope), _COMPARE[n.op]
            return lambda v: op(left(v), value)
        return None

    return build(node)


def fixed_grid(source, scope) -> str | None:
    """The grid's name when `source` is `cells(GRID)` of a grid not kept per player."""
    game = scope.game
    if not (
        isinstance(source, ast.Call)
        and source.func == "cells"
        and len(source.args) == 1
        and source.func not in game.functions
        and isinstance(source.args[0], ast.Name)
    ):
        return None
    name = source.args[0].name
    spec = game.grids.get(name)
    return name if spec is not None and not spec.per and name not in scope.locals else None


def fixed_grid_any(selection, expr, want: bool, scope):
    """`any(TEST for each c in cells(GRID) where TEST)` (or all) over the content array, or None."""
    name = fixed_grid(selection.source, scope)
    if name is None or selection.pattern.unpack:
        return None
    var, grid = selection.pattern.names[0], scope.game.grids[name]
    test = value_test(expr, var, scope, grid)
    only = value_test(selection.where, var, scope, grid) if selection.where is not None else None
    if test is None or (selection.where is not None and only is None):
        return None

    def decide(m):
        for v in charge(m, m.state["grids"][name]["cells"]):
            if only is not None and not only(v):
                continue
            if bool(test(v)) is want:
                return want
        return not want

    return decide


def fixed_grid_filter(source, where, var: str, scope):
    """`fn(m) -> cells` for `each c in cells(GRID) where TEST` on a grid not kept per player.

    The cells of such a grid are known when compiling, so the filter runs over the
    grid's content array in one comprehension; `where c.empty` needs no call at all."""
    name = fixed_grid(source, scope)
    if name is None or where is None:
        return None
    shape = [[name, i] for i in range(scope.game.grids[name].geometry.size)]
    fields = {f for comp in scope.game.components.values() for f in comp}
    if (
        isinstance(where, ast.Attr)
        and where.name == "empty"
        and isinstance(where.obj, ast.Name)
        and where.obj.name == var
        and "empty" not in fields
    ):
        return lambda m: [c for c, v in zip(shape, charge(m, m.state["grids"][name]["cells"])) if v is None]
    test = value_test(where, var, scope, scope.game.grids[name])
    if test is None:
        return None
    return lambda m: [c for c, v in zip(shape, charge(m, m.state["grids"][name]["cells"])) if test(v)]
