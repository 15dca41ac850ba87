"""A setup that draws nothing at random is run once per player count (engine.START_ONCE): later
starts copy the state and events it reached, with the seed's own generator. Played with and
without the shortcut, the shipped games give the same states and events, seed after seed.
Also here: `rng.below` with the generator's step written in place draws as before."""

from __future__ import annotations

import pytest

from meeple.interpreter import engine as engine_module
from meeple.interpreter import rng
from meeple.interpreter.engine import Engine
from tests.conftest import rules, shipped
from tests.helpers import both_ways

# (game, players, whether its setup draws nothing at random, so that its start is kept)
GAMES = [
    ("queens_wishes", 4, True),
    ("queens_wishes", 1, True),
    ("wild_gardens", 2, False),
    ("apothebakery", 4, False),
    ("mudcake_fair", 3, False),
    ("tic_tac_toe", 2, True),
    ("connect_four", 2, True),
]


def played(engine: Engine, players: int, seeds) -> list:
    """Random games, one per seed, on one engine: every state and the events of every step."""
    out = []
    for seed in seeds:
        picker = {"rng": rng.seed_state(seed)}
        state, events = engine.start(players, seed)
        out.append([state, events])
        while n := engine.option_count(state):
            state, events = engine.apply(state, rng.below(picker, n))
            out.append([state, events])
    return out


@pytest.mark.parametrize("name, players, kept", GAMES)
def test_games_started_once_play_as_started_each_time(monkeypatch, name, players, kept):
    def run(on):
        engine = shipped(name)
        games = played(engine, players, [41, 42, 43])
        assert (("started", players) in engine.game.cache) == (on and kept)
        return games

    on, off = both_ways(monkeypatch, engine_module, "START_ONCE", run)
    assert on == off


def test_a_kept_start_shares_nothing_with_the_games_it_starts():
    engine = shipped("queens_wishes")
    first, first_events = engine.start(4, 5)
    fresh = [first, first_events]
    import copy

    expected = copy.deepcopy(fresh)
    second, second_events = engine.start(4, 5)  # from the kept start
    assert [second, second_events] == expected
    # Whatever a caller does to what it was given, the next start is the same.
    second["zones"]["supply"].append("x")
    second["stack"][-1][2]["wanted"] = 99
    second_events[0]["e"] = "changed"
    first["vars"]["round_number"] = 7
    assert list(engine.start(4, 5)) == expected
    other, _ = engine.start(4, 6)
    assert other["rng"] == rng.seed_state(6) and other["rng"] != expected[0]["rng"]


def test_a_setup_that_draws_at_random_is_run_every_time():
    engine = rules("""
        game "Dice"
        players 2
        counter rolled = 0
        setup:
            rolled = roll([1, 2, 3, 4, 5, 6])
            next turn
        phase turn:
            choose n from [1, 2] by first_player "Pick":
                pass
            end game
    """)
    results = {engine.start(2, seed)[0]["vars"]["rolled"] for seed in range(30)}
    assert len(results) > 1 and ("started", 2) not in engine.game.cache


def test_below_draws_as_next_u64_would():
    """`rng.below` writes the generator's step in place: the same numbers and states as through
    `next_u64`, for bounds small and large."""

    def reference(state, n):
        if n <= 1:
            return 0
        while True:
            m = rng.next_u64(state) * n
            if (m & rng.MASK) >= n or (m & rng.MASK) >= ((1 << 64) - n) % n:
                return m >> 64

    a, b = {"rng": rng.seed_state(9)}, {"rng": rng.seed_state(9)}
    for i in range(5000):
        n = [0, 1, 2, 3, 7, 10, 280, 2**63 + 5, 2**64 - 1][i % 9]
        assert (rng.below(a, n), a["rng"]) == (reference(b, n), b["rng"])


@pytest.mark.parametrize("name, players, kept", [g for g in GAMES if g[0] in ("queens_wishes", "wild_gardens")])
def test_a_start_without_events_reaches_the_same_state(monkeypatch, name, players, kept):
    """`start(..., events=False)` (what bench plays) hands out no events, the same state, and
    leaves the kept start's events whole for the next start that wants them."""

    def run(on):
        engine = shipped(name)
        out = []
        for seed, events in ((61, False), (62, True), (61, False), (63, True), (61, True)):
            state, said = engine.start(players, seed, events=events)
            assert (said == []) == (not events)
            out.append([state, said])
        return out

    on, off = both_ways(monkeypatch, engine_module, "START_ONCE", run)
    assert on == off
    assert on[0][0] == on[2][0] == on[4][0] and on[4][1] and on[1][1]
