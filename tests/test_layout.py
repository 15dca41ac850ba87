"""The `layout` block: parsed, checked with a location and a hint, compiled into the view the
table sends, and left out of the game's digest (saves and learned models stay valid)."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from meeple.cli import load
from meeple.dsl import ast
from meeple.dsl.compile_page import without_layout
from meeple.dsl.compiler import compile_ruleset, load_game, shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_text
from meeple.interpreter.fingerprint import fingerprint

BASE = """game "Stalls"
players 2
enum suit = gold | jade
enum stall = left "left stall" | right
grid field: 2 x 2 of suit
counter coins per player = 3, label "{player}'s coins"
counter sold per stall = 0
counter round = 0
flag done = false
setup:
    pass
phase play:
    end game
"""


def compile_text(layout: str):
    return compile_ruleset(parse_text(BASE + layout, "stalls.rules"), {}, [])


def error(layout: str) -> str:
    with pytest.raises(MeepleError) as info:
        compile_text(layout)
    return info.value.format()


def test_a_layout_compiles_into_areas_rows_columns_and_colours():
    game = compile_text(
        'layout:\n    area "Middle":\n        field, round\n        columns per stall "Stall {stall}": sold\n'
        '    player:\n        coins track 0..9\n    others: coins\n    colours suit: gold = "#f4d35e"\n'
    )
    page = game.page
    assert page["areas"][0]["title"] == "Middle"
    assert [i["name"] for i in page["areas"][0]["rows"][0]["items"]] == ["field", "round"]
    columns = page["areas"][0]["rows"][1]
    assert (
        columns["columns"] == "stall" and columns["values"] == ["left", "right"] and columns["title"] == "Stall {stall}"
    )
    assert columns["labels"] == ["left stall", "right"]  # the column titles say each value as people read it
    assert page["player"][0]["items"][0] == {"name": "coins", "what": "counter", "title": "Coins", "track": [0, 9]}
    assert page["others"][0]["name"] == "coins"
    assert page["colours"]["suit"]["gold"] == "#f4d35e" and page["colours"]["suit"]["jade"].startswith("#")


def test_a_ruleset_without_a_layout_keeps_the_generic_page():
    assert compile_text("").page is None
    assert load_game(shipped_rulesets()["mudcake_fair"]).page is None


@pytest.mark.parametrize(
    "layout,message,hint",
    [
        (
            'layout:\n    area "A":\n        feild\n',
            "`feild`, which is not a zone, counter, grid or board",
            "did you mean `field`?",
        ),
        ('layout:\n    area "A":\n        coins\n', "`coins` is kept per player", ""),
        ("layout:\n    player:\n        round\n", "`round` is not kept per player", "area"),
        ('layout:\n    area "A":\n        columns per stall: round\n', "`round` is not kept per `stall`", "per stall"),
        ('layout:\n    area "A":\n        columns per stal: sold\n', "`stal` is not an enum", "did you mean `stall`?"),
        ('layout:\n    area "A":\n        done track 0..1\n', "only a counter is drawn as a track", "drop"),
        ('layout:\n    colours suit: gold = "yellow"\n', "`yellow` is not a colour", "#rrggbb"),
        ('layout:\n    colours suit: silver = "#ffffff"\n', "`silver` is not a value of `suit`", ""),
        ("layout:\n    face tile: name\n", "`tile` is not a component", ""),
    ],
)
def test_a_wrong_layout_is_an_error_at_its_place(layout, message, hint):
    out = error(layout)
    assert out.startswith("stalls.rules:") and "error:" in out and message in out and "^" in out, out
    assert hint in out, out


def crates(tmp_path):
    """The stalls ruleset with a crate component (suit, price, note) from a CSV file: its text and
    where to write it."""
    (tmp_path / "crates.csv").write_text("id,name,suit,price,note\nc1,Crate,gold,2,fragile\nc2,Box,jade,0,\n")
    rules = BASE.replace(
        "grid field",
        'component crate from "crates.csv":\n    suit: suit\n    price: int\n    note: text\n'
        "zone offer: pile of crate\ngrid field",
    )
    return rules, tmp_path / "stalls.rules"


def test_a_face_names_only_fields_of_its_component(tmp_path):
    rules, path = crates(tmp_path)
    path.write_text(rules + 'layout:\n    face crate "{name} ({suit})": "costs {prise}"\n')
    with pytest.raises(MeepleError) as info:
        load_game(path)
    out = info.value.format()
    assert ":" in out and "`prise`, which is not a field of `crate`" in out and "did you mean `price`?" in out
    path.write_text(
        rules + 'layout:\n    face crate "{name} ({suit})": "costs {price}", suit, note, colour suit\n'
        '    colours suit: gold = "#f4d35e"\n'
    )
    game = load_game(path)
    assert game.page["faces"]["c1"] == {
        "lines": ["costs 2", "gold", "fragile"],
        "title": "Crate (gold)",
        "colour": "#f4d35e",
        "mark": "gold",
    }
    assert game.page["faces"]["c2"]["lines"] == ["costs 0", "jade"]  # an empty field gives no line
    path.write_text(rules + "layout:\n    face crate: price, colour price\n")
    with pytest.raises(MeepleError) as info:
        load_game(path)
    assert "not a field holding an enum value" in info.value.format()


def test_a_face_line_when_a_field_is_set_shows_only_on_the_cards_that_have_it(tmp_path):
    rules, path = crates(tmp_path)
    path.write_text(
        rules + 'layout:\n    face crate: "costs {price}" when price, "handle with care" when note, price\n'
    )
    faces = load_game(path).page["faces"]
    assert faces["c1"]["lines"] == ["costs 2", "handle with care", "price 2"]
    assert faces["c2"]["lines"] == ["price 0"]  # a zero and an empty field: their `when` lines are left out
    path.write_text(rules + 'layout:\n    face crate: "costs {price}" when prise\n')
    with pytest.raises(MeepleError) as info:
        load_game(path)
    out = info.value.format()
    assert out.startswith(f"{path}:20:38: error:") and "`when prise`, which is not a field of `crate`" in out, out
    assert "^^^^^" in out and "did you mean `price`?" in out, out


def test_the_apothebakery_forries_say_iridescent_only_when_they_are():
    game = load_game(shipped_rulesets()["apothebakery"])
    faces = {cid: game.page["faces"][cid]["lines"] for cid in game.kinds["forrie"]}
    assert faces["f-plant-01"] == ["stamina 1, strength 1"]
    assert faces["f-plant-iri"] == ["stamina 0, strength 0", "Iridescent"]
    assert not any("iridescent 0" in " ".join(lines).lower() for lines in faces.values())


def test_the_digest_leaves_the_layout_out():
    source = (
        BASE + '\nlayout:\n    area "A":\n        round\n\n    # a comment in the block\n    player:\n        coins\n'
    )
    rs = parse_text(source, "x.rules")
    assert without_layout(source, rs.of(ast.PageDecl)) == BASE
    assert compile_text('\nlayout:\n    area "A":\n        round\n').digest == compile_text("").digest
    # a layout between other definitions goes too; what follows stays
    middle = BASE.replace("setup:", 'layout:\n    area "A":\n        round\nsetup:')
    assert without_layout(middle, parse_text(middle, "x.rules").of(ast.PageDecl)) == BASE
    assert hashlib.sha256(BASE.encode()).hexdigest()[:16] == compile_text("").digest


@pytest.mark.parametrize("name", ["wild_gardens", "apothebakery", "queens_wishes", "connect_four", "kuhn_poker"])
def test_the_shipped_layouts_keep_the_digest_and_the_saves_fingerprint(name, tmp_path):
    """The shipped learned models of The Queen's Wishes check its digest: the layout added at the
    end of its rules leaves the digest the rules' text without the block gives."""
    path = shipped_rulesets()[name]
    game = load_game(path)
    assert game.page["areas"]
    assert "layout" not in fingerprint(path, dict(game.options))
    text = path.read_text(encoding="utf-8")
    copy = tmp_path / "ruleset"
    shutil.copytree(path.parent, copy)
    (copy / path.name).write_text(text[: text.index("\nlayout:\n")], encoding="utf-8")
    assert load_game(copy / path.name).digest == game.digest


