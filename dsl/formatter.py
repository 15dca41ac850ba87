"""The canonical layout of .rules files: `meeple fmt FILE...` and `meeple fmt --check FILE...`.

Two designers who write the same rules get the same text, so diffs show rule
changes, not spacing. The formatter only moves whitespace: every token, every
string and every comment is kept as written, and the result is parsed again and
must give the same AST as the input (else `FormatError`, and nothing is written).

The canonical form:

* Indentation is 4 spaces per block level, rebuilt from the parser's blocks
  (tabs and 2-space indents become 4 spaces).
* One space around binary operators and keywords (`=`, `+=`, `==`, `+`, `*`,
  `//`, `|`, `and`, `if ... else`), one after a comma or a colon, none before
  them, none inside brackets (`[a, b]`, `f(x)`), none around `.` and `..`
  (`c.row`, `1..3`), none after a unary minus (`-1`), none between a table key
  and its `+` (`{5+: 25}`), none between a name and the `(` of a call or the
  `[` of an index (`count(x)`, `bag[s]`, `[white, black][p]`).
* Line breaks are the designer's: a long expression may be broken inside
  brackets. A continuation line is indented 4 spaces past the line holding the
  innermost open bracket, or, if it was aligned with the first item after
  that bracket (`[1,` then `2]` under the `1`), aligned with it again; a line
  that starts with a closing bracket lines up with the line that opened it.
* A full-line comment is indented like the line it precedes; after the end of
  a block it may stay at the level of any block being closed, whichever its
  column matched. An end-of-line comment keeps its column (moved with its
  line's indentation) if that leaves two spaces after the code, else it sits
  two spaces after the code. Comment text is kept, minus trailing whitespace.
* No trailing whitespace; `\\n` line ends; no blank lines at the start or end
  of the file; at most 2 blank lines in a row between top-level lines and at
  most 1 inside blocks and brackets; exactly one newline at the end (an empty
  file stays empty).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Tree

from meeple.dsl.errors import MeepleError, read_text
from meeple.dsl.parser import GRAMMAR, MAX_SOURCE, RulesIndenter, parse_text

INDENT = 4
BLANKS_TOP, BLANKS_BLOCK = 2, 1
OPENERS, CLOSERS = ("(", "[", "{"), (")", "]", "}")
NO_SPACE_BEFORE = {",", ":", ")", "]", "}", ".", ".."}
NO_SPACE_AFTER = {"(", "[", "{", ".", ".."}
# grammar rules whose `(` or `[` sticks to the name or value before it
GLUED = {
    "call",
    "field_call",
    "function_decl",
    "effect_decl",
    "reaction_decl",
    "action_decl",
    "index",
    "multi_index",
    "zone_ref",
}


class FormatError(Exception):
    """The formatted text would not mean the same as the input: a formatter bug, never the file's."""


@dataclasses.dataclass
class _Tok:
    text: str
    start: int  # offsets in the source
    end: int
    col0: int  # 0-based column in its source line
    parent: str  # the grammar rule (or alias) the token belongs to
    depth: int  # block level of the logical line it is on


@dataclasses.dataclass
class _Bracket:
    line_indent: int  # output indentation of the line that opened it
    last_on_line: bool
    inner_col0: int = -1  # source column of the token after it on its line, if any
    inner_new_col0: int = -1  # output column of that token


@functools.lru_cache(maxsize=1)
def _lark_all() -> Lark:
    # The same grammar and indenter as the parser, but every token kept in the tree.
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        postlex=RulesIndenter(),
        keep_all_tokens=True,
        maybe_placeholders=False,
        cache=False,
    )


def _tokens(source: str) -> list[_Tok]:
    """The significant tokens in source order, each with its rule and block depth."""
    out, depth = list[_Tok](), 0
    stack: list[tuple[str, Iterator[Any]]] = [("", iter([_lark_all().parse(source)]))]
    while stack:  # an explicit stack: long expressions nest deeper than Python recursion likes
        parent, children = stack[-1]
        child: Any = next(children, stack)
        if child is stack:
            stack.pop()
        elif isinstance(child, Tree):
            stack.append((str(child.data), iter(child.children)))
        elif child.type == "_INDENT":
            depth += 1
        elif child.type == "_DEDENT":
            depth -= 1
        elif child.type != "_NL":
            line_start = source.rfind("\n", 0, child.start_pos) + 1
            out.append(_Tok(str(child), child.start_pos, child.end_pos, child.start_pos - line_start, parent, depth))
    return out


