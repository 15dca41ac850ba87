"""Runs of simple statements compiled into one op (dsl/compile_fused.py) behave exactly like
one op per statement: same games, same events, and errors at the statement that failed."""

from __future__ import annotations

import pytest

from meeple.dsl import compile_flow, compile_fused
from meeple.dsl.errors import MeepleError
from meeple.interpreter import rng, runner
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped
from tests.helpers import both_ways


def trace_text(name: str, players: int, seed: int) -> list:
    engine = shipped(name)
    return runner.play(engine, players, seed, ["random"], name).trace.lines


@pytest.mark.parametrize(
    "name, players, seed",
    [
        ("queens_wishes", 3, 11),
        ("wild_gardens", 2, 12),
        ("apothebakery", 3, 13),
        ("mudcake_fair", 4, 14),
        ("connect_four", 2, 15),
    ],
)
def test_fused_and_unfused_games_are_the_same(monkeypatch, name, players, seed):
    fused = trace_text(name, players, seed)
    monkeypatch.setattr(compile_flow, "fusable", lambda s: False)
    plain = trace_text(name, players, seed)
    assert fused == plain, f"seed {seed}"


def test_a_fused_run_is_one_op():
    e = rules("""
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
""")
    assert [type(op).__name__ for op in e.game.blocks[0].ops] == ["Fused"]
    state, _ = e.start(2, 1)
    assert state["vars"] == {"a": 1, "b": 2} and state["over"]


def test_an_error_in_a_fused_run_names_its_own_line():
    e = rules("""
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
""")
    with pytest.raises(MeepleError) as info:
        e.start(2, 1)
    text = info.value.format()
    assert text.startswith("<test>:8:13:") and "in setup: no item 2" in text and "a = [10, 20][a]" in text


def test_statements_after_next_do_not_run():
    e = rules("""
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
""")
    state, events = e.start(1, 1)
    assert state["vars"]["a"] == 11


def test_a_python_level_failure_in_a_fused_run_names_its_own_line():
    e = rules("""
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
""")
    with pytest.raises(MeepleError) as info:
        e.start(2, 1)
    text = info.value.format()
    assert text.startswith("<test>:9:") and "needs numbers" in text and "v += 1" in text


def played(engine, players: int, seed: int) -> list:
    """Each step's events and state of a random game; of the frames, their blocks and locals
    (where in its block a frame waits depends on how many ops the block compiled to)."""
    picker = {"rng": rng.seed_state(seed)}
    state, events = engine.start(players, seed)
    out = []
    while True:
        kept = copy_state(state)
        kept["stack"] = [[block, env] for block, _, env in kept["stack"]]
        out += [events, kept]
        if not (n := engine.option_count(state)):
            return out
        state, events = engine.apply(state, rng.below(picker, n))


# Each switch of compile_fused: shipped games play the same with it and without it.
SWITCH_GAMES = {
    "LOOPS": [
        ("queens_wishes", 4, 41),
        ("queens_wishes", 1, 42),
        ("wild_gardens", 2, 43),
        ("apothebakery", 4, 44),
        ("mudcake_fair", 3, 45),
        ("breakthrough", 2, 46),
    ],
    "JOIN": [
        ("tic_tac_toe", 2, 51),
        ("connect_four", 2, 52),
        ("apothebakery", 3, 53),
        ("wild_gardens", 2, 54),
        ("queens_wishes", 1, 55),
        ("mudcake_fair", 4, 56),
    ],
}


@pytest.mark.parametrize(
    "switch, name, players, seed", [(switch, *game) for switch, games in SWITCH_GAMES.items() for game in games]
)
def test_a_switch_of_the_fused_runs_plays_as_without_it(monkeypatch, switch, name, players, seed):
    on = played(shipped(name), players, seed)
    monkeypatch.setattr(compile_fused, switch, False)
    assert played(shipped(name), players, seed) == on


LOOP_RULES = """
game "L"
players 2
counter a = 0
setup:
    let xs = [[1, 2], [3, 4]]
    for each [p, q] in SOURCE where p > 0:
        if q > 1:
            a += p * q
        else:
            a = [0][q]
    a += 1
    end game
"""


@pytest.mark.parametrize(
    "source, total",
    [
        ("xs", 15),
        ("[[1, 2], [3]]", None),
        ("[[1, 0]]", None),
        ("[[true, 2]]", None),
        ("[[2, 1]]", None),
        ("count(a)", None),
        ("[[1, 2], [5, 6]]", 33),
    ],
)
def test_a_fused_loop_fails_and_works_as_op_by_op(monkeypatch, source, total):
    def run(loops):
        engine = rules(LOOP_RULES.replace("SOURCE", source))
        assert ("IterStart" in [type(op).__name__ for op in engine.game.blocks[0].ops]) != loops
        return list(engine.start(2, 1))

    outcomes = both_ways(monkeypatch, compile_fused, "LOOPS", run)
    assert outcomes[0] == outcomes[1]
    if total is not None:
        assert outcomes[0][0]["vars"]["a"] == total


JOIN_RULES = """
game "J"
players 2
counter a = 0
counter b = 0
setup:
    next play
phase play:
    MAYchoose x from [1, 2, 3] where x > LOW by 0:
        a += x
        b = [0, 1][a - BAD]
    for each y in [1, 2]:
        b += y
    a += 10
    end game
"""


@pytest.mark.parametrize(
    "may, low, bad, answer",
    [("", 0, 0, 0), ("", 0, 0, 1), ("may ", 0, 0, None), ("", 5, 0, None), ("", 0, 5, 0), ("may ", 5, 0, None)],
)
def test_a_joined_choice_skips_passes_and_fails_as_op_by_op(monkeypatch, may, low, bad, answer):
    text = JOIN_RULES.replace("MAY", may).replace("LOW", str(low)).replace("BAD", str(bad))
    outcomes = []
    for join in (True, False):
        monkeypatch.setattr(compile_fused, "JOIN", join)
        engine = rules(text)
        assert ([op.skip for op in engine.game.blocks[1].ops if hasattr(op, "skip")] == [2, 1]) == join
        steps = []
        try:
            state, events = engine.start(2, 1)
            steps.append([state["vars"], events])
            while (d := engine.decision(state)) is not None:
                index = next((i for i, o in enumerate(d.options) if o.value is None), 0) if may else 0
                state, events = engine.apply(state, answer if answer is not None else index)
                steps.append([state["vars"], events])
        except MeepleError as exc:
            steps.append(exc.format())
        outcomes.append(steps)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "items, total", [("[1, 2, 3]", 6), ("[1, 0, 3]", 4), ("3", 3), ("[1, [2]]", None), ("[2, none]", None)]
)
def test_a_fused_loops_where_written_out_fails_and_works_as_its_closure(monkeypatch, items, total):
    from meeple.dsl import compile_source

    text = f"""
game "W"
players 2
counter a = 0
setup:
    for each x in {items} where x > 0 and a < 10:
        a += x + 1 - 1
    end game
"""
    outcomes = []
    for enabled, loops, where in ((True, True, True), (False, True, True), (True, False, True), (True, True, False)):
        monkeypatch.setattr(compile_source, "ENABLED", enabled)
        monkeypatch.setattr(compile_fused, "LOOPS", loops)
        monkeypatch.setattr(compile_fused, "WHERE", where)
        try:
            state, events = rules(text).start(2, 1)
            outcomes.append([state, events])
        except MeepleError as exc:
            outcomes.append(exc.format())
    assert outcomes[0] == outcomes[1] == outcomes[2] == outcomes[3]
    if total is not None:
        assert outcomes[0][0]["vars"]["a"] == total
