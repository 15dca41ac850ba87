"""Shortcuts at a decision point (docs/performance.md, "Speed 2, eighth session"): each
switch on and off plays the same shipped games - the same options at every decision, the
same events, the same final state and scores - and fails as it fails without the shortcut."""
from __future__ import annotations

import pytest

from meeple.interpreter import rng
from meeple.interpreter.effects import actions
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped
from tests.helpers import both_ways

GAMES = [("wild_gardens", 4, 61), ("wild_gardens", 2, 62), ("apothebakery", 4, 63), ("apothebakery", 2, 64),
         ("queens_wishes", 4, 65), ("tic_tac_toe", 2, 66)]


def played(engine, players: int, seed: int) -> list:
    """A random game: each decision's actor, options (ids) and the events of the choice; then
    the final state and scores. Every other decision is applied in place, quietly (as bench)."""
    picker = {"rng": rng.seed_state(seed)}
    state, events = engine.start(players, seed)
    out = [events]
    while (d := engine.decision(state)) is not None:
        out.append([d.actor, [o.id for o in d.options]])
        choice = rng.below(picker, len(d.options))
        if len(out) % 2:
            state, events = engine.apply(state, choice)
            out.append(events)
        else:
            engine.apply(state, choice, inplace=True, events=False)
    return out + [copy_state(state), engine.scores(state)]


@pytest.mark.parametrize("module, switch", [(actions, "PLAN")])
@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_decision_point_shortcut_plays_as_without_it(monkeypatch, module, switch, name, players, seed):
    on, off = both_ways(monkeypatch, module, switch, lambda on: played(shipped(name), players, seed))
    assert on == off


FAILING = '''
game "F"
players 2
counter coins per player = 1
action buy(p) "Buy" when coins[p] >= [1][coins[p] - 1]:
    coins[p] += 1
setup:
    next round
phase round:
    for each player in turn_order:
        choose n from [1, 2] by player "How many?":
            coins[player] += n
    next round
'''


def test_an_action_test_fails_as_without_the_plan(monkeypatch):
    """A test that fails (an index out of range once coins reach 2) fails at the same line."""
    def run(on):
        engine = rules(FAILING)
        state, _ = engine.start(2, 1)
        for _ in range(6):
            state, _ = engine.apply(state, 0)
        return state
    on, off = both_ways(monkeypatch, actions, "PLAN", run)
    assert on == off and "no item 1 in [1]" in on and on.startswith("<test>:4:")
