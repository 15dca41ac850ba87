"""Gen's state keys: the source that names a thing kept per player or per value.

A counter, zone or grid kept per player (or per enum value, per component) lives in the state
under a key of its name and its parts. Generated source (dsl/compile_source.py) names it one
of three ways, the cheapest that is safe: a fixed key as a literal; a key found in a table of
every key by its varying parts (dsl/state_keys.py); or the key built from its parts' source,
as the closures build it (compile_expr.instance_key).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.dsl.source_text import NotGenerated, atomic, formatted_key, literal
from meeple.dsl.state_keys import axis_type, filled_table

if TYPE_CHECKING:
    from meeple.dsl.compile_expr import Scope
    from meeple.interpreter.game import Game


class KeyWriter:
    """The key-writing part of Gen (it uses Gen's expr, const, scope, switches and loop names)."""

    # Gen's own, declared here for type checkers (annotations only: nothing is set on the class).
    game: Game
    scope: Scope
    keys: bool
    tables: bool
    walrus: bool
    loops: int
    expr: Callable[..., str]
    const: Callable[[object], str]

    def key(self, name: str, per: tuple, index, bound: dict) -> str:
        """The state key of a thing kept per player / per value, as compile_expr.instance_key."""
        given = [] if index is None else index if isinstance(index, list) else [index]
        if not per:
            if given:
                raise NotGenerated(name)
            return repr(name)
        parts = [self.expr(i, bound) for i in given]
        if len(given) == len(per) - 1 and per[0] == "player":
            if "player" in bound:
                parts.insert(0, bound["player"].py)
            elif "player" in self.scope.locals:
                parts.insert(0, "E['player']")
            else:
                raise NotGenerated(name)
        elif len(given) != len(per):
            raise NotGenerated(name)
        if self.tables and (found := self.looked_up(name, per, parts)) is not None:
            return found
        return self.built(name, parts)

    def built(self, name: str, parts: list) -> str:
        """The key built from its parts' source, as the closures build it."""
        if self.keys and (formatted := formatted_key(name, parts)) is not None:
            return formatted
        if len(parts) == 1:
            return f"({name + '/'!r} + str({parts[0]}))"
        joined = " + '/' + ".join(f"str({p})" for p in parts)
        return f"({name + '/'!r} + {joined})"

    def looked_up(self, name: str, per: tuple, parts: list) -> str | None:
        """The key found in a table of every key by its varying parts (dsl/state_keys.py):
        `K3[(E['p'] if type(E['p']) is int else None)][v_i]`. A player's number must be a
        number (`true` would find player 1's key): anything else looks up None, which no
        table holds, and the closure reads (or fails) instead. A text finds only its own
        key. None: a fixed key, or a part that cannot be named here."""
        fixed = [literal(p) for p in parts]
        if None not in fixed:
            return None
        reads = []
        for part, text, dim in zip(parts, fixed, per):
            if text is not None:
                continue
            if axis_type(dim) is str:
                reads.append(f"[{part}]")
            elif atomic(part):
                reads.append(f"[({part} if type({part}) is int else None)]")
            elif self.walrus:
                self.loops += 1
                held = f"_k{self.loops}"
                reads.append(f"[({held} if type(({held} := {part})) is int else None)]")
            else:
                return None
        return self.const(filled_table(self.game, name, per, fixed)) + "".join(reads)
