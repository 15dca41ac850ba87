"""The docs are one set of pages: every relative link between them (and from README.md) leads to a
file that exists, and a link's `#anchor` to a heading of that page; every guide stays short
enough to read (about 600 lines) and free of a lab notebook's dated entries, which belong in
docs/experiments.md; docs/README.md indexes every page, and the pages build as a site
(mkdocs.yml, `make docs`) with no warning.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.DOTALL | re.MULTILINE)
# The log of what was tried may be long and dated.
LONG_ALLOWED = {"experiments.md"}
NOTEBOOK = re.compile(r"\b[Ss]ession\b|this sitting|\b20\d\d-\d\d-\d\d\b")


def text_of(page) -> str:
    """The page without its fenced code blocks (a `](x)` in an example is not a link)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def anchors(page) -> set[str]:
    """The anchors GitHub (and mkdocs) make for a page's headings, outside code blocks."""
    found = set()
    for heading in re.findall(r"^#+ (.*)$", text_of(page), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        base, n = slug, 1
        while slug in found:  # a repeated heading gets -1, -2, ...
            slug, n = f"{base}-{n}", n + 1
        found.add(slug)
    return found


def links(page) -> list[str]:
    return [a or b for a, b in LINK.findall(text_of(page))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT) if ROOT in dest.parents else dest}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {dest.name}")
    assert broken == [], f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_check_sees_a_broken_link_and_a_missing_heading(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# Top\n\nSee [b](b.md), [top](#top), [gone](#gone).\n```\n[not](a-link.md)\n```\n")
    assert links(page) == ["b.md", "#top", "#gone"]
    assert anchors(page) == {"top"}


GUIDES = [p for p in PAGES if p.name not in LONG_ALLOWED and "rulesets" not in p.parts]


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_guide_fits_in_about_600_lines(page):
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= 620, f"{page.name} has {lines} lines: split it by topic (docs/README.md indexes the pages)"


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_guide_says_what_is_true_today_not_when_it_was_found(page):
    text = re.sub(r"\]\([^)]*\)", "]()", page.read_text(encoding="utf-8"))  # a link's anchor may hold a date
    found = [line for line in text.splitlines() if NOTEBOOK.search(line)]
    assert found == [], f"{page.name}: dated or diary wording belongs in docs/experiments.md: {found[:3]}"


def test_the_index_names_every_page_and_the_readme_links_it():
    index = DOCS / "README.md"
    named = {(index.parent / link.partition("#")[0]).resolve() for link in links(index)}
    pages = {p.resolve() for p in DOCS.rglob("*.md") if p != index}
    assert sorted(str(p.relative_to(ROOT)) for p in pages - named) == []
    assert "docs/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_docs_build_as_a_site_with_no_warning(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra (make setup installs it)")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--quiet",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "cookbook-cards" / "index.html").exists()


def test_the_site_lists_every_page():
    listed = set(
        re.findall(
            r":\s*([\w/-]+\.md)\s*$",
            (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
            re.MULTILINE,
        )
    )
    pages = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert sorted(pages - listed) == [] and sorted(listed - pages) == []
