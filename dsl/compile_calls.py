"""Selections, generators and calls -> closures: `each x in xs where ...`, `f(x) for each x in xs`,
builtin and user functions, and `any`/`all` that stop at the deciding item.

Part of the expression compiler (dsl/compile_expr.py): a loop name is bound in
the frame's locals while its test or expression runs and restored after, so
selections nest and never leak their names.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

from meeple.dsl import ast
from meeple.dsl.compile_cells import cell_test, fixed_grid_any, fixed_grid_filter, is_cell_source, selection_test
from meeple.dsl.compile_expr import PARTS, Scope, compile_expr, fail
from meeple.dsl.errors import did_you_mean
from meeple.dsl.runtime import FUNCTIONS, charge, charge_one

GRID_SHAPES = {"cells", "rows", "columns"}  # lists of cells that depend only on the grid's shape


# ----------------------------------------------------------------- selections
def compile_selection(node: ast.Selection, scope: Scope):
    """`each x in xs where cond` -> fn(m) returning the selected items as a list."""
    source = compile_expr(node.source, scope)
    inner = scope.with_locals(node.pattern.names)
    where = compile_expr(node.where, inner) if node.where is not None else None
    bind = binder(node.pattern)
    span = node.span
    if not node.pattern.unpack:
        filtered = fixed_grid_filter(node.source, node.where, node.pattern.names[0], scope)
        if filtered is not None:
            return filtered, inner, bind
    test = selection_test(node, scope)
    if test is not None:

        def select_cells(m):
            grids = m.state["grids"]
            return [c for c in charge(m, source(m), span) if test(grids, c)]

        return select_cells, inner, bind

    def select(m):
        items = source(m)
        if where is None:
            return list(items)
        env = m.env
        saved = {n: env[n] for n in node.pattern.names if n in env}
        out = []
        try:
            for item in charge(m, items, span):
                bind(env, item)
                if where(m):
                    out.append(item)
        finally:
            restore(env, node.pattern.names, saved)
        return out

    return select, inner, bind


def bound_names(stmts) -> set:
    """Every local a body binds anywhere (lets, loop variables, choices, `as`)."""
    out = set()
    for s in stmts:
        if isinstance(s, ast.Let):
            out.add(s.name)
        elif isinstance(s, ast.For):
            out.update(s.pattern.names)
            out |= bound_names(s.body)
        elif isinstance(s, ast.Simultaneous):
            out.add(s.var)
            out |= bound_names(s.body)
        elif isinstance(s, (ast.Choose, ast.ChooseSome)):
            out.add(s.var)
            out |= bound_names(s.body) | bound_names(s.otherwise or [])
        elif isinstance(s, ast.Place) and s.bind:
            out.add(s.bind)
        elif isinstance(s, ast.If):
            for _, body in s.branches:
                out |= bound_names(body)
            out |= bound_names(s.else_body or [])
        elif isinstance(s, (ast.Repeat, ast.While, ast.Together, ast.Quietly)):
            out |= bound_names(s.body)
        elif isinstance(s, ast.Menu):
            for e in s.entries:
                out |= bound_names(e.body)
    return out


def binder(pattern: ast.Pattern):
    names = pattern.names
    if not pattern.unpack:
        name = names[0]

        def bind_one(env, item):
            env[name] = item

        return bind_one

    def bind_many(env, item):
        if not isinstance(item, list) or len(item) != len(names):
            raise ValueError(f"cannot unpack {item!r} into [{', '.join(names)}]")
        for n, v in zip(names, item):
            env[n] = v

    return bind_many


def restore(env: dict, names, saved: dict) -> None:
    for n in names:
        if n in saved:
            env[n] = saved[n]
        else:
            env.pop(n, None)


def compile_generator(node: ast.Generator, scope: Scope):
    select, inner, bind = compile_selection(node.selection, scope)
    expr = compile_expr(node.expr, inner)
    names = node.selection.pattern.names
    span = node.span

    def generate(m):
        items = select(m)
        env = m.env
        saved = {n: env[n] for n in names if n in env}
        try:
            out = []
            for item in charge(m, items, span):
                bind(env, item)
                out.append(expr(m))
            return out
        finally:
            restore(env, names, saved)

    return generate


# ----------------------------------------------------------------- calls
def compile_user_call(node: ast.Call, scope: Scope):
    """A ruleset's `function`: arguments evaluated here, the body with only its parameters."""
    entry = scope.game.functions[node.func]
    params = entry[0]
    if len(node.args) != len(params):
        raise fail(
            f"`{node.func}` takes {len(params)} argument(s) ({', '.join(params)}), not {len(node.args)}", node.span
        )
    args = [compile_arg(a, scope) for a in node.args]
    span = node.span

    def call(m):
        values = [a(m) for a in args]
        charge_one(m, span)
        saved = m.env
        m.env = dict(zip(params, values))
        try:
            return entry[1](m)
        finally:
            m.env = saved

    return call


