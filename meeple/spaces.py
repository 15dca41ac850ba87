"""A fixed action space for a ruleset and player count, derived from the rules, never probed.

Every value a decision can offer is of a kind the rules declare, and each kind's values are
known before any game is played; the action space is the disjoint union of these segments,
in this order (a segment is left out when the rules give it no values):

    pass      1            `may choose ...`: choosing nothing
    done      1            closing a set (`choose between`, or a set picked one item at a time)
    action    one each     an action at any time (`action NAME`), by its name
    yes/no    2            a yes-or-no option
    name      one each     a text: every component id, enum value, menu entry, reaction title,
                           board space, and text literal in the rules
    number    lo..hi       a whole number: every player (0..players-1), every whole literal
                           of the rules and every param's range, with all between
    cell      per grid     a cell of each grid at this player count (`board@4`, `board/1@12`)
    place     per grid     orientation (8: 4 turns x flip) x row x column of a placement
    line      per grid     a straight run of cells the choices' sources can make (`rows`: each
                           row, `columns`: each column, `lines(g, n)`: every run of n cells
                           across, down and along both diagonals)

A segment is there only when some choice can offer its kind: the kinds are read from each
choice's source in the rules (a zone or an enum gives names, `cells(...)` cells, `columns(...)`
runs, `[1, 2, 3]` numbers, a function what its body gives; what the rules leave open, such as a
local's value, may be any kind).

An index means the same value at every decision of every game of the ruleset at that player
count: `index(...)` and `describe(i)` translate. A decision whose options are sets of things (a
`subsets(...)` source: which cards to send) is asked one item at a time, as `choose between`
is: the legal actions are the items that still extend to some option, and `done` where the items
picked so far are an option themselves (a set that nothing extends is taken at once). The
adapters keep those items (`picked`) between steps.

A value outside the space (a number from a range whose ends are computed in play, a text made
up at run time) is a ValueError naming it: the rules would need a literal for it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from meeple.dsl.parser import parse_text
from meeple.interpreter.effects.choices import Menu
from meeple.interpreter.effects.simultaneous import Gather
from meeple.space_kinds import _kinds, _runs, _walk

ORIENTATIONS = 8  # 4 quarter turns, each plain or flipped (interpreter/boards/polyomino.py)
DIRECTIONS = ("across", "down", "down-right", "down-left")


class ActionSpace:
    """The segments of one ruleset and player count (see the module's docstring)."""

    def __init__(self, game, players: int):
        self.game, self.players = game, players
        found: dict[str, Any] = {
            "texts": [],
            "numbers": set(),
            "calls": set(),
            "bools": False,
            "places": False,
            "sets": False,
            "sources": [],
        }
        _walk(parse_text(game.source, game.path).items, found)
        texts, numbers = found["texts"], found["numbers"]
        any_kind = {"cell", "name", "number", "bool"} | found.get("runs", set())
        kinds: set = set()
        for source in found["sources"]:
            kinds |= _kinds(source, game, any_kind, set())
        if (
            any(isinstance(op.inner if isinstance(op, Gather) else op, Menu) for b in game.blocks for op in b.ops)
            or game.reactions
        ):
            kinds.add("name")
        offers: dict[str, Any] = {
            "runs": {k for k in kinds if type(k) is tuple},
            "sets": found["sets"] or "subsets" in found["calls"],
        }
        names: list = list(game.components)
        for values in game.enums.values():
            names += [v for v in values if type(v) is str]
        for block in game.blocks:
            for op in block.ops:
                inner = op.inner if isinstance(op, Gather) else op
                if isinstance(inner, Menu):
                    names += [e[0] for e in inner.entries]
        names += [r.title for r in game.reactions]
        for board in game.boards.values():
            names += list(board.order)
        names += texts
        self.names = list(dict.fromkeys(names))
        for lo, hi in game.params.values():
            numbers |= {lo, hi}
        self.lo = min(numbers | {0})
        self.hi = max(numbers | {players - 1})
        self.actions = [a.name for a in game.actions]
        self.grids = [
            (key, spec) for name, spec in game.grids.items() for key, _ in game.instance_keys(name, spec.per, players)
        ]
        self.keys = {key for key, _ in self.grids}
        self._last: tuple = (None, None)  # (a decision, its options' indices): see `plain`
        self.segments: list = []  # (kind, start, size)
        # Passing: `may choose`, a reaction window, an offer to act now (an action at any time).
        may = game.reactions or game.actions or any(getattr(op, "may", False) for b in game.blocks for op in b.ops)
        self.PASS = self._segment("pass", 1 if may else 0)
        self.DONE = self._segment("done", 1 if offers["sets"] else 0)
        self.ACT = self._segment("action", len(self.actions))
        self.YES = self._segment("yes/no", 2 if "bool" in kinds else 0)
        self.NAME = self._segment("name", len(self.names) if "name" in kinds else 0)
        self.NUMBER = self._segment("number", self.hi - self.lo + 1 if "number" in kinds else 0)
        self.cell_at, self.place_at, self.line_at = {}, {}, {}
        for key, spec in self.grids if "cell" in kinds else ():
            g = spec.geometry
            self.cell_at[key] = self._segment(f"cell {key}", g.rows * g.cols)
        for name, spec in game.grids.items() if found["places"] else ():
            g = spec.geometry
            self.place_at[name] = self._segment(f"place {name}", ORIENTATIONS * g.rows * g.cols)
        self.runs = {}  # grid key -> {(first cell, direction, length): place}: the runs a choice may offer
        for key, spec in self.grids if offers["runs"] else ():
            runs = _runs(spec.geometry, offers["runs"])
            self.runs[key] = {r: i for i, r in enumerate(runs)}
            self.line_at[key] = self._segment(f"line {key}", len(runs))
        self.size = sum(s[2] for s in self.segments)
        self.name_index = {n: self.NAME + i for i, n in enumerate(self.names)} if self.NAME >= 0 else {}
        self.act_index = {a: self.ACT + i for i, a in enumerate(self.actions)}
        self.cols = {key: spec.geometry.cols for key, spec in self.grids}
        self._place_tables: dict = {}  # grid -> {orientation: {row: {column: index}}}
        self._by_choice: dict = {}  # (the choice's line, grid) -> (its last options, their indices)
        self._runs_seen: dict = {}  # (grid, first cell, step, length) -> (index, the run's cells)

    def _segment(self, kind: str, size: int) -> int:
        """The segment's first index; -1 for a kind the rules never offer (no index is it)."""
        start = sum(s[2] for s in self.segments)
        if not size:
            return -1
        self.segments.append((kind, start, size))
        return start

    # ------------------------------------------------------------- one value
    def index(self, value, pending: dict | None = None) -> int:
        """The index of an option's value (`pending`: its decision, for a placement's grid)."""
        t = type(value)
        if t is str:
            i = self.name_index.get(value)
            if i is not None:
                return i
        elif value is None and self.PASS >= 0:
            return self.PASS
        elif t is bool and self.YES >= 0:
            return self.YES + (not value)
        elif t is int:
            if self.NUMBER >= 0 and self.lo <= value <= self.hi:
                return self.NUMBER + value - self.lo
        elif t is dict:
            if "act" in value and value["act"] in self.act_index:
                return self.act_index[value["act"]]
            if value.get("done") and self.DONE >= 0:
                return self.DONE
        elif t is list:
            if len(value) == 2 and type(value[1]) is int and value[0] in self.cell_at:
                return self.cell_at[value[0]] + value[1]
            if len(value) == 3 and all(type(v) is int for v in value) and pending and "grid" in pending:
                return self._placement(value, pending["grid"])
            if value and type(value[0]) is list and len(value[0]) == 2 and value[0][0] in self.line_at:
                return self._line(value)
        raise ValueError(
            f"option {value!r} is outside the action space of {self.game.title}: its value is not one the rules declare"
        )

    def _placements(self, options: list, key: str):
        """A placement decision's indices at once (a few hundred options a step), or None when
        some option is not a placement on the grid (then each is asked on its own)."""
        name = key.split("/", 1)[0]
        table = self._place_tables.get(name)
        if table is None:
            base = self.place_at.get(name)
            if base is None:
                return None
            g = self.game.grids[name].geometry
            rows, cols = g.rows, g.cols
            # Every placement the segment holds, by orientation, row and column: checked by looking
            # up (nested, not keyed by a tuple: no tuple to make per option, half the time).
            table = self._place_tables[name] = {
                o: {
                    r: {c: base + (o * rows + r - 1) * cols + c - 1 for c in range(1, cols + 1)}
                    for r in range(1, rows + 1)
                }
                for o in range(ORIENTATIONS)
            }
        try:
            return [table[o][r][c] for o, r, c in options]
        except (KeyError, TypeError, ValueError):  # not [orientation, row, column] on the grid
            return None

    def _placement(self, value: list, key: str) -> int:
        spec = self.game.grids[key.split("/", 1)[0]]
        rows, cols = spec.geometry.rows, spec.geometry.cols
        o, r, c = value
        if not (0 <= o < ORIENTATIONS and 1 <= r <= rows and 1 <= c <= cols):
            raise ValueError(f"placement {value!r} is outside {key}")
        return self.place_at[spec.name] + (o * rows + r - 1) * cols + c - 1

    def _line(self, cells: list) -> int:
        key, first = cells[0]
        second = cells[1] if len(cells) > 1 else None
        step = second[1] - first if type(second) is list and len(second) == 2 and type(second[1]) is int else 1
        seen = (key, first, step, len(cells))
        known = self._runs_seen.get(seen) if type(first) is int else None
        if known is None:  # a run seen for the first time: checked cell by cell, then remembered
            if type(first) is not int or not all(type(v) is list and len(v) == 2 and v[0] in self.keys for v in cells):
                raise ValueError(
                    f"option {cells!r} is outside the action space of {self.game.title}: "
                    "its value is not one the rules declare"
                )
            cols = self.cols[key]
            steps = (1, cols, cols + 1, cols - 1)
            run = (first, steps.index(step) if step in steps else -1, len(cells))
            runs = self.runs.get(key, {})
            if run not in runs or any(k != key or i != first + n * step for n, (k, i) in enumerate(cells)):
                raise ValueError(f"option {cells!r} is not a run of cells the rules offer")
            known = self._runs_seen[seen] = (self.line_at[key] + runs[run], [list(c) for c in cells])
        if cells != known[1]:  # compared in C: the same first cells, step and length, other cells
            raise ValueError(f"option {cells!r} is not a run of cells the rules offer")
        return known[0]

    def describe(self, i: int) -> str:
        """What an index means, for people: `name obj-01`, `cell board@4`, `place board o2 r3 c1`..."""
        for kind, start, size in self.segments:
            if start <= i < start + size:
                k = i - start
                if kind in ("pass", "done"):
                    return kind
                if kind == "action":
                    return f"action {self.actions[k]}"
                if kind == "yes/no":
                    return ("yes", "no")[k]
                if kind == "name":
                    return f"name {self.names[k]}"
                if kind == "number":
                    return f"number {self.lo + k}"
                key = kind.split(" ", 1)[1]
                if kind.startswith("cell"):
                    return f"cell {key}@{k}"
                if kind.startswith("place"):
                    g = self.game.grids[key].geometry
                    o, rest = divmod(k, g.rows * g.cols)
                    return f"place {key} o{o} r{rest // g.cols + 1} c{rest % g.cols + 1}"
                first, d, length = list(self.runs[key])[k]
                return f"line {key}@{first} {DIRECTIONS[d]} {length}"
        raise ValueError(f"action {i} is outside the action space (0..{self.size - 1})")

    # ------------------------------------------------------------- decisions
    def is_set(self, value) -> bool:
        """An option that is a set of things, picked one item at a time (not cells: a line)."""
        if type(value) is not list:
            return False
        if not value:
            return True
        first = value[0]
        if type(first) is list:  # a run of cells
            return False
        if len(value) == 2 and type(value[1]) is int and first in self.keys:  # a cell
            return False
        return not (len(value) == 3 and type(first) is int and type(value[1]) is int and type(value[2]) is int)

    def plain(self, pending: dict):
        """The indices of a decision's options in their order, or None when some option is a set
        (remembered for the last decision asked: a mask and then a step ask twice)."""
        last = self._last  # read once: two threads may ask at once
        if last[0] is pending:
            return last[1]
        options, index = pending["options"], self.index
        # The same choice of the rules often offers what it offered last time (a column to drop
        # into): one comparison, in C, instead of working each option out again.
        where = (pending.get("line"), pending.get("grid"))
        before = self._by_choice.get(where)
        if before is not None and before[0] == options:
            self._last = (pending, before[1])
            return before[1]
        try:
            out = self._placements(options, pending["grid"]) if "grid" in pending else self._cells(options)
            if out is None and self._runs_seen:
                out = self._known_runs(options)
            if out is None:
                out = [index(v, pending) for v in options]
        except ValueError:
            if not any(self.is_set(v) for v in options):
                raise
            out = None
        self._last = (pending, out)
        if out is not None:
            self._by_choice[where] = (options, out)  # options are never changed in place
        return out

    def _known_runs(self, options: list):
        """A decision among runs of cells seen before, at once, or None (then each is asked)."""
        seen, out = self._runs_seen, []
        for v in options:
            if type(v) is not list or len(v) < 2 or type(v[0]) is not list or type(v[1]) is not list:
                return None
            (key, first), second = v[0], v[1]
            known = seen.get((key, first, second[1] - first, len(v))) if type(second[1]) is int else None
            if known is None or v != known[1]:
                return None
            out.append(known[0])
        return out

    def _cells(self, options: list):
        """A decision among cells of grids at once (the commonest kind), or None when some
        option is not a cell (then each is asked on its own)."""
        cell_at = self.cell_at
        if not cell_at or not options or type(options[0]) is not list or len(options[0]) != 2:
            return None
        try:
            out = [cell_at[k] + i for k, i in options if type(i) is int]
        except (KeyError, TypeError, ValueError):  # not [grid, number] pairs
            return None
        return out if len(out) == len(options) else None

    def legal(self, pending: dict, picked: list) -> list[int]:
        """The legal actions of a decision, sorted, `picked` the set's items chosen so far."""
        plain = self.plain(pending)
        if plain is not None:
            return sorted(plain)  # a new list: callers may change it
        options = pending["options"]
        out = set()
        for v in options:
            if not self.is_set(v):
                if not picked:
                    out.add(self.index(v, pending))
                continue
            rest = _minus(v, picked)
            if rest is None:
                continue
            if not rest:
                out.add(self.DONE)
            for item in rest:
                out.add(self.index(item, pending))
        return sorted(out)

    def choose(self, pending: dict, picked: list, action: int):
        """(the option's place among the decision's options, []) when `action` completes one, else
        (None, the items picked so far). A ValueError when the action is not legal."""
        options = pending["options"]
        plain = self.plain(pending)
        if plain is not None:
            try:
                return plain.index(action), []
            except ValueError:
                raise ValueError(f"action {action} is not legal now") from None
        if not picked or action == self.DONE:
            for n, v in enumerate(options):
                if not self.is_set(v) and not picked and self.index(v, pending) == action:
                    return n, []
                if action == self.DONE and self.is_set(v) and _minus(v, picked) == []:
                    return n, []
        if action != self.DONE:
            now = picked + [None]
            for v in options:
                if self.is_set(v) and (rest := _minus(v, picked)):
                    item = next((x for x in rest if self.index(x, pending) == action), None)
                    if item is not None:
                        now[-1] = item
                        break
            if now[-1] is not None:
                ways = [(n, v) for n, v in enumerate(options) if self.is_set(v) and _minus(v, now) is not None]
                if len(ways) == 1 and _minus(ways[0][1], now) == []:  # nothing extends it: taken now
                    return ways[0][0], []
                return None, now
        raise ValueError(
            f"action {action} ({self.describe(action) if 0 <= action < self.size else '?'}) is not legal now"
        )

    def option_indices(self, pending: dict) -> list[tuple]:
        """Each option's actions: (index,) for a value, the sorted item indices and `done` for a set."""
        return [
            tuple(sorted(self.index(x, pending) for x in v)) + (self.DONE,)
            if self.is_set(v)
            else (self.index(v, pending),)
            for v in pending["options"]
        ]


def listed(actions: list, to: str = " to ") -> str:
    """Legal actions for an error message: `3 to 8` when they run without a gap."""
    if actions and actions == list(range(actions[0], actions[-1] + 1)):
        return f"{actions[0]}{to}{actions[-1]}"
    return ", ".join(map(str, actions[:20])) + (f" and {len(actions) - 20} more" if len(actions) > 20 else "")


def _minus(option: list, picked: list):
    """The items of `option` left once `picked` is taken out (a multiset), None when `picked` is
    not part of it."""
    if not picked:
        return list(option)
    left = Counter(option)
    left.subtract(picked)
    if any(n < 0 for n in left.values()):
        return None
    rest = []
    for x in option:
        if left[x] > 0:
            rest.append(x)
            left[x] -= 1
    return rest


def action_space(game, players: int | None = None) -> ActionSpace:
    """The action space of a meeple.Game, a shipped ruleset's name or a .rules path (players:
    the game's count, or this many)."""
    from meeple import encoding

    table = encoding.table(game, players)
    return ActionSpace(table.engine.game, table.players)
