"""docs/api.md is part of the product: its examples run, in order, and print what it says."""

from __future__ import annotations

import doctest
import re

from tests.conftest import ROOT

DOC = ROOT / "docs" / "api.md"


def examples() -> list[tuple[int, str]]:
    """Each example's text and the line of the page it starts on."""
    page = DOC.read_text(encoding="utf-8")
    return [(page.count("\n", 0, m.start(1)), m.group(1)) for m in re.finditer(r"```pycon\n(.*?)```", page, re.S)]


def test_every_example_prints_what_the_page_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the examples write files
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for i, (line, text) in enumerate(examples()):
        test = parser.get_doctest(text, globs, f"docs/api.md example {i + 1}", str(DOC), line)
        runner.run(test, clear_globs=False)
        globs = test.globs  # later examples use what earlier ones made (DocTest copies its globals)
    summary = runner.summarize(verbose=False)
    assert summary.attempted > 40 and summary.failed == 0


def test_every_public_name_is_documented():
    import meeple

    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in meeple.__all__ if name not in text]
    assert missing == []


def test_the_readme_links_the_page():
    assert "docs/api.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readmes_python_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "P1      greedy" in capsys.readouterr().out
