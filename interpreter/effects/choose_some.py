"""`choose between LO and HI NAME from LIST:` one decision that picks a set of items.

Instead of offering every subset as an option (which grows fast: 3 cards of 7
are 63 options), the player picks one item at a time and says "done" when the
set is big enough. The items picked so far wait in a hidden local `$someN` of
the frame; the op stays where it is until the set is complete, so the state
stays plain data and a simulation can stop at any step. Then `NAME` is the list
of picked items, in the order of LIST, and the block runs.

    picked < HI and items left   -> offer each item left, plus "done" once picked >= LO
                                    (at once for LO = 0: the set may be empty)
    picked == HI or none left    -> done by itself (with too few: `otherwise`, or an error)
"""

from __future__ import annotations

from meeple.interpreter.effects.choices import ChooseFrom, no_options, suspend

DONE = {"done": True}  # the option that closes the set (id "done")


class ChooseSome(ChooseFrom):
    __slots__ = ("lo", "hi", "slot")

    def __init__(self, lo, hi, slot: str, *args, **kwargs):
        super().__init__(False, *args, **kwargs)
        self.lo, self.hi, self.slot = lo, hi, slot

    multi = True  # picks several items, one decision at a time

    def items(self, m, frame) -> list:
        """Every item that may be picked (passing `where`), each once, in LIST order."""
        return ChooseFrom.options(self, m, frame)

    def options(self, m, frame) -> list:
        picked = frame[2].get(self.slot, [])
        lo, hi = self.lo(m), self.hi(m)
        left = [i for i in self.items(m, frame) if i not in picked] if len(picked) < hi else []
        if not left:  # complete; with none picked and none needed, complete and empty
            return [DONE] if len(picked) >= lo else []
        return left + ([DONE] if len(picked) >= lo else [])

    def run(self, m, frame):
        options = self.options(m, frame)
        if options == [DONE]:  # nothing left to add: the set is complete
            self.finish(m, frame)
            return False
        if not options:
            frame[2].pop(self.slot, None)
            if self.otherwise is None:
                raise no_options(m, f"too few items to choose {self.lo(m)} for `{self.var}`")
            frame[1] = self.otherwise
            return False
        return suspend(m, frame, self, self.by(m), options)

    def take(self, m, frame, value):
        if value == DONE:
            self.finish(m, frame)
            return
        self.add(frame, value)  # the op runs again for the next item

    def add(self, frame, value) -> None:
        frame[2][self.slot] = frame[2].get(self.slot, []) + [value]

    def collected(self, m, frame) -> list:
        """The set picked so far, in LIST order; the hidden local is cleared."""
        picked = frame[2].pop(self.slot, [])
        order = self.items(m, frame)
        return sorted(picked, key=lambda x: order.index(x) if x in order else len(order))

    def finish(self, m, frame) -> None:
        self.take_final(m, frame, self.collected(m, frame))

    def take_final(self, m, frame, picked: list) -> None:
        ChooseFrom.take(self, m, frame, picked)
