"""OpenSpiel's ISMCTSBot through meeple.openspiel against uniformly random play: its worlds come
from the adapter's `resample_from_infostate` (meeple's determinize). Each game the bot takes the
seats in turn; seeded (the bot's rollouts, its worlds and the random player), so a run repeats.
Not part of `make test` for Apothebakery (a game takes a minute or more through the adapter);
tests/test_openspiel_search.py plays the short version on The Queen's Wishes.

    .venv/bin/python benchmarks/ismcts_check.py apothebakery --games 4 --simulations 10
    .venv/bin/python benchmarks/ismcts_check.py queens_wishes --games 6 --simulations 25
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from meeple import openspiel  # noqa: E402


def play(game, k: int, simulations: int) -> float:
    """One seeded game, the bot in seat k % 2: its return."""
    rng = np.random.RandomState(k)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, simulations, random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)
    bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, sampler)
    me = k % 2
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.current_player() == me:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()[me]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--simulations", type=int, default=10)
    args = ap.parse_args()
    game = openspiel.load(args.ruleset, players=2)
    wins, start = 0, time.time()
    for k in range(args.games):
        r = play(game, k, args.simulations)
        wins += r > 0
        print(f"game {k + 1}: ISMCTS as P{k % 2 + 1} returns {r:+.1f} ({time.time() - start:.0f} s)", flush=True)
    print(f"{args.ruleset}: ISMCTS ({args.simulations} simulations a move) won {wins} of {args.games} against random")


if __name__ == "__main__":
    main()
