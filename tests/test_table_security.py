"""The play table under attack (issue 35, the red team's third pass): each test sends what the red
team sent and asserts the server refuses it in words, keeps serving, and opens nothing it should not.
Trace and save reading (shared with the command line) is checked here too, with the same inputs."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from meeple.cli import load, main
from meeple.dsl.compiler import find_ruleset, shipped_rulesets
from meeple.interpreter import runner, trace
from meeple.interpreter.table.app import create_app
from tests.pages import PagesClient

GAMES = ["queens_wishes"]
DEEP = "[" * 100_000 + "]" * 100_000
DEEPISH = "[" * 1500 + "]" * 1500  # past Python's recursion limit, within a request's size


def client(db=":memory:", games=GAMES, traces=None, **kw) -> TestClient:
    return PagesClient(create_app(games, db, traces, allowed_hosts=["testserver"], **kw))


def recorded(game="queens_wishes", players=2, seed=1, ruleset=None) -> str:
    """A trace's text; `ruleset` rewrites what its header names (the chain recomputed, as an attacker can)."""
    result = runner.play(load(game), players, seed, ["random"], game)
    if ruleset is not None:
        result.trace.lines[0]["ruleset"] = ruleset
    return result.trace.jsonl()


# ----------------------------------------------------------------- traces and saves from outside
@pytest.mark.parametrize(
    "line, message",
    [
        ('{"a": ' + DEEP + "}", "nested more than 32 levels deep"),
        ('{"a": ' + "[" * 40 + "]" * 40 + "}", "nested more than 32 levels deep"),
        ('{"seed": ' + "9" * 5000 + "}", "more than 4300 digits"),
    ],
    ids=["100000 deep", "41 deep", "5000 digits"],
)
def test_a_trace_nested_deep_or_with_huge_numbers_is_one_trace_error(tmp_path, capsys, line, message):
    with pytest.raises(trace.TraceError, match=message):
        trace.parse(line + "\n", "t.jsonl")
    path = tmp_path / "t.jsonl"
    path.write_text(line + "\n")
    for argv in (["replay", str(path)], ["show", str(path), "--step", "1"], ["serve", "--trace", str(path)]):
        assert main(argv) in (1, 2)
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, (argv, err)


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"meeple_save": 1, "x": ' + DEEP + "}", "nested more than 32 levels deep"),
        ('{"meeple_save": 1, "seat": ' + "9" * 5000 + "}", "more than 4300 digits"),
    ],
    ids=["100000 deep", "5000 digits"],
)
def test_a_save_nested_deep_or_with_huge_numbers_is_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "s.json"
    path.write_text(text)
    assert main(["play", "queens_wishes", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


# ----------------------------------------------------------------- 1, 2: an upload names a game, never a path
def opened_paths(monkeypatch) -> list:
    """Every rules file the hall parses, recorded."""
    from meeple.interpreter.table import hall

    seen, real = [], hall.parse_file
    monkeypatch.setattr(hall, "parse_file", lambda path, *a, **k: seen.append(str(path)) or real(path, *a, **k))
    return seen


def test_an_upload_naming_a_file_on_the_server_opens_nothing_and_says_nothing_of_it(tmp_path, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text("hunter2 is the password\n")
    db = tmp_path / "tables.sqlite"
    c = client(str(db))
    seen = opened_paths(monkeypatch)
    answers = set()
    for named in [
        str(secret),
        "/etc/shadow",
        "/etc/passwd",
        str(tmp_path / "missing.rules"),
        str(db),
        "../../../../etc/hostname",
        str(tmp_path),
    ]:
        r = c.post("/api/replays", content=recorded(ruleset=named).encode())
        assert r.status_code == 400, (named, r.text)
        assert "hunter2" not in r.text and "root" not in r.text and named not in r.text
        answers.add(r.json()["error"])
    assert len(answers) == 1, answers  # an existing file and a missing one get the same answer
    assert "offers or ships" in answers.pop()
    assert not any(p.startswith(str(tmp_path)) or p.startswith("/etc") or ".." in p for p in seen), seen


def test_the_servers_own_database_named_in_an_upload_is_left_alone(tmp_path, monkeypatch):
    db = tmp_path / "tables.sqlite"
    c = client(str(db))
    t = c.post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", "person"]}).json()
    seen = opened_paths(monkeypatch)
    assert c.post("/api/replays", content=recorded(ruleset=str(db)).encode()).status_code == 400
    assert seen == [] and (tmp_path / "tables.sqlite-wal").exists()
    assert [row["id"] for row in c.app.state.hall.store.tables()] == [t["id"]]


def test_an_upload_may_name_a_shipped_or_offered_game_by_name_or_by_a_path_ending_in_it(monkeypatch):
    c = client()
    seen = opened_paths(monkeypatch)
    for game, named in [
        ("queens_wishes", None),
        ("wild_gardens", None),  # offered; shipped, not offered
        ("queens_wishes", "/home/someone/rulesets/queens_wishes/queens_wishes.rules"),
    ]:
        r = c.post("/api/replays", content=recorded(game, ruleset=named).encode())
        assert r.status_code == 200, r.text
    assert set(seen) <= {str(p) for p in shipped_rulesets().values()}, seen


def test_a_trace_given_on_the_command_line_may_name_a_path(tmp_path):
    source = find_ruleset("queens_wishes")
    copy = tmp_path / "mine.rules"
    copy.write_text(source.read_text())
    for f in source.parent.iterdir():
        if f.suffix != ".rules":
            (tmp_path / f.name).write_bytes(f.read_bytes())
    engine = load(str(copy))
    text = runner.play(engine, 2, 1, ["random"], str(copy)).trace.jsonl()
    c = client(traces=[trace.parse(text)])
    assert c.get("/api/replays/1?step=1").status_code == 200
    assert c.post("/api/replays", content=text.encode()).status_code == 400  # the same trace, uploaded: no


# ----------------------------------------------------------------- 2: one server owns one database
@pytest.fixture
def no_uvicorn(monkeypatch):
    """`meeple serve` runs up to the point of serving, which is recorded instead of done."""
    import uvicorn

    from meeple.interpreter.commands import serve

    served: list = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(dict(kw, app=app)))
    # the server's collector settings (serve.steady_collector) are for the server's process, not pytest's
    monkeypatch.setattr(serve, "steady_collector", lambda: served.append("collector tuned"))
    return served


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_second_server_on_the_same_database_is_refused(tmp_path, capsys, no_uvicorn):
    from meeple.interpreter.table.store import Store, StoreError

    db = str(tmp_path / "tables.sqlite")
    first = Store(db)
    with pytest.raises(StoreError, match="in use by another"):
        Store(db)
    assert main(["serve", "queens_wishes", "--db", db, "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert f"{db} is in use by another `meeple serve`" in err and len(err.strip().splitlines()) == 1, err
    assert no_uvicorn == []
    first.close()
    Store(db).close()  # released with the server
    assert main(["serve", "queens_wishes", "--db", db, "--port", str(free_port())]) == 0 and len(no_uvicorn) == 2
    assert no_uvicorn[0] == "collector tuned"  # before serving


@pytest.mark.parametrize(
    "what, message",
    [("folder", "is a folder"), ("text", "is not a SQLite database"), ("rules", "is not a SQLite database")],
)
def test_serve_db_naming_a_folder_or_another_file_is_one_line(tmp_path, capsys, no_uvicorn, what, message):
    target = {"folder": tmp_path, "text": tmp_path / "notes.txt", "rules": find_ruleset("queens_wishes")}[what]
    if what == "text":
        target.write_text("shopping list\n" * 100)
    before = target.read_bytes() if target.is_file() else None
    assert main(["serve", "queens_wishes", "--db", str(target), "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert no_uvicorn == [] and (before is None or target.read_bytes() == before)


# ----------------------------------------------------------------- 3: a page that stops reading
class FakeSocket:
    """A page's socket: `stuck` never finishes a send (a client that stopped reading)."""

    def __init__(self, stuck: bool = False):
        self.stuck, self.sent, self.closed = stuck, [], None

    async def send_text(self, text: str) -> None:
        """As a page takes it: a patch applied to the last picture (static/patch.js)."""
        from meeple.interpreter.table.patch import apply

        if self.stuck:
            await asyncio.Event().wait()
        message = json.loads(text)
        if message["type"] == "patch":
            self.page = apply(self.page, message["ops"])
            message = {"type": "table", "table": json.loads(json.dumps(self.page))}
        elif message["type"] == "table":
            self.page = json.loads(json.dumps(message["table"]))
        self.sent.append(message)

    async def close(self, code: int = 1000, reason=None) -> None:
        self.closed = code


def test_a_page_that_stops_reading_is_dropped_and_never_holds_up_its_table():
    from meeple.interpreter.table.hall import Hall
    from meeple.interpreter.table.live import SPECTATOR
    from meeple.interpreter.table.store import Store

    async def scenario():
        hall = Hall(GAMES, Store())
        hall.send_seconds = 0.3
        row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 3)
        live = hall.table(row["id"])
        stuck, reading = FakeSocket(stuck=True), FakeSocket()
        hall.join(row["id"], stuck, SPECTATOR)
        hall.join(row["id"], reading, 1)
        for _ in range(3):  # every choice is heard at once by the page that reads, whatever the other does
            d = live.decision()
            await asyncio.wait_for(
                hall.act(row["id"], d.actor, {"type": "choose", "option": d.options[0].id, "step": live.state["step"]}),
                1,
            )
            await asyncio.sleep(0.01)
            assert reading.sent[-1]["table"]["step"] == live.state["step"]
        await asyncio.sleep(0.5)
        assert stuck.closed == 1013 and reading.closed is None  # dropped: "try again later"
        assert [seat for _, seat in hall.pages[row["id"]]] == [1]

    asyncio.run(scenario())


def test_a_page_too_far_behind_is_dropped_at_once():
    from meeple.interpreter.table.hall import Hall
    from meeple.interpreter.table.store import Store

    async def scenario():
        hall = Hall(GAMES, Store())
        hall.queue_size = 2
        row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 3)
        live = hall.table(row["id"])
        stuck = FakeSocket(stuck=True)
        hall.join(row["id"], stuck, 0)
        for _ in range(4):
            await asyncio.wait_for(hall.broadcast(live), 1)
        await asyncio.sleep(0.01)
        assert stuck.closed == 1013 and not hall.pages[row["id"]]

    asyncio.run(scenario())


# ----------------------------------------------------------------- 4: bots: bounded, and their errors shown
@pytest.mark.parametrize(
    "bot",
    [
        "mcts@3600s",
        "planner@infs",
        "planner@99999999999999",
        "mcts@10000000",
        "greedy@1000000",
        "rollout@10000",
        "mcts@nans",
        "planner@1e9",
    ],
)
def test_a_bot_budget_past_the_tables_cap_is_refused(bot):
    c = client()
    r = c.post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", bot]})
    assert r.status_code == 400 and f"`{bot}`" in r.json()["error"], r.text
    assert c.app.state.hall.store.tables() == []


@pytest.mark.parametrize(
    "bot",
    [
        "mcts",
        "mcts@200",
        "mcts@1000",
        "mcts@5s",
        "planner",
        "planner@2s",
        "greedy",
        "greedy@1000",
        "rollout@12",
        "random",
    ],
)
def test_a_bot_budget_within_the_cap_is_seated(bot):
    from meeple.interpreter.table.bots import check_seats

    check_seats(["person", bot], 2)


def test_the_cap_is_said_in_the_refusal():
    r = client().post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", "mcts@3600s"]})
    assert "at most 5 s or 1,000 iterations a move" in r.json()["error"]


RUNAWAY = (
    'game "R"\nplayers 2\ncounter a = 0\neffect e():\n    do f()\neffect f():\n    do e()\n'
    "setup:\n    next loop\nphase loop:\n    choose x from [1, 2] by 0:\n        do e()\n    next loop\n"
    'score "S": a\n'
)


def test_a_rule_error_on_a_bots_move_is_shown_on_every_page(tmp_path):
    rules = tmp_path / "runaway.rules"
    rules.write_text(RUNAWAY)
    with TestClient(create_app([str(rules)], allowed_hosts=["testserver"])) as c:
        t = c.post("/api/tables", json={"game": str(rules), "players": 2, "seats": ["random", "person"]}).json()
        url = f"/api/tables/{t['id']}?token={t['seats'][1]['link'].split('token=')[1]}"
        deadline = time.time() + 10
        while not (page := c.get(url).json()).get("bot_error") and time.time() < deadline:
            time.sleep(0.05)
        assert "more than 64 deep" in page["bot_error"] and page["decision"]["actor"] == 0, page
        with c.websocket_connect(url.replace("/api/tables/", "/ws/")) as ws:
            assert "more than 64 deep" in ws.receive_json()["table"]["bot_error"]
    js = (Path(__file__).resolve().parents[1] / "interpreter/table/static/table.js").read_text()
    assert "bot_error" in js  # the page says it instead of "thinking"


# ----------------------------------------------------------------- 5: uploads are bounded, and read off the loop
def test_uploads_are_kept_up_to_a_number_and_a_size_oldest_first():
    first = recorded(seed=1)
    c = client(traces=[trace.parse(first)])
    cache = c.app.state.replays
    cache.count = 2
    ids = [c.post("/api/replays", content=recorded(seed=s).encode()).json()["id"] for s in (2, 3, 4)]
    assert c.get(f"/api/replays/{ids[0]}").status_code == 404  # the oldest upload made room
    assert all(c.get(f"/api/replays/{i}").status_code == 200 for i in ids[1:] + ["1"])  # the operator's stays
    cache.count, cache.size = 10, len(first.encode()) * 3 // 2
    newest = c.post("/api/replays", content=recorded(seed=5).encode()).json()["id"]
    assert [r["id"] for r in c.get("/api/replays").json()["replays"]] == ["1", newest]
    cache.size = 10
    r = c.post("/api/replays", content=recorded(seed=6).encode())
    assert r.status_code == 400 and "too large" in r.json()["error"]


def test_an_upload_is_read_and_replayed_off_the_event_loop(monkeypatch):
    from meeple.interpreter.table import app as app_module

    on_loop = []
    real = app_module.Replay

    def spy(*args, **kwargs):
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real(*args, **kwargs)

    monkeypatch.setattr(app_module, "Replay", spy)
    assert client().post("/api/replays", content=recorded().encode()).status_code == 200
    assert on_loop == [False]


def test_an_upload_past_the_size_is_refused_before_it_is_read():
    c = client()
    r = c.post("/api/replays", content=b"x" * 10, headers={"content-length": str(10**9)})
    assert r.status_code in (400, 413) and "too large" in r.json()["error"]


# ----------------------------------------------------------------- 6: Host and Origin
def test_a_page_of_another_site_cannot_change_anything():
    c = client()
    body = {"game": "queens_wishes", "players": 2, "seats": ["person", "person"]}
    for origin in ["http://evil.example", "http://testserver.evil.example", "null", "http://localhost"]:
        r = c.post("/api/tables", json=body, headers={"origin": origin})
        assert r.status_code == 403 and "another site" in r.json()["error"], (origin, r.text)
        r = c.post("/api/replays", content=recorded().encode(), headers={"origin": origin})
        assert r.status_code == 403, origin
    assert c.app.state.hall.store.tables() == [] and not list(c.app.state.replays.items())
    assert c.post("/api/tables", json=body, headers={"origin": "http://testserver"}).status_code == 200
    assert c.get("/api/games", headers={"origin": "http://evil.example"}).status_code == 200  # reading: the
    # browser keeps the answer from the other site (no CORS headers are ever sent)
    assert "access-control-allow-origin" not in c.get("/api/games").headers


def test_a_socket_from_another_sites_page_is_refused_before_it_opens():
    from starlette.websockets import WebSocketDisconnect

    c = client()
    t = c.post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", "person"]}).json()
    url = f"/ws/{t['id']}?token={t['seats'][0]['link'].split('token=')[1]}"
    with pytest.raises(WebSocketDisconnect) as refused:
        with c.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    assert refused.value.code == 1008
    with c.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "table"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil"])
def test_a_host_not_allowed_is_refused_dns_rebinding(host):
    c = client()
    for path in ["/", "/api/tables", "/api/games", "/api/tables/x/links?token=y"]:
        r = c.get(path, headers={"host": host})
        assert r.status_code == 400 and "--allowed-host" in r.json()["error"], (path, r.text)
    r = c.post(
        "/api/tables",
        headers={"host": host, "origin": f"http://{host}"},
        json={"game": "queens_wishes", "players": 2, "seats": ["person", "person"]},
    )
    assert r.status_code == 400 and c.app.state.hall.store.tables() == []


@pytest.mark.parametrize("base", ["http://localhost:8000", "http://127.0.0.1", "http://[::1]:8000"])
def test_loopback_names_are_always_allowed(base):
    assert TestClient(create_app(GAMES), base_url=base).get("/api/games").status_code == 200
    assert TestClient(create_app(GAMES)).get("/api/games").status_code == 400  # "testserver": not by default


def test_serve_allowed_host_is_the_name_behind_a_proxy(tmp_path, capsys, no_uvicorn):
    db = str(tmp_path / "t.sqlite")
    assert (
        main(
            [
                "serve",
                "queens_wishes",
                "--db",
                db,
                "--port",
                str(free_port()),
                "--allowed-host",
                "games.example.org",
                "--allowed-host",
                "10.0.0.5",
            ]
        )
        == 0
    )
    app = no_uvicorn[-1]["app"]
    for base in ["https://games.example.org", "http://10.0.0.5:8000", "http://localhost:8000"]:
        assert TestClient(app, base_url=base).get("/api/games").status_code == 200, base
    assert TestClient(app, base_url="https://elsewhere.example.org").get("/api/games").status_code == 400
    app.state.hall.store.close()
    for bad in ["https://games.example.org", "games.example.org/x", "games.example.org:443", "", "*"]:
        assert main(["serve", "--db", db, "--port", str(free_port()), "--allowed-host", bad]) == 2
        err = capsys.readouterr().err
        assert "--allowed-host takes a host name" in err and len(err.strip().splitlines()) == 1, err


# ----------------------------------------------------------------- 7: a bad request is a 4xx, never a 500
TABLE = {"game": "queens_wishes", "players": 2, "seats": ["person", "person"]}


@pytest.mark.parametrize(
    "body, message",
    [
        (dict(TABLE, seed=2**63), "seed"),
        (dict(TABLE, seed=-1), "seed"),
        (dict(TABLE, seed=True), "seed"),
        (dict(TABLE, seed=1.5), "seed"),
        (dict(TABLE, game=["queens_wishes"]), "game"),
        (dict(TABLE, game={"a": 1}), "game"),
        (dict(TABLE, players="2"), "players"),
        (dict(TABLE, players=2**70), "players"),
        (dict(TABLE, seats="person"), "seats"),
        (dict(TABLE, seats=[["person"], "person"]), "seats"),
        (dict(TABLE, options=["a"]), "options"),
        (dict(TABLE, options={"board": ["A"]}), "options"),
        (dict(TABLE, variants="x"), "variants"),
        (dict(TABLE, seats=["person"] * 100, players=10), "seats"),
        (dict(TABLE, wizard=1), "wizard"),
        ({"players": 2, "seats": ["person", "person"]}, "game"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_table_request_of_the_wrong_shape_is_a_400_naming_the_field(body, message):
    c = client()
    r = c.post("/api/tables", json=body)
    assert r.status_code == 400 and message in r.json()["error"], r.text
    assert c.app.state.hall.store.tables() == []


@pytest.mark.parametrize(
    "raw",
    [
        '{"game": "queens_wishes", "players": 2, "seats": ["person", "person"], "seed": ' + "9" * 5000 + "}",
        '{"game": "queens_wishes", "players": 2, "seats": ["person", "person"], "x": ' + DEEPISH + "}",
        '{"game": ' + DEEPISH + "}",
        "[" * 50 + "]" * 50,
        "\xff\xfe",
    ],
    ids=["5000 digits", "deep field", "deep game", "deep list", "not utf-8"],
)
def test_a_table_request_that_is_not_reasonable_json_is_a_400(raw):
    c = client()
    r = c.post(
        "/api/tables",
        content=raw.encode("latin-1") if raw.startswith("\xff") else raw.encode(),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and "error" in r.json(), r.text


def test_a_huge_table_request_is_refused_unread():
    r = client().post("/api/tables", content=b" " * 2_000_000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]


def test_a_rule_error_during_setup_is_a_400_and_no_table(tmp_path):
    rules = tmp_path / "broken.rules"
    rules.write_text(
        'game "B"\nplayers 2\ncounter a = 0\neffect e():\n    do f()\neffect f():\n    do e()\n'
        'setup:\n    do e()\nscore "S": a\n'
    )
    c = TestClient(create_app([str(rules)], allowed_hosts=["testserver"]))
    r = c.post("/api/tables", json={"game": str(rules), "players": 2, "seats": ["person", "person"]})
    assert r.status_code == 400 and "more than 64 deep" in r.json()["error"], r.text
    assert c.app.state.hall.store.tables() == []


@pytest.mark.parametrize(
    "raw",
    [
        '{"seed": ' + "9" * 5000 + "}",
        '{"step": ' + "9" * 5000 + ', "type": "choose", "option": "x"}',
        '{"type": ' + DEEPISH + "}",
        "[" * 100 + "]" * 100,
        '{"type": "undo", "x": "' + "x" * 10_000 + '"}',
    ],
    ids=["5000 digits", "huge step", "deep type", "deep list", "long"],
)
def test_a_socket_message_that_is_not_reasonable_json_gets_an_error_and_the_socket_stays(raw):
    c = client()
    t = c.post("/api/tables", json=TABLE).json()
    with c.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['link'].split('token=')[1]}") as ws:
        ws.receive_json()
        ws.send_text(raw)
        m = ws.receive_json()
        assert m["type"] == "error" and m["message"], m
        assert ws.receive_json()["type"] == "table"
        ws.send_text('{"type": "undo"}')  # still served
        assert "nothing to undo" in ws.receive_json()["message"]


def test_a_binary_frame_gets_an_error_and_the_socket_stays():
    c = client()
    t = c.post("/api/tables", json=TABLE).json()
    with c.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['link'].split('token=')[1]}") as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "undo"}')
        m = ws.receive_json()
        assert m["type"] == "error" and "text" in m["message"], m
        assert ws.receive_json()["type"] == "table"
        ws.send_text('{"type": "undo"}')
        assert "nothing to undo" in ws.receive_json()["message"]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"meeple": 2, "game": "x", "seed": ' + b"9" * 5000 + b"}\n",
        b'{"meeple": 2, "x": ' + DEEP.encode() + b"}\n",
        recorded().replace('"seed": 1,', '"seed": ' + "9" * 30 + ",", 1).encode(),
    ],
    ids=["5000 digits", "deep", "huge seed"],
)
def test_an_upload_that_is_not_reasonable_json_is_a_400(raw):
    r = client().post("/api/replays", content=raw)
    assert r.status_code == 400 and "cannot open this trace" in r.json()["error"], r.text


def test_a_message_put_from_another_loop_wakes_the_pages_writer():
    # The hall may broadcast from a handler on another event loop (the test client runs each
    # socket on its own); the page's writer must still wake and send (it once waited forever).
    import asyncio
    import threading

    from meeple.interpreter.table.outbox import Outbox

    class Page:
        def __init__(self):
            self.sent = threading.Event()

        async def send_text(self, message):
            self.sent.set()

    page, ready, box = Page(), threading.Event(), {}

    async def serve():
        box["outbox"] = Outbox(page)
        ready.set()
        await asyncio.sleep(5)

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    assert ready.wait(5)
    assert box["outbox"].send({"type": "table", "table": {}})  # from this thread: no running loop here
    assert page.sent.wait(2), "the writer never woke for a message from another thread"
