"""Shared helpers: build engines from inline rules text, text snapshots, fixed seeds."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from meeple.dsl.compiler import compile_ruleset, find_ruleset, shipped_rulesets
from meeple.dsl.parser import parse_file, parse_text
from meeple.interpreter.engine import Engine

ROOT = Path(__file__).resolve().parent.parent


class TextSnapshot(SingleFileSnapshotExtension):
    """One reviewed .txt file per snapshot, next to the tests in __snapshots__/."""

    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def text_snapshot(snapshot):
    return snapshot.use_extension(TextSnapshot)


def rules(text: str, tmp_path: Path | None = None, files: dict | None = None, options=None, variants=None) -> Engine:
    """An engine for inline rules text (dedented); data files are written beside it."""
    text = textwrap.dedent(text).lstrip("\n")
    if tmp_path is None:
        rs = parse_text(text, "<test>")
    else:
        for name, content in (files or {}).items():
            (tmp_path / name).write_text(textwrap.dedent(content).lstrip("\n"))
        path = tmp_path / "game.rules"
        path.write_text(text)
        rs = parse_file(path)
    return Engine(compile_ruleset(rs, options or {}, variants or []))


def shipped(name: str, options=None, variants=None) -> Engine:
    return Engine(compile_ruleset(parse_file(find_ruleset(name)), options or {}, variants or []))


def run_choices(engine: Engine, state: dict, ids: list[str]) -> dict:
    for choice in ids:
        state, _ = engine.apply(state, choice)
    return state


SHIPPED = sorted(shipped_rulesets())
