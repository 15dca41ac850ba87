"""The play table under the third red-team pass (issue 35): undo among several people, a busy
database, big boards, and every route and socket message fuzzed for 500s and dropped sockets."""

from __future__ import annotations

import pytest

from tests.test_table import client, error_of, live_of, new_table, token


def _play_until_placed(ws, page):
    """Choose the first option until this page's seat has placed a piece; the page after it."""
    while "placement" not in (page["decision"] or {}):
        d = page["decision"]
        ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
        page = ws.receive_json()["table"]
    d = page["decision"]
    ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
    return ws.receive_json()["table"]


def test_undo_never_takes_back_another_persons_later_choice():
    c = client()
    t = new_table(c)
    live = live_of(c, t)
    p1, p2 = (token(s["link"]) for s in t["seats"])
    with (
        c.websocket_connect(f"/ws/{t['id']}?token={p1}") as ws1,
        c.websocket_connect(f"/ws/{t['id']}?token={p2}") as ws2,
    ):
        ws2.receive_json()
        placed = _play_until_placed(ws1, ws1.receive_json()["table"])
        assert placed["can_undo"]  # nobody else has chosen since: P1 may take it back
        page = ws2.receive_json()["table"]
        while page["version"] < placed["version"]:
            page = ws2.receive_json()["table"]
        d = page["decision"]
        assert d["mine"]
        ws2.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
        after = ws1.receive_json()["table"]
        assert not after["can_undo"]
        state, choices = live.state, list(live.choices)
        ws1.send_json({"type": "undo"})
        assert "P2 has chosen since; undo takes back only your own decisions" in error_of(ws1)
        assert live.state is state and live.choices == choices == c.app.state.hall.store.choices(t["id"])


def test_a_busy_database_is_said_and_the_move_can_be_made_again(tmp_path, monkeypatch):
    import sqlite3

    from meeple.interpreter.table import store

    monkeypatch.setattr(store, "BUSY_SECONDS", 0.3, raising=False)
    db = tmp_path / "tables.sqlite"
    c = client(str(db))
    t = new_table(c)
    live = live_of(c, t)
    other = sqlite3.connect(db, isolation_level=None)  # another program holds the write lock
    other.execute("begin immediate")
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        d = ws.receive_json()["table"]["decision"]
        ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
        message = error_of(ws)
        assert "did not answer (database is locked); nothing was saved, try again" in message, message
        assert live.choices == [] and live.state["step"] == 0
        r = c.post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", "person"]})
        assert r.status_code == 503 and "nothing was saved" in r.json()["error"]
        other.execute("rollback")
        ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})  # the same move again
        assert ws.receive_json()["table"]["step"] == 1
    assert c.app.state.hall.store.choices(t["id"]) == [d["options"][0]["id"]]
    other.close()


def _big_board(tmp_path, n: int):
    import json

    spaces = {f"s{i}": {} for i in range(n)}
    arrows = [[f"s{i}", f"s{(i + 1) % n}"] for i in range(n)] + [[f"s{i}", f"s{i * 7 % n}"] for i in range(0, n, 10)]
    (tmp_path / "big.json").write_text(json.dumps({"spaces": spaces, "arrows": arrows}))
    rules = tmp_path / "big.rules"
    rules.write_text(
        'game "Big"\nplayers 2\nboard path from "big.json"\ncounter a = 0\nsetup:\n    next turn\n'
        'phase turn:\n    choose s from reach(path, "s0", 2, []) by 0:\n        a += 1\n    end game\n'
        'score "S": a\n'
    )
    return rules


def test_a_big_path_board_is_laid_out_quickly(tmp_path):
    import time

    rules = _big_board(tmp_path, 2000)  # a loop of 2,000 spaces: Kamada-Kawai took the first page 73 s
    start = time.process_time()
    c = client(games=[str(rules)])
    t = new_table(c, game=str(rules))
    page = c.get(f"/api/tables/{t['id']}?token={token(t['seats'][0]['link'])}").json()
    (board,) = page["boards"]
    assert len(board["spaces"]) == 2000 and time.process_time() - start < 15
    assert len({(s["x"], s["y"]) for s in board["spaces"]}) == 2000  # no two spaces on one spot


def test_graph_draws_a_big_path_board_quickly(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    import time

    from meeple import cli

    rules = _big_board(tmp_path, 1200)
    start = time.process_time()
    assert cli.main(["graph", str(rules), "--board", "path", "--svg", "--out", str(tmp_path / "b.svg")]) == 0
    assert time.process_time() - start < 30 and (tmp_path / "b.svg").stat().st_size > 0


def test_a_served_game_whose_setup_never_ends_is_refused_in_words(tmp_path):
    import time

    rules = tmp_path / "slow.rules"
    rules.write_text(
        'game "Slow"\nplayers 2\ncounter a = 0\nsetup:\n    a = count(each x in 1..100000 where '
        'count(each y in 1..100000 where y == x) > 0)\n    end game\nscore "S": a\n'
    )
    c = client(games=[str(rules)])
    start = time.process_time()
    r = c.post("/api/tables", json={"game": str(rules), "players": 2, "seats": ["person", "person"]})
    assert r.status_code == 400 and "steps of work" in r.json()["error"] and time.process_time() - start < 20
