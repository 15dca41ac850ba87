"""The command line: exit codes, one-line errors, JSON output, traces and replay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from meeple.cli import main
from tests.conftest import ROOT

QW = "queens_wishes"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


class TestCheck:
    def test_shipped_rulesets_check_clean(self, capsys):
        code, out, err = run(capsys, "check", str(ROOT / "rulesets/queens_wishes/queens_wishes.rules"))
        assert code == 0 and ": ok (The Queen's Wishes" in out and err == ""

    def test_broken_file_exits_1_with_location_and_no_traceback(self, tmp_path, capsys):
        bad = tmp_path / "bad.rules"
        bad.write_text('game "B"\nplayers 2\nsetup:\n    draw 1 from nowhere into hand\n')
        code, out, err = run(capsys, "check", str(bad))
        assert code == 1
        assert err.startswith(f"{bad}:4:17: error: unknown zone `nowhere`")
        assert "Traceback" not in err

    def test_errors_that_show_only_in_play_are_found_by_short_games(self, tmp_path, capsys):
        """`check` plays a few random games: an action that spends what a choice needs."""
        bad = tmp_path / "play.rules"
        bad.write_text(
            'game "P"\nplayers 1\ncounter gold = 1\naction spend(p) "Spend" when gold > 0:\n'
            '    gold -= 1\nsetup:\n    repeat 8:\n        gold = 1\n        choose n from [1] by 0 "Which?":\n'
            '            choose m from [gold] where m > 0 by 0 "Then?":\n                pass\n'
        )
        code, out, err = run(capsys, "check", str(bad))
        assert code == 1 and out == "" and "Traceback" not in err
        assert f"{bad}:10:13: error: in setup: nothing to choose for `m` and no `otherwise`" in err
        assert "            choose m from [gold]" in err and "            ^^^^" in err
        assert "(put both in `together:`)" in err and f"meeple run {bad} --players 1 --seed " in err

    def test_a_title_in_braces_in_a_simultaneous_choice_plays(self, tmp_path, capsys):
        ok = tmp_path / "bids.rules"
        ok.write_text(
            'game "B"\nplayers 2\ncounter bid per player = 0\nsetup:\n'
            "    simultaneously for each player in turn_order:\n"
            '        choose n from [1, 2] "Bid, P{player + 1}?":\n            bid = n\n'
            '    choose between 0 and 2 xs from [] by 0 "Which ({count(turn_order)})?":\n        pass\n'
        )
        code, out, err = run(capsys, "check", str(ok))
        assert (code, err) == (0, "") and ": ok (B" in out

    def test_missing_and_binary_files(self, tmp_path, capsys):
        code, _, err = run(capsys, "check", str(tmp_path / "none.rules"))
        assert code == 1 and "cannot read" in err
        junk = tmp_path / "junk.rules"
        junk.write_bytes(b"game \xff\xfe\n")
        code, _, err = run(capsys, "check", str(junk))
        assert code == 1 and "not UTF-8" in err and ":1:6:" in err


class TestBadCommandLines:
    @pytest.mark.parametrize(
        "args, message",
        [
            (["run", "queens_wish"], "unknown game `queens_wish`; did you mean `queens_wishes`?"),
            (["run", QW, "--option", "board=C"], "option `board` cannot be `C`; choose one of: A, B"),
            (["run", QW, "--option", "boards=A"], "unknown option `boards`; did you mean `board`?"),
            (["run", QW, "--players", "5"], "is for 1-4 players, not 5"),
            (["run", QW, "--agents", "clever"], "unknown agent `clever`"),
            (["run", QW, "--variant", "fast"], "unknown variant `fast`"),
            (["run", QW, "--option", "board"], "--option wants NAME=VALUE"),
            (["run", QW, "--seed", "x"], "invalid int value"),
            (["bogus"], "invalid choice"),
        ],
    )
    def test_one_line_and_exit_2(self, capsys, args, message):
        code, out, err = run(capsys, *args)
        assert code == 2, err
        assert err.count("\n") == 1 and err.startswith("meeple: ") and message in err


class TestRun:
    def test_json_is_complete_and_identical_across_runs(self, capsys):
        args = ["run", QW, "--players", "3", "--seed", "7", "--json"]
        code, out1, _ = run(capsys, *args)
        _, out2, _ = run(capsys, *args)
        assert code == 0 and out1 == out2
        data = json.loads(out1)
        assert data["game"] == "The Queen's Wishes" and data["seed"] == 7 and data["players"] == 3
        assert data["options"] == {"board": "A", "scoring": "A"}
        assert len(data["scores"]) == 3 and set(data["scores"][0]["breakdown"]) == {
            "Chess pieces",
            "Roses",
            "Mushrooms",
            "Trees",
            "Empty spaces",
        }
        assert [r["place"] for r in data["ranking"]][0] == 1
        grid = data["state"]["grids"]["garden/0"]["rows"]
        assert len(grid) == 6 and all(len(r) == 8 for r in grid)
        assert "supply" in data["state"]["zones"] and "bag/O" in data["state"]["zones"]

    def test_table_output(self, capsys):
        code, out, _ = run(capsys, "run", QW, "--players", "2", "--seed", "3", "--agents", "greedy,random")
        assert code == 0
        lines = out.splitlines()
        assert lines[0].startswith("The Queen's Wishes: 2 players, seed 3, board=A, scoring=A")
        assert lines[1].split()[:3] == ["player", "agent", "Chess"]
        assert lines[2].startswith("P1") and "greedy" in lines[2]

    def test_trace_replays_and_tampering_is_caught(self, tmp_path, capsys):
        path = tmp_path / "t.jsonl"
        assert run(capsys, "run", QW, "--players", "2", "--seed", "5", "--trace", str(path))[0] == 0
        code, out, _ = run(capsys, "replay", str(path))
        assert code == 0 and "replays exactly" in out
        original = path.read_text().splitlines()
        lines = list(original)
        step = json.loads(lines[5])
        step["events"] = step["events"][:-1] + [{"e": "log", "text": "forged"}]
        lines[5] = json.dumps(step)
        path.write_text("\n".join(lines) + "\n")
        code, _, err = run(capsys, "replay", str(path))
        assert code == 1 and "t.jsonl:6: this line was edited" in err
        path.write_text("\n".join(original[:10]) + "\n")
        code, _, err = run(capsys, "replay", str(path))
        assert code == 1 and "truncated" in err

    def test_list(self, capsys):
        code, out, _ = run(capsys, "list")
        assert (
            code == 0
            and "queens_wishes: The Queen's Wishes, 1-4 players; options: board = A | B; scoring = A | B" in out
        )


def test_console_script_runs_without_a_traceback(tmp_path):
    bad = tmp_path / "x.rules"
    bad.write_text("game\n")
    proc = subprocess.run(
        [sys.executable, "-c", "import cli, sys; sys.exit(cli.main())", "check", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and ":1:5: error:" in proc.stderr


class TestNewAndGraph:
    def test_new_makes_a_ruleset_that_checks_and_runs(self, tmp_path, capsys):
        assert main(["new", "my_game", "--dir", str(tmp_path)]) == 0
        rules_file = tmp_path / "my_game" / "my_game.rules"
        assert main(["check", str(rules_file)]) == 0
        assert main(["run", str(rules_file), "--players", "3", "--seed", "1"]) == 0
        out = capsys.readouterr().out
        assert "My Game: 3 players" in out
        assert main(["new", "my_game", "--dir", str(tmp_path)]) == 2
        assert main(["new", "Bad Name", "--dir", str(tmp_path)]) == 2

    def test_flow_graph(self, capsys):
        assert main(["graph", "queens_wishes", "--flow"]) == 0
        dot = capsys.readouterr().out
        assert dot.startswith("digraph flow {")
        assert '"round" -> "finale"' in dot and '"finale" -> "end"' in dot and '"round" -> "end"' not in dot

    def test_board_graphs(self, capsys, tmp_path):
        assert main(["graph", "wild_gardens", "--board", "front", "--out", str(tmp_path / "b.dot")]) == 0
        dot = (tmp_path / "b.dot").read_text()
        assert '"p01" -> ' in dot and "start" in dot
        assert main(["graph", "queens_wishes", "--board", "garden"]) == 0
        assert "r6c8" in capsys.readouterr().out
        assert main(["graph", "queens_wishes", "--board", "nowhere"]) == 2
        assert main(["graph", "queens_wishes"]) == 2


def test_every_command_in_the_readme_is_a_real_command_line():
    """The README's commands parse with today's arguments (a renamed flag would fail here)."""
    import shlex

    from meeple.cli import build_parser

    lines = [
        ln.split("#")[0] for ln in (ROOT / "README.md").read_text().splitlines() if ln.startswith(".venv/bin/meeple ")
    ]
    assert len(lines) > 20
    parser = build_parser()
    for line in lines:
        args = parser.parse_args(shlex.split(line)[1:])
        assert callable(args.fn), line
