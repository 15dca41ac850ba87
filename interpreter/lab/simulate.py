"""Many seeded games, one row of plain data per game, in processes or on a Dask cluster.

A `Side` says what is played (ruleset, options, variants, player count,
agents); `play_row(side, seed)` plays one game and returns its row (the
format is in interpreter/lab/stats.py). Game i of a run uses seed base + i, so
two sides of a comparison play the same seeds, and any row can be replayed
alone with `meeple run ... --seed S`.

`run_rows` spreads the games over local worker processes (`jobs`), or over a
Dask cluster when given a scheduler address; either way the rows come back
sorted by side and seed, so the output does not depend on who finished first.
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from meeple.dsl.errors import MeepleError
from meeple.interpreter.agents import AgentError, choose, make_agents
from meeple.interpreter.effects.choices import Menu

MAX_DECISIONS = 100_000


@dataclass(frozen=True)
class Side:
    ruleset: str  # a shipped name or a path to a .rules file
    players: int
    agents: tuple = ("random",)
    options: tuple = ()  # (name, value) pairs, sorted: a Side is hashable and picklable
    variants: tuple = ()
    label: str = "base"

    def options_dict(self) -> dict:
        return dict(self.options)


_ENGINES: dict = {}  # per process: compiling once serves every game of a side


def engine_for(side: Side):
    key = (side.ruleset, side.options, side.variants)
    engine = _ENGINES.get(key)
    if engine is None:
        from meeple.dsl.compiler import compile_ruleset, find_ruleset
        from meeple.dsl.parser import parse_file
        from meeple.interpreter.engine import Engine
        rs = parse_file(find_ruleset(side.ruleset))
        engine = _ENGINES[key] = Engine(compile_ruleset(rs, side.options_dict(), list(side.variants)))
    return engine


def play_row(side: Side, seed: int) -> dict:
    """Play one game; a rules error becomes the row's `error`, never an exception."""
    row = {"seed": seed, "ruleset": side.ruleset, "side": side.label, "players": side.players,
           "options": side.options_dict(), "variants": list(side.variants), "agents": list(side.agents),
           "scores": None, "breakdown": None, "ranking": None, "winners": None, "win": None, "tiebreak_used": None,
           "turns": None, "decisions": 0, "steps": 0, "branching": None, "actions": {}, "seconds": 0.0,
           "error": None}
    start = time.perf_counter()
    try:
        engine = engine_for(side)
        agents = make_agents(engine, list(side.agents), side.players, seed)
        state, events = engine.start(side.players, seed)
        steps, decisions, offered, actions = len(events), 0, 0, Counter()
        while (d := engine.decision(state)) is not None:
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            offered += len(d.options)
            index = choose(agents[d.actor], engine.view(state, d.actor), d)
            chosen = d.options[index]
            if type(chosen.value) is dict:  # an action at any time: counted by its title
                actions[chosen.label] += 1
            elif isinstance(engine.pending_op(state), Menu) and chosen.value is not None:
                actions[chosen.value] += 1
            state, events = engine.apply(state, index, inplace=True)
            steps += len(events)
        scores = engine.scores(state)
        ranking = engine.ranking(state, scores)
        winners = [r["player"] for r in ranking if r["place"] == 1]
        outcome = engine.outcome(state, scores)  # the game's own win or loss, where it declares one
        row["win"] = [o["win"] for o in outcome] if outcome is not None else None
        top = max(s["total"] for s in scores)
        row.update(
            scores=[s["total"] for s in scores], breakdown=[s["breakdown"] for s in scores], ranking=ranking,
            winners=winners, tiebreak_used=sum(1 for s in scores if s["total"] == top) > len(winners),
            turns=state["seq"], decisions=decisions, steps=steps,
            branching=round(offered / decisions, 4) if decisions else None, actions=dict(actions))
    except (MeepleError, AgentError) as exc:
        row["error"] = str(exc).splitlines()[0]
    except Exception as exc:  # a broken bot or rule must cost one row, never the whole run
        row["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    row["seconds"] = round(time.perf_counter() - start, 4)
    return row


def _play(task):
    return play_row(*task)


def tasks_for(sides: list[Side], n: int, base_seed: int) -> list[tuple[Side, int]]:
    return [(side, base_seed + i) for side in sides for i in range(n)]


def run_rows(tasks: list, jobs: int = 1, scheduler: str | None = None, progress=None) -> list[dict]:
    """Play every (side, seed) task; rows sorted by side order, then seed."""
    rows = []
    tick = progress or (lambda done: None)
    if scheduler:
        rows = _run_dask(tasks, scheduler, tick)
    elif jobs <= 1:
        for task in tasks:
            rows.append(_play(task))
            tick(len(rows))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            chunk = max(1, min(20, len(tasks) // (jobs * 8)))
            for row in pool.map(_play, tasks, chunksize=chunk):
                rows.append(row)
                tick(len(rows))
    order = {}
    for side, _ in tasks:
        order.setdefault(side.label, len(order))
    rows.sort(key=lambda r: (order.get(r["side"], 0), r["seed"]))
    return rows


def check_scheduler(address: str, seconds: float = 5.0) -> None:
    """Refuse an address that is not a Dask scheduler before Dask reads it.

    On connecting, a Dask peer first sends its handshake, framed by its length (8 bytes, little
    endian). Dask itself trusts that length: another server's bytes read as a length of exabytes,
    and a silent server hangs it. So: connect, wait a few seconds for those 8 bytes, and check
    the length is that of a small message."""
    import socket
    import struct
    host, _, port = address.removeprefix("tcp://").rpartition(":")
    if not host or not port.isdigit():
        raise ConnectionError("give the scheduler as tcp://HOST:PORT")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds) as sock:
            sock.settimeout(seconds)
            head = b""
            while len(head) < 8:
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
    except socket.timeout:
        raise ConnectionError(f"it said nothing within {seconds:g} s: not a Dask scheduler") from None
    except OSError as exc:
        raise ConnectionError(exc.strerror or str(exc)) from None
    if len(head) < 8 or not 0 < struct.unpack("<Q", head)[0] < 10_000_000:
        raise ConnectionError("it does not speak Dask's protocol")


def _run_dask(tasks: list, scheduler: str, tick) -> list[dict]:
    from dask.distributed import Client, as_completed
    check_scheduler(scheduler)
    rows = []
    with Client(scheduler, timeout="20s") as client:
        futures = client.map(_play, tasks, pure=False)
        for future in as_completed(futures):
            rows.append(future.result())
            tick(len(rows))
    return rows


@dataclass
class Progress:
    """A progress bar on stderr when it is a terminal; silent otherwise."""

    total: int
    what: str = "games"
    stream: object = field(default_factory=lambda: sys.stderr)
    started: float = field(default_factory=time.perf_counter)
    shown: float = 0.0

    def __call__(self, done: int) -> None:
        if not getattr(self.stream, "isatty", lambda: False)():
            return
        now = time.perf_counter()
        if done < self.total and now - self.shown < 0.2:
            return
        self.shown = now
        rate = done / max(now - self.started, 1e-9)
        left = (self.total - done) / rate if rate else 0
        filled = int(30 * done / max(self.total, 1))
        self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} {self.what}, "
                          f"{rate:.1f}/s, {left:.0f} s left ")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def write_rows(path: str, rows: list[dict]) -> None:
    from meeple.interpreter import outputs
    outputs.write_text(path, "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))


def read_rows(paths: list[str]) -> list[dict]:
    """Rows from several result files, merged; a game seen twice (same side, setup and seed) counts once."""
    seen, rows = set(), []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    key = (row["side"], row["ruleset"], json.dumps(row["options"], sort_keys=True),
                           tuple(row["variants"]), tuple(row["agents"]), row["players"], row["seed"])
                except (ValueError, KeyError, TypeError):
                    raise ValueError(f"{path}:{number}: not a result row") from None
                if key not in seen:
                    seen.add(key)
                    rows.append(row)
    return rows
