"""Load on the play table: many tables at once, each with two people (WebSocket clients) and a bot.

Starts `meeple serve` on a free port with a fresh database, creates the tables over HTTP, and lets
every client play: when its page shows its own decision it picks an option at random and times
the round trip, from sending the choice to the page that shows it taken (the server writes the
decision to SQLite and sends every page of the table its picture before that page arrives). Bots
play their seats on the server as they would for people; when a game ends its two people start
another table, so the load holds for the whole run. Reports the round trips (median, p99,
worst), the error messages and dropped sockets, and the server's memory (resident, and its peak).

    make load                                         # 50 tables, 60 s
    .venv/bin/python benchmarks/table_load.py --tables 10 --seconds 20 --bot greedy
"""
from __future__ import annotations

import argparse
import asyncio
import json
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


def post(base: str, body: dict) -> dict:
    request = urllib.request.Request(f"{base}/api/tables", json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


async def player(url: str, seed: int, until: float, stats: dict) -> None:
    """One person's page: play a random option whenever it is this seat's turn, until the end or time."""
    pick = random.Random(seed)
    try:
        async with websockets.connect(url, max_size=2 ** 24) as ws:
            sent_at, sent_step = None, None
            while time.monotonic() < until:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic())))
                except asyncio.TimeoutError:
                    break
                if m["type"] == "error":
                    stats["errors"].append(m["message"][:120])
                    continue
                page = m["table"]
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
        urls = [f"{ws_base}/ws/{t['id']}?token={s['link'].split('token=')[1]}" for s in t["seats"] if s["link"]]
        await asyncio.gather(*(player(u, n * 7919 + games * 2 + i, until, stats) for i, u in enumerate(urls)))
        games += 1
    stats["tables"] += games


async def load(base: str, args) -> dict:
    stats = {"trips": [], "errors": [], "dropped": [], "decisions": 0, "tables": 0}
    until = time.monotonic() + args.seconds
    await asyncio.gather(*(table_loop(base, n, args, until, stats) for n in range(args.tables)))
    return stats


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--game", default="queens_wishes")
    p.add_argument("--bot", default="random", help="the third seat's agent (default random)")
    args = p.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-c", "from meeple import cli; raise SystemExit(cli.main())",
                                   "serve", args.game, "--port", str(port), "--db", f"{tmp}/tables.sqlite"],
                                  cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(200):  # up within 20 s
                try:
                    urllib.request.urlopen(f"{base}/api/games", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            idle = memory_kb(server.pid)["VmRSS"]
            start = time.perf_counter()
            stats = asyncio.run(load(base, args))
            took = time.perf_counter() - start
            mem = memory_kb(server.pid)
        finally:
            server.terminate()
            err = server.communicate(timeout=30)[1].decode(errors="replace")
    trips = sorted(stats["trips"]) or [0.0]
    p99 = trips[min(len(trips) - 1, int(0.99 * len(trips)))]
    print(f"{args.tables} tables at once of {args.game} (2 people + {args.bot}), {args.tables * 2} clients, "
          f"{took:.0f} s")
    print(f"  decisions by people  {stats['decisions']:,} ({stats['decisions'] / took:,.0f}/s) in "
          f"{stats['tables']:,} whole games (a new table when one ends)")
    print(f"  round trip           median {statistics.median(trips) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
          f"worst {trips[-1] * 1000:.0f} ms")
    print(f"  errors               {len(stats['errors'])} messages, {len(stats['dropped'])} dropped sockets")
    print(f"  server memory        {idle / 1024:.0f} MB idle, {mem['VmRSS'] / 1024:.0f} MB at the end, "
          f"{mem['VmHWM'] / 1024:.0f} MB peak")
    for message in (stats["errors"] + stats["dropped"])[:5]:
        print(f"    {message}")
    if "Traceback" in err:
        print("the server logged a traceback:\n" + err[-2000:])
        return 1
    return 0 if not stats["errors"] and not stats["dropped"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
