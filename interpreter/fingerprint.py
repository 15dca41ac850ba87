"""What a ruleset *means*, as short digests: one per definition, plus its data files.

A save must survive an edit that changes nothing the game does (a comment, a
re-indented block, `meeple fmt`) and must refuse a real change of the rules.
The text's digest cannot tell those apart; the parsed tree can: AST nodes keep
their source positions out of `repr` (dsl/ast.py), so the repr of a definition
is its meaning. Each top-level definition gets its own digest, so a refusal can
say which definitions differ; each data file (components, boards, layouts) its
own digest of its bytes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from meeple.dsl import ast
from meeple.dsl.parser import parse_file


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def definition_name(item) -> str:
    """How a person names a top-level definition: `phase round`, `score "Roses"`."""
    kind = type(item).__name__.removesuffix("Decl").lower()
    for attr in ("name", "label", "title"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return f'{kind} "{value}"' if attr != "name" else f"{kind} {value}"
    return kind


def fingerprint(path: str | Path, options: dict) -> dict:
    """{definition or data file: digest} for the .rules file at `path` with these options."""
    rs = parse_file(path)
    base = Path(path).parent
    out: dict[str, str] = {}
    for item in rs.items:
        if isinstance(item, ast.PageDecl):  # how the table is drawn: nothing a save or a model depends on
            continue
        name = definition_name(item)
        n, key = 1, name
        while key in out:  # two `setup`s, or a name used by two kinds of thing
            n += 1
            key = f"{name} #{n}"
        out[key] = _digest(repr(item).encode())
        data = getattr(item, "path", None)  # components and boards read from a file
        if isinstance(data, str) and data:  # (an enum's is "" unless it reads a column)
            out[f"file {data}"] = _file_digest(base, data, options)
        for lay in getattr(item, "layouts", ()) or ():
            out[f"file {lay.path}"] = _file_digest(base, lay.path, options)
    return out


def _file_digest(base: Path, path: str, options: dict) -> str:
    try:
        return _digest((base / path.format(**options)).read_bytes())
    except (OSError, KeyError, IndexError, ValueError):
        return "unreadable"


def differences(saved: dict, now: dict) -> list[str]:
    """The definitions and files that differ, in words: `phase round changed`."""
    out = [f"{k} changed" for k in saved if k in now and saved[k] != now[k]]
    out += [f"{k} was removed" for k in saved if k not in now]
    out += [f"{k} was added" for k in now if k not in saved]
    return out
