"""Hints: a ruleset's declared progress for bots, parsed, checked, compiled and valued on their own."""

from __future__ import annotations

import pytest

from meeple.dsl import ast
from meeple.dsl.compiler import compile_ruleset
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_text
from meeple.interpreter.engine import Engine

GAME = """game "H"
players 2
option pace = slow | fast
counter coins per player = 0
counter gems per player = 0
setup:
    for each player in turn_order:
        choose n from [1, 2, 3]:
            coins += n
score "Gems": gems
"""


def engine_of(text: str, options: dict | None = None, variants: list | None = None) -> Engine:
    return Engine(compile_ruleset(parse_text(text, "h.rules"), options or {}, variants or []))


def error_of(text: str) -> str:
    with pytest.raises(MeepleError) as info:
        engine_of(text)
    return info.value.format()


class TestParsing:
    def test_a_hint_keeps_its_label_worth_and_expression(self):
        rs = parse_text(GAME + 'hint "Coins toward a gem" worth 2 / 3: coins\nhint "Plain": gems\n', "h.rules")
        first, second = rs.of(ast.HintDecl)
        assert (first.label, first.num, first.den, first.guard) == ("Coins toward a gem", 2, 3, None)
        assert isinstance(first.expr, ast.Name) and first.span.line == 11
        assert (second.num, second.den) == (1, 1)

    def test_a_block_hint_and_a_guarded_hint(self):
        rs = parse_text(GAME + 'hint "Blocky" if pace == fast:\n    if coins > 1:\n        add 5\n', "h.rules")
        (h,) = rs.of(ast.HintDecl)
        assert h.expr is None and h.body and h.guard is not None


class TestChecks:
    def test_an_unknown_name_in_a_hint_is_located(self):
        out = error_of(GAME + 'hint "Coins": coinz\n')
        assert out.startswith("h.rules:11:15: error: unknown name `coinz`") and "did you mean `coins`?" in out

    def test_a_hint_worth_nothing_is_an_error(self):
        out = error_of(GAME + 'hint "Coins" worth 1 / 0: coins\n')
        assert out.startswith('h.rules:11:1: error: hint "Coins" is worth nothing') and "worth 1 / 2" in out

    def test_a_hint_given_twice_is_an_error(self):
        out = error_of(GAME + 'hint "Coins": coins\nhint "Coins": gems\n')
        assert out.startswith('h.rules:12:1: error: hint "Coins" is defined twice')

    def test_a_syntax_error_in_a_hint_is_located(self):
        with pytest.raises(MeepleError) as info:
            parse_text(GAME + 'hint "Coins" worth: coins\n', "h.rules")
        assert info.value.format().startswith("h.rules:11:")


class TestValues:
    def test_hints_are_per_player_and_weighted_but_never_scored(self):
        e = engine_of(GAME + 'hint "Coins toward a gem" worth 1 / 2: coins\nhint "Three": 3\n')
        s, _ = e.start(2, 1)
        s, _ = e.apply(s, 2)  # P1 takes 3 coins
        assert e.hints(s, 0) == {"Coins toward a gem": 1.5, "Three": 3}
        assert e.hints(s, 1) == {"Coins toward a gem": 0, "Three": 3}
        assert e.outlook(s, 0) == 4.5 and e.total(s, 0) == 0
        assert all(set(r["breakdown"]) == {"Gems"} for r in e.scores(s))

    def test_a_guard_on_options_keeps_or_drops_the_hint(self):
        text = GAME + 'hint "Fast coins" if pace == fast: coins\n'
        assert [h.label for h in engine_of(text, {"pace": "fast"}).game.hints] == ["Fast coins"]
        assert engine_of(text).game.hints == []

    def test_a_variant_replaces_a_hint_of_the_same_label(self):
        text = GAME + 'hint "Coins": coins\nvariant greedy:\n    hint "Coins" worth 5: coins\n'
        assert [h.weight for h in engine_of(text, variants=["greedy"]).game.hints] == [5]
        assert [h.weight for h in engine_of(text).game.hints] == [1]

    def test_a_block_hint_adds_its_parts(self):
        e = engine_of(GAME + 'hint "Blocky":\n    for each n in [1, 2]:\n        add n * coins\n')
        s, _ = e.start(2, 1)
        s, _ = e.apply(s, 1)
        assert e.hints(s, 0) == {"Blocky": 6}

    def test_a_rules_error_in_a_hint_names_the_hint(self):
        e = engine_of(GAME + 'hint "Broken": [1, 2][coins]\n')
        s, _ = e.start(2, 1)
        s, _ = e.apply(s, 2)
        with pytest.raises(MeepleError) as info:
            e.hints(s, 0)
        assert "h.rules:11" in info.value.format()
