"""Load on the play table: many tables at once, each with two people (WebSocket clients) and a bot.

Starts `meeple serve` on a free port with a fresh database, creates the tables over HTTP, and lets
every client play: when its page shows its own decision it picks an option at random and times
the round trip, from sending the choice to the page that shows it taken (the server writes the
decision to SQLite and sends every page of the table its picture before that page arrives). Bots
play their seats on the server as they would for people; when a game ends its two people start
another table, so the load holds for the whole run. Reports the round trips (median, p99,
worst), the error messages and dropped sockets, the server's memory (resident, sampled every
10 s, and its peak) and the bytes the pages received (the whole picture first, then patches).

Then the server is killed (SIGKILL, mid-play: the clients are still connected) and started again
on the same database, and every table of the run is opened again: each must open, and be at
least at the step its pages last saw (a move a page saw taken is never lost).

    make load                                         # 50 tables, 60 s
    make load-long                                    # 50 tables, 10 minutes
    .venv/bin/python benchmarks/table_load.py --tables 10 --seconds 20 --bot greedy
    .venv/bin/python benchmarks/table_load.py --seconds 60 --profile /tmp/serve.prof   # cProfile the server
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

from meeple.interpreter.table.patch import apply

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_kb(pid: int) -> dict:
    """The server's resident memory now and at its peak (Linux /proc), in kB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), from /proc: a figure the machine's other
    work does not change, unlike round trips."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def post(base: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base}/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


async def player(url: str, table_id: str, seed: int, until: float, stats: dict) -> None:
    """One person's page: play a random option whenever it is this seat's turn, until the end or time."""
    pick = random.Random(seed)
    page = None
    try:
        async with websockets.connect(url, max_size=2**24) as ws:
            sent_at, sent_step = None, None
            while time.monotonic() < until:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                m = json.loads(text)
                stats["bytes"]["whole" if m["type"] == "table" else m["type"]].append(len(text.encode()))
                if m["type"] == "error":
                    stats["errors"].append(m["message"][:120])
                    continue
                page = m["table"] if m["type"] == "table" else apply(page, m["ops"])  # as static/patch.js
                stats["seen"][table_id] = max(stats["seen"].get(table_id, 0), page["step"])
                if sent_at is not None and page["step"] > sent_step:
                    stats["trips"].append(time.perf_counter() - sent_at)
                    stats["decisions"] += 1
                    sent_at = None
                d = page["decision"]
                if d is None:
                    return
                if d["mine"] and sent_at is None:
                    option = pick.choice(d["options"])["id"]
                    sent_at, sent_step = time.perf_counter(), page["step"]
                    await ws.send(json.dumps({"type": "choose", "option": option, "step": d["step"]}))
    except websockets.ConnectionClosed as exc:
        if time.monotonic() < until:  # closed by the kill at the end: not a drop
            stats["dropped"].append(str(exc)[:120])


async def table_loop(base: str, n: int, args, until: float, stats: dict) -> None:
    """One table after another (a new one when a game ends), its two people playing, until time is up."""
    ws_base = base.replace("http://", "ws://")
    games = 0
    while time.monotonic() < until:
        body = {"game": args.game, "players": 3, "seats": ["person", "person", args.bot], "seed": n * 1000 + games}
        try:
            t = await asyncio.to_thread(post, base, body)
        except OSError as exc:
            stats["errors"].append(f"creating a table: {exc}"[:120])
            return
        stats["made"].append((t["id"], t["spectator"].split("token=")[1]))
        urls = [f"{ws_base}/ws/{t['id']}?token={s['link'].split('token=')[1]}" for s in t["seats"] if s["link"]]
        await asyncio.gather(*(player(u, t["id"], n * 7919 + games * 2 + i, until, stats) for i, u in enumerate(urls)))
        games += 1
    stats["tables"] += games


async def sample_memory(pid: int, until: float, stats: dict) -> None:
    """The server's resident memory every 10 s (MB)."""
    while time.monotonic() < until:
        stats["memory"].append(memory_kb(pid)["VmRSS"] / 1024)
        await asyncio.sleep(min(10.0, max(0.0, until - time.monotonic())))


async def load(base: str, args, pid: int) -> dict:
    stats = {
        "trips": [],
        "errors": [],
        "dropped": [],
        "decisions": 0,
        "tables": 0,
        "made": [],
        "seen": {},
        "memory": [],
        "bytes": {"whole": [], "patch": [], "error": []},
    }
    until = time.monotonic() + args.seconds
    await asyncio.gather(
        sample_memory(pid, until, stats), *(table_loop(base, n, args, until, stats) for n in range(args.tables))
    )
    return stats


