"""Expressions -> generated Python source: one function per expression the rules evaluate.

Compiled as closures (dsl/compile_expr.py), `count(steps(player, c)) > 0` is a
chain of a dozen small calls, each reading its names back from the frame's
locals. Here the whole expression is written out as Python source instead,

    def e(m):
        try:
            E = m.env
            S = m.state
            return (len(U0(m, E['player'], E['c'])) > 0)
        except Exception:
            return SLOW(m)

with loop names and a function's parameters as Python locals, the rules'
functions as generated Python functions (`U0`), cells of a known grid read
straight from its content array, and builtins called directly. The source is
built from the rules' structure, never pasted from their text: names become
`v_NAME` locals or quoted keys, values are constants passed in (`K0`).

Expressions never change the state (the one that does, `roll`, is never
generated), so when the generated code raises, the expression's closure
(`SLOW`) is run instead: it raises the same error with the same message and
line. Anything not written out here is called as its closure, unless it reads
a name the generated code keeps as a Python local; then the whole expression
stays a closure.

The writer (`Gen`) is in three parts: names, fields and operators here, calls and
loops in dsl/source_calls.py, state keys in dsl/source_keys.py; what needs no writer (keys as f-strings, what may be
written out) is in dsl/source_text.py.
"""

from __future__ import annotations

import sys

from meeple.dsl import ast, state_keys
from meeple.dsl.cell_values import attr_reader, shared_content
from meeple.dsl.compile_cells import fixed_grid
from meeple.dsl.compile_expr import PARTS, Scope, closure_only, compile_table, constant, is_constant
from meeple.dsl.expr_operators import static_kind
from meeple.dsl.runtime import KIND
from meeple.dsl.source_calls import CallWriter
from meeple.dsl.source_keys import KeyWriter
from meeple.dsl.source_runtime import HELPERS, content_reader, empty_reader, field_table
from meeple.dsl.source_text import (
    CELL_WORDS,
    COMPARE,
    UNREPEATABLE,
    NotGenerated,
    Var,
    calls_in,
    hoisted,
    names_in,
    safe_name,
    unrepeatable_functions,
)

ENABLED = True  # tests turn it off to play the same games on closures alone
COUNT_GROUPS = True  # `count(groups(...))` counted without building the groups (tests turn it off)
# A key of two or more parts (`stock[p, i]`) built by one f-string, fixed parts written in
# its text; `any`/`all` over a short fixed list (an enum, a list of constants) written out
# item by item, `or`/`and`, without a generator (tests turn it off).
KEYS = True
# A `choose one`'s entry tests written as one function listing the entries that hold.
MENUS = True
# The rules' functions, like expressions, first written with `(_a1 := obj)` for a value read
# twice (a field of `top(...)`, `top` of a zone): no closure called for it.
NAMED = True
# In a game without grids a component's field is read from its table alone (`K3[v]`, none
# reading none): a value not in it fails, and the expression's closure runs (tests turn it off).
FIELDS = True


