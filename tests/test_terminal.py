"""The real `meeple play` in a pseudo-terminal (pexpect): what a person types and reads.

Every shipped game is played to its end from the keyboard; The Queen's Wishes
places a tile by ROW COL with a preview, turns it, undoes it; two people share
the terminal (hot-seat) without seeing each other's hidden cards; undo, quit and
resume gives the undone state. Seeded, so each game is the same every time.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from meeple.dsl.compiler import shipped_rulesets

MEEPLE = Path(sys.executable).parent / "meeple"
PROMPT = "\n> "  # a person's prompt, maybe followed by "(u = undo) "
CONFIRM = "Enter to confirm, u to undo: "
PASS = "then press Enter. "


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(
        str(MEEPLE), ["play", *args], cwd=str(cwd), encoding="utf-8", timeout=30, dimensions=(60, 200)
    )
    child.delaybeforesend = None  # the game reads whole lines: no need to wait before typing
    return child


def play_out(child: pexpect.spawn, answer: str = "1", limit: int = 3000) -> str:
    """Answer every question with `answer` (Enter at confirms and pass screens) to the end."""
    seen = []
    for _ in range(limit):
        i = child.expect_exact([CONFIRM, PASS, PROMPT, pexpect.EOF])
        seen.append(child.before)
        if i == 3:
            child.close()
            assert child.exitstatus == 0
            return "".join(seen)
        child.sendline(answer if i == 2 else "")
    raise AssertionError(f"no end after {limit} answers")


def preview_cells(screen: str) -> list[tuple[int, int]]:
    """(row, col) of the CAPITALS in the last grid drawn on the screen."""
    lines = screen.replace("\r", "").splitlines()
    top = max(i for i, ln in enumerate(lines) if ln.startswith("P1's garden"))
    out = []
    for line in lines[top + 2 :]:
        words = line.split()
        if not words or not words[0].isdigit():
            break
        out += [(int(words[0]), c) for c, w in enumerate(words[1:], 1) if w.isupper() and w.isalpha()]
    return out


@pytest.mark.parametrize("game", sorted(shipped_rulesets()))
def test_every_shipped_game_plays_to_the_end_at_the_keyboard(game, tmp_path):
    players = "1" if game in ("queens_wishes", "apothebakery", "wild_gardens") else "2"
    child = spawn(game, "--players", players, "--seed", "3", cwd=tmp_path)
    screen = play_out(child)
    assert "game abandoned" not in screen
    # the end: the final board (when the game has grids) and the score table with its place column,
    # or for a solo game that declares an outcome, win or loss and the outcome in the ruleset's words
    lines = screen.replace("\r", "").rstrip().splitlines()
    head = max(i for i, ln in enumerate(lines) if ln.startswith("player "))
    rows = [ln for ln in lines[head + 1 :] if re.match(r"P\d ", ln)]
    assert sorted(ln.split()[0] for ln in rows) == [f"P{p}" for p in range(1, int(players) + 1)]
    if lines[head].endswith("outcome"):
        assert rows[0].split()[-1] in ("win", "loss") and len(lines) == head + 1 + len(rows) + 1
    else:
        assert lines[head].endswith("place") and len(lines) == head + 1 + len(rows)


def test_a_solo_apothebakery_game_to_the_end(tmp_path):
    child = spawn("apothebakery", "--players", "1", "--seed", "5", "--option", "difficulty=difficult", cwd=tmp_path)
    screen = play_out(child)
    assert "you are P1 of 1" in screen and "game over" in screen
    # alone against Corruption: the table says win or loss, and the ruleset's own words say how
    assert re.search(r"\nP1 +-?\d+.* (win|loss)\r?\n", screen)
    assert re.search(
        r"\n(Corruption is cleansed: you won, -?\d+ to -?\d+|Corruption wins, -?\d+ to -?\d+)\r?\n?$", screen
    )


def test_placing_a_tile_by_row_and_column_with_a_preview_and_undo(tmp_path):
    child = spawn("queens_wishes", "--players", "2", "--seed", "4", cwd=tmp_path)
    for answer in ["2", "1"]:  # the I bag (a straight tile turns visibly), then a tile from the supply
        child.expect_exact(PROMPT)
        child.sendline(answer)
    child.expect_exact(PROMPT)
    assert "Type ROW COL for its top-left corner" in child.before
    assert preview_cells(child.before) == []  # the empty garden, nothing previewed yet
    child.sendline("2 3")
    child.expect_exact(PROMPT)
    cells = preview_cells(child.before)
    assert len(cells) == 4 and min(r for r, _ in cells) == 2 and min(c for _, c in cells) == 3
    assert "at row 2, column 3" in child.before and "Enter places it here" in child.before
    child.sendline("r")
    child.expect_exact(PROMPT)
    turned = preview_cells(child.before)
    assert len(turned) == 4 and turned != cells and "turned 90" in child.before
    child.sendline("")  # Enter: place it
    child.expect_exact(CONFIRM)
    assert "place " in child.before and "at row 2, column 3, turned 90" in child.before
    child.sendline("u")
    child.expect_exact(PROMPT)
    assert "undone" in child.before and "Type ROW COL" in child.before
    assert preview_cells(child.before) == []  # the garden is empty again
    child.sendline("q")
    child.expect_exact("game abandoned")
    child.expect(pexpect.EOF)


def test_no_undo_once_the_placement_has_ended_its_phase(tmp_path):
    """Solo: the placement ends the turn and the next one draws new tiles; taking it back then
    would let a person peek at the bag, so the rules' window (its phase) is closed."""
    child = spawn("queens_wishes", "--players", "1", "--seed", "4", cwd=tmp_path)
    for answer in ["2", "1", "2 3", ""]:
        child.expect_exact(PROMPT)
        child.sendline(answer)
    i = child.expect_exact([CONFIRM, PROMPT])
    assert i == 1 and "place " in child.before and "P1: your turn" in child.before
    child.sendline("u")
    child.expect_exact("nothing to undo here")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_long_option_lists_are_cut_and_filtered(tmp_path):
    child = spawn("queens_wishes", "--players", "2", "--seed", "4", cwd=tmp_path)
    for _ in range(2):
        child.expect_exact(PROMPT)
        child.sendline("1")
    child.expect_exact(PROMPT)
    listed = [ln for ln in child.before.splitlines() if re.match(r"\s+\d+\. ", ln)]
    assert listed == [] and "l lists the placements, /WORD filters them" in child.before  # the drawing instead
    child.sendline("l")
    child.expect_exact(PROMPT)
    listed = [ln for ln in child.before.splitlines() if re.match(r"\s+\d+\. ", ln)]
    assert len(listed) > 30 and listed[0].strip().startswith("1. ")
    child.sendline("/row 2, column 3,")
    child.expect_exact(PROMPT)
    found = [ln.strip() for ln in child.before.splitlines() if re.match(r"\s+\d+\. ", ln)]
    assert found and all(" row 2, column 3," in ln and " [" not in ln for ln in found)
    child.sendline(found[0].split(".")[0])  # its number in the whole list
    child.expect_exact(CONFIRM)
    assert "row 2, column 3," in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_hot_seat_hides_each_persons_cards_from_the_other(tmp_path):
    child = spawn("mudcake_fair", "--seed", "38", "--agents", "human,human", cwd=tmp_path)
    child.expect_exact(PASS)
    assert "Pass to P1" in child.before and "people play P1, P2 of 2" in child.before
    child.sendline("")
    child.expect_exact(PROMPT)
    mine = re.search(r"draw (.+?) from deck to basket\[P1\]", child.before)
    assert mine and "draw a card from deck to basket[P2]" in child.before
    child.sendline("1")
    child.expect_exact(PASS)
    assert "\x1b[2J" in child.before  # P1's screen is cleared before P2 sits down
    child.sendline("")
    child.expect_exact(PROMPT)
    assert "P2, since your last decision:" in child.before
    assert "draw a card from deck to basket[P1]" in child.before
    # every draw into P1's basket reads as a count to P2 (labels of copies are alike, so look at the lines)
    assert set(re.findall(r"draw (.+?) from deck to basket\[P1\]", child.before)) == {"a card"}
    assert "P1 chooses" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_hot_seat_game_of_tic_tac_toe_by_row_and_column(tmp_path):
    child = spawn("tic_tac_toe", "--agents", "human,human", cwd=tmp_path)
    for cell in ["1 1", "2 1", "1 2", "2 2", "1 3"]:  # P1 completes the top row
        child.expect_exact(PASS)
        child.sendline("")
        child.expect_exact(PROMPT)
        child.sendline(cell)
    child.expect(pexpect.EOF)
    lines = child.before.replace("\r", "").rstrip().splitlines()
    top = max(i for i, ln in enumerate(lines) if ln.strip().startswith("board ("))
    assert lines[top + 2].split() == ["1", "x", "x", "x"]  # the final board, in its layout's area
    assert "The table at the end:" in lines and "The board" in lines[lines.index("The table at the end:") :]
    assert lines[-3].startswith("player") and re.match(r"P1 .* 1$", lines[-2]) and re.match(r"P2 .* 2$", lines[-1])


