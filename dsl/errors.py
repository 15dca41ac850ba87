"""Errors for people: every problem in a .rules file points at its source.

A `MeepleError` carries the file, line and column, a message and a hint, and
formats itself the way compilers do::

    rules.rules:12:5: error: unknown zone `suply`
        draw 1 from suply into hand
                    ^^^^^
    hint: did you mean `supply`?

The same class reports run-time rule errors (a choice with no options and no
`otherwise`, a step limit hit) with the `.rules` line that caused them.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node sits in its source: 1-based lines and columns."""

    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0


NOSPAN = Span()


def span_field() -> Span:
    """The `span` field of an AST node (dsl/ast*.py): not compared, not printed, none by default."""
    return field(default=NOSPAN, kw_only=True, compare=False, repr=False)


PART = "# meeple: the file "  # a line of a joined source that says where the next file's text begins


def joined(first_path: str, first: str, more: list[tuple[str, str]]) -> str:
    """Several files' texts as one source (a ruleset and the variant files laid over it). A
    comment line before each later file names it, so an error in it names its own file and line."""
    text = first if first.endswith("\n") else first + "\n"
    for path, source in more:
        text += f"{PART}{path}\n" + (source if source.endswith("\n") else source + "\n")
    return text


def part_of(source: str, path: str, line: int) -> tuple[str, int]:
    """The file and line a line of a (possibly joined) source comes from."""
    if PART not in source or not line:
        return path, line
    for number, text in reversed(list(enumerate(source.splitlines()[:line], 1))):
        if text.startswith(PART):
            return text[len(PART) :], line - number
    return path, line


@dataclass
class Diagnostic:
    """One message about a ruleset: an error or a warning."""

    message: str
    span: Span = field(default_factory=Span)
    hint: str = ""
    severity: str = "error"
    path: str = ""
    source: str = ""

    def format(self) -> str:
        path, line = part_of(self.source, self.path or "<rules>", self.span.line)
        where = path + (f":{line}:{self.span.col}" if self.span.line else "")
        lines = [f"{where}: {self.severity}: {self.message}"]
        src_lines = self.source.splitlines()
        if self.span.line and self.span.line <= len(src_lines):
            text = src_lines[self.span.line - 1].replace("\t", " ")
            lines.append("    " + text)
            start = max(self.span.col, 1)
            if self.span.end_line == self.span.line and self.span.end_col > start:
                width = self.span.end_col - start
            else:
                width = max(1, len(text.rstrip()) - start + 1)
            lines.append("    " + " " * (start - 1) + "^" * max(1, width))
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


class MeepleError(Exception):
    """A problem with a ruleset (or with running one) that a person must fix."""

    def __init__(
        self,
        diagnostics: list[Diagnostic] | Diagnostic | str,
        span: Span | None = None,
        hint: str = "",
        path: str = "",
        source: str = "",
    ):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(diagnostics, span or Span(), hint, "error", path, source)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__(self.format())

    def format(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)

    def located(self, path: str, source: str) -> MeepleError:
        """Fill in the file for diagnostics raised before the file was known."""
        for d in self.diagnostics:
            d.path = d.path or path
            d.source = d.source or source
        self.args = (self.format(),)
        return self


def did_you_mean(name: str, known, what: str = "") -> str:
    """A hint naming the closest known name, if one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    return f"no {what or 'name'} by that name is defined" if what else ""


# A data file (cards, boards, layouts) past this is not a game's data; the largest shipped one is
# about 9 kB. Rules files have their own bound (dsl/parser.py MAX_SOURCE).
MAX_DATA_BYTES = 20_000_000


def read_text(path: Path, limit: int = MAX_DATA_BYTES, what: str = "a data file") -> str:
    """Read a file as UTF-8, turning OS and decoding problems into MeepleErrors. A file past
    `limit` bytes is refused before it is read (and no more than `limit` is ever read: a
    device or a growing file may say it is small)."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            data = b"" if size > limit else f.read(limit + 1)
    except OSError as exc:
        raise MeepleError(f"cannot read {path}: {exc.strerror or exc}", path=str(path)) from None
    if size > limit or len(data) > limit:
        shown = f"{size / 1e6:.1f} MB" if size > limit else f"more than {limit / 1e6:g} MB"
        raise MeepleError(f"this file is {shown}; {what} is at most {limit / 1e6:g} MB", Span(1, 1), path=str(path))
    try:
        # Excel and Notepad start UTF-8 files with a byte-order mark: accept it
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MeepleError(
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})",
            Span(line, col, line, col + 1),
            "save the file as UTF-8",
            path=str(path),
        ) from None