class Gen(KeyWriter, CallWriter):
    """Writes one expression's source; `consts` are the values it refers to by name."""

    def __init__(self, scope: Scope, consts: dict):
        self.scope, self.game = scope, scope.game
        self.consts = consts
        self.loops = 0  # loop names are numbered: inlined functions' loops never shadow the caller's
        self.inlining: list = []  # the functions being inlined, innermost last
        # `(_a1 := obj)` names a value read twice; Python refuses it in a comprehension's source,
        # where generate() then tries again without.
        self.walrus = False
        self.fields = self.game.cache.get(("source", "fields"))
        if self.fields is None:
            self.fields = self.game.cache[("source", "fields")] = {
                f for comp in self.game.components.values() for f in comp if f != KIND
            }
        self.content = shared_content(self.game)
        self.unrepeatable = unrepeatable_functions(self.game)
        # The switches as they were when this writer was made (tests turn them off).
        self.keys, self.count_groups, self.named = KEYS, COUNT_GROUPS, NAMED
        self.tables = state_keys.TABLES
        self.bare_fields = FIELDS and not self.game.grids

    def const(self, value) -> str:
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    # ------------------------------------------------------------- fallbacks
    def closure(self, node, bound: dict) -> str:
        """Call the closure of `node`, if it reads nothing kept as a Python local."""
        g = self.game
        for n in names_in(node):
            if n in bound:
                raise NotGenerated(n)
            if "player" in bound and (n in g.counters or n in g.zones or n in g.grids):
                raise NotGenerated(n)  # a bare per-player name would read `player` from the frame
        for n in calls_in(node):
            if n in UNREPEATABLE or n in self.unrepeatable:
                raise NotGenerated(n)
        return f"{self.const(closure_only(node, self.scope))}(m)"

    # ------------------------------------------------------------- expressions
    def expr(self, node, bound: dict) -> str:
        t = type(node)
        method = getattr(self, "x_" + t.__name__, None)
        if method is None:
            return self.closure(node, bound)
        return method(node, bound)

    def x_Int(self, node, bound):
        return repr(node.value)

    x_Bool = x_Int

    def x_Str(self, node, bound):
        return self.const(node.value)

    def x_NoneLit(self, node, bound):
        return "None"

    def x_Name(self, node, bound):
        # The order of compile_expr.compile_name: a name means the first of these it is.
        n, g = node.name, self.game
        if n in bound:
            bound[n].used = True
            return bound[n].py
        if n in self.scope.locals:
            return f"E[{n!r}]"
        if n == "players":
            return "S['players']"
        if n == "first_player":
            return "S['first']"
        if n == "turn_order":
            return self.closure(node, bound)
        if n in g.options:
            return self.const(g.option_value(n))
        if n in g.enums:
            return f"list({self.const(list(g.enums[n]))})"
        if n in self.scope.symbols:
            return repr(n)
        if n in g.kinds:
            return f"list({self.const(list(g.kinds[n]))})"
        if n in g.tables:
            return self.const(g.tables[n])
        if n in g.boards:
            return repr(n)
        if n in g.counters:
            return f"S['vars'][{self.key(n, g.counters[n].per, None, bound)}]"
        if n in g.zones:
            return f"S['zones'][{self.key(n, g.zones[n].per, None, bound)}]"
        if n in g.grids:
            return self.key(n, g.grids[n].per, None, bound)
        return self.closure(node, bound)

    def sc(self, bound: dict) -> Scope:
        """The scope with the generated code's loop names as locals (as the closures see them)."""
        return self.scope.with_locals(bound) if bound else self.scope

    def x_ListLit(self, node, bound):
        scope = self.sc(bound)
        if all(is_constant(i, scope) for i in node.items):
            return self.const([constant(i, scope) for i in node.items])
        return "[" + ", ".join(self.expr(i, bound) for i in node.items) + "]"

    def x_Ternary(self, node, bound):
        return f"({self.expr(node.then, bound)} if {self.expr(node.cond, bound)} else {self.expr(node.other, bound)})"

    def x_BoolOp(self, node, bound):
        return f"({self.expr(node.left, bound)} {node.op} {self.expr(node.right, bound)})"

    def x_Not(self, node, bound):
        return f"(not {self.expr(node.operand, bound)})"

    def x_Neg(self, node, bound):
        return f"(-{self.expr(node.operand, bound)})"

    def x_Compare(self, node, bound):
        return f"({self.expr(node.left, bound)} {COMPARE[node.op]} {self.expr(node.right, bound)})"

    def x_Range(self, node, bound):
        return f"RANGE({self.expr(node.lo, bound)}, {self.expr(node.hi, bound)})"

    def x_BinOp(self, node, bound):
        left, right = self.expr(node.left, bound), self.expr(node.right, bound)
        if node.op == "+":
            scope = self.sc(bound)
            # PLUS stops a list built past its limit, which needs a list on both sides: with a
            # number on either side, `+` is what PLUS would do (or the same TypeError).
            numbers = "number" in (static_kind(node.left, scope), static_kind(node.right, scope))
            return f"({left} + {right})" if numbers else f"PLUS({left}, {right})"
        if node.op == "*":
            return f"TIMES({left}, {right})"
        return f"({left} {node.op} {right})"

    def x_Attr(self, node, bound):
        name, obj = node.name, node.obj
        if isinstance(obj, ast.Name) and obj.name in bound and bound[obj.name].grid is not None:
            var = bound[obj.name]
            spec, v = var.grid, var.py
            content = var.content or f"S['grids'][{v}[0]]['cells'][{v}[1]]"
            if name == spec.content:
                return content
            if name == "empty":
                return f"({content} is None)"
            var.used = True
            if name == "row":
                return f"({v}[1] // {spec.geometry.cols} + 1)"
            if name == "col":
                return f"({v}[1] % {spec.geometry.cols} + 1)"
            if name in spec.layouts:
                return f"{self.const(spec.layouts[name])}[{v}[1]]"
            raise NotGenerated(name)
        value = self.expr(obj, bound)
        read = self.const(attr_reader(self.game, name, node.span))
        simple = value.isidentifier() or value.startswith("E[")
        if not simple and self.walrus and name in (self.content, "empty") and name not in self.fields:
            self.loops += 1
            held = f"_a{self.loops}"
            value, simple = f"({held} := {value})", True
            first, rest = value, held
        else:
            first = rest = value
        if name == self.content and name not in self.fields:
            if not simple:
                return f"{self.const(content_reader(read))}(m, {value})"
            return (
                f"(None if {first} is None else S['grids'][{rest}[0]]['cells'][{rest}[1]] "
                f"if type({rest}) is list else {read}(m, {rest}))"
            )
        if name == "empty" and name not in self.fields:
            if not simple:
                return f"{self.const(empty_reader(read))}(m, {value})"
            return (
                f"(S['grids'][{rest}[0]]['cells'][{rest}[1]] is None if type({first}) is list else {read}(m, {rest}))"
            )
        if name in self.fields and name not in CELL_WORDS and self.bare_fields:
            # No grids, so no cells: a value is a component (found), none (none), or a mistake (the
            # closure says which).
            return f"{self.const(field_table(self.game, name, with_none=True))}[{value}]"
        if name in self.fields and name not in CELL_WORDS and (simple or self.walrus):
            # A component's field: one dict lookup (components never change during a game).
            table = self.const(field_table(self.game, name))
            if not simple:
                self.loops += 1
                held = f"_a{self.loops}"
                first, rest = f"({held} := {value})", held
            return f"({table}[{rest}] if type({first}) is str and {rest} in {table} else {read}(m, {rest}))"
        return f"{read}(m, {value})"

    def x_Index(self, node, bound):
        g, obj = self.game, node.obj
        if isinstance(obj, ast.Name) and obj.name not in self.sc(bound).locals:
            n = obj.name
            if n in g.counters:
                return f"S['vars'][{self.key(n, g.counters[n].per, node.index, bound)}]"
            if n in g.zones:
                return f"S['zones'][{self.key(n, g.zones[n].per, node.index, bound)}]"
            if n in g.grids:
                return self.key(n, g.grids[n].per, node.index, bound)
        if isinstance(node.index, list):
            raise NotGenerated("index")
        if isinstance(obj, ast.TableLit):
            table = self.const(compile_table(obj, self.sc(bound)))
            return f"{table}.lookup({self.expr(node.index, bound)}, m)"
        if isinstance(obj, ast.ListLit) and all(is_constant(i, self.sc(bound)) for i in obj.items):
            return f"{self.x_ListLit(obj, bound)}[{self.expr(node.index, bound)}]"
        return f"INDEX({self.expr(obj, bound)}, {self.expr(node.index, bound)}, m)"

    def function_made(self, name: str):
        """The rules' function `name` as a generated Python function (made once per game)."""
        return user_function(self.game, self.scope, name)


