"""The play table under attack (issue 35, the red team's third pass): each test sends what the red
team sent and asserts the server refuses it in words, keeps serving, and opens nothing it should not.
Trace and save reading (shared with the command line) is checked here too, with the same inputs."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from meeple.cli import load, main
from meeple.interpreter import runner, trace
from meeple.interpreter.table.app import create_app

GAMES = ["queens_wishes"]
DEEP = "[" * 100_000 + "]" * 100_000


def client(db=":memory:", games=GAMES, traces=None, **kw) -> TestClient:
    return TestClient(create_app(games, db, traces, allowed_hosts=["testserver"], **kw))


def recorded(game="queens_wishes", players=2, seed=1, ruleset=None) -> str:
    """A trace's text; `ruleset` rewrites what its header names (the chain recomputed, as an attacker can)."""
    result = runner.play(load(game), players, seed, ["random"], game)
    if ruleset is not None:
        result.trace.lines[0]["ruleset"] = ruleset
    return result.trace.jsonl()


# ----------------------------------------------------------------- traces and saves from outside
@pytest.mark.parametrize("line, message", [
    ('{"a": ' + DEEP + "}", "nested more than 32 levels deep"),
    ('{"a": ' + "[" * 40 + "]" * 40 + "}", "nested more than 32 levels deep"),
    ('{"seed": ' + "9" * 5000 + "}", "more than 4300 digits"),
], ids=["100000 deep", "41 deep", "5000 digits"])
def test_a_trace_nested_deep_or_with_huge_numbers_is_one_trace_error(tmp_path, capsys, line, message):
    with pytest.raises(trace.TraceError, match=message):
        trace.parse(line + "\n", "t.jsonl")
    path = tmp_path / "t.jsonl"
    path.write_text(line + "\n")
    for argv in (["replay", str(path)], ["show", str(path), "--step", "1"], ["serve", "--trace", str(path)]):
        assert main(argv) in (1, 2)
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, (argv, err)


@pytest.mark.parametrize("text, message", [
    ('{"meeple_save": 1, "x": ' + DEEP + "}", "nested more than 32 levels deep"),
    ('{"meeple_save": 1, "seat": ' + "9" * 5000 + "}", "more than 4300 digits"),
], ids=["100000 deep", "5000 digits"])
def test_a_save_nested_deep_or_with_huge_numbers_is_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "s.json"
    path.write_text(text)
    assert main(["play", "queens_wishes", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
