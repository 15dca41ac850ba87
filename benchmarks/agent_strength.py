"""Is mcts stronger than random and greedy? Seeded two-player games on every shipped game.

For each game and each opponent, plays N games of mcts (fixed iteration budget,
so every game replays exactly) against the opponent, mcts in seat 1 for even
seeds and seat 2 for odd ones, and prints mcts's win rate (a shared first place
counts half) with its 95% Wilson interval and the two-sided p-value of a sign
test against 50%.

    .venv/bin/python benchmarks/agent_strength.py [--games 100] [--budget mcts@N] [--jobs 2]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.lab.simulate import Side, run_rows  # noqa: E402
from interpreter.lab.stats import mcnemar, wilson  # noqa: E402

# The budget per game: Queen's Wishes offers a hundred placements at a time and plays fast,
# so it gets more iterations; the other two decide among few options in long games.
BUDGETS = {"queens_wishes": "mcts@150", "wild_gardens": "mcts@30", "apothebakery": "mcts@30"}


def tasks(game: str, budget: str, opponent: str, n: int, seed: int) -> list:
    first = Side(game, 2, (budget, opponent), label="mcts first")
    second = Side(game, 2, (opponent, budget), label="mcts second")
    return [(first if i % 2 == 0 else second, seed + i) for i in range(n)]


def score(rows: list[dict]) -> tuple[float, int, int, int]:
    """mcts's fractional wins, decided games won and lost (for the sign test), errors."""
    wins = won = lost = errors = 0
    for r in rows:
        if r["error"]:
            errors += 1
            continue
        seat = 0 if r["side"] == "mcts first" else 1
        if seat in r["winners"]:
            wins += 1 / len(r["winners"])
            won += len(r["winners"]) == 1
        else:
            lost += 1
    return wins, won, lost, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per game and opponent")
    ap.add_argument("--budget", help="one budget for every game (default: BUDGETS)")
    ap.add_argument("--opponents", default="random,greedy")
    ap.add_argument("--only", help="one shipped game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print(f"mcts against each opponent, 2 players, {args.games} games each "
          f"(seeds {args.seed}..{args.seed + args.games - 1}, seats alternate)")
    print(f"{'game':15s} {'budget':9s} {'opponent':9s} {'mcts win rate':>14s} {'95% CI':>16s} {'p (sign test)':>14s} "
          f"{'errors':>6s} {'s/game':>7s}")
    for game in [args.only] if args.only else BUDGETS:
        budget = args.budget or BUDGETS[game]
        for opponent in args.opponents.split(","):
            start = time.perf_counter()
            rows = run_rows(tasks(game, budget, opponent, args.games, args.seed), jobs=args.jobs)
            seconds = (time.perf_counter() - start) * args.jobs / len(rows)
            wins, won, lost, errors = score(rows)
            n = len(rows) - errors
            p, low, high = wilson(wins, n)
            print(f"{game:15s} {budget:9s} {opponent:9s} {p:14.1%} {f'[{low:.1%}, {high:.1%}]':>16s} "
                  f"{mcnemar(won, lost):14.2g} {errors:6d} {seconds:7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
