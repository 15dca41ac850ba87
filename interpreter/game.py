"""The compiled game: everything static about a ruleset, frozen after compiling.

A `Game` is what dsl.compiler produces and what the engine runs. It holds the
components and their data, zone and grid specs, the compiled blocks of ops, the
score rules, tie-breaks and the flow graph. Nothing here changes during play;
all that changes lives in the state (interpreter/state.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import networkx as nx

from meeple.dsl.errors import Span
from meeple.interpreter.boards.grid import Geometry

VISIBILITY_DEFAULTS = {"deck": "hidden", "bag": "hidden", "pile": "public", "hand": "private"}
ZONE_KINDS = tuple(VISIBILITY_DEFAULTS)
VISIBILITIES = ("public", "private", "hidden", "top")  # top: face up, only the top card shows
BOX = "box"  # the implicit zone every component starts in
KIND = "$kind"  # key of a component's kind in its data (fields may be called "kind")


@dataclass
class ZoneSpec:
    name: str
    per: tuple  # dimensions: "player", an enum, a component kind
    kind: str  # deck | bag | pile | hand
    of: str  # component kind
    visibility: str  # public | private | hidden | top (a face-up pile: the top card shows, the rest are under it)
    span: Span = field(default_factory=Span)
    refill: str = ""  # zone shuffled in when a draw finds this one short ("" = none)
    label: str = ""  # the words displays say it by; braces name what it is kept per ("{player}'s hand")
    says: str = ""  # the log's sentence for a move into it ("{player} reserves {items}"; "" = the engine's)


@dataclass
class GridSpec:
    name: str
    per: tuple
    content: str  # enum of cell contents
    geometry: Geometry
    layouts: dict  # attribute name -> tuple of values, one per cell
    span: Span = field(default_factory=Span)
    label: str = ""  # the words displays say it by; braces name what it is kept per


@dataclass
class CounterSpec:
    name: str
    per: tuple
    kind: str  # counter | flag | value
    init: object
    lo: int | None = None
    hi: int | None = None
    span: Span = field(default_factory=Span)
    secret: bool = False  # each player sees only their own
    quiet: bool = False  # bookkeeping: in the state and views, left out of displays
    player: bool = False  # a `value` that holds a player: shown as P1, P2...
    players: bool = False  # a `value` that holds a list of players (and maybe texts): P3, P2, P1
    label: str = ""  # the words displays name it by (`last round`; braces name what it is kept per:
    # "{player}'s coins"); a flag with one shows only while true
    says: str = ""  # the log's sentence for a change ("{player} scores {change}"; "" = "NAME = VALUE")


@dataclass
class Block:
    """A compiled statement list: ops run by the machine, with a name for errors."""

    name: str
    ops: list = field(default_factory=list)


@dataclass
class Reaction:
    """A compiled `reaction`: who may run it at which moment, and its block."""

    name: str
    title: str
    params: list  # [player, moment]
    guard: Callable | None  # fn(machine) with the params bound in env
    block: int
    span: Span = field(default_factory=Span)


@dataclass
class Action:
    """A compiled `action`: offered at any decision point while its test holds for the player."""

    name: str
    title: str
    param: str  # the player
    guard: Callable | None  # fn(machine) with the param bound in env
    block: int
    interrupting: bool  # also offered on other players' decisions
    span: Span = field(default_factory=Span)
    on_request: bool = False  # never among the options: the player asks for it (Decision.requests)


@dataclass
class OutcomeEntry:
    """One way a game can end for a player: a win or not, when, and the words for it."""

    win: bool
    guard: Callable | None  # fn(machine) with `player`, `score`, `place` in env; None: otherwise
    text: object  # str, or fn(machine) -> str for a text with `{...}` parts
    span: Span = field(default_factory=Span)


@dataclass
class Outcome:
    """A compiled `outcome` block: when it applies, then its entries in order."""

    guard: Callable | None
    entries: list  # [OutcomeEntry]
    span: Span = field(default_factory=Span)


@dataclass
class ScoreRule:
    label: str
    fn: Callable  # fn(machine) -> int, with env {"player": p}
    span: Span = field(default_factory=Span)
    reads: object = None  # what of the state it reads (dsl/reads.py), None if unknown


@dataclass
class HintRule:
    """A bot's hint: fn(machine) -> units of progress for env {"player": p}, each worth `weight` points."""

    label: str
    fn: Callable
    weight: float
    span: Span = field(default_factory=Span)
    reads: object = None  # what of the state it reads (dsl/reads.py), None if unknown


