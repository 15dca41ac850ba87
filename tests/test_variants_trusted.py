"""Variants you can trust: `check` compiles every option value and variant, a variant cannot
silently drop a rule another option made conditional, a designer's variant file lays over a
shipped game, and `compare` holds options fixed or sets one variant against another."""

from __future__ import annotations

import json

from meeple.cli import main
from tests.conftest import ROOT

QW = str(ROOT / "rulesets/queens_wishes/queens_wishes.rules")


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_compiles_every_variant_body(tmp_path, capsys):
    game = tmp_path / "g.rules"
    game.write_text(
        'game "G"\nplayers 2\ncounter n per player = 0\nsetup:\n    for each player in turn_order:\n        n += 1\nscore "N": n\n'
        'variant doubled "Doubled":\n    score "N": 2 * nn\n'
    )
    code, _, err = run(capsys, "check", str(game))
    assert code == 1
    assert f"{game}:9:20: error: unknown" in err and "`nn`" in err
    assert "note: in the game played with --variant doubled" in err


def test_check_compiles_every_option_value(tmp_path, capsys):
    game = tmp_path / "g.rules"
    game.write_text(
        'game "G"\nplayers 2\noption size = small | large\ncounter n per player = 0\n'
        'setup:\n    for each player in turn_order:\n        n += 1\nscore "N": n\nscore "Big" if size == large: n * bogus\n'
    )
    code, _, err = run(capsys, "check", str(game))
    assert code == 1 and "note: in the game played with --option size=large" in err


def test_a_variant_rule_beside_an_options_conditional_rules_is_an_error_naming_both(tmp_path, capsys):
    mine = tmp_path / "mine.rules"
    mine.write_text('variant big_roses "Big roses":\n    score "Roses": 5\n')
    code, _, err = run(capsys, "check", QW, "--variant-file", str(mine))
    assert code == 1
    first = err.splitlines()[0]
    assert first.startswith(f'{mine}:2:5: error: variant `big_roses` defines score "Roses"')
    assert "if `scoring == A` (line" in first and "if `scoring == B` (line" in first


def test_a_variant_may_replace_one_conditional_rule(tmp_path, capsys):
    mine = tmp_path / "mine.rules"
    mine.write_text('variant cheap_chess "Cheap chess":\n    score "Chess pieces" if scoring == A: 0\n')
    code, out, err = run(capsys, "check", QW, "--variant-file", str(mine))
    assert code == 0, err
    code, out, err = run(capsys, "run", "queens_wishes", "--json", "--seed", "3")
    assert code == 0


def test_a_variant_file_holds_only_variants(tmp_path, capsys):
    mine = tmp_path / "mine.rules"
    mine.write_text("# my variants\ncounter extra = 1\n")
    code, _, err = run(capsys, "check", QW, "--variant-file", str(mine))
    assert code == 1 and err.startswith(f"{mine}:2:1: error: a variant file holds only `variant` blocks")


def test_compare_a_variant_file_against_a_shipped_variant_with_an_option_fixed(tmp_path, capsys):
    mine = tmp_path / "mine.rules"
    mine.write_text('variant no_mushrooms "No mushroom points":\n    score "Mushrooms" if scoring == B: 0\n')
    rows = tmp_path / "rows.jsonl"
    code, out, err = run(
        capsys,
        "compare",
        "queens_wishes",
        "--variant-file",
        str(mine),
        "--variant",
        "no_mushrooms",
        "--fixed-option",
        "scoring=B",
        "-n",
        "6",
        "--agents",
        "random",
        "--out",
        str(rows),
    )
    assert code == 0, err
    assert out.startswith("+no_mushrooms against base: 6 games paired by seed (agents: random; both sides: scoring=B)")
    lines = [json.loads(line) for line in rows.read_text().splitlines()]
    assert {r["options"]["scoring"] for r in lines} == {"B"}
    assert all(r["variant_files"] == [str(mine)] for r in lines)
    b = [r for r in lines if r["side"] == "+no_mushrooms"]
    assert all(all(bd.get("Mushrooms", 0) == 0 for bd in r["breakdown"]) for r in b)


def test_compare_one_variant_with_another(capsys):
    code, out, err = run(
        capsys,
        "compare",
        "wild_gardens",
        "--base-variant",
        "keep_it_fresh",
        "--variant",
        "a_different_path",
        "-n",
        "2",
        "--agents",
        "random",
    )
    assert code == 0, err
    assert out.startswith("+a_different_path against +keep_it_fresh: 2 games paired by seed")


def test_compare_refuses_an_option_both_fixed_and_compared(capsys):
    code, _, err = run(
        capsys, "compare", "queens_wishes", "--option", "scoring=B", "--fixed-option", "scoring=A", "-n", "2"
    )
    assert code == 2 and "both fixed and compared" in err
