"""Jumps threaded (interpreter/jumps.py `THREADED`): the same games, options, events, states and
scores as running every jump, and the same errors where a rule fails."""
from __future__ import annotations

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter import jumps
from meeple.interpreter.machine import IterNext, Jump, JumpUnless
from tests.conftest import rules, shipped
from tests.helpers import both_ways
from tests.test_source import played

LOOPS = '''
game "L"
players 2
counter n = 0
counter m = 0
setup:
    next turn
phase turn:
    let player = first_player
    for each p in players:
        if n > 6:
            m += 1
            n += 1
        elif n > 3:
            m += 2
            n += 1
        else:
            choose x from [1, 2, 3] "How many?":
                n += x
    while m < n:
        m += 1
        if m == 5:
            log "five"
    if n > 9:
        end game
    next turn
score "S": n + m
'''


@pytest.mark.parametrize("name, players, seed", [("queens_wishes", 4, 31), ("queens_wishes", 1, 32),
                                                 ("wild_gardens", 4, 33), ("apothebakery", 4, 34),
                                                 ("tic_tac_toe", 2, 35), ("connect_four", 2, 36)])
def test_threaded_and_jump_by_jump_games_are_the_same(monkeypatch, name, players, seed):
    games = both_ways(monkeypatch, jumps, "THREADED", lambda on: played(shipped(name), players, seed))
    assert games[0] == games[1]


@pytest.mark.parametrize("seed", range(5))
def test_loops_and_branches_play_the_same_threaded_or_not(monkeypatch, seed):
    games = both_ways(monkeypatch, jumps, "THREADED", lambda on: played(rules(LOOPS), 2, seed))
    assert games[0] == games[1]
    assert isinstance(games[0], list) and len(games[0]) > 4  # played, not failed


def test_a_jump_to_a_loops_head_is_the_head_itself(monkeypatch):
    kinds = []
    for on in (True, False):
        monkeypatch.setattr(jumps, "THREADED", on)
        ops = rules(LOOPS).game.blocks[1].ops
        kinds.append([type(op) for op in ops])
        for op in ops:  # every head moves on to the op after its own place, wherever it stands
            if type(op) in (IterNext, JumpUnless):
                assert ops[op.next - 1] is op
        if on:
            assert all(op.target == len(ops) or type(ops[op.target]) is not Jump for op in ops if type(op) is Jump)
    threaded, plain = kinds
    assert plain.count(Jump) > threaded.count(Jump)
    assert threaded.count(IterNext) > plain.count(IterNext) and threaded.count(JumpUnless) > plain.count(JumpUnless)


def test_a_rule_that_fails_inside_a_loop_fails_alike(monkeypatch):
    text = '''
game "F"
players 1
counter n = 0
setup:
    for each x in [1, 2, 0]:
        n += 6 // x
'''
    outcomes = both_ways(monkeypatch, jumps, "THREADED", lambda on: rules(text).start(1, 1))
    assert "<test>:6:" in outcomes[0] and outcomes[0] == outcomes[1]


def test_an_endless_loop_is_stopped_either_way(monkeypatch):
    text = 'game "T"\nplayers 1\ncounter a = 0\nsetup:\n    while true:\n        a += 1\n'
    for on in (True, False):
        monkeypatch.setattr(jumps, "THREADED", on)
        with pytest.raises(MeepleError) as info:
            rules(text).start(1, 1)
        assert "loop forever" in info.value.format() and "<test>:" in info.value.format()
