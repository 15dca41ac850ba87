"""The play table's last hardening (issue 35): bots think in worker processes with a hard time
limit, a locked database holds only its own table, pages escape characters that reorder or hide
text, and each page gets what changed (a patch), not the whole picture, after each move."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from meeple.interpreter.table.hall import Hall
from meeple.interpreter.table.live import SPECTATOR
from meeple.interpreter.table.model import seat_page
from meeple.interpreter.table.store import Store
from meeple.interpreter.table.thinkers import BotPool, think


# ----------------------------------------------------------------- bots in worker processes
def test_a_bot_move_past_the_limit_is_stopped_a_random_option_played_and_every_page_told():
    pool = BotPool(workers=1, seconds=0.3)  # mcts@5s thinks 5 s: always past 0.3 s
    try:
        hall = Hall(["queens_wishes"], Store(), bots=pool)
        row = hall.create("queens_wishes", 2, {}, [], ["mcts@5s", "person"], 1)
        live = hall.table(row["id"])
        assert live.bot_to_move() == 0 and len(live.decision().options) > 1
        asyncio.run(hall.run_bots(live))  # until the person's turn
    finally:
        pool.stop()
    assert live.decision().actor == 1 and live.bot_error is None and len(live.choices) >= 1  # the game went on
    said = "P1's bot (mcts@5s) did not decide within 0.3 s: a random option was played for it"
    for seat in (0, 1, SPECTATOR):
        assert "  " + said in seat_page(live, seat)["log"], seat


def test_a_move_thought_in_a_worker_is_the_move_thought_in_the_server():
    pool = BotPool(workers=1, seconds=60)
    try:
        hall = Hall(["wild_gardens"], Store(), bots=pool)
        row = hall.create("wild_gardens", 2, {}, [], ["greedy@50", "greedy@50"], 4)
        live = hall.table(row["id"])
        job = live.bot_job()
        assert asyncio.run(pool.move(job)) == think(job, live.engine)
        assert asyncio.run(pool.move(job)) == think(job, live.engine)  # the worker's compiled game, kept
    finally:
        pool.stop()


def descendants(pid: int) -> set[int]:
    """Every process under `pid` (read from /proc)."""
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        try:
            kids = (open(f"/proc/{p}/task/{p}/children").read().split())
        except OSError:
            continue
        for k in map(int, kids):
            found.add(k)
            todo.append(k)
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads /proc")
def test_ctrl_c_stops_the_server_and_kills_the_bots_thinking(tmp_path):
    from tests.test_table_security import free_port
    port = free_port()
    code = "import sys; from meeple.cli import main; sys.exit(main(sys.argv[1:]))"
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "queens_wishes", "--port", str(port),
                               "--db", str(tmp_path / "t.sqlite")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    body = json.dumps({"game": "queens_wishes", "players": 2, "seats": ["mcts@5s", "mcts@5s"]}).encode()
    try:
        for _ in range(200):
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", body,
                                                 {"content-type": "application/json"})
                assert "spectator" in json.load(urllib.request.urlopen(request, timeout=30))
                break
            except urllib.error.URLError:
                time.sleep(0.1)
        for _ in range(200):  # the first move is thinking in a worker process
            workers = descendants(server.pid)
            if len(workers) >= 2:  # the forkserver and a worker under it
                break
            time.sleep(0.1)
        assert len(workers) >= 2
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
        assert server.returncode == 0 and b"Traceback" not in err, err.decode()
        for _ in range(50):  # each worker sees its server gone within a second
            if not any(alive(p) for p in workers):
                break
            time.sleep(0.1)
        assert not any(alive(p) for p in workers)
    finally:
        server.kill()
        server.wait()


# ----------------------------------------------------------------- database writes off the event loop
def test_a_write_waiting_for_a_locked_database_holds_only_its_own_table(tmp_path, monkeypatch):
    from meeple.interpreter.table import store
    from tests.test_table import client
    monkeypatch.setattr(store, "BUSY_SECONDS", 20.0)
    db = tmp_path / "tables.sqlite"
    with client(str(db)) as c:  # one event loop for every request and socket, as in a server
        _one_table_waits(c, db, monkeypatch)


def _one_table_waits(c, db, monkeypatch):
    import sqlite3
    import threading
    from meeple.interpreter.table import store
    from tests.test_table import live_of, new_table, token
    held, waiting = new_table(c), new_table(c)
    writing, real = threading.Event(), store.Store.add_choice

    def add_choice(self, *args):
        writing.set()  # the write has started: from here on it waits for the database
        return real(self, *args)
    monkeypatch.setattr(store.Store, "add_choice", add_choice)
    other = sqlite3.connect(db, isolation_level=None)  # another program holds the write lock
    other.execute("begin immediate")
    with c.websocket_connect(f"/ws/{held['id']}?token={token(held['seats'][0]['link'])}") as ws, \
            c.websocket_connect(f"/ws/{waiting['id']}?token={token(waiting['spectator'])}") as watcher:
        d = ws.receive_json()["table"]["decision"]
        assert watcher.receive_json()["table"]["step"] == 0
        ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
        assert writing.wait(10)
        # the other table answers while the write waits: its page, its socket, the lobby's list
        r = c.get(f"/api/tables/{waiting['id']}?token={token(waiting['spectator'])}")
        assert r.status_code == 200 and r.json()["step"] == 0
        watcher.send_json({"type": "undo"})
        assert watcher.receive_json()["type"] == "error"  # a spectator's undo is refused, at once
        assert c.get("/api/tables").status_code == 200
        assert live_of(c, held).choices == []  # the write is still waiting
        other.execute("rollback")  # the database is free: the waiting write goes through
        assert ws.receive_json()["table"]["step"] == 1
    assert c.app.state.hall.store.choices(held["id"]) == [d["options"][0]["id"]]
    other.close()
