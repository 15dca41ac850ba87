"""The poker classics through meeple.openspiel against OpenSpiel's own games: CFR on Kuhn poker
reaches the known game value (-1/18 for the first player) and a near-equilibrium, as it does on
pyspiel's kuhn_poker; Leduc hold'em is OpenSpiel's leduc_poker (the same payoffs on every deal and
betting line, the same information sets, the same exploitability of uniform play). The longer
Leduc comparison, CFR's exploitability curve, is benchmarks/cfr_check.py."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, exploitability
from open_spiel.python.algorithms.expected_game_score import policy_value

from meeple import openspiel

KUHN_VALUE = -1 / 18


def solve(game, iterations: int):
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    return policy_value(game.new_initial_state(), [average] * 2)[0], exploitability.exploitability(game, average)


def test_cfr_on_kuhn_poker_reaches_the_game_value_as_on_openspiels_own():
    ours = openspiel.load("kuhn_poker", returns="score")
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    value, gap = solve(ours, 200)
    their_value, their_gap = solve(pyspiel.load_game("kuhn_poker"), 200)
    assert abs(value - KUHN_VALUE) < 0.005 and gap < 0.01, (value, gap)
    # The same game tree with the same information sets: CFR takes the same steps.
    assert value == pytest.approx(their_value, abs=1e-9) and gap == pytest.approx(their_gap, abs=1e-9)


def test_the_deal_is_explicit_chance_with_the_right_odds():
    state = openspiel.load("kuhn_poker").new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(0)
    assert state.current_player() == 0 and [state.action_to_string(0, a) for a in state.legal_actions()] == [
        "check",
        "bet",
    ]
    # Each seat's information state holds its own card only.
    mine, theirs = state.data["zones"]["hand/0"][0], state.data["zones"]["hand/1"][0]
    assert mine != theirs
    assert (
        f'"hand/0":["{mine}"]' in state.information_state_string(0)
        and theirs not in state.information_state_string(0).split('"hand/1":')[1][:8]
    )


CARDS = {"J-1": 0, "J-2": 1, "Q-1": 2, "Q-2": 3, "K-1": 4, "K-2": 5}  # OpenSpiel's numbering: rank = card // 2


def leaves(state, cards, line, out, ours):
    """Every terminal history as (the cards dealt, the betting line) -> the first player's return."""
    if state.is_terminal():
        out[cards, line] = state.returns()[0]
    elif state.is_chance_node():
        for a, _ in state.chance_outcomes():
            leaves(state.child(a), cards if ours else cards + (a,), line, out, ours)
    else:
        if ours:  # the cards as the engine's state holds them: P1's, P2's, the public one
            zones = state.data["zones"]
            cards = tuple(CARDS[c] for c in zones["hand/0"] + zones["hand/1"] + zones["public"])
        p = state.current_player()
        for a in state.legal_actions():
            word = state.action_to_string(p, a).lower()  # ours: check, bet, call, raise, fold
            leaves(state.child(a), cards, line + {"check": "c", "bet": "r"}.get(word, word[0]), out, ours)
    return out


def test_leduc_holdem_is_openspiels_leduc_poker():
    ours = openspiel.load("leduc_holdem", returns="score")
    theirs = pyspiel.load_game("leduc_poker")
    assert ours.max_game_length() == theirs.max_game_length() == 8
    a = leaves(ours.new_initial_state(), (), "", {}, True)
    b = leaves(theirs.new_initial_state(), (), "", {}, False)
    assert len(a) == len(b) == 5520 and a == b  # every deal and betting line
    uniform = exploitability.exploitability(ours, policy.UniformRandomPolicy(ours))
    assert uniform == pytest.approx(exploitability.exploitability(theirs, policy.UniformRandomPolicy(theirs)), abs=1e-9)