@dataclass
class MeasureRule:
    """A measure: fn(machine) -> a number per player (env {"player": p}), read at the game's end."""

    label: str
    fn: Callable
    span: Span = field(default_factory=Span)


@dataclass
class Game:
    title: str
    path: str
    source: str
    digest: str
    min_players: int
    max_players: int
    options: dict  # chosen option values
    option_choices: dict  # option -> (values, doc); a param's: its default and its two ends
    params: dict  # param -> (lowest, highest): options whose values are whole numbers
    variants: list  # active variant names
    variant_titles: dict  # every declared variant -> title
    enums: dict  # name -> list of values
    components: dict  # id -> {field: value, KIND: component kind}
    kinds: dict  # kind -> list of ids (data order)
    shapes: dict  # id -> normalised shape cells, for shape fields
    zones: dict  # name -> ZoneSpec
    grids: dict  # name -> GridSpec
    counters: dict  # name -> CounterSpec
    tables: dict
    blocks: list  # [Block]
    phases: dict  # name -> block index
    effects: dict  # name -> (block index, params)
    setup: int  # block index of setup (or of the first phase)
    scores: list  # [ScoreRule]
    tiebreaks: list  # [(direction, fn, span)]
    flow: nx.DiGraph = field(repr=False, default_factory=nx.DiGraph)
    boards: dict = field(default_factory=dict)  # name -> boards.graph.Board
    backs: dict = field(default_factory=dict)  # id -> what its back shows ("" if nothing)
    functions: dict = field(default_factory=dict)  # name -> [params, fn]
    function_bodies: dict = field(default_factory=dict, repr=False)  # name -> body expression (AST)
    reactions: list = field(default_factory=list)  # [Reaction], in file order
    actions: list = field(default_factory=list)  # [Action], in file order (empty: no cost at all)
    interrupting: tuple = ()  # the names of the interrupting actions
    hints: list = field(default_factory=list)  # [HintRule]: for bots only, never in a score
    measures: list = field(default_factory=list)  # [MeasureRule]: for the lab's reports, never in a score
    labels: dict = field(default_factory=dict)  # component id -> how it reads (kinds with a `label`)
    outcomes: list = field(default_factory=list)  # [Outcome], in file order
    summary: tuple | None = None  # `summary: ...`: the counters and zones said before each decision
    player_locals: frozenset = frozenset()  # local names that always hold a player (texts read P2)
    page: dict | None = None  # the table's declared layout (dsl/compile_page.py); None: the generic page
    cache: dict = field(default_factory=dict, repr=False)  # derived facts computed once (lines of a grid)

    def option_value(self, name: str):
        """An option's value as the rules read it: a name, or a param's whole number."""
        value = self.options[name]
        return int(value) if name in self.params else value

    def dimension(self, dim: str, players: int) -> list:
        """The index values of one `per` dimension."""
        if dim == "player":
            return list(range(players))
        if dim in self.enums:
            return list(self.enums[dim])
        return list(self.kinds[dim])

    def zone_keys(self, spec: ZoneSpec, players: int) -> list[str]:
        return [key for key, _ in self.instance_keys(spec.name, spec.per, players)]

    def instance_keys(self, name: str, per: tuple, players: int) -> list[tuple[str, object]]:
        """(key, owner) for every instance of a thing kept per player / per value; owner None if shared."""
        keys: list[tuple[str, object]] = [(name, None)]
        for dim in per:
            keys = [
                (f"{key}/{value}", value if dim == "player" else owner)
                for key, owner in keys
                for value in self.dimension(dim, players)
            ]
        return keys
