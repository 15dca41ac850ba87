"""OpenSpiel's search needs from a state: `resample_from_infostate` (built on meeple's
determinize: a world the seat cannot tell from the real one) and `undo_action`; ISMCTSBot
through the adapter beats uniformly random play at The Queen's Wishes."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from meeple import openspiel  # noqa: E402


def walk(game, steps: int, seed: int):
    """The states met in one random game, at decisions, up to `steps` of them."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        if state.is_terminal():
            return
        yield state
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["queens_wishes", "apothebakery", "kuhn_poker"])
def test_a_resampled_world_looks_the_same_to_the_seat(name):
    game = openspiel.load(name, players=2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    different = 0
    for state in walk(game, 60, 3):
        p = state.current_player()
        world = state.resample_from_infostate(p, sampler)
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        assert world.seen[1 - p] == state.seen[p], "the other seat's record: what this one knows of it"
        different += str(world) != str(state)
        world.apply_action(world.legal_actions()[0])  # the guess plays on
    assert different > 0, "the hidden part is guessed, not copied"


@pytest.mark.parametrize("how", [{"chance": "seed", "seed": 3}, {}])
def test_undo_in_a_resampled_world_stays_in_it(how):
    """A step in a guessed world undone gives the guessed world back, never the real one (with
    chance="seed" steps run in place and undo plays the real game again: not here)."""
    game = openspiel.load("kuhn_poker", **how)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(0, sampler) for _ in range(20)]
    world = next(w for w in worlds if str(w) != str(state))  # the other seat's card guessed otherwise
    before = str(world)
    action, player = world.legal_actions()[0], world.current_player()
    world.apply_action(action)
    world.undo_action(player, action)
    assert str(world) == before != str(state)


@pytest.mark.parametrize(
    "name, how",
    [
        ("leduc_holdem", {}),  # draws as chance nodes: each step on a copy, the state before kept
        ("leduc_holdem", {"chance": "seed", "seeds": 3}),  # steps in place: undo plays the game again
        ("tic_tac_toe", {}),
    ],
)
def test_undo_action_goes_back_one_action_chance_included(name, how):
    game = openspiel.load(name, **how)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    seen = []
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        seen.append(
            (
                state.current_player(),
                str(state),
                state.information_state_string(0) if not state.is_chance_node() else None,
                state.legal_actions(),
            )
        )
        state.apply_action(int(rng.choice(actions)))
    history = state.history()
    for action in reversed(history):
        player, text, info, legal = seen.pop()
        state.undo_action(player, action)
        assert (state.current_player(), str(state), state.legal_actions()) == (player, text, legal)
        if info is not None:
            assert state.information_state_string(0) == info
    assert state.history() == [] and state.is_chance_node() == (name == "leduc_holdem")
    with pytest.raises(pyspiel.SpielError, match="not the last action"):
        state.undo_action(0, 1)


def test_ismcts_beats_random_play_at_the_queens_wishes():
    game = openspiel.load("queens_wishes", players=2)
    wins = 0
    for k in range(GAMES):
        rng = np.random.RandomState(k)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, SIMULATIONS, random_state=rng)
        sampler = pyspiel.UniformProbabilitySampler(k, 0.0, 1.0)  # seeded: the same worlds every run
        bot._resampler_cb = lambda state, player: state.resample_from_infostate(player, sampler)
        me = k % 2  # each seat in turn
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.current_player() == me:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[me] > 0
    assert wins >= GAMES - 1, f"ISMCTS won {wins} of {GAMES}"


GAMES, SIMULATIONS = 6, 25


def test_a_serialized_state_comes_back_the_same_without_remaking_the_game():
    game = openspiel.load("apothebakery", players=2)
    for state in walk(game, 80, 2):  # noqa: B007 (the last state is read below)
        pass
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert (str(again), again.history(), again.legal_actions()) == (str(state), state.history(), state.legal_actions())
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.meeple.engine is game.engine, "made once per process (meeple.openspiel._made)"
    assert len(text) < 100_000, "undo's past states are not in it"
