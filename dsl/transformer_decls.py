"""Lark parse tree -> dsl.ast nodes, the declarations (the game's header, components, zones,
counters, phases, scores...), and the helpers the statements and expressions use too
(dsl/transformer.py: ToAst adds those methods to these).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Transformer, v_args

from meeple.dsl import ast
from meeple.dsl.errors import MeepleError, Span


@dataclass
class Refill:
    """`refill from ZONE` while a zone declaration is being read."""

    zone: str


@dataclass
class ShownAs:
    """`label "TEXT"` after a zone's or grid's declaration, while it is being read."""

    text: str


@dataclass
class Says:
    """`says "TEXT"` after a zone's declaration, while it is being read."""

    text: str


INTERRUPTING = object()  # `, interrupting` after an action's test
ON_REQUEST = object()  # marks `, on request` among an action's parts


def span_of(meta) -> Span:
    if getattr(meta, "empty", True):
        return Span()
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def tok_span(tok: Token) -> Span:
    return Span(tok.line or 0, tok.column or 0, tok.end_line or 0, tok.end_column or 0)


ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t"}
_ESCAPE = re.compile(r"\\(.?)", re.S)


def _unquote(tok: Token) -> str:
    """A quoted text's characters; the escapes are \\\\, \\", \\n and \\t (anything else is refused)."""
    body = str(tok)[1:-1]
    if "\\" not in body:
        return body

    def one(match) -> str:
        if match.group(1) not in ESCAPES:
            raise MeepleError(
                f"`\\{match.group(1)}` is not an escape Meeple knows",
                tok_span(tok),
                'write \\\\ for a backslash, \\n for a new line, \\t for a tab, \\" for a quote',
            )
        return ESCAPES[match.group(1)]

    return _ESCAPE.sub(one, body)


