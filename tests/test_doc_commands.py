"""The commands the guides give to reproduce a figure are real command lines: each `meeple ...` and
`agent_strength.py ...` in docs/agents.md, docs/performance.md and docs/lab.md parses with today's
arguments (a renamed flag or a dropped option fails here, not in a reader's terminal)."""

from __future__ import annotations

import importlib.util
import re
import shlex

import pytest

from meeple.cli import CommandError, build_parser
from tests.conftest import ROOT

GUIDES = ["agents.md", "performance.md", "lab.md"]


def commands(text: str) -> list[str]:
    """Inline code spans and the lines of code blocks (a trailing backslash joins the next) that
    run meeple or the strength benchmark, with the executable's path left out."""
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE))
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)
    lines = [ln for b in blocks for ln in b.replace("\\\n", " ").splitlines()]
    found = []
    for cmd in spans + lines:
        cmd = cmd.split("#")[0].strip()
        m = re.match(
            r"(?:\.venv/bin/)?(meeple|(?:\.venv/bin/python )?(?:benchmarks/)?agent_strength\.py)\s(.*)",
            cmd,
        )
        bare = len(m.group(2).split()) < 2 if m and m.group(1) == "meeple" else False  # `meeple compare`: a name
        if m and not bare and "GAME" not in cmd and "..." not in cmd and "[" not in cmd:
            found.append(("meeple" if m.group(1) == "meeple" else "agent_strength") + " " + m.group(2))
    return found


def strength_parser():
    spec = importlib.util.spec_from_file_location("agent_strength", ROOT / "benchmarks" / "agent_strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.parser()


CASES = [(page, cmd) for page in GUIDES for cmd in commands((ROOT / "docs" / page).read_text(encoding="utf-8"))]


def test_the_guides_give_commands():
    pages = {page for page, _ in CASES}
    assert pages == set(GUIDES) and len(CASES) >= 20


@pytest.mark.parametrize("page,command", CASES)
def test_a_guide_command_parses(page, command):
    tool, *argv = shlex.split(command)
    parser = build_parser() if tool == "meeple" else strength_parser()
    try:
        args = parser.parse_args(argv)
    except (SystemExit, CommandError):
        pytest.fail(f"{page}: `{command}` does not parse")
    if tool == "meeple":
        assert callable(args.fn), command


def test_a_wrong_flag_is_caught():
    with pytest.raises(SystemExit):
        strength_parser().parse_args(["--agnet", "quick"])
