"""Shortcuts at a decision point (docs/experiments.md, "Speed 2, eighth stint"): each
switch on and off plays the same shipped games - the same options at every decision, the
same events, the same final state and scores - and fails as it fails without the shortcut."""

from __future__ import annotations

import pytest

from meeple.dsl import compile_source, source_text
from meeple.interpreter import rng
from meeple.interpreter.boards import graph
from meeple.interpreter.effects import actions
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped
from tests.helpers import both_ways

GAMES = [
    ("wild_gardens", 4, 61),
    ("wild_gardens", 2, 62),
    ("apothebakery", 4, 63),
    ("apothebakery", 2, 64),
    ("queens_wishes", 4, 65),
    ("tic_tac_toe", 2, 66),
    ("mudcake_fair", 3, 67),
]


def played(engine, players: int, seed: int) -> list:
    """A random game: each decision's actor, options (ids) and the events of the choice; then
    the final state and scores. Every other decision is applied in place, quietly (as bench)."""
    picker = {"rng": rng.seed_state(seed)}
    state, events = engine.start(players, seed)
    out = [events]
    while (d := engine.decision(state)) is not None:
        out.append([d.actor, [o.id for o in d.options]])
        choice = rng.below(picker, len(d.options))
        if len(out) % 2:
            state, events = engine.apply(state, choice)
            out.append(events)
        else:
            engine.apply(state, choice, inplace=True, events=False)
    return out + [copy_state(state), engine.scores(state)]


@pytest.mark.parametrize(
    "module, switch",
    [
        (actions, "PLAN"),
        (compile_source, "KEYS"),
        (graph, "INDEXED"),
        (compile_source, "MENUS"),
        (compile_source, "NAMED"),
    ],
)
@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_decision_point_shortcut_plays_as_without_it(monkeypatch, module, switch, name, players, seed):
    on, off = both_ways(monkeypatch, module, switch, lambda on: played(shipped(name), players, seed))
    assert on == off


FAILING = """
game "F"
players 2
counter coins per player = 1
action buy(p) "Buy" when coins[p] >= [1][coins[p] - 1]:
    coins[p] += 1
setup:
    next round
phase round:
    for each player in turn_order:
        choose n from [1, 2] by player "How many?":
            coins[player] += n
    next round
"""


def test_an_action_test_fails_as_without_the_plan(monkeypatch):
    """A test that fails (an index out of range once coins reach 2) fails at the same line."""

    def run(on):
        engine = rules(FAILING)
        state, _ = engine.start(2, 1)
        for _ in range(6):
            state, _ = engine.apply(state, 0)
        return state

    on, off = both_ways(monkeypatch, actions, "PLAN", run)
    assert on == off and "no item 1 in [1]" in on and on.startswith("<test>:4:")


KEYED = """
game "K"
players 2
enum colour = red | blue | green
counter gems per player per colour = 0
counter n = 0
setup:
    gems[0, blue] = 2
    gems[1, green] = 5
    next round
phase round:
    for each player in turn_order:
        choose c from colour where TEST by player "Which?":
            gems[player, c] += 1
            n += 1
        otherwise:
            end game
    if n > 7:
        end game
    next round
"""


@pytest.mark.parametrize(
    "test",
    [
        "any(gems[player, d] >= 3 for each d in colour) or gems[player, c] < 2",
        "all(gems[player, d] < 4 for each d in colour) and c != red",
        "any(gems[q, d] > 1 for each q in [0, 1] for each d in colour) or c == blue",
        "all(gems[player, d] for each d in []) and any([1][gems[player, d]] > 0 for each d in colour)",
        "any(gems[player, d] == 2 for each d in colour)",
    ],
)
def test_keys_and_written_out_loops_play_and_fail_as_before(monkeypatch, test):
    """Written out `any`/`all` stop at the same item, keep truth as any() and all() do, and fail
    with the same message at the same place (an index out of range in the last rule)."""

    def run(on):
        engine = rules(KEYED.replace("TEST", test))
        state, _ = engine.start(2, 3)
        out = []
        while (d := engine.decision(state)) is not None:
            out.append([o.id for o in d.options])
            state, events = engine.apply(state, len(d.options) - 1)
            out.append(events)
        return out + [state]

    on, off = both_ways(monkeypatch, compile_source, "KEYS", run)
    assert on == off


@pytest.mark.parametrize(
    "parts, values",
    [
        (["E['p']", "'red'"], [{"p": 1}, {"p": "x"}, {"p": True}, {"p": None}, {"p": [1, "a"]}]),
        (["'a'", "E['p']", "E['q']"], [{"p": 0, "q": 1}, {"p": "b", "q": False}]),
        (["'a'", "2", "-3"], [{}]),
    ],
)
def test_a_formatted_key_is_the_key_built_by_parts(parts, values):
    written = source_text.formatted_key("gems", parts)
    built = "('gems/' + " + " + '/' + ".join(f"str({p})" for p in parts) + ")"
    for env in values:
        assert eval(written, {"E": env}) == eval(built, {"E": env})


