"""Expressions compiled to generated Python source (dsl/compile_source.py) behave exactly like
their closures: same games, same options, events and scores, and the same errors."""

from __future__ import annotations

import pytest

from meeple.dsl import compile_source, source_calls
from meeple.dsl.errors import MeepleError
from meeple.interpreter import rng
from meeple.interpreter.engine import Engine
from tests.conftest import rules, shipped

GAMES = [
    ("queens_wishes", 4, 21),
    ("wild_gardens", 2, 22),
    ("apothebakery", 4, 23),
    ("mudcake_fair", 3, 24),
    ("tic_tac_toe", 2, 25),
    ("connect_four", 2, 26),
    ("breakthrough", 2, 27),
]


def played(engine: Engine, players: int, seed: int) -> list:
    """Every decision's options (ids), the events of each step and the final scores of a random game."""
    picker = {"rng": rng.seed_state(seed)}
    state, events = engine.start(players, seed)
    out = [events]
    while (d := engine.decision(state)) is not None:
        out.append([o.id for o in d.options])
        state, events = engine.apply(state, rng.below(picker, len(d.options)))
        out.append(events)
    return out + [engine.scores(state), state]


@pytest.mark.parametrize("name, players, seed", GAMES)
def test_generated_and_closure_games_are_the_same(monkeypatch, name, players, seed):
    fast = played(shipped(name), players, seed)
    monkeypatch.setattr(compile_source, "ENABLED", False)
    slow = played(shipped(name), players, seed)
    assert fast == slow


def test_expressions_and_functions_are_generated():
    engine = shipped("breakthrough")
    op = next(op for b in engine.game.blocks for op in b.ops if type(op).__name__ == "ChooseFrom")
    assert op.where.__code__.co_filename == "<rules: generated expression>"
    e = rules("""
game "F"
players 2
counter a = 0
function fact(n) = 1 if n <= 1 else n * fact(n - 1)
function twice(x) = x + x
setup:
    let b = 2
    a = fact(5) + twice(b)
    end game
score "S": a
""")
    state, _ = e.start(2, 1)
    assert e.scores(state)[0]["total"] == 124
    # fact calls itself with `n - 1`, so it is a generated function; twice(b) is written in place
    assert set(e.game.cache[("source", "functions")]) == {"fact"}


ERROR_RULES = """
game "E"
players 2
counter a = 0
function pick(xs, i) = xs[i] + 1
setup:
    a = count(each x in [1, 2, 3] where pick([10, 20], x) > 0)
    end game
"""


def test_an_error_in_generated_code_is_the_closures_error(monkeypatch):
    messages = []
    for enabled in (True, False):
        monkeypatch.setattr(compile_source, "ENABLED", enabled)
        with pytest.raises(MeepleError) as info:
            rules(ERROR_RULES).start(2, 1)
        messages.append(info.value.format())
    assert messages[0] == messages[1]
    assert "no item 2 in [10, 20]" in messages[0]


PLUS_RULES = """
game "P"
players 2
counter a = 0
value xs = [1, 2]
function f(x) = count(xs) + x
setup:
    a = f(3) + f(ARG)
    end game
score "S": a
"""


def test_a_number_added_to_anything_is_a_plain_plus(monkeypatch):
    """PLUS stops a list built past its limit, which takes a list on both sides: with a number on
    one side the generated code adds in place, with the closure's value or its error."""
    made: list[str] = []
    build = compile_source._build
    monkeypatch.setattr(compile_source, "_build", lambda source, c, n: made.append(source) or build(source, c, n))
    state, _ = rules(PLUS_RULES.replace("ARG", "a")).start(2, 1)
    assert state["vars"]["a"] == 7
    assert any("(len(S['vars']['xs']) + " in source for source in made), made
    assert not any("PLUS(len(" in source for source in made), made
    messages = []
    for enabled in (True, False):
        monkeypatch.setattr(compile_source, "ENABLED", enabled)
        with pytest.raises(MeepleError) as info:
            rules(PLUS_RULES.replace("ARG", "xs")).start(2, 1)
        messages.append(info.value.format())
    assert messages[0] == messages[1]


