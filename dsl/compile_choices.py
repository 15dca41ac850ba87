"""Choices -> ops: `choose ... from`, `choose some`, `choose one` menus and who decides.

The part of dsl/compile_flow.py's FlowCompiler that compiles the statements a player
decides at: each becomes a choice op (interpreter/effects/choices.py, choose_some.py)
followed by its body and its `otherwise` block, the op told where each ends. A mixin:
FlowCompiler gives it `body`, `title`, `prompt`, `game` and `slots`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.dsl import ast, compile_source
from meeple.dsl.compile_cells import cell_test, fixed_grid, fixed_grid_filter, is_cell_source
from meeple.dsl.compile_expr import Scope, compile_expr, fail
from meeple.dsl.compile_text import compile_text
from meeple.dsl.runtime import SOME_PREFIX, Jump, choices, choose_some, fitting
from meeple.dsl.source_text import names_in

if TYPE_CHECKING:
    from meeple.interpreter.game import Game

# A choice's `where fits(item, GRID)` (GRID not naming the item) as one call for all its items,
# the grid's key worked out once (tests turn it off; placing.BY_FAMILY turns off what the call shares).
FITS = True


class ChoiceCompiler:
    """FlowCompiler's choices (see the module's docstring)."""

    # FlowCompiler's own, declared here for type checkers (annotations only: nothing is set on the class).
    game: Game
    slots: itertools.count
    body: Callable[[list, list, Scope], None]
    title: Callable[..., object]

    def chooser(self, by, scope: Scope, span):
        if by is not None:
            return compile_expr(by, scope)
        if "player" not in scope.locals:
            raise fail(
                "who decides here? no `player` is known",
                span,
                "add `by first_player` (or another player), or use it inside `for each player in turn_order`",
            )
        return choices.the_player

    UNIQUE_CALLS = {"cells", "rows", "columns", "lines", "spaces", "subsets", "groups", "neighbours"}

    def unique_source(self, node, scope) -> bool:
        g = self.game
        if isinstance(node, ast.Name):
            return node.name not in scope.locals and (
                node.name in g.zones or node.name in g.enums or node.name in g.kinds
            )
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name):
            return node.obj.name in g.zones and node.obj.name not in scope.locals
        return isinstance(node, ast.Call) and node.func in self.UNIQUE_CALLS

    def s_Choose(self, ops, s, scope):
        where = compile_expr(s.where, scope) if s.where is not None else None
        source = compile_expr(s.source, scope)
        filtered = fixed_grid_filter(s.source, s.where, s.var, scope)
        if filtered is not None:  # the filter is part of the source now
            source, where = filtered, None
        op = choices.ChooseFrom(
            s.may,
            s.var,
            source,
            where,
            self.chooser(s.by, scope, s.span),
            self.title(s, scope),
            s.span,
            unique=self.unique_source(s.source, scope),
            cell_test=cell_test(s.where, s.var, scope)
            if filtered is None and is_cell_source(s.source, scope)
            else None,
            secret=s.secret,
        )
        op.fresh = filtered is not None  # the filter's comprehension makes the list
        if op.where is not None and op.cell_test is None and compile_source.ENABLED:
            op.filter = fitting_filter(s.var, s.source, s.where, scope, op.keep) or compile_source.generate_filter(
                s.var, s.source, s.where, scope, op.keep
            )
        if s.label:
            op.label = compile_text(s.label, scope.with_locals({s.var}), s.span, "an option's label")
            if isinstance(op.label, str):
                raise fail(
                    "an option's label shows the option: put an expression in braces",
                    s.span,
                    f'for example `label "{{{s.var}.name}}"`',
                )
        ops.append(op)
        self.body_otherwise(ops, op, s, scope)

    def body_otherwise(self, ops, op, s, scope) -> None:
        """A choice's body, then its `otherwise` block if it has one; the op learns where each ends."""
        self.body(ops, s.body, scope)
        if s.otherwise is None:
            op.end = len(ops)  # the body falls through to what follows
            return
        jump = Jump(span=s.span)
        ops.append(jump)
        op.otherwise = len(ops)
        self.body(ops, s.otherwise, scope)
        op.end = jump.target = len(ops)

    def s_ChooseSome(self, ops, s, scope):
        where = compile_expr(s.where, scope) if s.where is not None else None
        op = choose_some.ChooseSome(
            compile_expr(s.lo, scope),
            compile_expr(s.hi, scope),
            f"{SOME_PREFIX}{next(self.slots)}",
            s.var,
            compile_expr(s.source, scope),
            where,
            self.chooser(s.by, scope, s.span),
            self.title(s, scope),
            s.span,
            unique=self.unique_source(s.source, scope),
        )
        ops.append(op)
        self.body_otherwise(ops, op, s, scope)

    def s_Menu(self, ops, s, scope):
        entries = []
        op = choices.Menu(s.may, self.chooser(s.by, scope, s.span), entries, self.title(s, scope), s.span)
        ops.append(op)
        exits = []
        for e in s.entries:
            guard = compile_expr(e.guard, scope) if e.guard is not None else None
            entries.append([e.label, guard, len(ops)])
            self.body(ops, e.body, scope)
            jump = Jump(span=e.span)
            ops.append(jump)
            exits.append(jump)
        op.end = len(ops)
        for jump in exits:
            jump.target = len(ops)
        if compile_source.ENABLED and compile_source.MENUS:
            op.listed = compile_source.generate_menu([[e.label, e.guard] for e in s.entries], scope, op.tested)


def fitting_filter(var: str, source, where, scope: Scope, slow):
    """For `choose VAR from PIECES where fits(VAR, BOARD)` with a BOARD that does not mention VAR:
    the pieces that fit, the grid's key worked out once and the pieces asked together
    (interpreter/boards/placing.py `fitting`), as `fn(m, items)`; else None. `slow(m, items)`
    asks item by item (and raises what `fits` raises)."""
    # (A choice naming its item `player` is left alone: a per-player BOARD would read the item.)
    if not (
        FITS
        and compile_source.ENABLED
        and type(where) is ast.Call
        and where.func == "fits"
        and "fits" not in scope.game.functions
        and len(where.args) == 2
        and type(where.args[0]) is ast.Name
        and where.args[0].name == var != "player"
        and var not in names_in(where.args[1])
        and fixed_grid(source, scope) is None
    ):
        return None
    consts: dict = {"SLOW": slow, "FITTING": fitting}
    try:
        key = compile_source.Gen(scope, consts).expr(where.args[1], {})
    except compile_source.NotGenerated:
        return None
    text = (
        f"def f(m, items):\n    try:\n        E = m.env\n        S = m.state\n"
        f"        return FITTING(m, items, {key})\n    except Exception:\n        return SLOW(m, items)\n"
    )
    try:
        return compile_source._build(text, consts, "f")
    except SyntaxError:
        return None