@pytest.mark.parametrize(
    "parts", [["E['p']"], ["'a b'", "E['p']"], ["E['p'] + '\\\\n'", "1"], ["E['p'] + \"'\"", "1"], ["'{x}'", "E['p']"]]
)
def test_a_key_that_cannot_be_formatted_is_built_as_before(parts):
    assert source_text.formatted_key("gems", parts) is None


BOARD = {
    "spaces": {
        "s": {"tags": ["start"], "areas": ["x"]},
        "a": {"areas": ["x", "y"]},
        "b": {"tags": ["t"]},
        "c": {},
        "d": {"areas": ["y"]},
    },
    "arrows": [["s", "c"], ["s", "a"], ["a", "b"], ["c", "b"], ["b", "d"], ["d", "s"]],
}


@pytest.mark.parametrize(
    "start, steps, blocked",
    [("s", 1, []), ("s", 2, ["a"]), ("s", 3, ["b", "c"]), ("a", 0, []), ("d", 4, ["s"]), ("s", 9, [])],
)
def test_an_indexed_board_moves_and_reads_as_its_graph(monkeypatch, start, steps, blocked):
    board = graph.Board.from_data("p", BOARD)

    def run(on):
        out = [board.reach(start, steps, blocked)] + [[board.areas(s), board.tags(s)] for s in board.order]
        for bad in ("z", None, ["s"]):
            try:
                board.areas(bad)
            except (graph.BoardError, TypeError) as exc:
                out.append(repr(exc))
        return out

    on, off = both_ways(monkeypatch, graph, "INDEXED", run)
    assert on == off
    if (start, steps) == ("s", 1):
        assert on[0] == ["a", "c"]  # in the file's order of spaces, not of arrows


MENU = """
game "M"
players 2
counter coins per player = 0
counter turns = 0
setup:
    next round
phase round:
    turns += 1
    for each player in turn_order:
        choose one by player "What?":
            "Earn" if coins[player] < 3:
                coins[player] += 1
            "Spend" if TEST:
                coins[player] -= 2
            "Pass":
                pass
    if turns > 5:
        end game
    next round
"""


@pytest.mark.parametrize(
    "test",
    ["coins[player] >= 2", "[1, 2][coins[player]] > 1", "coins[player]", "any(coins[q] > 2 for each q in [0, 1])"],
)
def test_a_menus_tests_written_together_list_and_fail_as_each_alone(monkeypatch, test):
    """The entries that hold, in order; an entry's failing test (an index out of range once
    coins reach 2) fails with its own message and line."""

    def run(on):
        engine = rules(MENU.replace("TEST", test))
        menu = next(op for b in engine.game.blocks for op in b.ops if type(op).__name__ == "Menu")
        assert (menu.listed is not None) == on
        state, _ = engine.start(2, 5)
        out = []
        while (d := engine.decision(state)) is not None:
            out.append([o.id for o in d.options])
            state, events = engine.apply(state, 0)
            out.append(events)
        return out + [state]

    on, off = both_ways(monkeypatch, compile_source, "MENUS", run)
    assert on == off
    if test.startswith("[1, 2]"):
        assert "no item 2" in on and on.startswith("<test>:13:")


NAMED_RULES = """
game "N"
players 2
component card from "cards.csv":
    value: int
zone deck: deck of card
zone pile per player: pile of card
counter got per player = 0
function top_value(p) = top(pile[p]).value
function best(p) = any(count(pile[q]) > 0 and top(pile[q]).value > LIMIT for each q in [0, 1] where q != p)
setup:
    move card to deck
    next round
phase round:
    for each player in turn_order:
        choose c from deck where best(player) or top_value(player) == none or c.value > top_value(player) by player "Which card?":
            move c to pile[player]
            got[player] += 1
        otherwise:
            end game
    next round
"""


@pytest.mark.parametrize("limit, fails", [("2", False), ("count(pile[p]) + 1", False), ("[1, 2][top_value(q)]", True)])
def test_named_values_in_functions_read_and_fail_as_closures(monkeypatch, tmp_path, limit, fails):
    """`top` of a zone and a field of it, in the rules' functions (an empty pile's top is none,
    and so is its field); an index out of range fails as without the names."""

    def run(on):
        engine = rules(NAMED_RULES.replace("LIMIT", limit), tmp_path, {"cards.csv": "id,value\na,1\nb,3\nc,2\nd,4\n"})
        state, _ = engine.start(2, 9)
        out = []
        while (d := engine.decision(state)) is not None:
            out.append([o.id for o in d.options])
            state, events = engine.apply(state, len(out) % len(d.options))
            out.append(events)
        return out + [state]

    on, off = both_ways(monkeypatch, compile_source, "NAMED", run)
    assert on == off and isinstance(on, str) == fails
