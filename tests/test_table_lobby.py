"""The lobby's promises over HTTP and the socket: players' names per seat (given in the lobby or on
taking a seat's link, checked, said in the page's text in place of P1, P2), the creator's links
again (and nobody else's), the rematch (same seats and names, next seed, offered on every seat's
page), conceding (a bot plays the seat on; the log and the result say so), the header's part of
the game."""

from __future__ import annotations

import json
import random

import pytest

from tests.test_table import client, new_table, token

GAMES = ["queens_wishes", "wild_gardens", "tic_tac_toe"]


def page(c, t: dict, seat: int | None) -> dict:
    link = t["spectator"] if seat is None else t["seats"][seat]["link"]
    r = c.get(f"/api/tables/{t['id']}?token={token(link)}")
    assert r.status_code == 200, r.text
    return r.json()


def send(c, t: dict, seat: int, message: dict) -> dict:
    """`message` from seat's page; the first answer (an error, or the page after it)."""
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][seat]['link'])}") as ws:
        ws.receive_json()
        ws.send_json(message)
        return ws.receive_json()


def play_to_the_end(c, t: dict, seed: int = 1) -> None:
    live = c.app.state.hall.table(t["id"])
    rnd = random.Random(seed)
    while (d := live.decision()) is not None:
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])


# ----------------------------------------------------------------- names
def test_names_given_in_the_lobby_are_said_in_the_header_log_areas_and_scores():
    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe", names=["Ann", "  Bob  "])
    assert [s["said"] for s in t["seats"]] == ["Ann", "Bob"]  # trimmed
    play_to_the_end(c, t)
    for seat in (0, 1, None):
        p = page(c, t, seat)
        assert p["names"] == ["Ann", "Bob"] and p["first"] == "Ann"
        text = "\n".join(p["log"])
        assert "Ann chooses" in text and "Bob chooses" in text
        assert not any(w in text.split() for w in ("P1", "P2"))
        assert {s["name"] for s in p["scores"]["players"]} == {"Ann", "Bob"}
        assert "Ann" in p["scores"]["outcome"] or "Bob" in p["scores"]["outcome"] or "draw" in p["scores"]["outcome"]
    # what a page sends back keeps the engine's words: the seat keys, option ids
    assert page(c, t, 0)["seat_name"] == "P1"


def test_a_name_is_said_in_labels_of_things_kept_per_player():
    c = client(games=GAMES)
    t = new_table(c, game="queens_wishes", names=["Ann", "Bob"])
    p = page(c, t, 0)
    labels = [z["label"] for z in p["zones"]] + [x["label"] for x in p["counters"]]
    assert any("Ann" in x for x in labels) and not any("P1" in x.split() for x in labels)
    assert p["decision"]["actor_name"] == "P1"  # the key the page's seat tabs use


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["x" * 25, ""], "at most 24 characters"),
        (["Ann\u202eevil", ""], "printable characters only"),
        (["Ann\n", "Bob\x00"], "printable characters only"),
        (["P2", ""], "a seat's own word"),
        (["Ann", "ann"], "the same name"),
        (["Ann", "Bob", "Cy"], "at most one name per seat"),
        ([3, ""], "valid string"),
    ],
)
def test_a_bad_name_in_the_lobby_is_a_400_naming_why(names, said):
    c = client(games=GAMES)
    r = c.post("/api/tables", json={"game": "tic_tac_toe", "players": 2, "seats": ["person", "person"], "names": names})
    assert r.status_code == 400 and said in r.json()["error"], r.text
    assert c.get("/api/tables").json()["tables"] == []  # nothing made


