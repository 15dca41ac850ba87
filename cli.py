"""The `meeple` command line: thin, no game logic.

    meeple check FILE...            errors and warnings; exit 0 clean, 1 on errors
    meeple list                     shipped rulesets: players, options, variants
    meeple run GAME [...]           bots play one game; the final score table
    meeple play GAME [...]          people play at the terminal (--agents human,human), bots the rest
    meeple replay TRACE             verify that a trace replays exactly
    meeple bench GAME [...]         how fast uniformly random games play
    meeple new NAME                 a small complete ruleset to start from
    meeple graph GAME --flow        phases and the effects they do, as DOT/SVG/PNG (or --board NAME)
    meeple show TRACE --step K      the traced game as it stood after decision K
    meeple simulate GAME -n N       many seeded games: result rows and a summary
    meeple compare GAME --variant V the same seeds with and without a change; --report r.html
    meeple report ROWS...           the report of saved rows (two kinds of games compared by seed)
    meeple sweep GAME --param P=1..4  a grid of param values on the same seeds, with the response
    meeple tune GAME --param P=1..4 the param values that best meet a target (balance, ...)
    meeple tournament GAME --agents a,b,c  every seating; ratings with intervals
    meeple fmt FILE...              the canonical layout of .rules files (--check for CI)
    meeple lsp                      the language server for editors
    meeple serve [GAME...]          the play table: people play in a browser (the `web` extra)

Exit codes: 0 fine, 1 a problem in a rules file (or a trace that does not
replay), 2 a bad command line (unknown game, bad option, wrong player count).
"""

from __future__ import annotations

import argparse
import json
import sys

from meeple.dsl.checker import warnings as rule_warnings
from meeple.dsl.compiler import UsageError, apply_variants, compile_ruleset, find_ruleset, shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_file
from meeple.interpreter import outputs
from meeple.interpreter.agents import AgentError
from meeple.interpreter.arguments import (
    CommandError,
    agent_list,
    engine_from,
    guard_output,
    load,
    parse_options,
    player_count,
    plural,
    trace_loader,
)
from meeple.interpreter.engine import Engine
from meeple.interpreter.extras import MissingExtra, need
from meeple.interpreter.loader import ruleset_ref
from meeple.interpreter.smoke import smoke


def final_state_json(engine: Engine, state: dict) -> dict:
    """Every zone and every grid cell with its contents (grids as rows)."""
    grids = {}
    for key, grid in state["grids"].items():
        cols = engine.game.grids[key.split("/", 1)[0]].geometry.cols
        cells = grid["cells"]
        grids[key] = {
            "rows": [cells[i : i + cols] for i in range(0, len(cells), cols)],
            "pieces": [p[:4] for p in grid["pieces"]],
        }
    return {"zones": state["zones"], "counters": state["vars"], "grids": grids, "first_player": state["first"]}


# ----------------------------------------------------------------- commands
def cmd_check(args) -> int:
    bad = 0
    for path in args.files:
        try:
            rs = parse_file(path, args.variant_file)
            items = apply_variants(rs, [])
            game = compile_ruleset(rs, {}, [])
            notes = rule_warnings(game, rs, items)
            played = smoke(Engine(game), str(path), rs.source)  # what shows only in play
        except MeepleError as exc:
            print(exc.format(), file=sys.stderr)
            bad += 1
            continue
        failed = _every_way(rs, game)
        if played:
            print("\n".join(d.format() for d in notes + played), file=sys.stderr)
        if failed or played:
            bad += 1
            continue
        for w in notes:
            print(w.format(), file=sys.stderr)
        print(
            f"{path}: ok ({game.title}, {plural(len(game.phases), 'phase')}, "
            f"{plural(len(game.components), 'component')}"
            + (f", {len(notes)} warning{'s' if len(notes) != 1 else ''}" if notes else "")
            + ")"
        )
    return 1 if bad else 0


