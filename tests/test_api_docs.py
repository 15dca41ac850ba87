"""docs/api.md and docs/research.md are part of the product: their examples run, in order (api.md's
first), and print what they say."""

from __future__ import annotations

import doctest
import re

from tests.conftest import ROOT

DOC = ROOT / "docs" / "api.md"
PAGES = (DOC, ROOT / "docs" / "research.md")  # the research page's examples go on from the library's


def examples() -> list[tuple[object, int, str]]:
    """Each example's page, the line of the page it starts on, and its text."""
    out = []
    for doc in PAGES:
        page = doc.read_text(encoding="utf-8")
        out += [
            (doc, page.count("\n", 0, m.start(1)), m.group(1)) for m in re.finditer(r"```pycon\n(.*?)```", page, re.S)
        ]
    return out


def test_every_example_prints_what_the_page_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the examples write files
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {}
    for i, (doc, line, text) in enumerate(examples()):
        test = parser.get_doctest(text, globs, f"docs/{doc.name} example {i + 1}", str(doc), line)
        runner.run(test, clear_globs=False)
        globs = test.globs  # later examples use what earlier ones made (DocTest copies its globals)
    summary = runner.summarize(verbose=False)
    assert summary.attempted > 40 and summary.failed == 0


def test_every_public_name_is_documented():
    import meeple

    text = "".join(doc.read_text(encoding="utf-8") for doc in PAGES)
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