def test_a_person_names_their_seat_on_taking_its_link_and_every_page_hears_it():
    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe")
    assert page(c, t, 1)["named"] is False
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as other:
        other.receive_json()
        answer = send(c, t, 1, {"type": "name", "name": " <b>Bob</b> "})
        assert answer["type"] == "table" and answer["table"]["names"] == ["P1", "<b>Bob</b>"]
        heard = other.receive_json()["table"]  # the other seat's page is told at once
        assert heard["names"] == ["P1", "<b>Bob</b>"] and heard["seats"][1]["said"] == "<b>Bob</b>"
    assert page(c, t, 1)["named"] is True
    refused = send(c, t, 0, {"type": "name", "name": "<B>BOB</B>"})
    assert refused["type"] == "error" and "already called" in refused["message"]
    refused = send(c, t, 0, {"type": "name", "name": "P2"})
    assert refused["type"] == "error" and "seat's own word" in refused["message"]
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['spectator'])}") as ws:
        ws.receive_json()
        ws.send_json({"type": "name", "name": "Spy"})
        assert "spectator has no seat" in ws.receive_json()["message"]


def test_names_survive_a_restart(tmp_path):
    db = str(tmp_path / "t.sqlite")
    c = client(db, games=GAMES)
    t = new_table(c, game="tic_tac_toe", names=["Ann", ""])
    send(c, t, 1, {"type": "name", "name": "Bob"})
    c.app.state.hall.store.close()
    assert page(client(db, games=GAMES), t, None)["names"] == ["Ann", "Bob"]


# ----------------------------------------------------------------- the creator's links
def test_the_creator_gets_every_link_again_and_nobody_else_does():
    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe", seats=("person", "greedy"), names=["Ann", ""])
    again = c.get(f"/api/tables/{t['id']}/links?token={t['creator']}")
    assert again.status_code == 200 and again.json() == t
    for other in [token(t["seats"][0]["link"]), token(t["spectator"]), "", "x" * 16]:
        r = c.get(f"/api/tables/{t['id']}/links?token={other}")
        assert r.status_code == 403 and "creator" in r.json()["error"]
        assert token(t["seats"][0]["link"]) not in r.text
    assert c.get(f"/api/tables/nosuch/links?token={t['creator']}").status_code == 404
    assert t["creator"] not in json.dumps(page(c, t, 0)) + json.dumps(c.get("/api/tables").json())


def test_a_table_from_before_creators_has_no_links_to_give(tmp_path):
    import sqlite3

    from meeple.interpreter.table.store import Store

    db = tmp_path / "old.sqlite"
    old = sqlite3.connect(db)
    old.execute(
        "create table tables (id text primary key, ruleset text not null, options text not null, "
        "variants text not null, players integer not null, seed integer not null, digest text not null, "
        "seats text not null, spectator text not null, seed_chosen integer not null default 0)"
    )
    old.execute("insert into tables values ('t1', 'tic_tac_toe', '{}', '[]', 2, 5, 'd', '[]', 's', 0)")
    old.commit()
    old.close()
    store = Store(str(db))
    try:
        assert [(r["creator"], r["next_table"]) for r in store.tables()] == [("", "")]
    finally:
        store.close()


# ----------------------------------------------------------------- rematch
def test_a_rematch_keeps_seats_and_names_takes_the_next_seed_and_every_page_is_offered_it(tmp_path):
    db = str(tmp_path / "t.sqlite")
    c = client(db, games=GAMES)
    t = new_table(c, game="tic_tac_toe", seats=("person", "person"), names=["Ann", "Bob"], seed=7)
    refused = send(c, t, 0, {"type": "rematch"})
    assert refused["type"] == "error" and "once the game is over" in refused["message"]
    play_to_the_end(c, t)
    assert page(c, t, 0)["can_rematch"] and not page(c, t, None)["can_rematch"]
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as other:
        other.receive_json()
        asked = send(c, t, 0, {"type": "rematch"})["table"]
        heard = other.receive_json()["table"]
    mine, theirs, watching = asked["rematch"], heard["rematch"], page(c, t, None)["rematch"]
    new_id = mine.split("/table/")[1].split("?")[0]
    assert new_id != t["id"] and all(f"/table/{new_id}?token=" in x for x in (theirs, watching))
    assert len({token(mine), token(theirs), token(watching)}) == 3  # each page its own seat
    new = c.app.state.hall.table(new_id)
    assert [s["agent"] for s in new.row["seats"]] == ["person", "person"]
    assert new.names() == ["Ann", "Bob"] and new.row["seed"] == 8 and new.row["seed_chosen"]
    assert new.seat_of(token(mine)) == 0 and new.seat_of(token(theirs)) == 1
    assert new.row["creator"] == t["creator"]  # the creator's links work for the rematch too
    assert send(c, t, 1, {"type": "rematch"})["table"]["rematch"] == theirs  # asked again: the same table
    c.app.state.hall.store.close()
    after = client(db, games=GAMES)  # a restart keeps the offer
    assert page(after, t, 1)["rematch"] == theirs


