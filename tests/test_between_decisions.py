"""Shortcuts between two decisions (docs/experiments.md, "Speed 2, eleventh stint"): each
switch on and off plays the shipped games alike - the same actor and options at every
decision, the same events, final state and scores - and small rules fail alike both ways."""

from __future__ import annotations

import pytest

from meeple.dsl import compile_source, op_chains, source_text, state_keys
from meeple.interpreter import machine
from meeple.interpreter.effects import actions
from meeple.interpreter.state import copy_state
from tests.conftest import rules, shipped
from tests.helpers import both_ways
from tests.test_decision_points import GAMES, played

SWITCHES = [
    (actions, "MARKS"),
    (actions, "LONE"),
    (state_keys, "TABLES"),
    (compile_source, "FIELDS"),
    (op_chains, "CHAINS"),
    (source_text, "HOIST"),
    (source_text, "PARTS"),
    (machine, "ARGS"),
]


@pytest.mark.parametrize("module, switch", SWITCHES)
@pytest.mark.parametrize("name, players, seed", GAMES)
def test_a_shortcut_plays_the_shipped_games_as_without_it(monkeypatch, module, switch, name, players, seed):
    on, off = both_ways(monkeypatch, module, switch, lambda on: played(shipped(name), players, seed))
    assert on == off


def walked(engine, players: int, seed: int, states: bool = False) -> list:
    """A game's decisions (actor, option ids, and the state if asked), each choice's events and
    the last state, choosing option `len(record) % options` at each: the same walk both ways."""
    state, _ = engine.start(players, seed)
    out = []
    while (d := engine.decision(state)) is not None:
        out.append([d.actor, [o.id for o in d.options]] + ([copy_state(state)] if states else []))
        state, events = engine.apply(state, len(out) % len(d.options))
        out.append(events)
    return out + [state]


MOMENTS = """
game "Moments"
players 3
counter coins per player = 2
counter hearts = 9
action nudge(p) "Add a heart" when moment() == "heal declared" and coins[p] > [0, 0, 0][TEST], interrupting:
    coins[p] -= 1
    hearts += 1
action wait(p) "Wait" when coins[p] == 1, interrupting:
    coins[p] += 2
setup:
    next round
phase round:
    for each player in turn_order:
        moment "healing turn"
        choose n from [1, 2] "Heal how many hearts?":
            moment "heal declared"
            hearts -= n
    if hearts < 1:
        end game
    next round
"""


# One interrupting action: LONE reads its test and mark with no lists per player.
LONE_MOMENTS = MOMENTS.replace(
    """action wait(p) "Wait" when coins[p] == 1, interrupting:
    coins[p] += 2
""",
    "",
)


@pytest.mark.parametrize("switch, text", [("MARKS", MOMENTS), ("LONE", LONE_MOMENTS)])
@pytest.mark.parametrize("test", ["0", "hearts - 3"])
def test_interrupting_actions_play_and_fail_as_before(monkeypatch, switch, text, test):
    """Two interrupting actions (MARKS) or one (LONE), three players: every state (the "held"
    marks in it) and every prompt to act is the same both ways; a test that fails (an index out
    of range once hearts drop) fails alike."""
    assert LONE_MOMENTS != MOMENTS
    on, off = both_ways(monkeypatch, actions, switch, lambda on: moments_played(text.replace("TEST", test)))
    assert on == off
    if test != "0":
        assert "no item" in on and on.startswith("<test>:5:")
    else:
        assert any(o[1].startswith("Act now") for o in on if isinstance(o, list) and len(o) == 4)


def moments_played(text: str):
    """Three players through 60 decisions: at each, who decides, the prompt, the options and
    the state (its "held" marks), then the events; the final state last."""
    engine = rules(text)
    state, _ = engine.start(3, 5)
    out = []
    for step in range(60):
        if (d := engine.decision(state)) is None:
            break
        out.append([d.actor, d.prompt, [o.id for o in d.options], copy_state(state)])
        state, events = engine.apply(state, step % len(d.options))
        out.append(events)
    return out + [state]


