"""What the research adapters cost: uniformly random whole games per second of a ruleset on the
engine directly, through meeple.pettingzoo's AEC environment and through meeple.openspiel's game,
beside the floors: the same PettingZoo and OpenSpiel loops over a game that does nothing
(benchmarks/interop_floor.py), the PettingZoo env with its observation tensor made once (what
the rest of its step costs) and, where a grid is the whole state, with a tensor of the grid alone
(the least a tensor kept up to date costs), and PettingZoo's own environment of the game where
it has one.

Each loop does what its users do: the engine loop applies option indices in place; the PettingZoo
loop asks `last()` (an observation tensor and a mask) for every step and samples from the mask;
the OpenSpiel loop asks `legal_actions()` and applies one (states are not cloned). Rounds
alternate the loops and count the process's CPU time, so that other work on a shared machine
moves the rates less; the median of the rounds is printed (docs/research.md quotes it), with the
time a game takes (a loop's time less its floor's is what the adapter itself adds).

    .venv/bin/python benchmarks/interop_speed.py [--game tic_tac_toe] [--seconds 2] [--repeats 3] [--no-floors]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interop_floor  # noqa: E402  (beside this file)

import meeple  # noqa: E402
from meeple import openspiel  # noqa: E402
from meeple.pettingzoo import env as pettingzoo_env  # noqa: E402


def timed(play_one, seconds: float) -> float:
    games, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        play_one(games)
        games += 1
    return games / (time.process_time() - start)


def engine_loop(game: meeple.Game):
    engine, pick = game.engine, random.Random(1)

    def play(seed: int):
        state, _ = engine.start(game.players, seed)
        while n := engine.option_count(state):
            engine.apply(state, pick.randrange(n), inplace=True, events=False)

    return play


def pettingzoo_loop(game: meeple.Game, tensor: str = "full"):
    """`tensor="none"`: the same env with its observation tensor made once and handed out again
    (not a usable env: what the rest of a step costs, for the floors' comparison); "grids": with
    a tensor of the grids alone (interop_floor.grids_only: the least a tensor kept up to date
    costs, where the grid is the whole state)."""
    e, pick = pettingzoo_env(game), random.Random(1)
    encoder = e.unwrapped.encoder
    if tensor == "none":
        made = encoder.seat_tensor(e.unwrapped.engine, game.engine.start(game.players, 0)[0], 0)
        encoder.seat_tensor = lambda *_, **__: made
    elif tensor == "grids":
        encoder.seat_tensor = interop_floor.grids_only(encoder)

    return interop_floor.aec_loop(e, pick)


def openspiel_loop(game: meeple.Game):
    g, pick = openspiel.load(game, chance="seed"), random.Random(1)  # the figures in docs/research.md: the seed way

    def play(seed: int):
        state = g.new_initial_state()
        while not state.is_terminal():
            state.apply_action(pick.choice(state.legal_actions()))

    return play


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="tic_tac_toe")
    ap.add_argument("--players", type=int)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-floors", action="store_true", help="the engine and the two adapters only")
    args = ap.parse_args(argv)
    game = meeple.load(args.game, players=args.players)
    loops = {"engine": engine_loop(game), "PettingZoo AEC": pettingzoo_loop(game), "OpenSpiel": openspiel_loop(game)}
    if not args.no_floors:
        raw = pettingzoo_env(game).unwrapped
        size, actions = raw.encoder.size, raw.action_count
        loops["PZ AEC, no tensor"] = pettingzoo_loop(game, tensor="none")
        if raw.encoder.grids and all(key == "box" for key, _, _ in raw.encoder.zones):  # a grid is all there is
            loops["PZ AEC, grids' tensor"] = pettingzoo_loop(game, tensor="grids")
        loops["PZ loop alone"] = interop_floor.pettingzoo_floor(game, size, actions)
        loops["PZ loop, PZ's wrapper"] = interop_floor.pettingzoo_floor(game, size, actions, theirs=True)
        loops["OpenSpiel loop alone"] = interop_floor.openspiel_floor(game)
        theirs = interop_floor.pettingzoo_classic(args.game)
        if theirs is not None:
            loops["PZ's own env()"] = theirs
    rates: dict[str, list] = {name: [] for name in loops}
    for _ in range(args.repeats):
        for name, play in loops.items():
            rates[name].append(timed(play, args.seconds))
    base = statistics.median(rates["engine"])
    print(
        f"{game.title}, {game.players} players: uniformly random games/s, median of {args.repeats} x {args.seconds:g} s"
    )
    for name, values in rates.items():
        median = statistics.median(values)
        print(
            f"  {name:22} {median:10,.0f}  ({min(values):,.0f}-{max(values):,.0f})  {median / base:7.1%} of the engine"
            f"  {1e6 / median:8.1f} us a game"
        )


if __name__ == "__main__":
    main()