def test_a_rematch_of_a_table_with_a_random_seed_draws_a_new_one_unshown():
    c = client(games=GAMES)
    r = c.post("/api/tables", json={"game": "tic_tac_toe", "players": 2, "seats": ["person", "random"]})
    t = r.json()
    play_to_the_end(c, t)
    link = send(c, t, 0, {"type": "rematch"})["table"]["rematch"]
    new = c.app.state.hall.table(link.split("/table/")[1].split("?")[0])
    assert not new.row["seed_chosen"] and new.row["seed"] != c.app.state.hall.table(t["id"]).row["seed"]
    assert new.row["seats"][1]["agent"] == "random"


# ----------------------------------------------------------------- concede
def test_a_seat_that_concedes_is_played_by_a_bot_said_in_the_log_and_placed_last(tmp_path):
    db = str(tmp_path / "t.sqlite")
    c = client(db, games=GAMES)
    t = new_table(c, game="tic_tac_toe", names=["Ann", "Bob"])
    p = page(c, t, 0)
    send(c, t, 0, {"type": "choose", "option": p["decision"]["options"][4]["id"], "step": p["decision"]["step"]})
    answer = send(c, t, 1, {"type": "concede"})["table"]
    assert answer["conceded"] and not answer["can_concede"] and answer["can_rematch"]
    assert "Bob concedes: a bot (random) plays the seat to the end" in answer["log"]
    assert answer["seats"][1] == {"name": "P2", "said": "Bob", "agent": "random", "conceded": True}
    refused = send(c, t, 1, {"type": "concede"})
    assert refused["type"] == "error" and "already conceded" in refused["message"]
    live = c.app.state.hall.table(t["id"])
    assert len(live.choices) == 2 and live.decision().actor == 0  # Bob's turn was the bot's, at once
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as ws:
        ws.receive_json()
        ws.send_json({"type": "choose", "option": live.decision().options[0].id, "step": live.state["step"]})
        m = ws.receive_json()
        while m["type"] != "error":  # the bot may move first; then the choice is refused
            m = ws.receive_json()
        assert "you have conceded" in m["message"]
    while (d := live.decision()) is not None:  # Ann plays on against the bot to the end
        if d.actor == 0:
            live.choose(0, d.options[0].id, live.state["step"])
        else:
            live.bot_move()
    scores = page(c, t, None)["scores"]
    places = {p["name"]: p["place"] for p in scores["players"]}
    assert places["Bob"] == 2 and places["Ann"] == 1 and scores["outcome"].endswith("· Bob conceded")
    c.app.state.hall.store.close()
    again = page(client(db, games=GAMES), t, 0)  # a restart: still conceded, the log line where it was
    assert again["seats"][1]["conceded"] and "Bob concedes" in "\n".join(again["log"])
    assert again["log"].index("Bob concedes: a bot (random) plays the seat to the end") < len(again["log"]) - 1


def test_a_spectator_cannot_concede_and_nobody_concedes_a_finished_game():
    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe")
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['spectator'])}") as ws:
        ws.receive_json()
        ws.send_json({"type": "concede"})
        assert "spectator has no seat" in ws.receive_json()["message"]
    play_to_the_end(c, t)
    assert "the game is over" in send(c, t, 0, {"type": "concede"})["message"]


