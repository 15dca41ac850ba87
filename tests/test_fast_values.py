"""Totals, outlooks, places and rankings added up on one machine without the breakdown dicts
(scoring.FAST_VALUES) against the long way through `breakdown` and `hints`: the same values,
the same errors, and bots that value positions by them choosing the same options."""

from __future__ import annotations

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter import rng, scoring
from meeple.interpreter.agents.mcts import MctsAgent
from meeple.interpreter.agents.rollout import RolloutAgent
from tests.conftest import rules, shipped
from tests.helpers import both_ways

GAMES = [
    ("queens_wishes", 4, 41),
    ("wild_gardens", 2, 42),
    ("apothebakery", 4, 43),
    ("mudcake_fair", 3, 44),
    ("tic_tac_toe", 2, 45),
    ("connect_four", 2, 46),
    ("breakthrough", 2, 47),
]


def values(engine, players: int, seed: int) -> list:
    """A random game played quietly: on each state, what bots ask of the score rules."""
    picker = {"rng": rng.seed_state(seed)}
    state, _ = engine.start(players, seed)
    out = []
    while True:
        out.append(
            [
                [engine.total(state, p) for p in range(players)],
                engine.totals(state),
                [engine.outlook(state, p) for p in range(players)],
                engine.places(state),
            ]
        )
        n = engine.option_count(state)
        if n == 0:
            return out + [engine.ranking(state), engine.ranking(state, [])]
        state, _ = engine.apply(state, rng.below(picker, n), events=False)


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_fast_and_long_values_are_the_same(monkeypatch, name, players, seed):
    engine = shipped(name)
    outcomes = both_ways(monkeypatch, scoring, "FAST_VALUES", lambda on: values(engine, players, seed))
    assert outcomes[0] == outcomes[1]
    places = outcomes[0][-3][3]  # the last state's places, as the ranking gives them
    assert places == [next(r["place"] for r in outcomes[0][-2] if r["player"] == p) for p in range(players)]


def decisions(engine, players: int, seed: int, make, moves: int) -> list:
    """The options a bot takes in the first `moves` decisions of a game (fixed seeds)."""
    state, _ = engine.start(players, seed)
    taken = []
    for _ in range(moves):
        decision = engine.decision(state)
        if decision is None:
            break
        agent = make(engine, decision.actor, seed + len(taken))
        k = agent.choose(engine.view(state, decision.actor), decision)
        taken.append(decision.options[k].id)
        state, _ = engine.apply(state, k)
    return taken


@pytest.mark.parametrize(
    "name, players, moves",
    [("tic_tac_toe", 2, 9), ("connect_four", 2, 8), ("queens_wishes", 2, 4), ("mudcake_fair", 3, 4)],
)
def test_bots_choose_the_same_with_fast_values_or_not(monkeypatch, name, players, moves):
    engine = shipped(name)
    for make in (
        lambda e, s, seed: MctsAgent(e, s, seed, iterations=60),
        lambda e, s, seed: RolloutAgent(e, s, seed, guesses=2),
    ):
        outcomes = both_ways(monkeypatch, scoring, "FAST_VALUES", lambda on: decisions(engine, players, 5, make, moves))
        assert outcomes[0] == outcomes[1] and len(outcomes[0]) >= 4


ODD_RULES = """
game "O"
players 3
counter c per player = 0
setup:
    end game
score "S": SCORE
score "T": 2
hint "H" worth 3 / 2: HINT
hint "H2" worth 1 / 10: 3
TIEBREAK
"""


@pytest.mark.parametrize(
    "score, hint, tiebreak",
    [
        ("c", "c", ""),
        ("1 if c == 0 else 2", "c", "tiebreak: fewest c"),
        ("c == 0", "c", ""),
        ('"text"', "c", ""),
        ("[1, 2][c + 5]", "c", ""),
        ("1000000 * 1000000 * 1000000", "c", ""),
        ("c", "[1][c + 3]", ""),
        ("c", "c", "tiebreak: most [1][c + 2]"),
        ("0 - player", "1 - player", ""),
    ],
)
def test_odd_and_failing_rules_come_out_the_same_both_ways(monkeypatch, score, hint, tiebreak):
    text = ODD_RULES.replace("TIEBREAK", tiebreak).replace("SCORE", score).replace("HINT", hint)

    def run(_):
        engine = rules(text)
        state, _ = engine.start(3, 1)
        out = []
        for ask in (
            lambda: engine.totals(state),
            lambda: [engine.total(state, p) for p in range(3)],
            lambda: [engine.outlook(state, p) for p in range(3)],
            lambda: engine.places(state),
            lambda: engine.ranking(state),
        ):
            try:
                out.append(ask())
            except MeepleError as exc:
                out.append(exc.format())
        return out

    outcomes = both_ways(monkeypatch, scoring, "FAST_VALUES", run)
    assert outcomes[0] == outcomes[1]


