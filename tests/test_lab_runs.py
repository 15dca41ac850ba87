"""Runs that stream, stop and resume: no finished game is ever lost.

Every row reaches --out as its game ends; Ctrl-C, a dead worker or a game past its time limit
costs at most that game; --resume then plays only what is missing, and the file ends exactly as
an uninterrupted run writes it (timings aside).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meeple.cli import main
from meeple.interpreter.lab.rows import RowsError, parse_lines
from meeple.interpreter.lab.runs import Progress

ROOT = Path(__file__).resolve().parent.parent
TIMING = ("seconds", "cpu")


def simulate(capsys, out: Path, *more: str, agents: str = "tests.lab_agents:Interrupted", games: int = 12):
    code = main(["simulate", "tic_tac_toe", "-n", str(games), "--agents", agents, "--out", str(out), *more])
    return code, *capsys.readouterr()


def rows_of(path: Path) -> list[dict]:
    return [
        {k: v for k, v in json.loads(line).items() if k not in TIMING}
        for line in path.read_text().splitlines()
        if line.strip()
    ]


@pytest.fixture
def uninterrupted(tmp_path, capsys):
    path = tmp_path / "whole.jsonl"
    code, _, err = simulate(capsys, path)
    assert code == 0, err
    return rows_of(path)


def test_ctrl_c_keeps_every_finished_game_and_resume_completes_the_run(tmp_path, capsys, monkeypatch, uninterrupted):
    out = tmp_path / "rows.jsonl"
    monkeypatch.setenv("MEEPLE_TEST_SEED", "8")  # Ctrl-C during the game of seed 8
    code, stdout, err = simulate(capsys, out)
    assert code == 130
    assert "stopped: 7 of 12 games played" in err and "--resume" in err
    assert "tic_tac_toe (base): 7 games" in stdout  # the summary so far
    assert [r["seed"] for r in rows_of(out)] == list(range(1, 8))
    with out.open("a") as f:
        f.write('{"seed": 8, "ruleset": "tic_t')  # a process killed mid-write leaves half a line
    monkeypatch.delenv("MEEPLE_TEST_SEED")
    code, _, err = simulate(capsys, out, "--resume")
    assert code == 0, err
    assert "resuming: 7 of 12 games already in" in err
    assert rows_of(out) == uninterrupted


def test_a_dead_worker_costs_one_row_and_resume_plays_it_again(tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.jsonl"
    code, _, err = simulate(capsys, whole, "--jobs", "2", agents="tests.lab_agents:Crashing")
    assert code == 0, err
    out = tmp_path / "rows.jsonl"
    monkeypatch.setenv("MEEPLE_TEST_SEED", "5")
    code, stdout, err = simulate(capsys, out, "--jobs", "2", agents="tests.lab_agents:Crashing")
    assert code == 1  # a game with an error
    rows = rows_of(out)
    assert [r["seed"] for r in rows] == list(range(1, 13))  # the run went on past the dead worker
    dead = rows[4]
    assert dead["lost"] and "worker process playing this game died (exit code 3)" in dead["error"]
    assert "1 errors" in stdout
    monkeypatch.delenv("MEEPLE_TEST_SEED")
    code, _, err = simulate(capsys, out, "--jobs", "2", "--resume", agents="tests.lab_agents:Crashing")
    assert code == 0, err
    assert "resuming: 11 of 12" in err
    assert rows_of(out) == rows_of(whole)


def test_a_game_past_its_time_limit_is_stopped_and_the_run_goes_on(tmp_path, capsys, monkeypatch):
    out = tmp_path / "rows.jsonl"
    monkeypatch.setenv("MEEPLE_TEST_SEED", "3")
    started = time.monotonic()
    code, _, _ = simulate(capsys, out, "--jobs", "2", "--timeout", "2", agents="tests.lab_agents:Hanging", games=6)
    assert time.monotonic() - started < 60
    rows = rows_of(out)
    assert code == 1 and [r["seed"] for r in rows] == list(range(1, 7))
    assert "did not end within 2 s" in rows[2]["error"]
    assert all(r["error"] is None for i, r in enumerate(rows) if i != 2)


def test_resume_refuses_a_file_of_another_setup(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code, _, err = simulate(capsys, out, agents="random", games=3)
    assert code == 0, err
    code, _, err = simulate(capsys, out, "--resume", agents="greedy", games=3)
    assert code == 2
    assert "played another way (agents random" in err and len(err.strip().splitlines()) == 1


def test_resume_needs_out(capsys):
    assert main(["simulate", "tic_tac_toe", "-n", "2", "--resume"]) == 2
    assert "--resume continues the run kept in --out" in capsys.readouterr().err


def test_a_damaged_line_before_the_last_is_refused():
    text = '{"a": 1}\n{"seed": 2\n'
    with pytest.raises(RowsError, match="f.jsonl:1: not a result row"):
        parse_lines(text, "f.jsonl", torn_tail=True)


def test_progress_without_a_terminal_prints_lines():
    class Pipe(list):
        def write(self, text):
            self.append(text)

        def flush(self):
            pass

    pipe = Pipe()
    progress = Progress(4, stream=pipe, every=0.0)
    for done in range(1, 5):
        progress(done)
    assert len(pipe) == 4 and pipe[-1].startswith("progress: 4/4 games") and "\r" not in "".join(pipe)


def _survivors(marker: str) -> list[int]:
    """Processes whose command line holds `marker` (this run's workers, if any are left)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _start_slow_run(out: Path) -> subprocess.Popen:
    code = "import sys; from meeple.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            code,
            "simulate",
            "tic_tac_toe",
            "-n",
            "200",
            "--jobs",
            "2",
            "--agents",
            "tests.lab_agents:Slow",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_rows(out: Path, count: int, proc) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and len(out.read_text().splitlines()) >= count:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError(f"fewer than {count} rows after 60 s")


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc to find the workers")
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill-9"])
def test_stopping_the_run_stops_its_workers_and_keeps_its_rows(tmp_path, how):
    out = tmp_path / f"slow-{how.name}.jsonl"
    proc = _start_slow_run(out)
    _wait_for_rows(out, 2, proc)
    os.kill(proc.pid, how)
    stdout, stderr = proc.communicate(timeout=30)
    if how == signal.SIGINT:
        assert proc.returncode == 130, stderr
        assert "stopped:" in stderr and "games played" in stdout + stderr
    kept = parse_lines(out.read_text(), str(out), torn_tail=True)
    assert len(kept) >= 2 and all(r["error"] is None for r in kept)
    deadline = time.monotonic() + 10
    while _survivors(str(out)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _survivors(str(out)) == []


# ---------------------------------------------------------------- stop when the answer is known


def test_precision_plays_until_the_interval_is_narrow_enough(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    code = main(
        [
            "simulate",
            "tic_tac_toe",
            "-n",
            "20",
            "--agents",
            "random",
            "--precision",
            "6pp",
            "--on",
            "win/0",
            "--out",
            str(out),
        ]
    )
    stdout, err = capsys.readouterr()
    assert code == 0, err
    games = len(rows_of(out))
    assert games > 20 and "playing up to" in err
    line = next(ln for ln in stdout.splitlines() if ln.startswith("Precision: win/0"))
    assert f"after {games} games" in line and "as asked" in line
    from meeple.interpreter.lab import stats
    from meeple.interpreter.lab.rows import read_rows

    win = stats.summarize(read_rows([out]))["seats"][0]["win_rate"]
    assert (win["high"] - win["low"]) / 2 <= 0.06


def test_precision_stops_at_max_games_and_says_so(tmp_path, capsys):
    code = main(
        ["simulate", "tic_tac_toe", "-n", "10", "--agents", "random", "--precision", "1pp", "--max-games", "30"]
    )
    stdout, _ = capsys.readouterr()
    assert code == 0 and stdout.startswith("30 games of 2 players")
    assert "not reached in 30 games" in stdout


def test_detect_says_how_many_games_a_change_needs(capsys):
    code = main(
        [
            "compare",
            "mudcake_fair",
            "--variant",
            "picky_judges",
            "-n",
            "30",
            "--agents",
            "random",
            "--on",
            "score/0",
            "--detect",
            "1",
        ]
    )
    stdout, _ = capsys.readouterr()
    assert code == 0
    line = next(ln for ln in stdout.splitlines() if ln.startswith("A change of 1 in score/0 needs about"))
    assert line.endswith("paired games to be found with 80% power.")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--precision", "3"], "`win/0` is a rate: give the width in pp"),
        (["--precision", "3pp", "--on", "score/0"], "`score/0` is not a rate"),
        (["--precision=-1pp"], "the width must be above 0"),
        (["--precision", "3", "--on", "nonsense"], "these games have no figure `nonsense`"),
    ],
)
def test_bad_precision_is_one_line(capsys, argv, message):
    code = main(["simulate", "tic_tac_toe", "-n", "5", "--agents", "random", *argv])
    _, err = capsys.readouterr()
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
