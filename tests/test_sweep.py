"""Params, sweeps and tuning: a number in the rules, the response to it, and the value that balances."""

from __future__ import annotations

import json

import pytest

from meeple.cli import main
from meeple.dsl.compiler import UsageError
from meeple.interpreter.lab import sweep
from tests.conftest import rules, shipped

GAME = """
game "Params"
players 2
param bonus = 2 in 0..5 "points for taking three"
param shift = 1 in 0..3
counter coins per player = 0
setup:
    for each player in turn_order:
        choose n from [1, 2, 3]:
            coins += n + (bonus if n == 3 else 0) + shift
score "Coins": coins
score "Extra" if bonus > 3: 1
"""


def final_scores(engine, picks):
    state, _ = engine.start(2, 1)
    for k in picks:
        state, _ = engine.apply(state, k)
    return [s["total"] for s in engine.scores(state)]


def test_a_param_is_a_number_the_rules_read_and_an_option_sets():
    assert final_scores(rules(GAME), [2, 0]) == [3 + 2 + 1, 1 + 1]
    assert final_scores(rules(GAME, options={"bonus": "5", "shift": "3"}), [2, 0]) == [3 + 5 + 3 + 1, 1 + 3 + 1]
    game = rules(GAME).game
    assert game.params == {"bonus": (0, 5), "shift": (0, 3)}
    assert game.option_choices["bonus"] == (["2", "0", "5"], "points for taking three")  # default, then the ends


@pytest.mark.parametrize("value", ["6", "x", "2.5", "-1"])
def test_a_param_outside_its_range_is_refused(value):
    with pytest.raises(UsageError, match="param `bonus` is a whole number from 0 to 5"):
        rules(GAME, options={"bonus": value})


def test_grids_are_checked_against_the_game():
    game = rules(GAME).game
    assert sweep.grid(["bonus=1..2", "shift=0,1"], game) == [
        {"bonus": "1", "shift": "0"},
        {"bonus": "1", "shift": "1"},
        {"bonus": "2", "shift": "0"},
        {"bonus": "2", "shift": "1"},
    ]
    for spec, message in (
        ("bonus=4..7", "outside it"),
        ("nope=1..2", "not a param or option"),
        ("bonus", "NAME=LO..HI"),
        ("bonus=a..b", "not a range"),
    ):
        with pytest.raises(sweep.SweepError, match=message):
            sweep.grid([spec], game)


def test_apothebakery_prices_its_abilities_with_params():
    engine = shipped("apothebakery", options={"second_ability_mana": "1"})
    assert engine.game.option_value("second_ability_mana") == 1
    assert engine.game.option_value("first_ability_mana") == 1


def test_sweep_a_shipped_game_end_to_end(tmp_path, capsys):
    plot, rows = tmp_path / "sweep.png", tmp_path / "rows.jsonl"
    code = main(
        [
            "sweep",
            "apothebakery",
            "--param",
            "second_ability_mana=1..3",
            "-n",
            "6",
            "--agents",
            "random",
            "--plot",
            str(plot),
            "--json",
            "--out",
            str(rows),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["labels"] == [f"second_ability_mana={v}" for v in (1, 2, 3)]
    assert all(s["ok"] == 6 for s in result["summaries"].values())
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    played = [json.loads(line) for line in rows.read_text().splitlines()]
    for label in result["labels"]:  # every point on the same seeds, with its own value of the param
        mine = [r for r in played if r["side"] == label]
        assert [r["seed"] for r in mine] == list(range(1, 7))
        assert {r["options"]["second_ability_mana"] for r in mine} == {label.split("=")[1]}


def test_tune_a_shipped_game_end_to_end(capsys):
    code = main(
        [
            "tune",
            "apothebakery",
            "--param",
            "second_ability_mana=0..4",
            "-n",
            "6",
            "--trials",
            "4",
            "--agents",
            "random",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    gaps = [b["gap"] for b in result["best"]]
    assert gaps == sorted(gaps) and 1 <= result["tried"] <= 4
    best = result["best"][0]["summary"]
    rates = [seat["win_rate"]["p"] for seat in best["seats"]]
    assert gaps[0] == pytest.approx(max(abs(r - 0.5) for r in rates))


def test_tune_refuses_an_unknown_target(capsys):
    code = main(["tune", "apothebakery", "--param", "second_ability_mana=0..4", "--target", "fun"])
    assert code == 2 and "--target is balance, first or FIGURE=VALUE" in capsys.readouterr().err