@v_args(meta=True)
class Declarations(Transformer):
    """The top level: one method per declaration rule or alias; each returns a dsl.ast node."""

    # ---- top level
    def start(self, meta, items):
        return list(items)

    def game_decl(self, meta, c):
        return ast.GameDecl(_unquote(c[0]), span=span_of(meta))

    def players_decl(self, meta, c):
        lo = int(c[0])
        return ast.PlayersDecl(lo, int(c[1]) if len(c) > 1 else lo, span=span_of(meta))

    def option_decl(self, meta, c):
        doc = _unquote(c[-1]) if c[-1].type == "STRING" else ""
        names = [str(t) for t in c if t.type == "NAME"]
        return ast.OptionDecl(names[0], names[1:], doc, span=span_of(meta))

    def param_decl(self, meta, c):
        doc = _unquote(c[4]) if len(c) > 4 else ""
        return ast.ParamDecl(str(c[0]), int(c[1]), int(c[2]), int(c[3]), doc, span=span_of(meta))

    def enum_decl(self, meta, c):
        values = [v[0] for v in c[1:]]
        return ast.EnumDecl(
            str(c[0]),
            values,
            span=span_of(meta),
            labels={v[0]: v[1] for v in c[1:] if v[1]},
            value_span=[v[2] for v in c[1:]],
        )

    def enum_value(self, meta, c):
        return (str(c[0]), _unquote(c[1]) if len(c) > 1 else "", tok_span(c[0]))

    def enum_from_decl(self, meta, c):
        return ast.EnumDecl(
            str(c[0]),
            [],
            span=span_of(meta),
            path=_unquote(c[1]),
            column=str(c[2]),
            label_column=str(c[3]) if len(c) > 3 else "",
        )

    def component_decl(self, meta, c):
        fields = [x for x in c[2:] if isinstance(x, ast.FieldDecl)]
        node = ast.ComponentDecl(str(c[0]), _unquote(c[1]), fields, span=span_of(meta))
        for x in c[2:]:
            if isinstance(x, tuple):
                if node.label:
                    raise MeepleError(f"component `{node.name}` has two `label` lines", x[2], "keep one")
                node.label, node.label_span = x[1], x[2]
        return node

    def label_decl(self, meta, c):
        return ("label", _unquote(c[0]), tok_span(c[0]))

    def label_clause(self, meta, c):
        return ("label", _unquote(c[0]))

    def field_decl(self, meta, c):
        form, type_name = c[1]
        return ast.FieldDecl(str(c[0]), type_name, form, back=len(c) > 2, span=span_of(meta))

    def on_back(self, meta, c):
        return "back"

    def plain_type(self, meta, c):
        return ("", str(c[0]))

    def shape_type(self, meta, c):
        return ("shape", str(c[0]))

    def list_type(self, meta, c):
        return ("list", str(c[0]))

    def per(self, meta, c):
        return ("per", str(c[0]))

    @staticmethod
    def _pers(rest: list) -> tuple:
        """Pop the leading `per X` clauses into a tuple of dimensions."""
        dims = []
        while rest and isinstance(rest[0], tuple) and rest[0][0] == "per":
            dims.append(rest.pop(0)[1])
        return tuple(dims)

    def zone_decl(self, meta, c):
        name = str(c[0])
        rest = list(c[1:])
        per = self._pers(rest)
        kind, of = str(rest[0]), str(rest[1])
        # `, VISIBILITY` and `, refill from ZONE` are both optional.
        says = rest.pop().text if rest and isinstance(rest[-1], Says) else ""
        label = rest.pop().text if rest and isinstance(rest[-1], ShownAs) else ""
        refill = rest.pop().zone if rest and isinstance(rest[-1], Refill) else ""
        vis = str(rest[2]) if len(rest) > 2 else ""
        return ast.ZoneDecl(name, per, kind, of, vis, refill, span=span_of(meta), label=label, says=says)

    def says(self, meta, c):
        return Says(_unquote(c[0]))

    def zone_refill(self, meta, c):
        return Refill(str(c[0]))

    def shown_as(self, meta, c):
        return ShownAs(_unquote(c[0]))

    def grid_decl(self, meta, c):
        name = str(c[0])
        rest = list(c[1:])
        per = self._pers(rest)
        rows, cols, content = int(rest[0]), int(rest[1]), str(rest[2])
        label = rest.pop(3).text if len(rest) > 3 and isinstance(rest[3], ShownAs) else ""
        return ast.GridDecl(name, per, rows, cols, content, list(rest[3:]), span=span_of(meta), label=label)

    def layout_decl(self, meta, c):
        return ast.LayoutDecl(str(c[0]), _unquote(c[1]), dict(c[2:]), span=span_of(meta))

    def legend_entry(self, meta, c):
        return (_unquote(c[0]), str(c[1]))

    def counter_kind(self, meta, c):
        return str(c[0])

    def bound(self, meta, c):
        return ("bound", str(c[0]), c[1] if len(c) > 1 else None)

    def counter_decl(self, meta, c):
        kind, name = c[0], str(c[1])
        rest = list(c[2:])
        per = self._pers(rest)
        init = rest.pop(0)
        node = ast.CounterDecl(kind, name, per, init, span=span_of(meta))
        for _, which, expr in rest:
            if which in ("label", "says"):
                setattr(node, which, _unquote(expr))
                continue
            setattr(
                node,
                {"min": "lo", "max": "hi", "secret": "secret", "quiet": "quiet"}[which],
                True if expr is None else expr,
            )
        return node

    def table_decl(self, meta, c):
        return ast.TableDecl(str(c[0]), c[1], span=span_of(meta))

    def board_decl(self, meta, c):
        return ast.BoardDecl(str(c[0]), _unquote(c[1]), span=span_of(meta))

    def function_decl(self, meta, c):
        return ast.FunctionDecl(str(c[0]), [str(t) for t in c[1:-1]], c[-1], span=span_of(meta))

    def setup_decl(self, meta, c):
        return ast.SetupDecl(c[0], span=span_of(meta))

    def phase_decl(self, meta, c):
        return ast.PhaseDecl(str(c[0]), c[1], span=span_of(meta))

    def reaction_decl(self, meta, c):
        name, p1, p2 = str(c[0]), str(c[1]), str(c[2])
        rest = list(c[3:])
        title = _unquote(rest.pop(0)) if rest and isinstance(rest[0], Token) else name.replace("_", " ")
        guard = rest.pop(0) if len(rest) == 2 else None
        return ast.ReactionDecl(name, [p1, p2], title, guard, rest[0], span=span_of(meta))

    def action_decl(self, meta, c):
        name, param = str(c[0]), str(c[1])
        rest = list(c[2:])
        interrupting = INTERRUPTING in rest
        on_request = ON_REQUEST in rest
        rest = [x for x in rest if x is not INTERRUPTING and x is not ON_REQUEST]
        title = _unquote(rest.pop(0)) if rest and isinstance(rest[0], Token) else name.replace("_", " ")
        guard = rest.pop(0) if len(rest) == 2 else None
        return ast.ActionDecl(
            name, param, title, guard, interrupting, rest[0], span=span_of(meta), on_request=on_request
        )

    def interrupting(self, meta, c):
        return INTERRUPTING

    def on_request(self, meta, c):
        return ON_REQUEST

    def window_stmt(self, meta, c):
        return ast.Window(c[0], span=span_of(meta), prompt=c[1][1] if len(c) > 1 else "")

    def moment_stmt(self, meta, c):
        return ast.Moment(c[0], span=span_of(meta))

    def outcome_decl(self, meta, c):
        guard = c[0] if not isinstance(c[0], ast.OutcomeEntry) else None
        return ast.OutcomeDecl(guard, [x for x in c if isinstance(x, ast.OutcomeEntry)], span=span_of(meta))

    def outcome_entry(self, meta, c):
        kind = str(c[0])
        if kind not in ("win", "loss"):
            raise MeepleError(
                f"an outcome is a `win` or a `loss`, not `{kind}`",
                tok_span(c[0]),
                'write `win if ...: "Victory"` or `loss: "Defeat"`',
            )
        guard = c[1] if len(c) == 3 else None
        return ast.OutcomeEntry(kind, guard, _unquote(c[-1]), span=span_of(meta))

    def effect_decl(self, meta, c):
        return ast.EffectDecl(str(c[0]), [str(t) for t in c[1:-1]], c[-1], span=span_of(meta))

    def score_decl(self, meta, c):
        label = _unquote(c[0])
        guard = c[1] if len(c) == 3 else None
        body = c[-1]
        if isinstance(body, list):
            return ast.ScoreDecl(label, guard, None, body, span=span_of(meta))
        return ast.ScoreDecl(label, guard, body, span=span_of(meta))

    def measure_decl(self, meta, c):
        label, guard, body = _unquote(c[0]), (c[1] if len(c) == 3 else None), c[-1]
        if isinstance(body, list):
            return ast.MeasureDecl(label, guard, None, body, span=span_of(meta))
        return ast.MeasureDecl(label, guard, body, span=span_of(meta))

    def hint_worth(self, meta, c):
        return (int(c[0]), int(c[1]) if len(c) > 1 else 1, span_of(meta))

    def hint_decl(self, meta, c):
        rest = list(c[1:])
        num, den, _ = rest.pop(0) if rest and isinstance(rest[0], tuple) else (1, 1, None)
        guard = rest[0] if len(rest) == 2 else None
        body = rest[-1]
        if isinstance(body, list):
            return ast.HintDecl(_unquote(c[0]), num, den, guard, None, body, span=span_of(meta))
        return ast.HintDecl(_unquote(c[0]), num, den, guard, body, span=span_of(meta))

    def tb_dir(self, meta, c):
        return str(c[0])

    def tiebreak_key(self, meta, c):
        return (c[0], c[1])

    def summary_decl(self, meta, c):
        return ast.SummaryDecl([str(t) for t in c], span=span_of(meta))

    def tiebreak_decl(self, meta, c):
        return ast.TiebreakDecl(list(c), span=span_of(meta))

    def variant_decl(self, meta, c):
        title = _unquote(c[1]) if len(c) > 1 and isinstance(c[1], Token) else ""
        items = [x for x in c[1:] if not isinstance(x, Token)]
        return ast.VariantDecl(str(c[0]), title, items, span=span_of(meta))
