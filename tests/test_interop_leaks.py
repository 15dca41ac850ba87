"""The research adapters show a seat nothing it may not see: its observation is the same in every
world that differs only in what is hidden from it (the order and place of hidden components among
hidden zones, others' secret counters, the RNG)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from meeple import openspiel
from meeple.interpreter.state import can_see, copy_state, may_see_var
from meeple.pettingzoo import raw_env

HIDDEN_INFO = [("queens_wishes", 4), ("wild_gardens", 2), ("apothebakery", 3)]
STEPS = 50


def hidden_world(game, state: dict, seat: int, rng: random.Random) -> dict:
    """Another state the seat cannot tell from `state`: what lies in zones it cannot see is dealt
    again among those zones (each keeping its size, and each item's back where backs show)."""
    other = copy_state(state)
    other["rng"] = rng.getrandbits(63)
    hidden = [k for k in other["zones"] if not can_see(game, k, seat)]
    by_back: dict[str, list] = {}
    for k in hidden:
        for i, item in enumerate(other["zones"][k]):
            by_back.setdefault(game.backs.get(item, ""), []).append((k, i))
    for places in by_back.values():
        items = [other["zones"][k][i] for k, i in places]
        rng.shuffle(items)
        for (k, i), item in zip(places, items):
            other["zones"][k][i] = item
    for key, value in other["vars"].items():
        if not may_see_var(game, key, seat) and isinstance(value, int):
            other["vars"][key] = value + 1
    return other


@pytest.mark.parametrize("name, players", HIDDEN_INFO)
def test_pettingzoo_observations_hold_nothing_hidden(name, players):
    e = raw_env(name, players=players)  # unwrapped: the test swaps its state
    e.reset(seed=8)
    pick = random.Random(8)
    game, changed = e.engine.game, 0
    for _ in range(STEPS):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        real = e.state_data
        for seat, agent in enumerate(e.possible_agents):
            seen = e.observe(agent)
            e.state_data = hidden_world(game, real, seat, pick)
            changed += e.state_data["zones"] != real["zones"]
            other = e.observe(agent)
            e.state_data = real
            assert np.array_equal(seen["observation"], other["observation"]), f"{agent} tells the worlds apart"
            assert np.array_equal(seen["action_mask"], other["action_mask"])
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(pick.choice(np.flatnonzero(mask).tolist()))
    assert changed, "the hidden worlds differed from the real one"


@pytest.mark.parametrize("name, players", HIDDEN_INFO)
def test_openspiel_observations_and_information_states_hold_nothing_hidden(name, players):
    state = openspiel.load(name, players=players, seed=8).new_initial_state()
    game = state.meeple.engine.game
    pick = random.Random(8)
    for _ in range(STEPS):
        while state.is_chance_node():  # each draw a chance node (the default)
            state.apply_action(pick.choice([a for a, _ in state.chance_outcomes()]))
        if state.is_terminal():
            break
        real = state.data
        hidden = [
            {i for k, items in real["zones"].items() if not can_see(game, k, p) for i in items} for p in range(players)
        ]
        for p in range(players):
            seen = (state.observation_string(p), state.observation_tensor(p), state.information_state_string(p))
            state.data = hidden_world(game, real, p, pick)
            other = (state.observation_string(p), state.observation_tensor(p), state.information_state_string(p))
            state.data = real
            assert seen == other, f"P{p + 1} tells the worlds apart"
        records = len(state.seen[0])
        state.apply_action(pick.choice(state.legal_actions()))
        if len(state.seen[0]) == records:  # an item of a set picked (meeple.spaces): nothing told yet
            continue
        for p in range(players):  # what the seat was told of the decision just taken
            told = set(state.seen[p][-1].split(": ", 1)[1].replace("+", " ").split())
            assert not told & hidden[p], f"P{p + 1} was told {told & hidden[p]}"