def _every_way(rs, game) -> int:
    """Compile the game with each option value and each variant (the defaults for the rest): a
    typo in a variant's body surfaces at `check`, not at a run an hour later. Prints each error
    with the way of playing it is in; returns how many ways failed."""
    ways: list[tuple[str, dict, list]] = [
        (f"--option {name}={value}", {name: value}, [])
        for name, (values, _) in game.option_choices.items()
        for value in values[1:]
    ]
    ways += [(f"--variant {name}", {}, [name]) for name in game.variant_titles]
    failed = 0
    for words, options, variants in ways:
        try:
            compile_ruleset(rs, options, variants)
        except MeepleError as exc:
            print(exc.format() + f"\nnote: in the game played with {words}", file=sys.stderr)
            failed += 1
    return failed


def cmd_list(args) -> int:
    for name, path in shipped_rulesets().items():
        try:
            rs = parse_file(path)
            game = compile_ruleset(rs, {}, [])
        except MeepleError as exc:
            print(f"{name}: does not load ({exc.diagnostics[0].message})")
            continue
        opts = "; ".join(f"{k} = {' | '.join(v)}" for k, (v, _) in game.option_choices.items())
        variants = ", ".join(game.variant_titles) or "none"
        print(
            f"{name}: {game.title}, {game.min_players}-{game.max_players} players"
            f"; options: {opts or 'none'}; variants: {variants}"
        )
    return 0


def cmd_run(args) -> int:
    from meeple.interpreter import runner
    from meeple.interpreter.render import outcome_text, score_table

    if "human" in agent_list(args.agents):
        raise CommandError("`human` seats are for `meeple play`; `meeple run` plays bots only")
    if args.trace:
        guard_output(args.trace)
    engine = engine_from(args)
    players = player_count(engine, args.players)
    if args.seconds is not None and not 0 < args.seconds <= 86_400:  # also refuses nan and inf
        raise CommandError("--seconds must be more than 0 and at most 86400")
    try:
        result = runner.play(
            engine,
            players,
            args.seed,
            agent_list(args.agents),
            ruleset_ref(args.game),
            strict=args.strict,
            seconds=args.seconds,
        )
    except runner.Stopped as exc:
        raise CommandError(f"the game was stopped: {exc}") from None
    if args.trace:
        try:
            result.trace.save(args.trace)
        except outputs.OutputError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(f"cannot write trace {args.trace}: {exc.strerror}") from None
    agents = result.trace.lines[0]["agents"]
    if args.json:
        out = {
            "game": engine.game.title,
            "ruleset": args.game,
            "options": engine.game.options,
            "variants": engine.game.variants,
            "seed": args.seed,
            "players": players,
            "agents": agents,
            "scores": result.scores,
            "ranking": result.ranking,
            "outcome": result.outcome,
            "decisions": result.decisions,
            "state": final_state_json(engine, result.state),
        }
        print(json.dumps(out, indent=2))
        return 0
    g = engine.game
    opts = ", ".join(f"{k}={v}" for k, v in g.options.items())
    print(
        f"{g.title}: {players} players, seed {args.seed}"
        + (f", {opts}" if opts else "")
        + "".join(f", +{v}" for v in g.variants)
        + f"; {result.decisions} decisions"
    )
    print("\n".join(score_table(result.scores, result.ranking, agents, result.outcome)))
    for o in result.outcome or []:
        print(outcome_text(o, players))
    return 0


def cmd_replay(args) -> int:
    from meeple.interpreter import trace

    try:
        lines = trace.read(args.trace)
        trace.replay(lines, trace_loader)
    except trace.TraceError as exc:
        print(f"replay failed: {exc}", file=sys.stderr)
        return 1
    print(f"{args.trace}: replays exactly ({sum(1 for ln in lines if 'step' in ln)} decisions)")
    return 0


def cmd_new(args) -> int:
    from pathlib import Path

    from meeple.interpreter import skeleton

    try:
        path = skeleton.create(args.name, Path(args.dir))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot create the ruleset: {exc.strerror or exc}") from None
    print(f"created {path}; try: meeple check {path} && meeple run {path}")
    return 0


