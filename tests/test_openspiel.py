"""meeple.openspiel: OpenSpiel's own checks (random_sim_test, get_all_states against its C++
tic-tac-toe) and its MCTS bot playing through the adapter."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.get_all_states import get_all_states
from open_spiel.python.observation import make_observation

import meeple
from meeple import openspiel
from tests.conftest import ROOT


@pytest.mark.parametrize(
    "name, players, seeds, chance, sims, serialize",
    [
        ("tic_tac_toe", 2, 1, "draws", 5, True),
        ("queens_wishes", 4, 4, "seed", 1, True),  # a chance node picks the seed
        ("apothebakery", 3, 4, "seed", 1, False),  # simultaneous choices, secret hands
        ("apothebakery", 2, 1, "draws", 1, True),  # each draw a chance node, deserialized at every step
        ("leduc_holdem", 2, 1, "draws", 5, True),  # every draw a chance node
    ],
)
def test_openspiel_random_sim_test_passes(name, players, seeds, chance, sims, serialize):
    game = openspiel.load(name, players=players, seeds=seeds, chance=chance)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=sims, serialize=serialize, verbose=False)


def board(cells) -> str:
    return "".join(c or "." for c in cells)


def test_tic_tac_toe_has_the_positions_of_openspiels_own():
    ours = get_all_states(openspiel.load("tic_tac_toe"), -1, True, False, to_string=str)
    theirs = get_all_states(pyspiel.load_game("tic_tac_toe"), -1, True, False, to_string=str)
    our_boards = {board(s.data["grids"]["board"]["cells"]) for s in ours.values()}
    # The engine takes a lone option at once, so a board with one free cell left and no line
    # is never a decision of ours.
    their_boards = {str(s).replace("\n", "") for s in theirs.values() if s.is_terminal() or len(s.legal_actions()) > 1}
    assert our_boards == their_boards and len(ours) == len(their_boards) == 5256


def test_information_states_are_the_seats_own():
    game = openspiel.load("queens_wishes", players=2, seeds=3, chance="seed")
    state = game.new_initial_state()
    assert state.is_chance_node() and [p for _, p in state.chance_outcomes()] == [1 / 3] * 3
    other = state.clone()
    other.apply_action(0)
    state.apply_action(2)
    assert other.data != state.data, "another chance outcome, another seed"
    while state.current_player() == 0:
        state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.information_state_string(1).startswith("P2 saw P1: ")
    assert '"rng":null' in state.observation_string(0)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    seen = {public.string_from(state, p) for p in (0, 1)}
    assert len(seen) == 1 and seen != {state.observation_string(1)}, "an onlooker does not see P2's options"


def mcts_game(game, seat: int, simulations: int, seed: int) -> pyspiel.State:
    """MCTS with random rollouts in `seat`, uniformly random moves for the others."""
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_mcts_beats_random_play_at_tic_tac_toe():
    game = openspiel.load("tic_tac_toe")
    results = [mcts_game(game, seed % 2, 100, seed).returns()[seed % 2] for seed in range(6)]
    assert min(results) >= 0.0 and sum(results) >= 3, results  # never loses, wins most


def test_mcts_plays_a_whole_seeded_game_of_the_queens_wishes():
    game = openspiel.load("queens_wishes", players=3, seed=7, chance="seed")
    first = mcts_game(game, 0, 10, 7)
    again = mcts_game(game, 0, 10, 7)
    assert first.is_terminal() and first.history() == again.history()
    assert len(first.history()) > 30
    ranking = game.engine.ranking(first.data)
    best = [r["player"] for r in ranking if r["place"] == 1]
    assert all(first.returns()[p] == max(first.returns()) for p in best) and sum(first.returns()) == 0.0


BLOCKED = """
import importlib.abc, sys
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("pettingzoo", "gymnasium", "pyspiel", "open_spiel"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, NotInstalled())
import meeple
for module in ("meeple.pettingzoo", "meeple.openspiel"):
    try:
        __import__(module)
    except meeple.MissingExtra as exc:
        print(exc)
