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

    def __init__(self, items, seats: set):
        self.seats = seats
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
            if isinstance(obj, tuple) and obj[0] == "row" and isinstance(e.index, ast.Int) \
                    and -len(obj[1]) <= e.index.value < len(obj[1]):
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
    """(name, expression) for every `=` to a `value` declaration (whole or one entry)."""
    for n in _nodes(items):
        if not isinstance(n, ast.Assign) or n.op != "=":
            continue
        target = n.target.obj if isinstance(n.target, ast.Index) else n.target
        if isinstance(target, ast.Name) and target.name in counters and counters[target.name].kind == "value":
            yield target.name, n.value


def player_lists(items, counters: dict) -> set:
    """The names of the `value`s that hold a list of players."""
    shapes = _Shapes(items, _seat_names(items))
    verdicts: dict[str, list] = {}
    for name, value in _value_assignments(items, counters):
        verdicts.setdefault(name, []).append(shapes.item(shapes.of(value, {})))
    return {name for name, vs in verdicts.items()
            if counters[name].init in ([], None) and all(v in (PLAYER, MIXED, "empty") for v in vs)
            and any(v in (PLAYER, MIXED) for v in vs)}


def player_values(items, counters: dict) -> set:
    """The names of the `value`s that hold a player."""
    seats = _seat_names(items)
    verdicts: dict[str, list] = {}
    for name, value in _value_assignments(items, counters):
        verdicts.setdefault(name, []).append(_is_player(value, seats))
    return {name for name, vs in verdicts.items()
            if counters[name].init is None and True in vs and False not in vs}