def start_server(args, port: int, db: str, profile: str | None = None) -> subprocess.Popen:
    code = "from meeple import cli; raise SystemExit(cli.main())"
    if profile:  # written when the server stops (SIGTERM: uvicorn raises it again as it ends), not when killed
        code = (
            "import cProfile, signal\nfrom meeple import cli\n"
            "def stop(*_):\n    raise SystemExit(0)\n"
            "signal.signal(signal.SIGTERM, stop)\nprofile = cProfile.Profile()\nprofile.enable()\n"
            f"try:\n    cli.main()\nfinally:\n    profile.disable()\n    profile.dump_stats({profile!r})\n"
        )
    server = subprocess.Popen(
        [sys.executable, "-c", code, "serve", args.game, "--port", str(port), "--db", db],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for _ in range(300):  # up within 30 s
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1).read()
            return server
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def intact(base: str, stats: dict) -> list[str]:
    """What is wrong with the tables after the restart: each must open, at least at the step its pages saw."""
    wrong = []
    for table_id, spectator in stats["made"]:
        try:
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}?token={spectator}", timeout=60) as r:
                step = json.loads(r.read())["step"]
        except OSError as exc:
            wrong.append(f"table {table_id}: {exc}"[:120])
            continue
        if step < stats["seen"].get(table_id, 0):
            wrong.append(f"table {table_id}: at step {step} after the restart; its pages saw {stats['seen'][table_id]}")
    return wrong


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--game", default="queens_wishes")
    p.add_argument("--bot", default="random", help="the third seat's agent (default random)")
    p.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server under cProfile and write its profile here "
        "(the server is then stopped, not killed, before the restart)",
    )
    args = p.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = f"{tmp}/tables.sqlite"
        server = again = None
        try:
            server = start_server(args, port, db, args.profile)
            idle = memory_kb(server.pid)["VmRSS"]
            start, cpu, before = time.perf_counter(), cpu_seconds(server.pid), load_average()
            stats = asyncio.run(load(base, args, server.pid))
            took = time.perf_counter() - start
            mem, cpu = memory_kb(server.pid), cpu_seconds(server.pid) - cpu
            if args.profile:
                server.terminate()
            else:
                server.kill()  # kill -9, with the last moves in flight
            err = server.communicate(timeout=60)[1].decode(errors="replace")
            again = start_server(args, port, db)
            opened = time.perf_counter()
            wrong = intact(base, stats)
            reopen = time.perf_counter() - opened
            again.terminate()
            err += again.communicate(timeout=60)[1].decode(errors="replace")
        finally:
            for process in (server, again):
                if process is not None and process.poll() is None:
                    process.kill()
    trips = sorted(stats["trips"]) or [0.0]
    p99 = trips[min(len(trips) - 1, int(0.99 * len(trips)))]
    sent = stats["bytes"]
    print(
        f"{args.tables} tables at once of {args.game} (2 people + {args.bot}), {args.tables * 2} clients, {took:.0f} s"
    )
    print(
        f"  decisions by people  {stats['decisions']:,} ({stats['decisions'] / took:,.0f}/s) in "
        f"{stats['tables']:,} whole games (a new table when one ends)"
    )
    print(
        f"  round trip           median {statistics.median(trips) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"worst {trips[-1] * 1000:.0f} ms"
    )
    print(f"  errors               {len(stats['errors'])} messages, {len(stats['dropped'])} dropped sockets")
    print(
        f"  server CPU           {cpu:.1f} s in {took:.0f} s ({cpu / max(1, stats['decisions']) * 1000:.1f} ms a "
        f"decision by people, the bots' moves included); machine load average {before} before, "
        f"{load_average()} after"
    )
    print(
        f"  server memory        {idle / 1024:.0f} MB idle, {mem['VmRSS'] / 1024:.0f} MB at the end, "
        f"{mem['VmHWM'] / 1024:.0f} MB peak; every 10 s: {', '.join(f'{m:.0f}' for m in stats['memory'])}"
    )
    if sent["patch"]:
        print(
            f"  messages             {len(sent['whole']):,} whole pictures (median "
            f"{statistics.median(sent['whole']) / 1024:.1f} KiB), {len(sent['patch']):,} patches (median "
            f"{statistics.median(sent['patch']) / 1024:.2f} KiB)"
        )
    print(
        f"  kill -9 and restart  {len(stats['made']) - len(wrong)} of {len(stats['made'])} tables intact "
        f"(opened again in {reopen:.1f} s)" + (" (stopped, not killed: --profile)" if args.profile else "")
    )
    for message in (stats["errors"] + stats["dropped"] + wrong)[:5]:
        print(f"    {message}")
    if "Traceback" in err:
        print("the server logged a traceback:\n" + err[-2000:])
        return 1
    return 0 if not stats["errors"] and not stats["dropped"] and not wrong else 1


if __name__ == "__main__":
    raise SystemExit(main())
