"""No engine words in what players read: every shipped game, played a while, has its log
scanned as each seat reads it at the web table (the page's `log` lines) and at the terminal
(the same `event_text` words) for the engine's own vocabulary."""

from __future__ import annotations

import re

import pytest

from meeple.dsl.compiler import load_game, shipped_rulesets
from meeple.interpreter.engine import Engine
from meeple.interpreter.rng import Random
from meeple.interpreter.table.live import LiveTable
from meeple.interpreter.table.pages import seat_page

# The engine's words: its step counter and phases, the box it keeps unused components in, the
# "(hidden)" of an unseen move, and names written with `_` (a rule's name, not a word).
ENGINE_WORDS = {
    "step": r"\bstep \d",
    "phase": r"\bphase\b",
    "the bare box": r"\b(from|to) box\b",
    "(hidden)": r"\(hidden\)",
    "snake_case": r"\b[a-z0-9]+_[a-z0-9_]+\b",
}
RAW_ID = re.compile(r"\b[a-z]+[0-9]+\b")  # `z01`, `a3`: an enum value or id that reads like a code


def played_table(name: str, path, seed: int = 1, steps: int = 300, early: list | None = None) -> LiveTable:
    """A table of `path` played `steps` random decisions; `early` gets each seat's log after
    three (the page keeps the latest lines only, and the setup's are the first)."""
    engine = Engine(load_game(path))
    players = 2 if engine.game.min_players <= 2 <= engine.game.max_players else engine.game.min_players
    row = {
        "id": "t",
        "ruleset": str(path),
        "options": {},
        "variants": [],
        "players": players,
        "seed": seed,
        "digest": engine.game.digest,
        "spectator": "s",
        "seats": [{"agent": "person", "token": str(p)} for p in range(players)],
    }
    live = LiveTable(row, engine)
    rng = Random(seed)
    for i in range(steps):
        if i == 3 and early is not None:
            early += [(seat, seat_page(live, seat)["log"]) for seat in list(range(players)) + ["spectator"]]
        d = live.decision()
        if d is None:
            break
        live.commit(d.options[rng.below(len(d.options))].id)
    return live


def engine_words(game, lines: list[str]) -> dict:
    """{what: the first line saying it} for every engine word found."""
    found: dict = {}
    codes = {v for values in game.enums.values() for v in values if v not in game.labels}
    codes |= {c for c in game.components if c not in game.labels}
    for line in lines:
        for what, pattern in ENGINE_WORDS.items():
            if re.search(pattern, line):
                found.setdefault(what, line)
        for word in RAW_ID.findall(line):
            if word in codes:
                found.setdefault(f"raw id {word}", line)
    return found


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_no_engine_words_in_any_seats_log(name):
    path = shipped_rulesets()[name]
    early: list = []
    live = played_table(name, path, early=early)
    game = live.engine.game
    late = [(seat, seat_page(live, seat)["log"]) for seat in list(range(live.players)) + ["spectator"]]
    for seat, lines in early + late:
        assert len(lines) > 3
        assert engine_words(game, lines) == {}, f"{name}, as {seat} reads it"


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_no_engine_words_in_what_the_header_says(name):
    """The header's words from the server: the part of the game ("round 3") and the start player
    (the browser test scans the header as drawn: tests/test_table_lobby_browser.py)."""
    live = played_table(name, shipped_rulesets()[name], steps=20)
    for seat in list(range(live.players)) + ["spectator"]:
        page = seat_page(live, seat)
        said = [page["part"], f"start player: {page['first']}"]
        assert engine_words(live.engine.game, said) == {}, (name, seat, said)


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_the_header_numbers_the_round_it_names(name):
    """A header that names the part of the game mid-play says which one ("round 3", "day 2"):
    a bare "Round" tells a player nothing they can count on."""
    for steps in (4, 30):
        live = played_table(name, shipped_rulesets()[name], steps=steps)
        if live.decision() is None:
            continue
        part = seat_page(live, 0)["part"]
        assert part == "" or re.search(r"\d", part), (name, steps, part)


def test_the_scan_finds_the_engine_words_it_looks_for():
    game = load_game(shipped_rulesets()["wild_gardens"])
    found = engine_words(
        game,
        [
            "phase day",
            "move 3 × tile (hidden) from box to bag",
            "round_number = 2",
            "step 12 · first player P1",
            "P2 reserves Purslane Wrap",
        ],
    )
    assert set(found) == {"phase", "(hidden)", "the bare box", "snake_case", "step"}
    game.labels.pop("z01")
    assert "raw id z01" in engine_words(game, ["the ingredient source at z01"])
