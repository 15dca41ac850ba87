"""The language reference is part of the product: its examples parse, compile and run,
together they use every construct, and the function table matches the engine's."""

from __future__ import annotations

import dataclasses
import re

import pytest

from meeple.dsl import ast
from meeple.dsl.compiler import compile_ruleset
from meeple.dsl.parser import parse_text
from meeple.interpreter.builtins import FUNCTIONS
from meeple.interpreter.engine import Engine
from meeple.interpreter.rng import Random
from tests.conftest import ROOT

DOCS = [ROOT / "docs" / "language.md"] + sorted((ROOT / "docs").glob("language-*.md"))  # the reference's pages
EXAMPLES = [e for doc in DOCS for e in re.findall(r"```rules\n(.*?)```", doc.read_text(), re.S)]


def walk(node, seen: set):
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        seen.add(type(node).__name__)
        for f in dataclasses.fields(node):
            walk(getattr(node, f.name), seen)
    elif isinstance(node, (list, tuple)):
        for x in node:
            walk(x, seen)
    elif isinstance(node, dict):
        for x in node.values():
            walk(x, seen)


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_example_parses_and_runs(index):
    text = EXAMPLES[index]
    rs = parse_text(text, f"language.md example {index + 1}")
    if 'from "' in text:
        return  # needs data files: parsing is what this example shows
    game = compile_ruleset(rs, {}, [])
    engine = Engine(game)
    rng = Random(index)
    state, _ = engine.start(game.min_players, index)
    steps = 0
    while (d := engine.decision(state)) is not None and steps < 500:
        state, _ = engine.apply(state, rng.below(len(d.options)))
        steps += 1
    assert engine.is_terminal(state), f"example {index + 1} did not finish"
    engine.scores(state)


def test_examples_cover_every_construct():
    seen: set = set()
    for i, text in enumerate(EXAMPLES):
        walk(parse_text(text, f"example {i + 1}").items, seen)
    nodes = {
        name
        for name, cls in vars(ast).items()
        if dataclasses.is_dataclass(cls) and cls.__module__ == ast.__name__ and name != "Ruleset"
    }
    assert sorted(nodes - seen) == []


def test_function_table_matches_the_engine():
    rows = re.findall(
        r"^\| `([a-z_]+)\((.*?)\)` \| (.*?) \| `(.*?)` \|$", "\n".join(doc.read_text() for doc in DOCS), re.M
    )
    documented = {name: (doc, example) for name, _, doc, example in rows}
    assert set(documented) == set(FUNCTIONS)
    for name, builtin in FUNCTIONS.items():
        assert documented[name] == (builtin.doc, builtin.example), name


def test_tic_tac_toe_example_finds_a_winner():
    game = compile_ruleset(parse_text(EXAMPLES[0], "ttt"), {}, [])
    engine = Engine(game)
    state, _ = engine.start(2, 1)
    # P1 takes the top row while P2 plays the middle row
    for cell in ["board@0", "board@3", "board@1", "board@4", "board@2"]:
        state, _ = engine.apply(state, cell)
    assert engine.is_terminal(state)
    assert [s["total"] for s in engine.scores(state)] == [100, 0]


def test_examples_use_every_keyword_of_the_grammar():
    """Flags of a construct (`may`, `undoable`, `as`, `on back`...) have no AST class of their
    own: every keyword of the grammar must appear in some parsed example."""
    from meeple.dsl.parser import keywords

    words = set(re.findall(r"[a-z_]+", "\n".join(re.sub(r"#.*", "", e) for e in EXAMPLES)))
    assert sorted(set(keywords()) - words) == []
