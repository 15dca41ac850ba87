"""The lab's commands: `meeple simulate`, `meeple compare` and `meeple report`.

    meeple simulate GAME -n 200 [--players P] [--agents a,b] [--option k=v] [--variant v]
                    [--jobs J | --scheduler tcp://HOST:PORT] [--seed S] [--out rows.jsonl [--resume]]
    meeple compare GAME --variant V -n 200 [--report r.html]    (or --option k=v, or A.rules B.rules)
    meeple report rows.jsonl [more.jsonl ...] [--html r.html]   the report of saved rows

Rows are written as JSON lines (one game each); the summary and the comparison
are computed by interpreter/lab/stats.py and printed as tables
(interpreter/lab/tables.py); `--report` writes an HTML page with plots
(interpreter/lab/report.py).
"""

from __future__ import annotations

import json
import os
import sys

from meeple.interpreter import arguments
from meeple.interpreter.agents import RECOMMENDED
from meeple.interpreter.extras import need
from meeple.interpreter.lab import findings, precision, stats, tables
from meeple.interpreter.lab.rows import RowsError, RowsFile, in_task_order, read_rows, row_key, task_key
from meeple.interpreter.lab.runs import GAME_SECONDS, Progress, play_all
from meeple.interpreter.lab.simulate import Side, tasks_for

STOPPED = 130  # the exit code of a run stopped by Ctrl-C (the shell's own for SIGINT)


