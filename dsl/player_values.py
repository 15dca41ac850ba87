"""Which `value`s hold a player, or a list of players: so people read P1, not a seat number.

Players are seat numbers at run time, like any counter's number, so the rules
text decides: a `value` holds a player when every assignment to it is `none`
or a player (`player`, `first_player`, `next_player(...)`, or a name a loop or
a choice binds from `turn_order`), and at least one assignment is a player.

A `value` holds a list of players when every assignment is a list whose items
are players, or players and texts (seats and another side, like `turn_order +
["bank"]`), and at least one has players. Lists are followed through `+`,
`sort`, `unique`, `if ... else`, list literals, `list(x for each ...)`,
`each x in ... where ...`, indexing and the rules' own functions, so a turn
order sorted by a key (`list(k[2] for each k in sort(list([key(x), x] ...)))`)
is still known to hold players. Anything else is not a list of players.
"""

from __future__ import annotations

import dataclasses

from meeple.dsl import ast


def _nodes(node):
    """Every AST node below `node` (dataclasses, lists and tuples), `node` included."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        yield node
        for f in dataclasses.fields(node):
            if f.name != "span":
                yield from _nodes(getattr(node, f.name))
    elif isinstance(node, (list, tuple)):
        for x in node:
            yield from _nodes(x)


def _seat_names(items) -> set:
    """Local names bound from `turn_order` by `for each` or `choose` anywhere, and `player`."""
    names = {"player"}
    for n in _nodes(items):
        source = getattr(n, "source", None)
        if isinstance(source, ast.Name) and source.name == "turn_order":
            if isinstance(n, ast.Choose):
                names.add(n.var)
            elif isinstance(n, ast.For) and getattr(n.pattern, "names", None):
                names.update(n.pattern.names)
    return names


def _is_player(expr, seats: set) -> bool | None:
    """True for a player, None for `none`, False for anything else."""
    if isinstance(expr, ast.NoneLit):
        return None
    if isinstance(expr, ast.Name):
        return expr.name in seats or expr.name == "first_player"
    return isinstance(expr, ast.Call) and expr.func == "next_player"


PLAYER, TEXT, MIXED = "player", "text", "player or text"  # what a list's items are
SAME_LIST = {"sort", "unique", "list"}  # builtins whose result has the items of their one list argument


def _join(a, b):
    """What an item is when it may be `a` or `b` (None: not known to be a player or text)."""
    if a == b or b == "empty":
        return a
    if a == "empty":
        return b
    if a in (PLAYER, TEXT, MIXED) and b in (PLAYER, TEXT, MIXED):
        return MIXED
    return None


class _Shapes:
    """What an expression holds, as far as players go: PLAYER, TEXT, ("list", item),
    ("row", [items]) for a list literal (each position known), or None."""

    def __init__(self, items, seats: set, base: dict | None = None):
        self.seats = seats
        self.base = base or {}  # what names not bound locally hold (counters that hold players)
        self.functions = {f.name: f for f in _nodes(items) if isinstance(f, ast.FunctionDecl)}
        self.busy: set = set()  # functions being looked into (recursion)

    def item(self, shape):
        """The shape of any one item of a list shape (None if not a list)."""
        if isinstance(shape, tuple) and shape[0] == "list":
            return shape[1]
        if isinstance(shape, tuple) and shape[0] == "row":
            out = "empty"
            for x in shape[1]:
                out = _join(out, x)
            return out
        return None

    def of(self, e, local: dict):
        if isinstance(e, ast.Str):
            return TEXT
        if isinstance(e, ast.Name):
            if e.name in local:
                return local[e.name]
            if e.name in self.base:
                return self.base[e.name]
            if e.name == "turn_order":
                return ("list", PLAYER)
            return PLAYER if e.name in self.seats or e.name == "first_player" else None
        if isinstance(e, ast.ListLit):
            return ("row", [self.of(x, local) for x in e.items])
        if isinstance(e, ast.Ternary):
            a, b = self.of(e.then, local), self.of(e.other, local)
            return ("list", _join(self.item(a), self.item(b))) if self.item(a) and self.item(b) else _join(a, b)
        if isinstance(e, ast.BinOp) and e.op == "+":
            a, b = self.item(self.of(e.left, local)), self.item(self.of(e.right, local))
            return ("list", _join(a, b)) if a and b else None
        if isinstance(e, ast.Index) and not isinstance(e.index, list):
            obj = self.of(e.obj, local)
            if (
                isinstance(obj, tuple)
                and obj[0] == "row"
                and isinstance(e.index, ast.Int)
                and -len(obj[1]) <= e.index.value < len(obj[1])
            ):
                return obj[1][e.index.value]
            return self.item(obj) if isinstance(obj, tuple) and obj[0] == "list" else None
        if isinstance(e, ast.Selection):
            return ("list", self.item(self.of(e.source, local)))
        if isinstance(e, ast.Generator):
            inner = self.bind(e.selection, local)
            return ("list", self.of(e.expr, inner)) if inner is not None else None
        if isinstance(e, ast.Call):
            return self.call(e, local)
        return None

    def bind(self, sel, local: dict):
        """The locals inside a selection: its loop name holds one item of its source."""
        item = self.item(self.of(sel.source, local))
        names = sel.pattern.names
        if sel.pattern.unpack or len(names) != 1:
            return None
        return dict(local, **{names[0]: item})

    def call(self, e, local: dict):
        if e.func == "next_player":
            return PLAYER
        if e.func in SAME_LIST and len(e.args) == 1:
            inner = self.of(e.args[0], local)
            return ("list", self.item(inner)) if self.item(inner) else None
        f = self.functions.get(e.func)
        if f is None or f.name in self.busy:
            return None
        self.busy.add(f.name)
        try:  # the function's parameters are not known to hold anything in particular
            return self.of(f.expr, {p: None for p in f.params})
        finally:
            self.busy.discard(f.name)


def _value_assignments(items, counters: dict):
    """(name, expression) for every `=` to a `value` declaration (whole or one entry), and to a
    `counter` that is only ever set with `=` (never counted up or down: it may hold a player)."""
    counted = {
        getattr(n.target.obj if isinstance(n.target, ast.Index) else n.target, "name", None)
        for n in _nodes(items)
        if isinstance(n, ast.Assign) and n.op != "="
    }
    for n in _nodes(items):
        if not isinstance(n, ast.Assign) or n.op != "=":
            continue
        target = n.target.obj if isinstance(n.target, ast.Index) else n.target
        if (
            isinstance(target, ast.Name)
            and target.name in counters
            and (
                counters[target.name].kind == "value"
                or counters[target.name].kind == "counter"
                and target.name not in counted
            )
        ):
            yield target.name, n.value


def player_lists(items, counters: dict, seats: set | frozenset = frozenset()) -> set:
    """The names of the `value`s that hold a list of players."""
    shapes = _Shapes(items, _seat_names(items) | seats)
    verdicts: dict[str, list] = {}
    for name, value in _value_assignments(items, counters):
        if counters[name].kind == "value":
            verdicts.setdefault(name, []).append(shapes.item(shapes.of(value, {})))
    return {
        name
        for name, vs in verdicts.items()
        if counters[name].init in ([], None)
        and all(v in (PLAYER, MIXED, "empty") for v in vs)
        and any(v in (PLAYER, MIXED) for v in vs)
    }


def player_values(items, counters: dict, seats: set | frozenset = frozenset()) -> set:
    """The names of the `value`s (and set-only `counter`s) that hold a player."""
    seats = _seat_names(items) | seats
    verdicts: dict[str, list] = {}
    for name, value in _value_assignments(items, counters):
        verdicts.setdefault(name, []).append(_is_player(value, seats))
    return {
        name
        for name, vs in verdicts.items()
        if (counters[name].init is None or counters[name].kind == "counter") and True in vs and False not in vs
    }


# ----------------------------------------------------------------- names that hold a player
ITEM, VALUE = "item", "value"  # a binding holds one item of its expression, or its value


def _bindings(items, data_effects: set | frozenset) -> list:
    """(name, how, expression) for every place a local name is bound: loops and choices (one ITEM
    of the expression), `let` and an effect's parameter at each call (its VALUE), the player of an
    action or reaction (PLAYER), and what holds nothing known (None). Walked once per ruleset."""
    nodes = list(_nodes(items))
    effects = {e.name: e for e in nodes if isinstance(e, ast.EffectDecl)}
    field_calls = [n.call for n in nodes if isinstance(n, ast.DoField)]
    out: list[tuple] = []
    for n in nodes:
        if isinstance(n, (ast.For, ast.Selection)) and len(n.pattern.names) == 1 and not n.pattern.unpack:
            out.append((n.pattern.names[0], ITEM, n.source))
        elif isinstance(n, (ast.For, ast.Selection)):
            out += [(name, None, None) for name in n.pattern.names]
        elif isinstance(n, (ast.Choose, ast.Simultaneous)):
            out.append((n.var, ITEM, n.source))
        elif isinstance(n, ast.ChooseSome):
            out.append((n.var, None, None))
        elif isinstance(n, ast.Let):
            out.append((n.name, VALUE, n.value))
        elif isinstance(n, ast.ActionDecl):
            out.append((n.param, PLAYER, None))
        elif isinstance(n, ast.ReactionDecl):
            out += [(n.params[0], PLAYER, None), (n.params[1], None, None)]
        elif isinstance(n, ast.FunctionDecl):
            out += [(p, None, None) for p in n.params]
        elif isinstance(n, ast.Do) and n.effect in effects:
            out += [(p, VALUE, arg) for p, arg in zip(effects[n.effect].params, n.args)]
    for name in data_effects & set(effects):  # run by `do c.field(args)`: those args, then the data's
        params = effects[name].params
        for call in field_calls:
            out += [(p, VALUE, call.args[i]) if i < len(call.args) else (p, None, None) for i, p in enumerate(params)]
        if not field_calls:
            out += [(p, None, None) for p in params]
    return out


def _holds(shapes: _Shapes, how, expr):
    if how == ITEM:
        return shapes.item(shapes.of(expr, {}))
    if how == VALUE:
        return shapes.of(expr, {})
    return how


def counter_shapes(counters: dict) -> dict:
    """What the counters known to hold players hold, as `_Shapes` reads names."""
    out = {name: PLAYER for name, c in counters.items() if c.player}
    out.update({name: ("list", PLAYER) for name, c in counters.items() if c.players})
    return out


def player_locals(items, counters: dict, data_effects: set | frozenset = frozenset()) -> set:
    """The local names that hold a player wherever they are bound (so `{w}` in a text reads P2).

    The largest set that is consistent: a name is in it when every binding of it is a player,
    judged with the names in it taken as players (so `let w = p` follows `p`)."""
    base = counter_shapes(counters)
    bindings = _bindings(items, data_effects)
    functions = _Shapes(items, set()).functions
    names = {name for name, _, _ in bindings} | {"player"}
    while True:
        shapes = _Shapes([], names, base)
        shapes.functions = functions
        verdicts: dict[str, bool] = {}
        for name, how, expr in bindings:
            if verdicts.get(name, True):
                verdicts[name] = _holds(shapes, how, expr) == PLAYER
        kept = {n for n in names if verdicts.get(n, n == "player")}
        if kept == names:
            return names
        names = kept


def text_shape(expr, game) -> str | tuple | None:
    """PLAYER when `expr` (in a text's braces) holds a player, ("list", PLAYER or MIXED) for a list of
    them, else None: counters that hold players count, and local names from `player_locals`."""
    shapes = _Shapes([], set(game.player_locals), counter_shapes(game.counters))
    shapes.functions = {
        name: ast.FunctionDecl(name, game.functions[name][0], body) for name, body in game.function_bodies.items()
    }
    shape = shapes.of(expr, {})
    if shape == PLAYER:
        return PLAYER
    item = _Shapes([], set()).item(shape) if isinstance(shape, tuple) else None
    return ("list", item) if item in (PLAYER, MIXED) else None