def compile_short_circuit(node: ast.Call, scope: Scope):
    """`any(e for each x in xs)` / `all(...)`: stop at the first value that decides."""
    gen = node.args[0]
    sel = gen.selection
    source = compile_expr(sel.source, scope)
    inner = scope.with_locals(sel.pattern.names)
    where = compile_expr(sel.where, inner) if sel.where is not None else None
    expr = compile_expr(gen.expr, inner)
    bind, names = binder(sel.pattern), sel.pattern.names
    want = node.func == "any"
    span = node.span
    over_array = fixed_grid_any(sel, gen.expr, want, scope)
    if over_array is not None:
        return over_array
    if is_cell_source(sel.source, scope) and not sel.pattern.unpack:
        test = cell_test(gen.expr, names[0], scope)
        only = cell_test(sel.where, names[0], scope)
        if test is not None and (sel.where is None or only is not None):

            def decide_cells(m):
                grids = m.state["grids"]
                for c in charge(m, source(m), span):
                    if only is not None and not only(grids, c):
                        continue
                    if bool(test(grids, c)) is want:
                        return want
                return not want

            return decide_cells

    if len(names) == 1 and not sel.pattern.unpack:
        name = names[0]

        # The common one-name case, written out: it runs in every win check of a
        # grid game, and saving one local is much cheaper than the general path.
        def decide_one(m):
            env = m.env
            had, old = name in env, env.get(name)
            try:
                for item in charge(m, source(m), span):
                    env[name] = item
                    if where is not None and not where(m):
                        continue
                    if bool(expr(m)) is want:
                        return want
                return not want
            finally:
                if had:
                    env[name] = old
                else:
                    env.pop(name, None)

        return decide_one

    def decide(m):
        env = m.env
        saved = {n: env[n] for n in names if n in env}
        try:
            for item in charge(m, source(m), span):
                bind(env, item)
                if where is not None and not where(m):
                    continue
                if bool(expr(m)) is want:
                    return want
            return not want
        finally:
            restore(env, names, saved)

    return decide


def compile_call(node: ast.Call, scope: Scope):
    if node.func in scope.game.functions:
        return compile_user_call(node, scope)
    if node.func in ("any", "all") and len(node.args) == 1 and isinstance(node.args[0], ast.Generator):
        return compile_short_circuit(node, scope)
    builtin = FUNCTIONS.get(node.func)
    if builtin is None:
        raise fail(
            f"unknown function `{node.func}`",
            node.span,
            did_you_mean(node.func, list(FUNCTIONS) + list(scope.game.functions), "function"),
        )
    n = len(node.args)
    if n < builtin.min_args or (builtin.max_args >= 0 and n > builtin.max_args):
        want = f"{builtin.min_args}" if builtin.min_args == builtin.max_args else f"at least {builtin.min_args}"
        raise fail(
            f"`{node.func}` takes {want} argument{'s' if builtin.min_args != 1 else ''}, not {n}",
            node.span,
            f"for example: {builtin.example}",
        )
    args = [compile_arg(a, scope) for a in node.args]
    fn = builtin.fn
    if node.func in GRID_SHAPES and n == 1 and is_fixed_grid(node.args[0], scope):
        # `cells(board)` of a grid that is not kept per player never changes: build it once.
        shape = fn(SimpleNamespace(game=scope.game), node.args[0].name)
        return lambda m: shape
    if len(args) == 1:
        a0 = args[0]
        return lambda m: fn(m, a0(m))
    if len(args) == 2:
        a0, a1 = args
        return lambda m: fn(m, a0(m), a1(m))
    if len(args) == 3:
        a0, a1, a2 = args
        return lambda m: fn(m, a0(m), a1(m), a2(m))
    return lambda m: fn(m, *[a(m) for a in args])


def is_fixed_grid(node, scope: Scope) -> bool:
    g = scope.game
    return (
        isinstance(node, ast.Name)
        and node.name not in scope.locals
        and node.name in g.grids
        and not g.grids[node.name].per
    )


def compile_arg(node, scope: Scope):
    if isinstance(node, ast.Selection):
        return compile_selection(node, scope)[0]
    if isinstance(node, ast.Generator):
        return compile_generator(node, scope)
    return compile_expr(node, scope)


PARTS["calls"] = sys.modules[__name__]  # compile_expr calls back into this module