def common_args(p, several_games: bool = True) -> None:
    p.add_argument("-n", "--games", type=int, default=100, help="games per side (default 100)")
    p.add_argument("--players", type=int)
    p.add_argument(
        "--agents",
        help="comma-separated, one per seat: random, greedy, mcts, mcts@N, module:Class "
        f"(default {RECOMMENDED}, the recommended agent for comparisons)",
    )
    p.add_argument("--seed", type=int, default=1, help="game i plays seed SEED + i (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument(
        "--variant-file",
        action="append",
        default=[],
        metavar="FILE",
        help="a file of your own `variant` blocks, laid over the game (then --variant NAME)",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes on this machine")
    p.add_argument("--scheduler", help="a Dask scheduler address (tcp://HOST:PORT) to play on a cluster")
    p.add_argument("--out", help="write one JSON row per game to this file, as each game ends")
    p.add_argument("--resume", action="store_true", help="keep the games already in --out and play only the rest")
    p.add_argument(
        "--precision",
        metavar="WIDTH",
        help="play rounds of -n games a side until the 95%% interval of --on is within WIDTH either "
        "side (3pp for a rate, a number otherwise), or --max-games",
    )
    p.add_argument(
        "--on",
        default="win/0",
        metavar="FIGURE",
        help="the figure --precision and --detect are about: win/0 (P1's win rate; the default), "
        "score/0, decisions, measure/LABEL, first/win, ...",
    )
    p.add_argument("--max-games", type=int, default=2000, help="with --precision: at most this many games a side")
    p.add_argument(
        "--detect",
        metavar="DIFF",
        help="also say how many games would find a change of DIFF (5pp, or a number) in --on",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=GAME_SECONDS,
        metavar="SECONDS",
        help=f"stop a game that runs longer (an error row; default {GAME_SECONDS:g}; with --jobs 2+)",
    )


def configure_simulate(p) -> None:
    p.add_argument("game")
    common_args(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--report", help="also write an HTML report with plots")


def configure_compare(p) -> None:
    p.add_argument("game", help="a shipped ruleset or a .rules file (side A)")
    p.add_argument("other", nargs="?", help="a second .rules file (side B) instead of --variant/--option")
    common_args(p)
    p.add_argument(
        "--base-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="side A plays with this option (compare one option value or variant with another)",
    )
    p.add_argument("--base-variant", action="append", default=[], metavar="NAME", help="side A plays this variant")
    p.add_argument(
        "--fixed-option", action="append", default=[], metavar="NAME=VALUE", help="both sides play with this option"
    )
    p.add_argument("--fixed-variant", action="append", default=[], metavar="NAME", help="both sides play this variant")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--report", help="write an HTML report with plots (and its PNGs beside it)")
    p.add_argument("--detail", action="store_true", help="also show each rule per seat")


def configure_report(p) -> None:
    p.add_argument(
        "files",
        nargs="+",
        help="result files from simulate or compare --out (merged; two kinds of games are compared, paired by seed)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--html", help="also write an HTML report with plots (and its PNGs beside it)")
    p.add_argument("--detail", action="store_true", help="also show each rule per seat")


def check_counts(args) -> None:
    if args.games < 1:
        raise arguments.CommandError("-n must be at least 1")
    if args.jobs < 1:
        raise arguments.CommandError("--jobs must be at least 1")
    if args.scheduler and args.jobs > 1:
        raise arguments.CommandError("give --jobs or --scheduler, not both")
    if args.resume and not args.out:
        raise arguments.CommandError("--resume continues the run kept in --out: give --out FILE")
    if not args.timeout > 0:
        raise arguments.CommandError("--timeout must be a number of seconds above 0")
    try:
        args.precision_width = precision.width(args.precision) if args.precision else None
        args.detect_width = precision.width(args.detect) if args.detect else None
    except precision.PrecisionError as exc:
        raise arguments.CommandError(str(exc)) from None
    for given in (args.precision_width, args.detect_width):
        if given is not None and given[1] != precision.is_rate(args.on):
            raise arguments.CommandError(
                f"`{args.on}` is "
                + (
                    "a rate: give the width in pp (3pp)"
                    if given[1] is False
                    else "not a rate: give the width as a number"
                )
            )
    if args.precision and args.max_games < args.games:
        raise arguments.CommandError("--max-games must be at least -n")
    # Refused before any game is played, not after an hour of simulation.
    if args.scheduler:
        need("lab", f"meeple {args.command} --scheduler", "dask.distributed")
    if getattr(args, "report", None):
        need("lab", f"meeple {args.command} --report", "matplotlib", "numpy")


def side_of(args, game: str, options: dict, variants: list, label: str):
    files = tuple(args.variant_file)
    try:
        engine = arguments.load(game, options, variants, files)  # errors in the rules or options surface here, once
    except OSError as exc:
        raise arguments.CommandError(f"cannot read {exc.filename}: {exc.strerror}") from None
    players = arguments.player_count(engine, args.players)
    agents = arguments.agent_list(args.agents) if args.agents else [RECOMMENDED]
    from meeple.interpreter.agents import make_agents

    make_agents(engine, agents, players, 0)  # an unknown agent is a usage error before any game
    return Side(game, players, tuple(agents), tuple(sorted(options.items())), tuple(variants), label, files)


def play_sides(args, sides: list[Side], result) -> tuple[list[dict], bool]:
    """Every game of the sides, each row written to --out as its game ends; (rows, stopped by Ctrl-C).
    With --precision, rounds of -n games a side until `result(rows)`'s figure is narrow enough."""
    limit = args.max_games if args.precision else args.games
    tasks = tasks_for(sides, limit, args.seed)  # every game this run may play
    out = _open_out(args.out, args.resume, tasks) if args.out else None
    rows = list(out.kept) if out else []
    if rows:
        print(f"resuming: {len(rows)} of {args.games * len(sides)} games already in {args.out}", file=sys.stderr)
    played, stopped, games_a_side = {row_key(r) for r in rows}, False, args.games
    try:
        while True:
            todo = [t for t in tasks_for(sides, games_a_side, args.seed) if task_key(t) not in played]
            stopped = _play_round(args, todo, rows, out)
            played.update(task_key(t) for t in todo)
            if stopped or not args.precision or games_a_side >= limit:
                break
            now = result(rows)
            try:
                precision.check_figure(now, args.on)
            except precision.PrecisionError as exc:
                raise arguments.CommandError(str(exc)) from None
            if precision.narrow_enough(now, args.on, args.precision_width[0]):
                break
            games_a_side = min(limit, precision.games_for(now, args.on, args.precision_width[0], games_a_side))
            print(
                f"precision: {args.on} not yet within {args.precision} after {len(rows) // len(sides)} games "
                f"a side; playing up to {games_a_side}",
                file=sys.stderr,
            )
    finally:
        if out:
            out.close(tasks_for(sides, games_a_side, args.seed) if not stopped else None)
    if stopped:
        kept = f"; the finished ones are in {args.out}: add --resume to play the rest" if out else ""
        print(f"\nstopped: {len(rows)} of {games_a_side * len(sides)} games played{kept}", file=sys.stderr)
    return in_task_order(rows, tasks), stopped


def _play_round(args, todo: list, rows: list, out) -> bool:
    """Play `todo`, adding each row to `rows` (and --out) as its game ends; True if stopped by Ctrl-C."""
    progress = Progress(len(todo))
    games = play_all(todo, jobs=args.jobs, scheduler=args.scheduler, timeout=args.timeout)
    try:
        for done, row in enumerate(games, 1):
            rows.append(row)
            if out:
                out.append(row)
            progress(done)
    except KeyboardInterrupt:
        return True
    except OSError as exc:
        raise arguments.CommandError(f"cannot reach the scheduler {args.scheduler}: {exc}") from None
    finally:
        games.close()  # every worker stops now
    return False


def _open_out(path: str, resume: bool, tasks: list) -> RowsFile:
    from meeple.interpreter import outputs

    try:
        out = RowsFile(path)
        out.open(resume, tasks)
    except (outputs.OutputError, RowsError) as exc:
        raise arguments.CommandError(str(exc)) from None
    except OSError as exc:
        raise arguments.CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    return out


def write_guarded(path: str, write) -> None:
    from meeple.interpreter import outputs

    try:
        outputs.guard(path)
        write()
    except outputs.OutputError as exc:
        raise arguments.CommandError(str(exc)) from None
    except OSError as exc:
        raise arguments.CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def _show(args, result: dict, rows_a: list, rows_b: list | None, title: str, html_path: str | None) -> None:
    """Print a summary or comparison (findings first, then tables; or JSON) and write its HTML report."""
    if result["kind"] == "compare":
        opening = findings.compare_findings(result)
    else:
        opening = findings.summary_findings(result)
    opening += _precision_lines(args, result)
    if result["kind"] == "compare":
        text = tables.format_compare(result, detail=getattr(args, "detail", False), opening=opening)
    else:
        text = tables.format_summary(result, opening=opening)
    print(json.dumps({**result, "findings": opening}, indent=2, sort_keys=True) if args.json else text)
    if html_path:
        write_guarded(html_path, lambda: _report(html_path, result, rows_a, rows_b, title, opening))


def engine_of(args, options: dict):
    return arguments.load(args.game, options, args.variant, tuple(args.variant_file))


def _precision_lines(args, result: dict) -> list[str]:
    """What --precision reached and what --detect needs, in words (report has neither flag)."""
    lines = []
    if getattr(args, "precision", None):
        got = precision.estimate(result, args.on)
        if got is not None and got[1] is not None:
            rate = precision.is_rate(args.on)
            show = (lambda x: f"{100 * x:.1f}%") if rate else (lambda x: f"{x:.2f}")
            half = (got[2] - got[1]) / 2
            reached = "as asked" if half <= args.precision_width[0] else f"not reached in {args.max_games} games"
            lines.append(
                f"Precision: {args.on} = {show(got[0])}, 95% CI [{show(got[1])}, {show(got[2])}] (±{100 * half:.1f}pp"
                if rate
                else f"(±{half:.2f}"
            )
            lines[-1] += f"; ±{args.precision} asked: {reached}) after {got[4]} games."
    if getattr(args, "detect", None):
        line = precision.detect_line(result, args.on, args.detect_width[0], args.detect_width[1])
        if line:
            lines.append(line)
    return lines


def cmd_simulate(args) -> int:
    check_counts(args)
    side = side_of(args, args.game, arguments.parse_options(args.option), args.variant, "base")
    rows, stopped = play_sides(args, [side], stats.summarize)
    summary = stats.summarize(rows)
    _show(args, summary, rows, None, f"{args.game}: simulation", None if stopped else args.report)
    if stopped:
        return STOPPED
    return 1 if summary["errors"]["count"] else 0


def cmd_compare(args) -> int:
    check_counts(args)
    options, fixed = arguments.parse_options(args.option), arguments.parse_options(args.fixed_option)
    if args.other:
        if options or args.variant or args.base_option or args.base_variant:
            raise arguments.CommandError("compare two files, or one game with --variant/--option, not both")
        label_a, label_b = _stem(args.game), _stem(args.other)
        if label_a == label_b:  # two files of the same name in different folders
            label_a, label_b = "A", "B"
        a = side_of(args, args.game, fixed, args.fixed_variant, label_a)
        b = side_of(args, args.other, fixed, args.fixed_variant, label_b)
    else:
        base_options = arguments.parse_options(args.base_option)
        if not options and not args.variant and not base_options and not args.base_variant:
            raise arguments.CommandError(
                "say what to compare: --variant NAME, --option NAME=VALUE, or a second .rules file"
            )
        for name in set(fixed) & (set(options) | set(base_options)):
            raise arguments.CommandError(f"option `{name}` is both fixed and compared: give it one way")
        label_a = _setup_words(args.base_variant, base_options) or "base"
        label_b = _setup_words(args.variant, options) or "base"
        if label_a == label_b:
            raise arguments.CommandError(f"both sides would play the same game ({label_a}): change one side")
        a = side_of(args, args.game, {**fixed, **base_options}, args.fixed_variant + args.base_variant, label_a)
        b = side_of(args, args.game, {**fixed, **options}, args.fixed_variant + args.variant, label_b)
        if a.players != b.players:
            raise arguments.CommandError("both sides must play with the same number of players: give --players")

    def comparison_of(rows):
        return stats.compare(
            [r for r in rows if r["side"] == a.label],
            [r for r in rows if r["side"] == b.label],
            labels=(a.label, b.label),
        )

    rows, stopped = play_sides(args, [a, b], comparison_of)
    rows_a = [r for r in rows if r["side"] == a.label]
    rows_b = [r for r in rows if r["side"] == b.label]
    comparison = comparison_of(rows)
    comparison["fixed"] = _setup_words(args.fixed_variant, fixed)
    title = f"{args.game}: {b.label} against {a.label}, {args.games} seeded games"
    _show(args, comparison, rows_a, rows_b, title, None if stopped else args.report)
    if stopped:
        return STOPPED
    return 1 if any(r["error"] for r in rows) else 0


def _report(path: str, result: dict, rows_a, rows_b, title: str, opening: list[str]) -> None:
    from meeple.interpreter.lab.report import write_report

    files = write_report(path, result, rows_a, rows_b, title=title, opening=opening)
    print(f"report: {', '.join(files)}", file=sys.stderr)


def cmd_report(args) -> int:
    """The report of saved rows: one kind of game summarized, two compared on the seeds both played."""
    if args.html:
        need("lab", "meeple report --html", "matplotlib", "numpy")
    try:
        rows = read_rows(args.files)
    except OSError as exc:
        raise arguments.CommandError(f"cannot read {exc.filename}: {exc.strerror}") from None
    except RowsError as exc:
        raise arguments.CommandError(str(exc)) from None
    if not rows:
        raise arguments.CommandError("no result rows in " + ", ".join(args.files))
    sides = sides_of(rows)
    if len(sides) > 2:
        raise arguments.CommandError(
            f"these files hold {len(sides)} kinds of games ({', '.join(sides)}); "
            "a report summarizes one or compares two"
        )
    (label_a, rows_a), *rest = sides.items()
    game = rows_a[0]["ruleset"]
    if not rest:
        _show(args, stats.summarize(rows_a), rows_a, None, f"{game}: {len(rows_a)} games", args.html)
        return 0
    label_b, rows_b = rest[0]
    comparison = stats.compare(rows_a, rows_b, labels=(label_a, label_b))
    _show(args, comparison, rows_a, rows_b, f"{game}: {label_b} against {label_a}", args.html)
    return 0


def sides_of(rows: list[dict]) -> dict[str, list[dict]]:
    """Rows grouped by how their games were played (side name and setup), named by the side, or by
    their setup where two runs used one name (two `simulate` runs are both `base`)."""
    groups: dict[tuple, list] = {}
    for row in rows:
        groups.setdefault(row_key(row)[:-1], []).append(row)
    names = [key[0] for key in groups]
    out = {}
    for key, members in groups.items():
        name = key[0]
        if names.count(name) > 1:
            _, ruleset, options, variants, agents, players, *_ = key
            setup = [f"+{v}" for v in variants] + [f"{k}={v}" for k, v in json.loads(options).items()]
            name = " ".join(setup) or "base"
            if name in out:
                name = f"{name} ({', '.join(agents)})"
        out[name] = members
    return out


def _setup_words(variants: list, options: dict) -> str:
    """How a side is named: its variants and options as given (`+short_game board=B`)."""
    return " ".join([f"+{v}" for v in variants] + [f"{k}={v}" for k, v in options.items()])


def _stem(path: str) -> str:
    return os.path.splitext(os.path.basename(path.rstrip("/")))[0]
