"""One shortcut's switch on against off, in one process, alternating (a loaded machine's A/B).

Timing two processes on a machine shared with others says little (docs/performance.md);
alternating short chunks of the same work in one process, the switch on then off, and
taking the median of the per-round ratios says more. Each side has its own engine, compiled
with the switch as it is while that side plays (a switch read at compile time counts too):

    .venv/bin/python benchmarks/switch_ab.py queens_wishes --players 4 \\
        --switch meeple.interpreter.engine:REUSE --games 20 --rounds 21
    .venv/bin/python benchmarks/switch_ab.py queens_wishes --players 4 \\
        --switch meeple.dsl.compile_pure:ENABLED --work outlook

`--work play` plays random games as `meeple bench` does; `--work outlook` values every
position of a few recorded random games for every player (score plus hints, what greedy
and rollout ask), `--work ranking` the final ranking of each (what mcts asks at a playout's
end). Prints the median ratio off / on (above 1: the switch pays) with its range.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meeple.interpreter import bench, rng  # noqa: E402
from meeple.interpreter.loader import load  # noqa: E402


def positions(engine, players: int, games: int) -> list:
    """Every state of a few random games (the same seeds for both sides)."""
    out = []
    for seed in range(games):
        picker = {"rng": rng.seed_state(seed)}
        state, _ = engine.start(players, 500 + seed)
        out.append(state)
        while n := engine.option_count(state):
            state, _ = engine.apply(state, rng.below(picker, n), events=False)
            out.append(state)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--switch", required=True, help="module:NAME, a boolean")
    ap.add_argument("--work", choices=["play", "outlook", "ranking"], default="play")
    ap.add_argument("--games", type=int, default=20, help="games a chunk plays (or records, for outlook)")
    ap.add_argument("--rounds", type=int, default=21)
    a = ap.parse_args()
    module_name, name = a.switch.split(":")
    module = importlib.import_module(module_name)
    engines = {}
    for on in (True, False):
        setattr(module, name, on)
        engines[on] = load(a.game)
    states = positions(engines[True], a.players, a.games) if a.work != "play" else []
    finals = [s for s in states if s["over"]]
    seconds: dict = {True: [], False: []}
    for r in range(a.rounds):
        for on in (True, False) if r % 2 == 0 else (False, True):
            setattr(module, name, on)
            engine = engines[on]
            start = time.process_time()
            if a.work == "play":
                picker = {"rng": rng.seed_state(r)}
                for g in range(a.games):
                    bench.play_random(engine, a.players, 1000 + g, picker)
            elif a.work == "outlook":
                for s in states:
                    for p in range(a.players):
                        engine.outlook(s, p)
            else:
                for s in finals * 20:
                    engine.ranking(s)
            seconds[on].append(time.process_time() - start)
    setattr(module, name, True)
    ratios = [off / on for on, off in zip(seconds[True], seconds[False])]
    print(
        f"{a.game} {a.players}p {a.work} {a.switch}: off/on median {statistics.median(ratios):.3f}x "
        f"(range {min(ratios):.3f}-{max(ratios):.3f}, {a.rounds} rounds; on {statistics.median(seconds[True]):.4f} s, "
        f"off {statistics.median(seconds[False]):.4f} s a chunk; {len(states)} positions)"
    )


if __name__ == "__main__":
    main()
