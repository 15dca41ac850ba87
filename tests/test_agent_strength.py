"""benchmarks/agent_strength.py: which games each part plays (the games themselves are not played here)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "agent_strength.py"


@pytest.fixture
def bench(monkeypatch):
    """The benchmark module with `run` replaced: it records the tasks and returns made-up rows."""
    spec = importlib.util.spec_from_file_location("agent_strength", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    asked = []

    def fake_run(tasks, jobs):
        asked.extend(tasks)
        return [
            {
                "served": [2, 1],
                "scores": [50, 40],
                "wins": [1, 0],
                "cured": [3] * len(agents),
                "won": True,
                "seconds": [0.1] * len(agents),
                "decisions": [5] * len(agents),
            }
            for _, agents, *_ in tasks
        ]

    monkeypatch.setattr(module, "run", fake_run)
    module.asked = asked
    return module


def test_figures_for_one_game_play_only_that_game(bench, capsys):
    bench.figures("greedy", 3, 101, 1, ["wild_gardens"])
    assert bench.asked == [("wild_gardens", ("greedy", "greedy"), s) for s in (101, 102, 103)]
    out = capsys.readouterr().out
    assert "seeds 101..103" in out and "Wild Gardens 2p: 1.50" in out and "Apothebakery" not in out


def test_figures_without_a_game_play_all_three(bench, capsys):
    bench.figures("greedy", 2, 1, 1)
    assert [(g, len(a)) for g, a, _ in bench.asked] == [("wild_gardens", 2)] * 2 + [("apothebakery", 2)] * 2 + [
        ("apothebakery", 1)
    ] * 2
    out = capsys.readouterr().out
    assert "Wild Gardens 2p" in out and "Apothebakery 2p" in out and "Apothebakery solo: won 2 of 2" in out


def test_the_game_option_reaches_the_figures(bench, monkeypatch):
    seen = {}
    monkeypatch.setattr(bench, "figures", lambda *args: seen.setdefault("args", args))
    monkeypatch.setattr(
        "sys.argv",
        [
            "agent_strength.py",
            "--part",
            "figures",
            "--game",
            "wild_gardens",
            "--games",
            "7",
            "--seed",
            "101",
            "--jobs",
            "1",
        ],
    )
    assert bench.main() == 0
    assert seen["args"] == ("greedy", 7, 101, 1, ["wild_gardens"])


def test_duels_keep_every_game_as_a_json_line(bench, tmp_path, capsys):
    """The agent sits first in even-numbered games: the made-up rows' first seat wins by 10."""
    path = tmp_path / "games.jsonl"
    bench.duels("rollout", 3, 11, 1, ["queens_wishes"], ["greedy"], str(path))
    bench.duels("rollout", 1, 14, 1, ["queens_wishes"], ["greedy"], str(path))  # appended, not replaced
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["seed"], r["seat"], r["win"], r["margin"]) for r in rows] == [
        (11, 0, 1, 10),
        (12, 1, 0, -10),
        (13, 0, 1, 10),
        (14, 0, 1, 10),
    ]
    assert {(r["game"], r["agent"], r["opponent"]) for r in rows} == {("queens_wishes", "rollout", "greedy")}
    assert "66.7%" in capsys.readouterr().out


def test_the_games_file_option_reaches_the_duels(bench, monkeypatch, tmp_path):
    seen = {}
    path = str(tmp_path / "g.jsonl")
    monkeypatch.setattr(bench, "duels", lambda *args: seen.setdefault("args", args))
    monkeypatch.setattr("sys.argv", ["agent_strength.py", "--part", "duels", "--games-file", path])
    assert bench.main() == 0
    assert seen["args"][-2] == path and seen["args"][-1] == {}


def test_a_duel_can_be_played_with_an_option(bench, tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    bench.duels("rollout", 2, 7, 1, ["queens_wishes"], ["greedy"], str(path), {"scoring": "B"})
    assert [t[3] for t in bench.asked] == [(("scoring", "B"),)] * 2
    assert "queens_wishes scoring=B" in capsys.readouterr().out
    assert [json.loads(line)["options"] for line in path.read_text().splitlines()] == [{"scoring": "B"}] * 2
    assert bench.engine_for("queens_wishes", (("scoring", "B"),)).game.options["scoring"] == "B"


def test_an_option_without_a_game_is_refused(bench, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["agent_strength.py", "--part", "duels", "--option", "scoring=B"])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2 and bench.asked == []
    assert "--option NAME=VALUE goes with --part duels and --game" in capsys.readouterr().err


def test_a_played_game_keeps_each_score_rules_points():
    spec = importlib.util.spec_from_file_location("agent_strength_real", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    row = module.play(("tic_tac_toe", ("random", "random"), 3))
    assert [sum(b.values()) for b in row["breakdown"]] == row["scores"] and len(row["breakdown"]) == 2


def test_a_games_file_that_cannot_be_written_is_refused_before_any_game(bench, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("sys.argv", ["agent_strength.py", "--part", "duels", "--games-file", str(tmp_path)])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2 and bench.asked == []
    assert f"--games-file {tmp_path}: Is a directory" in capsys.readouterr().err


def test_agreement_values_the_agents_picks_by_greedys_gains():
    """Greedy beside greedy (seeded alike) picks the same every time and gives up nothing;
    random beside greedy picks otherwise at some decisions and gives up outlook there."""
    spec = importlib.util.spec_from_file_location("agent_strength", PATH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    same = bench.shadow(("mudcake_fair", "greedy", 3))
    assert same["decided"] >= 5 and same["agreed"] == same["decided"] and same["given_up"] == 0
    other = bench.shadow(("mudcake_fair", "random", 3))
    assert other["agreed"] < other["decided"] and other["given_up"] > 0
