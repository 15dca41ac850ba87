"""What parts of the state a score rule or hint reads, found from its text.

Bots value thousands of positions a decision (interpreter/scoring.py, `outlook`), and most of
a look's positions differ from the one before in a counter or a zone or two: a hint about the
cards in a player's hand and on the market has the same value in every position where those
two zones hold the same cards. Knowing from the text which counters, zones and grids a
rule can read lets the engine keep its value for those (interpreter/kept.py) and work it out
again only when one of them changed.

The reading is conservative: every counter, zone and grid named in the rule or in a rules'
function it calls (and in theirs); every grid when it reads a cell (a cell may come from
anywhere: a counter can hold one); what happens now where it calls `moment()`; the first
player and the number of players always. A rule
that calls a built-in that changes the state (`roll`), runs an effect,
or uses anything this reading does not know, reads "everything": its value is never kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.dsl import ast
from meeple.dsl.cell_values import CELL_ATTRS

# Built-ins whose value depends on their arguments alone (and the fixed data: boards, grid
# shapes), or on a grid named in their arguments (the grid then counts as read).
PURE = {
    "abs", "adjacent", "all", "any", "areas", "count", "last", "list", "majority", "max", "min", "next_spaces",
    "pairings", "pairs", "reach", "sort", "spaces", "subsets", "sum", "tags", "top", "unique", "next_player",
}  # fmt: skip
CELL_CALLS = {
    "above",
    "below",
    "left",
    "right",
    "cells",
    "columns",
    "rows",
    "groups",
    "neighbours",
    "fits",
    "lines",
    "in_a_row",
}


@dataclass(frozen=True)
class Reads:
    """The counters (and values) and zones a rule reads by name, whether it reads grids, and
    whether it loops or calls a rules' function (a rule that does neither costs less than
    keeping its value)."""

    counters: frozenset
    zones: frozenset
    grids: bool
    busy: bool
    moment: bool = False  # `moment()`: what happens now, a value the state keeps apart


def reads_of(rule, game) -> Reads | None:
    """What `rule` (a score or hint declaration: an expression or a block) reads; None when
    that cannot be told from the text."""
    finder = _Finder(game)
    try:
        finder.walk(rule.body if rule.body is not None else rule.expr)
    except _Unknown:
        return None
    return Reads(frozenset(finder.counters), frozenset(finder.zones), finder.grids, finder.busy, finder.moment)


class _Unknown(Exception):
    pass


class _Finder:
    def __init__(self, game):
        self.game = game
        self.counters: set = set()
        self.zones: set = set()
        self.grids = False
        self.busy = False
        self.moment = False
        self.seen: set = set()  # rules' functions already read
        g = game
        self.cell_names = (
            CELL_ATTRS | {s.content for s in g.grids.values()} | {n for s in g.grids.values() for n in s.layouts}
        )

    def walk(self, node) -> None:
        for item in ast.walk(node):
            if isinstance(item, ast.Name):
                self.name(item.name)
            elif isinstance(item, ast.Call):
                self.call(item.func)
            elif isinstance(item, ast.Attr):
                if item.name in self.cell_names and self.game.grids:
                    self.grids = True
            elif isinstance(item, ast.FieldCall):
                raise _Unknown  # runs an effect
            elif isinstance(item, (ast.Selection, ast.Generator)):
                self.busy = True

    def name(self, n: str) -> None:
        g = self.game
        if n in g.counters:
            self.counters.add(n)
        if n in g.zones:
            self.zones.add(n)
        if n in g.grids:
            self.grids = True

    def call(self, func: str) -> None:
        g = self.game
        if func in g.function_bodies:
            self.busy = True
            if func not in self.seen:
                self.seen.add(func)
                self.walk(g.function_bodies[func])
        elif func == "moment":
            self.moment = True
        elif func in CELL_CALLS:
            self.grids = bool(g.grids) or self.grids
        elif func not in PURE:
            raise _Unknown
