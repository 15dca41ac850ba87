"""The commands that show a game: `meeple graph` (the flow of phases or a board, as DOT,
SVG or PNG) and `meeple show` (a traced game as it stood after decision K).

The drawings are interpreter/graphs.py (DOT) and interpreter/pictures.py (matplotlib);
replaying a trace to a step is interpreter/show.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

from meeple.interpreter import arguments, graphs, outputs, show, trace
from meeple.interpreter.extras import PICTURE_MODULES, need


def configure_graph(p) -> None:
    p.add_argument("game")
    p.add_argument("--flow", action="store_true", help="the phases and the `next` transitions")
    p.add_argument("--board", metavar="NAME", help="a path board or a grid")
    pic = p.add_mutually_exclusive_group()
    pic.add_argument("--svg", action="store_true", help="draw an SVG picture (matplotlib, no Graphviz needed)")
    pic.add_argument("--png", action="store_true", help="draw a PNG picture (matplotlib, no Graphviz needed)")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write here; DOT is printed without it; a picture goes to GAME_flow.svg or "
        "GAME_BOARD.svg (.png) in this folder; --out x.svg or x.png alone draws that",
    )
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--variant", action="append", default=[], metavar="NAME")


def cmd_graph(args) -> int:
    engine = arguments.engine_from(args)
    if bool(args.flow) == bool(args.board):
        raise arguments.CommandError("say what to draw: --flow, or --board NAME")
    if args.board:
        try:
            board = graphs.board_name(engine.game, args.board)
        except ValueError as exc:
            raise arguments.CommandError(str(exc)) from None
    fmt = "svg" if args.svg else "png" if args.png else None
    suffix = Path(args.out).suffix.lower().lstrip(".") if args.out else ""
    if fmt is None and suffix in ("svg", "png"):
        fmt = suffix
    elif fmt is not None and suffix in ("svg", "png", "dot") and suffix != fmt:
        raise arguments.CommandError(f"--{fmt} draws {fmt.upper()}, but --out {args.out} says {suffix.upper()}")
    if fmt is not None:
        need("lab", f"meeple graph --{fmt}", *PICTURE_MODULES)
        from meeple.interpreter import pictures

        out = args.out or f"{Path(args.game).stem}_{'flow' if args.flow else args.board}.{fmt}"
        try:
            fig = pictures.flow_figure(engine.game) if args.flow else pictures.board_figure(engine.game, board)
        except ValueError as exc:
            raise arguments.CommandError(str(exc)) from None
        try:
            outputs.write_with(out, lambda tmp: pictures.save(fig, tmp, fmt))
        except outputs.OutputError as exc:
            raise arguments.CommandError(str(exc)) from None
        except OSError as exc:
            raise arguments.CommandError(f"cannot write {out}: {exc.strerror or exc}") from None
        print(
            f"wrote {out}"
            + (f" (board {board}, what `{args.board}` starts as)" if args.board and board != args.board else "")
        )
        return 0
    try:
        text = graphs.flow_dot(engine.game) if args.flow else graphs.board_dot(engine.game, board)
    except ValueError as exc:
        raise arguments.CommandError(str(exc)) from None
    if args.out:
        try:
            outputs.write_text(args.out, text)
        except outputs.OutputError as exc:
            raise arguments.CommandError(str(exc)) from None
        except OSError as exc:
            raise arguments.CommandError(f"cannot write {args.out}: {exc.strerror}") from None
    else:
        print(text, end="")
    return 0


def configure_show(p) -> None:
    p.add_argument("trace", help="a trace written by `meeple run --trace`")
    p.add_argument(
        "--step", type=int, required=True, metavar="K", help="0 = right after setup, K = after the K-th decision"
    )
    p.add_argument("--seat", type=int, metavar="N", help="show only what seat N (1-based) could see")
    p.add_argument("--svg", metavar="FILE", help="also draw the grids and path boards at that step into FILE")


def cmd_show(args) -> int:
    if args.svg:
        need("lab", "meeple show --svg", *PICTURE_MODULES)
    try:
        lines = trace.read(args.trace)
        snap = show.replay_to(lines, arguments.trace_loader, args.step)
    except show.StepError as exc:
        raise arguments.CommandError(str(exc)) from None
    except trace.TraceError as exc:
        print(f"meeple: show failed: {exc}", file=sys.stderr)
        return 1
    players = snap.head["players"]
    if args.seat is not None and not 1 <= args.seat <= players:
        raise arguments.CommandError(f"--seat must be between 1 and {players}")
    seat = args.seat - 1 if args.seat is not None else None
    print("\n".join(show.show_text(snap, seat)))
    if args.svg:
        from meeple.interpreter import pictures

        game = snap.engine.game
        state = snap.engine.view(snap.state, seat) if seat is not None else snap.state
        try:
            fig = pictures.state_figure(game, state, f"{game.title}: step {snap.step} of {snap.steps}")
        except ValueError as exc:
            raise arguments.CommandError(str(exc)) from None
        try:
            outputs.write_with(args.svg, lambda tmp: pictures.save(fig, tmp, "svg"))
        except outputs.OutputError as exc:
            raise arguments.CommandError(str(exc)) from None
        except OSError as exc:
            raise arguments.CommandError(f"cannot write {args.svg}: {exc.strerror or exc}") from None
        print(f"wrote {args.svg}")
    return 0