def cmd_bench(args) -> int:
    from meeple.interpreter import bench

    if args.agents and args.agents != "random":
        raise CommandError("bench plays uniformly random games: --agents random is the only choice")
    if not 0 < args.seconds <= 3600 or not 1 <= args.repeats <= 1000:  # also refuses nan and inf
        raise CommandError("--seconds must be more than 0 and at most 3600, and --repeats 1 to 1000")
    path = find_ruleset(args.game)
    options, variants = parse_options(args.option), args.variant
    compile_times = bench.time_compile(lambda: compile_ruleset(parse_file(path), options, variants))
    engine = load(args.game, options, variants)
    players = player_count(engine, args.players)
    try:
        r = bench.bench(engine, players, args.seconds, args.repeats, args.seed)
    except bench.BenchError as exc:
        raise CommandError(str(exc)) from None
    print(
        f"{engine.game.title}: {players} players, uniform random games, "
        f"{args.repeats} x {args.seconds:g} s (median, min-max)"
    )
    print(f"  parse+check+compile  {bench.spread([t * 1000 for t in compile_times])} ms")
    print(f"  games/s              {bench.spread(r['games_per_s'])}")
    print(f"  decisions/s          {bench.spread(r['decisions_per_s'])}")
    print(f"  decisions/game       {bench.spread(r['decisions_per_game'])}")
    print(f"  state copies/s       {bench.spread(r['copies_per_s'])}")
    print(f"  bytes per state      {r['state_bytes']:,} (JSON, mid-game)")
    return 0


def cmd_play(args) -> int:
    from meeple.interpreter import saves
    from meeple.interpreter.fingerprint import fingerprint
    from meeple.interpreter.play import play_at_terminal

    resumed = None
    if args.resume:
        try:
            resumed = saves.read(args.resume)
            args.game = saves.ruleset_named(resumed, args.resume) or args.game
            if not args.agents:  # a save is untrusted: the agents it names are checked (saves.agents_named)
                args.agents = ",".join(saves.agents_named(resumed))
        except saves.SaveError as exc:
            raise CommandError(str(exc)) from None
        args.option = [f"{k}={v}" for k, v in resumed.get("options", {}).items()]
        args.variant = resumed.get("variants", [])
        args.players, args.seed = resumed["players"], resumed["seed"]
        args.seat = resumed["seat"] + 1
    if not args.game:
        raise CommandError("say which game to play (or --resume a save)")
    if args.save or args.resume:  # refused before anyone makes a move, not at the first save
        guard_output(args.save or args.resume)
    engine = engine_from(args)
    players = player_count(engine, args.players)
    if not 1 <= args.seat <= players:
        raise CommandError(f"--seat must be between 1 and {players}")
    g = engine.game
    header = {
        "ruleset": ruleset_ref(args.game),
        "options": g.options,
        "variants": g.variants,
        "rules": fingerprint(find_ruleset(args.game), g.options),
    }
    try:
        return play_at_terminal(
            engine,
            players,
            args.seed,
            args.seat - 1,
            agent_list(args.agents),
            save=args.save or args.resume,
            resumed=resumed,
            header=header,
        )
    except saves.SaveError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"cannot write the save: {exc.strerror or exc}") from None


def cmd_lsp(args) -> int:
    need("lsp", "meeple lsp", "pygls", "lsprotocol")
    from meeple.dsl import lsp  # pygls loads only for the editor, not for every command

    return lsp.serve()


