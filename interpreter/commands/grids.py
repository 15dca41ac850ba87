"""The lab's commands over many setups: `meeple sweep`, `meeple tune` and `meeple tournament`.

    meeple sweep GAME --param mana_cost=1..4 -n 100 [--plot sweep.png]   a grid of values, the response
    meeple tune GAME --param mana_cost=1..4 --target balance              the values that best meet a target
    meeple tournament GAME --agents a,b,c -n 20                           every seating; ratings with intervals

The statistics are in interpreter/lab/sweep.py and interpreter/lab/tournament.py;
running games, --out and --resume are shared with `simulate` (commands/lab.py).
"""

from __future__ import annotations

import json
import sys

from meeple.interpreter import arguments
from meeple.interpreter.agents import RECOMMENDED
from meeple.interpreter.commands.lab import (
    STOPPED,
    check_counts,
    common_args,
    engine_of,
    play_sides,
    side_of,
    write_guarded,
)
from meeple.interpreter.extras import need
from meeple.interpreter.lab import stats, tables
from meeple.interpreter.lab.runs import GAME_SECONDS, play_all
from meeple.interpreter.lab.simulate import tasks_for


def configure_sweep(p) -> None:
    p.add_argument("game", help="a shipped ruleset or a .rules file")
    common_args(p)
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=LO..HI",
        help="a param's range (mana_cost=1..4) or an option's values (board=A,B); several make a grid",
    )
    p.add_argument("--plot", help="write the response as a PNG")
    p.add_argument("--json", action="store_true", help="print the response as JSON")


def configure_tune(p) -> None:
    p.add_argument("game", help="a shipped ruleset or a .rules file")
    p.add_argument("-n", "--games", type=int, default=60, help="games per point tried (default 60)")
    p.add_argument("--players", type=int)
    p.add_argument("--agents", help=f"comma-separated, one per seat (default {RECOMMENDED})")
    p.add_argument("--seed", type=int, default=1, help="every point plays seeds SEED.. (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="held at every point")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--variant-file", action="append", default=[], metavar="FILE")
    p.add_argument("--jobs", type=int, default=1, help="worker processes on this machine")
    p.add_argument("--param", action="append", default=[], metavar="NAME=LO..HI", help="a range to search")
    p.add_argument(
        "--target",
        default="balance",
        help="balance (seat win rates even; the default), first (the first player's win rate even), "
        "or FIGURE=VALUE (decisions=200)",
    )
    p.add_argument("--trials", type=int, default=20, help="points tried (default 20)")
    p.add_argument("--json", action="store_true")


def cmd_sweep(args) -> int:
    from meeple.interpreter.lab import sweep

    check_counts(args)
    if args.precision:
        raise arguments.CommandError("--precision is for simulate and compare; a sweep plays -n games a point")
    options = arguments.parse_options(args.option)
    base = side_of(args, args.game, options, args.variant, "base")
    try:
        points = sweep.grid(args.param, engine_of(args, options).game)
    except sweep.SweepError as exc:
        raise arguments.CommandError(str(exc)) from None
    sides = [side_of(args, args.game, {**options, **point}, args.variant, sweep.point_label(point)) for point in points]
    if len({s.players for s in sides} | {base.players}) > 1:
        raise arguments.CommandError("every point must play with the same number of players: give --players")
    rows, stopped = play_sides(args, sides, stats.summarize)
    result = sweep.response(rows, points)
    opening = sweep.sweep_findings(result)
    if args.json:
        print(json.dumps({**result, "findings": opening}, indent=2, sort_keys=True, default=str))
    else:
        print("\n".join(opening) + "\n\n" + tables.table(*sweep.sweep_table(result)[1:]))
    if args.plot and not stopped:
        need("lab", "meeple sweep --plot", "matplotlib", "numpy")
        from meeple.interpreter import outputs
        from meeple.interpreter.lab.report import plot_sweep

        write_guarded(args.plot, lambda: outputs.write_bytes(args.plot, plot_sweep(result)))
    return STOPPED if stopped else 1 if any(r["error"] for r in rows) else 0


def cmd_tune(args) -> int:
    from meeple.interpreter.lab import sweep

    need("lab", "meeple tune", "optuna")
    if args.games < 1 or args.trials < 1 or args.jobs < 1:
        raise arguments.CommandError("-n, --trials and --jobs must be at least 1")
    options = arguments.parse_options(args.option)
    args.out, args.resume, args.timeout = None, False, GAME_SECONDS
    base = side_of(args, args.game, options, args.variant, "base")
    game = engine_of(args, options).game
    try:
        sweep.grid(args.param, game)
        sweep.target_gap(args.target, base.players)
    except sweep.SweepError as exc:
        raise arguments.CommandError(str(exc)) from None

    def play(point: dict) -> list[dict]:
        side = side_of(args, args.game, {**options, **point}, args.variant, sweep.point_label(point))
        return list(play_all(tasks_for([side], args.games, args.seed), jobs=args.jobs, timeout=GAME_SECONDS))

    try:
        result = sweep.tune(play, game, args.param, args.target, base.players, args.trials, args.seed)
    except sweep.SweepError as exc:
        raise arguments.CommandError(str(exc)) from None
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return STOPPED
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True, default=str))
    else:
        print("\n".join(sweep.tune_lines(result)))
    return 0


def configure_tournament(p) -> None:
    p.add_argument("game", help="a shipped ruleset or a .rules file")
    common_args(p)
    p.add_argument("--json", action="store_true", help="print the ratings as JSON")


def cmd_tournament(args) -> int:
    from meeple.interpreter.lab import tournament

    check_counts(args)
    if args.precision:
        raise arguments.CommandError("--precision is for simulate and compare; a tournament plays -n games a seating")
    agents = arguments.agent_list(args.agents) if args.agents else []
    options = arguments.parse_options(args.option)
    players = arguments.player_count(engine_of(args, options), args.players)
    try:
        seatings = tournament.lineups(agents, players)
    except tournament.TournamentError as exc:
        raise arguments.CommandError(str(exc)) from None
    sides = []
    for lineup in seatings:
        args.agents = ",".join(lineup)
        sides.append(side_of(args, args.game, options, args.variant, " v ".join(lineup)))
    rows, stopped = play_sides(args, sides, stats.summarize)
    names = list(dict.fromkeys(agents))
    table = tournament.ratings(rows, names, seed=args.seed)
    if args.json:
        print(json.dumps({"seatings": len(seatings), "games": len(rows), "ratings": table}, indent=2))
    else:
        errors = sum(1 for r in rows if r["error"])
        print(
            f"{len(seatings)} seatings x {args.games} games = {len(rows)} games ({errors} errors); "
            f"Bradley-Terry ratings on the Elo scale, 95% bootstrap intervals.\n"
        )
        print(
            tables.table(
                ["agent", "rating", "95% CI", "meetings taken", "share"],
                [
                    [
                        t["agent"],
                        tables.num(t["rating"], 0),
                        tables.interval(t["low"], t["high"], lambda x: tables.num(x, 0)),
                        tables.num(t["taken"], 1) + f" of {tables.num(t['meetings'], 0)}",
                        tables.pct(t["share"]),
                    ]
                    for t in table
                ],
            )
        )
    return STOPPED if stopped else 1 if any(r["error"] for r in rows) else 0
