"""The names a ruleset defines, for the language server (dsl/lsp.py): where each is
defined, what kind of thing it is, its first line and the comments above it.

Top-level names (zones, counters, enums and their values, phases, effects...) and
the locals of each block (lets, loop and chosen names, placed cells, parameters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from meeple.dsl import ast
from meeple.dsl.checker import KINDS
from meeple.dsl.errors import Span

FIELD_KINDS = ("field", "cell attribute")


@dataclass
class Definition:
    """Where a name is defined: 0-based line and characters (code points) of the name itself."""

    name: str
    kind: str  # zone, counter, flag, value, enum, enum value, phase, field, ...
    line: int
    start: int
    end: int
    text: str  # the definition's first line
    doc: str  # the comment lines right above the definition
    owner: str = ""  # "enum `mark`", "component `card`"
    variant: str = ""  # the variant that defines it, "" at the top level

    def describe(self) -> str:
        where = f" of {self.owner}" if self.owner else ""
        return f"{self.kind}{where}" + (f" (variant `{self.variant}`)" if self.variant else "")


def _comments_above(lines: list[str], line: int) -> str:
    doc = []
    i = line - 1
    while i >= 0 and lines[i].strip().startswith("#"):
        text = lines[i].strip()[1:].strip()
        if re.match(r"[-=*~_#]{3}", text):  # a section ruler: `# ------- rounds`
            break
        doc.append(text)
        i -= 1
    return "\n".join(reversed(doc))


def index(rs: ast.Ruleset) -> dict[str, list[Definition]]:
    """Every name the ruleset defines, top level first, then inside variants."""
    lines = rs.source.splitlines()
    out: dict[str, list[Definition]] = {}

    def add(name: str, kind: str, span: Span, owner: str = "", variant: str = "", after: str = "") -> None:
        if not span.line or span.line > len(lines):
            return
        row, text = span.line - 1, lines[span.line - 1]
        start = max(span.col - 1, 0)
        if after and after in text[start:]:
            start = text.index(after, start) + len(after)
        m = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])").search(text, start)
        col = m.start() if m else max(span.col - 1, 0)
        out.setdefault(name, []).append(
            Definition(name, kind, row, col, col + len(name), text.strip(), _comments_above(lines, row), owner, variant)
        )

    def walk(items: list, variant: str = "") -> None:
        for item in items:
            kind = item.kind if isinstance(item, ast.CounterDecl) else KINDS.get(type(item))
            if kind:
                add(item.name, kind, item.span, "", variant)
            if isinstance(item, (ast.EnumDecl, ast.OptionDecl)):
                what = "enum" if isinstance(item, ast.EnumDecl) else "option"
                for value in item.values:
                    add(value, f"{what} value", item.span, f"{what} `{item.name}`", variant, after="=")
            elif isinstance(item, ast.ComponentDecl):
                for f in item.fields:
                    add(f.name, "field", f.span, f"component `{item.name}`", variant)
            elif isinstance(item, ast.GridDecl):
                for lay in item.layouts:
                    add(lay.attr, "cell attribute", lay.span, f"grid `{item.name}`", variant)
            elif isinstance(item, ast.VariantDecl):
                add(item.name, "variant", item.span)
                walk(item.items, item.name)

    def params(item, names, what: str) -> None:
        for name in names:
            add(name, "parameter", item.span, f"{what} `{item.name}`", after="(")

    def body(stmts: list, owner: str) -> None:
        """The locals a block binds: lets, loop names, chosen names, `as` names."""
        for s in stmts:
            if isinstance(s, ast.Let):
                add(s.name, "local", s.span, owner, after="let")
            elif isinstance(s, ast.For):
                for name in s.pattern.names:
                    add(name, "loop name", s.span, owner, after="each")
                body(s.body, owner)
            elif isinstance(s, ast.Simultaneous):
                add(s.var, "loop name", s.span, owner, after="each")
                body(s.body, owner)
            elif isinstance(s, (ast.Choose, ast.ChooseSome)):
                add(s.var, "chosen name", s.span, owner, after="choose")
                body(s.body, owner)
                body(s.otherwise or [], owner)
            elif isinstance(s, ast.Place):
                if s.bind:
                    add(s.bind, "placed cells", s.span, owner, after=" as")
            elif isinstance(s, ast.If):
                for _, branch in s.branches:
                    body(branch, owner)
                body(s.else_body or [], owner)
            elif isinstance(s, (ast.Repeat, ast.While, ast.Together, ast.Quietly)):
                body(s.body, owner)
            elif isinstance(s, ast.Menu):
                for entry in s.entries:
                    body(entry.body, owner)

    def blocks(items: list) -> None:
        for item in items:
            if isinstance(item, ast.SetupDecl):
                body(item.body, "setup")
            elif isinstance(item, ast.PhaseDecl):
                body(item.body, f"phase `{item.name}`")
            elif isinstance(item, ast.EffectDecl):
                params(item, item.params, "effect")
                body(item.body, f"effect `{item.name}`")
            elif isinstance(item, ast.FunctionDecl):
                params(item, item.params, "function")
            elif isinstance(item, ast.ReactionDecl):
                params(item, item.params, "reaction")
                body(item.body, f"reaction `{item.name}`")
            elif isinstance(item, ast.ActionDecl):
                params(item, [item.param], "action")
                body(item.body, f"action `{item.name}`")
            elif isinstance(item, ast.VariantDecl):
                blocks(item.items)

    walk(rs.items)
    blocks(rs.items)
    for defs in out.values():
        defs.sort(key=lambda d: d.variant != "")  # the top-level definition first
    return out


LOCAL_KINDS = ("local", "loop name", "chosen name", "placed cells", "parameter")


def same_block(lines: list[str], first: int, last: int) -> bool:
    """No top-level line (a new declaration) between two 0-based lines."""
    for text in lines[first + 1 : last + 1]:
        if text.strip() and not text[0].isspace() and not text.lstrip().startswith("#"):
            return False
    return True