# ----------------------------------------------------------------- argument parsing
class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise CommandError(message)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="meeple", description="Write, run and test the rules of tabletop games.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    c = sub.add_parser("check", help="check .rules files (with every option value and variant)")
    c.add_argument("files", nargs="+")
    c.add_argument(
        "--variant-file",
        action="append",
        default=[],
        metavar="FILE",
        help="a file of `variant` blocks to lay over each ruleset checked",
    )
    c.set_defaults(fn=cmd_check)

    ls = sub.add_parser("list", help="list the shipped rulesets")
    ls.set_defaults(fn=cmd_list)

    def game_args(q, optional: bool = False):
        q.add_argument(
            "game", nargs="?" if optional else None, help="a shipped ruleset's name or a path to a .rules file"
        )
        q.add_argument("--players", type=int)
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        q.add_argument("--variant", action="append", default=[], metavar="NAME")
        q.add_argument(
            "--agents",
            help="comma-separated, one per seat: random, greedy, mcts, mcts@N, planner, planner@N, rollout, rollout@N, module:Class",
        )

    r = sub.add_parser("run", help="bots play one game")
    game_args(r)
    r.add_argument("--trace", help="write the trace (JSON lines) here")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument(
        "--strict", action="store_true", help="check at every step that every component is in exactly one place"
    )
    r.add_argument("--seconds", type=float, help="stop the game (one line, exit 2) if it runs longer than this")
    r.set_defaults(fn=cmd_run)

    pl = sub.add_parser("play", help="play at the terminal: against bots, or hot-seat with --agents human,human")
    game_args(pl, optional=True)  # --resume knows the game
    pl.add_argument(
        "--seat", type=int, default=1, help="your seat, 1-based, when --agents names no `human` (the others are bots)"
    )
    pl.add_argument("--save", help="save every choice to this file as you play")
    pl.add_argument("--resume", help="continue a saved game (and keep saving to it)")
    pl.set_defaults(fn=cmd_play)

    b = sub.add_parser("bench", help="how fast random games play")
    game_args(b)
    b.add_argument("--seconds", type=float, default=3.0)
    b.add_argument("--repeats", type=int, default=3)
    b.set_defaults(fn=cmd_bench)

    n = sub.add_parser("new", help="start a new ruleset from a small complete skeleton")
    n.add_argument("name")
    n.add_argument("--dir", default=".", help="where to create the folder (default: here)")
    n.set_defaults(fn=cmd_new)

    rp = sub.add_parser("replay", help="verify a trace")
    rp.add_argument("trace")
    rp.set_defaults(fn=cmd_replay)

    # Commands that live with their subject: pictures, the lab, the formatter.
    from meeple.dsl import formatter
    from meeple.interpreter.commands import grids as grid
    from meeple.interpreter.commands import lab, see, train
    from meeple.interpreter.commands import serve as table

    for name, configure, fn, text in [
        ("graph", see.configure_graph, see.cmd_graph, "draw the flow of phases or a board: Graphviz DOT, or SVG/PNG"),
        ("show", see.configure_show, see.cmd_show, "a traced game as it stood after decision K"),
        ("simulate", lab.configure_simulate, lab.cmd_simulate, "play many seeded games; rows and a summary"),
        (
            "compare",
            lab.configure_compare,
            lab.cmd_compare,
            "a variant, an option or another file against the base game, on the same seeds",
        ),
        (
            "sweep",
            grid.configure_sweep,
            grid.cmd_sweep,
            "play a grid of param values on the same seeds; the response with intervals",
        ),
        (
            "tune",
            grid.configure_tune,
            grid.cmd_tune,
            "search param ranges (optuna) for the values that best meet a target (balance, ...)",
        ),
        (
            "tournament",
            grid.configure_tournament,
            grid.cmd_tournament,
            "agents play every seating; Bradley-Terry ratings with intervals",
        ),
        (
            "report",
            lab.configure_report,
            lab.cmd_report,
            "the report of saved rows: one kind of game summarized, two compared by seed",
        ),
        ("summarize", lab.configure_report, lab.cmd_report, "the same as report (its former name)"),
        ("fmt", formatter.configure_fmt, formatter.cmd_fmt, "rewrite .rules files in the canonical layout"),
        ("serve", table.configure_serve, table.cmd_serve, "the play table: people play in a browser"),
        (
            "train",
            train.configure_train,
            train.cmd_train,
            "fit a state evaluation for the planner bot from self-play; writes NAME.model.json",
        ),
    ]:
        command = sub.add_parser(name, help=text)
        configure(command)
        command.set_defaults(fn=fn)
    ls = sub.add_parser("lsp", help="the language server for editors (stdio)")
    ls.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    ls.set_defaults(fn=cmd_lsp)
    return p


def main(argv: list[str] | None = None) -> int:
    from meeple.interpreter.printable import Printable

    streams = sys.stdout, sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if args.fn is not cmd_lsp:  # the language server speaks its protocol on stdout
            sys.stdout, sys.stderr = Printable(sys.stdout), Printable(sys.stderr)
        return args.fn(args)
    except MissingExtra as exc:  # already a sentence naming the command: no `meeple:` before it
        print(exc, file=sys.stderr)
        return 2
    except (CommandError, UsageError, AgentError) as exc:
        print(f"meeple: {exc}", file=sys.stderr)
        return 2
    except MeepleError as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    except ValueError as exc:  # e.g. a player count the engine refuses
        print(f"meeple: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nmeeple: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout, sys.stderr = streams


if __name__ == "__main__":
    sys.exit(main())