def test_undo_then_quit_then_resume_gives_the_undone_state(tmp_path):
    save = tmp_path / "game.json"
    child = spawn("queens_wishes", "--players", "2", "--seed", "3", "--save", str(save), cwd=tmp_path)
    for _ in range(2):
        child.expect_exact(PROMPT)
        child.sendline("1")
    child.expect_exact(PROMPT)
    child.sendline("2 3")
    child.expect_exact(PROMPT)
    child.sendline("")
    child.expect_exact(CONFIRM)
    assert len(json.loads(save.read_text())["choices"]) == 3  # the placement is saved at once
    child.sendline("u")
    child.expect_exact(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    data = json.loads(save.read_text())
    assert len(data["choices"]) == 2 and data["ruleset"] == "queens_wishes"

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    child = spawn("--resume", str(save), cwd=elsewhere)
    child.expect_exact(PROMPT)
    assert "resumed after 2 choices" in child.before and "Type ROW COL" in child.before
    assert preview_cells(child.before) == []  # back at the placement, the garden still empty
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_request_is_one_key_apart_from_the_options(tmp_path):
    """Apothebakery's "Rearrange inventory" (`on request`): shown as `!`, not numbered; taken, it
    asks its own question and then the interrupted one again, and the trace records it."""
    child = spawn("apothebakery", "--players", "1", "--seed", "5", "--save", "game.json", cwd=tmp_path)
    for _ in range(400):
        child.expect_exact([PROMPT])
        if "!    Rearrange inventory" in child.before:
            break
        child.sendline("1")
    else:
        raise AssertionError("never offered")
    asked = child.before.splitlines()
    assert not any(re.match(r"\s+\d+\. Rearrange", ln) for ln in asked), "not among the numbered options"
    child.sendline("!")
    child.expect_exact(PROMPT)
    assert "Which elixir goes to the left end?" in child.before
    child.sendline("1")
    child.expect_exact(PROMPT)
    assert "P1 acts: Rearrange inventory" in child.before or "Rearrange inventory" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    saved = json.loads((tmp_path / "game.json").read_text())
    assert "act:rearrange" in saved["choices"]