KEYS = """
game "K"
players 2..3
enum colour = red | blue | green
component card from "cards.csv":
    value: int
zone deck: deck of card
zone pile per player per colour: pile of card
counter gems per player per colour = 0
counter seen per card = 0
counter n = 0
function mine(p, c) = gems[p, c] + count(pile[p, c])
setup:
    move card to deck
    gems[0, blue] = 2
    next round
phase round:
    for each player in turn_order:
        choose c from colour where TEST by player "Which?":
            gems[player, c] += 1
            STATEMENT
            if count(deck) > 0:
                seen[top(deck)] += 1
                draw 1 from deck into pile[player, c]
            n += 1
        otherwise:
            end game
    if n > 9:
        end game
    next round
"""


@pytest.mark.parametrize(
    "test, statement",
    [
        ("gems[player, c] < 3", "pass"),
        ("gems[next_player(player), c] < 4 and mine(player, c) < 5", "gems[next_player(player), c] += 1"),
        ("any(gems[player, d] > 2 for each d in colour) or count(pile[player, c]) < 2", "gems[player, blue] += 1"),
        ("all(seen[x] < 2 for each x in deck) and gems[player, red] < 9", "seen[top(deck)] += 1"),
        ("gems[player == 1, c] < 3", "pass"),
        ("gems[player, c] < 3", "gems[n > 2, c] += 1"),
        ("mine(player > 0, c) < 3", "pass"),
        ("gems[player + 3, c] < 3", "pass"),
        ("seen[c] < 3", "pass"),
    ],
)
@pytest.mark.parametrize("generated", [True, False])
def test_keys_found_in_tables_read_write_and_fail_as_built(monkeypatch, tmp_path, test, statement, generated):
    """Keys per player, per enum value and per component, in choices' filters, the rules'
    functions, written-out loops and statements; a player given as true or out of range and
    a component that is not one (none, or an enum's value) fail with the same message at the same line.
    Generated source and the closures (generation off) alike."""
    monkeypatch.setattr(compile_source, "ENABLED", generated)

    def run(on):
        return walked(
            rules(
                KEYS.replace("TEST", test).replace("STATEMENT", statement),
                tmp_path,
                {"cards.csv": "id,value\na,1\nb,3\nc,2\nd,4\ne,5\n"},
            ),
            3,
            4,
        )

    on, off = both_ways(monkeypatch, state_keys, "TABLES", run)
    assert on == off
    # true or 3 as a player, an enum's value or none as a card: no such key (top of an empty deck is none)
    fails = any(t in test + statement for t in ("== 1", "n > 2", "> 0, c", "+ 3", "seen[c]", "seen[top"))
    assert isinstance(on, str) == fails, on


FIELDS = """
game "F"
players 2
enum colour = red | blue
component card from "cards.csv":
    value: int
    colour: colour
component coin from "coins.csv":
    worth: int
zone deck: deck of card
zone pile per player: pile of card
zone purse: pile of coin
counter n = 0
function best(p) = top(pile[p]).value
setup:
    move card to deck
    move coin to purse
    next round
phase round:
    for each player in turn_order:
        choose c from deck where TEST by player "Which card?":
            move c to pile[player]
            n += c.value
        otherwise:
            end game
    next round
"""


@pytest.mark.parametrize(
    "test, fails",
    [
        ("c.value > 1 or best(player) == none", False),
        ("top(pile[player]).colour != c.colour", False),
        ("best(1 - player) == none or c.value >= best(1 - player)", False),
        ("c.worth > 0", True),
        ("top(purse).value > 0", True),
        ("c.colour.value > 0", True),
        ("[c, 2][min(1, n // 3)].value > 0", True),
    ],
)
def test_fields_read_from_tables_alone_read_and_fail_as_before(monkeypatch, tmp_path, test, fails):
    """A field of a component, of none (the top of an empty pile); of a component without it,
    of an enum's value and of a number fail with the same message at the same line."""

    def run(on):
        return walked(
            rules(
                FIELDS.replace("TEST", test),
                tmp_path,
                {
                    "cards.csv": "id,value,colour\na,1,red\nb,3,blue\nc,2,red\nd,4,blue\n",
                    "coins.csv": "id,worth\nx,1\ny,2\n",
                },
            ),
            2,
            7,
        )

    on, off = both_ways(monkeypatch, compile_source, "FIELDS", run)
    assert on == off
    assert isinstance(on, str) == fails, on