def test_the_view_a_table_sends_carries_the_layout():
    from meeple.interpreter.table.model import page_layout, table_picture

    engine = load("apothebakery")
    state, _ = engine.start(2, 3)
    pic = table_picture(engine, engine.view(state, 0))
    assert pic["layout"] == page_layout(engine.game) and "faces" not in pic["layout"]
    columns = pic["layout"]["areas"][0]["rows"][0]
    assert columns["columns"] == "place"
    held = [c for c in pic["counters"] if c["name"] == "hearts"]
    assert held and all(set(c["at"]) == {"place"} for c in held)  # what a column is picked by
    plain = load("mudcake_fair")  # no layout: the generic page
    assert table_picture(plain, plain.view(plain.start(2, 1)[0], 0))["layout"] is None


def test_a_slot_and_a_column_are_captioned_in_the_enum_labels():
    """What a thing is kept per reads as people say it on the page ("left stall"), not its id."""
    from meeple.interpreter.table.model import parts_said

    game = compile_text('layout:\n    area "Middle":\n        columns per stall "{stall}": sold\n')
    spec = game.counters["sold"]
    assert parts_said(game, spec, "sold/left") == "left stall"
    assert parts_said(game, spec, "sold/right") == "right"
    assert game.page["areas"][0]["rows"][0]["labels"] == ["left stall", "right"]
