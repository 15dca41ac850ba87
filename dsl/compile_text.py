"""Texts for people: titles and labels with `{expression}` parts, component labels, outcomes.

A text in quotes may hold expressions in braces: `"Draw {wanted} tiles from
which bag?"`. `{{` and `}}` stand for braces. A text without braces stays a
plain string, so most titles cost nothing at play time; one with braces
compiles to a closure `fn(machine) -> str`, evaluated where the decision is
reached. Values read as people read them: a component by its label, a list
as its items joined by commas, `none` as "none".

A component kind's `label` line is filled in once, when compiling, from its
fields only (`{name}`, `{cost}`): component data never changes.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from meeple.dsl import ast
from meeple.dsl.compile_expr import Scope, compile_expr, fail
from meeple.dsl.errors import Span, did_you_mean
from meeple.dsl.player_values import PLAYER, text_shape
from meeple.dsl.runtime import Outcome, OutcomeEntry, player_name, polyomino, words

_PART = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def split_template(text: str, span: Span, where: str) -> list:
    """A text as a list of plain strings and parsed expressions, or a MeepleError at `span`."""
    from meeple.dsl.parser import parse_expr  # the parser imports the AST; keep this module light

    parts: list = []
    pos = 0
    for m in _PART.finditer(text):
        parts.append(text[pos : m.start()])
        pos = m.end()
        token = m.group(0)
        if token in ("{{", "}}"):
            parts.append(token[0])
        elif token in ("{", "}"):
            raise fail(f"a lone `{token}` in {where}", span, "put an expression in braces, or write `{{` or `}}`")
        else:
            parts.append(respan(parse_expr(m.group(1).strip(), span, where), span))
    parts.append(text[pos:])
    return [p for p in parts if p != ""]


def respan(node, span: Span):
    """Give every node of an expression parsed from a text the text's location (errors point there)."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, Span):
                setattr(node, f.name, span)
            else:
                respan(value, span)
    elif isinstance(node, (list, tuple)):
        for x in node:
            respan(x, span)
    return node


def compile_text(text: str, scope: Scope, span: Span, where: str):
    """A plain string when the text has no braces, else a closure fn(machine) -> str."""
    if "{" not in text and "}" not in text:
        return text
    parts = split_template(text, span, where)
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    game = scope.game
    compiled: list[Any] = [p if isinstance(p, str) else as_words(p, compile_expr(p, scope), game) for p in parts]
    if len(compiled) <= 3 and sum(not isinstance(p, str) for p in compiled) == 1:
        # One value in the text, the usual title ("Where does {piece} go?"): read at every
        # decision that asks it, so without a generator and a join.
        at = next(i for i, p in enumerate(compiled) if not isinstance(p, str))
        head, value, tail = "".join(compiled[:at]), compiled[at], "".join(compiled[at + 1 :])
        return lambda m: head + shown(game, value(m)) + tail

    def render(m) -> str:
        return "".join(p if type(p) is str else shown(game, p(m)) for p in compiled)

    return render


def as_words(expr, fn, game):
    """The compiled expression, reading seats as players (P2) where it is known to hold one:
    a player is a seat number at run time, like any count, so the rules text decides."""
    shape = text_shape(expr, game)
    if shape == PLAYER:
        return lambda m: _player(fn(m))
    if shape is not None:
        return lambda m: [_player(x) for x in v] if isinstance(v := fn(m), list) else v
    return fn


def _player(value):
    return _Seat(value) if type(value) is int else value


class _Seat(int):
    """A seat number on its way into a text: it reads P1, P2..."""


def shown(game, value) -> str:
    """A value as people read it: components by label, lists joined by commas."""
    if type(value) is str:  # the usual value: a component's id, or a word (`gold_coin` reads "gold coin")
        return game.labels.get(value) or words(value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _Seat):
        return player_name(int(value))
    if isinstance(value, str):
        return game.labels.get(value) or words(value)
    if isinstance(value, list):
        if _is_cell(game, value):
            spec = game.grids[value[0].split("/", 1)[0]]
            r, c = divmod(value[1], spec.geometry.cols)
            return f"row {r + 1}, column {c + 1}"
        # an inner list in brackets, so pairs read as pairs: "[0, 1], [2, 2]"
        return (
            ", ".join(
                f"[{shown(game, v)}]" if isinstance(v, list) and not _is_cell(game, v) else shown(game, v)
                for v in value
            )
            if value
            else "nothing"
        )
    return str(value)


def _is_cell(game, value) -> bool:
    return (
        len(value) == 2
        and isinstance(value[0], str)
        and type(value[1]) is int
        and value[0].split("/", 1)[0] in game.grids
    )


# ----------------------------------------------------------------- component labels
def component_labels(decl: ast.ComponentDecl, game) -> dict:
    """id -> how the component reads, for a kind with a `label` line (fields in braces)."""
    if not decl.label:
        return {}
    where = f"the label of `{decl.name}`"
    parts = split_template(decl.label, decl.label_span, where)
    ids = game.kinds[decl.name]
    fields = [f.name for f in decl.fields] + ["id"] + (["name"] if ids and "name" in game.components[ids[0]] else [])
    for p in parts:
        if isinstance(p, str):
            continue
        if not isinstance(p, ast.Name):
            raise fail(
                f"{where} can name fields only, in braces",
                decl.label_span,
                f"fields of `{decl.name}`: {', '.join(fields)}",
            )
        if p.name not in fields:
            raise fail(
                f"{where} names `{p.name}`, which is not a field of `{decl.name}`",
                decl.label_span,
                did_you_mean(p.name, fields, "field") or f"fields: {', '.join(fields)}",
            )
    out = {}
    for cid in game.kinds[decl.name]:
        comp = game.components[cid]
        out[cid] = "".join(
            p if isinstance(p, str) else cid if p.name == "id" else field_shown(game, comp.get(p.name)) for p in parts
        )
    return out


def field_shown(game, value) -> str:
    """A field's value on a label: lists as words, abilities as calls, shapes row by row."""
    if isinstance(value, tuple):
        return polyomino.render(value)
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], list):
        args = ", ".join(str(a) for a in value[1])
        return f"{value[0]}({args})"
    if isinstance(value, list):
        return " ".join(field_shown(game, v) for v in value) or "nothing"
    if isinstance(value, str):  # an enum value by its label, a name with `_` as words
        return game.labels.get(value) or words(value)
    return "" if value is None else str(value)


# ----------------------------------------------------------------- outcomes
def compile_outcomes(decls: list, scope: Scope) -> list:
    """`outcome` blocks: each with its guard and entries; `player`, `score` and `place` known inside."""
    inner = scope.with_locals({"player", "score", "place"})
    out = []
    for d in decls:
        guard = compile_expr(d.guard, scope) if d.guard is not None else None
        entries = [
            OutcomeEntry(
                e.kind == "win",
                compile_expr(e.guard, inner) if e.guard is not None else None,
                compile_text(e.text, inner, e.span, "an outcome"),
                e.span,
            )
            for e in d.entries
        ]
        if entries[-1].guard is not None:
            raise fail(
                "the last entry of an outcome needs no `if`: it says what happens otherwise",
                d.entries[-1].span,
                'end with e.g. `loss: "You lost, {score}"`',
            )
        out.append(Outcome(guard, entries, d.span))
    return out
