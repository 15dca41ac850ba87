"""The core install (lark, pydantic, networkx) plays every shipped ruleset, and a command that
needs an extra says which one in one line. Checked in a subprocess where the extras' libraries
cannot be imported, as if they were not installed."""

from __future__ import annotations

import json
import subprocess
import sys

from meeple.dsl.compiler import shipped_rulesets
from tests.conftest import ROOT

EXTRAS = [
    "numpy",
    "matplotlib",
    "scipy",
    "dask",
    "distributed",
    "pygls",
    "lsprotocol",
    "starlette",
    "uvicorn",
    "websockets",
    "pandas",
]

# Runs in the subprocess: block the extras, then run each command line and report its exit
# code and what it printed on stderr.
SCRIPT = """
import contextlib, importlib.abc, io, json, sys
BLOCKED = set(json.loads(sys.argv[1]))

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NotInstalled())
from meeple.cli import main
import meeple
out = []
for argv in json.loads(sys.argv[2]):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    out.append([code, err.getvalue()])
plays = {name: meeple.load(name).play(agents=["greedy", "random"], seed=3).decisions for name in meeple.rulesets()}
state = meeple.load("tic_tac_toe").start(seed=1)
html = state._repr_html_()
out.append({"plays": plays, "html": html, "loaded": sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)})
print(json.dumps(out))
"""

NEEDS = {
    ("lsp",): "meeple lsp needs the lsp extra: pip install 'meeple[lsp]' (pygls is not installed)",
    ("serve", "tic_tac_toe"): "meeple serve needs the web extra: pip install 'meeple[web]' (uvicorn is not installed)",
    (
        "simulate",
        "tic_tac_toe",
        "-n",
        "2",
        "--report",
        "r.html",
    ): "meeple simulate --report needs the lab extra: pip install 'meeple[lab]' (matplotlib is not installed)",
    (
        "compare",
        "mudcake_fair",
        "--variant",
        "picky_judges",
        "-n",
        "2",
        "--report",
        "r.html",
    ): "meeple compare --report needs the lab extra: pip install 'meeple[lab]' (matplotlib is not installed)",
    (
        "train",
        "tic_tac_toe",
        "--games",
        "1",
        "--out",
        "m.json",
    ): "meeple train needs the lab extra: pip install 'meeple[lab]' (numpy is not installed)",
    (
        "graph",
        "tic_tac_toe",
        "--flow",
        "--svg",
    ): "meeple graph --svg needs the lab extra: pip install 'meeple[lab]' (matplotlib is not installed)",
}


def test_without_the_extras(tmp_path):
    runs = [["run", name, "--seed", "2", "--agents", "planner@5,random"] for name in shipped_rulesets()]
    ttt = str(shipped_rulesets()["tic_tac_toe"])
    runs += [
        ["simulate", "tic_tac_toe", "-n", "3"],
        ["list"],
        ["check", ttt],
        ["fmt", "--check", ttt],
        ["graph", "tic_tac_toe", "--flow"],
        ["run", "connect_four", "--trace", "t.jsonl"],
        ["replay", "t.jsonl"],
        ["show", "t.jsonl", "--step", "3", "--seat", "2"],
        ["bench", "tic_tac_toe", "--seconds", "0.2", "--repeats", "1"],
        ["new", "my_game"],
        ["run", "my_game/my_game.rules"],
    ]
    commands = runs + [list(argv) for argv in NEEDS]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(EXTRAS), json.dumps(commands)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    *results, api = json.loads(done.stdout)
    for argv, (code, err) in zip(runs, results):
        assert (code, err) == (0, ""), argv
    for argv, (code, err) in zip(NEEDS, results[len(runs) :]):
        assert (code, err) == (2, NEEDS[argv] + "\n"), argv
    assert set(api["plays"]) == set(shipped_rulesets()) and all(n > 0 for n in api["plays"].values())
    assert "<pre>start player" in api["html"] and "<svg" not in api["html"]  # the text stands in for the picture
    assert api["loaded"] == []