def _build(source: str, consts: dict, name: str):
    namespace = dict(HELPERS)
    namespace.update(consts)
    exec(compile(hoisted(source), "<rules: generated expression>", "exec"), namespace)
    return namespace[name]


def generate(node, scope: Scope, slow):
    """The generated function for one expression, or None to keep its closure `slow`."""
    for walrus in (True, False):
        consts: dict = {"SLOW": slow}
        gen = Gen(scope, consts)
        gen.walrus = walrus
        try:
            body = gen.expr(node, {})
        except NotGenerated:
            return None
        source = (
            f"def e(m):\n    try:\n        E = m.env\n        S = m.state\n        return {body}\n"
            f"    except Exception:\n        return SLOW(m)\n"
        )
        try:
            return _build(source, consts, "e")
        except SyntaxError:
            continue
    return None


def generate_menu(entries: list, scope: Scope, slow):
    """`fn(m) -> the labels of the entries whose test holds` for a `choose one`, in order
    ([label, test node or None] each), or None; `slow(m)` asks each entry's own function."""
    for walrus in (True, False):
        consts: dict = {"SLOW": slow}
        gen = Gen(scope, consts)
        gen.walrus = walrus
        lines = []
        try:
            for label, test in entries:
                shown = gen.const(label)
                if test is None:
                    lines.append(f"        out.append({shown})\n")
                else:
                    lines.append(f"        if {gen.expr(test, {})}:\n            out.append({shown})\n")
        except NotGenerated:
            return None
        source = (
            "def g(m):\n    try:\n        E = m.env\n        S = m.state\n        out = []\n"
            + "".join(lines)
            + "        return out\n    except Exception:\n        return SLOW(m)\n"
        )
        try:
            return _build(source, consts, "g")
        except SyntaxError:
            continue
    return None


