"""Which `value`s hold a player: so traces and the terminal print P1, not a seat number.

Players are seat numbers at run time, like any counter's number, so the rules
text decides: a `value` holds a player when every assignment to it is `none`
or a player (`player`, `first_player`, `next_player(...)`, or a name a loop or
a choice binds from `turn_order`), and at least one assignment is a player.
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


def player_values(items, counters: dict) -> set:
    """The names of the `value`s that hold a player."""
    seats = _seat_names(items)
    verdicts: dict[str, list] = {}
    for n in _nodes(items):
        if not isinstance(n, ast.Assign) or n.op != "=":
            continue
        target = n.target.obj if isinstance(n.target, ast.Index) else n.target
        if isinstance(target, ast.Name) and target.name in counters and counters[target.name].kind == "value":
            verdicts.setdefault(target.name, []).append(_is_player(n.value, seats))
    return {name for name, vs in verdicts.items()
            if counters[name].init is None and True in vs and False not in vs}
