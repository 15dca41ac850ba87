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

from dsl import ast
from dsl.compile_expr import _COMPARE, constant, is_constant

CELL_SOURCES = {"cells", "neighbours"}


def is_cell_source(node, scope) -> bool:
    """Does this expression always give a list of cells?"""
    return (isinstance(node, ast.Call) and node.func in CELL_SOURCES
            and node.func not in scope.game.functions)


def _contents(scope) -> tuple[set, set]:
    game = scope.game
    contents = {g.content for g in game.grids.values()}
    fields = {f for comp in game.components.values() for f in comp}
    return contents, fields


def cell_test(node, var: str, scope):
    """`test(grids, cell) -> value` for `node` with `var` a cell, or None."""
    if node is None:
        return None
    contents, fields = _contents(scope)
    scope = scope.with_locals([var])

    def is_var(n) -> bool:
        return isinstance(n, ast.Name) and n.name == var

    def build(n):
        t = type(n)
        if t is ast.Attr and is_var(n.obj) and n.name not in fields:
            if n.name == "empty":
                return lambda grids, c: grids[c[0]]["cells"][c[1]] is None
            if n.name in contents:
                return lambda grids, c: grids[c[0]]["cells"][c[1]]
            return None
        if t is ast.Not:
            inner = build(n.operand)
            return None if inner is None else (lambda grids, c: not inner(grids, c))
        if t is ast.BoolOp:
            left, right = build(n.left), build(n.right)
            if left is None or right is None:
                return None
            if n.op == "and":
                return lambda grids, c: left(grids, c) and right(grids, c)
            return lambda grids, c: left(grids, c) or right(grids, c)
        if t is ast.Compare and n.op in ("==", "!="):
            left = build(n.left)
            if left is None or not is_constant(n.right, scope):  # locals are never constant
                return None
            value, op = constant(n.right, scope), _COMPARE[n.op]
            return lambda grids, c: op(left(grids, c), value)
        return None
    return build(node)


def selection_test(selection, scope):
    """The direct test for `each c in cells(...) where TEST`, or None."""
    pattern = selection.pattern
    if pattern.unpack or selection.where is None or not is_cell_source(selection.source, scope):
        return None
    return cell_test(selection.where, pattern.names[0], scope.with_locals(pattern.names))
