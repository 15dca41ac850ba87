"""Lark parse tree -> dsl.ast nodes: one method per grammar rule or alias.

Declarations are read by dsl/transformer_decls.py's Declarations, which ToAst
extends with the statements and expressions. A test checks that every alias of
dsl/meeple.lark has its method on ToAst.
"""

from __future__ import annotations

from lark import v_args

from meeple.dsl import ast
from meeple.dsl.errors import MeepleError
from meeple.dsl.transformer_decls import Declarations, _unquote, span_of
from meeple.dsl.transformer_page import PageParts

SECRET = object()  # `secret` before `choose`, while the statement is being read
# Whole numbers in rules stay well inside what people count on a table.
MAX_DIGITS = 18


@v_args(meta=True)
class ToAst(Declarations, PageParts):
    """One method per grammar rule or alias; each returns a dsl.ast node."""

    # ---- statements
    def block(self, meta, c):
        return list(c)

    def assign_stmt(self, meta, c):
        target, op, value = c
        if not isinstance(target, (ast.Name, ast.Index, ast.Attr)) or (
            isinstance(target, ast.Index) and not isinstance(target.obj, ast.Name)
        ):
            raise MeepleError(
                "only a name, `name[index]` or `cell.attribute` can be set",
                target.span,
                "write for example `round += 1` or `debt[p] = 0`",
            )
        return ast.Assign(target, str(op), value, span=span_of(meta))

    def let_stmt(self, meta, c):
        return ast.Let(str(c[0]), c[1], span=span_of(meta))

    def zone_ref(self, meta, c):
        return ast.ZoneRef(str(c[0]), list(c[1:]) or None, span=span_of(meta))

    def move_stmt(self, meta, c):
        pos = str(c[2]) if len(c) > 2 else ""
        return ast.Move(c[0], c[1], pos, span=span_of(meta))

    def move_all_stmt(self, meta, c):
        return ast.MoveAll(c[0], c[1], span=span_of(meta))

    def draw_stmt(self, meta, c):
        return ast.Draw(c[0], c[1], c[2], span=span_of(meta))

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(c[0], span=span_of(meta))

    def undoable(self, meta, c):
        return "undoable"

    def where_clause(self, meta, c):
        return ("where", c[0])

    def by_clause(self, meta, c):
        return ("by", c[0])

    def as_clause(self, meta, c):
        return ("as", str(c[0]))

    def prompt(self, meta, c):
        return ("prompt", _unquote(c[0]))

    def place_stmt(self, meta, c):
        node = ast.Place(c[0], c[1], span=span_of(meta))
        for x in c[2:]:
            if x == "undoable":
                node.undoable = True
            elif x[0] == "as":
                node.bind = x[1]
            elif x[0] == "prompt":
                node.prompt = x[1]
            else:
                node.by = x[1]
        return node

    def next_stmt(self, meta, c):
        return ast.Next(str(c[0]), span=span_of(meta))

    def end_stmt(self, meta, c):
        return ast.EndGame(span=span_of(meta))

    def do_stmt(self, meta, c):
        call = c[0]
        if isinstance(call, ast.Call):
            return ast.Do(call.func, call.args, span=span_of(meta))
        if isinstance(call, ast.FieldCall):
            return ast.DoField(call, span=span_of(meta))
        raise MeepleError(
            "`do` runs an effect: `do name(...)` or `do card.field(...)`",
            call.span,
            "write for example `do gain(player, 2)`",
        )

    def log_stmt(self, meta, c):
        return ast.Log(c[0], span=span_of(meta))

    def add_stmt(self, meta, c):
        return ast.Add(c[0], span=span_of(meta))

    def pass_stmt(self, meta, c):
        return ast.Pass(span=span_of(meta))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        other = None
        for clause in c[2:]:
            if clause[0] == "elif":
                branches.append((clause[1], clause[2]))
            else:
                other = clause[1]
        return ast.If(branches, other, span=span_of(meta))

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def pattern(self, meta, c):
        names = [str(t) for t in c]
        return ast.Pattern(names, unpack=len(names) > 1 or self._bracketed(meta, c), span=span_of(meta))

    @staticmethod
    def _bracketed(meta, c) -> bool:
        # `[a]` unpacks a one-item list; a bare name does not.
        return not getattr(meta, "empty", True) and c and meta.column != c[0].column

    def for_stmt(self, meta, c):
        pattern, source = c[0], c[1]
        where = c[2] if len(c) == 4 else None
        return ast.For(pattern, source, where, c[-1], span=span_of(meta))

    def pass_on_stmt(self, meta, c):
        return ast.PassOn(str(c[0]), span=span_of(meta))

    def choose_some_stmt(self, meta, c):
        clauses = self._clauses(c[4:])
        body = next(x for x in c[4:] if isinstance(x, list))
        return ast.ChooseSome(
            c[0],
            c[1],
            str(c[2]),
            c[3],
            clauses.get("where"),
            clauses.get("by"),
            body,
            clauses.get("otherwise"),
            clauses.get("prompt", ""),
            span=span_of(meta),
        )

    def simultaneous_stmt(self, meta, c):
        return ast.Simultaneous(str(c[0]), c[1], c[2], span=span_of(meta))

    def together_stmt(self, meta, c):
        return ast.Together(c[0], span=span_of(meta))

    def quietly_stmt(self, meta, c):
        return ast.Quietly(_unquote(c[0]) if len(c) > 1 else "", c[-1], span=span_of(meta))

    def reset_stmt(self, meta, c):
        text = _unquote(c[-1]) if len(c) > 1 and getattr(c[-1], "type", "") == "STRING" else ""
        index = [x for x in c[1:] if getattr(x, "type", "") != "STRING"]
        return ast.Reset(str(c[0]), index or None, span=span_of(meta), text=text)

    def repeat_stmt(self, meta, c):
        return ast.Repeat(c[0], c[1], span=span_of(meta))

    def while_stmt(self, meta, c):
        return ast.While(c[0], c[1], span=span_of(meta))

    def may(self, meta, c):
        return "may"

    def secret(self, meta, c):
        return SECRET

    @staticmethod
    def _clauses(parts) -> dict:
        return {p[0]: p[1] for p in parts if isinstance(p, tuple)}

    def choose_stmt(self, meta, c):
        may = c[0] == "may"
        secret = SECRET in c
        c = [x for x in c if x != "may" and x is not SECRET]
        clauses = self._clauses(c[2:])
        body = next(x for x in c[2:] if isinstance(x, list))
        return ast.Choose(
            may,
            str(c[0]),
            c[1],
            clauses.get("where"),
            clauses.get("by"),
            body,
            clauses.get("otherwise"),
            clauses.get("prompt", ""),
            secret,
            span=span_of(meta),
            label=clauses.get("label", ""),
        )

    def otherwise_clause(self, meta, c):
        return ("otherwise", c[0])

    def menu_stmt(self, meta, c):
        may = c[0] == "may"
        by = self._clauses(c).get("by")
        entries = [x for x in c if isinstance(x, ast.MenuEntry)]
        return ast.Menu(may, by, entries, self._clauses(c).get("prompt", ""), span=span_of(meta))

    def menu_entry(self, meta, c):
        guard = c[1] if len(c) == 3 else None
        return ast.MenuEntry(_unquote(c[0]), guard, c[-1], span=span_of(meta))

    # ---- expressions
    def ternary_expr(self, meta, c):
        return ast.Ternary(c[0], c[1], c[2], span=span_of(meta))

    def or_expr(self, meta, c):
        return ast.BoolOp("or", c[0], c[1], span=span_of(meta))

    def and_expr(self, meta, c):
        return ast.BoolOp("and", c[0], c[1], span=span_of(meta))

    def not_expr(self, meta, c):
        return ast.Not(c[0], span=span_of(meta))

    def compare(self, meta, c):
        return ast.Compare(str(c[1]), c[0], c[2], span=span_of(meta))

    def in_expr(self, meta, c):
        return ast.Compare("in", c[0], c[1], span=span_of(meta))

    def not_in_expr(self, meta, c):
        return ast.Compare("notin", c[0], c[1], span=span_of(meta))

    def range_lit(self, meta, c):
        return ast.Range(c[0], c[1], span=span_of(meta))

    @staticmethod  # called here in the class body, once per operator
    def _bin(op: str):
        def build(self, meta, c):
            return ast.BinOp(op, c[0], c[1], span=span_of(meta))

        return build

    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("//")
    mod = _bin("%")

    def neg(self, meta, c):
        return ast.Neg(c[0], span=span_of(meta))

    def attr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), span=span_of(meta))

    def index(self, meta, c):
        return ast.Index(c[0], c[1], span=span_of(meta))

    def multi_index(self, meta, c):
        return ast.Index(c[0], list(c[1:]), span=span_of(meta))

    def field_call(self, meta, c):
        return ast.FieldCall(c[0], str(c[1]), list(c[2:]), span=span_of(meta))

    def call(self, meta, c):
        return ast.Call(str(c[0]), list(c[1:]), span=span_of(meta))

    def selection(self, meta, c):
        where = c[2] if len(c) == 3 else None
        return ast.Selection(c[0], c[1], where, span=span_of(meta))

    def generator(self, meta, c):
        return ast.Generator(c[0], c[1], span=span_of(meta))

    def int_lit(self, meta, c):
        digits = str(c[0]).lstrip("-")
        if len(digits) > MAX_DIGITS:
            raise MeepleError(
                f"this number has {len(digits)} digits; numbers in rules have at most {MAX_DIGITS}",
                span_of(meta),
                "use a smaller number",
            )
        return ast.Int(int(c[0]), span=span_of(meta))

    def str_lit(self, meta, c):
        return ast.Str(_unquote(c[0]), span=span_of(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), span=span_of(meta))

    def true_lit(self, meta, c):
        return ast.Bool(True, span=span_of(meta))

    def false_lit(self, meta, c):
        return ast.Bool(False, span=span_of(meta))

    def none_lit(self, meta, c):
        return ast.NoneLit(span=span_of(meta))

    def list_lit(self, meta, c):
        return ast.ListLit(list(c), span=span_of(meta))

    def table_lit(self, meta, c):
        return ast.TableLit(list(c), span=span_of(meta))

    def table_entry(self, meta, c):
        return (c[0], c[1])

    def key_int(self, meta, c):
        return ast.TableKey("int", int(c[0]), span=span_of(meta))

    def key_range(self, meta, c):
        return ast.TableKey("range", int(c[0]), int(c[1]), span=span_of(meta))

    def key_from(self, meta, c):
        return ast.TableKey("from", int(c[0]), span=span_of(meta))

    def key_name(self, meta, c):
        return ast.TableKey("name", name=str(c[0]), span=span_of(meta))

    def key_else(self, meta, c):
        return ast.TableKey("else", span=span_of(meta))
