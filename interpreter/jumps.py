"""Jumps threaded: a block's control ops laid out so that the machine's loop passes less often.

Compiled from the rules, a loop ends with a jump back to its head (an IterNext) and an `if`
branch with a jump past the branches after it; when that lands on another jump, or on a
loop's head, the machine's loop makes one pass for the jump and one for where it lands.
Since IterNext and JumpUnless move on to fixed places (their `next`, `end`, `target`), not
to places relative to where they stand, a jump to one can be that op itself, and every jump
can go straight to the end of a run of jumps. The places a decision waits at do not change,
so states, traces and errors are the same; only passes through the loop go.
"""
from __future__ import annotations

from meeple.interpreter.machine import IterNext, Jump, JumpUnless

# Jumps threaded as above when a game is compiled (dsl/compiler.py, through machine.chain_phases).
# Tests turn it off to play the same games jump by jump.
THREADED = True


def thread_jumps(ops: list) -> None:
    """Give each IterNext and JumpUnless its `next` place; then (THREADED) let every jump and
    every place a loop or a test leaves for skip the jumps found there, and put in place of a
    jump to an IterNext or a JumpUnless that op itself (it moves on to the same fixed places
    from anywhere, and fails alike: its span is its own)."""
    for i, op in enumerate(ops):
        if (type(op) is IterNext or type(op) is JumpUnless) and op.next is None:
            op.next = i + 1  # its own place (a second call finds the copies put in place of jumps)
    if not THREADED:
        return

    def final(target: int) -> int:
        seen = set()
        while target < len(ops) and type(ops[target]) is Jump and target not in seen:
            seen.add(target)
            target = ops[target].target
        return target

    finals = {i: final(op.target) for i, op in enumerate(ops) if type(op) is Jump}
    for op in ops:
        if type(op) is JumpUnless:
            op.target = final(op.target)
        elif type(op) is IterNext:
            op.end = final(op.end)
    for i, target in finals.items():
        head = ops[target] if target < len(ops) else None
        if type(head) is IterNext or type(head) is JumpUnless:
            ops[i] = head
        else:
            ops[i].target = target
