"""How much work the rules may do at once, so that a rule that would run for hours stops
with a located error instead.

The machine's step limit (interpreter/machine.py) counts statements between two decisions;
it cannot see work done inside one expression: an `each` inside an `each` over long lists,
a function of the rules that calls itself twice on every call, `reach` far along a loop of
spaces. Those are counted here, on the object the rules run with (a machine, or the stand-in
that folds constants): its `work` is what is left of WORK_LIMIT. A loop of an expression or
a statement costs its number of items, a call of a rules' function one, `reach` the spaces it
looks at. Counting per loop and per call, not per item or node, keeps the hot loop's cost to
one subtraction for each of them.

The allowance is filled again whenever the rules start running: a machine runs to the next
decision, scores are counted, a label is read, a constant is folded.
"""

from __future__ import annotations

from meeple.dsl.errors import MeepleError, Span

# The shipped games do at most about 52,000 units at once (the busiest at 4 players, in
# random games); five million is about a second of work, a hundred times past any real rule.
WORK_LIMIT = 5_000_000
HINT = "look for an `each` inside an `each` over long lists, a function that calls itself, or `reach` far along a board"


def too_much(span: Span | None = None) -> MeepleError:
    """The error for a rule past the allowance, at `span` when it is known."""
    return MeepleError(
        f"this rule did more than {WORK_LIMIT:,} steps of work: it seems to run without end", span or Span(), HINT
    )


def charge(m, items, span: Span | None = None):
    """Count a loop over `items` against `m`'s allowance; give the items back (generated code
    writes `W(m, SOURCE)` where it loops over SOURCE). Past the allowance, an error at `span`."""
    try:
        n = len(items)
    except TypeError:  # not a list: its loop fails on its own, with its own message
        return items
    left = m.work - n
    m.work = left
    if left < 0:
        raise too_much(span)
    return items


def charge_one(m, span: Span | None = None) -> None:
    """Count one call of a rules' function."""
    left = m.work - 1
    m.work = left
    if left < 0:
        raise too_much(span)
