"""The replay viewer: a recorded trace, stepped through, as one seat or the public saw it.

A trace is replayed once when it is opened (checking every line, as
`meeple replay` does); the state before each decision is kept, so stepping
back and forth is instant. A step's page has the same table picture as a live
table, drawn from `engine.view` for the chosen seat (the public view for
none), with the decision taken at that step in the words that seat may read,
and the same log as a live table: the game so far, each decision and what the
seat saw happen (one step's events alone left the panel empty where that seat
saw nothing of them).

A table being played (or finished) at this server opens in the viewer too (`table_step`): its
states and log are the live table's, shown only as the link's own seat (or the public, for the
spectator's link) may see them, whatever step is asked for.

A replay keeps every state of the game, about two and a half times the size of
its trace; uploads are kept in a `ReplayCache` of bounded count and size, the oldest
going first, so uploading never grows the server without end.
"""

from __future__ import annotations

import secrets
from typing import Any

from meeple.interpreter.render import choice_text, player_name
from meeple.interpreter.table.bots import SPECTATOR
from meeple.interpreter.table.live import viewer_lines
from meeple.interpreter.table.model import table_picture
from meeple.interpreter.table.pages import log_lines, scores_json
from meeple.interpreter.table.seats import part_of_game, say_names
from meeple.interpreter.trace import TraceError, hidden_from, replay_decision, start_replay


class Replay:
    def __init__(self, lines: list[dict], load):
        self.head = lines[0]
        self.engine, state, events = start_replay(lines, load)
        self.states, self.events, self.lines = [state], [events], list[Any]([None])  # lines: dicts after setup's None
        for line in (ln for ln in lines[1:] if "step" in ln):
            state, events = replay_decision(self.engine, state, line)
            self.states.append(state)
            self.events.append(events)
            self.lines.append(line)
        self.seen: dict = {}  # (step, seat): that step's events in the words the seat may read

    @property
    def steps(self) -> int:
        return len(self.states) - 1

    def page(self, step: int, seat) -> dict:
        """Step `step` (0: after setup) as `seat` (0-based, or None: the public) saw it."""
        if not 0 <= step <= self.steps:
            raise TraceError(f"step {step} is not in this trace: it has steps 0 to {self.steps}")
        if seat is not None and not 0 <= seat < self.head["players"]:
            raise TraceError(f"seat {seat + 1} is not in this game of {self.head['players']} players")
        engine, state = self.engine, self.states[step]
        view = engine.view(state, seat)
        line = self.lines[step]
        taken = None
        if line is not None:
            taken = choice_text(line.get("title", ""), line["actor"], self.label(step, seat))
        return {
            "title": engine.game.title,
            "step": step,
            "steps": self.steps,
            "players": self.head["players"],
            "seat": seat,
            "seat_name": player_name(seat) if seat is not None else "public",
            "seed": self.head["seed"],
            "agents": self.head.get("agents", []),
            **table_picture(engine, view),
            "part": part_of_game(engine.game, view),
            "taken": taken,
            "log": self.log(step, seat),
            "scores": scores_json(engine, state),
        }

    def label(self, step: int, seat) -> str:
        """The option taken at `step`, as `seat` may read it."""
        line = self.lines[step]
        return "something hidden" if hidden_from(line, seat if seat is not None else -1) else line["label"]

    def log(self, step: int, seat) -> list[str]:
        """The live table's log as it stood at `step`, for `seat`."""

        def seen(i: int) -> list[str]:
            if (i, seat) not in self.seen:
                self.seen[i, seat] = viewer_lines(self.engine.game, self.events[i], seat, self.states[i])
            return self.seen[i, seat]

        entries = [
            {
                "actor": self.lines[i]["actor"],
                "title": self.lines[i].get("title", ""),
                "label": {seat: self.label(i, seat)},
                "lines": {seat: seen(i)},
            }
            for i in range(1, step + 1)
        ]
        return log_lines({seat: seen(0)}, entries, seat)


def table_step(live, seat, step: int) -> dict:
    """Step `step` (0: after setup) of a table at this server, as `seat` (or SPECTATOR) saw it then:
    the replay viewer's page, its names said as on the table's pages."""
    states = [h[0] for h in live.history] + [live.state]
    if not 0 <= step < len(states):
        raise TraceError(f"step {step} is not in this game: it has steps 0 to {len(states) - 1}")
    viewer = None if seat == SPECTATOR else seat
    engine, state = live.engine, states[step]
    view = engine.view(state, viewer)
    entry = live.entries[step - 1] if step else None
    taken = choice_text(entry.get("title", ""), entry["actor"], entry["label"][viewer]) if entry else None
    if entry and entry.get("private") and viewer != entry["actor"]:
        taken = None  # an offer to act now, passed: its seat's alone
    names = live.names()
    page = {
        "title": engine.game.title,
        "table": live.id,
        "step": step,
        "steps": len(states) - 1,
        "players": live.players,
        "seat": viewer,
        "seat_name": player_name(viewer) if viewer is not None else "public",
        "names": names,
        "seed": live.row["seed"] if live.row.get("seed_chosen") else None,  # as on the table's pages
        **table_picture(engine, view),
        "part": part_of_game(engine.game, view),
        "taken": taken,
        "log": log_lines(live.setup, live.entries[:step], viewer),
        "scores": scores_json(engine, state, live.conceded()),
    }
    return say_names(page, names)


UPLOADS = 8  # uploads kept at once
UPLOAD_BYTES = 64_000_000  # their traces' bytes together (the replays take about 2.5 times this)


class ReplayCache:
    """The replays a server keeps: the operator's (given on the command line) for good, and uploads
    up to `count` of them and `size` bytes of trace text together, the oldest evicted first."""

    def __init__(self, count: int = UPLOADS, size: int = UPLOAD_BYTES):
        self.count, self.size = count, size
        self.replays: dict[str, Replay] = {}  # in the order they came
        self.uploads: dict[str, int] = {}  # id -> bytes, oldest first

    def keep(self, replay: Replay, key: str) -> None:
        """One of the operator's replays, under its number; never evicted."""
        self.replays[key] = replay

    def add(self, replay: Replay, size: int) -> str:
        """An upload: its new id; the oldest uploads go to make room (TraceError if it can never fit)."""
        if size > self.size:
            raise TraceError("that trace is too large for this server")
        while self.uploads and (len(self.uploads) >= self.count or sum(self.uploads.values()) + size > self.size):
            oldest = next(iter(self.uploads))
            del self.replays[oldest], self.uploads[oldest]
        key = secrets.token_hex(4)
        self.replays[key], self.uploads[key] = replay, size
        return key

    def get(self, key: str) -> Replay | None:
        return self.replays.get(key)

    def items(self):
        return self.replays.items()
