"""Every route and socket message of the play table, fuzzed (hypothesis): no answer is a 500, and
no socket is dropped without a message.

The requests are what a client could send: any path under the routes with any ids, tokens and
query strings, GET or POST, bodies of JSON of any shape (and bytes that are not JSON); socket
frames that are any JSON, near-misses of the real messages, binary and huge. Each example
gets an answer: an HTTP status below 500, or on a socket at least one message, the socket still
open. About twenty seconds in all.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_table import client, new_table, token

GAMES = ["queens_wishes", "tic_tac_toe"]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def table():
    c = client(games=GAMES)
    with c:
        t = new_table(c, game="tic_tac_toe", seats=("person", "greedy"))
        yield c, t


def _paths(t: dict):
    tid, seat = t["id"], token(t["seats"][0]["link"])
    ids = st.sampled_from([tid, "x", "", "..", "%00", "a" * 300, "../../etc/passwd"]) | st.text(max_size=12)
    tokens = st.sampled_from([seat, t["spectator"].split("token=")[1], t["creator"], "", "x"]) | st.text(max_size=20)
    queries = st.dictionaries(st.sampled_from(["token", "step", "seat", "x"]), st.text(max_size=12), max_size=3)
    templates = st.sampled_from(
        [
            "/",
            "/table/{id}",
            "/replay",
            "/api/games",
            "/api/tables",
            "/api/tables/{id}",
            "/api/tables/{id}/links",
            "/api/tables/{id}/replay",
            "/api/replays",
            "/api/replays/{id}",
            "/static/{id}",
            "/{id}",
        ]
    )
    return st.tuples(templates, ids, tokens, queries)


def _body(game_names):
    table_body = st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(game_names) | st.text(max_size=10) | json_values,
            "players": st.integers(-3, 70) | json_values,
            "seats": st.lists(
                st.sampled_from(["person", "random", "greedy", "mcts@5000", "x:Y"]) | json_values, max_size=5
            )
            | json_values,
            "seed": st.integers(-(2**70), 2**70) | json_values,
            "names": st.lists(st.text(max_size=30) | json_values, max_size=4) | json_values,
            "options": json_values,
            "variants": json_values,
        },
    )
    return table_body.map(json.dumps) | json_values.map(json.dumps) | st.binary(max_size=200) | st.text(max_size=200)


def test_no_route_answers_500(table):
    c, t = table

    @FUZZ
    @given(_paths(t), st.sampled_from(["GET", "POST"]), _body(GAMES))
    def check(path, method, body):
        template, ident, tok, query = path
        url = template.replace("{id}", quote(ident, safe=""))  # any text, as a browser would send it
        params = dict(query, token=tok) if "{id}" in template else query
        r = c.request(
            method,
            url,
            params=params,
            content=body if method == "POST" else None,
            headers={"content-type": "application/json"} if method == "POST" else {},
        )
        assert r.status_code < 500, (method, url, params, body, r.status_code, r.text[:300])

    check()


def _messages(option_ids):
    choose = st.fixed_dictionaries(
        {"type": st.just("choose")},
        optional={"option": st.sampled_from(option_ids) | json_values, "step": st.integers(-2, 3) | json_values},
    )
    undo = st.fixed_dictionaries({"type": st.just("undo")}, optional={"x": json_values})
    # a name of any text; a rematch (refused while the game runs); a concede only with a field too many
    # (a real one would hand the seat to a bot for every later example)
    name = st.fixed_dictionaries({"type": st.just("name")}, optional={"name": st.text(max_size=40) | json_values})
    rematch = st.fixed_dictionaries({"type": st.just("rematch")}, optional={"x": json_values})
    concede = st.fixed_dictionaries({"type": st.just("concede"), "x": json_values})
    texts = (
        (choose | undo | name | rematch | concede | json_values).map(json.dumps)
        | st.text(max_size=50)
        | st.just("x" * 5000)
    )
    return texts.map(lambda t: ("text", t)) | st.binary(max_size=50).map(lambda b: ("bytes", b))


def test_no_socket_message_drops_the_socket(table):
    c, t = table
    seat = token(t["seats"][0]["link"])
    ids = [f"board@{i}" for i in range(9)] + ["x"]
    with c.websocket_connect(f"/ws/{t['id']}?token={seat}") as ws:
        assert ws.receive_json()["type"] == "table"

        @FUZZ
        @given(_messages(ids))
        def check(frame):
            kind, data = frame
            ws.send_text(data) if kind == "text" else ws.send_bytes(data)
            answer = ws.receive_json()  # an answer to every frame: the page (or an error, then the page)
            assert answer["type"] in ("table", "error"), answer
            while (
                answer["type"] == "error"
                or answer["table"]["decision"]
                and not answer["table"]["decision"]["mine"]
                and answer["table"]["decision"] is not None
            ):
                answer = ws.receive_json()  # the page after an error, or after the bot's move
                assert answer["type"] in ("table", "error"), answer

        check()
