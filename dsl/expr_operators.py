"""Operators of expressions and what kind of value an expression is from its text alone.

`+` and `*` with the limits that stop a runaway rule at its line, the comparisons, and
`static_kind`: a list and a number mixed (`hand - 1`) is reported when the rules load,
not when the line first runs. Used by the closures (dsl/compile_expr.py) and the
generated source's helpers (dsl/source_runtime.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.dsl import ast
from meeple.dsl.errors import MeepleError as fail

if TYPE_CHECKING:
    from meeple.dsl.compile_expr import Scope

RANGE_LIMIT = 100_000  # a longer range is a mistake, and building it could exhaust memory

# What one rule may build: a number past this or a list or text longer than RANGE_LIMIT is a
# runaway rule (`v = v + v` forty times), stopped at its line before it eats the memory.
NUMBER_LIMIT = 10**18


def _plus(a, b):
    if type(a) is int:
        return a + b
    if hasattr(a, "__len__") and hasattr(b, "__len__") and len(a) + len(b) > RANGE_LIMIT:
        raise ValueError(f"this would build something of {len(a) + len(b):,} items; the limit is {RANGE_LIMIT:,}")
    return a + b


def _times(a, b):
    if type(a) is int and type(b) is int:
        product = a * b
        if -NUMBER_LIMIT <= product <= NUMBER_LIMIT:
            return product
        raise ValueError(f"this number grows past {NUMBER_LIMIT:,}")
    seq, n = (a, b) if type(b) is int else (b, a)
    if type(n) is int and hasattr(seq, "__len__") and len(seq) * n > RANGE_LIMIT:
        raise ValueError(f"this would build something of {len(seq) * n:,} items; the limit is {RANGE_LIMIT:,}")
    return a * b


# What an expression is, when it can be told from the text alone: `+` of a list and a
# number (or `-` of lists) is reported at compile time, not when the line first runs.
LIST_CALLS = {
    "list",
    "pairs",
    "cells",
    "rows",
    "columns",
    "groups",
    "neighbours",
    "reach",
    "areas",
    "tags",
    "adjacent",
    "spaces",
    "next_spaces",
    "sort",
    "lines",
    "subsets",
    "unique",
    "majority",
    "pairings",
}
NUMBER_CALLS = {"count", "sum", "abs", "next_player"}


def static_kind(node, scope: Scope) -> str | None:
    """ "list", "number", or None when the text alone does not say."""
    g, t = scope.game, type(node)
    if t is ast.Int or t is ast.Neg:
        return "number"
    if t is ast.ListLit or t is ast.Range or t is ast.Selection or t is ast.Generator:
        return "list"
    if t is ast.Name:
        n = node.name
        if n in scope.locals:
            return None
        if n in g.zones or n in g.kinds or n in g.enums or n == "turn_order":
            return "list"
        if n in ("players", "first_player") or n in g.counters and g.counters[n].kind == "counter":
            return "number"
        return None
    if t is ast.Index and isinstance(node.obj, ast.Name) and node.obj.name not in scope.locals:
        n = node.obj.name
        if n in g.zones:
            return "list"
        if n in g.counters and g.counters[n].kind == "counter":
            return "number"
        return None
    if t is ast.Call:
        return "list" if node.func in LIST_CALLS else "number" if node.func in NUMBER_CALLS else None
    if t is ast.BinOp:
        left, right = static_kind(node.left, scope), static_kind(node.right, scope)
        if node.op == "+":
            return left if left == right else None
        return "number" if left == right == "number" else None
    return None


def check_operands(node, scope: Scope) -> None:
    """`[1] + 2`, `hand - 1`: a list and a number do not mix (`*` repeats a list, so it may)."""
    if node.op == "*":
        return
    left, right = static_kind(node.left, scope), static_kind(node.right, scope)
    if node.op == "+" and {left, right} == {"list", "number"}:
        raise fail(
            f"cannot add a {left} and a {right}", node.span, "to add one item to a list, put it in brackets: `xs + [x]`"
        )
    if node.op != "+" and "list" in (left, right):
        raise fail(
            f"`{node.op}` needs numbers, not a list",
            node.span,
            "to leave items out of a list use `each x in xs where x not in ys`",
        )


_BINOPS = {
    "+": _plus,
    "-": lambda a, b: a - b,
    "*": _times,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
}
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
    "notin": lambda a, b: a not in b,
}