def _space(prev: _Tok, tok: _Tok) -> str:
    """The canonical space between two tokens on one line."""
    if tok.text in NO_SPACE_BEFORE or prev.text in NO_SPACE_AFTER:
        return ""
    if prev.text == "-" and prev.parent == "neg":
        return ""
    if tok.text in ("(", "[") and tok.parent in GLUED:
        return ""
    if tok.text == "+" and tok.parent == "key_from":
        return ""
    return " "


class _Writer:
    """Builds the output line by line from tokens and the comments between them."""

    def __init__(self, source: str):
        self.src = source
        self.lines: list[str] = []
        self.blanks = 0  # blank lines seen and not yet written
        self.delta = 0  # output minus source indentation of the current line
        self.line_indent = 0  # output indentation of the current line
        self.brackets: list[_Bracket] = []
        self.cols: list[int] = []  # source indentation of the latest line at each depth
        self.depth = 0  # depth of the latest logical line

    def new_line(self, text: str, indent: int, top: bool) -> None:
        if self.lines:
            self.lines.extend([""] * min(self.blanks, BLANKS_TOP if top else BLANKS_BLOCK))
        self.blanks = 0
        self.lines.append(" " * indent + text)

    def end_comment(self, prev: _Tok, segment: str) -> None:
        """An end-of-line comment after `prev`: keep its column if there is room."""
        text = segment.strip()
        if not text:
            return
        if not text.startswith("#"):
            raise FormatError(f"unexpected text between tokens: {text!r}")
        old_col = prev.col0 + (prev.end - prev.start) + len(segment) - len(segment.lstrip())
        line = self.lines[-1]
        col = max(old_col + self.delta, len(line) + 2)
        self.lines[-1] = line + " " * (col - len(line)) + text

    def full_lines(self, segments: list[str], next_tok: _Tok | None, code_indent: int) -> None:
        """Blank and comment-only lines before `next_tok` (None: the end of the file)."""
        for segment in segments:
            text = segment.strip()
            if not text:
                self.blanks += 1
                continue
            if not text.startswith("#"):
                raise FormatError(f"unexpected text between tokens: {text!r}")
            if self.brackets:
                indent = code_indent
                if next_tok is not None and next_tok.text in CLOSERS:
                    indent = self.brackets[-1].line_indent + INDENT
                self.new_line(text, indent, False)
                continue
            lo = next_tok.depth if next_tok is not None else 0
            hi = max(self.depth, lo) if self.lines else lo
            col = len(segment) - len(segment.lstrip())
            depth = next((k for k in range(hi, lo, -1) if k < len(self.cols) and self.cols[k] <= col), lo)
            self.new_line(text, INDENT * depth, depth == 0)

    def indent_for(self, tok: _Tok) -> int:
        if not self.brackets:
            return INDENT * tok.depth
        top = self.brackets[-1]
        if tok.text in CLOSERS:
            return top.line_indent
        if not top.last_on_line and tok.col0 == top.inner_col0:
            return top.inner_new_col0
        return top.line_indent + INDENT

    def write(self, toks: list[_Tok]) -> str:
        prev = None
        for i, tok in enumerate(toks):
            segments = self.src[prev.end if prev else 0 : tok.start].split("\n")
            if prev is not None and len(segments) == 1:
                self.lines[-1] += _space(prev, tok) + tok.text
            else:
                if prev is not None:
                    self.end_comment(prev, segments[0])
                    segments = segments[1:]
                indent = self.indent_for(tok)
                self.full_lines(segments[:-1], tok, indent)
                logical = not self.brackets
                if logical:
                    self.cols[tok.depth :] = []
                    self.cols.extend([0] * (tok.depth + 1 - len(self.cols)))
                    self.cols[tok.depth] = len(segments[-1])
                    self.depth = tok.depth
                self.new_line(tok.text, indent, logical and tok.depth == 0)
                self.delta = indent - len(segments[-1])
                self.line_indent = indent
            if prev is not None and prev.text in OPENERS and not self.brackets[-1].last_on_line:
                self.brackets[-1].inner_new_col0 = len(self.lines[-1]) - len(tok.text)
            if tok.text in OPENERS:
                after = toks[i + 1] if i + 1 < len(toks) else None
                last = after is None or "\n" in self.src[tok.end : after.start]
                self.brackets.append(_Bracket(self.line_indent, last, -1 if last or after is None else after.col0))
            elif tok.text in CLOSERS:
                self.brackets.pop()
            prev = tok
        segments = self.src[prev.end if prev else 0 :].split("\n")
        if prev is not None:
            self.end_comment(prev, segments[0])
            segments = segments[1:]
        self.full_lines(segments, None, 0)
        return "\n".join(self.lines) + "\n" if self.lines else ""


