"""A seat's tensor brought up to date from what the last one read: meeple.tensors's fast way.

`TensorEncoder.seat_tensor` keeps memos of the blocks it made and of what it read to make them:
the zones' items, the grids' cells and pieces, the counters' values. The next call compares the
state with that, part by part, and encodes again only the blocks that differ. Most of a tensor
reads alike for every seat (the grids, the public zones, a zone hidden from everyone, the
counters): those blocks are kept once (the shared memo), so that what a decision changed is
encoded once and not once per seat; a seat's own memo holds the rest (a zone only some seats see
into, another's secret counter), and the head (seat, turn, phase, decision, items picked) is
made once for each thing it can show. The tensor handed out is the shared blocks with the
seat's own and its head written over them.

The comparisons are made in C, a whole part at a time (every zone's items at once; a grid's
cells at once), so that a step which changed a cell and a counter costs a few of them and a
handful of writes, whatever the size of the tensor. The state may be any state, not the one
after the last (an earlier one, another game's): only contents are compared, never a step
number. What a seat may not see is read as its view would show it (state.seen_zone for a zone
hidden from it), without making the view; another's secret counter, or another's `#held/`
record of an action at any time, reads the same in every state (hidden, absent), so it is
written once. Single numbers are written through a memoryview of the tensor: numpy's own item
writes cost twice as much.
"""

from __future__ import annotations

from itertools import compress
from operator import is_not, itemgetter, ne

import numpy as np

from meeple.interpreter.state import HELD_PREFIX, HIDDEN, can_see, may_see_var, seen_zone

_UNREAD = object()  # what a memo holds before its first read: equal to nothing


def seat_parts(enc, players: int) -> tuple[list[int], list[int]]:
    """The zones (their places in enc.zones) and counters (in enc.counters) that read
    differently for different seats: a zone some seats see into and others do not, a secret
    counter, a `#held/` record."""
    game = enc.game
    zones = [n for n, (key, _, _) in enumerate(enc.zones) if len({can_see(game, key, s) for s in range(players)}) > 1]
    held = {f"{HELD_PREFIX}{name}/{q}" for name in game.interrupting for q in range(players)}
    counters = [
        n
        for n, entry in enumerate(enc.counters)
        if entry[0] in held or len({may_see_var(game, entry[0], s) for s in range(players)}) > 1
    ]
    return zones, counters


class Memo:
    """What some blocks of a tensor last read, with the tensor they are written in: the blocks
    every seat reads alike (`seat` None), or one seat's own."""

    def __init__(self, enc, seat: int | None):
        game = enc.game
        self.seat = seat
        self.base = np.zeros(enc.size, np.float32)  # the blocks as last made (zeros elsewhere)
        self.mv = self.base.data
        own_zones, own_counters = enc.seat_zones, enc.seat_counters
        if seat is None:
            zones = [n for n in range(len(enc.zones)) if n not in own_zones]
            counters = [n for n in range(len(enc.counters)) if n not in own_counters]
        else:
            zones, counters = own_zones, own_counters
        self.grids = seat is None
        self.zone_keys = [enc.zones[n][0] for n in zones]
        self.zone_blocks = [enc.zones[n] for n in zones]
        self.zones: tuple = (_UNREAD,) * len(zones)  # copies of the zones' items
        self.zone_get = _getter(self.zone_keys)
        # Seen into (fixed by the rules; a zone every seat sees alike is read as seat 0's).
        self.visible = [can_see(game, enc.zones[n][0], seat or 0) for n in zones]
        self.blind = [_blind(game, enc.zones[n][0], seen) for n, seen in zip(zones, self.visible)]
        width = 2 + len(enc.backs)
        self.zone_ends = [at + width + len(slots) for _, at, slots in self.zone_blocks]
        self.cells: list = [None] * len(enc.grids)  # copies of the grids' cells
        self.slots: list = [None] * len(enc.grids)  # per grid, the place of each cell's 1
        self.rows = [[at + i * (len(codes) + 1) for i in range(cells)] for _, at, codes, cells, _ in enc.grids]
        self.pieces: list = [None] * len(enc.grids)
        self.zero = enc._zero
        # The counters read here; those another seat holds read the same in every state.
        held = {f"{HELD_PREFIX}{name}/{q}" for name in game.interrupting for q in range(enc.players) if q != seat}
        self.counters = []
        for n in counters:
            entry = enc.counters[n]
            if seat is not None and entry[0] in held:  # popped from its view (state.seen_vars)
                enc._counter(self.mv, None, *entry[1:])
            elif seat is not None and not may_see_var(game, entry[0], seat):
                enc._counter(self.mv, HIDDEN, *entry[1:])
            else:
                self.counters.append(entry)
        self.counter_keys = [entry[0] for entry in self.counters]
        self.values: tuple = (_UNREAD,) * len(self.counters)
        self.counter_get = _getter(self.counter_keys)


def _getter(keys: list):
    """The values of these keys of a dict as a tuple, in C (a KeyError when one is missing)."""
    if len(keys) == 1:  # (itemgetter of one key gives the value itself, not a tuple)
        key = keys[0]
        return lambda values: (values[key],)
    return itemgetter(*keys) if keys else None