COUNT_RULES = """
game "C"
players 2
counter a = 0
counter b = 0
value xs = [1, 2, 1, 3]
value none_here = []
setup:
    let ys = xs
    a = count(each x in xs where x == 1) * 10 + count(each x in xs where ys[3] == x)
    b = count(each x in none_here where x == ys[9])
    end game
score "S": a + b
"""


def test_a_count_of_equal_items_is_the_loops_count(monkeypatch):
    """`count(each x in XS where x == V)` as the list's own count: the loop's value, and over an
    empty list a V that would fail is never the error (the closure's loop never asked it)."""
    values = []
    for counts, enabled in ((True, True), (False, True), (True, False)):
        monkeypatch.setattr(source_calls, "COUNTS", counts)
        monkeypatch.setattr(compile_source, "ENABLED", enabled)
        state, _ = rules(COUNT_RULES).start(2, 1)
        values.append((state["vars"]["a"], state["vars"]["b"]))
    assert values == [(21, 0)] * 3


@pytest.mark.parametrize("name, players, seed", [("apothebakery", 4, 23), ("wild_gardens", 2, 22)])
def test_counts_of_equal_items_and_their_loops_play_the_same(monkeypatch, name, players, seed):
    fast = played(shipped(name), players, seed)
    monkeypatch.setattr(source_calls, "COUNTS", False)
    assert played(shipped(name), players, seed) == fast


def test_a_roll_is_never_run_twice():
    """Generated code runs an expression again (as its closure) when it fails: never one that rolls."""
    e = rules("""
game "R"
players 2
counter a = 0
function die() = roll([1, 2, 3, 4, 5, 6])
function twice() = die() + die()
function calm(x) = x + 1
setup:
    a = twice() + calm(1)
    a = calm(a) * 2
    end game
""")
    assert compile_source.unrepeatable_functions(e.game) == {"die", "twice"}
    fused = e.game.blocks[0].ops[0]
    consts = fused.fn.__globals__
    first, second = consts["k0"].__closure__, consts["k1"].__closure__
    kinds = [
        any(
            getattr(c.cell_contents, "__code__", None) is not None
            and c.cell_contents.__code__.co_filename == "<rules: generated expression>"
            for c in cl
        )
        for cl in (first, second)
    ]
    assert kinds == [False, True]
    state, events = e.start(2, 3)
    assert len([ev for ev in events if ev["e"] == "roll"]) == 2


@pytest.mark.parametrize(
    "statement",
    [
        "a += [1]",
        "a = b[3]",
        "first_player = [1]",
        "c.mark = x",
        "let n = [1][2]",
        "a += 1\n    a -= none",
        "a = 7\n    a -= 1",
        # conditions written in the fused run: `elif`s nest, a failing condition errs as its closure
        "c.mark = x\n    if all(not d.empty for each d in cells(board)):\n        a = 1\n"
        "    elif any(d.empty for each d in cells(board)):\n        a = 2\n    else:\n        a = 3",
        "if a == 1:\n        a = 1\n    elif a == [1][3]:\n        a = 2",
        # loops that unpack their items: generated, and the closure's error when one does not unpack
        "a = max(p - q for each [p, q] in [[3, 1], [5, 2]])",
        "a = max(p for each [p, q] in [[3, 1], [5]])",
    ],
)
def test_generated_statements_fail_and_work_as_their_closures(monkeypatch, statement):
    text = f"""
game "S"
players 2
enum mark = x | o
grid board: 2 x 2 of mark
counter a = 0, min 0, max 5
counter b per player = 0
setup:
    let c = cells(board)[1]
    {statement}
    end game
score "S": a
"""
    outcomes = []
    for enabled in (True, False):
        monkeypatch.setattr(compile_source, "ENABLED", enabled)
        try:
            state, events = rules(text).start(2, 1)
            outcomes.append((state["vars"], state["grids"], events))
        except MeepleError as exc:
            outcomes.append(exc.format())
    assert "error: unexpected" not in str(outcomes[0])  # the rules parse: the statement itself is tested
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "name, n",
    [
        ("connect_four", 4),
        ("connect_four", 1),
        ("connect_four", 6),
        ("connect_four", 3),
        ("connect_four", 5),
        ("tic_tac_toe", 3),
        ("tic_tac_toe", 2),
        ("breakthrough", 3),
    ],
)
def test_in_a_row_by_shifts_is_in_a_row_line_by_line(name, n):
    from types import SimpleNamespace

    from meeple.interpreter import builtins

    game = shipped(name).game
    size = game.grids["board"].geometry.size
    values = list(game.enums[game.grids["board"].content])
    picker = {"rng": rng.seed_state(n)}
    found = 0
    for _ in range(400):
        cells = [None if rng.below(picker, 3) == 0 else values[rng.below(picker, 2)] for _ in range(size)]
        m = SimpleNamespace(game=game, state={"grids": {"board": {"cells": cells}}})
        for v in values:
            fast, slow = builtins._in_a_row(m, "board", n, v), builtins._in_a_row_slow(m, "board", n, v)
            assert fast == slow, (cells, v)
            found += fast
    assert found > 0 and (n == 1 or found < 800)  # both answers occur


