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
import threading
import time
import urllib.error
import urllib.request

import pytest

from meeple.interpreter.table.hall import Hall
from meeple.interpreter.table.live import SPECTATOR
from meeple.interpreter.table.pages import seat_page
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


def test_a_bot_whose_worker_dies_mid_move_gets_a_random_move_said_on_every_page_and_play_goes_on():
    pool = BotPool(workers=1, seconds=60)
    killed: list[int] = []

    def kill_the_thinker() -> None:  # the first move that is thinking in a worker: its process killed
        for _ in range(1200):
            tasks = list(pool.pool._pool_manager.task_manager.tasks.values()) if pool.pool is not None else []
            thinking = [t.worker_id for t in tasks if t.future.running() and t.worker_id]
            if thinking:
                os.kill(thinking[0], signal.SIGKILL)
                killed.append(thinking[0])
                return
            time.sleep(0.05)

    try:
        hall = Hall(["queens_wishes"], Store(), bots=pool)
        row = hall.create("queens_wishes", 3, {}, [], ["mcts@1s", "greedy", "person"], 1)
        live = hall.table(row["id"])
        assert live.bot_to_move() == 0
        killer = threading.Thread(target=kill_the_thinker)
        killer.start()
        asyncio.run(hall.run_bots(live))  # P1's three decisions, P2's two, until the person's turn
        killer.join()
    finally:
        pool.stop()
    assert killed and not alive(killed[0])
    assert live.decision().actor == 2 and live.bot_error is None and len(live.choices) == 5  # the game went on
    said = "P1's bot (mcts@1s) lost its worker process (killed by signal 9): a random option was played for it"
    for seat in (2, SPECTATOR):
        log = seat_page(live, seat)["log"]
        assert log.count("  " + said) == 1, log  # that move only: the next ones were thought by a new worker
        assert sum("a random option was played" in line for line in log) == 1


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
            kids = open(f"/proc/{p}/task/{p}/children").read().split()
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
    server = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "queens_wishes", "--port", str(port), "--db", str(tmp_path / "t.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    body = json.dumps({"game": "queens_wishes", "players": 2, "seats": ["mcts@5s", "mcts@5s"]}).encode()
    try:
        for _ in range(200):
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/tables", body, {"content-type": "application/json"}
                )
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


# ----------------------------------------------------------------- a long-running server's machines
def test_a_machine_given_back_with_its_work_spent_scores_again():
    """Found by `make load-long` (131,797 decisions): the engine's spare machines scored every page
    and were never given a fresh allowance (interpreter/work.py), so after millions of steps in all
    a plain score rule failed as if it ran without end."""
    from meeple.cli import load

    engine = load("queens_wishes")
    state, _ = engine.start(2, 1)
    expected = engine.scores(state)
    m = engine.quiet_machine(state)
    m.work = 0  # as after five million steps of scoring, summed over many pages
    engine.spare(m)
    assert engine.scores(state) == expected
    m = engine.quiet_machine(state)
    m.work = 0
    engine.spare(m)
    assert [engine.total(state, p) for p in range(2)] == [s["total"] for s in expected]


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
    with (
        c.websocket_connect(f"/ws/{held['id']}?token={token(held['seats'][0]['link'])}") as ws,
        c.websocket_connect(f"/ws/{waiting['id']}?token={token(waiting['spectator'])}") as watcher,
    ):
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


# ----------------------------------------------------------------- what a page is sent: patches
def _pictures(game="wild_gardens", players=3, seed=8, moves=600):
    """Every seat's (and the spectator's) picture after each of `moves` random decisions."""
    import random

    hall = Hall([game], Store())
    row = hall.create(game, players, {}, [], ["person"] * players, seed)
    live, rnd = hall.table(row["id"]), random.Random(seed)
    seats = [0, SPECTATOR]  # a seat and the public: each picture costs the server a while
    pictures = [[seat_page(live, s) for s in seats]]
    for _ in range(moves):
        d = live.decision()
        if d is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
        pictures.append([seat_page(live, s) for s in seats])
    return pictures


def test_over_a_whole_wild_gardens_game_each_patch_is_right_and_their_median_at_most_5_kib():
    import copy
    import statistics

    from meeple.interpreter.table.patch import apply, diff
    from meeple.interpreter.table.wire import dumps

    pictures = _pictures()
    assert len(pictures) > 300 and pictures[-1][0]["decision"] is None  # to the end: the log is at its length
    sizes = []
    for n, (before, after) in enumerate(zip(pictures, pictures[1:]), 1):
        for old, new in zip(before, after):
            ops = diff(old, new)
            assert apply(copy.deepcopy(old), ops) == new
            sizes.append(len(dumps({"type": "patch", "seq": n, "ops": ops}).encode()))
    whole = len(dumps({"type": "table", "seq": 0, "table": pictures[-1][0]}).encode())
    assert whole > 30_000 and statistics.median(sizes) <= 5 * 1024, (whole, statistics.median(sizes))


