"""The interpreter is generic: no word that only a shipped game uses appears in dsl/, interpreter/
(including the play table's pages) or cli.py (code, comments or docstrings). The games' own names (their components, zones, phases,
effects, counters, enums and enum values) are collected from the compiled rulesets; the words that
are ordinary board-game or programming vocabulary are listed here, and anything else fails."""

from __future__ import annotations

import re

from meeple.dsl.compiler import compile_ruleset, find_ruleset
from meeple.dsl.parser import parse_file
from tests.conftest import ROOT

GAMES = ["queens_wishes", "wild_gardens", "apothebakery", "mudcake_fair"]

# Names the games use that are also plain words of the engine's own vocabulary.
ORDINARY = {
    "one",
    "two",
    "three",
    "out",
    "left",
    "right",
    "ability",
    "action",
    "area",
    "back",
    "bag",
    "blank",
    "cards",
    "clear",
    "entry",
    "ending",
    "face",
    "failed",
    "final",
    "front",
    "gain",
    "letter",
    "location",
    "offered",
    "order",
    "others",
    "path",
    "place",
    "placed",
    "places",
    "points",
    "process",
    "pure",
    "rest",
    "root",
    "round",
    "round_number",
    "saved",
    "secret",
    "section",
    "refill",
    "serve",
    "side",
    "slot",
    "slots",
    "solo",
    "source",
    "stock",
    "sun",
    "supply",
    "symbol",
    "tied",
    "tile",
    "token",
    "tree",
    "usable",
    "used",
    "card",
    "deck",
    "hand",
    "market",
    "board",
    "turn",
    "score",
    "first",
    "player",
    "players",
}


def game_words(name: str) -> set[str]:
    g = compile_ruleset(parse_file(find_ruleset(name)), {}, [])
    words = (
        set(g.kinds)
        | set(g.zones)
        | set(g.phases)
        | set(g.counters)
        | set(g.effects)
        | set(g.grids)
        | set(g.boards)
        | set(g.tables)
        | set(g.functions)
        | set(g.enums)
    )
    for values in g.enums.values():
        words |= {v for v in values if isinstance(v, str)}
    return {w.lower() for w in words}


def engine_files() -> list:
    return (
        sorted((ROOT / "dsl").glob("*.py"))
        + sorted((ROOT / "dsl").glob("*.lark"))
        + sorted((ROOT / "interpreter").rglob("*.py"))
        + [ROOT / "cli.py"]
        + sorted((ROOT / "meeple").glob("*.py"))
        + sorted(p for ext in ("js", "html", "css") for p in (ROOT / "interpreter").rglob(f"*.{ext}"))
    )


def engine_words() -> dict[str, str]:
    """Each word of the engine's source, with the first file it appears in."""
    files = engine_files()
    where: dict[str, str] = {}
    for path in files:
        for word in re.findall(r"[a-z_][a-z0-9_]*", path.read_text().lower()):
            where.setdefault(word, str(path.relative_to(ROOT)))
    return where


def test_no_game_words_in_the_engine():
    words = engine_words()
    found = {}
    for name in GAMES:
        for w in sorted(w for w in game_words(name) - ORDINARY if len(w) > 2):  # not ids like a1, s2
            if w in words:
                found[w] = f"{name}, in {words[w]}"
    assert not found, f"game words in the engine: {found}"


def test_the_check_reads_the_play_tables_pages():
    scanned = {str(p.relative_to(ROOT)) for p in engine_files()}
    assert {
        "interpreter/table/static/table.js",
        "interpreter/table/static/lobby.html",
        "interpreter/table/static/table.css",
    } <= scanned


def test_the_check_would_catch_a_game_word():
    assert "fungus" in game_words("wild_gardens") and "fungus" not in ORDINARY
    assert "garden" in game_words("queens_wishes") and "garden" not in ORDINARY
