"""Typed AST for .rules files: one class per grammar alias, each with a source span.
This module holds expressions; statements are in dsl/ast_stmts.py, declarations in
dsl/ast_decls.py, both re-exported here.

The parser (dsl/parser.py) builds these from the Lark tree; the checker and the
compiler read them. Nodes are plain dataclasses: cheap to build, easy to print
in tests, and never used in the hot loop (the compiler turns them into closures).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass

from meeple.dsl.errors import Span
from meeple.dsl.errors import span_field as _span


# ----------------------------------------------------------------- expressions
@dataclass
class Int:
    value: int
    span: Span = _span()


@dataclass
class Str:
    value: str
    span: Span = _span()


@dataclass
class Bool:
    value: bool
    span: Span = _span()


@dataclass
class NoneLit:
    span: Span = _span()


@dataclass
class Name:
    name: str
    span: Span = _span()


@dataclass
class ListLit:
    items: list
    span: Span = _span()


@dataclass
class TableKey:
    """A key of a lookup table: `3`, `1..3`, `5+` (5 and up), a name, or `else`."""

    kind: str  # "int" | "range" | "from" | "name" | "else"
    lo: int = 0
    hi: int = 0
    name: str = ""
    span: Span = _span()


@dataclass
class TableLit:
    entries: list  # [(TableKey, expr)]
    span: Span = _span()


@dataclass
class Ternary:
    then: Expr
    cond: Expr
    other: Expr
    span: Span = _span()


@dataclass
class BoolOp:
    op: str  # "and" | "or"
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass
class Not:
    operand: Expr
    span: Span = _span()


@dataclass
class Compare:
    op: str  # == != < > <= >= in notin
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass
class Range:
    lo: Expr
    hi: Expr
    span: Span = _span()


@dataclass
class BinOp:
    op: str  # + - * // %
    left: Expr
    right: Expr
    span: Span = _span()


@dataclass
class Neg:
    operand: Expr
    span: Span = _span()


@dataclass
class Attr:
    obj: Expr
    name: str
    span: Span = _span()


@dataclass
class Index:
    obj: Expr
    index: Expr  # one expression, or a list of them for `x[a, b]`
    span: Span = _span()


@dataclass
class Call:
    func: str
    args: list
    span: Span = _span()


@dataclass
class FieldCall:
    """`card.ability(p)`: run the effect a component's `effect` field names (only after `do`)."""

    obj: Expr
    field: str
    args: list
    span: Span = _span()


@dataclass
class Pattern:
    """A loop variable, or names unpacking a list: `[a, b]`."""

    names: list[str]
    unpack: bool = False
    span: Span = _span()


@dataclass
class Selection:
    """`each x in xs where cond`: the items of xs that pass cond."""

    pattern: Pattern
    source: Expr
    where: Expr | None = None
    span: Span = _span()


@dataclass
class Generator:
    """`expr for each x in xs where cond`: one value per selected item."""

    expr: Expr
    selection: Selection
    span: Span = _span()


Expr = (
    Int
    | Str
    | Bool
    | NoneLit
    | Name
    | ListLit
    | TableLit
    | Ternary
    | BoolOp
    | Not
    | Compare
    | Range
    | BinOp
    | Neg
    | Attr
    | Index
    | Call
    | FieldCall
    | Selection
    | Generator
)


def walk(node):
    """Every node of an expression (or a list of them), each before the nodes inside it."""
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from walk(item)
    elif is_dataclass(node):
        yield node
        for f in fields(node):
            if f.name != "span":
                yield from walk(getattr(node, f.name))


# The statements live in dsl/ast_stmts.py and the declarations in dsl/ast_decls.py; they name
# expressions only in annotations, so they import nothing from here and this module re-exports them.
from meeple.dsl.ast_decls import (  # noqa: E402,F401
    ActionDecl,
    BoardDecl,
    ComponentDecl,
    CounterDecl,
    Decl,
    EffectDecl,
    EnumDecl,
    FieldDecl,
    FunctionDecl,
    GameDecl,
    GridDecl,
    HintDecl,
    LayoutDecl,
    MeasureDecl,
    OptionDecl,
    OutcomeDecl,
    OutcomeEntry,
    ParamDecl,
    PhaseDecl,
    PlayersDecl,
    ReactionDecl,
    Ruleset,
    ScoreDecl,
    SetupDecl,
    SummaryDecl,
    TableDecl,
    TiebreakDecl,
    VariantDecl,
    ZoneDecl,
)
from meeple.dsl.ast_page import (  # noqa: E402,F401
    FaceLine,
    PageArea,
    PageColours,
    PageColumns,
    PageDecl,
    PageFace,
    PageItem,
    PageOthers,
    PagePlayer,
    PageRow,
)
from meeple.dsl.ast_stmts import (  # noqa: E402,F401
    Add,
    Assign,
    Choose,
    ChooseSome,
    Do,
    DoField,
    Draw,
    EndGame,
    For,
    If,
    Let,
    Log,
    Menu,
    MenuEntry,
    Moment,
    Move,
    MoveAll,
    Next,
    Pass,
    PassOn,
    Place,
    Quietly,
    Repeat,
    Reset,
    Shuffle,
    Simultaneous,
    Stmt,
    Together,
    While,
    Window,
    ZoneRef,
)