def ast_shape(node):
    """An AST as plain data without source positions: equal shapes mean equal rules."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            (f.name, ast_shape(getattr(node, f.name))) for f in dataclasses.fields(node) if not f.name.endswith("span")
        )
    if isinstance(node, (list, tuple)):
        return tuple(ast_shape(x) for x in node)
    if isinstance(node, dict):
        return tuple(sorted((repr(k), ast_shape(v)) for k, v in node.items()))
    return node


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical text of a ruleset; raises the parser's MeepleError if it does not parse."""
    source = text if text.endswith("\n") else text + "\n"
    before = parse_text(source, path)
    result = _Writer(source).write(_tokens(source))
    try:
        after = parse_text(result, path)
    except MeepleError as exc:
        raise FormatError(f"the formatted text does not parse: {exc.diagnostics[0].message}") from None
    if ast_shape(before.items) != ast_shape(after.items):
        raise FormatError("the formatted text would mean something else")
    return result


# ----------------------------------------------------------------- command line
def configure_fmt(parser) -> None:
    """The arguments of `meeple fmt` on an argparse (sub)parser."""
    parser.add_argument("files", nargs="+", help=".rules files, or folders to search for them")
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a file is not in the canonical form"
    )
    parser.add_argument("--diff", action="store_true", help="change nothing; print what would change")


def _expand(names: list[str]) -> tuple[list[str], list[str]]:
    """The .rules files named or found in folders (symlinked folders are not followed), and
    the problems with names that are not such files."""
    out, problems = list[str](), list[str]()
    for name in names:
        if os.path.isdir(name):
            for root, dirs, files in os.walk(name, followlinks=False):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                out.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".rules"))
        elif not name.endswith(".rules"):
            problems.append(f"{name}: error: not a .rules file (fmt only rewrites .rules files)")
        else:
            out.append(name)
    return out, problems


def _write_atomic(path: Path, text: str) -> None:
    """Replace the file in one step: a crash leaves the old or the new text, never half of one."""
    target = Path(os.path.realpath(path))
    mode = target.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _plural(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def cmd_fmt(args) -> int:
    """`meeple fmt`: 0 if all is well, 1 on unreadable or broken files or (with --check) unformatted ones.

    Every file is read and formatted before any is written: one broken file leaves all unchanged."""
    check, diff = getattr(args, "check", False), getattr(args, "diff", False)
    names, problems = _expand(args.files)
    for problem in problems:
        print(problem, file=sys.stderr)
    bad, same, todo = len(problems), 0, []
    for name in names:
        try:
            text = read_text(Path(name), MAX_SOURCE, "a ruleset")
            new = format_text(text, name)
        except MeepleError as exc:
            print(exc.located(name, "").format(), file=sys.stderr)
            bad += 1
            continue
        except FormatError as exc:
            print(
                f"{name}: error: cannot format: {exc} (a bug in the formatter; the file is unchanged)", file=sys.stderr
            )
            bad += 1
            continue
        except RecursionError:
            print(f"{name}: error: nested too deeply to format", file=sys.stderr)
            bad += 1
            continue
        if new == text:
            same += 1
        else:
            todo.append((name, text, new))
    writing = not (check or diff or bad)
    changed = 0
    for name, text, new in todo:
        if diff:
            sys.stdout.writelines(
                difflib.unified_diff(text.splitlines(True), new.splitlines(True), name, name + " (formatted)")
            )
        if not writing:
            print(f"would reformat {name}")
            changed += 1
            continue
        try:
            _write_atomic(Path(name), new)
        except OSError as exc:
            print(f"{name}: error: cannot write: {exc.strerror or exc}", file=sys.stderr)
            bad += 1
            continue
        changed += 1
        print(f"reformatted {name}")
    parts = [_plural(changed, "file") + (" reformatted" if writing else " would be reformatted")] if changed else []
    parts.append(_plural(same, "file") + " already formatted")
    if bad:
        parts.append(
            _plural(bad, "file")
            + " could not be formatted"
            + ("; nothing was written" if todo and not (check or diff) else "")
        )
    print(", ".join(parts))
    return 1 if bad or (check and changed) else 0