def test_the_fast_way_needs_no_breakdown(monkeypatch):
    engine = shipped("queens_wishes")
    state, _ = engine.start(4, 3)
    expected = [engine.total(state, p) for p in range(4)]
    monkeypatch.setattr(engine, "breakdown", lambda *a: pytest.fail("went the long way"))
    assert engine.totals(state) == expected and engine.places(state) == [1, 1, 1, 1]
    assert engine.outlook(state, 0) == expected[0]  # no mushrooms yet: the hint adds nothing


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_cell_loops_and_the_long_way_play_and_value_the_same(monkeypatch, name, players, seed):
    from meeple.dsl import source_calls
    from tests.test_valuation import valued

    outcomes = both_ways(monkeypatch, source_calls, "CELL_LOOPS", lambda on: valued(shipped(name), players, seed))
    assert outcomes[0] == outcomes[1]


def test_cell_loops_are_what_the_garden_rules_run(monkeypatch):
    from meeple.dsl import source_calls

    def names(on):
        return sorted(
            n
            for r in shipped("queens_wishes").game.scores
            for n in r.fn.__code__.co_names
            if n in ("zip", "REPEAT", "GROUP_COUNT")
        )

    on, off = both_ways(monkeypatch, source_calls, "CELL_LOOPS", names)
    # rows and columns; cells and lines (the empty spaces' groups are counted from flags)
    assert on == ["REPEAT"] * 2 + ["zip"] * 4 and off == ["GROUP_COUNT"]


CELL_RULES = """
game "C"
players 2
enum mark = x | o
grid board per player: 2 x 3 of mark
setup:
    for each c in cells(board[0]) where c.col != 2:
        c.mark = x
    for each c in cells(board[1]) where c.row == 2 and c.col > 1:
        c.mark = o
    end game
score "S": SCORE
"""


@pytest.mark.parametrize(
    "score, total",
    [
        ("count(each c in cells(board) where c.mark == x) + 10 * count(each c in cells(board) where c.empty)", None),
        ("sum(c.row * 10 + c.col for each c in cells(board) where c.mark != none)", None),
        ("count(each r in rows(board) where any(c.empty for each c in r))", None),
        ("sum(count(each c in col where c.mark == o) for each col in columns(board))", None),
        ("sum(c.mark for each c in cells(board))", None),
        ("sum(r[5].mark == x for each r in rows(board))", None),
        ("count(each c in cells(board) where [1][c.col])", None),
    ],
)
def test_cell_loops_odd_rules_come_out_the_same(monkeypatch, score, total):
    from meeple.dsl import source_calls

    def run(_):
        engine = rules(CELL_RULES.replace("SCORE", score))
        state, _ = engine.start(2, 1)
        return engine.scores(state)

    outcomes = both_ways(monkeypatch, source_calls, "CELL_LOOPS", run)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("rows, cols", [(3, 3), (6, 8), (1, 9), (9, 1), (7, 7), (10, 12)])
def test_groups_counted_as_bitmasks_and_cell_by_cell_are_the_same(monkeypatch, rows, cols):
    import random

    from meeple.interpreter.boards import grid as gridlib

    geometry = gridlib.Geometry.square(rows, cols)
    pick = random.Random(rows * 100 + cols)
    sets = [[["g", i] for i in pick.sample(range(rows * cols), pick.randint(0, rows * cols))] for _ in range(400)]
    sets += [[["g", i] for i in range(rows * cols)] * 2, [["g", -1]] + [["g", i] for i in range(rows * cols)]]
    flags = [[i in {c[1] for c in cells} for i in range(rows * cols)] for cells in sets[:400]]

    def counts(on):
        return [gridlib.group_count(cells, geometry) for cells in sets]

    on, off = both_ways(monkeypatch, gridlib, "MASKS", counts)
    assert on == off and max(on) >= 3
    masks = gridlib.square_masks(geometry)
    assert [gridlib.flagged_group_count(masks, f) for f in flags] == off[:400]


def test_rank_utility_counts_as_the_formula_says():
    import random

    from meeple.interpreter.agents.mcts import rank_utility

    pick = random.Random(5)
    for _ in range(300):
        keys = [pick.randint(-3, 3) for _ in range(pick.randint(2, 6))]
        n = len(keys)
        assert rank_utility(keys) == [
            1 - (sum(1 for x in keys if x > k) + (sum(1 for x in keys if x == k) - 1) / 2) / (n - 1) for k in keys
        ], keys
