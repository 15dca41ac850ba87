"""Soak: many seeded random games of every shipped ruleset and player count.

Each game is played on the raw engine loop with conservation checked at the
end; any error is reported with the ruleset, player count and the seed that
reproduces it (`python benchmarks/soak.py --only GAME N --seed S --games 1`).

    make soak                          # 10,000 games per ruleset and player count
    .venv/bin/python benchmarks/soak.py --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def soak_one(job) -> tuple:
    from meeple.dsl.compiler import compile_ruleset, find_ruleset
    from meeple.dsl.parser import parse_file
    from meeple.interpreter import rng
    from meeple.interpreter.engine import Engine
    from meeple.interpreter.runner import conservation_errors

    name, players, first, count = job
    engine = Engine(compile_ruleset(parse_file(find_ruleset(name)), {}, []))
    errors, decisions, start = [], 0, time.perf_counter()
    for seed in range(first, first + count):
        picker = {"rng": rng.seed_state(seed)}
        try:
            state, _ = engine.start(players, seed)
            steps = 0
            while engine.option_count(state):
                engine.apply(state, rng.below(picker, engine.option_count(state)), inplace=True, events=False)
                steps += 1
                if steps > 100_000:
                    raise RuntimeError("no end after 100,000 decisions")
            decisions += steps
            problems = conservation_errors(engine.game, state)
            if problems:
                raise RuntimeError("; ".join(problems[:3]))
            engine.scores(state)
        except Exception as exc:  # a soak reports every failure, whatever it is
            errors.append((seed, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"))
    return name, players, count, decisions, time.perf_counter() - start, errors


def main() -> int:
    from meeple.dsl.compiler import compile_ruleset, shipped_rulesets
    from meeple.dsl.parser import parse_file

    ap = argparse.ArgumentParser(description="seeded random games of every shipped ruleset")
    ap.add_argument("--games", type=int, default=10_000, help="games per ruleset and player count")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--only",
        nargs=2,
        metavar=("RULESET", "PLAYERS"),
        help="replay exactly the soak's games of one ruleset and player count from --seed",
    )
    args = ap.parse_args()
    if args.only:
        name, players, count, decisions, seconds, errors = soak_one(
            (args.only[0], int(args.only[1]), args.seed, args.games)
        )
        for seed, message in errors:
            print(f"seed {seed}: {message}")
        print(f"{name} {players} players: {count} games from seed {args.seed}, {len(errors)} errors")
        return 1 if errors else 0
    jobs = []
    for name, path in shipped_rulesets().items():
        game = compile_ruleset(parse_file(path), {}, [])
        for players in range(game.min_players, game.max_players + 1):
            chunk = max(1, args.games // args.jobs)
            for first in range(args.seed, args.seed + args.games, chunk):
                jobs.append((name, players, first, min(chunk, args.seed + args.games - first)))
    totals: dict = {}
    failures = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, players, count, decisions, seconds, errors in pool.map(soak_one, jobs):
            t = totals.setdefault((name, players), [0, 0, 0.0, []])
            t[0] += count
            t[1] += decisions
            t[2] += seconds
            t[3] += errors
    print(f"{'ruleset':14s} {'players':>7s} {'games':>7s} {'decisions':>11s} {'cpu s':>8s} errors")
    for (name, players), (games, decisions, seconds, errors) in sorted(totals.items()):
        print(f"{name:14s} {players:7d} {games:7d} {decisions:11,d} {seconds:8.1f} {len(errors)}")
        for seed, message in errors[:5]:
            print(
                f"    seed {seed}: {message}\n      replay: python benchmarks/soak.py --only {name} {players} "
                f"--seed {seed} --games 1"
            )
        failures += len(errors)
    print(f"\n{failures} errors")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
