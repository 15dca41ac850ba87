"""CFR on Leduc hold'em through meeple.openspiel against OpenSpiel's own leduc_poker: the average
policy's exploitability after each checkpoint, side by side, and whether ours stays within 10% of
theirs. Not part of `make test` (through the adapter one CFR iteration of Leduc takes seconds: the
engine steps every node in Python, where leduc_poker is C++).

    .venv/bin/python benchmarks/cfr_check.py                  # 100 iterations, checkpoints 1 2 5 10 20 50 100
    .venv/bin/python benchmarks/cfr_check.py --iterations 10  # a shorter curve
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from meeple import openspiel  # noqa: E402

CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def curve(game, iterations: int) -> tuple[dict, float]:
    """Exploitability of CFR's average policy at each checkpoint up to `iterations`, and the seconds."""
    solver, out, start = cfr.CFRSolver(game), {}, time.perf_counter()
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in CHECKPOINTS or i == iterations:
            out[i] = exploitability.exploitability(game, solver.average_policy())
    return out, time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--tolerance", type=float, default=0.10, help="relative (default 10%%)")
    args = ap.parse_args(argv)
    theirs, their_time = curve(pyspiel.load_game("leduc_poker"), args.iterations)
    ours, our_time = curve(openspiel.load("leduc_holdem", returns="score"), args.iterations)
    print("iteration  meeple leduc_holdem  openspiel leduc_poker  difference")
    worst = 0.0
    for i in ours:
        diff = abs(ours[i] - theirs[i]) / theirs[i]
        worst = max(worst, diff)
        print(f"{i:9d}  {ours[i]:19.6f}  {theirs[i]:21.6f}  {100 * diff:9.3f}%")
    print(f"seconds: meeple {our_time:.1f}, openspiel {their_time:.1f}")
    ok = worst <= args.tolerance
    print(
        f"{'ok' if ok else 'FAILED'}: the largest difference is {100 * worst:.3f}% (at most {100 * args.tolerance:g}%)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
