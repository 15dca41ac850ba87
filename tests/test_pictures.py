"""Seeing the game: `meeple graph --svg/--png`, `meeple show`, path boards as text and pictures."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET

import pytest

from meeple.cli import main
from meeple.dsl.compiler import shipped_rulesets
from meeple.interpreter.board_text import path_board_text, state_text
from meeple.interpreter.boards.graph import Board
from meeple.interpreter.pictures import board_positions
from tests.conftest import rules

SVG_TEXT = "{http://www.w3.org/2000/svg}text"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

TRACK_JSON = {
    "spaces": {
        "s1": {"tags": ["start"], "areas": ["wood"]},
        "s2": {"areas": ["wood"]},
        "s3": {"tags": ["fork"], "areas": ["lake"]},
        "s4": {"areas": ["lake"]},
        "s5": {"areas": ["hill"]},
        "s6": {"tags": ["goal"], "areas": ["hill"]},
    },
    "arrows": [["s1", "s2"], ["s2", "s3"], ["s3", "s4"], ["s3", "s5"], ["s4", "s6"], ["s5", "s6"]],
}
TRACK_RULES = """
    game "Track"
    players 2
    board track from "track.json"
    value at per player = none
    counter turns = 0

    setup:
        for each p in turn_order:
            at[p] = top(each s in spaces(track) where "start" in tags(track, s))
        next turn

    phase turn:
        turns += 1
        for each p in turn_order:
            choose s from reach(track, at[p], 1, []) by p:
                at[p] = s
        if turns < 4:
            next turn

    score "Goal": 1 if "goal" in tags(track, at[player]) else 0
