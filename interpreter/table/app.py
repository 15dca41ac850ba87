"""The web app: Starlette routes for the pages and the JSON they read, one WebSocket per page.

    GET  /                         the lobby (static/lobby.html)
    GET  /table/{id}?token=T       a seat's (or the spectator's) page
    GET  /replay                   the replay viewer
    GET  /api/games                the games on offer
    POST /api/tables               create a table: one private link per person's seat, a spectator link
    GET  /api/tables/{id}?token=T  what that seat sees now
    GET  /api/tables/{id}/links?token=C  every link again, for the creator's token C
    GET  /api/tables/{id}/replay?token=T&step=K  step K of the table, as that seat saw it (the viewer)
    WS   /ws/{id}?token=T          live: the seat's picture after every change; send
                                   {"type": "choose", "option": ID, "step": N}, {"type": "undo"},
                                   {"type": "name", "name": ...}, {"type": "concede"} or {"type": "rematch"}
    POST /api/replays              upload a trace (JSON lines); GET /api/replays/{id}?step=K&seat=S

Every bad request gets a JSON {"error": message} (HTTP 400/403/404/413) or, on a
socket, {"type": "error", "message": ...}, and changes nothing. Requests for a host
name not allowed, and changes asked by another site's page, are refused first (guard.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from meeple.dsl.errors import MeepleError
from meeple.interpreter import trace
from meeple.interpreter.table import bodies
from meeple.interpreter.table.bodies import BodyError
from meeple.interpreter.table.bots import BOT_CHOICES
from meeple.interpreter.table.guard import Guard
from meeple.interpreter.table.hall import Hall
from meeple.interpreter.table.live import NoTable, NotSaved, TableError, WrongToken
from meeple.interpreter.table.pages import seat_page
from meeple.interpreter.table.replays import Replay, ReplayCache, table_step
from meeple.interpreter.table.store import Store, StoreError
from meeple.interpreter.table.wire import PageJSON, dumps
from meeple.interpreter.trace import TraceError

STATIC = Path(__file__).parent / "static"
MAX_TRACE_BYTES = 20_000_000


def error(message: str, status: int = 400) -> PageJSON:
    return PageJSON({"error": message}, status_code=status)


# Socket close codes a page must not retry after: the link will not work however often it asks.
CLOSE_WRONG_TOKEN, CLOSE_NO_TABLE = 4403, 4404


def refused_page(heading: str, message: str, status: int) -> HTMLResponse:
    """A plain page for a table link that cannot work (no such table, a forged token): said at
    once, instead of a table page that would ask the socket again and again."""
    text = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(heading)} · Meeple</title><link rel="stylesheet" href="/static/table.css"></head>'
        f'<body><header><a href="/" class="home">Meeple</a></header>'
        f'<main class="refused"><h1>{html.escape(heading)}</h1><p id="refused">{html.escape(message)}</p>'
        f'<p>Ask the person who made the table for your seat\'s link, or <a href="/">start a table</a>.</p>'
        f"</main></body></html>"
    )
    return HTMLResponse(text, status_code=status)


async def read_body(request: Request, most: int) -> bytes | None:
    """The request's body, or None past `most` bytes: refused on its stated length before reading,
    and while reading, so a client cannot make the server hold more than that."""
    stated = request.headers.get("content-length", "")
    if stated.isdigit() and int(stated) > most:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(
    games: list[str], db: str = ":memory:", traces: list | None = None, allowed_hosts: Sequence[str] = ()
) -> Starlette:
    """The app serving `games` (shipped names or .rules paths), tables kept in `db`,
    with `traces` (lists of trace lines) opened in the replay viewer as ids 1, 2, ...
    It answers requests for localhost, 127.0.0.1, ::1 and `allowed_hosts` only (guard.py)."""
    hall = Hall(games, Store(db))
    replays = ReplayCache()
    reading = asyncio.Semaphore(1)  # one upload replayed at a time: each takes a core and memory

    def load(head: dict):  # an upload: a game offered in the lobby or shipped, by name only
        game = hall.replayable(head.get("ruleset") or head.get("game", ""))
        return hall.engine(game, head.get("options", {}), head.get("variants", []), any_game=True)

    def load_trusted(head: dict):  # a trace the operator named on the command line may name a path
        game = head.get("ruleset") or head.get("game", "")
        return hall.engine(game, head.get("options", {}), head.get("variants", []), any_game=True, trusted=True)

    for n, lines in enumerate(traces or [], 1):
        replays.keep(Replay(lines, load_trusted), str(n))

    def page(name: str):
        async def handler(request: Request):
            return FileResponse(STATIC / name)

        return handler

    async def table_page(request: Request):
        """The table page, unless its link cannot work. Without a token the page uses the seats this
        browser holds (hot-seat), so only the table is checked then."""
        table_id, tok = request.path_params["id"], request.query_params.get("token")
        try:
            live = await hall.open(table_id)
            if tok is not None:
                live.seat_of(tok)
        except WrongToken:
            return refused_page(
                "This link is not valid", "It opens no seat at this table: the token in it is wrong or old.", 403
            )
        except TableError as exc:
            return refused_page(
                "No such table" if isinstance(exc, NoTable) else "This table cannot be opened", str(exc), 404
            )
        return FileResponse(STATIC / "table.html")

    async def games_route(request: Request):
        return PageJSON({"games": hall.catalogue(), "bots": list(BOT_CHOICES)})

    async def tables_route(request: Request):
        try:
            return PageJSON({"tables": hall.listing()})
        except StoreError as exc:
            return error(str(exc), 503)

    async def create_route(request: Request):
        raw = await read_body(request, bodies.BODY_BYTES)
        if raw is None:
            return error("that request is too large", 413)
        try:
            body = bodies.new_table(raw)
            # in a thread: a new game compiles for a while, and the table's row is a database write
            row = await asyncio.to_thread(
                hall.create, body.game, body.players, body.options, body.variants, body.seats, body.seed, body.names
            )
        except NotSaved as exc:
            return error(str(exc), 503)
        except (BodyError, TableError) as exc:
            return error(str(exc))
        hall.rest(row["id"])  # no page yet
        hall.spawn(hall.wake(row["id"]))
        return PageJSON(Hall.links(row))

    async def opened(table_id: str, token):
        """(table, seat) for a token, or a TableError."""
        live = await hall.open(table_id)
        return live, live.seat_of(token or "")

    async def links_route(request: Request):
        """Every link of a table again, for the token its creator was given (and nobody else's)."""
        try:
            return PageJSON(hall.links_again(request.path_params["id"], request.query_params.get("token")))
        except TableError as exc:
            return error(str(exc), 403 if isinstance(exc, WrongToken) else 503 if isinstance(exc, NotSaved) else 404)

    async def table_replay_route(request: Request):
        """A step of a table at this server (live or finished), as the token's seat saw it."""
        try:
            live, seat = await opened(request.path_params["id"], request.query_params.get("token"))
            return PageJSON(table_step(live, seat, int(request.query_params.get("step", "0"))))
        except TableError as exc:
            return error(str(exc), 403 if isinstance(exc, WrongToken) else 503 if isinstance(exc, NotSaved) else 404)
        except TraceError as exc:
            return error(str(exc))
        except ValueError:
            return error("step is a number")

    async def table_route(request: Request):
        try:
            live, seat = await opened(request.path_params["id"], request.query_params.get("token"))
        except TableError as exc:
            return error(str(exc), 403 if isinstance(exc, WrongToken) else 503 if isinstance(exc, NotSaved) else 404)
        return PageJSON(seat_page(live, seat))

    async def socket_route(socket: WebSocket):
        await socket.accept()
        table_id = socket.path_params["id"]
        try:
            live, seat = await opened(table_id, socket.query_params.get("token"))
        except TableError as exc:  # the page shows it and stops asking (the codes above)
            await socket.send_text(dumps({"type": "error", "message": str(exc)}))
            await socket.close(code=CLOSE_WRONG_TOKEN if isinstance(exc, WrongToken) else CLOSE_NO_TABLE)
            return
        box = hall.join(table_id, socket, seat)  # every message to this page goes through its outbox

        async def read() -> None:
            while True:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                try:  # a binary frame, bad JSON or a wrong field is answered, and the page stays
                    message = bodies.message(frame.get("text") if frame.get("text") is not None else frame.get("bytes"))
                    await hall.act(table_id, seat, message)
                except (BodyError, TableError, MeepleError) as exc:
                    problem = exc.format() if isinstance(exc, MeepleError) else str(exc)
                    box.send({"type": "error", "message": problem})
                    box.send({"type": "table", "table": seat_page(live, seat)})  # a stale page catches up

        reader = asyncio.get_running_loop().create_task(read())
        try:
            box.send({"type": "table", "table": seat_page(live, seat)})
            hall.spawn(hall.wake(table_id))
            # the page stays until it goes away (the reader ends) or is dropped (the writer ends)
            await asyncio.wait({reader, box.writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            hall.leave(table_id, box, seat)
            await box.close()
        failure = reader.exception() if reader.done() and not reader.cancelled() else None  # (read never returns)
        if failure is not None and not isinstance(failure, WebSocketDisconnect):
            raise failure  # a bug, not a page leaving: let it be seen

    async def upload_route(request: Request):
        body = await read_body(request, MAX_TRACE_BYTES)
        if body is None:
            return error("that trace is too large", 413)

        def open_trace() -> Replay:  # seconds of work for a large trace: in a thread, not on the loop
            return Replay(trace.parse(body.decode("utf-8"), "upload"), load)

        try:
            async with reading:
                replay = await asyncio.to_thread(open_trace)
            rid = replays.add(replay, len(body))
        except (UnicodeDecodeError, TraceError, TableError) as exc:
            return error(f"cannot open this trace: {exc}")
        return PageJSON({"id": rid, "steps": replay.steps, "players": replay.head["players"]})

    async def replay_route(request: Request):
        replay = replays.get(request.path_params["id"])
        if replay is None:
            return error("no such replay", 404)
        try:
            step = int(request.query_params.get("step", "0"))
            asked = request.query_params.get("seat", "")
            seat = int(asked) - 1 if asked not in ("", "public") else None
            return PageJSON(replay.page(step, seat))
        except TraceError as exc:
            return error(str(exc))
        except ValueError:
            return error("step and seat are numbers")

    async def replays_route(request: Request):
        return PageJSON(
            {
                "replays": [
                    {"id": k, "title": r.engine.game.title, "steps": r.steps, "players": r.head["players"]}
                    for k, r in replays.items()
                ]
            }
        )

    routes = [
        Route("/", page("lobby.html")),
        Route("/table/{id}", table_page),
        Route("/replay", page("replay.html")),
        Route("/api/games", games_route),
        Route("/api/tables", tables_route),
        Route("/api/tables", create_route, methods=["POST"]),
        Route("/api/tables/{id}", table_route),
        Route("/api/tables/{id}/links", links_route),
        Route("/api/tables/{id}/replay", table_replay_route),
        Route("/api/replays", replays_route),
        Route("/api/replays", upload_route, methods=["POST"]),
        Route("/api/replays/{id}", replay_route),
        WebSocketRoute("/ws/{id}", socket_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        hall.bots.stop()  # stopping the server (Ctrl-C) kills the bots' worker processes at once
        hall.readers.shutdown(wait=False, cancel_futures=True)  # and tables waiting to be replayed are not

    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=list(allowed_hosts))], lifespan=lifespan)
    app.state.hall, app.state.replays = hall, replays
    return app
