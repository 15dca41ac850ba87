"""Typed AST for .rules files, the declarations: the game's header, components, zones,
counters, the flow's phases and effects, scores, variants, outcomes, and the whole Ruleset.

Expressions and statements are in dsl/ast.py, which also re-exports these, so the
parser, checker and compiler name every node as `ast.X`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from meeple.dsl.errors import Span
from meeple.dsl.errors import span_field as _span

if TYPE_CHECKING:  # expressions appear in annotations only: dsl/ast.py imports this module
    from meeple.dsl.ast import Expr, TableLit


# ----------------------------------------------------------------- declarations
@dataclass
class GameDecl:
    title: str
    span: Span = _span()


@dataclass
class PlayersDecl:
    lo: int
    hi: int
    span: Span = _span()


@dataclass
class OptionDecl:
    name: str
    values: list[str]
    doc: str = ""
    span: Span = _span()


@dataclass
class ParamDecl:
    """A number the rules read by name (`mana_cost`), `default` unless an option sets it: `lo`..`hi`."""

    name: str
    default: int
    lo: int
    hi: int
    doc: str = ""
    span: Span = _span()


@dataclass
class EnumDecl:
    name: str
    values: list[str]
    span: Span = _span()
    labels: dict = field(default_factory=dict)  # value -> the words people read it by
    value_span: list = field(default_factory=list, repr=False, compare=False)  # where each value is (errors)
    path: str = ""  # `enum kind from "cards.csv" column kind`: the data file, its column, the labels' column
    column: str = ""
    label_column: str = ""


@dataclass
class FieldDecl:
    name: str
    type: str  # "int" | "text" | "effect" | an enum name
    form: str = ""  # "" | "shape" (a polyomino of enum values) | "list" (several enum values)
    back: bool = False  # printed on the back: visible while the component is hidden
    span: Span = _span()


@dataclass
class ComponentDecl:
    name: str
    path: str
    fields: list[FieldDecl]
    span: Span = _span()
    label: str = ""  # how one reads to people: a text with fields in braces ("" = id and fields)
    label_span: Span = _span()


@dataclass
class ZoneDecl:
    name: str
    per: tuple  # () or dimensions: "player", an enum name, a component kind
    kind: str  # deck | bag | pile | hand
    of: str  # component name
    visibility: str = ""  # public | private | hidden ("" = the kind's default)
    refill: str = ""  # a zone whose contents are shuffled in when a draw runs out
    span: Span = _span()
    label: str = ""  # the words displays say it by; braces name what it is kept per
    says: str = ""  # the sentence the log says for a move into it ("" = the engine's words)


@dataclass
class LayoutDecl:
    attr: str
    path: str
    legend: dict  # character -> value name
    span: Span = _span()


@dataclass
class GridDecl:
    name: str
    per: tuple
    rows: int
    cols: int
    content: str  # enum name of what a cell holds
    layouts: list[LayoutDecl]
    span: Span = _span()
    label: str = ""  # the words displays say it by; braces name what it is kept per


@dataclass
class CounterDecl:
    kind: str  # counter | flag | value
    name: str
    per: tuple
    init: Expr
    lo: Expr | None = None
    hi: Expr | None = None
    secret: bool = False  # kept per player and seen by that player only
    span: Span = _span()
    quiet: bool = False  # bookkeeping: kept in the state, left out of displays
    label: str = ""  # the words displays name it by; a flag with one shows only while true
    says: str = ""  # the sentence the log says for a change ("" = "NAME = VALUE")


@dataclass
class TableDecl:
    name: str
    table: TableLit
    span: Span = _span()


@dataclass
class BoardDecl:
    name: str
    path: str
    span: Span = _span()


@dataclass
class FunctionDecl:
    name: str
    params: list[str]
    expr: Expr
    span: Span = _span()


@dataclass
class SetupDecl:
    body: list
    span: Span = _span()


@dataclass
class PhaseDecl:
    name: str
    body: list
    span: Span = _span()


@dataclass
class EffectDecl:
    name: str
    params: list[str]
    body: list
    span: Span = _span()


@dataclass
class ReactionDecl:
    """Something a player may do out of turn when a `window` opens: (player, moment)."""

    name: str
    params: list[str]
    title: str
    guard: Expr | None
    body: list
    span: Span = _span()


@dataclass
class ActionDecl:
    """Something a player may do at any decision point while its test holds (docs/language.md)."""

    name: str
    param: str
    title: str
    guard: Expr | None
    interrupting: bool
    body: list
    span: Span = _span()
    on_request: bool = False  # never among the options: the player asks for it


@dataclass
class ScoreDecl:
    label: str
    guard: Expr | None
    expr: Expr | None
    body: list | None = None
    span: Span = _span()


@dataclass
class HintDecl:
    """A bot's hint: per player, progress the score does not count yet, worth `num/den` points a unit."""

    label: str
    num: int
    den: int
    guard: Expr | None
    expr: Expr | None
    body: list | None = None
    span: Span = _span()


@dataclass
class TiebreakDecl:
    keys: list  # [("most"|"fewest", expr)]
    span: Span = _span()


@dataclass
class VariantDecl:
    name: str
    title: str
    items: list
    span: Span = _span()


@dataclass
class OutcomeEntry:
    """`win if score >= 30: "Victory, {score} to 30"`: one way the game can end for a player."""

    kind: str  # win | loss
    guard: Expr | None
    text: str
    span: Span = _span()


@dataclass
class MeasureDecl:
    """What the lab counts per player at the game's end (a card played, a goal reached); never scored."""

    label: str
    guard: Expr | None
    expr: Expr | None
    body: list | None = None
    span: Span = _span()


@dataclass
class OutcomeDecl:
    """`outcome if players == 1:` how a solo or cooperative game ends; the first entry that holds."""

    guard: Expr | None
    entries: list[OutcomeEntry]
    span: Span = _span()


@dataclass
class SummaryDecl:
    """`summary: bid, tricks, trick`: what the summary before each decision shows besides your own
    things (every player's instance of each, as the reader may see it)."""

    names: list[str]
    span: Span = _span()


Decl = (
    GameDecl
    | PlayersDecl
    | OptionDecl
    | ParamDecl
    | EnumDecl
    | ComponentDecl
    | ZoneDecl
    | GridDecl
    | CounterDecl
    | TableDecl
    | BoardDecl
    | FunctionDecl
    | SetupDecl
    | PhaseDecl
    | EffectDecl
    | ReactionDecl
    | ActionDecl
    | ScoreDecl
    | HintDecl
    | MeasureDecl
    | TiebreakDecl
    | VariantDecl
    | OutcomeDecl
    | SummaryDecl
)


@dataclass
class Ruleset:
    """A whole parsed file: its declarations in source order, and where it came from."""

    items: list
    path: str = ""
    source: str = ""

    def of(self, cls) -> list:
        return [item for item in self.items if isinstance(item, cls)]