# ----------------------------------------------------------------- the header
@pytest.mark.parametrize(
    ("game", "part"), [("queens_wishes", "round 1"), ("wild_gardens", "day 1"), ("tic_tac_toe", "")]
)
def test_the_header_names_the_part_of_the_game_in_the_rules_words(game, part):
    c = client(games=GAMES)
    seats = ("person", "person")
    t = new_table(c, game=game, seats=seats)
    live = c.app.state.hall.table(t["id"])
    for _ in range(3):  # the first moves: past any setup choice
        d = live.decision()
        live.choose(d.actor, d.options[0].id, live.state["step"])
    assert page(c, t, 0)["part"] == part


# ----------------------------------------------------------------- the replay viewer on a table
def test_a_table_steps_back_in_the_viewer_only_as_its_links_seat_saw_it():
    from meeple.interpreter.table.pages import seat_page

    c = client(games=GAMES)
    t = new_table(c, game="wild_gardens", seats=("person", "person"), names=["Ann", "Bob"])
    live = c.app.state.hall.table(t["id"])
    rnd = random.Random(2)
    seen = {0: [], "spectator": []}  # what each page showed after each decision
    for _ in range(8):
        for seat in seen:
            seen[seat].append(seat_page(live, seat))
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    for seat, link in [(0, t["seats"][0]["link"]), ("spectator", t["spectator"])]:
        for k, then in enumerate(seen[seat]):
            r = c.get(f"/api/tables/{t['id']}/replay?token={token(link)}&step={k}")
            assert r.status_code == 200, r.text
            step = r.json()
            assert step["steps"] == 8 and step["seat"] == (0 if seat == 0 else None)
            for part in ("zones", "counters", "grids", "boards", "part"):
                assert step[part] == then[part], (seat, k, part)
            assert step["log"] == then["log"] and "Ann" in "\n".join(step["log"])
            assert (step["taken"] in step["log"]) if k else step["taken"] is None  # the decision that led here
    base = f"/api/tables/{t['id']}/replay"
    assert c.get(f"{base}?token=nope&step=0").status_code == 403
    assert c.get(f"/api/tables/nosuch/replay?token={token(t['spectator'])}&step=0").status_code == 404
    assert "steps 0 to 8" in c.get(f"{base}?token={token(t['spectator'])}&step=9").json()["error"]
    assert c.get(f"{base}?token={token(t['spectator'])}&step=x").status_code == 400


def test_undo_after_a_conceded_seats_bot_moved_takes_its_moves_back_like_any_bots():
    c = client(games=GAMES)
    t = new_table(c, game="queens_wishes", names=["Ann", "Bob"])
    live = c.app.state.hall.table(t["id"])
    send(c, t, 1, {"type": "concede"})
    while not live.decision().undoable:  # Ann draws and picks a tile: the placement is undoable
        live.choose(0, live.decision().options[0].id, live.state["step"])
    live.choose(0, live.decision().options[0].id, live.state["step"])
    placed = len(live.choices)
    assert live.decision().actor == 1
    live.bot_move()  # Bob's seat is the bot's now: its choice is a bot's, which Ann's undo may take back
    assert len(live.choices) == placed + 1 and live.can_undo(0)
    live.undo(0)
    assert len(live.choices) == placed - 1 and live.decision().actor == 0


def test_a_seat_renames_itself_a_bounded_number_of_times():
    from meeple.interpreter.table.live import RENAMES

    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe")
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        ws.receive_json()
        for n in range(RENAMES):
            ws.send_json({"type": "name", "name": f"Ann {n}"})
            assert ws.receive_json()["table"]["names"][0] == f"Ann {n}"
        ws.send_json({"type": "name", "name": "Ann again"})
        m = ws.receive_json()
        assert m["type"] == "error" and f"at most {RENAMES} times" in m["message"]
    assert c.app.state.hall.table(t["id"]).names()[0] == f"Ann {RENAMES - 1}"


def test_the_list_of_tables_names_the_players_once_named():
    c = client(games=GAMES)
    t = new_table(c, game="tic_tac_toe", seats=("person", "person"), names=["Ann", ""])
    assert c.get("/api/tables").json()["tables"][0]["names"] == ["Ann", ""]
    send(c, t, 1, {"type": "name", "name": "Bob"})  # named on its page later: listed so
    assert c.get("/api/tables").json()["tables"][0]["names"] == ["Ann", "Bob"]
