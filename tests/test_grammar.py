"""The grammar, the parser and syntax errors."""

from __future__ import annotations

import pytest

from meeple.dsl import ast
from meeple.dsl.compiler import shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import GRAMMAR, ToAst, _lark, parse_file, parse_text
from tests.conftest import SHIPPED


def test_every_alias_has_a_handler():
    """One alias, one transformer method (STYLE 1-2): no alias is silently left as a tree."""
    needed = set()
    for rule in _lark().rules:
        name = str(rule.alias or rule.origin.name)
        kept = [
            x
            for x in rule.expansion
            if not x.name.startswith("_") and not (x.is_term and getattr(x, "filter_out", False))
        ]
        inlined = rule.options.expand1 and len(kept) == 1 and not rule.alias
        if not inlined and not name.startswith("_"):
            needed.add(name)
    missing = sorted(n for n in needed if not hasattr(ToAst, n))
    assert missing == []
    assert GRAMMAR.read_text().startswith("//")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_rulesets_parse(name):
    rs = parse_file(shipped_rulesets()[name])
    assert rs.of(ast.GameDecl)


def parse_error(text: str) -> str:
    with pytest.raises(MeepleError) as info:
        parse_text(text, "bad.rules")
    return info.value.format()


class TestSyntaxErrors:
    def test_missing_colon_points_at_the_line_and_hints(self):
        out = parse_error('game "G"\nplayers 2\nphase main\n    end game\n')
        assert out.startswith("bad.rules:3:")
        assert "error:" in out and "phase main" in out and "^" in out
        assert "hint: a block header ends with `:`" in out

    def test_unexpected_character(self):
        out = parse_error("game 'G'\n")
        assert out.startswith("bad.rules:1:6: error: unexpected character `'`")
        assert "hint: text goes in double quotes" in out

    def test_bad_dedent(self):
        out = parse_error('game "G"\nplayers 2\nphase main:\n        log "a"\n    log "b"\n')
        assert out.startswith("bad.rules:5:1: error:")

    def test_truncated_file(self):
        out = parse_error('game "G"\nplayers 2\nphase main:\n')
        assert "error: the file ends in the middle of a definition" in out

    def test_caret_sits_under_the_token(self):
        out = parse_error('game "G"\nplayers 2..\n')
        lines = out.splitlines()
        assert lines[0].startswith("bad.rules:2:")
        assert lines[1] == "    players 2.."
        col = int(lines[0].split(":")[2])
        assert lines[2].index("^") == 4 + col - 1


class TestAst:
    def test_choose_with_where_by_and_otherwise(self):
        rs = parse_text("""game "G"
players 2
zone pile: pile of card
phase main:
    choose c from pile where c.value > 2 by first_player:
        log "x"
    otherwise:
        end game
""")
        phase = rs.of(ast.PhaseDecl)[0]
        choose = phase.body[0]
        assert isinstance(choose, ast.Choose)
        assert choose.var == "c" and choose.where is not None and choose.by is not None
        assert isinstance(choose.otherwise[0], ast.EndGame)
        assert choose.span.line == 5

    def test_choose_with_by_only(self):
        rs = parse_text('game "G"\nplayers 2\nphase main:\n    choose x from [1, 2] by first_player:\n        pass\n')
        choose = rs.of(ast.PhaseDecl)[0].body[0]
        assert choose.where is None and isinstance(choose.by, ast.Name)

    def test_expressions_keep_precedence(self):
        rs = parse_text('game "G"\nplayers 2\ncounter x = 1 + 2 * 3\n')
        init = rs.of(ast.CounterDecl)[0].init
        assert isinstance(init, ast.BinOp) and init.op == "+"
        assert isinstance(init.right, ast.BinOp) and init.right.op == "*"

    def test_only_names_can_be_assigned(self):
        with pytest.raises(MeepleError) as info:
            parse_text('game "G"\nplayers 2\nphase p:\n    3 = 4\n', "a.rules")
        assert "only a name" in info.value.format()


def test_a_keyword_used_as_a_name_gets_a_hint():
    out = parse_error('game "G"\nplayers 1\nsetup:\n    end = 3\n')
    assert "hint: `end` is a word of the language and cannot be a name" in out
