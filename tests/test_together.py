"""`together:` one step of the rules: no action at any time is offered, asked or listed inside it,
nor in the effects it runs; and `meeple check` warns where a check can be spent by an action before
what it allows is done."""

from __future__ import annotations

from meeple.dsl.checker import warnings
from meeple.dsl.compiler import apply_variants, compile_ruleset
from meeple.dsl.parser import parse_text
from meeple.interpreter import state as st
from tests.conftest import rules

GAME = """
game "T"
players 2
counter coins per player = 3
counter vp per player = 0
action spend(p) "Spend a coin" when coins[p] > 0:
    coins[p] -= 1
effect pay(p):
    choose n from [1, 2] by p "Inside an effect run together?":
        coins[p] -= 1
setup:
    together:
        choose n from [1, 2] by 0 "Inside?":
            vp[0] += n
        do pay(0)
    choose n from [1, 2] by 0 "After?":
        vp[0] += n
"""


def ids(engine, state):
    return [o.id for o in engine.decision(state).options]


def test_no_action_inside_together_nor_in_the_effects_it_runs():
    e = rules(GAME)
    s, _ = e.start(2, 1)
    assert e.decision(s).prompt == "Inside?" and ids(e, s) == ["1", "2"]
    s, _ = e.apply(s, "1")
    assert e.decision(s).prompt == "Inside an effect run together?" and ids(e, s) == ["1", "2"]
    s, _ = e.apply(s, "2")
    assert e.decision(s).prompt == "After?" and ids(e, s) == ["1", "2", "act:spend"]
    assert all("#together" not in f[2] for f in s["stack"]), "the mark ends with the block"


def test_a_lone_option_inside_is_taken_at_once():
    """Outside, an action makes a one-option choice a decision; inside, nothing is offered."""
    e = rules(GAME.replace('[1, 2] by 0 "Inside?"', '[1] by 0 "Inside?"'))
    s, _ = e.start(2, 1)
    assert e.decision(s).prompt == "Inside an effect run together?"


def test_interrupting_and_requested_actions_wait_too():
    text = GAME.replace("when coins[p] > 0:", "when coins[p] > 0, interrupting:")
    e = rules(text)
    s, _ = e.start(2, 1)
    assert e.decision(s).actor == 0 and e.decision(s).prompt == "Inside?", "P2 is not asked to interrupt"
    s, _ = e.apply(s, "1")
    s, _ = e.apply(s, "1")
    d = e.decision(s)
    assert d.actor == 1 and d.prompt.startswith("Act now"), "after the block, P2 may interrupt"
    e = rules(GAME.replace("when coins[p] > 0:", "when coins[p] > 0, on request:"))
    s, _ = e.start(2, 1)
    assert e.decision(s).requests == []
    s = e.apply(e.apply(s, "1")[0], "1")[0]
    assert [o.id for o in e.decision(s).requests] == ["act:spend"]


def test_the_mark_survives_a_json_round_trip_and_ends_with_a_next():
    e = rules(
        GAME.replace("        do pay(0)\n", "        do pay(0)\n        next play\n")
        + 'phase play:\n    choose n from [1, 2] by 0 "In the phase?":\n        end game\n'
    )
    s, _ = e.start(2, 1)
    s = st.from_json(st.to_json(s))
    assert ids(e, s) == ["1", "2"]
    s = e.apply(e.apply(s, "1")[0], "1")[0]
    assert e.decision(s).prompt == "In the phase?" and "act:spend" in ids(e, s)


def warned(text: str) -> list[str]:
    rs = parse_text(text, "t.rules")
    game = compile_ruleset(rs, {}, [])
    return [
        w.format()
        for w in warnings(game, rs, apply_variants(rs, []))
        if "an action at any time can change" in w.message
    ]


PAYING = """
game "Pay"
players 1
counter gold = 3
counter vp = 0
action spend(p) "Spend gold" when gold > 0:
    gold -= 1
setup:
    if gold >= 2:
        may choose pay from ["pay"] by 0 "Pay 2 gold for a point?":
            gold -= 2
            vp += 1
score "VP": vp
"""


class TestTheWarning:
    def test_a_check_paid_after_a_decision_is_warned_about(self):
        (w,) = warned(PAYING)
        assert w.startswith("t.rules:9:8: warning: an action at any time can change what this checks")
        assert "`spend` changes `gold`" in w and "^^^^^^^^^" in w and "hint: " in w and "together:" in w

    def test_not_inside_together(self):
        fixed = PAYING.replace("    if gold >= 2:\n", "    together:\n     if gold >= 2:\n")
        fixed = fixed.replace("        may choose", "         may choose").replace(
            "            gold -= 2", "             gold -= 2"
        )
        fixed = fixed.replace("            vp += 1", "             vp += 1")
        assert warned(fixed) == []

    def test_not_when_no_action_writes_what_is_checked(self):
        assert warned(PAYING.replace("    gold -= 1\n", "    vp += 0\n")) == []

    def test_not_when_the_block_does_not_pay(self):
        assert warned(PAYING.replace("            gold -= 2\n", "")) == []

    def test_not_inside_an_action(self):
        text = PAYING.replace("setup:\n    if gold", 'action buy(p) "Buy" when vp == 0:\n    if gold')
        assert warned(text + "setup:\n    pass\n") == []

    def test_a_choice_that_checks_again_and_says_what_else_is_not_warned_about(self):
        text = PAYING.replace('may choose pay from ["pay"] by 0', 'may choose pay from ["pay"] where gold >= 2 by 0')
        assert warned(text) == []

    def test_through_functions_effects_and_a_where(self):
        text = """
game "Pay"
players 1
counter gold = 3
counter vp = 0
function rich() = gold >= 2
effect spend_one():
    gold -= 1
action spend(p) "Spend gold" when gold > 0:
    do spend_one()
effect buy():
    choose n from [1, 2] where rich() by 0 "How many?":
        choose m from [1, 2] by 0 "And?":
            gold -= 2
setup:
    do buy()
"""
        (w,) = warned(text)
        assert "t.rules:12:32: warning:" in w  # at `rich()`
