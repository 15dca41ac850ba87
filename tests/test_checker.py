"""The checker and compile-time errors: every message located, with a hint."""

from __future__ import annotations

import pytest

from meeple.dsl.checker import warnings
from meeple.dsl.compiler import apply_variants, compile_ruleset
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_text

BASE = 'game "C"\nplayers 2\n'


def error_of(text: str) -> str:
    with pytest.raises(MeepleError) as info:
        compile_ruleset(parse_text(text, "c.rules"), {}, [])
    return info.value.format()


def warnings_of(text: str) -> list[str]:
    rs = parse_text(text, "c.rules")
    game = compile_ruleset(rs, {}, [])
    return [w.format() for w in warnings(game, rs, apply_variants(rs, []))]


class TestNames:
    def test_unknown_name_suggests_the_closest(self):
        out = error_of(BASE + "counter score per player = 0\nsetup:\n    let player = 0\n    scor += 1\n")
        assert out.startswith("c.rules:6:5: error: `scor` is not a counter or flag that can be set")
        out = error_of(BASE + "counter score = 0\nsetup:\n    score = scroe + 1\n")
        assert "c.rules:5:13: error: unknown name `scroe`" in out
        assert "hint: did you mean `score`?" in out

    def test_unknown_function_and_wrong_arity(self):
        assert "did you mean `count`?" in error_of(BASE + "counter a = 0\nsetup:\n    a = cuont([1])\n")
        out = error_of(BASE + "counter a = 0\nsetup:\n    a = count([1], [2])\n")
        assert "`count` takes 1 argument, not 2" in out and "c.rules:5:9" in out

    def test_a_misspelled_field_is_found_when_the_rules_load(self, tmp_path):
        (tmp_path / "cards.csv").write_text("id,points\na,1\n")
        path = tmp_path / "c.rules"
        path.write_text(
            BASE + 'component card from "cards.csv":\n    points: int\nzone hand: hand of card\n'
            'setup:\n    move card to hand\nscore "P": sum(c.point for each c in hand)\n'
        )
        from meeple.dsl.parser import parse_file

        with pytest.raises(MeepleError) as info:
            compile_ruleset(parse_file(path), {}, [])
        out = info.value.format()
        assert ":8:16: error: nothing has a field or attribute `point`" in out
        assert "did you mean `points`?" in out

    def test_next_to_a_missing_phase(self):
        out = error_of(BASE + "setup:\n    next mian\nphase main:\n    end game\n")
        assert "c.rules:4:5: error: `next mian`: there is no phase `mian`" in out
        assert "did you mean `main`?" in out

    def test_effect_arity(self):
        out = error_of(BASE + "effect e(a, b):\n    pass\nsetup:\n    do e(1)\n")
        assert "`e` takes 2 argument(s) (a, b), not 1" in out

    def test_per_player_name_without_a_player(self):
        out = error_of(BASE + "counter vp per player = 0\nsetup:\n    vp += 1\n")
        assert "`vp` is kept per player, and no `player` is known here" in out
        assert "hint:" in out

    def test_who_decides(self):
        out = error_of(BASE + "setup:\n    choose x from [1, 2]:\n        pass\n")
        assert "who decides here?" in out


class TestDefinitions:
    def test_duplicate_definitions(self):
        out = error_of(BASE + "counter a = 0\nflag a = false\n")
        assert "c.rules:4:1: error: `a` is already defined (as a counter on line 3)" in out

    def test_missing_game_line(self):
        out = error_of("players 2\n")
        assert "the ruleset has no `game` line" in out

    def test_bad_player_range(self):
        assert "players must be a range" in error_of('game "C"\nplayers 4..2\n')

    def test_reserved_names(self):
        assert "`player` is a built-in name" in error_of(BASE + "counter player = 0\n")

    def test_types(self):
        assert "flag `f` starts as true or false" in error_of(BASE + "flag f = 3\n")
        assert "counter `c` starts as a whole number" in error_of(BASE + "counter c = true\n")
        out = error_of(BASE + "enum e = a | b\ngrid g: 2 x 2 of f\n")
        assert "which is not an enum" in out and "c.rules:4:1" in out

    def test_zone_of_unknown_component(self):
        assert "which is not a component" in error_of(BASE + "zone z: pile of cardz\n")

    def test_score_rules_cannot_change_the_game(self):
        out = error_of(BASE + 'counter a = 0\nscore "S":\n    a += 1\n')
        assert "a score rule can only use let, for each, if and add" in out

    def test_data_file_outside_the_folder(self, tmp_path):
        (tmp_path / "g.rules").write_text(BASE + 'component c from "../x.csv":\n    v: int\n')
        from meeple.dsl.parser import parse_file

        with pytest.raises(MeepleError) as info:
            compile_ruleset(parse_file(tmp_path / "g.rules"), {}, [])
        assert "outside the ruleset's folder" in info.value.format()

    def test_bad_data_row_points_at_the_data_file(self, tmp_path):
        (tmp_path / "c.csv").write_text("id,v\na,1\nb,two\n")
        (tmp_path / "g.rules").write_text(BASE + 'component c from "c.csv":\n    v: int\n')
        from meeple.dsl.parser import parse_file

        with pytest.raises(MeepleError) as info:
            compile_ruleset(parse_file(tmp_path / "g.rules"), {}, [])
        assert info.value.format().startswith(f"{tmp_path / 'c.csv'}:3:1: error: field `v` must be a whole number")


class TestWarnings:
    def test_unreachable_phase_and_unused_things(self):
        out = warnings_of(
            BASE + "counter unused = 0\nsetup:\n    next a\nphase a:\n    end game\nphase b:\n    end game\n"
        )
        assert any("phase `b` can never be reached" in w and "warning:" in w for w in out)
        assert any("counter `unused` is never used" in w for w in out)

    def test_a_clean_ruleset_has_no_warnings(self):
        assert (
            warnings_of(
                BASE
                + "counter a = 0\nsetup:\n    a += 1\n    next a_phase\nphase a_phase:\n    end game\n".replace(
                    "a_phase", "play"
                )
            )
            == []
        )
