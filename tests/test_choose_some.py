"""`choose between LO and HI NAME from LIST:` on its own: a set picked one item at a
time with "done", never every subset as an option."""

from __future__ import annotations

import json

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter import runner
from tests.conftest import rules

GAME = """
game "Pick"
players 2
counter total per player = 0
counter picks per player = 0
setup:
    for each player in turn_order:
        choose between 1 and 2 xs from [5, 6, 7, 6] where xs != 5 or player == 0 "Which numbers?":
            total = sum(xs)
            picks = count(xs)
        otherwise:
            total = -1
"""


def ids(e, s):
    return [o.id for o in e.decision(s).options]


def test_one_item_at_a_time_then_done_once_enough_are_picked():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    assert ids(e, s) == ["5", "6", "7"], "each item once, no 'done' before the first"
    s, events = e.apply(s, "7")
    assert events == [] and ids(e, s) == ["5", "6", "done"] and e.decision(s).actor == 0
    assert json.loads(json.dumps(s)) == s
    s, _ = e.apply(s, "done")
    assert s["vars"]["total/0"] == 7 and s["vars"]["picks/0"] == 1
    assert ids(e, s) == ["6", "7"] and e.decision(s).actor == 1  # `where` leaves out 5 for P2


def test_the_set_closes_by_itself_at_the_most_and_keeps_the_list_order():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "7")
    s, _ = e.apply(s, "5")
    assert s["vars"]["total/0"] == 12 and e.decision(s).actor == 1
    e2 = rules(GAME.replace("total = sum(xs)", "total = xs[0] * 10 + xs[1]"))
    s, _ = e2.start(2, 1)
    s, _ = e2.apply(s, "7")
    s, _ = e2.apply(s, "5")
    assert s["vars"]["total/0"] == 57, "the picked list is in the order of the source"


def test_too_few_items_runs_otherwise():
    e = rules(GAME.replace("choose between 1 and 2", "choose between 3 and 3"))
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "5")
    s, _ = e.apply(s, "6")
    s, _ = e.apply(s, "7")
    assert s["vars"]["total/0"] == 18
    assert s["vars"]["total/1"] == -1 and e.is_terminal(s), "P2 can have only 6 and 7: otherwise"


def test_others_see_how_many_were_picked_not_which():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    s, _ = e.apply(s, "6")
    mine = [v for f in e.view(s, 0)["stack"] for k, v in f[2].items() if k.startswith("$some")]
    theirs = [v for f in e.view(s, 1)["stack"] for k, v in f[2].items() if k.startswith("$some")]
    assert mine == [[6]] and theirs == [["?"]]


def test_it_cannot_be_made_simultaneously():
    with pytest.raises(MeepleError) as err:
        rules("""
game "Bad"
players 2
counter x = 0
setup:
    simultaneously for each player in turn_order:
        choose between 1 and 2 xs from [1, 2, 3]:
            x += count(xs)
""")
    assert "<test>:6:9: error: a `choose between` cannot be made simultaneously" in str(err.value)
    assert "subsets(hand, 1, 3)" in str(err.value)


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_bots_pick_sets(agent):
    e = rules(GAME)
    result = runner.play(e, 2, 4, [agent], "pick")
    assert e.is_terminal(result.state)
    assert all(1 <= result.state["vars"][f"picks/{p}"] <= 2 for p in (0, 1))


def test_a_title_with_braces_is_filled_in():
    e = rules(GAME.replace('"Which numbers?"', '"Which numbers (up to {2 + player})?"'))
    s, _ = e.start(2, 1)
    assert e.decision(s).prompt == "Which numbers (up to 2)?"
    s, _ = e.apply(s, "7")
    assert e.decision(s).prompt == "Which numbers (up to 2)?", "asked again for the next item"
    result = runner.play(e, 2, 3, ["random"], "pick")
    assert "Which numbers (up to 3)?" in result.trace.jsonl()


ZERO = """
game "Zero"
players 1
counter total = -1
setup:
    choose between 0 and 2 xs from ITEMS by 0 "Which, if any?":
        total = sum(xs)
"""


def test_none_to_pick_when_none_are_needed_runs_the_block_with_nothing():
    e = rules(ZERO.replace("ITEMS", "[]"))
    s, _ = e.start(1, 1)
    assert e.is_terminal(s) and s["vars"]["total"] == 0


def test_done_is_offered_at_once_when_none_are_needed():
    e = rules(ZERO.replace("ITEMS", "[4, 5]"))
    s, _ = e.start(1, 1)
    assert ids(e, s) == ["4", "5", "done"]
    s, _ = e.apply(s, "done")
    assert e.is_terminal(s) and s["vars"]["total"] == 0