@pytest.mark.parametrize("players, seed", [(4, 31), (1, 32)])
def test_placements_by_corners_are_the_placements_that_fit(monkeypatch, players, seed):
    from meeple.interpreter.boards import placing

    fast = played(shipped("queens_wishes"), players, seed)
    monkeypatch.setattr(placing, "BY_CORNERS", False)
    assert played(shipped("queens_wishes"), players, seed) == fast


@pytest.mark.parametrize("name, players, seed", GAMES[:3] + GAMES[4:6])
def test_chained_and_op_by_op_games_are_the_same(monkeypatch, name, players, seed):
    from meeple.interpreter import machine

    engine = shipped(name)
    assert any(type(op).__name__ == "Fused" and op.then is not None for b in engine.game.blocks for op in b.ops)
    fast = played(engine, players, seed)
    monkeypatch.setattr(machine, "CHAINED", False)
    assert played(shipped(name), players, seed) == fast


def test_a_chained_choice_fails_where_it_is_written(monkeypatch):
    from meeple.interpreter import machine

    text = """
game "C"
players 2
counter n = 0
setup:
    next turn
phase turn:
    let player = first_player
    choose x from [1, 2, 3] where x > n "Which?":
        n = x
    next turn
score "S": n
"""
    outcomes = []
    for chained in (True, False):
        monkeypatch.setattr(machine, "CHAINED", chained)
        engine = rules(text)
        state, _ = engine.start(2, 1)
        with pytest.raises(MeepleError) as failed:
            for _ in range(3):
                state, _ = engine.apply(state, engine.decision(state).options[-1].id)
        outcomes.append(failed.value.format())
    assert "<test>:8:5: error: in phase turn: nothing to choose for `x`" in outcomes[0]
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "title, shown",
    [
        ("Take {n}?", "Take 2?"),
        ("{n} left", "2 left"),
        ("{n}", "2"),
        ("{{{n}}} left", "{2} left"),
        ("{{n}} is {n}", "{n} is 2"),
        ("{n} of {n + 1}", "2 of 3"),
        ("{[n, none]}!", "2, none!"),
    ],
)
def test_titles_with_one_value_read_as_the_joined_text(title, shown):
    """A title with one value in braces is read without the general join (dsl/compile_text.py)."""
    engine = rules(f'''
game "T"
players 2
counter n = 2
setup:
    next turn
phase turn:
    let player = first_player
    choose x from [1, 2] "{title}":
        n = x
    end game
score "S": n
''')
    state, _ = engine.start(2, 1)
    assert engine.decision(state).prompt == shown


@pytest.mark.parametrize("name, players, seed", [GAMES[0], GAMES[2], GAMES[3]])
def test_decks_moved_at_once_and_item_by_item_are_the_same(monkeypatch, name, players, seed):
    from meeple.interpreter.effects import zones

    fast = played(shipped(name), players, seed)
    monkeypatch.setattr(zones, "MANY", 10**9)
    assert played(shipped(name), players, seed) == fast


