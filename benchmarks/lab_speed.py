"""How long a designer waits: the issue's comparison, timed as a designer runs it.

    .venv/bin/python benchmarks/lab_speed.py                 # Wild Gardens, Keep It Fresh, 200 games, 2 jobs
    .venv/bin/python benchmarks/lab_speed.py --games 40      # a shorter run, for a first look
    .venv/bin/python benchmarks/lab_speed.py --agents greedy # another agent than the recommended one

Runs `meeple compare wild_gardens --variant keep_it_fresh --players 2 -n N --jobs J --out F` as a
child process (the whole command: loading, workers, the report) and prints the wall time, the
CPU seconds per game from the rows (each side's mean, one core), the games with errors, and the
report's opening lines. The rows file is kept in the system's temporary folder and named at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="wild_gardens")
    p.add_argument("--variant", default="keep_it_fresh")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--agents", help="default: the recommended agent (no --agents given to compare)")
    args = p.parse_args()
    out = Path(tempfile.gettempdir()) / f"lab_speed_{args.game}_{args.games}.jsonl"
    command = [
        sys.executable,
        "-c",
        "import sys; from meeple.cli import main; sys.exit(main(sys.argv[1:]))",
        "compare",
        args.game,
        "--variant",
        args.variant,
        "--players",
        "2",
        "-n",
        str(args.games),
        "--jobs",
        str(args.jobs),
        "--out",
        str(out),
    ]
    if args.agents:
        command += ["--agents", args.agents]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        print(done.stderr, file=sys.stderr)
        return done.returncode
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    print(f"{' '.join(command[3:])}")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min) for {len(rows)} games on {args.jobs} processes")
    for side in dict.fromkeys(r["side"] for r in rows):
        cpu = [r["cpu"] for r in rows if r["side"] == side and not r["error"]]
        errors = sum(1 for r in rows if r["side"] == side and r["error"])
        print(
            f"  {side}: {statistics.mean(cpu):.2f} CPU-s a game (median {statistics.median(cpu):.2f}, "
            f"max {max(cpu):.2f}), {errors} errors"
        )
    print("\n".join(done.stdout.splitlines()[:8]))
    print(f"rows: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
