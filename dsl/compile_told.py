"""Compiling what the log tells: `quietly` blocks, `reset`, and the `says` sentences of
zones and counters (interpreter/effects/telling.py runs the first two; interpreter/render.py
fills the sentences in).

A sentence is a text whose braces name what the thing is kept per (`{player}`,
`{colour}`) and what happened: for a counter `{value}`, `{was}` and `{change}`
(signed: +2, -1); for a zone, the move into it: `{items}`, `{count}` and `{from}`.
They are checked here, when the rules load.
"""

from __future__ import annotations

import copy

from meeple.dsl import ast
from meeple.dsl.compile_expr import Scope, fail, instance_key
from meeple.dsl.errors import did_you_mean
from meeple.dsl.runtime import Exec, placeholders, telling

COUNTER_WORDS = ("value", "was", "change")
ZONE_WORDS = ("items", "count", "from")
# Statements that ask for a decision: a `quietly` block may not hold one (its marking would stop there).
ASKS = (ast.Choose, ast.ChooseSome, ast.Menu, ast.Place, ast.Simultaneous, ast.Window, ast.Moment)


def check_says(says: str, per: tuple, words: tuple, span, what: str) -> None:
    """Every brace of a `says` sentence names a dimension it is kept per or one of `words`."""
    known = list(per) + list(words)
    for name in placeholders(says):
        if name not in known:
            raise fail(
                f"the sentence of {what} names `{{{name}}}`, which it does not know",
                span,
                did_you_mean(name, known, "name") or f"braces here may name {', '.join('{' + k + '}' for k in known)}",
            )


def quietly(flow, ops: list, s: ast.Quietly, scope: Scope) -> None:
    """The block between a hush and an unhush, after its one line (if it has one)."""
    for inner in _statements(s.body):
        if isinstance(inner, ASKS):
            raise fail(
                "a `quietly` block cannot ask for a decision",
                inner.span,
                "make the choice before the block, and keep only the bookkeeping inside",
            )
    if s.text:
        text = s.text
        ops.append(Exec(lambda m: m.emit("log", text=text), s.span))
    ops.append(Exec(telling.hush, s.span))
    flow.body(ops, s.body, scope)
    ops.append(Exec(telling.unhush, s.span))


def _statements(body: list):
    from meeple.dsl.flow_graph import sub_bodies

    for s in body:
        yield s
        for sub in sub_bodies(s):
            yield from _statements(sub)
        if isinstance(s, ast.Quietly):
            yield from _statements(s.body)


def reset(ops: list, s: ast.Reset, scope: Scope) -> None:
    """`reset NAME`: every instance (or the one indexed) back to the declared start."""
    game = scope.game
    spec = game.counters.get(s.name)
    if spec is None:
        raise fail(
            f"`reset {s.name}`: only a counter, flag or value can be reset",
            s.span,
            did_you_mean(s.name, game.counters, "counter"),
        )
    start = copy.deepcopy(spec.init)
    name, text = s.name, s.text
    if s.index:
        key = instance_key(scope, name, spec.per, s.index, s.span)
        ops.append(Exec(lambda m: telling.reset(m, name, [key(m)], start, text), s.span))
        return

    def every(m):
        keys = [k for k, _ in m.game.instance_keys(name, spec.per, m.state["players"])]
        telling.reset(m, name, keys, start, text)

    ops.append(Exec(every, s.span))
