"""Calls and loops in generated source: the half of dsl/compile_source.py's writer that
writes a builtin or a rules function's call (called, inlined or written out item by item)
and a comprehension as a Python loop.

A mixin of `compile_source.Gen`, which gives it `expr`, `const`, `sc`, the switches it
was made under (`keys`, `count_groups`, `named`) and `function_made` (a rules function as
a generated Python function).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from meeple.dsl import ast
from meeple.dsl.compile_cells import fixed_grid
from meeple.dsl.compile_expr import Scope, constant, is_constant
from meeple.dsl.runtime import FUNCTIONS, builtins, gridlib
from meeple.dsl.source_runtime import step_reader
from meeple.dsl.source_text import (
    CONTENT_ARRAY,
    COPIED_CONST,
    GRID_SHAPES,
    INLINE_DEPTH,
    STEPS,
    UNREPEATABLE,
    UNROLL_ITEMS,
    UNROLL_SIZE,
    NotGenerated,
    Var,
    atomic,
    fixed_grid_name,
    names_in,
    safe_name,
)

if TYPE_CHECKING:
    from meeple.interpreter.game import Game


# Loops over `cells(GRID)` of a grid kept per player run over the grid's content array beside
# its cells, and the cells of a row or column (`rows(GRID)`, `columns(GRID)`) read their
# content without asking what they are: `c.NAME` of a cell known to be one is a list read,
# not a test of the value's type and a lookup of its grid. Tests turn it off.
CELL_LOOPS = True
# `count(each x in XS where x == V)` as XS's own count of V (`_count_equal`), not a list built in
# Python and measured. Tests turn it off.
COUNTS = True


class CallWriter:
    """Gen's calls, written-out `any`/`all`, inlined functions and loops."""

    # Gen's own, declared here for type checkers (annotations only: nothing is set on the class).
    game: Game
    scope: Scope
    keys: bool
    count_groups: bool
    named: bool
    walrus: bool
    loops: int
    inlining: list
    unrepeatable: set
    expr: Callable[[ast.Expr, dict], str]
    const: Callable[[object], str]
    sc: Callable[[dict], Scope]
    function_made: Callable[[str], object]

    def x_Call(self, node, bound):
        g, func = self.game, node.func
        if func in g.functions:
            if func in self.unrepeatable:
                raise NotGenerated(func)
            args = [self.expr(a, bound) for a in node.args]
            if not all(map(safe_name, self.game.functions[func][0])):
                raise NotGenerated(func)
            if func not in self.inlining and len(self.inlining) < INLINE_DEPTH and all(map(atomic, args)):
                return self.inline(func, args)
            fn = self.const(self.function_made(func))
            return f"{fn}(m{''.join(', ' + a for a in args)})"
        if func in UNREPEATABLE:
            raise NotGenerated(func)
        if func in ("any", "all") and len(node.args) == 1 and isinstance(node.args[0], ast.Generator):
            gen = node.args[0]
            if self.keys and (written := self.written_out(func, gen, bound)) is not None:
                return written
            inner, finish = self.loop(gen.selection, bound)
            value, loop = self.expr(gen.expr, inner), finish()
            content = inner[gen.selection.pattern.names[0]].content
            cells = loop.removeprefix(f"for {content} in ")
            if content is not None and CONTENT_ARRAY.fullmatch(cells):  # over the content array, no `where`
                # "is any cell empty?" and "is every cell taken?" as one search of the array
                if func == "any" and value == f"({content} is None)":
                    return f"(None in {cells})"
                if func == "all" and value == f"(not ({content} is None))":
                    return f"(None not in {cells})"
            return f"{func}({value} {loop})"
        if (
            func == "count"
            and self.count_groups
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Call)
            and node.args[0].func == "groups"
            and len(node.args[0].args) == 1
            and "groups" not in g.functions
        ):
            if CELL_LOOPS and (flagged := self.flagged_groups(node.args[0].args[0], bound)) is not None:
                return flagged
            return f"GROUP_COUNT(m, {self.expr(node.args[0].args[0], bound)})"  # no cell lists built
        if func == "count" and len(node.args) == 1 and (counted := self.counted_equal(node.args[0], bound)):
            return counted
        args = [self.expr(a, bound) for a in node.args]
        if (
            func in GRID_SHAPES
            and len(args) == 1
            and isinstance(node.args[0], ast.Name)
            and fixed_grid_name(node.args[0], self.sc(bound))
        ):
            return self.const(FUNCTIONS[func].fn(types.SimpleNamespace(game=g), node.args[0].name))
        if (
            func == "in_a_row"
            and len(args) == 3
            and isinstance(node.args[0], ast.Name)
            and fixed_grid_name(node.args[0], self.sc(bound))
            and type(node.args[1]) is ast.Int
            and node.args[1].value >= 1
        ):
            # The grid and the length are known: the check's lines are worked out now.
            grid, n = node.args[0].name, node.args[1].value
            lines = builtins._lines(types.SimpleNamespace(game=g), grid, n)
            return f"{self.const(builtins.line_checker(lines, n))}(S['grids'][{grid!r}]['cells'], {args[2]})"
        if func == "count" and len(args) == 1:
            return f"len({args[0]})"
        if func in ("list", "sum", "abs") and len(args) == 1:
            return f"{func}({args[0]})"
        if func == "top" and len(args) == 1 and atomic(args[0]):
            return f"({args[0]}[0] if {args[0]} else None)"
        if func == "top" and len(args) == 1 and self.walrus and self.named:
            self.loops += 1
            return f"(_a{self.loops}[0] if (_a{self.loops} := {args[0]}) else None)"
        if func == "next_player" and len(args) == 1:
            return f"(({args[0]} + 1) % S['players'])"
        if func in STEPS and len(args) == 1:
            return f"{self.const(step_reader(g, func))}({args[0]})"
        return f"{self.const(FUNCTIONS[func].fn)}(m{''.join(', ' + a for a in args)})"

    def counted_equal(self, sel, bound: dict) -> str | None:
        """`count(each x in XS where x == V)` (or `V == x`) as COUNT_EQUAL(m, XS, V), where V does
        not read x and XS is a plain list (not a grid's cells); else None. V is worked out once,
        not once per item: an error it raises where XS is empty (and the loop would never have
        asked it) sends the expression to its closure, which says what it always said."""
        if not (COUNTS and isinstance(sel, ast.Selection) and not sel.pattern.unpack):
            return None
        test, name = sel.where, sel.pattern.names[0]
        if not (isinstance(test, ast.Compare) and test.op == "==" and safe_name(name)):
            return None
        if isinstance(test.left, ast.Name) and test.left.name == name:
            value = test.right
        elif isinstance(test.right, ast.Name) and test.right.name == name:
            value = test.left
        else:
            return None
        if name in names_in(value) or fixed_grid(sel.source, self.sc(bound)) is not None:
            return None
        if self.cells_of(sel.source, bound) != (None, None):
            return None
        return f"COUNT_EQUAL(m, {self.expr(sel.source, bound)}, {self.expr(value, bound)})"

    def written_out(self, func: str, gen: ast.Generator, bound: dict) -> str | None:
        """`any(x for each i in ENUM)` as `(x1 or x2 or ...)` with each item written in its
        place (truth tested as any() and all() test it, stopping at the same item); None when
        the items are not a short fixed list or the text would be long."""
        sel = gen.selection
        items = self.fixed_items(sel, bound)
        if items is None:
            return None
        name = sel.pattern.names[0]
        parts = []
        for item in items:
            inner = dict(bound)
            inner[name] = Var(repr(item))
            parts.append(self.expr(gen.expr, inner))
        if sum(map(len, parts)) > UNROLL_SIZE:
            return None
        if not parts:
            return "False" if func == "any" else "True"
        return f"(True if ({(' or ' if func == 'any' else ' and ').join(parts)}) else False)"

    def fixed_items(self, sel: ast.Selection, bound: dict) -> list | None:
        """A loop's items when they are known now: an enum's values, a kind's components, or a
        list of constants; only texts and whole numbers, at most UNROLL_ITEMS of them."""
        if sel.pattern.unpack or sel.where is not None or not safe_name(sel.pattern.names[0]):
            return None
        source, scope, g = sel.source, self.sc(bound), self.game
        if isinstance(source, ast.Name):
            n = source.name
            # Names that x_Name reads as something else before an enum or a kind.
            if n in bound or n in scope.locals or n in ("players", "first_player", "turn_order") or n in g.options:
                return None
            items = (
                list(g.enums[n])
                if n in g.enums
                else list(g.kinds[n])
                if n not in scope.symbols and n in g.kinds
                else None
            )
        elif isinstance(source, ast.ListLit) and all(is_constant(i, scope) for i in source.items):
            items = [constant(i, scope) for i in source.items]
        else:
            return None
        if items is None or len(items) > UNROLL_ITEMS or not all(type(i) in (str, int) for i in items):
            return None
        return items

    def inline(self, func: str, args: list) -> str:
        """A call of the rules' function written in place, its parameters replaced by the
        (plain, cheap to repeat) arguments; the body sees only its parameters, as when called."""
        params = self.game.functions[func][0]
        outer = self.scope
        self.scope = Scope(self.game, outer.symbols, set(params), outer.where)
        self.inlining.append(func)
        try:
            return f"({self.expr(self.game.function_bodies[func], {p: Var(a) for p, a in zip(params, args)})})"
        finally:
            self.inlining.pop()
            self.scope = outer

    def loop(self, sel: ast.Selection, bound: dict):
        """The names bound inside a comprehension, and a function writing its `for ... in ... if ...`
        once the body is written (a loop over a fixed grid whose cells are only read for their
        content runs over the content array alone)."""
        if sel.pattern.unpack:
            return self.unpacking_loop(sel, bound)
        name = sel.pattern.names[0]
        if not safe_name(name):
            raise NotGenerated(name)
        self.loops += 1
        py, content_py = f"v{self.loops}_{name}", f"w{self.loops}_{name}"
        inner = dict(bound)
        grid = fixed_grid(sel.source, self.sc(bound))
        source = None if grid is not None else self.expr(sel.source, bound)
        if self.keys and isinstance(sel.source, ast.Name) and source is not None and COPIED_CONST.fullmatch(source):
            source = source[5:-1]  # an enum's or kind's list, only read by the loop: no copy
        spec, kind = self.cells_of(sel.source, bound) if grid is None and CELL_LOOPS else (None, None)
        if grid is not None:
            inner[name] = Var(py, self.game.grids[grid], content_py)
        elif kind == "cells":  # the grid's own cells, in order: zipped with its content array
            inner[name] = Var(py, spec, content_py)
            held = f"S['grids'][{self.expr(cast(ast.Call, sel.source).args[0], bound)}]['cells']"
        elif kind == "cell":  # a cell of a row or column: its content read from the row's array
            inner[name] = Var(py, spec, f"{bound[cast(ast.Name, sel.source).name].content}[{py}[1]]")
        elif kind == "lines":  # each row or column beside its grid's content array (the same one)
            inner[name] = Var(py, content=f"a{self.loops}_{name}", lines=spec)
            held = f"REPEAT(S['grids'][{self.expr(cast(ast.Call, sel.source).args[0], bound)}]['cells'])"
        else:
            inner[name] = Var(py)
        where = f" if {self.expr(sel.where, inner)}" if sel.where is not None else ""

        # (cells_of said "cells" and "lines" only of a call, "cell" only of a name.)
        # Every loop's items are counted as work (`W`, interpreter/work.py) before it runs.
        def finish() -> str:
            if kind == "cells":
                if not inner[name].used:
                    return f"for {content_py} in W(m, {held}){where}"
                return f"for {py}, {content_py} in zip(W(m, {source}), {held}){where}"
            if kind == "lines":
                return f"for {py}, {inner[name].content} in zip(W(m, {source}), {held}){where}"
            if grid is None:
                return f"for {py} in W(m, {source}){where}"
            content = f"S['grids'][{grid!r}]['cells']"
            if not inner[name].used:
                return f"for {content_py} in W(m, {content}){where}"
            shape = self.const([[grid, i] for i in range(self.game.grids[grid].geometry.size)])
            return f"for {py}, {content_py} in zip(W(m, {shape}), {content}){where}"

        return inner, finish

    def cells_of(self, source, bound: dict):
        """(the grid, what a loop over `source` gets): "cells" for `cells(GRID)` of a grid kept
        per player (the fixed ones are fixed_grid's), "lines" for `rows(GRID)` or
        `columns(GRID)`, "cell" over a loop name holding a row or column; else (None, None)."""
        g = self.game
        if isinstance(source, ast.Name) and source.name in bound:
            spec = bound[source.name].lines
            return (spec, "cell") if spec is not None else (None, None)
        if not (
            isinstance(source, ast.Call)
            and len(source.args) == 1
            and source.func not in g.functions
            and source.func in ("cells", "rows", "columns")
            and isinstance(source.args[0], ast.Name)
        ):
            return None, None
        name = source.args[0].name
        spec = g.grids.get(name)
        if spec is None or name in bound or name in self.scope.locals:
            return None, None
        if source.func != "cells":
            return spec, "lines"
        return (spec, "cells") if spec.per else (None, None)

    def flagged_groups(self, sel, bound: dict) -> str | None:
        """`count(groups(each c in cells(GRID) where TEST))` as TEST of each of the grid's cells in
        order, the groups counted as bitmasks (no cell lists, no set of them); or None."""
        if not isinstance(sel, ast.Selection) or sel.pattern.unpack or sel.where is None:
            return None
        grid = fixed_grid(sel.source, self.sc(bound))
        spec, kind = (self.game.grids[grid], "cells") if grid is not None else self.cells_of(sel.source, bound)
        masks = gridlib.square_masks(spec.geometry) if kind == "cells" else ()
        if not masks:
            return None
        every = ast.Selection(sel.pattern, sel.source, None, span=sel.span)
        flags = self.x_Generator(ast.Generator(sel.where, every, span=sel.span), bound)
        return f"{self.const(gridlib.flagged_group_count)}({self.const(masks)}, {flags})"

    def unpacking_loop(self, sel: ast.Selection, bound: dict):
        """`each [a, b] in ITEMS`: each name a Python local, the items checked first."""
        names = sel.pattern.names
        if not all(map(safe_name, names)):
            raise NotGenerated("unpack")
        self.loops += 1
        inner = dict(bound)
        for name in names:
            inner[name] = Var(f"v{self.loops}_{name}")
        source = self.expr(sel.source, bound)
        where = f" if {self.expr(sel.where, inner)}" if sel.where is not None else ""
        targets = "".join(f"{inner[n].py}, " for n in names)
        return inner, lambda: f"for ({targets}) in W(m, UNPACKED({source}, {len(names)})){where}"

    def x_Selection(self, node, bound):
        if node.pattern.unpack:
            raise NotGenerated("unpack")  # the items themselves, not their parts, are kept
        if node.where is None:
            return f"list({self.expr(node.source, bound)})"
        inner, finish = self.loop(node, bound)
        var = inner[node.pattern.names[0]]
        var.used = True
        return f"[{var.py} {finish()}]"

    def x_Generator(self, node, bound):
        inner, finish = self.loop(node.selection, bound)
        value = self.expr(node.expr, inner)
        return f"[{value} {finish()}]"
