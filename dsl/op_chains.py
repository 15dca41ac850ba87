"""Ops that run the op they lead to: fewer passes through the machine's loop between decisions.

A block compiles to a flat list of ops, and the machine's loop dispatches each in turn
(interpreter/machine.py). Many dispatches only lead to another: a `while` loop's body ends
in a jump back to its test, a `for` loop's in a jump back to its next item, an `if`'s
branch in a jump past the others; a fused run of plain statements is followed by the test
of an `if` or a loop. The larger shipped games ran 10 and 21 ops a decision, a third of
them such jumps and tests. After a block is compiled (`chain_block`):

- a jump whose target is a jump goes straight to the last one's target (the same for an
  `if`'s test when it fails and a loop's exit);
- a jump runs the op it lands on itself (`JumpOn`), the frame's pc set to that op's as the
  machine would set it;
- a fused run runs the op after it (as it already ran a choice after it, `Fused.chain`).

Nothing a decision sees changes: the frames' pcs at a decision, the events and their order
are the same; an error in the op run on is located at that op, as the machine locates it.
Chains are one op long (the op run on is never itself a jump), so the machine's step limit
still counts a loop that never decides. Tests turn it off (`CHAINS`).
"""

from __future__ import annotations

from meeple.dsl.compile_fused import Fused
from meeple.dsl.errors import MeepleError
from meeple.dsl.runtime import (
    RULE_ERRORS,
    CallEffect,
    CallField,
    ChooseFrom,
    Exec,
    IterNext,
    IterStart,
    Jump,
    JumpUnless,
    Menu,
    MomentPoint,
)

CHAINS = True
# What a jump or a fused run may run on: ops that end their own work (none of them runs
# another op but a fused run, which runs at most a choice after it).
RUN_ON = (JumpUnless, IterNext, IterStart, CallEffect, CallField, Exec, ChooseFrom, Menu, MomentPoint)


class JumpOn:
    """A jump that runs the op at its target, as the machine would run it next."""

    __slots__ = ("target", "span", "then")

    def __init__(self, jump: Jump, then):
        # Errors are the op's it runs: located at that op, here and by the machine alike.
        self.target, self.span, self.then = jump.target, then.span, then

    def run(self, m, frame):
        frame[1] = self.target
        then = self.then
        try:
            return then.run(m, frame)
        except MeepleError as exc:
            raise m.locate(exc, then, frame) from None
        except RULE_ERRORS as exc:
            raise m.rule_error(str(exc) or type(exc).__name__, then, frame) from None


def _landing(ops: list, target: int) -> int:
    """Where a jump to `target` ends up after the plain jumps there (a cycle of them stays put)."""
    seen = set()
    while target < len(ops) and type(ops[target]) is Jump and target not in seen:
        seen.add(target)
        target = ops[target].target
    return target


def _runs_on(op) -> bool:
    return isinstance(op, RUN_ON) or type(op) is Fused and (op.then is None or isinstance(op.then, RUN_ON))


def chain_block(ops: list) -> None:
    """Thread the block's jumps, let jumps run their targets and fused runs the op after them."""
    if not CHAINS:
        return
    for op in ops:
        if type(op) is Jump or type(op) is JumpUnless:
            op.target = _landing(ops, op.target)
        elif type(op) is IterNext:
            op.end = _landing(ops, op.end)
    for i, op in enumerate(ops):
        if type(op) is Fused and op.then is None and i + op.skip < len(ops):
            after = ops[i + op.skip]
            if isinstance(after, RUN_ON):
                op.chain(after)
            elif type(after) is Jump and after.target < len(ops) and _runs_on(ops[after.target]):
                op.chain(JumpOn(after, ops[after.target]))
    for i, op in enumerate(ops):
        if type(op) is Jump and op.target < len(ops) and _runs_on(ops[op.target]):
            ops[i] = JumpOn(op, ops[op.target])