LOOPS = """
game "L"
players 2
counter n = 0
counter k per player = 0
effect bump(p):
    k[p] += 1
setup:
    next round
phase round:
    for each player in turn_order:
        let left = 3
        while TEST:
            left -= 1
            n += 1
            if n % 4 == 0:
                do bump(player)
            elif n % 5 == 0:
                choose x from [1, 2] by player "How many?":
                    k[player] += x
            else:
                n += 0
        for each q in turn_order where k[q] > 0:
            choose y from [0, 1] by q "Again?":
                n += y
    if n > 30:
        end game
    next round
"""


@pytest.mark.parametrize(
    "test, fails",
    [
        ("left > 0", False),
        ("left > 0 and [1, 2, 3][left - 1] > 0", False),
        ("[1, 2, 3][left] > 0", True),
        ("left > 0 and [1][n // 20] > 0", True),
    ],
)
def test_jumps_that_run_their_targets_play_and_fail_as_op_by_op(monkeypatch, test, fails):
    """A `while` whose test runs from the jump back, an `if`'s branches jumping past the rest, a
    loop's next item after an effect and a choice; a test that fails from a jump back (an index
    out of range) fails with the same message at the same line."""

    def run(on):
        engine = rules(LOOPS.replace("TEST", test))
        assert any(type(op).__name__ == "JumpOn" for b in engine.game.blocks for op in b.ops) == on
        return walked(engine, 2, 3, states=True)

    on, off = both_ways(monkeypatch, op_chains, "CHAINS", run)
    assert on == off
    assert isinstance(on, str) == fails, on
    if fails:
        assert on.startswith("<test>:12:")  # the `while`


def test_a_loop_that_never_decides_is_still_stopped(monkeypatch):
    """Chains are one op long: the machine's step limit still counts the loop's turns."""

    def run(on):
        engine = rules("""
            game "W"
            players 2
            counter n = 0
            setup:
                next round
            phase round:
                while n >= 0:
                    n += 1
                    if n % 2 == 0:
                        n += 0
                next round
            """)
        engine.start(2, 1)

    on, off = both_ways(monkeypatch, op_chains, "CHAINS", run)
    assert "steps without a decision" in on and "steps without a decision" in off and "<test>:" in on


LOCALS = """
game "H"
players 2
counter n = 0
counter k per player = 0
setup:
    next round
phase round:
    for each player in turn_order:
        let x = n % 4
        choose c from [0, 1, 2, 3] where TEST by player "Which?":
            n += c + 1
            k[player] += x
    if n > 25:
        end game
    next round
"""


@pytest.mark.parametrize(
    "test, fails",
    [
        ("c != x and (x > 1 or c > x) or k[player] > x + c", False),
        ("[1, 2][x] > x or c == x", True),
        ("x == 0 or [9][x - 1] > x", True),
    ],
)
def test_frame_locals_read_once_read_and_fail_as_at_each_read(monkeypatch, tmp_path, test, fails):
    """Frame locals read twice or more in a generated test, read once at its top: the same
    options, and the same message at the same line when a read fails (an index out of range)."""

    def run(on):
        return walked(rules(LOCALS.replace("TEST", test), tmp_path, {}), 2, 3)

    on, off = both_ways(monkeypatch, source_text, "HOIST", run)
    assert on == off
    assert isinstance(on, str) == fails, on


def test_hoisting_reads_each_local_once_and_leaves_writes_alone():
    source = "def e(m):\n    try:\n        E = m.env\n        return E['x'] + E['x'] * E['y']\n"
    assert source_text.hoisted(source) == (
        "def e(m):\n    try:\n        E = m.env\n        e_x = E['x']\n        return e_x + e_x * E['y']\n"
    )
    written = source.replace("return", "E['y'] = 1\n        return")
    assert source_text.hoisted(written) == written
