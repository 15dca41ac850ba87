"""What the log tells of bookkeeping: `quietly` blocks and `reset`.

`quietly "TEXT":` runs its block as usual, and the events it makes are marked
`quiet`: displays (the terminal, the table's log, rendered traces) leave them
out, and say TEXT once instead; traces keep every event, so a replay and a
view still see each change. The events are marked when the block ends; a
decision inside the block ends the marking there (the events after it are
told as usual), so the checker refuses choices written inside one.

`reset NAME` puts every instance of a counter, flag or value (or the one
named by its index) back to its starting value and tells it as one `reset`
event, instead of one `set` per player and value.
"""

from __future__ import annotations

import copy

QUIET = "quiet"  # the key marking an event that displays leave out


def hush(m) -> None:
    """The start of a `quietly` block: remember where its events begin (a machine that keeps
    no events, reused by bots, remembers nothing)."""
    if m.recording:
        m.hush.append(len(m.events))


def unhush(m) -> None:
    """Its end: mark every event since its start (nothing when a decision came in between)."""
    if not m.hush:
        return
    start = m.hush.pop()
    for e in m.events[start:]:
        e[QUIET] = True


def reset(m, name: str, keys: list, start, text: str = "") -> None:
    """Every key back to `start`; one event naming the counter (or the one key) when any changed."""
    vars_ = m.state["vars"]
    changed = False
    for k in keys:
        if vars_[k] != start:
            vars_[k] = copy.deepcopy(start)
            changed = True
    if changed and m.recording:
        said = {"text": text} if text else {}
        m.emit("reset", var=keys[0] if len(keys) == 1 and keys[0] != name else name, value=start, **said)
