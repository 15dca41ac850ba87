"""`meeple show TRACE --step K`: a recorded game as it stood after its K-th decision.

`replay_to` re-runs a trace (checking every line the way `trace.replay` does)
up to decision K (0: right after setup) and keeps the state there, the line of
the decision that led to it and the line of the one that was pending.
`show_text` prints that for people: the decision just taken with its events,
the state, and the pending decision with its options and what the trace chose.
With a seat, only what that seat could see: the state through `view`, events
as `event_text` shows them to that seat, other players' options and hidden
choices withheld.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meeple.interpreter.board_text import state_text
from meeple.interpreter.render import event_text, player_name, shown_event
from meeple.interpreter.trace import hidden_from, replay_decision, start_replay, unseen_line

if TYPE_CHECKING:
    from meeple.interpreter.engine import Engine

MAX_OPTIONS = 15  # options listed for a pending decision (the chosen one is always listed)


class StepError(ValueError):
    """A step the trace does not have."""


@dataclass
class Snapshot:
    engine: Engine
    head: dict
    state: dict
    step: int
    steps: int  # decisions in the trace
    taken: dict | None  # the trace line of decision `step` (None at step 0)
    pending: dict | None  # the trace line of decision `step + 1` (None at the end)
    setup: list  # the setup events


def replay_to(lines: list[dict], load, step: int) -> Snapshot:
    """Replay `lines` (from `trace.read`) up to decision `step`; `load(header)` returns an Engine."""
    head = lines[0]
    decisions = [ln for ln in lines[1:] if "step" in ln]
    if not 0 <= step <= len(decisions):
        raise StepError(
            f"--step {step} is not in this trace: it has {len(decisions)} decisions, "
            f"so a step from 0 (after setup) to {len(decisions)} (the end)"
        )
    engine, state, events = start_replay(lines, load)
    for line in decisions[:step]:
        state, events = replay_decision(engine, state, line)
    return Snapshot(
        engine,
        head,
        state,
        step,
        len(decisions),
        decisions[step - 1] if step else None,
        decisions[step] if step < len(decisions) else None,
        events if step == 0 else [],
    )


def show_text(snap: Snapshot, seat=None) -> list[str]:
    """The step as text; `seat` (0-based) limits it to what that seat could see."""
    engine, game, head = snap.engine, snap.engine.game, snap.head
    who = f", as {player_name(seat)} sees it" if seat is not None else ""
    out = [
        f"{head.get('game', game.title)}: seed {head['seed']}, {head['players']} players, "
        f"step {snap.step} of {snap.steps}{who}"
    ]
    if snap.taken is None:
        out.append("after setup:")
        out += ["  " + event_text(game, e, seat) for e in snap.setup if shown_event(game, e)]
    else:
        t = snap.taken
        label = "something hidden" if hidden_from(t, seat) else t["label"]
        if unseen_line(t, seat):  # another seat asked alone whether to act now: not this seat's to know
            out.append(f"step {snap.step}: nothing {player_name(seat)} saw")
        else:
            out.append(f"step {snap.step}: {player_name(t['actor'])} chose {label} (of {t['options']})")
        out += ["  " + event_text(game, e, seat) for e in t["events"] if shown_event(game, e)]
    out.append("")
    view = engine.view(snap.state, seat) if seat is not None else snap.state
    out += state_text(game, view, seat)
    out.append("")
    d = engine.decision(snap.state)
    if d is None:
        scores = engine.scores(snap.state)
        out.append("the game is over: " + ", ".join(f"{player_name(s['player'])} {s['total']}" for s in scores))
        return out
    nxt = snap.pending
    if seat is not None and seat != d.actor and d.private:
        out.append(f"pending, step {snap.step + 1}: nothing {player_name(seat)} may see")
        return out
    out.append(
        f"pending, step {snap.step + 1}: {player_name(d.actor)} chooses"
        + (f" ({d.prompt})" if d.prompt else "")
        + f" among {len(d.options)} options"
    )
    chosen = d.index_of(nxt["choice"]) if nxt is not None and nxt["choice"] in {o.id for o in d.options} else None
    if seat is not None and seat != d.actor:
        out.append(f"  (the options are {player_name(d.actor)}'s, not shown to {player_name(seat)})")
    else:
        shown = list(range(min(len(d.options), MAX_OPTIONS)))
        if chosen is not None and chosen not in shown:
            shown.append(chosen)
        for i in shown:
            out.append(f"  {i + 1:>3}. {d.options[i].label}" + ("   <- chosen" if i == chosen else ""))
        if len(shown) < len(d.options):
            out.append(f"  ... and {len(d.options) - len(shown)} more")
    if nxt is None:
        out.append("the trace ends here (no choice recorded)")
    else:
        label = "something hidden" if hidden_from(nxt, seat) else nxt["label"]
        out.append(f"chosen in the trace: {label}")
    return out
