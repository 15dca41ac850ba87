"""Meeple against hand-written engines on exactly the same games, in one run.

Plays uniformly random full games of tic-tac-toe and Connect Four in Meeple
(the shipped .rules files, raw engine loop), in OpenSpiel's pure-Python
`python_tic_tac_toe`, in OpenSpiel's C++ games driven from Python, and in
PettingZoo's `raw_env()`, alternating engines round by round, and prints the
median games/s of each and Meeple's ratio to each. Also compares state copies
per second with OpenSpiel's python_tic_tac_toe `clone()`.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/compare_peers.py [--seconds 2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from meeple.dsl.compiler import compile_ruleset, find_ruleset  # noqa: E402
from meeple.dsl.parser import parse_file  # noqa: E402
from meeple.interpreter.engine import Engine  # noqa: E402
from meeple.interpreter.state import copy_state  # noqa: E402


def timed(play_one, seconds: float) -> float:
    games, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_one(games)
        games += 1
    return games / (time.perf_counter() - start)


def meeple(name: str):
    """The engine's raw loop; the moves are picked by `random.Random`, as for the peers."""
    engine = Engine(compile_ruleset(parse_file(find_ruleset(name)), {}, []))
    r = random.Random(1)
    count, apply = engine.option_count, engine.apply

    def play(i):
        state, _ = engine.start(2, i, events=False)  # as `meeple bench`: no setup events to copy
        while n := count(state):
            apply(state, r.randrange(n), inplace=True, events=False)

    return play


def openspiel(name: str):
    import pyspiel

    if name.startswith("python_"):
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers the game)
    game = pyspiel.load_game(name)
    r = random.Random(1)

    def play(i):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(r.choice(state.legal_actions()))

    return play


def pettingzoo(module: str):
    import importlib

    env = importlib.import_module(f"pettingzoo.classic.{module}").raw_env()
    r = random.Random(1)

    def play(i):
        env.reset(seed=i)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(r.choice([a for a, ok in enumerate(mask) if ok]))

    return play


def copies(seconds: float) -> dict:
    engine = Engine(compile_ruleset(parse_file(find_ruleset("tic_tac_toe")), {}, []))
    state, _ = engine.start(2, 1)
    engine.apply(state, 4, inplace=True)
    out = {"Meeple copy_state": timed(lambda i: [copy_state(state) for _ in range(100)], seconds) * 100}
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401

        s = pyspiel.load_game("python_tic_tac_toe").new_initial_state()
        s.apply_action(4)
        out["OpenSpiel python clone"] = timed(lambda i: [s.clone() for _ in range(100)], seconds) * 100
    except ImportError:
        pass
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    contenders = {
        "tic-tac-toe": [
            ("Meeple", lambda: meeple("tic_tac_toe")),
            ("OpenSpiel python_tic_tac_toe", lambda: openspiel("python_tic_tac_toe")),
            ("OpenSpiel C++ tic_tac_toe", lambda: openspiel("tic_tac_toe")),
            ("PettingZoo tictactoe_v3 raw_env", lambda: pettingzoo("tictactoe_v3")),
        ],
        "connect four": [
            ("Meeple", lambda: meeple("connect_four")),
            ("OpenSpiel C++ connect_four", lambda: openspiel("connect_four")),
            ("PettingZoo connect_four_v3 raw_env", lambda: pettingzoo("connect_four_v3")),
        ],
    }
    for game, engines in contenders.items():
        players = []
        for label, make in engines:
            try:
                players.append((label, make()))
            except ImportError as exc:
                print(f"{game}: {label} skipped ({exc}); install the bench extra")
        rates = {label: [] for label, _ in players}
        for _ in range(args.repeats):  # alternate engines round by round
            for label, play in players:
                rates[label].append(timed(play, args.seconds))
        print(f"\n{game}: games/s, median of {args.repeats} x {args.seconds:g} s")
        ours = statistics.median(rates["Meeple"])
        for label, values in rates.items():
            med = statistics.median(values)
            ratio = "" if label == "Meeple" else f"   Meeple/this = {ours / med:.2f}x"
            print(f"  {label:38s} {med:12,.0f}  ({min(values):,.0f}-{max(values):,.0f}){ratio}")
    print("\nstate copies per second (tic-tac-toe, one move in):")
    result = copies(args.seconds)
    for label, value in result.items():
        print(f"  {label:38s} {value:12,.0f}")
    if len(result) == 2:
        print(f"  Meeple/OpenSpiel = {result['Meeple copy_state'] / result['OpenSpiel python clone']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