"""


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def svg_texts(path) -> list[str]:
    root = ET.parse(path).getroot()  # well-formed XML, or this raises
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return [(e.text or "").strip() for e in root.iter(SVG_TEXT)]


@pytest.fixture
def track(tmp_path):
    (tmp_path / "track.json").write_text(json.dumps(TRACK_JSON))
    path = tmp_path / "track.rules"
    path.write_text(textwrap.dedent(TRACK_RULES).lstrip("\n"))
    return path


def trace_of(capsys, tmp_path, game, *extra) -> tuple[str, list[dict]]:
    out = tmp_path / "game.jsonl"
    assert run(capsys, "run", game, "--trace", out, *extra)[0] == 0
    return str(out), [json.loads(line) for line in out.read_text().splitlines()]


# ----------------------------------------------------------------- meeple graph
class TestGraphPictures:
    def test_path_board_svg_is_xml_with_every_space_tag_and_area(self, capsys, tmp_path):
        out = tmp_path / "front.svg"
        code, printed, _ = run(capsys, "graph", "wild_gardens", "--board", "front", "--svg", "--out", out)
        assert code == 0 and printed == f"wrote {out}\n"
        texts = svg_texts(out)
        assert {f"p{i:02d}" for i in range(1, 31)} <= set(texts)
        assert "tag start" in texts and "tag picnic" in texts  # the legend
        assert "z01 z02 z13" in texts  # the areas beside p01
        assert "board front: 30 spaces, 34 arrows" in texts

    def test_png_of_the_board_a_value_names(self, capsys, tmp_path):
        out = tmp_path / "path.png"
        code, printed, _ = run(capsys, "graph", "wild_gardens", "--board", "path", "--png", "--out", out)
        assert code == 0 and "board front" in printed
        assert out.read_bytes()[:8] == PNG_MAGIC

    def test_grid_and_flow_pictures(self, capsys, tmp_path, monkeypatch):
        grid = tmp_path / "garden.svg"
        assert run(capsys, "graph", "queens_wishes", "--board", "garden", "--out", grid)[0] == 0  # by suffix
        texts = svg_texts(grid)
        assert texts.count("path") >= 6 and "grass" in texts and "grid garden: 6 x 8" in texts
        monkeypatch.chdir(tmp_path)
        code, printed, _ = run(capsys, "graph", "queens_wishes", "--flow", "--svg")
        assert code == 0 and printed == "wrote queens_wishes_flow.svg\n"
        texts = svg_texts(tmp_path / "queens_wishes_flow.svg")
        source = shipped_rulesets()["queens_wishes"].read_text().splitlines()
        first_end = next(i for i, line in enumerate(source, 1) if line.strip().startswith("next finale"))
        assert {"setup", "round", "solo_turn", "finale", "end", f"line {first_end}"} <= set(texts)

    def test_the_flow_shows_which_effects_each_phase_does(self, capsys, tmp_path):
        code, out, _ = run(capsys, "graph", "mudcake_fair", "--flow")
        assert code == 0 and '"restock" [shape=ellipse, style=dashed];' in out
        assert '"round" -> "restock" [style=dashed, label="do"];' in out
        assert "dashed: the effects they do" in out
        code, out, _ = run(capsys, "graph", "tic_tac_toe", "--flow")
        assert "dashed" not in out  # no effects, nothing to say
        picture = tmp_path / "flow.svg"
        assert run(capsys, "graph", "mudcake_fair", "--flow", "--out", picture)[0] == 0
        assert "do restock" in svg_texts(picture)

    def test_dot_stays_the_default(self, capsys):
        code, out, _ = run(capsys, "graph", "tic_tac_toe", "--flow")
        assert code == 0 and out.startswith("digraph flow {")

    @pytest.mark.parametrize(
        "args, message",
        [
            (["--board", "front", "--svg", "--out", "x.png"], "--svg draws SVG, but --out x.png says PNG"),
            (["--board", "front", "--svg", "--png"], "not allowed with argument --svg"),
            (["--board", "nowhere", "--svg"], "no board or grid `nowhere`; this game has: front, back"),
            (["--board", "front", "--png", "--out", "/nonexistent/dir/x.png"], "cannot write /nonexistent/dir/x.png"),
        ],
    )
    def test_errors_are_one_line_exit_2(self, capsys, args, message):
        code, _, err = run(capsys, "graph", "wild_gardens", *args)
        assert code == 2 and err.count("\n") == 1 and message in err, err


def test_a_path_without_loops_reads_left_to_right_and_own_positions_win():
    board = Board.from_data("track", TRACK_JSON)
    pos = board_positions(board)
    for a, b in board.graph.edges:
        assert pos[a][0] < pos[b][0]
    for i, space in enumerate(board.order):
        board.graph.nodes[space]["pos"] = (i, -i)
    assert board_positions(board)["s4"] == (3, -3)


# ----------------------------------------------------------------- path boards as text
def test_path_board_text_lists_spaces_in_order_with_who_stands_there(tmp_path):
    engine = rules(TRACK_RULES, tmp_path, files={"track.json": json.dumps(TRACK_JSON)})
    state, _ = engine.start(2, 1)
    state["vars"]["at/0"], state["vars"]["at/1"] = "s1", "s3"
    lines = path_board_text(engine.game, state, "track")
    assert lines[0].startswith("board track")
    assert [line.split()[0] for line in lines[1:]] == ["s1", "s2", "s3", "s4", "s5", "s6"]
    assert lines[1].split() == ["s1", "start", "wood", "->", "s2", "<-", "at[P1]"]
    assert lines[3].split() == ["s3", "fork", "lake", "->", "s4,", "s5", "<-", "at[P2]"]
    assert lines[6].split() == ["s6", "goal", "hill", "->", "nowhere"]
    shown = state_text(engine.game, engine.view(state, 0), 0)
    assert "    s3  fork   lake  -> s4, s5   <- at[P2]" in shown


# ----------------------------------------------------------------- meeple show
def marks_after(lines: list[dict], k: int) -> list[str]:
    """Tic-tac-toe's board after k decisions, rebuilt from the trace's labels."""
    rows = [[".", ".", "."] for _ in range(3)]
    for line in [ln for ln in lines if "step" in ln][:k]:
        words = line["label"].replace(",", "").split()  # board row R column C
        rows[int(words[2]) - 1][int(words[4]) - 1] = "xo"[line["actor"]]
    return [" ".join(r).rstrip() for r in rows]


def board_rows(out: str) -> list[str]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("board (x=x, o=o):"))
    assert lines[at + 1].split() == ["1", "2", "3"]  # column numbers on top
    rows = [line.split(None, 1) for line in lines[at + 2 : at + 5]]
    assert [r[0] for r in rows] == ["1", "2", "3"]  # row numbers on the left
    return [r[1] for r in rows]


class TestShow:
    def test_positions_at_setup_and_later_match_the_decisions(self, capsys, tmp_path):
        path, lines = trace_of(capsys, tmp_path, "tic_tac_toe", "--seed", "1")
        decisions = [ln for ln in lines if "step" in ln]
        code, out, _ = run(capsys, "show", path, "--step", "0")
        assert code == 0 and board_rows(out) == [". . .", ". . .", ". . ."] == marks_after(lines, 0)
        assert "step 0 of" in out.splitlines()[0] and "after setup:" in out
        assert f"chosen in the trace: {decisions[0]['label']}" in out
        for k in (3, 5):
            code, out, _ = run(capsys, "show", path, "--step", k)
            assert code == 0 and board_rows(out) == marks_after(lines, k)
            taken = decisions[k - 1]
            assert f"step {k}: P{taken['actor'] + 1} chose {taken['label']}" in out
            assert f"pending, step {k + 1}: P{decisions[k]['actor'] + 1} chooses" in out
            assert f"{decisions[k]['label']}   <- chosen" in out
        code, out, _ = run(capsys, "show", path, "--step", len(decisions))
        assert code == 0 and "the game is over" in out

    def test_svg_of_the_state(self, capsys, tmp_path):
        path, lines = trace_of(capsys, tmp_path, "tic_tac_toe", "--seed", "1")
        svg = tmp_path / "s.svg"
        code, out, _ = run(capsys, "show", path, "--step", 5, "--svg", svg)
        assert code == 0 and out.endswith(f"wrote {svg}\n")
        texts = svg_texts(svg)
        board = "".join(marks_after(lines, 5))
        assert texts.count("x") == board.count("x") + 1  # cells, and the legend
        assert texts.count("o") == board.count("o") + 1

    def test_path_board_and_who_stands_where(self, capsys, tmp_path, track):
        path, lines = trace_of(capsys, tmp_path, track, "--seed", "3")
        code, out, _ = run(capsys, "show", path, "--step", 0, "--svg", tmp_path / "t.svg")
        assert code == 0 and "  s3  fork   lake  -> s4, s5   <- at[P1], at[P2]" in out
        texts = svg_texts(tmp_path / "t.svg")
        assert {"s1", "s2", "s3", "s4", "s5", "s6", "at[P1], at[P2]", "who stands there"} <= set(texts)
        first = next(ln for ln in lines if ln.get("step") == 1)
        assert first["actor"] == 0 and first["label"] in ("s4", "s5")
        code, out, _ = run(capsys, "show", path, "--step", 1)
        assert code == 0 and "  s3  fork   lake  -> s4, s5   <- at[P2]" in out
        assert f"  {first['label']}" in out and "-> s6       <- at[P1]" in out

    def test_seat_hides_other_hands(self, capsys, tmp_path):
        assert run(capsys, "new", "cards", "--dir", tmp_path)[0] == 0
        path, lines = trace_of(capsys, tmp_path, tmp_path / "cards/cards.rules", "--seed", "1")
        code, everything, _ = run(capsys, "show", path, "--step", 4)
        assert code == 0
        hand2 = next(line for line in everything.splitlines() if line.startswith("  hand[P2]: "))
        cards = hand2.split(": ")[1].split(", ")
        code, as_p1, _ = run(capsys, "show", path, "--step", 4, "--seat", 1)
        assert code == 0 and "as P1 sees it" in as_p1
        assert f"  hand[P2]: {len(cards)} hidden" in as_p1.splitlines()
        assert next(line for line in as_p1.splitlines() if line.startswith("  hand[P1]: ")) in everything
        pending_actor = next(ln for ln in lines if ln.get("step") == 5)["actor"]
        if pending_actor != 0:
            assert "not shown to P1" in as_p1

    @pytest.mark.parametrize(
        "args, message",
        [
            (["--step", "99"], "--step 99 is not in this trace: it has"),
            (["--step", "-1"], "--step -1 is not in this trace"),
            (["--step", "1", "--seat", "3"], "--seat must be between 1 and 2"),
        ],
    )
    def test_bad_step_or_seat_is_one_line_exit_2(self, capsys, tmp_path, args, message):
        path, _ = trace_of(capsys, tmp_path, "tic_tac_toe", "--seed", "2")
        code, out, err = run(capsys, "show", path, *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err

    def test_a_damaged_trace_is_exit_1(self, capsys, tmp_path):
        path, _ = trace_of(capsys, tmp_path, "tic_tac_toe", "--seed", "2")
        text = open(path).read().splitlines()
        step = json.loads(text[3])
        step["events"] = [{"e": "log", "text": "forged"}]
        text[3] = json.dumps(step)
        open(path, "w").write("\n".join(text) + "\n")
        code, _, err = run(capsys, "show", path, "--step", 5)
        assert code == 1 and ":4: this line was edited" in err and err.count("\n") == 1
