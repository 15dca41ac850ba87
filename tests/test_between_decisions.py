"""Shortcuts between two decisions (docs/performance.md, "Speed 2, eleventh session"): each
switch on and off plays the shipped games alike - the same actor and options at every
decision, the same events, final state and scores - and small rules fail alike both ways."""
from __future__ import annotations

import pytest

from meeple.interpreter.effects import actions
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped
from tests.helpers import both_ways
from tests.test_decision_points import GAMES, played

SWITCHES = [(actions, "MARKS")]


@pytest.mark.parametrize("module, switch", SWITCHES)
@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_shortcut_plays_the_shipped_games_as_without_it(monkeypatch, module, switch, name, players, seed):
    on, off = both_ways(monkeypatch, module, switch, lambda on: played(shipped(name), players, seed))
    assert on == off


MOMENTS = '''
game "Moments"
players 3
counter coins per player = 2
counter hearts = 9
action nudge(p) "Add a heart" when moment() == "heal declared" and coins[p] > [0, 0, 0][TEST], interrupting:
    coins[p] -= 1
    hearts += 1
action wait(p) "Wait" when coins[p] == 1, interrupting:
    coins[p] += 2
setup:
    next round
phase round:
    for each player in turn_order:
        moment "healing turn"
        choose n from [1, 2] "Heal how many hearts?":
            moment "heal declared"
            hearts -= n
    if hearts < 1:
        end game
    next round
'''


@pytest.mark.parametrize("test", ["0", "hearts - 3"])
def test_moments_and_marks_play_and_fail_as_before(monkeypatch, test):
    """Two interrupting actions, three players: every state (the "held" marks in it) is the
    same both ways; a test that fails (an index out of range once hearts drop) fails alike."""
    def run(on):
        engine = rules(MOMENTS.replace("TEST", test))
        state, _ = engine.start(3, 5)
        out = []
        for step in range(60):
            d = engine.decision(state)
            if d is None:
                break
            out.append([d.actor, d.prompt, [o.id for o in d.options], copy_state(state)])
            state, events = engine.apply(state, step % len(d.options))
            out.append(events)
        return out + [state]
    on, off = both_ways(monkeypatch, actions, "MARKS", run)
    assert on == off
    if test != "0":
        assert "no item" in on and on.startswith("<test>:5:")
    else:
        assert any(o[1].startswith("Act now") for o in on if isinstance(o, list) and len(o) == 4)
