"""The fixed action space (meeple/spaces.py) over every shipped ruleset: random games played
through it, where every decision's options each have exactly one index (a set: its items' and
`done`), no two options share one, nothing falls outside the space, and stepping the legal
actions reaches every option. 200 games each for the small games at their default player count;
fewer for the three big ones (their decisions are many and long: the numbers are in GAMES), which
are also played at another player count."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple import encoding, spaces

GAMES = {"apothebakery": 40, "wild_gardens": 30, "queens_wishes": 60}
MAX_DECISIONS = 3_000


def reach(space, pending, path: tuple) -> int:
    """Steps an option's actions through the space; the option's place once it is complete."""
    picked: list = []
    for action in path:
        assert action in space.legal(pending, picked), (space.describe(action), picked)
        chosen, picked = space.choose(pending, picked, action)
        if chosen is not None:
            return chosen
    raise AssertionError(f"{path} did not complete an option")


CASES = [(name, None) for name in meeple.rulesets()] + [("apothebakery", 4), ("queens_wishes", 4), ("wild_gardens", 1)]


@pytest.mark.parametrize("name, players", CASES)
def test_every_option_has_one_index(name, players):
    g = encoding.table(name, players)
    engine = g.engine
    space = spaces.ActionSpace(engine.game, g.players)
    again = spaces.ActionSpace(engine.game, g.players)
    assert (space.size, space.segments, space.names) == (again.size, again.segments, again.names)
    meanings = [space.describe(i) for i in range(space.size)]
    assert len(set(meanings)) == space.size
    decisions = 0
    for seed in range(GAMES.get(name, 200)):
        state, _ = engine.start(g.players, seed)
        pick = random.Random(seed)
        for _ in range(MAX_DECISIONS):
            if not engine.option_count(state):
                break
            pending = state["pending"]
            codes = space.option_indices(pending)
            assert len(set(codes)) == len(codes), f"{name} seed {seed}: two options share an index: {codes}"
            assert all(0 <= i < space.size for path in codes for i in path)
            # Before any item is picked: each value's index, each set's items, `done` for an empty set.
            first = {i for path in codes for i in (path if len(path) == 1 else path[:-1])}
            assert space.legal(pending, []) == sorted(first)
            for k, path in enumerate(codes):
                if len(path) > 1 or pick.random() < 0.2:  # sets always; values now and then (cost)
                    assert reach(space, pending, path) == k
            # The move itself made through the space: a random legal action at a time.
            picked, chosen = [], None
            while chosen is None:
                chosen, picked = space.choose(pending, picked, pick.choice(space.legal(pending, picked)))
            state, _ = engine.apply(state, chosen, inplace=True, events=False)
            decisions += 1
    assert decisions > 0


def test_a_value_outside_the_space_is_refused():
    game = meeple.load("tic_tac_toe")
    space = spaces.ActionSpace(game.engine.game, 2)
    assert space.describe(space.index(["board", 4])) == "cell board@4"
    with pytest.raises(ValueError, match="outside the action space"):
        space.index("no such thing")
    with pytest.raises(ValueError, match="outside the action space"):
        space.describe(space.size)
