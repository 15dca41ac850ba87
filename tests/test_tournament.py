"""Tournaments: every seating played, Bradley-Terry ratings with bootstrap intervals."""

from __future__ import annotations

import json
import math

import pytest

from meeple.cli import main
from meeple.interpreter.lab import tournament


def game(agents, places):
    return {"agents": agents, "error": None, "ranking": [{"player": i, "place": p} for i, p in enumerate(places)]}


def test_every_seating_is_played():
    assert tournament.lineups(["a", "b", "c"], 2) == [
        ("a", "b"),
        ("a", "c"),
        ("b", "a"),
        ("b", "c"),
        ("c", "a"),
        ("c", "b"),
    ]
    three = tournament.lineups(["a", "b"], 3)  # fewer agents than seats: every mix but all-alike
    assert len(three) == 6 and ("a", "a", "a") not in three and ("a", "b", "b") in three
    with pytest.raises(tournament.TournamentError, match="two different agents"):
        tournament.lineups(["a", "a"], 2)


def test_a_shared_place_is_half_a_win_each_and_same_agents_do_not_meet():
    [results] = tournament.results_of([game(["a", "b", "a"], [1, 1, 2])])
    assert sorted(results) == [("a", "b", 0.5), ("b", "a", 0.5), ("b", "a", 1.0)]


def test_ratings_recover_a_known_strength_ratio():
    # a beats b three times in four: the Elo-scale gap is 400 log10(3) = 190.8
    rows = [game(["a", "b"], [1, 2]) for _ in range(300)] + [game(["a", "b"], [2, 1]) for _ in range(100)]
    ratings = tournament.bradley_terry(tournament.results_of(rows), ["a", "b"])
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=3)
    assert ratings["a"] + ratings["b"] == pytest.approx(0, abs=1e-9)


def test_intervals_contain_the_rating_and_shrink_with_games():
    few = [game(["a", "b"], [1, 2])] * 6 + [game(["a", "b"], [2, 1])] * 2
    many = few * 20
    small, big = (tournament.ratings(rows, ["a", "b"])[0] for rows in (few, many))
    assert small["agent"] == big["agent"] == "a"
    for r in (small, big):
        assert r["low"] <= r["rating"] <= r["high"]
    assert big["high"] - big["low"] < small["high"] - small["low"]


def test_a_tournament_on_a_shipped_game(capsys):
    code = main(["tournament", "tic_tac_toe", "--agents", "greedy,random", "-n", "8", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["seatings"] == 2 and result["games"] == 16
    assert [r["agent"] for r in result["ratings"]] == ["greedy", "random"]
    assert result["ratings"][0]["meetings"] == 16
