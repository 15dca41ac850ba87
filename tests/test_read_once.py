"""Reads made cheaper (docs/experiments.md "Speed 2, twelfth stint"): parts of the state and
players' numbers of keys read once at the top of generated code (`source_text.PARTS`), a
`do`'s arguments that are locals copied from the caller's frame (`machine.ARGS`). The same
walk, and the same failures, with each on and off; the shipped games are played both ways in
tests/test_between_decisions.py."""

from __future__ import annotations

import pytest

from meeple.dsl import compile_source, source_text
from meeple.interpreter import machine
from tests.conftest import rules, shipped
from tests.helpers import both_ways
from tests.test_between_decisions import KEYS, walked


@pytest.mark.parametrize(
    "test, fails",
    [
        ("gems[player, c] < 3 and gems[player, blue] < 4 and count(pile[player, c]) < 3", False),
        ("mine(player, c) < 5 and mine(next_player(player), c) < 6", False),
        ("gems[player == 1, c] < 3 and gems[player == 1, red] < 3", True),
        ("mine(player + 3, c) < 3", True),
        ("any(gems[player, d] > 2 for each d in colour) or gems[player, c] + gems[player, red] < 2", False),
    ],
)
def test_parts_read_once_read_and_fail_as_at_each_read(monkeypatch, tmp_path, test, fails):
    """A player's number read twice in a filter and in a rules function (`mine`), true or out
    of range as a player (no such key: the same message at the same line both ways)."""

    def run(on):
        return walked(
            rules(
                KEYS.replace("TEST", test).replace("STATEMENT", "pass"),
                tmp_path,
                {"cards.csv": "id,value\na,1\nb,3\nc,2\nd,4\ne,5\n"},
            ),
            3,
            4,
        )

    on, off = both_ways(monkeypatch, source_text, "PARTS", run)
    assert on == off
    assert isinstance(on, str) == fails, on


def test_parts_read_twice_are_read_once_and_writes_left_alone():
    source = (
        "def e(m):\n    try:\n        E = m.env\n        S = m.state\n"
        "        return S['vars'][K1[(E['p'] if type(E['p']) is int else None)]] + "
        "S['vars'][K2[(E['p'] if type(E['p']) is int else None)]] + len(S['zones']['z'])\n"
    )
    assert source_text.hoisted(source) == (
        "def e(m):\n    try:\n        E = m.env\n        e_p = E['p']\n        S = m.state\n"
        "        S_vars = S['vars']\n        n_e_p = (e_p if type(e_p) is int else None)\n"
        "        return S_vars[K1[n_e_p]] + S_vars[K2[n_e_p]] + len(S['zones']['z'])\n"
    )
    # a parameter, not a comprehension's own name
    function = (
        "def u(m, v_p):\n    S = m.state\n    return S['vars'][K[(v_p if type(v_p) is int else None)]]"
        " + sum(S['vars'][K[(v1_p if type(v1_p) is int else None)]] for v1_p in"
        " [(v_p if type(v_p) is int else None)])\n"
    )
    assert source_text.hoisted_parts(function) == (
        "def u(m, v_p):\n    S = m.state\n    S_vars = S['vars']\n    n_v_p = (v_p if type(v_p) is int else None)\n"
        "    return S_vars[K[n_v_p]] + sum(S_vars[K[(v1_p if type(v1_p) is int else None)]] for v1_p in [n_v_p])\n"
    )
    written = source.replace("return", "S['vars']['x'] = 1\n        return")
    assert source_text.hoisted_parts(written) == written


def test_the_shipped_functions_read_parts_once(monkeypatch):
    """The switch does something: generated functions of a shipped game read `S_vars` and `n_e_p`."""
    made = []
    build = compile_source._build

    def spy(source, consts, name):
        made.append(source_text.hoisted(source))
        return build(source, consts, name)

    monkeypatch.setattr(compile_source, "_build", spy)
    engine = shipped("wild_gardens")
    state, _ = engine.start(4, 1)
    engine.decision(state)
    assert any("S_vars = S['vars']" in s and "n_e_p = " in s for s in made)


CALLS = """
game "A"
players 3
counter n = 0
counter k per player = 0
effect bump(p, by, times):
    k[p] += by * times
    n += 1
    if k[p] > 6:
        choose c from [1, 2] by p "How many?":
            k[p] -= c
setup:
    next round
phase round:
    for each player in turn_order:
        if n % 3 == SET:
            let x = n % 4
        do bump(player, x, n + 1)
    if n > 12:
        end game
    next round
"""


@pytest.mark.parametrize("first, fails", [("0", False), ("1", True)])
def test_locals_passed_to_an_effect_are_copied_and_fail_alike(monkeypatch, tmp_path, first, fails):
    """Locals given to `do` (with an expression beside them) as the closures pass them; a local
    with no value yet fails with the same message at the same line both ways."""

    def run(on):
        engine = rules(CALLS.replace("SET", first), tmp_path, {})
        assert any(
            type(op).__name__ == "CallEffect" and (op.names is not None) == on
            for b in engine.game.blocks
            for op in b.ops
        )
        return walked(engine, 3, 5, states=True)

    on, off = both_ways(monkeypatch, machine, "ARGS", run)
    assert on == off
    assert isinstance(on, str) == fails, on
    if fails:
        assert "has no value yet" in on
