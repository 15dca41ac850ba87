"""Score rules' and hints' values kept while what they read is unchanged (dsl/reads.py,
interpreter/kept.py): what a rule reads is found from its text, a kept value is given back
only where those parts are the same, and bots value every position as the rules would afresh."""

from __future__ import annotations

import pytest

from meeple.interpreter import rng, scoring
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped

GAMES = [("wild_gardens", 2, 41), ("apothebakery", 4, 42), ("apothebakery", 2, 43), ("mudcake_fair", 3, 44)]


def looked_at(engine, players: int, seed: int) -> list:
    """A random game, and at every decision each option's position beside it (siblings sharing
    their parent's zone lists, as a bot's look makes them): every player's total and outlook."""
    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    out = []
    while n := engine.option_count(state):
        for k in range(n):
            after, _ = engine.apply(state, k, events=False)
            out.append([engine.totals(after), [engine.outlook(after, p) for p in range(players)]])
        engine.apply(state, rng.below(picker, n), inplace=True, events=False)
    return out


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_kept_and_worked_out_values_are_the_same(monkeypatch, name, players, seed):
    engine = shipped(name)
    kept = looked_at(engine, players, seed)
    assert any(k is not None for k in engine._kept("hints") + engine._kept("scores"))
    monkeypatch.setattr(scoring, "KEEP", False)
    fresh = shipped(name)
    assert fresh is not engine and looked_at(fresh, players, seed) == kept


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_game_played_in_place_is_valued_as_it_is_now(monkeypatch, name, players, seed):
    """A game played in place, as the lab and `meeple bench` play it, valued at every step: never
    a value kept at an earlier step of the same state, whose lists may have changed since."""
    engine = shipped(name)
    engine._kept("hints"), engine._kept("scores")
    monkeypatch.setattr(scoring, "KEEP", False)
    fresh = shipped(name)
    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    while n := engine.option_count(state):
        assert engine.totals(state) == fresh.totals(state)
        assert [engine.outlook(state, p) for p in range(players)] == [fresh.outlook(state, p) for p in range(players)]
        engine.apply(state, rng.below(picker, n), inplace=True, events=False)
    assert engine.totals(state) == fresh.totals(state)


MARKET = """
game "Market"
players 2
counter gold per player = 0
counter round_number = 0
flag busy = false
zone hand per player: pile of card
zone market: pile of card
component card from "cards.csv":
    price: int
function afford(p, c) = gold[p] >= c.price
setup:
    move card to market
    end game
hint "Cards within reach" worth 1: count(each c in market where afford(player, c))
hint "Hand" worth 1: count(hand[player])
hint "Luck" worth 1: roll([0, 1])
hint "Now" worth 1: count(each x in [moment()] where x == none)
score "Gold": gold[player]
"""
FILES = {"cards.csv": "id,price\na,1\nb,2\nc,5\n"}


def test_what_a_rule_reads_is_found_from_its_text(tmp_path):
    engine = rules(MARKET, tmp_path, FILES)
    within, hand, luck, now = (h.reads for h in engine.game.hints)
    assert within.counters == {"gold"} and within.zones == {"market"} and within.busy  # through `afford`
    assert hand.zones == {"hand"} and not hand.busy  # no loop: cheaper worked out than kept
    assert luck is None  # a roll changes the state: never kept
    assert now.moment and not now.counters
    assert engine.game.scores[0].reads.counters == {"gold"}


def test_a_kept_value_changes_with_what_it_reads_and_only_then(tmp_path, monkeypatch):
    engine = rules(MARKET, tmp_path, FILES)
    keep = engine._kept("hints")[0]
    asked = []
    fn = keep.fn
    monkeypatch.setattr(keep, "fn", lambda m: asked.append(1) or fn(m))
    state, _ = engine.start(2, 1)
    state["vars"]["gold/0"] = 2
    within = lambda s: engine._hinted(s, 0)[0]  # noqa: E731
    assert within(state) == 2 and len(asked) == 1
    other = copy_state(state)
    other["vars"]["round_number"] = 3  # not read by the hint
    other["vars"]["gold/1"] = 9  # read (its family), and back again below
    assert within(other) == 2 and len(asked) == 2
    other["vars"]["gold/1"] = 0
    assert within(other) == 2 and len(asked) == 2  # the same counters and lists as the first: kept
    fewer = copy_state(other)
    fewer["zones"]["market"] = ["c"]  # a new list: compared by its items
    assert within(fewer) == 0 and len(asked) == 3
    same_items = copy_state(state)  # equal lists, not the same ones
    assert within(same_items) == 2 and len(asked) == 3
    state["vars"]["gold/0"] = 5
    assert within(state) == 3 and len(asked) == 4


def test_a_value_is_kept_apart_for_each_number_of_players(tmp_path):
    """One engine values positions of games of different sizes (the table hosts them all): a rule
    reading the number of players is not given a value kept for another number."""
    engine = rules(
        MARKET.replace(
            'hint "Hand" worth 1: count(hand[player])',
            'hint "Hand" worth 1: count(each c in market where players == 3)',
        ).replace("players 2", "players 2..3"),
        tmp_path,
        FILES,
    )
    two, _ = engine.start(2, 1)
    three, _ = engine.start(3, 1)
    assert engine._hinted(copy_state(two), 0)[1] == 0
    assert engine._hinted(copy_state(three), 0)[1] == 3
