"""A seat's view as a complete tensor whose shape the rules fix: what the adapters observe.

Read from `engine.view(state, seat)` only, so it holds nothing the seat may not see. In order:

    seat          one-hot over the players
    turn          one-hot: whose decision it is (none at the end)
    phase         one-hot over the rules' phases
    decision      one-hot over the rules' choices (their lines), when the seat is the one asked
    picking       the items of a set picked so far (meeple.spaces), one slot per name
    zones         per zone: its size, how many of its items the seat sees only the back of (and
                  per back text, how many show it), and a count per component of the zone's
                  kind: the seat's own hidden zones are in it, others' are sizes and backs
    grids         per grid: each cell one-hot over the grid's contents (empty first, then the
                  content enum's values, then "other"), and which shaped components lie on it
    counters      per counter: its value (a number divided by the larger end of its declared
                  range, where it has one; a yes/no as 0 or 1), and for a `value` counter a
                  one-hot over the path boards' spaces (a position) and over the players;
                  a secret counter another seat holds reads 0 with a 1 in its own slot

The layout is computed from the rules and the player count (the counter keys from the start, as
every key is there from the start). What it leaves out: the order of items in a zone (a deck's
order is hidden anyway; a row laid face up reads as its contents) and the locals of the rules'
running blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import get_ident

from meeple.interpreter.extras import need

need("research", "meeple.tensors", "numpy")

import numpy as np  # noqa: E402

from meeple.interpreter.state import HIDDEN  # noqa: E402
from meeple.tensor_memo import Memo, bring_up_to_date, seat_parts  # noqa: E402

BOUND = 2.0**31


class TensorEncoder:
    """The layout for one ruleset and player count (see the module's docstring)."""

    def __init__(self, engine, players: int, space=None):
        g = engine.game
        self.game, self.players = g, players
        start, _ = engine.start(players, 0)
        size = 0

        def block(n: int) -> int:
            nonlocal size
            size += n
            return size - n

        self.SEAT, self.TURN = block(players), block(players)
        self.phases = {p: i for i, p in enumerate(g.phases)}
        self.PHASE = block(len(self.phases))
        lines = sorted(
            {op.span.line for b in g.blocks for op in b.ops if hasattr(op, "take") and getattr(op, "span", None)}
        )
        self.lines = {line: i for i, line in enumerate(lines)}
        self.DECISION = block(len(lines) + 1)  # the last: a decision at another line (an action's)
        self.names = {n: i for i, n in enumerate(space.names)} if space is not None and space.DONE >= 0 else {}
        self.PICKING = block(len(self.names))
        self.HEAD = size  # the head's blocks: seat, turn, phase, decision, picking
        self.backs = {b: i for i, b in enumerate(sorted({b for b in g.backs.values() if b}))}
        self.zones = []  # (key, start, {component: slot})
        for key in sorted(start["zones"]):
            spec = g.zones.get(key.split("/", 1)[0])
            members = g.kinds.get(spec.of, ()) if spec is not None else g.components
            at = block(2 + len(self.backs) + len(members))
            self.zones.append((key, at, {c: at + 2 + len(self.backs) + i for i, c in enumerate(members)}))
        self.grids = []  # (key, start, {content: slot}, cells, {piece: slot})
        shaped = [c for c in g.components if c in g.shapes]
        for key in sorted(start["grids"]):
            spec = g.grids[key.split("/", 1)[0]]
            values = list(g.enums.get(spec.content, ()))
            codes = {None: 0, **{v: i + 1 for i, v in enumerate(values)}}
            cells = len(start["grids"][key]["cells"])
            at = block(cells * (len(values) + 2) + len(shaped))
            self.grids.append(
                (key, at, codes, cells, {c: at + cells * (len(values) + 2) + i for i, c in enumerate(shaped)})
            )
        self.spaces = {s: i for i, s in enumerate(dict.fromkeys(s for b in g.boards.values() for s in b.order))}
        self.vocab = {
            w: i + 1
            for i, w in enumerate(
                dict.fromkeys(
                    list(space.names if space is not None else [])
                    + list(g.components)
                    + [v for vs in g.enums.values() for v in vs if type(v) is str]
                    + list(g.phases)
                    + list(self.spaces)
                )
            )
        }
        self.counters = []  # (key, start, scale, value?, secret?)
        for key in sorted(start["vars"]):
            spec = g.counters.get(key.split("/", 1)[0])
            ends = [abs(e) for e in (getattr(spec, "lo", None), getattr(spec, "hi", None)) if e]
            value = spec is not None and spec.kind == "value"
            secret = bool(spec is not None and spec.secret)
            at = block(1 + secret + ((len(self.spaces) + players) if value else 0))
            self.counters.append((key, at, float(max(ends)) if ends else 1.0, value, secret))
        self.size = size
        self.zone_keys = [key for key, _, _ in self.zones]
        # Nothing is ever hidden from anyone (public zones only, nothing in the box, no secret
        # counter, no private offer to act): a seat's tensor can be read off the state itself,
        # without making its view (a copy), and is the same.
        self.needs_view = (
            any(z.visibility != "public" for z in g.zones.values())
            or bool(start["zones"].get("box"))
            or any(c.secret for c in g.counters.values())
            or bool(g.interrupting)
            or any(getattr(op, "secret", False) for b in g.blocks for op in b.ops)
        )

        self._memos: dict = {}  # thread -> {seat or None: its Memo} (see seat_tensor)
        self.seat_zones, self.seat_counters = seat_parts(self, players)
        self.seat_blocks = bool(self.seat_zones or self.seat_counters)
        self._heads: dict = {}  # (seat, phase, whose decision, its line, items picked) -> the head's numbers
        self._zero = np.zeros(size, np.float32).data  # zeros to write over a block with

    def seat_tensor(self, engine, state: dict, seat: int, picked: Sequence = ()) -> np.ndarray:
        """The tensor of `seat` for a state of the game: `encode(engine.view(state, seat), seat,
        picked)`, made faster. The view is not made, and only what differs from what the last
        tensor read is encoded again (meeple.tensor_memo)."""
        memos = self._memos.get(get_ident())  # per thread: two threads may encode at once
        if memos is None:
            memos = self._memos[get_ident()] = {None: Memo(self, None)}
        shared = memos[None]
        bring_up_to_date(self, shared, state)
        if self.seat_blocks:  # blocks of its own beyond the head, in its memo: apart from the shared
            own = memos.get(seat)
            if own is None:
                own = memos[seat] = Memo(self, seat)
            bring_up_to_date(self, own, state)
            out = np.add(shared.base, own.base)
        else:
            out = shared.base.copy()
        # The head: made once for each thing it can show (a few a game).
        pending, over = state["pending"], state["over"]
        actor = line = None
        if pending is not None and not over:
            actor = pending["actor"]
            if actor == seat:
                line = pending.get("line", 0)
            elif pending.get("interrupt"):
                pending = actor = None  # another's offer to act now is not seen (state.seen_pending)
        key = (seat, state["phase"], actor, line, tuple(picked) if picked else ())
        head = self._heads.get(key)
        if head is None:
            if len(self._heads) >= 4096:  # bounded: a set of items picked in many ways
                self._heads.clear()
            head = self._heads[key] = np.zeros(self.HEAD, np.float32)
            self._head(head, state["phase"], pending, over, seat, picked)
        out[: self.HEAD] = head
        return out

    def encode(self, view: dict, seat: int, picked: Sequence = ()) -> np.ndarray:
        """The tensor of `view` (the state as `seat` sees it); `picked`: a set's items so far."""
        out = np.zeros(self.size, np.float32)
        self._head(out, view["phase"], view["pending"], view["over"], seat, picked)
        zones, backs = view["zones"], self.backs
        for key, at, slots in self.zones:
            items = zones.get(key, ())
            out[at] = len(items)
            for item in items:
                slot = slots.get(item)
                if slot is not None:
                    out[slot] += 1
                elif type(item) is str and item.startswith(HIDDEN):
                    out[at + 1] += 1
                    if item[1:] in backs:
                        out[at + 2 + backs[item[1:]]] += 1
        grids = view["grids"]
        for key, at, codes, cells, pieces in self.grids:
            grid = grids.get(key)
            if grid is None:
                continue
            width = len(codes) + 1
            for i, c in enumerate(grid["cells"][:cells]):
                out[at + i * width + codes.get(c, width - 1)] = 1
            for piece in grid["pieces"]:
                if piece[0] in pieces:
                    out[pieces[piece[0]]] = 1
        values = view["vars"]
        for key, at, scale, value, secret in self.counters:
            self._counter(out, values.get(key), at, scale, value, secret)
        return out

    def _head(self, out: np.ndarray, phase, pending, over: bool, seat: int, picked: Sequence) -> None:
        """The blocks before the zones: seat, turn, phase, decision, picking."""
        for slot in self._head_slots(phase, pending, over, seat, picked):
            out[slot] += 1

    def _head_slots(self, phase, pending, over: bool, seat: int, picked: Sequence) -> list[int]:
        """The places of the 1s of the head's blocks (a place twice: a set's item picked twice)."""
        out = [self.SEAT + seat]
        if pending is not None and not over:
            out.append(self.TURN + pending["actor"])
            if pending["actor"] == seat:
                out.append(self.DECISION + self.lines.get(pending.get("line", 0), len(self.lines)))
                names = self.names
                out += [self.PICKING + names[item] for item in picked if item in names]
        if phase in self.phases:
            out.append(self.PHASE + self.phases[phase])
        return out

    def _counter(self, out, v, at: int, scale: float, value: bool, secret: bool) -> None:
        """One counter's block, written over whatever it held (`out`: the tensor or a memoryview
        of it)."""
        width = 1 + secret + ((len(self.spaces) + self.players) if value else 0)
        out[at : at + width] = self._zero[:width]
        if secret and v == HIDDEN:
            out[at + 1] = 1
            return
        out[at] = self.number(v) / scale
        if value:
            more = at + 1 + secret
            for x in v if type(v) is list else (v,):
                if type(x) is str and x in self.spaces:
                    out[more + self.spaces[x]] = 1
                elif type(x) is int and 0 <= x < self.players:
                    out[more + len(self.spaces) + x] = 1

    def number(self, v) -> float:
        """A counter's value as one number: a text by its place in the game's names (from 1)."""
        if v is None or v is True or v is False:
            return float(bool(v))
        if type(v) in (int, float):
            return float(max(-BOUND, min(BOUND, v)))
        if type(v) is str:
            return float(self.vocab.get(v, len(self.vocab) + 1))
        if type(v) is list:
            return float(len(v))
        return 0.0
