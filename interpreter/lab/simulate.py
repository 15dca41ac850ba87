"""One seeded game as one row of plain data; the sides of a run and the seeds they play.

A `Side` says what is played (ruleset, options, variants, player count,
agents); `play_row(side, seed)` plays one game and returns its row (the
format is in interpreter/lab/stats.py). Game i of a run uses seed base + i, so
two sides of a comparison play the same seeds, and any row can be replayed
alone with `meeple run ... --seed S`. interpreter/lab/runs.py plays many rows
(processes, a Dask cluster); interpreter/lab/rows.py keeps them in files.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from meeple.dsl.errors import MeepleError
from meeple.interpreter.agents import AgentError, choose, make_agents
from meeple.interpreter.lab.record import GameRecord

MAX_DECISIONS = 100_000


@dataclass(frozen=True)
class Side:
    ruleset: str  # a shipped name or a path to a .rules file
    players: int
    agents: tuple = ("random",)
    options: tuple = ()  # (name, value) pairs, sorted: a Side is hashable and picklable
    variants: tuple = ()
    label: str = "base"
    variant_files: tuple = ()  # files of `variant` blocks laid over the ruleset

    def options_dict(self) -> dict:
        return dict(self.options)


_ENGINES: dict = {}  # per process: compiling once serves every game of a side


def engine_for(side: Side):
    key = (side.ruleset, side.options, side.variants, side.variant_files)
    engine = _ENGINES.get(key)
    if engine is None:
        from meeple.interpreter.loader import load

        engine = _ENGINES[key] = load(side.ruleset, side.options_dict(), list(side.variants), side.variant_files)
    return engine


def blank_row(side: Side, seed: int) -> dict:
    """The row of a game not (yet) played: its setup, and nothing measured."""
    return {
        "seed": seed,
        "ruleset": side.ruleset,
        "side": side.label,
        "players": side.players,
        "options": side.options_dict(),
        "variants": list(side.variants),
        "agents": list(side.agents),
        "variant_files": list(side.variant_files),
        "scores": None,
        "breakdown": None,
        "ranking": None,
        "winners": None,
        "win": None,
        "tiebreak_used": None,
        "turns": None,
        "rounds": None,
        "round_phase": None,
        "round_totals": [],
        "decisions": 0,
        "steps": 0,
        "branching": None,
        "actions": {},
        "measures": {},
        "measure_kinds": {},
        "picks": {},
        "first_player": None,
        "lead_changes": None,
        "lead_for_good": None,
        "margin": None,
        "seconds": 0.0,
        "cpu": 0.0,
        "error": None,
    }


def play_row(side: Side, seed: int) -> dict:
    """Play one game; a rules error becomes the row's `error`, never an exception."""
    row = blank_row(side, seed)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        engine = engine_for(side)
        agents = make_agents(engine, list(side.agents), side.players, seed)
        state, events = engine.start(side.players, seed)
        steps, decisions, offered = len(events), 0, 0
        record = GameRecord(engine, side.players)
        while (d := engine.decision(state)) is not None:
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            offered += len(d.options)
            index = choose(agents[d.actor], engine.view(state, d.actor), d)
            record.decided(state, d, index)
            state, events = engine.apply(state, index, inplace=True)
            record.after(state)
            steps += len(events)
        scores, kinds = engine.scores(state), dict[str, str]()
        ranking = engine.ranking(state, scores)
        winners = [r["player"] for r in ranking if r["place"] == 1]
        outcome = engine.outcome(state, scores)  # the game's own win or loss, where it declares one
        row["win"] = [o["win"] for o in outcome] if outcome is not None else None
        top = max(s["total"] for s in scores)
        row.update(
            scores=[s["total"] for s in scores],
            breakdown=[s["breakdown"] for s in scores],
            ranking=ranking,
            winners=winners,
            tiebreak_used=sum(1 for s in scores if s["total"] == top) > len(winners),
            turns=state["seq"],
            decisions=decisions,
            steps=steps,
            branching=round(offered / decisions, 4) if decisions else None,
            measures=engine.measures(state, kinds),
            measure_kinds=kinds,
            **record.fields([s["total"] for s in scores], winners),
        )
    except (MeepleError, AgentError) as exc:
        row["error"] = str(exc).splitlines()[0]
    except Exception as exc:  # a broken bot or rule must cost one row, never the whole run
        row["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    row["seconds"] = round(time.perf_counter() - start, 4)
    row["cpu"] = round(time.process_time() - cpu, 4)  # the cost on one core, whatever else the machine does
    return row


def tasks_for(sides: list[Side], n: int, base_seed: int) -> list[tuple[Side, int]]:
    return [(side, base_seed + i) for side in sides for i in range(n)]


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
    except TimeoutError:
        raise ConnectionError(f"it said nothing within {seconds:g} s: not a Dask scheduler") from None
    except OSError as exc:
        raise ConnectionError(exc.strerror or str(exc)) from None
    if len(head) < 8 or not 0 < struct.unpack("<Q", head)[0] < 10_000_000:
        raise ConnectionError("it does not speak Dask's protocol")
