"""Expressions -> Python closures `fn(machine) -> value`, built once per ruleset.

Names are resolved here, at compile time, so nothing walks the AST during play:
a local becomes an env lookup, a counter a dict lookup, an option a constant.
A name kept per player (`board`, `score`) used bare means "of `player`", the
player whose turn or loop it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from meeple.dsl import ast, state_keys
from meeple.dsl.cell_values import CELL_ATTRS, attr_reader, shared_content
from meeple.dsl.errors import MeepleError, Span, did_you_mean
from meeple.dsl.expr_operators import _BINOPS, _COMPARE, RANGE_LIMIT, check_operands
from meeple.dsl.runtime import KIND, WORK_LIMIT, Game

BUILTIN_NAMES = {"players", "turn_order", "first_player"}


@dataclass
class Scope:
    """What names mean where an expression is compiled."""

    game: Game
    symbols: set  # every enum value, option value and layout value
    locals: set = field(default_factory=set)
    where: str = ""  # "phase round", for messages

    def with_locals(self, names) -> Scope:
        return Scope(self.game, self.symbols, self.locals | set(names), self.where)

    def known_names(self) -> set:
        g = self.game
        return (
            set(self.locals)
            | BUILTIN_NAMES
            | set(g.options)
            | set(g.enums)
            | self.symbols
            | set(g.kinds)
            | set(g.tables)
            | set(g.counters)
            | set(g.zones)
            | set(g.grids)
            | set(g.boards)
        )


def fail(message: str, span: Span, hint: str = "") -> MeepleError:
    return MeepleError(message, span, hint)


# ----------------------------------------------------------------- names
def player_of(scope: Scope, name: str, span: Span):
    """The closure giving `player` for a bare per-player name, or an error."""
    if "player" not in scope.locals:
        raise fail(
            f"`{name}` is kept per player, and no `player` is known here",
            span,
            f"write `{name}[p]` for a player p, or use it inside `for each player in turn_order`",
        )
    return lambda m: m.env["player"]


def instance_key(scope: Scope, name: str, per: tuple, index, span: Span):
    """Closure for the state key of a thing kept per player / per value (`saved/2`, `stock/0/red`).

    `index` is None, one expression, or a list of them. A thing kept per player
    (first) may leave the player out: it then means the one of `player`."""
    given = [] if index is None else index if isinstance(index, list) else [index]
    if not per:
        if given:
            raise fail(
                f"`{name}` is shared, not kept per player or per value", span, f"write `{name}` without an index"
            )
        return lambda m: name
    parts = [compile_expr(i, scope) for i in given]
    if len(given) == len(per) - 1 and per[0] == "player":
        parts.insert(0, player_of(scope, name, span))
    elif len(given) != len(per):
        what = " and ".join(per)
        raise fail(
            f"`{name}` is kept per {what}: give {len(per)} index{'es' if len(per) > 1 else ''}",
            span,
            f"write `{name}[{', '.join(per)}]`",
        )
    if state_keys.TABLES:
        return state_keys.key_reader(name, per, parts)
    prefix = name + "/"
    if len(parts) == 1:
        only = parts[0]
        return lambda m: prefix + str(only(m))
    return lambda m: prefix + "/".join(str(p(m)) for p in parts)


def compile_name(node: ast.Name, scope: Scope):
    n, g = node.name, scope.game
    if n in scope.locals:

        def local(m, n=n, span=node.span):
            try:
                return m.env[n]
            except KeyError:
                raise fail(f"`{n}` has no value yet here", span) from None

        return local
    if n == "players":
        return lambda m: m.state["players"]
    if n == "first_player":
        return lambda m: m.state["first"]
    if n == "turn_order":
        return lambda m: [(m.state["first"] + i) % m.state["players"] for i in range(m.state["players"])]
    if n in g.options:
        value = g.option_value(n)
        return lambda m: value
    if n in g.enums:
        values = list(g.enums[n])
        return lambda m: list(values)
    if n in scope.symbols:
        return lambda m: n
    if n in g.kinds:
        ids = list(g.kinds[n])
        return lambda m: list(ids)
    if n in g.tables:
        table = g.tables[n]
        return lambda m: table
    if n in g.boards:
        return lambda m: n
    if n in g.counters:
        key = instance_key(scope, n, g.counters[n].per, None, node.span)
        return lambda m: m.state["vars"][key(m)]
    if n in g.zones:
        key = instance_key(scope, n, g.zones[n].per, None, node.span)
        return lambda m: m.state["zones"][key(m)]
    if n in g.grids:
        return instance_key(scope, n, g.grids[n].per, None, node.span)
    raise fail(f"unknown name `{n}`", node.span, did_you_mean(n, scope.known_names(), "name"))


# ----------------------------------------------------------------- lookup tables
class Table:
    """A compiled `{1: 1, 2..3: 4, 5+: 25, else: 0}`: exact keys, then ranges, then else."""

    __slots__ = ("exact", "ranges", "default", "has_default", "span")
    exact: dict
    ranges: list

    def __init__(self, span: Span):
        self.exact, self.ranges, self.default, self.has_default, self.span = {}, [], None, False, span

    def lookup(self, key, m=None):
        if key in self.exact:
            value = self.exact[key]
        elif (
            isinstance(key, int)
            and (hit := next((v for lo, hi, v in self.ranges if lo <= key and (hi is None or key <= hi)), _MISS))
            is not _MISS
        ):
            value = hit
        elif self.has_default:
            value = self.default
        else:
            raise fail(f"the table has no entry for {key!r}", self.span, "add the entry, or `else: ...`")
        return value.fn(m) if type(value) is Computed else value


_MISS = object()


class Computed:
    """A table entry that reads the game (`{2: players + 1, else: 4}`): worked out at each lookup."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn


def compile_table(node: ast.TableLit, scope: Scope) -> Table:
    table = Table(node.span)
    for key, value_node in node.entries:
        try:
            value = constant(value_node, scope)
        except MeepleError:  # it reads the game (the player count, an option, a counter): read at lookup
            value = Computed(compile_expr(value_node, scope))
        if key.kind == "int":
            table.exact[key.lo] = value
        elif key.kind == "range":
            table.ranges.append((key.lo, key.hi, value))
        elif key.kind == "from":
            table.ranges.append((key.lo, None, value))
        elif key.kind == "name":
            table.exact[key.name] = value
        else:
            table.default, table.has_default = value, True
    return table


def is_constant(node, scope: Scope) -> bool:
    if isinstance(node, (ast.Int, ast.Str, ast.Bool, ast.NoneLit)):
        return True
    return (
        isinstance(node, ast.Name)
        and node.name not in scope.locals
        and node.name in scope.symbols
        and node.name not in scope.game.counters
    )


class _NoState:
    """Stands in for the machine while folding constants: locals work, the game's state does not."""

    __slots__ = ("env", "work")

    def __init__(self):
        self.env = {}
        self.work = WORK_LIMIT


def constant(node, scope: Scope):
    """Evaluate an expression that must not depend on the state (tables, initial values)."""
    fn = closure_only(node, scope)
    try:
        return fn(_NoState())
    except (AttributeError, TypeError, KeyError):
        raise fail("this must be a constant (a number, a name of a value, or a list of those)", node.span) from None


# ----------------------------------------------------------------- attributes
def compile_attr(node: ast.Attr, scope: Scope):
    obj = compile_expr(node.obj, scope)
    name, span = node.name, node.span
    game = scope.game
    contents = {g.content for g in game.grids.values()}
    fields = {f for comp in game.components.values() for f in comp if f != KIND}
    known = fields | contents | CELL_ATTRS | {"id"} | {lay for g in game.grids.values() for lay in g.layouts}
    if name not in known:
        # Caught when the rules load, not in the middle of a game: no component has it, no cell either.
        raise fail(f"nothing has a field or attribute `{name}`", span, did_you_mean(name, sorted(known), "field"))
    content: Callable | None  # a cell's own reader, when the name is one of a cell's
    if name == shared_content(game) and name not in fields:
        # A cell's content: the common case in grid games, read straight from the state.
        def content(m):
            value = obj(m)
            if value is None:
                return None
            if isinstance(value, list):
                return m.state["grids"][value[0]]["cells"][value[1]]
            return attr(m)
    elif name == "empty" and name not in fields:

        def content(m):
            value = obj(m)
            if isinstance(value, list):
                return m.state["grids"][value[0]]["cells"][value[1]] is None
            return attr(m)
    else:
        content = None

    read = attr_reader(game, name, span)

    def attr(m):
        return read(m, obj(m))

    return content or attr


def compile_index(node: ast.Index, scope: Scope):
    g = scope.game
    if isinstance(node.obj, ast.Name) and node.obj.name not in scope.locals:
        n = node.obj.name
        if n in g.counters:
            key = instance_key(scope, n, g.counters[n].per, node.index, node.span)
            return lambda m: m.state["vars"][key(m)]
        if n in g.zones:
            key = instance_key(scope, n, g.zones[n].per, node.index, node.span)
            return lambda m: m.state["zones"][key(m)]
        if n in g.grids:
            return instance_key(scope, n, g.grids[n].per, node.index, node.span)
    if isinstance(node.obj, ast.TableLit):
        table = compile_table(node.obj, scope)
        idx = compile_expr(node.index, scope)
        return lambda m: table.lookup(idx(m), m)
    if isinstance(node.index, list):
        raise fail(
            "several indexes are only for things kept per player or per value",
            node.span,
            "declare it with `per ... per ...`, or index one at a time: x[a][b]",
        )
    obj = compile_expr(node.obj, scope)
    idx = compile_expr(node.index, scope)
    span = node.span
    if isinstance(node.obj, ast.ListLit) and all(is_constant(i, scope) for i in node.obj.items):
        items = obj(None)  # `[x, o][player]`: the list is built once

        def pick(m):
            i = idx(m)
            try:
                return items[i]
            except (IndexError, TypeError):
                raise fail(f"no item {i!r} in {items!r}", span) from None

        return pick

    def index(m):
        container, i = obj(m), idx(m)
        if isinstance(container, Table):
            return container.lookup(i, m)
        try:
            return container[i]
        except (IndexError, KeyError, TypeError):
            raise fail(f"no item {i!r} in {container!r}", span) from None

    return index


