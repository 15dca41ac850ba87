"""AST nodes of a ruleset's `layout` block: how the play table is arranged (areas, rows, one
column per value of an enum, each player's area and what the others see of it), how cards read
(their face's lines and colour) and colours per enum value. Nothing here changes play: the
compiler turns it into interpreter.page.PageLayout, which the table sends with each view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.dsl.errors import Span
from meeple.dsl.errors import span_field as _span


@dataclass
class PageItem:
    """A zone, counter, grid or board named on a row; a counter may be drawn as a track lo..hi."""

    name: str
    track: tuple | None = None  # (lo, hi)
    title: str = ""  # the words its heading says ("" = the zone's or counter's own label)
    span: Span = _span()


@dataclass
class PageRow:
    """Things drawn side by side."""

    items: list[PageItem]
    span: Span = _span()


@dataclass
class PageColumns:
    """`columns per E: a, b`: one column per value of enum E holding a[E] and b[E]."""

    per: str
    items: list[PageItem]
    title: str = ""  # each column's heading, `{E}` its value ("" = the value alone)
    span: Span = _span()


@dataclass
class PageArea:
    """`area "Title":` a shared area (things kept per player are drawn in `player:`)."""

    title: str
    rows: list
    span: Span = _span()


@dataclass
class PagePlayer:
    """`player:` each player's area, row by row."""

    rows: list
    span: Span = _span()


@dataclass
class PageOthers:
    """`others: a, b`: what the other players' areas show (the rest folds away)."""

    items: list[PageItem]
    span: Span = _span()


@dataclass
class FaceLine:
    """A line of a card's face: a field (`suit`) or words with fields in braces, shown on every
    card or (`when FIELD`) only on the cards whose FIELD is set and not zero."""

    kind: str  # "field" | "text"
    text: str
    span: Span = _span()
    when: str = ""  # the field the line depends on ("" = always shown)
    when_span: Span = _span()


@dataclass
class PageFace:
    """`face crate "{suit} crate": "costs {price}", colour suit`."""

    kind: str
    lines: list[FaceLine]
    colour: str = ""  # a field whose enum value colours the card
    title: str = ""  # the card's title, fields in braces ("" = its `name`, else its label)
    span: Span = _span()
    colour_span: Span = _span()


@dataclass
class PageColours:
    """`colours suit: gold = "#f4d35e", ...`."""

    enum: str
    colours: list  # [(value, "#rrggbb")]
    span: Span = _span()
    each_span: list = field(default_factory=list, compare=False, repr=False)  # where each pair is written


@dataclass
class PageDecl:
    """The whole `layout:` block, its entries in source order."""

    entries: list
    span: Span = _span()
