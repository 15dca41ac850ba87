"""The built wheel: one top-level package, `meeple`, with the rulesets as package data; and
installed without extras into a fresh virtual environment, it plays every shipped ruleset.

The wheel is built as `pip wheel` builds it (hatchling, pyproject.toml); the fresh environment
installs the core dependencies from pip's cache or index (about 15 s)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from meeple.dsl.compiler import shipped_rulesets
from tests.conftest import ROOT

# What pip and the venv bring along, not part of an install of Meeple.
TOOLING = ("pip", "setuptools", "pkg_resources", "_distutils_hack", "distutils-precedence.pth", "__pycache__")


def run(*args, cwd=None, timeout=240) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, args))}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--quiet",
        "--disable-pip-version-check",
        "--wheel-dir",
        out,
        ROOT,
    )
    (found,) = out.glob("meeple-*.whl")
    return found


def tracked(*paths: str) -> list[str]:
    """The repository's files under `paths`: as git knows them (the product, not scratch files),
    or, outside a git checkout (an unpacked source archive), every file but compiled Python."""
    if (ROOT / ".git").exists():
        return run("git", "ls-files", *paths, cwd=ROOT).split()
    files = [p for path in paths for p in ([ROOT / path] if (ROOT / path).is_file() else (ROOT / path).rglob("*"))]
    return [str(p.relative_to(ROOT)) for p in files if p.is_file() and "__pycache__" not in p.parts]


def test_the_wheel_holds_meeple_and_nothing_else(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"meeple", wheel.name.split("-py3")[0] + ".dist-info"}
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc") or "/tests/" in n]
    expected = {
        f"meeple/{path}"
        for path in tracked("dsl", "interpreter", "rulesets", "cli.py", "meeple")
        if not path.startswith("meeple/")
    } | {path for path in tracked("meeple") if not (ROOT / path).is_dir()}  # links to the folders
    assert sorted(expected - set(names)) == []
    for kind in (".rules", ".csv", ".lark", ".js", ".html", ".css", ".json", ".txt"):
        assert any(n.endswith(kind) for n in names), kind
    assert "meeple/rulesets/queens_wishes/queens_wishes.rules" in names
    assert "meeple/dsl/meeple.lark" in names and "meeple/interpreter/table/static/table.js" in names
    meta = zipfile.ZipFile(wheel).read(f"{wheel.name.split('-py3')[0]}.dist-info/entry_points.txt").decode()
    assert "meeple = meeple.cli:main" in meta


PLAY_EVERY_GAME = """
import json, meeple
out = {}
for name in meeple.rulesets():
    result = meeple.load(name).play(agents=["greedy", "random"], seed=3)
    out[name] = [result.decisions, [s["total"] for s in result.scores]]
print(json.dumps({"games": out, "from": meeple.__file__}))
"""


def test_a_fresh_core_install_plays_every_game(wheel, tmp_path):
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    # The core dependencies first, so that what the wheel itself adds can be seen.
    requires = [
        line.split(":", 1)[1].strip()
        for line in zipfile.ZipFile(wheel)
        .read(f"{wheel.name.split('-py3')[0]}.dist-info/METADATA")
        .decode()
        .splitlines()
        if line.startswith("Requires-Dist:") and "extra ==" not in line
    ]
    assert sorted(r.split(">")[0] for r in requires) == ["lark", "networkx", "pebble", "pydantic"]
    run(*pip, *requires)
    before = {p.name for p in site.iterdir()}
    run(*pip, "--no-deps", wheel)
    added = {p.name for p in site.iterdir()} - before
    assert added == {"meeple", wheel.name.split("-py3")[0] + ".dist-info"}

    # Outside the repository: the installed package, not the source checkout, plays.
    played = json.loads(run(python, "-c", PLAY_EVERY_GAME, cwd=tmp_path))
    assert played["from"].startswith(str(site))
    assert set(played["games"]) == set(shipped_rulesets())
    here = {name: meeple_play(name) for name in shipped_rulesets()}
    assert played["games"] == here, "the installed wheel plays the same games as the source tree"
    assert "P1" in run(venv / "bin" / "meeple", "run", "tic_tac_toe", "--seed", "4", cwd=tmp_path)

    # The size the docs state: the core install without pip's own tooling.
    size = sum(
        f.stat().st_size
        for p in site.iterdir()
        if not p.name.startswith(TOOLING)
        for f in ([p] if p.is_file() else p.rglob("*"))
        if f.is_file()
    )
    print(f"core install: {size / 2**20:.1f} MiB in site-packages")
    assert size < 60 * 2**20  # lark, pydantic, networkx and meeple: tens of MB, not hundreds


def meeple_play(name: str) -> list:
    import meeple

    result = meeple.load(name).play(agents=["greedy", "random"], seed=3)
    return [result.decisions, [s["total"] for s in result.scores]]
