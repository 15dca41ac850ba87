"""`meeple serve [GAME...]`: the play table on a local web server (uvicorn).

Kept apart from app.py so that `meeple --help` and the other commands do not
import the web libraries; a missing `web` extra is one clear line.
"""

from __future__ import annotations

import socket

from meeple.dsl.compiler import UsageError, find_ruleset, shipped_rulesets
from meeple.interpreter.extras import need


def configure_serve(p) -> None:
    p.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="shipped ruleset names or .rules paths to offer (default: every shipped game)",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default="tables.sqlite", help="the SQLite file that keeps the tables")
    p.add_argument(
        "--trace", action="append", default=[], metavar="FILE", help="open a trace (JSON lines) in the replay viewer"
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the table answers to besides localhost, 127.0.0.1, ::1 and --host "
        "(the name people use behind a reverse proxy); repeatable",
    )


def check_port(host: str, port: int) -> None:
    """One clear line (UsageError) for a port that cannot be listened on."""
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535, not {port}")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


# Python's cycle collector, tuned for a server that keeps many tables in memory. Under `make load`
# its full collections walked every table's states (150 MB) 13-15 times in 30 s, each pausing every
# page for up to 0.7 s: 20% of the server's time and most of the slowest round trips. What is in
# memory at the start (modules, the app) is set aside for good (gc.freeze), and young objects are
# collected every 20,000 instead of 700, so the full walk comes seldom; garbage without cycles
# (almost all of it) is freed at once as always.
COLLECT_AFTER = (20_000, 10, 10)


def steady_collector() -> None:
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECT_AFTER)


def cmd_serve(args) -> int:
    from meeple.interpreter import trace

    need("web", "meeple serve", "uvicorn", "starlette", "websockets")
    from meeple.interpreter.table.guard import bad_host_name

    games = args.games or list(shipped_rulesets())
    for g in games:
        find_ruleset(g)  # an unknown game: one line, exit 2
    traces = []
    for path in args.trace:
        try:
            traces.append(trace.read(path))
        except trace.TraceError as exc:
            raise UsageError(str(exc)) from None
    for name in args.allowed_host:
        if bad_host_name(name):
            raise UsageError(bad_host_name(name))
    check_port(args.host, args.port)
    import uvicorn

    from meeple.interpreter.table.app import create_app
    from meeple.interpreter.table.store import StoreError

    try:
        app = create_app(games, args.db, traces, [args.host, *args.allowed_host])
    except trace.TraceError as exc:
        raise UsageError(f"cannot open the trace: {exc}") from None
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot open the database {args.db}: {exc}") from None
    print(f"Meeple play table: open http://{args.host}:{args.port}/ (tables kept in {args.db}; Ctrl+C stops)")
    if args.host in ("0.0.0.0", "::") and not args.allowed_host:  # no browser asks for host 0.0.0.0
        print(
            "listening on every address: give --allowed-host NAME for each name or address people open "
            "the table by (only localhost is answered now)"
        )
    if traces:
        print(f"replays: http://{args.host}:{args.port}/replay")
    steady_collector()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