# Selections and calls (compile_calls.py) and whole expressions as generated source
# (compile_source.py) build on this module and call back into it. Each registers itself here when
# imported (dsl/compiler.py imports both), so that imports run one way: from them to this module.
PARTS: dict = {}


def _calls():
    return PARTS["calls"]


# Kinds of expression not worth generating source for: a closure is as fast.
_PLAIN = (ast.Int, ast.Str, ast.Bool, ast.NoneLit, ast.Name, ast.TableLit)
_inside = [False]  # compiling the parts of an expression whose source is being generated


def compile_expr(node, scope: Scope):
    """Compile one expression node into a function `fn(machine) -> value`.

    A whole expression becomes one generated Python function (dsl/compile_source.py)
    where it can; its parts, and everything else, become closures. The closures are
    always built: they check the expression, and they report its errors."""
    if _inside[0] or isinstance(node, _PLAIN):
        return compile_closure(node, scope)
    compile_source = PARTS["source"]
    _inside[0] = True
    try:
        slow = compile_closure(node, scope)
        fast = compile_source.generate(node, scope, slow) if compile_source.ENABLED else None
    finally:
        _inside[0] = False
    return fast or slow


def closure_only(node, scope: Scope):
    """The closure of an expression and of all its parts, with no generated source."""
    was, _inside[0] = _inside[0], True
    try:
        return compile_closure(node, scope)
    finally:
        _inside[0] = was


def compile_closure(node, scope: Scope):
    """Compile one expression node into a closure."""
    t = type(node)
    if t is ast.Int or t is ast.Str or t is ast.Bool:
        value = node.value
        return lambda m: value
    if t is ast.NoneLit:
        return lambda m: None
    if t is ast.Name:
        return compile_name(node, scope)
    if t is ast.ListLit:
        if all(is_constant(i, scope) for i in node.items):
            value = [constant(i, scope) for i in node.items]
            return lambda m: value  # values are never changed in place, so one list serves
        items = [compile_expr(i, scope) for i in node.items]
        return lambda m: [i(m) for i in items]
    if t is ast.TableLit:
        table = compile_table(node, scope)
        return lambda m: table
    if t is ast.Ternary:
        cond, then, other = (
            compile_expr(node.cond, scope),
            compile_expr(node.then, scope),
            compile_expr(node.other, scope),
        )
        return lambda m: then(m) if cond(m) else other(m)
    if t is ast.BoolOp:
        left, right = compile_expr(node.left, scope), compile_expr(node.right, scope)
        if node.op == "and":
            return lambda m: left(m) and right(m)
        return lambda m: left(m) or right(m)
    if t is ast.Not:
        operand = compile_expr(node.operand, scope)
        return lambda m: not operand(m)
    if t is ast.Compare:
        left, right, op = compile_expr(node.left, scope), compile_expr(node.right, scope), _COMPARE[node.op]
        return lambda m: op(left(m), right(m))
    if t is ast.Range:
        lo, hi, span = compile_expr(node.lo, scope), compile_expr(node.hi, scope), node.span

        def make_range(m):
            a, b = lo(m), hi(m)
            if b - a >= RANGE_LIMIT:
                raise fail(f"the range {a}..{b} has more than {RANGE_LIMIT:,} values", span)
            return list(range(a, b + 1))

        return make_range
    if t is ast.BinOp:
        check_operands(node, scope)
        left, right, op, span = (
            compile_expr(node.left, scope),
            compile_expr(node.right, scope),
            _BINOPS[node.op],
            node.span,
        )

        def binop(m):
            a, b = left(m), right(m)
            try:
                return op(a, b)
            except ZeroDivisionError:
                raise fail("division by zero", span) from None
            except ValueError as exc:  # a runaway size
                raise fail(
                    str(exc), span, "so large a list, text or number is a runaway rule: check what builds it"
                ) from None
            except TypeError:
                raise fail(f"cannot compute {repr(a)[:40]} {node.op} {repr(b)[:40]}", span) from None

        return binop
    if t is ast.Neg:
        operand = compile_expr(node.operand, scope)
        return lambda m: -operand(m)
    if t is ast.Attr:
        return compile_attr(node, scope)
    if t is ast.Index:
        return compile_index(node, scope)
    if t is ast.Call:
        return _calls().compile_call(node, scope)
    if t is ast.FieldCall:
        raise fail(
            f"`.{node.field}(...)` runs a card's effect, so it needs `do` in front",
            node.span,
            f"write `do ...{node.field}(...)` as a statement",
        )
    if t is ast.Selection:
        return _calls().compile_selection(node, scope)[0]
    if t is ast.Generator:
        return _calls().compile_generator(node, scope)
    raise fail(f"unexpected {t.__name__} here", getattr(node, "span", Span()))
