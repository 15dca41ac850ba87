"""meeple/infostate.py through meeple.openspiel: a seat's information state tensor is its
information state (the same tensor exactly where the same information state string: every
state of Kuhn poker and Leduc hold'em, and the states of random games of rulesets given a
bound), a world resampled from the seat's information has the same tensor, and a game without
one says so."""

from __future__ import annotations

import random

import pyspiel
import pytest
from open_spiel.python.algorithms.get_all_states import get_all_states

from meeple import openspiel


def same_tensor_exactly_where_same_string(game, states) -> int:
    compared = 0
    for p in range(game.num_players()):
        by_string: dict = {}
        by_tensor: dict = {}
        for state in states:
            text, tensor = state.information_state_string(p), tuple(state.information_state_tensor(p))
            assert len(tensor) == game.information_state_tensor_shape()[0]
            assert by_string.setdefault(text, tensor) == tensor, f"P{p + 1}: one information state, two tensors"
            assert by_tensor.setdefault(tensor, text) == text, f"P{p + 1}: two information states, one tensor"
            compared += 1
    return compared


@pytest.mark.parametrize("name, infosets", [("kuhn_poker", 12), ("leduc_holdem", 936)])
def test_every_state_of_a_poker_game(name, infosets):
    game = openspiel.load(name)
    assert game.get_type().provides_information_state_tensor
    states = list(get_all_states(game, include_terminals=False, include_chance_states=False).values())
    same_tensor_exactly_where_same_string(game, states)
    assert len({s.information_state_string(0) for s in states}) == infosets


@pytest.mark.parametrize("name", ["queens_wishes", "apothebakery"])
def test_random_games_of_a_ruleset_given_a_bound(name):
    game = openspiel.load(name, max_game_length=400, chance="seed", seeds=3)
    pick, states = random.Random(4), []
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < 300:
            if not state.is_chance_node():
                states.append(state.clone())
            state.apply_action(pick.choice(state.legal_actions()))
    assert same_tensor_exactly_where_same_string(game, states) > 100


def test_a_world_resampled_from_a_seats_information_has_its_tensor():
    game = openspiel.load("leduc_holdem")
    rng, changed = random.Random(2), 0
    for k in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                p = state.current_player()
                world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
                assert world.information_state_tensor(p) == state.information_state_tensor(p)
                changed += world.information_state_tensor(1 - p) != state.information_state_tensor(1 - p)
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0, "the other seat's hidden card is guessed, and its tensor shows it"


@pytest.mark.parametrize(
    "name, why",
    [("tic_tac_toe", "perfect information"), ("queens_wishes", "no bound on its length was found")],
)
def test_a_game_without_one_says_so(name, why):
    game = openspiel.load(name)
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    assert state.information_state_string(0)  # the string is always there
    with pytest.raises(pyspiel.SpielError, match=why):
        state.information_state_tensor(0)


@pytest.mark.parametrize("name", ["leduc_holdem", "apothebakery"])
def test_the_record_holds_each_decision_as_the_seat_was_told_it(name):
    """Decoded back, each block of the record is the decision's actor and the actions taken,
    or "not seen" exactly where the seat's record string says "?"."""
    game = openspiel.load(name, max_game_length=400)
    layout, n = game.info_layout, game.num_players()
    pick, state, taken, decisions = random.Random(6), game.new_initial_state(), [], []
    while not state.is_terminal() and len(decisions) < 60:
        if state.is_chance_node():
            state.apply_action(pick.choice(state.legal_actions()))
            continue
        actor, action, before = state.current_player(), pick.choice(state.legal_actions()), len(state.seen[0])
        state.apply_action(action)
        taken.append(action)
        if len(state.seen[0]) > before:  # a decision made (a set: its last item)
            decisions.append((actor, set(taken) - {game.space.DONE}))
            taken = []
    assert decisions
    unseen = 0
    for p in range(n):
        tensor, told = state.information_state_tensor(p), state.seen[p]
        for k, (actor, actions) in enumerate(decisions):
            block = tensor[layout.observation + k * layout.block :][: layout.block]
            assert block[:n].index(1) == actor and sum(block[:n]) == 1
            shown = {i for i, x in enumerate(block[n + 1 :]) if x} - {game.space.DONE}
            if told[k].endswith(": ?"):
                assert block[n] == 1 and not shown
                unseen += 1
            else:
                assert block[n] == 0 and shown == actions
        rest = tensor[layout.observation + len(decisions) * layout.block :]
        assert not any(rest), "no block past the decisions made"
    assert unseen > 0 or name == "leduc_holdem", "Apothebakery's secret choices read as not seen"
