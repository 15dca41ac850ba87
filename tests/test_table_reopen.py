"""A restarted server reopens each table when it is first asked for, replaying its decisions in a
thread (hall.py `open`), never on the event loop: while tables are being replayed, the lobby and
every other table answer. And the server's process keeps Python's cycle collector from pausing
every page often (serve.steady_collector)."""

from __future__ import annotations

import random
import threading

from meeple.interpreter.table import hall as hall_module
from tests.test_table import client, live_of, new_table, token


def played(c, table: dict, moves: int, seed: int) -> None:
    live, rnd = live_of(c, table), random.Random(seed)
    for _ in range(moves):
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])


def test_tables_being_replayed_hold_up_neither_the_lobby_nor_another_table(tmp_path, monkeypatch):
    db = str(tmp_path / "tables.sqlite")
    first = client(db)
    slow, other = new_table(first, seed=1), new_table(first, seed=2)
    played(first, slow, 6, 1)
    played(first, other, 4, 2)
    first.app.state.hall.store.close()  # the server stops; a new one opens the same file

    replaying, release, replays = threading.Event(), threading.Event(), []
    real = hall_module.LiveTable

    def live_table(row, *args):  # `slow` takes as long as this test says to replay
        if row["id"] == slow["id"]:
            replays.append(row["id"])
            replaying.set()
            release.wait(10)
        return real(row, *args)

    monkeypatch.setattr(hall_module, "LiveTable", live_table)
    with client(db) as c:  # one event loop for every request and socket, as in a server
        answers: list = []

        def ask() -> None:
            answers.append(c.get(f"/api/tables/{slow['id']}?token={token(slow['spectator'])}"))

        askers = [threading.Thread(target=ask) for _ in range(2)]  # two pages ask for the same table
        for a in askers:
            a.start()
        assert replaying.wait(10)
        # while `slow` is being replayed: the lobby, a table not yet opened, and its socket answer
        assert c.get("/api/tables").status_code == 200 and c.get("/").status_code == 200
        r = c.get(f"/api/tables/{other['id']}?token={token(other['spectator'])}")
        assert r.status_code == 200 and r.json()["step"] == 4
        with c.websocket_connect(f"/ws/{other['id']}?token={token(other['seats'][0]['link'])}") as ws:
            assert ws.receive_json()["table"]["step"] == 4
        assert not answers and all(a.is_alive() for a in askers)  # `slow` is still being replayed
        release.set()
        for a in askers:
            a.join(10)
        assert [r.status_code for r in answers] == [200, 200] and [r.json()["step"] for r in answers] == [6, 6]
        assert replays == [slow["id"]]  # one replay for both pages


def test_a_replay_done_before_the_page_waits_for_it_is_answered():
    """A replay can end before the route asks to hear of its end (a table that does not exist is
    found so at once); the route must answer then too, not wait on itself."""
    from concurrent.futures import Executor, Future

    class AtOnce(Executor):  # every replay ends before `submit` returns
        def submit(self, fn, /, *args, **kwargs):
            done: Future = Future()
            try:
                done.set_result(fn(*args, **kwargs))
            except Exception as exc:
                done.set_exception(exc)
            return done

    with client() as c:
        t = new_table(c)
        hall = c.app.state.hall
        hall.readers = AtOnce()
        hall.tables.clear()  # as after a restart: the table is read again
        answers: list = []
        asker = threading.Thread(
            target=lambda: answers.extend(
                [c.get("/api/tables/nosuch?token=x"), c.get(f"/api/tables/{t['id']}?token={token(t['spectator'])}")]
            ),
            daemon=True,
        )
        asker.start()
        asker.join(30)
        assert [r.status_code for r in answers] == [404, 200] and hall.opening == {}


def test_a_table_that_cannot_be_reopened_is_said_and_the_server_goes_on(tmp_path):
    db = str(tmp_path / "tables.sqlite")
    first = client(db)
    t = new_table(first)
    played(first, t, 3, 3)
    first.app.state.hall.store.db.execute("update decisions set choice = 'no-such-option' where n = 2")
    first.app.state.hall.store.close()
    with client(db) as c:
        r = c.get(f"/api/tables/{t['id']}?token={token(t['spectator'])}")
        assert r.status_code == 404 and "stored decision 2 (`no-such-option`) is not possible" in r.json()["error"]
        assert c.get("/api/tables/nothing?token=x").status_code == 404
        assert c.get("/api/tables").status_code == 200


def test_the_servers_collector_sets_aside_what_it_starts_with_and_collects_young_objects_seldom():
    import subprocess
    import sys

    code = (
        "import gc\nfrom meeple.interpreter.commands.serve import COLLECT_AFTER, steady_collector\n"
        "before = gc.get_freeze_count()\nsteady_collector()\n"
        "print(before, gc.get_freeze_count() > 10_000, gc.get_threshold() == COLLECT_AFTER, COLLECT_AFTER[0] > 700)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["0", "True", "True", "True"], out.stdout + out.stderr
