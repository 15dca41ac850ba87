"""The tutorial (docs/tutorial.md, then docs/tutorial-2.md) is followed from a fresh folder and
every command's output must match.

The tutorial's markdown convention (kept simple so a designer can edit it):

- ```` ```rules file=PATH ```` or ```` ```csv file=PATH ````: write the block's text
  to PATH (relative to the reader's folder), replacing what was there.
- ```` ```rules ```` without `file=`: lines a step adds or changes; they must
  appear, exactly, in the next `file=` block for a `.rules` file.
- ```` ```console ````: lines starting with `$ meeple ...` are commands, the lines
  after each one its exact output (stdout and stderr together, in order). In a
  `meeple play` session a line `> ANSWER` is the prompt with what was typed.

Every command runs in-process (`cli.main`) in a temp folder. The tutorial's last
version of each file must be the shipped ruleset in rulesets/tutorial/. Below
that, worked examples of the game's rules themselves.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import re
import shlex

import pytest

# `conftest` and `helpers` as pytest puts them on the path: this works under both
# `.venv/bin/pytest` and `python -m pytest` (`tests.conftest` needs the latter).
from conftest import ROOT, shipped
from helpers import effect_frame, fill_zone, option_ids, run_alone, take

from meeple import cli

PAGES = [ROOT / "docs" / "tutorial.md", ROOT / "docs" / "tutorial-2.md"]  # read in this order
SHIPPED_DIR = ROOT / "rulesets" / "tutorial"
READER_DIR = "mudcake_fair"  # the folder the reader makes; its files ship in rulesets/tutorial/
GAME = "mudcake_fair"


# ----------------------------------------------------------------- reading the tutorial
def blocks(text: str, page: str = "tutorial.md") -> list[dict]:
    """The fenced blocks in order: {'lang', 'file', 'text', 'line' (PAGE:LINE)}."""
    out, current = [], None
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        if current is None:
            m = re.match(r"^```(\w*)((?:[ \t]+\w+=\S+)*)[ \t]*$", line.rstrip("\n"))
            if m:
                attrs = dict(a.split("=", 1) for a in m.group(2).split())
                current = {"lang": m.group(1), "file": attrs.get("file"), "text": "", "line": f"{page}:{number}"}
        elif line.rstrip("\n") == "```":
            out.append(current)
            current = None
        else:
            current["text"] += line
    assert current is None, f"{current['line']}: a block is never closed"
    return out


def commands(console: str) -> list[tuple[str, str]]:
    """(command line, expected output) pairs of a console block."""
    out = []
    for line in console.splitlines():
        if line.startswith("$ "):
            out.append([line[2:], []])
        else:
            assert out, f"output before any command: {line!r}"
            out[-1][1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


def run_meeple(command: str, expected: str, monkeypatch) -> tuple[int, str]:
    """Run one `meeple ...` line in-process; stdout and stderr in one stream, as a terminal shows them."""
    argv = shlex.split(command)
    assert argv[0] == "meeple", command
    answers = [line[2:] for line in expected.splitlines() if line.startswith("> ")]
    stream = io.StringIO()

    def typed(prompt=""):  # a person at the keyboard: the prompt, what they type, Enter
        if not answers:
            raise EOFError
        answer = answers.pop(0)
        stream.write(prompt + answer + "\n")
        return answer

    monkeypatch.setattr(builtins, "input", typed)
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        code = cli.main(argv[1:])
    return code, stream.getvalue()


STEPS = [b for page in PAGES for b in blocks(page.read_text(encoding="utf-8"), page.name)]


def test_the_tutorial_runs_exactly_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ran = 0
    for i, block in enumerate(STEPS):
        where = block["line"]
        if block["file"]:
            path = tmp_path / block["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block["text"], encoding="utf-8")
        elif block["lang"] == "rules":
            following = next((b for b in STEPS[i + 1 :] if b["file"] and b["file"].endswith(".rules")), None)
            assert following is not None and block["text"] in following["text"], (
                f"{where}: these lines are not in the next whole file shown"
            )
        elif block["lang"] == "console":
            for command, expected in commands(block["text"]):
                code, out = run_meeple(command, expected, monkeypatch)
                out = out.replace(f"{tmp_path}/", "").rstrip("\n")
                assert out == expected, f"{where}: `{command}` printed\n{out}"
                assert code == (1 if "error:" in expected else 0), f"{where}: `{command}` exited {code}"
                ran += 1
    assert ran >= 8


def test_the_tutorial_ends_with_the_shipped_ruleset(tmp_path):
    final = {}
    for block in STEPS:
        if block["file"]:
            final[block["file"]] = block["text"]
    shipped_files = sorted(p.name for p in SHIPPED_DIR.iterdir() if p.is_file())
    assert sorted(final) == [f"{READER_DIR}/{name}" for name in shipped_files]
    for name in shipped_files:
        assert final[f"{READER_DIR}/{name}"] == (SHIPPED_DIR / name).read_text(encoding="utf-8"), name


def test_the_tutorial_shows_a_mistake_and_its_fix():
    outputs = [expected for b in STEPS if b["lang"] == "console" for _, expected in commands(b["text"])]
    assert any(": error: " in out and "\nhint: " in out for out in outputs)
    assert any(f"{GAME}.rules: ok" in out for out in outputs)


# ----------------------------------------------------------------- the game's rules
def fresh(zones: dict, variants=None):
    """Two goblins, the zones given, and the round phase started again from its top
    (so the stall's options are worked out from these zones): P1 is to buy."""
    engine = shipped(GAME, variants=variants)
    state, _ = engine.start(2, 1)
    for key, items in zones.items():
        fill_zone(state, key, items)
    run_alone(engine, state, [engine.game.phases["round"], 0, {}])
    return engine, state


def scores_of(engine, state) -> list[tuple[dict, int]]:
    return [(s["breakdown"], s["total"]) for s in engine.scores(state)]


def test_worked_example_three_worms_make_a_wormcake():
    engine, state = fresh(
        {
            "basket/0": ["worm-1", "worm-2", "mud-1"],
            "basket/1": ["honey-1", "worm-3", "toadstool-1"],
            "market": ["worm-4", "berries-1", "mud-2"],
            "deck": ["honey-2", "mud-3", "mud-4"],
        }
    )
    assert engine.decision(state).actor == 0
    assert option_ids(engine, state) == ["worm-4", "berries-1", "mud-2"]
    state = take(engine, state, "worm-4")  # P1 buys a third worm: yuck becomes a delicacy
    assert state["zones"]["market"] == ["berries-1", "mud-2", "honey-2"]  # the stall refills
    assert engine.decision(state).actor == 1
    state = take(engine, state, "honey-2")  # P2 buys the honey
    assert state["zones"]["basket/0"] == ["worm-1", "worm-2", "mud-1", "worm-4"]
    # P1: mud 1, and three worms make a wormcake: +2 each.
    # P2: honey 3 + toadstool 2 + honey 3, and one worm: -1.
    assert scores_of(engine, state) == [({"Ingredients": 1, "Worms": 6}, 7), ({"Ingredients": 8, "Worms": -1}, 7)]
    # 7 each, and one earthy card each (mud, toadstool): the tie stands and they share first place
    assert [(r["player"], r["place"]) for r in engine.ranking(state)] == [(0, 1), (1, 1)]
    picky = shipped(GAME, variants=["picky_judges"])  # the variant of step 9: worms always cost 1
    assert scores_of(picky, state) == [({"Ingredients": 1, "Worms": -3}, -2), ({"Ingredients": 8, "Worms": -1}, 7)]


def test_worked_example_three_worms_in_the_stall_are_swept_away():
    engine, state = fresh(
        {"market": ["worm-1", "worm-2", "mud-1"], "deck": ["worm-3", "honey-1", "berries-1", "mud-2", "toadstool-1"]}
    )
    events = []
    state = take(engine, state, "mud-1", events=events)  # the refill shows a third worm
    assert state["zones"]["compost"] == ["worm-1", "worm-2", "worm-3"]
    assert state["zones"]["market"] == ["honey-1", "berries-1", "mud-2"]
    assert [e["text"] for e in events if e["e"] == "log"] == [
        "Three worms! The goblins shriek and the stall keeper throws the lot on the compost."
    ]


def test_the_shriek_repeats_while_the_stall_shows_three_worms():
    engine = shipped(GAME)
    state, _ = engine.start(2, 1)
    fill_zone(state, "market", [])
    fill_zone(state, "deck", ["worm-1", "worm-2", "worm-3", "worm-4", "worm-5", "worm-6", "mud-1"])
    events = run_alone(engine, state, effect_frame(engine, "restock"))
    assert state["zones"]["compost"] == ["worm-1", "worm-2", "worm-3", "worm-4", "worm-5", "worm-6"]
    assert state["zones"]["market"] == ["mud-1"]  # the deck ran out: a short stall, and no endless loop
    assert sum(e["e"] == "log" for e in events) == 2


def test_ties_go_to_the_earthiest_cake():
    engine, state = fresh(
        {
            "basket/0": ["honey-1"],  # 3 points, sweet
            "basket/1": ["mud-1", "toadstool-1"],
        }
    )  # 3 points, both earthy
    assert [(r["player"], r["place"], r["total"]) for r in engine.ranking(state)] == [(1, 1, 3), (0, 2, 3)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_rounds_every_goblin_ends_with_seven_ingredients(players):
    engine = shipped(GAME)
    state, _ = engine.start(players, players)
    decisions = 0
    while (d := engine.decision(state)) is not None:
        state, _ = engine.apply(state, len(d.options) - 1)
        decisions += 1
    assert engine.is_terminal(state) and state["vars"]["round_number"] == 6
    assert [len(state["zones"][f"basket/{p}"]) for p in range(players)] == [7] * players
    assert decisions <= 6 * players


def slugs(markdown: str) -> set:
    """The anchors GitHub makes for a page's headings."""
    return {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", markdown, re.M)
    }


def test_the_tutorial_links_lead_somewhere():
    for doc in PAGES:
        text = doc.read_text(encoding="utf-8")
        for page, anchor in re.findall(r"\]\(([\w./-]*)#([\w-]+)\)", text):
            assert page in ("", "tutorial.md", "tutorial-2.md") or page.startswith("language"), page
            target = (ROOT / "docs" / page).read_text(encoding="utf-8") if page else text
            assert anchor in slugs(target), f"{doc.name}: {page}#{anchor}"
