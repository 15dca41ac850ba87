"""Typed AST for .rules files: one class per grammar alias, each with a source span.
This module holds expressions and statements; declarations are in dsl/ast_decls.py.

The parser (dsl/parser.py) builds these from the Lark tree; the checker and the
compiler read them. Nodes are plain dataclasses: cheap to build, easy to print
in tests, and never used in the hot loop (the compiler turns them into closures).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from meeple.dsl.errors import Span

NOSPAN = Span()


def _span() -> Span:
    return field(default=NOSPAN, kw_only=True, compare=False, repr=False)


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
    then: "Expr"
    cond: "Expr"
    other: "Expr"
    span: Span = _span()


@dataclass
class BoolOp:
    op: str  # "and" | "or"
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@dataclass
class Not:
    operand: "Expr"
    span: Span = _span()


@dataclass
class Compare:
    op: str  # == != < > <= >= in notin
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@dataclass
class Range:
    lo: "Expr"
    hi: "Expr"
    span: Span = _span()


@dataclass
class BinOp:
    op: str  # + - * // %
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@dataclass
class Neg:
    operand: "Expr"
    span: Span = _span()


@dataclass
class Attr:
    obj: "Expr"
    name: str
    span: Span = _span()


@dataclass
class Index:
    obj: "Expr"
    index: "Expr"  # one expression, or a list of them for `x[a, b]`
    span: Span = _span()


@dataclass
class Call:
    func: str
    args: list
    span: Span = _span()


@dataclass
class FieldCall:
    """`card.ability(p)`: run the effect a component's `effect` field names (only after `do`)."""

    obj: "Expr"
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
    source: "Expr"
    where: Optional["Expr"] = None
    span: Span = _span()


@dataclass
class Generator:
    """`expr for each x in xs where cond`: one value per selected item."""

    expr: "Expr"
    selection: Selection
    span: Span = _span()


Expr = Union[Int, Str, Bool, NoneLit, Name, ListLit, TableLit, Ternary, BoolOp, Not, Compare,
             Range, BinOp, Neg, Attr, Index, Call, FieldCall, Selection, Generator]


# ----------------------------------------------------------------- statements
@dataclass
class ZoneRef:
    name: str
    index: Optional[list] = None  # the index expressions of a per-player / per-value zone
    span: Span = _span()


@dataclass
class Assign:
    target: Expr  # Name, Index or Attr
    op: str  # = += -=
    value: Expr
    span: Span = _span()


@dataclass
class Let:
    name: str
    value: Expr
    span: Span = _span()


@dataclass
class Move:
    what: Expr
    to: ZoneRef
    position: str = ""  # "" | top | bottom
    span: Span = _span()


@dataclass
class MoveAll:
    source: ZoneRef
    to: ZoneRef
    span: Span = _span()


@dataclass
class Draw:
    count: Expr
    source: ZoneRef
    to: ZoneRef
    span: Span = _span()


@dataclass
class Shuffle:
    zone: ZoneRef
    span: Span = _span()


@dataclass
class Place:
    piece: Expr
    grid: Expr
    by: Optional[Expr] = None
    bind: str = ""
    undoable: bool = False
    prompt: str = ""  # what a person is asked; the rules line if empty
    span: Span = _span()


@dataclass
class Next:
    phase: str
    span: Span = _span()


@dataclass
class EndGame:
    span: Span = _span()


@dataclass
class Do:
    effect: str
    args: list
    span: Span = _span()


@dataclass
class DoField:
    """`do card.ability(p)`: the effect named by the component's field, caller's args first."""

    call: FieldCall
    span: Span = _span()


@dataclass
class Log:
    text: Expr  # usually a quoted text; any value is shown as text
    span: Span = _span()


@dataclass
class Add:
    value: Expr
    span: Span = _span()


@dataclass
class Pass:
    span: Span = _span()


@dataclass
class Moment:
    """`moment name`: what happens now, and a point where interrupting actions are offered afresh."""

    name: Expr
    span: Span = _span()


@dataclass
class Window:
    """`window moment`: each player in turn order may run one reaction that applies."""

    moment: Expr
    span: Span = _span()
    prompt: str = ""  # what each player is asked; "React at ...?" if empty


@dataclass
class If:
    branches: list  # [(cond, body)]
    else_body: Optional[list] = None
    span: Span = _span()


@dataclass
class For:
    pattern: Pattern
    source: Expr
    where: Optional[Expr]
    body: list
    span: Span = _span()


@dataclass
class Repeat:
    count: Expr
    body: list
    span: Span = _span()


@dataclass
class While:
    cond: Expr
    body: list
    span: Span = _span()


@dataclass
class Choose:
    may: bool
    var: str
    source: Expr
    where: Optional[Expr]
    by: Optional[Expr]
    body: list
    otherwise: Optional[list] = None
    prompt: str = ""
    secret: bool = False  # the chosen option is seen by the chooser only
    span: Span = _span()
    label: str = ""  # how each option reads: a text with expressions in braces ("" = the default)


@dataclass
class MenuEntry:
    label: str
    guard: Optional[Expr]
    body: list
    span: Span = _span()


@dataclass
class Menu:
    may: bool
    by: Optional[Expr]
    entries: list
    prompt: str = ""
    span: Span = _span()


@dataclass
class Simultaneous:
    """`simultaneously for each p in LIST:` a choice each listed player makes unseen; the block
    (which starts with the choice) runs for each of them once all have chosen."""

    var: str
    source: Expr
    body: list
    span: Span = _span()


@dataclass
class PassOn:
    """`pass ZONE to next`: each player's zone goes, whole, to the next player."""

    zone: str
    span: Span = _span()


@dataclass
class ChooseSome:
    """`choose between LO and HI NAME from LIST:` a set of items picked one at a time."""

    lo: Expr
    hi: Expr
    var: str
    source: Expr
    where: Optional[Expr]
    by: Optional[Expr]
    body: list
    otherwise: Optional[list] = None
    prompt: str = ""
    span: Span = _span()


Stmt = Union[Assign, Let, Move, MoveAll, Draw, Shuffle, Place, Next, EndGame, Do, DoField, Log, Add,
             Pass, Window, Moment, If, For, Repeat, While, Choose, Menu, Simultaneous, ChooseSome, PassOn]


# The declarations live in dsl/ast_decls.py (imported last: they use Expr and _span above).
from meeple.dsl.ast_decls import (  # noqa: E402,F401
    GameDecl, PlayersDecl, OptionDecl, EnumDecl, FieldDecl, ComponentDecl, ZoneDecl, LayoutDecl,
    GridDecl, CounterDecl, TableDecl, BoardDecl, FunctionDecl, SetupDecl, PhaseDecl, EffectDecl,
    ReactionDecl, ActionDecl, ScoreDecl, HintDecl, TiebreakDecl, VariantDecl, OutcomeEntry,
    OutcomeDecl, Ruleset, Decl,
)
