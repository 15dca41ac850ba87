"""Playouts inside mcts against `meeple bench`: decisions per second, side by side in one run.

The mcts agent (interpreter/agents/mcts.py) ends every iteration with a random
playout of up to `depth` decisions, then values the position by the score rules.
This plays a few mcts decisions of a shipped game, timing the engine's `apply`
inside the playouts (the decisions) apart from the rest of each playout (mostly
the valuation), and alternates with `meeple bench`'s raw loop on the same game:

    .venv/bin/python benchmarks/playout_speed.py queens_wishes --players 4

Prints, per round and as medians: decisions/s inside playouts, decisions/s of
whole playouts (valuation included) and bench's decisions/s. Positions differ
(playouts start mid-game, bench plays whole games), so the ratio says how the
two loops compare on this game, not that the engine runs differently.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meeple.interpreter import bench  # noqa: E402
from meeple.interpreter.agents.mcts import MctsAgent  # noqa: E402
from meeple.interpreter.engine import Engine  # noqa: E402
from meeple.interpreter.loader import load  # noqa: E402


class TimedEngine:
    """The engine as the agent sees it, with `apply` timed while a playout runs."""

    def __init__(self, engine: Engine):
        self.engine, self.game = engine, engine.game
        self.playing, self.seconds, self.decisions = False, 0.0, 0

    def apply(self, *args, **kwargs):
        if not self.playing:
            return self.engine.apply(*args, **kwargs)
        start = time.process_time()
        try:
            return self.engine.apply(*args, **kwargs)
        finally:
            self.seconds += time.process_time() - start
            self.decisions += 1

    def __getattr__(self, name):
        return getattr(self.engine, name)


class TimedMcts(MctsAgent):
    """mcts whose playouts are timed as a whole (the agent's own code, unchanged)."""

    playout_seconds = 0.0

    def playout(self, state):
        self.engine.playing = True
        start = time.process_time()
        try:
            return super().playout(state)
        finally:
            self.playout_seconds += time.process_time() - start
            self.engine.playing = False


def measure(engine: Engine, players: int, moves: int, iterations: int, seed: int) -> tuple[float, float]:
    timed = TimedEngine(engine)
    agent = TimedMcts(timed, 0, seed, iterations=iterations)
    state, _ = engine.start(players, seed)
    for _ in range(moves):
        decision = engine.decision(state)
        if decision is None:
            break
        agent.seat = decision.actor
        state, _ = engine.apply(state, agent.choose(engine.view(state, decision.actor), decision))
    return timed.decisions / timed.seconds, timed.decisions / agent.playout_seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--moves", type=int, default=4, help="mcts decisions per round")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=2.0, help="bench time per round")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    engine = load(args.game)
    rows = []
    for r in range(args.repeats):
        inside, whole = measure(engine, args.players, args.moves, args.iterations, r + 1)
        start = time.process_time()
        run = bench.run_for(engine, args.players, args.seconds, r + 1)
        raw = run["decisions"] / (time.process_time() - start)
        rows.append((inside, whole, raw))
        print(f"round {r + 1}: playouts {inside:,.0f} decisions/s ({whole:,.0f} with valuation), bench {raw:,.0f}")
    inside, whole, raw = (statistics.median(c) for c in zip(*rows))
    print(
        f"{args.game} {args.players}p, medians: playouts {inside:,.0f} decisions/s = {inside / raw:.2f}x bench; "
        f"with valuation {whole:,.0f} = {whole / raw:.2f}x; bench {raw:,.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