"""


def test_without_the_research_extra_an_import_says_which_extra():
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "meeple.pettingzoo needs the research extra: pip install 'meeple[research]' (gymnasium is not installed)",
        "meeple.openspiel needs the research extra: pip install 'meeple[research]' (pyspiel is not installed)",
    ]


def test_options_and_variants_survive_openspiels_game_string():
    table = meeple.load("wild_gardens", options={"side": "back"}, variants=["keep_it_fresh", "a_different_path"])
    game = openspiel.load(table, seeds=2, chance="seed")
    again = pyspiel.load_game(str(game))
    assert again.table.options == table.options and again.table.variants == table.variants
    state = game.new_initial_state()
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    copy = again.deserialize_state(state.serialize())
    assert copy.data == state.data and copy.information_state_string(0) == state.information_state_string(0)


def test_a_bad_request_is_meeples_usage_error():
    with pytest.raises(meeple.UsageError, match="Tic-tac-toe is for 2-2 players, not 3"):
        openspiel.load("tic_tac_toe", players=3)
    with pytest.raises(meeple.UsageError, match="unknown game `nope`"):
        openspiel.load("nope")


def test_the_default_deals_anew_each_game_and_a_clone_holds_no_future_draw():
    game = openspiel.load("leduc_holdem")
    deals = set()
    rng = np.random.RandomState(1)
    for _ in range(12):
        state = game.new_initial_state()
        assert state.is_chance_node()
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        deals.add(tuple(state.data["zones"]["hand/0"] + state.data["zones"]["hand/1"]))
    assert len(deals) > 4
    assert (
        pyspiel.load_game("meeple", {"ruleset": "tic_tac_toe"}).get_type().chance_mode
        == pyspiel.GameType.ChanceMode.DETERMINISTIC
    )


def test_max_game_length_is_the_longest_game_not_the_runners_bound():
    assert openspiel.load("tic_tac_toe").max_game_length() == 8  # the ninth mark is a lone option, taken at once
    assert openspiel.load("kuhn_poker").max_game_length() == pyspiel.load_game("kuhn_poker").max_game_length() == 3
    assert openspiel.load("tic_tac_toe", max_game_length=20).max_game_length() == 20


def test_the_search_for_the_longest_game_gives_up_on_a_deal_of_many_draws():
    """Apothebakery's setup shuffles decks: each draw a run of the setup again. The search
    counts the draws it makes too, so it gives up (no bound) instead of running for minutes."""
    game = openspiel.load("apothebakery")
    assert game.max_game_length() == openspiel.MAX_LENGTH
    assert not game.get_type().provides_information_state_tensor


def test_bad_actions_are_spiel_errors():
    state = openspiel.load("tic_tac_toe").new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="action 9 is not legal now"):
        state.apply_action(9)
    with pytest.raises(pyspiel.SpielError, match="not a chance node"):
        state.chance_outcomes()
    chance = openspiel.load("kuhn_poker").new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="chance outcome 3 does not exist"):
        chance.apply_action(3)
    with pytest.raises(meeple.UsageError, match="chance='dice'"):
        openspiel.load("kuhn_poker", chance="dice")


@pytest.mark.parametrize("name, how", [("leduc_holdem", {}), ("apothebakery", {}), ("tic_tac_toe", {"chance": "seed"})])
def test_legal_actions_answered_in_python_are_the_wrappers(name, how):
    """MeepleState.legal_actions skips OpenSpiel's C++ round trip for the seat to act and a
    chance node; for every player asked (pseudo-players too) it answers as the wrapper does."""

    def ask(f):
        try:
            return f()
        except pyspiel.SpielError as exc:
            return str(exc)

    game, pick = openspiel.load(name, **how), random.Random(3)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            for p in (None, -1, -4, 0, 1, 5):
                mine = ask(lambda: state.legal_actions() if p is None else state.legal_actions(p))
                theirs = ask(
                    lambda: pyspiel.State.legal_actions(state) if p is None else pyspiel.State.legal_actions(state, p)
                )
                assert mine == theirs, (p, str(state)[:80])
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            if state.is_terminal():
                break
            state.apply_action(pick.choice(state.legal_actions()))