def test_a_move_of_many_items_fails_or_works_as_item_by_item(monkeypatch):
    """Items repeated or from several zones take the item-by-item way, with its error."""
    import copy
    from types import SimpleNamespace

    from meeple.interpreter.effects import zones

    engine = shipped("mudcake_fair")
    state, _ = engine.start(3, 5)
    held = {k: v for k, v in state["zones"].items() if v}
    big = max(held, key=lambda k: len(held[k]))
    other = next(k for k in held if k != big)
    target = next(k for k, v in state["zones"].items() if k not in (big, other))
    cases = [held[big][:10], held[big][:9] + held[other][:1] + held[big][9:10], held[big][:9] + held[big][:1]]
    said = []
    for items in cases:
        outcomes = []
        for many in (8, 10**9):
            monkeypatch.setattr(zones, "MANY", many)
            m = SimpleNamespace(game=engine.game, state=copy.deepcopy(state), recording=True, events=[], owned=set())
            m.emit = lambda kind, **data: m.events.append((kind, data))
            try:
                zones.move(m, list(items), target)
                outcomes.append((m.state["zones"], m.events))
            except ValueError as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1]
        said.append(outcomes[0])
    assert [type(o) for o in said] == [tuple, tuple, str] and "not in any zone" in said[2]


@pytest.mark.parametrize("name, players, seed", [GAMES[0], GAMES[1], GAMES[2], GAMES[3]])
def test_zones_found_by_the_last_move_and_by_search_are_the_same(monkeypatch, name, players, seed):
    from meeple.interpreter.effects import zones

    fast = played(shipped(name), players, seed)
    monkeypatch.setattr(zones, "REMEMBER", False)
    assert played(shipped(name), players, seed) == fast


def test_a_wrong_guess_of_a_zone_is_searched_past(monkeypatch):
    from meeple.interpreter.effects import zones

    engine = shipped("mudcake_fair")
    state, _ = engine.start(3, 5)
    where = {item: key for key, items in state["zones"].items() for item in items}
    monkeypatch.setattr(zones, "SEEN", {item: "nowhere" for item in where})
    assert all(zones.locate(state, item) == key for item, key in where.items())
    zones.SEEN.update({item: key for item, key in zip(where, reversed(list(where.values())))})
    assert all(zones.locate(state, item) == key for item, key in where.items())


@pytest.mark.parametrize(
    "name, players, seed",
    [g for g in GAMES if g[0] in ("queens_wishes", "wild_gardens", "apothebakery", "mudcake_fair")],
)
def test_draws_written_in_place_and_as_closures_play_the_same(monkeypatch, name, players, seed):
    from meeple.dsl import compile_statements

    fast = played(shipped(name), players, seed)
    monkeypatch.setattr(compile_statements, "DRAWS", False)
    assert played(shipped(name), players, seed) == fast


@pytest.mark.parametrize(
    "statement",
    [
        "draw 2 from deck into hand",
        "draw n from deck into hand",
        "draw 9 from deck into hand[1]",
        "draw 0 from deck into hand",
        "draw -1 from deck into hand",
        "draw [1] from deck into hand",
        "draw 1 from deck into hand[7]",
        "draw 1 from deck into tokens",
        "draw 3 from pile into hand",
        "draw 2 from deck into pile\n        draw 5 from pile into hand",
    ],
)
def test_draws_written_in_place_fail_and_work_as_their_closures(monkeypatch, tmp_path, statement):
    from meeple.dsl import compile_statements

    text = f"""
game "D"
players 2
component card from "cards.csv":
    label "{{id}}"
component token from "tokens.csv":
    label "{{id}}"
zone deck: pile of card, hidden
zone discard: pile of card, public
zone pile: bag of card, hidden, refill from discard
zone hand per player: pile of card, private
zone tokens: pile of token, public
setup:
    move card to deck
    let n = 3
    for each player in turn_order:
        {statement}
    end game
"""
    files = {"cards.csv": "id\n" + "\n".join(f"c{i}" for i in range(6)) + "\n", "tokens.csv": "id\nt1\n"}
    outcomes = []
    for on in (True, False):
        monkeypatch.setattr(compile_statements, "DRAWS", on)
        try:
            engine = rules(text, tmp_path, files=files)
            state, events = engine.start(2, 1)
            outcomes.append((state["zones"], events))
        except MeepleError as exc:
            outcomes.append(exc.format())
    # The rules load: what is tested is the statement (run, or failing where it is written).
    assert isinstance(outcomes[0], tuple) or "error: in setup" in outcomes[0]
    assert outcomes[0] == outcomes[1]