def test_the_browser_applies_patches_as_the_server_means_them(tmp_path):
    import json
    import shutil
    from pathlib import Path

    from meeple.interpreter.table.patch import diff

    node = shutil.which("node")
    if node is None:
        pytest.skip("needs node to run static/patch.js")
    pictures = [p[0] for p in _pictures(moves=60)]
    cases = [{"old": old, "ops": diff(old, new), "new": new} for old, new in zip(pictures, pictures[1:])]
    cases += [
        {"old": {"a": [1, 2, 3], "b": {"c": 1}}, "ops": diff({"a": [1, 2, 3], "b": {"c": 1}}, new), "new": new}
        for new in ({"a": [2, 3, 4, 5]}, {"a": [], "b": {"c": None, "d": [1]}}, [1, 2], {"a": [1, 9, 3]})
    ]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = Path(__file__).resolve().parents[1] / "interpreter/table/static/patch.js"
    check = (
        f"const {{applyPatch}} = require({json.dumps(str(script))});"
        f"const cases = require({json.dumps(str(tmp_path / 'cases.json'))});"
        "let bad = cases.findIndex(c => JSON.stringify(applyPatch(c.old, c.ops)) !== JSON.stringify(c.new));"
        "console.log(bad);"
    )
    out = subprocess.run([node, "-e", check], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "-1", out.stdout + out.stderr


def test_pages_on_sockets_get_the_whole_picture_then_patches_and_stay_right():
    import random

    from tests.test_table import client, live_of, token

    with client(games=["wild_gardens"]) as c:
        t = c.post(
            "/api/tables", json={"game": "wild_gardens", "players": 3, "seats": ["person"] * 3, "seed": 8}
        ).json()
        live = live_of(c, t)
        links = [token(s["link"]) for s in t["seats"]]
        rnd = random.Random(8)
        with (
            c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as a,
            c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as b,
            c.websocket_connect(f"/ws/{t['id']}?token={links[2]}") as p3,
        ):
            sockets = (a, b, p3)
            pages = [ws.receive_json()["table"] for ws in sockets]
            for _ in range(40):
                seat = live.decision().actor
                d = pages[seat]["decision"]
                sockets[seat].send_json({"type": "choose", "option": rnd.choice(d["options"])["id"], "step": d["step"]})
                pages = [w.receive_json()["table"] for w in sockets]
                assert pages == [seat_page(live, s) for s in range(3)]
        for ws in sockets:
            assert ws.sizes[0] > 10_000 and max(ws.sizes[1:]) < ws.sizes[0]  # the whole picture, then patches


# ----------------------------------------------------------------- text that reorders or hides itself
SNEAKY = (
    'game "T\u202eder"\nplayers 2\ncounter a = 0\nsetup:\n    log "x\u200by\u2066z\u001b[2J"\n    next turn\n'
    'phase turn:\n    choose n from [1, 2] label "n\u200b{n}" by 0 "pick\u202e one":\n        a += n\n    end game\n'
    'score "S\ufeff": a\n'
)
RAW = "\u202e\u200b\u2066\ufeff\u001b"


def test_text_that_reorders_or_hides_itself_reaches_pages_written_out(tmp_path):
    import json

    from tests.test_table import client, token

    rules = tmp_path / "sneaky.rules"
    rules.write_text(SNEAKY, encoding="utf-8")
    with client(games=[str(rules)]) as c:
        games = c.get("/api/games")
        assert "T\\u202eder" in games.json()["games"][0]["title"] and not any(ch in games.text for ch in RAW)
        t = c.post("/api/tables", json={"game": str(rules), "players": 2, "seats": ["person", "person"]}).json()
        page = c.get(f"/api/tables/{t['id']}?token={token(t['seats'][0]['link'])}")
        text = page.text
        assert not any(ch in json.loads(text).__repr__() for ch in RAW)  # not even as JSON escapes
        assert "T\\\\u202eder" in text and "x\\\\u200by\\\\u2066z\\\\x1b[2J" in text, text
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            first = ws.receive_json()["table"]
            assert first == page.json() and first["decision"]["prompt"] == "pick\\u202e one"
            assert [o["label"] for o in first["decision"]["options"]] == ["n\\u200b1", "n\\u200b2"]
            d = first["decision"]
            ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
            after = ws.receive_json()["table"]
            assert after["step"] == 1 and not any(ch in repr(after) for ch in RAW)
        bad = c.post("/api/tables", json={"game": "no\u202esuch", "players": 2, "seats": ["person", "person"]})
        assert bad.status_code == 400 and "no\\u202esuch" in bad.json()["error"]  # echoed, written out


# ----------------------------------------------------------------- memory: tables nobody has open
def test_tables_nobody_has_open_are_kept_up_to_a_number_and_read_again_when_asked(monkeypatch):
    from meeple.interpreter.table import hall as hall_module
    from tests.test_table import client, new_table, token

    monkeypatch.setattr(hall_module, "IDLE_KEPT", 3)
    c = client()
    tables = [new_table(c, seed=n) for n in range(6)]
    hall = c.app.state.hall
    for t in tables:  # a page comes, plays one move, and goes
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            d = ws.receive_json()["table"]["decision"]
            ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
            assert ws.receive_json()["table"]["step"] == 1
    assert set(hall.tables) == {t["id"] for t in tables[3:]}  # the three left last
    first = c.get(f"/api/tables/{tables[0]['id']}?token={token(tables[0]['spectator'])}").json()
    assert first["step"] == 1 and tables[0]["id"] in hall.tables and len(hall.tables) == 3
