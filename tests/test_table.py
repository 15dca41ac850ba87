"""The play table's server (interpreter/table/): every route and socket message with Starlette's
TestClient, hidden information per seat, bad input refused without a change, undo, the bots,
restart-resume from SQLite, the replay viewer and `meeple serve`'s command line."""

from __future__ import annotations

import json
import random
import re

import pytest
from starlette.testclient import TestClient

from meeple.cli import load, main
from meeple.interpreter import runner
from meeple.interpreter.state import can_see
from meeple.interpreter.table.app import create_app
from meeple.interpreter.table.live import SPECTATOR
from tests.pages import PagesClient

GAMES = ["queens_wishes", "wild_gardens", "apothebakery"]


def client(db=":memory:", games=GAMES, traces=None) -> TestClient:
    return PagesClient(create_app(games, db, traces, allowed_hosts=["testserver"]))  # TestClient's Host


def new_table(c: TestClient, game="queens_wishes", seats=("person", "person"), seed=3, **extra) -> dict:
    r = c.post("/api/tables", json={"game": game, "players": len(seats), "seats": list(seats), "seed": seed, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def token(link: str) -> str:
    return link.split("token=")[1]


def live_of(c: TestClient, table: dict):
    return c.app.state.hall.table(table["id"])


def error_of(ws) -> str:
    """An error message; the page is sent again after it, so a stale page catches up."""
    m = ws.receive_json()
    assert m["type"] == "error", m
    assert ws.receive_json()["type"] == "table"
    return m["message"]


def my_turn(ws) -> dict:
    """Read socket messages until the page shows the seat's own decision (bots may move first)."""
    while True:
        m = ws.receive_json()
        assert m["type"] == "table", m
        if m["table"]["decision"] is None or m["table"]["decision"]["mine"]:
            return m["table"]


# ----------------------------------------------------------------- pages and the lobby's data
def test_pages_and_static_files_are_served():
    c = client()
    t = new_table(c)
    seat = token(t["seats"][0]["link"])
    for path, marker in [
        ("/", 'id="new-table"'),
        (f"/table/{t['id']}?token={seat}", 'id="decision"'),
        (f"/table/{t['id']}", 'id="decision"'),
        ("/replay", 'id="upload"'),
        ("/table/nosuch?token=x", "No such table"),
    ]:
        r = c.get(path)
        assert marker in r.text, path
        # every page is laid out for the device's width (a phone does not draw it 980 px wide and shrink it)
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text, path
    for name in ["draw.js", "table.js", "place.js", "lobby.js", "replay.js", "table.css"]:
        assert c.get(f"/static/{name}").status_code == 200


def test_a_link_that_cannot_work_gets_a_clear_page_and_a_socket_that_says_stop():
    """An unknown table or a forged token: a page that says so (no table page that retries for
    ever), and a socket closed with a code the page knows not to retry after."""
    from starlette.websockets import WebSocketDisconnect

    c = client()
    t = new_table(c)
    r = c.get("/table/nosuch?token=abc")
    assert r.status_code == 404 and "No such table" in r.text and "There is no table `nosuch`" in r.text
    assert 'id="decision"' not in r.text and "<script" not in r.text
    r = c.get(f"/table/{t['id']}?token=forged")
    assert r.status_code == 403 and "This link is not valid" in r.text and "<script" not in r.text
    r = c.get("/table/%3Cb%3E?token=x")  # the id is shown escaped, never as markup
    assert r.status_code == 404 and "<b>" not in r.text and "&lt;b&gt;" in r.text
    for path, code, words in [
        (f"/ws/{t['id']}?token=forged", 4403, "does not open a seat"),
        ("/ws/nosuch?token=x", 4404, "no table"),
    ]:
        with c.websocket_connect(path) as ws:
            assert words in ws.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code


def test_a_seed_chosen_in_the_lobby_is_shown_to_every_seat_and_a_random_one_to_none(tmp_path):
    """Whoever chose the seed could foresee the draws: every seat (and a spectator) is told.
    A seed nobody chose stays on the server: knowing it would let a seat foresee them."""
    c = client(str(tmp_path / "t.sqlite"))
    chosen = new_table(c, seed=42)
    drawn = c.post("/api/tables", json={"game": "queens_wishes", "players": 2, "seats": ["person", "person"]}).json()
    for t, seed in [(chosen, 42), (drawn, None)]:
        for link in [s["link"] for s in t["seats"]] + [t["spectator"]]:
            assert c.get(f"/api/tables/{t['id']}?token={token(link)}").json()["seed"] == seed
    c.app.state.hall.store.close()
    again = client(str(tmp_path / "t.sqlite"))  # a restart keeps whether it was chosen
    assert again.get(f"/api/tables/{chosen['id']}?token={token(chosen['spectator'])}").json()["seed"] == 42


def test_a_database_from_before_chosen_seeds_opens_with_its_seeds_unshown(tmp_path):
    import sqlite3

    from meeple.interpreter.table.store import Store

    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.execute(
        "create table tables (id text primary key, ruleset text not null, options text not null, "
        "variants text not null, players integer not null, seed integer not null, digest text not null, "
        "seats text not null, spectator text not null)"
    )
    old.execute("insert into tables values ('t1', 'queens_wishes', '{}', '[]', 2, 5, 'd', '[]', 's')")
    old.commit()
    old.close()
    store = Store(str(db))
    try:
        assert [r["seed_chosen"] for r in store.tables()] == [False]
    finally:
        store.close()


def test_the_lobby_lists_the_games_with_players_options_variants_and_bots():
    data = client().get("/api/games").json()
    games = {g["name"]: g for g in data["games"]}
    assert list(games) == GAMES
    wg = games["wild_gardens"]
    assert (wg["min_players"], wg["max_players"]) == (1, 4)
    assert {"name": "side", "values": ["front", "back"], "doc": "The side of the Path Board the game starts on"} in wg[
        "options"
    ]
    assert {"name": "keep_it_fresh", "title": "Keep It Fresh"} in wg["variants"]
    assert data["bots"] == ["random", "greedy", "mcts@200"]


def test_creating_a_table_gives_a_private_link_per_person_and_a_spectator_link():
    c = client()
    t = new_table(c, seats=("person", "greedy", "person"))
    assert [s["agent"] for s in t["seats"]] == ["person", "greedy", "person"]
    assert t["seats"][1]["link"] is None  # a bot's seat opens nothing
    tokens = {token(t["seats"][0]["link"]), token(t["seats"][2]["link"]), token(t["spectator"])}
    assert len(tokens) == 3
    assert c.get(f"/api/tables/{t['id']}?token={token(t['seats'][2]['link'])}").json()["seat_name"] == "P3"
    spectator = c.get(f"/api/tables/{t['id']}?token={token(t['spectator'])}").json()
    assert spectator["seat"] is None and spectator["seat_name"] == "spectator"
    assert "token" not in json.dumps(spectator)  # no page ever carries the seats' tokens


def test_the_lobby_lists_every_table_with_only_a_spectators_link(tmp_path):
    db = str(tmp_path / "tables.sqlite")
    c = client(db)
    assert c.get("/api/tables").json() == {"tables": []}
    first = new_table(c, seats=("person", "greedy"))
    second = new_table(c, game="wild_gardens", seats=("person", "person", "random"))
    live = live_of(c, first)
    live.choose(0, live.decision().options[0].id, live.state["step"])
    listed = c.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [second["id"], first["id"]]  # newest first
    assert listed[1] == {
        "id": first["id"],
        "game": "queens_wishes",
        "players": 2,
        "seats": ["person", "greedy"],
        "names": ["", ""],
        "decisions": 1,
        "over": False,
        "watch": first["spectator"],
        "next": None,  # no rematch asked
    }
    assert listed[0]["decisions"] == 0 and listed[0]["seats"] == ["person", "person", "random"]
    seat_tokens = {token(s["link"]) for t in (first, second) for s in t["seats"] if s["link"]}
    seat_tokens |= {first["creator"], second["creator"]}
    assert not any(tok in json.dumps(listed) for tok in seat_tokens)  # a seat's (or creator's) link is never listed
    watched = c.get(f"/api/tables/{first['id']}?token={token(listed[1]['watch'])}").json()
    assert watched["seat_name"] == "spectator"
    c.app.state.hall.store.close()
    again = client(db)  # after a restart: the same tables, not yet opened so not known to be over or not
    assert [(t["id"], t["decisions"], t["over"]) for t in again.get("/api/tables").json()["tables"]] == [
        (second["id"], 0, None),
        (first["id"], 1, None),
    ]


@pytest.mark.parametrize(
    "body, message",
    [
        ({"game": "chess", "players": 2, "seats": ["person"] * 2}, "`chess` is not offered here"),
        ({"game": "queens_wishes", "players": 9, "seats": ["person"] * 9}, "is for 1-4 players, not 9"),
        ({"game": "queens_wishes", "players": 2, "seats": ["person"]}, "one entry per seat: 2 seats, 1 given"),
        ({"game": "queens_wishes", "players": 2, "seats": ["person", "wizard"]}, "unknown agent `wizard`"),
        ({"game": "queens_wishes", "players": 2, "seats": ["person", "os:system"]}, "built-in agents only"),
        ({"game": "queens_wishes", "players": 2, "seats": ["person"] * 2, "options": {"board": "Q"}}, "board"),
        ({"game": "queens_wishes", "players": 2, "seats": ["person"] * 2, "variants": ["nope"]}, "unknown variant"),
        ([1, 2], "JSON object"),
    ],
)
def test_a_bad_table_request_is_refused_with_a_clear_message(body, message):
    c = client()
    r = c.post("/api/tables", json=body)
    assert r.status_code == 400 and message in r.json()["error"]
    assert c.app.state.hall.store.tables() == []


def test_a_malformed_table_request_is_refused():
    r = client().post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]


def test_a_wrong_token_or_table_is_refused():
    c = client()
    t = new_table(c)
    assert c.get(f"/api/tables/{t['id']}?token=forged").status_code == 403
    assert c.get(f"/api/tables/{t['id']}").status_code == 403
    assert c.get(f"/api/tables/nosuch?token={token(t['spectator'])}").status_code == 404
    with c.websocket_connect(f"/ws/{t['id']}?token=forged") as ws:
        assert "does not open a seat" in ws.receive_json()["message"]


# ----------------------------------------------------------------- playing over the socket
def test_a_choice_over_the_socket_reaches_every_page_in_its_own_view():
    c = client()
    t = new_table(c)
    p1, p2 = token(t["seats"][0]["link"]), token(t["seats"][1]["link"])
    with c.websocket_connect(f"/ws/{t['id']}?token={p1}") as a, c.websocket_connect(f"/ws/{t['id']}?token={p2}") as b:
        page = a.receive_json()["table"]
        other = b.receive_json()["table"]
        d = page["decision"]
        assert d["mine"] and d["prompt"] and len(d["options"]) == 5
        assert other["decision"] == {"actor": 0, "actor_name": "P1", "mine": False}  # P2 waits, sees no options
        a.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
        after_a, after_b = a.receive_json()["table"], b.receive_json()["table"]
        assert after_a["step"] == after_b["step"] == 1
        assert after_a["log"][-1] == after_b["log"][-1]
        assert any(line == f"{d['prompt']} P1 chooses {d['options'][0]['label']}" for line in after_b["log"])
        # the next choice is of cards in a public zone: the page may click them
        assert all("card" in o for o in after_a["decision"]["options"])


def test_a_placement_offers_the_pieces_orientations_and_places_and_undo_takes_it_back():
    c = client()
    t = new_table(c)
    p1 = token(t["seats"][0]["link"])
    live = live_of(c, t)
    with c.websocket_connect(f"/ws/{t['id']}?token={p1}") as ws:
        page = ws.receive_json()["table"]
        while "placement" not in (page["decision"] or {}):
            d = page["decision"]
            ws.send_json({"type": "choose", "option": d["options"][0]["id"], "step": d["step"]})
            page = ws.receive_json()["table"]
        d = page["decision"]
        placement = d["placement"]
        assert placement["grid"] == "garden/0" and d["undoable"]
        assert {o["o"] for o in placement["orientations"]} == {s[0] for s in placement["places"]}
        assert len(placement["places"]) == len(d["options"])
        o, r, col, option = placement["places"][-1]
        piece_cells = next(x["cells"] for x in placement["orientations"] if x["o"] == o)
        before = live.state
        ws.send_json({"type": "choose", "option": option, "step": d["step"]})
        placed = ws.receive_json()["table"]
        grid = next(g for g in placed["grids"] if g["key"] == "garden/0")
        for dr, dc, symbol in piece_cells:
            assert grid["cells"][(r + dr) * grid["cols"] + col + dc] == symbol
        assert placed["can_undo"]
        assert c.app.state.hall.store.choices(t["id"])[-1] == option
        ws.send_json({"type": "undo"})
        undone = ws.receive_json()["table"]
        assert live.state == before and undone["decision"]["options"] == d["options"]
        assert option not in c.app.state.hall.store.choices(t["id"])
        ws.send_json({"type": "undo"})
        assert "nothing to undo" in error_of(ws)


@pytest.mark.parametrize(
    "message, expected",
    [
        ("not json", "a message is a JSON object"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"type": "shout"}', "unknown message type `shout`"),
        ('{"type": "choose", "option": "ZZ", "step": 0}', "not one of your options"),
        ('{"type": "choose", "option": ["O"], "step": 0}', "not one of your options"),
        ('{"type": "choose", "option": "O", "step": 7}', "an earlier moment of the game"),
        ('{"type": "choose", "option": "O"}', "an earlier moment of the game"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(message, expected):
    c = client()
    t = new_table(c)
    live = live_of(c, t)
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        ws.receive_json()
        state = live.state
        ws.send_text(message)
        assert expected in error_of(ws)
        assert live.state is state and live.version == 0 and c.app.state.hall.store.choices(t["id"]) == []


def test_out_of_turn_and_spectator_choices_are_refused():
    c = client()
    t = new_table(c)
    live = live_of(c, t)
    d = live.decision()
    for who, expected in [
        (t["seats"][1]["link"], "not your turn: waiting for P1"),
        (t["spectator"], "spectators cannot choose"),
    ]:
        with c.websocket_connect(f"/ws/{t['id']}?token={token(who)}") as ws:
            ws.receive_json()
            ws.send_json({"type": "choose", "option": d.options[0].id, "step": 0})
            assert expected in error_of(ws)
            ws.send_json({"type": "undo"})
            assert "nothing to undo" in error_of(ws)
    assert live.version == 0 and live.state["step"] == 0


def test_bots_play_their_seats_until_a_person_decides():
    c = client()
    t = new_table(c, game="wild_gardens", seats=("greedy", "person", "random"))
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as ws:
        for _ in range(6):
            page = my_turn(ws)
            d = page["decision"]
            assert d["actor"] == 1
            ws.send_json({"type": "choose", "option": d["options"][-1]["id"], "step": d["step"]})
    live = live_of(c, t)
    assert {e["actor"] for e in live.entries} == {0, 1, 2}


def test_options_name_what_the_page_may_click_cells_and_groups_of_cells():
    c = client(games=["tic_tac_toe", "connect_four"])
    for game, key in [("tic_tac_toe", "cell"), ("connect_four", "cells")]:
        t = new_table(c, game=game)
        page = c.get(f"/api/tables/{t['id']}?token={token(t['seats'][0]['link'])}").json()
        options = page["decision"]["options"]
        assert options and all(key in o for o in options), (game, options[0])
        if key == "cells":  # a column: every cell of it, none shared with another option
            cells = [tuple(x) for o in options for x in o["cells"]]
            assert len(cells) == len(set(cells)) == 42


# ----------------------------------------------------------------- hidden information
def never_seen(live, seat) -> set:
    """Components the seat could never see so far: the game is replayed and every component
    that sat in a zone the seat sees, or moved from or into one, or lies on a grid, counts as seen."""
    g, engine = live.engine.game, live.engine
    seen = set()

    def look(state, events):
        for key, items in state["zones"].items():
            if can_see(g, key, seat):
                seen.update(items)
        seen.update(p[0] for grid in state["grids"].values() for p in grid["pieces"])
        for e in events:
            if e["e"] in ("move", "draw") and (can_see(g, e["src"], seat) or can_see(g, e["dst"], seat)):
                seen.update(e["items"])

    state, events = engine.start(live.players, live.row["seed"])
    look(state, events)
    for choice in live.choices:
        state, events = engine.apply(state, choice)
        look(state, events)
    return set(g.components) - seen


def without_names(page: dict) -> dict:
    """The page less the names of things kept per component (`gained_on[k-1]`, a zone per card):
    those name every component whoever holds it, and reveal nothing about where one is."""
    page = dict(page, options={})
    page["counters"] = [{"value": c["value"]} for c in page["counters"]]
    page["zones"] = [{k: v for k, v in z.items() if k not in ("key", "label")} for z in page["zones"]]
    return page


@pytest.mark.parametrize("game, players", [("apothebakery", 3), ("wild_gardens", 2)])
def test_no_seat_ever_receives_a_component_it_could_not_see(game, players):
    c = client()
    t = new_table(c, game=game, seats=["person"] * players, seed=5)
    live = live_of(c, t)
    rnd = random.Random(5)
    from meeple.interpreter.table.pages import seat_page

    for step in range(160):
        d = live.decision()
        if d is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
        if step % 8:
            continue
        for seat in list(range(players)) + [SPECTATOR]:
            viewer = None if seat == SPECTATOR else seat
            text = json.dumps(without_names(seat_page(live, seat)))
            words = set(re.findall(r"[A-Za-z0-9_\-]+", text))
            hidden = never_seen(live, viewer)
            assert hidden, "the test would prove nothing: every component was seen"
            leaked = hidden & words
            assert not leaked, f"step {step}: {seat} received {sorted(leaked)[:5]}"
    assert live.state["step"] > 100


def test_a_seats_socket_shows_its_own_hand_and_only_counts_of_the_others():
    c = client()
    t = new_table(c, game="apothebakery", seats=["person"] * 2, seed=2)
    live = live_of(c, t)
    rnd = random.Random(2)
    while not live.state["zones"]["secret/0"] or not live.state["zones"]["secret/1"]:
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    mine, theirs = live.state["zones"]["secret/0"], live.state["zones"]["secret/1"]
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        page = ws.receive_json()["table"]
    zones = {z["key"]: z for z in page["zones"]}
    assert [card["id"] for card in zones["secret/0"]["cards"]] == mine
    assert zones["secret/1"]["count"] == len(theirs) and "cards" not in zones["secret/1"]
    assert not set(theirs) & set(re.findall(r"[a-z0-9\-]+", json.dumps(page)))


# ----------------------------------------------------------------- SQLite: stored, then resumed
def test_a_restarted_server_resumes_every_table_exactly(tmp_path):
    db = str(tmp_path / "tables.sqlite")
    c = client(db)
    tables = [
        new_table(c, game=g, seats=seats, seed=11)
        for g, seats in [
            ("queens_wishes", ("person", "greedy")),
            ("wild_gardens", ("person", "random", "person")),
            ("apothebakery", ("person", "person")),
        ]
    ]
    rnd = random.Random(11)
    for t in tables:
        live = live_of(c, t)
        for _ in range(25):
            d = live.decision()
            if live.bot_to_move() is not None:
                live.bot_move()
            else:
                live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    before = {
        t["id"]: (live_of(c, t).state, c.get(f"/api/tables/{t['id']}?token={token(t['spectator'])}").json())
        for t in tables
    }
    c.app.state.hall.store.close()
    again = client(db)  # a new process would see exactly this: only the SQLite file
    for t in tables:
        state, page = before[t["id"]]
        assert live_of(again, t).state == state
        assert again.get(f"/api/tables/{t['id']}?token={token(t['spectator'])}").json() == page
    with again.websocket_connect(f"/ws/{tables[2]['id']}?token={token(tables[2]['seats'][0]['link'])}") as ws:
        assert ws.receive_json()["table"]["step"] == 25


def test_every_decision_is_stored_before_pages_hear_of_it(tmp_path):
    c = client(str(tmp_path / "t.sqlite"))
    t = new_table(c)
    heard = []
    hall = c.app.state.hall
    real = hall.broadcast

    async def spy(live):
        heard.append((live.state["step"], len(hall.store.choices(live.id))))
        await real(live)

    hall.broadcast = spy
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        d = ws.receive_json()["table"]["decision"]
        ws.send_json({"type": "choose", "option": d["options"][2]["id"], "step": 0})
        ws.receive_json()
    assert heard == [(1, 1)]


# ----------------------------------------------------------------- the replay viewer
def traced(game="apothebakery", players=2, seed=4):
    engine = load(game)
    result = runner.play(engine, players, seed, ["random"], game)
    return result.trace.jsonl(), result


def test_a_trace_given_at_start_steps_through_per_seat_and_public():
    from meeple.interpreter import trace

    text, result = traced()
    c = client(traces=[trace.parse(text)])
    listed = c.get("/api/replays").json()["replays"]
    assert listed == [{"id": "1", "title": result.trace.lines[0]["game"], "steps": result.decisions, "players": 2}]
    end = c.get(f"/api/replays/1?step={result.decisions}").json()
    assert end["scores"]["players"][0]["total"] == result.scores[0]["total"]
    step = 40
    public = c.get(f"/api/replays/1?step={step}&seat=public").json()
    p1 = c.get(f"/api/replays/1?step={step}&seat=1").json()
    hand = {z["key"]: z for z in p1["zones"]}.get("secret/0")
    assert hand and "cards" in hand
    assert "cards" not in {z["key"]: z for z in public["zones"]}["secret/0"]
    assert c.get("/api/replays/1?step=99999").json()["error"].startswith("step 99999 is not in this trace")
    assert "seat 3 is not in this game" in c.get("/api/replays/1?step=1&seat=3").json()["error"]
    assert c.get("/api/replays/1?step=x").status_code == 400
    assert c.get("/api/replays/9").status_code == 404


def test_a_replay_step_shows_the_game_so_far_in_its_log_as_a_live_table_does():
    # One step's events alone left the panel empty where the seat saw none of them.
    from meeple.interpreter import trace

    text, result = traced("queens_wishes", 2, 1)
    c = client(traces=[trace.parse(text)])
    for seat in ("public", "1", "2"):
        before = c.get(f"/api/replays/1?step=3&seat={seat}").json()["log"]
        page = c.get(f"/api/replays/1?step=4&seat={seat}").json()
        choices = [line for line in page["log"] if not line.startswith("  ") and line != "Setup"]
        assert len(choices) == 4 and choices[-1] == page["taken"], (seat, page["log"])
        assert page["log"][0] == "Setup" and page["log"][: len(before)] == before, seat  # what was shown stays


def test_a_trace_can_be_uploaded_and_a_bad_one_is_refused():
    text, result = traced("queens_wishes", 2, 1)
    c = client()
    r = c.post("/api/replays", content=text.encode())
    assert r.status_code == 200 and r.json()["steps"] == result.decisions
    page = c.get(f"/api/replays/{r.json()['id']}?step=3").json()
    line = next(ln for ln in result.trace.lines if ln.get("step") == 3)  # the question, who, and what
    assert page["taken"] == f"{line['title']} P{line['actor'] + 1} chooses {line['label']}" and page["grids"]
    bad = c.post("/api/replays", content=b"{}\n")
    assert bad.status_code == 400 and "not a Meeple trace" in bad.json()["error"]
    changed = text.replace('"choice": "', '"choice": "x', 1)
    assert "upload:3: this line was edited" in c.post("/api/replays", content=changed.encode()).json()["error"]


# ----------------------------------------------------------------- the command line
def test_serve_refuses_an_unknown_game_a_bad_port_and_a_bad_trace(capsys, tmp_path):
    assert main(["serve", "chess"]) == 2
    assert "unknown game `chess`" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be between 1 and 65535" in capsys.readouterr().err
    (tmp_path / "t.jsonl").write_text("nonsense\n")
    assert main(["serve", "--trace", str(tmp_path / "t.jsonl")]) == 2
    assert "not a JSON line" in capsys.readouterr().err
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
        assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_a_cards_face_leaves_out_the_fields_its_title_already_says():
    from meeple.interpreter.table.model import card, said_in

    assert said_in("berry Forrie (stamina 3, strength 1)", "stamina", 3)
    assert not said_in("berry Forrie (stamina 3, strength 1)", "iridescent", 3)  # a number only with its name
    assert said_in("berry Forrie (stamina 3, strength 1)", "species", "berry")
    assert not said_in("Strawberry Tart", "species", "berry")  # whole words only
    assert not said_in("Tart", "vegan", True)
    engine = load("apothebakery")
    forrie = next(c for c, comp in engine.game.components.items() if "stamina" in comp and "iridescent" in comp)
    declared, engine.game.page = engine.game.page, None  # the generic face: the ruleset's layout set aside
    try:
        face = card(engine, forrie)
        assert face["fields"] == [f"iridescent {engine.game.components[forrie]['iridescent']}"], face
        objective = card(engine, "obj-11")  # its goal is an effect (what it does), its words are in the title
        assert (
            objective["title"] == "Steady Hands (at least 3 Diagnosis cards of health 2: +3)"
            and objective["fields"] == []
        )
    finally:
        engine.game.page = declared
        engine.game.cache.clear()  # faces are built once per game, and this game's layout changed under them
    # with the layout's `face` lines: the title its words, the lines its own, the colour said in words too
    comp = engine.game.components[forrie]
    face = card(engine, forrie)
    assert face["title"] == f"{comp['species']} Forrie" and face["mark"] == comp["species"], face
    assert face["fields"] == [f"stamina {comp['stamina']}, strength {comp['strength']}"]  # not iridescent: no line
    assert card(engine, "obj-11")["title"] == "Steady Hands"


def test_a_piece_reads_short_where_its_shape_is_drawn():
    """A tile's label writes its shape in words (`O12 [gardener tree / rose chess]`); where the
    page draws the shape (its card, its option's button, the placing panel) the words go."""
    from meeple.interpreter.table.model import card, decision_json

    engine = load("queens_wishes")
    state, _ = engine.start(2, 1)
    while (d := engine.decision(state)).prompt != "Which tile do you plant?":
        state, _ = engine.apply(state, 0)
    tile = d.options[0].value
    assert engine.game.labels[tile].startswith(f"{tile} [") and card(engine, tile)["title"] == tile
    assert card(engine, "bonus-rose-1")["title"] == "bonus tile"  # `bonus tile [rose]`: empty brackets go too
    option = decision_json(engine, state, engine.view(state, d.actor), d.actor)["options"][0]
    assert option["label"] == engine.game.labels[tile] and option["short"] == tile
    assert sorted(map(tuple, option["shape"])) == sorted(map(tuple, engine.game.components[tile]["cells"]))
    state, _ = engine.apply(state, 0)
    d = engine.decision(state)
    placing = decision_json(engine, state, engine.view(state, d.actor), d.actor)
    assert "placement" in placing
    assert [o["short"] for o in placing["options"][:2]] == ["row 1, column 1, upright", "row 1, column 2, upright"]


def test_a_pawn_per_player_is_labelled_by_its_player_and_the_log_heads_the_setup():
    c = client()
    t = new_table(c, game="wild_gardens", seats=("person", "random"))
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        page = my_turn(ws)  # the bot has placed its pawn by now
    who = {s["name"]: s["who"] for b in page["boards"] for s in b["spaces"] if s["who"]}
    assert sorted(x for names in who.values() for x in names) == ["P1", "P2"], who
    # the setup's lines sit under the heading (its bookkeeping is one line, then the first forager)
    assert page["log"][0] == "Setup" and all(line.startswith("  ") for line in page["log"][1:3]), page["log"][:4]
    assert (
        page["log"][1]
        == "  The decks are shuffled; the supplies, ingredient sources, skill tokens and books are laid out"
    )


def test_the_end_of_the_game_says_who_won_in_words():
    from meeple.interpreter.table.pages import outcome_words

    engine = load("queens_wishes")
    state = runner.play(engine, 2, 4, ["random"], "queens_wishes").state
    scores = engine.scores(state)
    ranking = engine.ranking(state, scores)
    words = outcome_words(engine, state, scores, ranking)
    first = [r for r in ranking if r["place"] == 1]
    assert words.startswith(" and ".join(f"P{r['player'] + 1}" for r in first))
    assert str(first[0]["total"]) in words
    shared = [dict(r, place=1) for r in ranking]
    assert "share first place" in outcome_words(engine, state, scores, shared)


def test_a_request_is_a_button_apart_from_the_options_and_the_socket_takes_it():
    """Apothebakery's `on request` "Rearrange inventory": listed in `requests`, never in `options`;
    choosing its id runs it and the log says so; the other seat does not see it."""
    c = client()
    t = new_table(c, game="apothebakery", seed=1)
    live = live_of(c, t)
    rnd = random.Random(1)
    for _ in range(400):
        d = live.decision()
        if d.requests:
            break
        live.choose(d.actor, d.options[rnd.randrange(len(d.options))].id, live.state["step"])
    else:
        raise AssertionError("never offered")
    me = token(t["seats"][d.actor]["link"])
    with c.websocket_connect(f"/ws/{t['id']}?token={me}") as ws:
        page = ws.receive_json()["table"]["decision"]
        assert page["requests"] == [{"id": "act:rearrange", "label": "Rearrange inventory"}]
        assert "act:rearrange" not in [o["id"] for o in page["options"]]
        ws.send_json({"type": "choose", "option": "act:rearrange", "step": page["step"]})
        after = ws.receive_json()["table"]
        assert after["decision"]["prompt"] == "Which elixir goes to the left end?"
        assert after["decision"]["requests"] == [], "no request while one runs"
        assert any("acts: Rearrange inventory" in line for line in after["log"])
    assert live.choices[-1] == "act:rearrange"
