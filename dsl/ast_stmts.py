"""Typed AST for .rules files, the statements: what a block of rules does (assign, move,
draw, place, choose, menus, loops, conditions, windows for actions at any time).

Expressions are in dsl/ast.py, which also re-exports these, so the parser, checker and
compiler name every node as `ast.X`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.dsl.errors import Span
from meeple.dsl.errors import span_field as _span

if TYPE_CHECKING:  # expressions appear in annotations only: dsl/ast.py imports this module
    from meeple.dsl.ast import Attr, Expr, FieldCall, Index, Name, Pattern


# ----------------------------------------------------------------- statements
@dataclass
class ZoneRef:
    name: str
    index: list | None = None  # the index expressions of a per-player / per-value zone
    span: Span = _span()


@dataclass
class Assign:
    target: Name | Index | Attr  # an Index's obj is a Name (the transformer checks)
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
    by: Expr | None = None
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
    else_body: list | None = None
    span: Span = _span()


@dataclass
class For:
    pattern: Pattern
    source: Expr
    where: Expr | None
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
    where: Expr | None
    by: Expr | None
    body: list
    otherwise: list | None = None
    prompt: str = ""
    secret: bool = False  # the chosen option is seen by the chooser only
    span: Span = _span()
    label: str = ""  # how each option reads: a text with expressions in braces ("" = the default)


@dataclass
class MenuEntry:
    label: str
    guard: Expr | None
    body: list
    span: Span = _span()


@dataclass
class Menu:
    may: bool
    by: Expr | None
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
class Together:
    """`together:` one step of the rules: no action at any time is offered inside it."""

    body: list
    span: Span = _span()


@dataclass
class Quietly:
    """`quietly "TEXT":` bookkeeping: the block's changes stay out of what people read; TEXT is
    the one line the log says for them ("" for none)."""

    text: str
    body: list
    span: Span = _span()


@dataclass
class Reset:
    """`reset NAME` / `reset NAME[i]`: back to the starting value, told as one line."""

    name: str
    index: list | None = None
    span: Span = _span()
    text: str = ""  # the line the log says ("" = the engine's words)


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
    where: Expr | None
    by: Expr | None
    body: list
    otherwise: list | None = None
    prompt: str = ""
    span: Span = _span()


Stmt = (
    Assign
    | Let
    | Move
    | MoveAll
    | Draw
    | Shuffle
    | Place
    | Next
    | EndGame
    | Do
    | DoField
    | Log
    | Add
    | Pass
    | Window
    | Moment
    | If
    | For
    | Repeat
    | While
    | Choose
    | Menu
    | Simultaneous
    | ChooseSome
    | PassOn
    | Together
    | Quietly
    | Reset
)
