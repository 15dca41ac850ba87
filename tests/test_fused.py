"""Runs of simple statements compiled into one op (dsl/compile_fused.py) behave exactly like
one op per statement: same games, same events, and errors at the statement that failed."""
from __future__ import annotations

import pytest

from meeple.dsl import compile_flow
from meeple.dsl.errors import MeepleError
from meeple.interpreter import runner
from tests.conftest import rules, shipped


def trace_text(name: str, players: int, seed: int) -> list:
    engine = shipped(name)
    return runner.play(engine, players, seed, ["random"], name).trace.lines


@pytest.mark.parametrize("name, players, seed", [
    ("queens_wishes", 3, 11), ("wild_gardens", 2, 12), ("apothebakery", 3, 13), ("mudcake_fair", 4, 14),
    ("connect_four", 2, 15)])
def test_fused_and_unfused_games_are_the_same(monkeypatch, name, players, seed):
    fused = trace_text(name, players, seed)
    monkeypatch.setattr(compile_flow, "fusable", lambda s: False)
    plain = trace_text(name, players, seed)
    assert fused == plain, f"seed {seed}"


def test_a_fused_run_is_one_op():
    e = rules('''
game "F"
players 2
counter a = 0
counter b = 0
setup:
    a = 1
    if a == 1:
        b = 2
    else:
        b = 3
    end game
''')
    assert [type(op).__name__ for op in e.game.blocks[0].ops] == ["Fused"]
    state, _ = e.start(2, 1)
    assert state["vars"] == {"a": 1, "b": 2} and state["over"]


def test_an_error_in_a_fused_run_names_its_own_line():
    e = rules('''
game "F"
players 2
counter a = 0
setup:
    a = 1
    if a == 1:
        a = 2
        a = [10, 20][a]
    next play
phase play:
    end game
''')
    with pytest.raises(MeepleError) as info:
        e.start(2, 1)
    text = info.value.format()
    assert text.startswith("<test>:8:13:") and "in setup: no item 2" in text and "a = [10, 20][a]" in text


def test_statements_after_next_do_not_run():
    e = rules('''
game "F"
players 1
counter a = 0
setup:
    a = 1
    if a == 1:
        next play
    a = 5
phase play:
    a += 10
    end game
''')
    state, events = e.start(1, 1)
    assert state["vars"]["a"] == 11


def test_a_python_level_failure_in_a_fused_run_names_its_own_line():
    e = rules('''
game "F"
players 2
value v = none
counter a = 0
setup:
    a = 1
    if a == 1:
        a = 2
        v += 1
    end game
''')
    with pytest.raises(MeepleError) as info:
        e.start(2, 1)
    text = info.value.format()
    assert text.startswith("<test>:9:") and "needs numbers" in text and "v += 1" in text