def bring_up_to_date(enc, memo: Memo, state: dict) -> None:
    """Make the memo's blocks those of `state` (see the module's docstring)."""
    mv = memo.mv
    if memo.zone_keys:
        zones = state["zones"]
        try:
            now = memo.zone_get(zones)
        except KeyError:  # a zone gone: read as empty
            now = tuple(map(zones.get, memo.zone_keys))
        if now != memo.zones:  # every zone at once, item by item, in C
            _zones(enc, memo, now)
    if memo.grids:
        grids = state["grids"]
        for n, (key, at, codes, cells, pieces) in enumerate(enc.grids):
            grid = grids.get(key)
            if grid is None:
                _grid(enc, memo, n, [], [])
                continue
            now, was = grid["cells"], memo.cells[n]
            if now != was:  # the cells that changed, found in C
                if was is None or len(was) != len(now) or len(now) > cells:
                    _grid(enc, memo, n, now, grid["pieces"])
                    continue
                rows, other = memo.rows[n], len(codes)
                for i in compress(range(len(now)), map(is_not, now, was)):
                    c = was[i] = now[i]
                    mv[memo.slots[n][i]] = 0
                    mv[slot := rows[i] + codes.get(c, other)] = 1
                    memo.slots[n][i] = slot
            if grid["pieces"] != memo.pieces[n]:
                _pieces(memo, n, grid["pieces"], at + cells * (len(codes) + 1), pieces)
    if memo.counter_keys:
        try:
            values = memo.counter_get(state["vars"])
        except KeyError:  # a counter gone: read as None
            values = tuple(map(state["vars"].get, memo.counter_keys))
        if any(map(is_not, values, memo.values)):
            _counters(enc, memo, values)


def _zones(enc, memo: Memo, now: tuple) -> None:
    """The blocks of the zones whose items changed."""
    mv, saved, blind = memo.mv, list(memo.zones), memo.blind
    for n in compress(range(len(memo.zone_keys)), map(ne, now, saved)):
        items = now[n]
        saved[n] = items[:] if items is not None else None
        if blind[n]:  # only its size shows, every item a back that says nothing
            at = memo.zone_blocks[n][1]
            mv[at] = mv[at + 1] = len(items) if items is not None else 0
        else:
            _zone(enc, memo, n, items or [])
    memo.zones = tuple(saved)


def _counters(enc, memo: Memo, values: tuple) -> None:
    """The blocks of the counters whose values changed."""
    read, mv = list(memo.values), memo.mv
    for n in compress(range(len(memo.counter_keys)), map(is_not, values, read)):
        # Counter values are never changed in place (a state's copy shares them): the same
        # object is the same value; an equal one of the same type too (1 and True differ).
        v, was = values[n], read[n]
        read[n] = v
        if type(v) is type(was) and type(v) is not list and v == was:
            continue
        enc._counter(mv, v, *memo.counters[n][1:])
    memo.values = tuple(read)


def _grid(enc, memo: Memo, n: int, now: list, placed: list) -> None:
    """Grid `n`'s block written again: each cell one-hot (a grid missing: no cell, no piece)."""
    key, at, codes, cells, pieces = enc.grids[n]
    mv, width, rows = memo.mv, len(codes) + 1, memo.rows[n]
    now = now[:cells]
    mv[at : at + cells * width] = enc._zero[: cells * width]
    slots = memo.slots[n] = [rows[i] + codes.get(c, width - 1) for i, c in enumerate(now)]
    for slot in slots:
        mv[slot] = 1
    memo.cells[n] = now
    if placed != memo.pieces[n]:
        _pieces(memo, n, placed, at + cells * width, pieces)


def _pieces(memo: Memo, n: int, placed: list, start: int, pieces: dict) -> None:
    """Which shaped components lie on grid `n`."""
    mv, had = memo.mv, memo.pieces[n]
    if had is not None and len(had) < len(placed) and placed[: len(had)] == had:
        new = placed[len(had) :]  # pieces laid since, the others where they were (the commonest)
    else:
        mv[start : start + len(pieces)] = memo.zero[: len(pieces)]
        new = placed
    for p in new:
        if p[0] in pieces:
            mv[pieces[p[0]]] = 1
    memo.pieces[n] = placed[:]


def _blind(game, key: str, visible: bool) -> bool:
    """Does a seat see nothing of the zone but its size (state.seen_zone: every item a back
    that shows nothing)?"""
    if visible:
        return False
    spec = game.zones.get(key.split("/", 1)[0])
    if spec is not None and spec.visibility == "top":
        return False
    return not game.backs or (spec.kind if spec is not None else "bag") == "bag"


def _zone(enc, memo: Memo, n: int, items: list) -> None:
    """The memo's `n`th zone's block written again: its size, its backs, its count per component."""
    key, at, slots = memo.zone_blocks[n]
    mv, end = memo.mv, memo.zone_ends[n]
    mv[at:end] = enc._zero[: end - at]
    if not memo.visible[n]:
        items = seen_zone(enc.game, key, items, memo.seat)
    mv[at] = len(items)
    found = list(map(slots.get, items))
    if None in found:  # items not of the zone's kind: backs, counted by what they show
        odd = [item for item, slot in zip(items, found) if slot is None]
        hidden = 0
        for item in set(odd):
            if type(item) is str and item.startswith(HIDDEN):
                k = odd.count(item)
                hidden += k
                back = enc.backs.get(item[1:])
                if back is not None:
                    mv[at + 2 + back] += k
        mv[at + 1] = hidden
    for slot in found:
        if slot is not None:
            mv[slot] += 1
