"""Pieces of the generated source that need no writer (dsl/compile_source.py's helpers).

What may be written out and how: which builtins never run twice, which names can become
Python locals, a state key as one f-string, what is cheap to read twice. Nothing here
reads the switches; dsl/compile_source.py and dsl/source_calls.py decide when to use it.
"""

from __future__ import annotations

import ast as pyast
import re
from typing import TYPE_CHECKING

from meeple.dsl import ast
from meeple.dsl.ast import walk

if TYPE_CHECKING:  # a scope is only passed through here; the expression compiler imports this module
    from meeple.dsl.compile_expr import Scope

UNROLL_ITEMS, UNROLL_SIZE = 8, 600  # at most this many items, this many characters written out
UNREPEATABLE = {"roll"}  # builtins that draw or record events: never run twice
GRID_SHAPES = {"cells", "rows", "columns"}
CELL_WORDS = {"row", "col", "empty", "id"}
COMPARE = {"==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">=", "in": "in", "notin": "not in"}


class NotGenerated(Exception):
    """This expression stays a closure."""


class Var:
    """A name the generated code keeps as a Python local; for cells of a known grid,
    the grid and the local holding the cell's content (if any); for a row or column of
    a grid (`lines`), that grid."""

    __slots__ = ("py", "grid", "content", "used", "lines")

    def __init__(self, py: str, grid=None, content: str | None = None, lines=None):
        self.py, self.grid, self.content, self.lines = py, grid, content, lines
        self.used = False  # read other than through its content: the loop needs the cell itself


def names_in(node):
    """Every name an expression mentions (loop names included)."""
    return (n.name for n in walk(node) if isinstance(n, ast.Name))


def unrepeatable_functions(game) -> set:
    """The rules' functions that (through others) call an unrepeatable builtin."""
    cached = game.cache.get(("source", "unrepeatable"))
    if cached is not None:
        return cached
    calls = {name: set(calls_in(body)) for name, body in game.function_bodies.items()}
    bad = {name for name, called in calls.items() if called & UNREPEATABLE}
    grew = True
    while grew:
        more = {name for name, called in calls.items() if called & bad} - bad
        bad |= more
        grew = bool(more)
    game.cache[("source", "unrepeatable")] = bad
    return bad


def calls_in(node):
    """The name of every function an expression calls."""
    return (getattr(n, "func", "") for n in walk(node) if isinstance(n, (ast.Call, ast.FieldCall)))


STEPS = {"left", "right", "above", "below"}
CONTENT_ARRAY = re.compile(r"S\['grids'\]\['[^'\\]+'\]\['cells'\]")
INLINE_DEPTH = 4


def formatted_key(name: str, parts: list) -> str | None:
    """`f'NAME/{(a)}/b'` for the key `NAME/` + str(a) + '/' + str(b): format() of a state's
    values (numbers, texts, true/false, none, lists) is their str(). Parts written as a text
    or a whole number go into the key's text (all of them fixed: the key itself). None (the
    key is built as before) for one part that is not fixed, a fixed part with characters
    other than letters, digits and `_-.`, or a part that cannot stand inside an f-string."""
    fixed = [literal(p) for p in parts]
    if len(parts) == 1 and fixed[0] is None:
        return None
    text, quotes = [name], set[str]()
    for part, value in zip(parts, fixed):
        if value is not None:
            if not SAFE_TEXT.fullmatch(value):
                return None
            text.append(value)
        elif "\\" in part or "#" in part:
            return None
        else:
            quotes.update(q for q in "'\"" if q in part)
            text.append(f"{{({part})}}")
    if all(v is not None for v in fixed):
        return repr("/".join(text))
    quote = next((q for q in "'\"" if q not in quotes), None)
    return None if quote is None else f"f{quote}{'/'.join(text)}{quote}"


COPIED_CONST = re.compile(r"list\(K[0-9]+\)")
SAFE_TEXT = re.compile(r"[A-Za-z0-9_.\-]*")


def literal(part: str) -> str | None:
    """str() of a part written as a text or whole number literal (a loop's item written out), else None."""
    if part.startswith(("'", '"')) or part.lstrip("-").isdigit():
        try:
            value = pyast.literal_eval(part)
        except (ValueError, SyntaxError):
            return None
        if type(value) in (str, int):
            return str(value)
    return None


def atomic(source: str) -> bool:
    """A local, a constant or a frame local: as cheap to read twice as to pass once."""
    return source.isidentifier() or source.lstrip("-").isdigit() or (source.startswith("E[") and source.count("[") == 1)


# A frame local read twice or more in one generated function (`E['p']`) read once, at the
# top, into a Python local `e_p`: a dict lookup a read fewer (tests turn it off).
HOIST = True
ENV_READ = re.compile(r"\bE\[('[A-Za-z_][A-Za-z0-9_]*')\]")
ENV_WRITTEN = re.compile(r"\bE\[[^\]]*\]\s*=[^=]|\bE\.")


def hoisted(source: str) -> str:
    """`source` with each frame local it reads more than once read once after `E = m.env`.
    Only where nothing writes the frame's locals: an expression's code never does (a closure it
    calls puts back what it binds), so the value read first is the value at every read. A local
    that is absent now fails at the top rather than at its read: the `except` then runs the
    closure, which reads (or fails) as before. Then the parts of the state and the players'
    numbers of keys it reads twice or more, read once (`hoisted_parts`)."""
    return hoisted_parts(hoisted_locals(source))


def hoisted_locals(source: str) -> str:
    head = source.find("E = m.env\n")
    if not HOIST or head < 0 or ENV_WRITTEN.search(source):
        return source
    reads: dict = {}
    for quoted in ENV_READ.findall(source):
        reads[quoted] = reads.get(quoted, 0) + 1
    twice = [q for q, n in reads.items() if n > 1]
    if not twice:
        return source
    indent = source[source.rfind("\n", 0, head) + 1 : head]
    end = head + len("E = m.env\n")
    body = source[end:]
    for quoted in twice:
        body = body.replace(f"E[{quoted}]", f"e_{quoted[1:-1]}")
    return source[:end] + "".join(f"{indent}e_{q[1:-1]} = E[{q}]\n" for q in twice) + body


# Read once too, after `S = m.state`, when read twice or more (tests turn it off): the state's
# vars and zones (`S['vars']`), and a key's player number as a table looks it up,
# `(e_p if type(e_p) is int else None)`, of a local read once at the top or a parameter.
PARTS = True
STATE_PART = re.compile(r"\bS\[('(?:vars|zones)')\]")
PLAYER_PART = re.compile(r"\(((?:e|v)_[A-Za-z0-9_]+) if type\(\1\) is int else None\)")
ANY_WRITE = re.compile(r"\]\s*=[^=]|\bdel\b")


def hoisted_parts(source: str) -> str:
    """`source` with the state's parts and the players' numbers of keys it reads twice or more
    read once, after `S = m.state`. Only in code that writes no state (generated expressions,
    menus, filters and functions never do): the state's vars and zones are the same dicts at
    every read, and a name read once at the top (`e_p`) or a parameter is never bound again
    (comprehensions' names are numbered, `v1_p`), so each part has one value. Reading vars and
    zones cannot fail; a player's number is a test, never failing."""
    head = source.find("S = m.state\n")
    if not PARTS or head < 0 or ANY_WRITE.search(source):
        return source
    end = head + len("S = m.state\n")
    top, body = source[:end], source[end:]
    known = set(re.findall(r"^\s*(e_[A-Za-z0-9_]+) = E\[", top, re.M))
    signature = source[: source.find("\n")]
    known.update(re.findall(r"\b(v_[A-Za-z0-9_]+)\b", signature) if signature.startswith("def ") else ())
    lines = []
    for quoted in dict.fromkeys(STATE_PART.findall(body)):
        if body.count(f"S[{quoted}]") > 1:
            body = body.replace(f"S[{quoted}]", f"S_{quoted[1:-1]}")
            lines.append(f"S_{quoted[1:-1]} = S[{quoted}]")
    for name in dict.fromkeys(PLAYER_PART.findall(body)):
        written = f"({name} if type({name}) is int else None)"
        if name in known and body.count(written) > 1:
            body = body.replace(written, f"n_{name}")
            lines.append(f"n_{name} = {written}")
    if not lines:
        return source
    indent = source[source.rfind("\n", 0, head) + 1 : head]
    return top + "".join(f"{indent}{line}\n" for line in lines) + body


def safe_name(name: str) -> bool:
    """A rules name may become part of a Python local's name only if it is a plain ASCII
    identifier (the grammar allows nothing else; this keeps it so if the grammar grows)."""
    return name.isascii() and name.isidentifier()


def fixed_grid_name(node: ast.Name, scope: Scope) -> bool:
    g = scope.game
    return node.name not in scope.locals and node.name in g.grids and not g.grids[node.name].per
