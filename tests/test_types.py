"""The type checker: mypy, in its default mode with [tool.mypy] from pyproject.toml, finds no
error in the package (meeple/ with dsl/, interpreter/ and cli.py as `meeple.*`), and it reads
those folders' code through `meeple.dsl...` imports: a wrong type from them is an error.

Cold, mypy takes about a minute on two busy cores; it keeps its cache in .mypy_cache (ignored
by git), and a second run takes about a second."""

from __future__ import annotations

import subprocess
import sys

import pytest

from meeple.dsl.compiler import compile_ruleset
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_text
from meeple.interpreter.engine import Engine
from meeple.interpreter.lab import precision
from tests.conftest import ROOT

# A module of a user's: a function of dsl/ and a method of interpreter/ seen through the package,
# and one wrong assignment that mypy must catch.
PROBE = """
from meeple.dsl.parser import parse_text
from meeple.interpreter.engine import Engine
reveal_type(parse_text)
reveal_type(Engine.scores)
wrong: int = parse_text("").items
"""


def mypy(*args: str) -> subprocess.CompletedProcess:
    # Both runs share the cache, so they run one after the other in this one test.
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True, timeout=280, check=False
    )


def test_types(tmp_path):
    package = mypy()  # the files and settings of [tool.mypy]
    assert package.returncode == 0 and "Success: no issues found" in package.stdout, package.stdout + package.stderr

    (tmp_path / "probe.py").write_text(PROBE, encoding="utf-8")
    probe = mypy(str(tmp_path / "probe.py"))
    out = probe.stdout
    assert '"def (source: str, path: str =) -> meeple.dsl.ast_decls.Ruleset"' in out, out
    assert "-> list[dict[Any, Any]]" in out and "meeple.interpreter.scoring.Scoring" in out, out
    assert (
        'error: Incompatible types in assignment (expression has type "list[Any]", variable has type "int")' in out
    ), out
    assert probe.returncode == 1 and "Found 1 error" in out, out


# Two bugs mypy found on its first run over the package.


def test_an_outcome_whose_condition_fails_is_a_located_error():
    """A Python error in an outcome's condition named no outcome: it was an UnboundLocalError."""
    text = (
        'game "Odd"\nplayers 1..2\ncounter dragon = 12\nscore "Gold": 10\n'
        'outcome if "x" < dragon:\n    win: "Won"\nsetup:\n    dragon += 1\n'
    )
    engine = Engine(compile_ruleset(parse_text(text, "odd.rules"), {}, []))
    state, _ = engine.start(1, 1)
    with pytest.raises(MeepleError) as caught:
        engine.outcome(state)
    message = caught.value.format()
    assert message.startswith("odd.rules:5:1: error: in the outcome: '<' not supported"), message


def test_precision_after_one_game_plays_two():
    """With one game a side a figure has no interval yet: the next round plays two (games_for
    subtracted the interval's missing ends)."""
    summary = {
        "kind": "summary",
        "seats": [],
        "length": {"steps": {"mean": 9.0, "low": None, "high": None, "sd": None, "n": 1}},
    }
    assert precision.estimate(summary, "steps") == (9.0, None, None, None, 1)
    assert not precision.narrow_enough(summary, "steps", 1.0)
    assert precision.games_for(summary, "steps", 1.0, 1) == 2
    assert precision.games_for(summary, "steps", 1.0, 10) == 15
