"""`measure` declarations: what the lab counts per player at the game's end, never scored.

A measure is a number (yes/no as 1/0) or a list of things; the lab's rows keep them, summaries
and comparisons report them (listing measures of one kind of thing share a table).
"""

from __future__ import annotations

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter.lab import stats, tables
from meeple.interpreter.lab.simulate import Side, play_row
from tests.conftest import rules

GAME = """
game "Measured"
players 2
option goal = high | low
enum badge = gold | silver
counter coins per player = 0
counter rounds = 0
setup:
    next round
phase round:
    rounds += 1
    for each player in turn_order:
        choose n from [1, 2, 3]:
            coins += n
    if rounds < 3:
        next round
score "Coins": coins
measure "Rounds": rounds
measure "Rich" if goal == high: coins >= 7
measure "Badges held": [gold, silver]
measure "Badges earned": [gold] + ([silver] if coins > 6 else [])
measure "Big takes":
    for each n in [3, 6, 9]:
        if coins >= n:
            add 1
"""


def played(engine, picks):
    """The game played with these option indices, in order."""
    state, _ = engine.start(2, 1)
    for k in picks:
        state, _ = engine.apply(state, k)
    assert engine.decision(state) is None
    return state


def test_measures_count_per_player_at_the_end_and_never_score():
    engine = rules(GAME)
    state = played(engine, [2, 0, 2, 0, 2, 1])  # P1 takes 3 three times (9), P2 1, 1, 2 (4)
    kinds = {}
    got = engine.measures(state, kinds)
    assert got == {
        "Rounds": [3, 3],
        "Rich": [1, 0],
        "Badges held": [["gold", "silver"], ["gold", "silver"]],
        "Badges earned": [["gold", "silver"], ["gold"]],
        "Big takes": [3, 1],
    }
    assert kinds == {"Badges held": "value", "Badges earned": "value"}
    assert [s["total"] for s in engine.scores(state)] == [9, 4]
    assert all(set(s["breakdown"]) == {"Coins"} for s in engine.scores(state))


def test_a_measure_kept_only_with_its_option():
    engine = rules(GAME, options={"goal": "low"})
    assert "Rich" not in engine.measures(played(engine, [0] * 6))


def test_a_measure_defined_twice_is_an_error():
    with pytest.raises(MeepleError, match='measure "Rounds" is defined twice'):
        rules(GAME + 'measure "Rounds": 1\n')


def test_a_measure_that_is_not_a_number_or_a_list_is_a_located_error():
    engine = rules(GAME.replace('measure "Rounds": rounds', 'measure "Rounds": "many"'))
    with pytest.raises(MeepleError, match='measure "Rounds" must be a whole number'):
        engine.measures(played(engine, [0] * 6))


def test_rows_and_reports_carry_the_measures(tmp_path):
    path = tmp_path / "measured.rules"
    path.write_text(GAME.lstrip())
    rows = [play_row(Side(str(path), 2), seed) for seed in range(1, 31)]
    assert all(r["error"] is None and r["measures"]["Rounds"] == [3, 3] for r in rows)
    summary = stats.summarize(rows)
    assert summary["measures"]["Rounds"]["per_seat"]["mean"] == 3
    [badges] = summary["things"]
    assert badges["kind"] == "value" and badges["measures"] == ["Badges held", "Badges earned"]
    earned_silver = sum(r["measures"]["Badges earned"][s].count("silver") for r in rows for s in range(2))
    assert badges["things"]["silver"]["Badges earned"]["count"] == earned_silver
    assert badges["things"]["gold"]["Badges held"] == {"count": 60, "games": 30}
    text = tables.format_summary(summary)
    assert "Badges earned per Badges held" in text and f"{100 * earned_silver / 60:.1f}%" in text
    c = stats.compare(rows, [{**r, "side": "b"} for r in rows])
    assert c["metrics"]["measure/Rounds"]["diff"] == 0
    assert c["metrics"]["measure/Badges earned/silver"]["group"] == "measure thing"