def generate_filter(var: str, source, where, scope: Scope, slow):
    """`fn(m, items) -> the items where `where` holds, with each item as `var``, for a choice's
    options; or None. `slow(m, items)` binds `var` in the frame's locals item by item."""
    grid = fixed_grid(source, scope)
    # The items of `cells(GRID)` are the grid's cells in order: zip them with their contents.
    loop = "for v_item in items" if grid is None else f"for v_item, w_item in zip(items, S['grids'][{grid!r}]['cells'])"
    for walrus in (True, False):
        consts: dict = {"SLOW": slow}
        gen = Gen(scope, consts)
        gen.walrus = walrus
        item = Var("v_item", scope.game.grids[grid], "w_item") if grid is not None else Var("v_item")
        try:
            test = gen.expr(where, {var: item})
        except NotGenerated:
            return None
        source_text = (
            f"def f(m, items):\n    try:\n        E = m.env\n        S = m.state\n"
            f"        return [v_item {loop} if {test}]\n    except Exception:\n        return SLOW(m, items)\n"
        )
        try:
            return _build(source_text, consts, "f")
        except SyntaxError:
            continue
    return None


def user_function(game, scope: Scope, name: str):
    """The rules' function `name` as a Python function `fn(m, *args)` (made once per game).

    Made as a stub first, so a function that calls itself finds itself."""
    made = game.cache.setdefault(("source", "functions"), {})
    if name in made:
        return made[name]
    params = game.functions[name][0]
    if not all(map(safe_name, params)):
        raise NotGenerated(name)
    stub = _build("def u(m, *args):\n    raise RuntimeError('not generated yet')\n", {}, "u")
    made[name] = stub
    inner = Scope(game, scope.symbols, set(params), scope.where)
    real = None
    for walrus in (True, False) if NAMED else (False,):
        consts: dict = {"ENTRY": game.functions[name], "P": list(params)}
        gen = Gen(inner, consts)
        gen.walrus = walrus
        try:
            body = gen.expr(game.function_bodies[name], {p: Var(f"v_{p}") for p in params})
            source = f"def u(m{''.join(f', v_{p}' for p in params)}):\n    W1(m)\n    S = m.state\n    return {body}\n"
        except NotGenerated:
            break
        try:
            real = _build(source, consts, "u")
            break
        except SyntaxError:  # a name given inside a comprehension's source: written again without
            continue
    if real is None:
        # As compile_calls.compile_user_call: the body's closure with only its parameters as locals.
        consts = {"ENTRY": game.functions[name], "P": list(params)}
        source = (
            "def u(m, *args):\n    W1(m)\n    saved = m.env\n    m.env = dict(zip(P, args))\n    try:\n"
            "        return ENTRY[1](m)\n    finally:\n        m.env = saved\n"
        )
        real = _build(source, consts, "u")
    stub.__code__ = real.__code__
    stub.__globals__.update(real.__globals__)
    return stub


PARTS["source"] = sys.modules[__name__]  # compile_expr calls back into this module
