"""The house rules, checked: imports run one way through the layers of docs/architecture.md (the
import-linter contracts in pyproject.toml), no module imports itself back through others, every
module of the package sits in a layer, and ruff finds nothing (its rules in pyproject.toml).

The contract is also shown to bite: a copy of the package where the parser imports the engine
breaks it, naming that import."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp  # import-linter's graph: the lint extra, which `make setup` installs
import networkx as nx
import pytest

from tests.conftest import ROOT


def tool(name: str) -> str:
    found = Path(sys.executable).parent / name
    if not found.exists():
        pytest.fail(f"{name} is missing: `make setup` installs the `lint` extra")
    return str(found)


def graph():
    return grimp.build_graph("meeple", exclude_type_checking_imports=True, cache_dir=None)


def layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return [[m.strip() for m in layer.replace("|", ":").split(":")] for layer in contract["layers"]]


def test_the_layers_contract_is_kept():
    done = subprocess.run([tool("lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


def test_no_module_imports_itself_back():
    g = graph()
    edges = nx.DiGraph((m, i) for m in g.modules for i in g.find_modules_directly_imported_by(m))
    circles = [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1]
    assert circles == []


def test_every_module_sits_in_a_layer():
    named = [m for layer in layers() for m in layer]
    outside = sorted(
        m
        for m in graph().modules
        if m != "meeple"
        and not any(m == n or m.startswith(n + ".") for n in named)
        and not any(n.startswith(m + ".") for n in named)
    )  # a package holding layers
    assert outside == []


def contracts_with(tmp_path, module: str, line: str) -> str:
    """lint-imports' report on a copy of the package where `module` (a path under meeple/) has one
    more import line; the copy follows the links, so the real tree is never touched."""
    copy = tmp_path / "meeple"
    shutil.copytree(
        ROOT / "meeple",
        copy,
        symlinks=False,
        ignore=shutil.ignore_patterns("__pycache__", "rulesets", "static", "*.csv", "*.rules"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    path = copy / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    done = subprocess.run(
        [tool("lint-imports"), "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 kept, 1 broken" in done.stdout
    return done.stdout


def test_a_forbidden_import_breaks_the_contract(tmp_path):
    """The front end imports nothing of the runtime: a parser that imports the engine is refused."""
    report = contracts_with(tmp_path, "dsl/parser.py", "from meeple.interpreter import engine")
    assert "One-way layers BROKEN" in report
    assert "meeple.dsl.parser -> meeple.interpreter.engine" in report


def test_the_compiler_reaches_the_runtime_through_one_module(tmp_path):
    """dsl/runtime.py is the compiler's one window onto the runtime: a compiler module importing
    a runtime module itself is refused, though the layers allow it."""
    report = contracts_with(tmp_path, "dsl/compile_flow.py", "from meeple.interpreter.effects import zones as _zones")
    assert "dsl/runtime.py alone BROKEN" in report
    assert "meeple.dsl.compile_flow -> meeple.interpreter.effects.zones" in report


def test_ruff_finds_nothing():
    done = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted():
    """`ruff format` owns the layout of every Python file (run it before committing)."""
    done = subprocess.run(
        [tool("ruff"), "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
