"""Checks a ruleset beyond its syntax: structure before compiling, usage after.

`check` runs before compiling and raises on what would make compiling
meaningless: missing `game`/`players`, duplicate definitions, values declared
twice. Name, type and arity errors surface while compiling, each with its own
location. `warnings` runs on the compiled game: unreachable phases and
components, zones or counters that nothing uses, and checks that an action at any time
can undo before what they allow is done (dsl/check_together.py).
"""

from __future__ import annotations

import re

import networkx as nx

from meeple.dsl import ast
from meeple.dsl.check_together import stale_checks
from meeple.dsl.errors import Diagnostic, MeepleError, Span

KINDS = {
    ast.OptionDecl: "option",
    ast.ParamDecl: "param",
    ast.EnumDecl: "enum",
    ast.ComponentDecl: "component",
    ast.ZoneDecl: "zone",
    ast.GridDecl: "grid",
    ast.CounterDecl: "counter",
    ast.TableDecl: "table",
    ast.PhaseDecl: "phase",
    ast.EffectDecl: "effect",
    ast.BoardDecl: "board",
    ast.FunctionDecl: "function",
    ast.ReactionDecl: "reaction",
    ast.ActionDecl: "action",
}
# Named only after `do`, by a reaction's window or as an action: never in an expression, so an
# enum value may have the same name (`enum ability = harvest | ...` beside `effect harvest(p):`).
OWN_NAMES = (ast.EffectDecl, ast.ReactionDecl, ast.ActionDecl)
RULE_KINDS = {ast.ScoreDecl: "score", ast.HintDecl: "hint", ast.MeasureDecl: "measure"}
# Names a ruleset may not define because expressions give them a meaning already.
RESERVED = {"player", "players", "turn_order", "first_player", "box", "end", "setup"}


def check(rs: ast.Ruleset, items: list, builtin_functions=()) -> None:
    """Errors in the declarations as written: duplicates, reserved names, missing parts. The
    compiler names the built-in functions (the runtime's), which a ruleset may not redefine: the
    checker, like the parser, knows nothing of the runtime."""
    errors: list[Diagnostic] = []

    def error(message, span, hint=""):
        errors.append(Diagnostic(message, span, hint))

    what: str | None  # (and `kind`) the words for a definition; None: not one that is checked here
    kind: str | None
    for cls, what in ((ast.GameDecl, "game"), (ast.PlayersDecl, "players")):
        found = [i for i in items if isinstance(i, cls)]
        if not found:
            error(
                f"the ruleset has no `{what}` line",
                Span(1, 1),
                'start with `game "Name"` and `players 2..4`' if what == "game" else "add `players 2..4`",
            )
        for extra in found[1:]:
            error(f"`{what}` is given twice", extra.span)
    for p in [i for i in items if isinstance(i, ast.PlayersDecl)]:
        if not 1 <= p.lo <= p.hi <= 16:
            error("players must be a range within 1..16, smallest first", p.span, "for example `players 2..4`")
    if len([i for i in items if isinstance(i, ast.SetupDecl)]) > 1:
        error("there are two `setup` blocks", [i for i in items if isinstance(i, ast.SetupDecl)][1].span)

    seen: dict[str, tuple[str, Span]] = {}
    for item in items:
        what = KINDS.get(type(item))
        if what is None:
            continue
        name = item.name
        if what == "function" and name in builtin_functions:
            error(f"`{name}` is a built-in function", item.span, "pick another name")
        if name in RESERVED:
            error(f"`{name}` is a built-in name and cannot name a {what}", item.span, "pick another name")
        if name in seen:
            kind, span = seen[name]
            error(f"`{name}` is already defined (as a {kind} on line {span.line})", item.span, "rename one of them")
        else:
            seen[name] = (what, item.span)

    values: dict[str, tuple[str, Span]] = {}
    named = {name: (what, span) for name, (what, span) in seen.items() if what not in ("effect", "reaction", "action")}
    for item in items:
        if isinstance(item, ast.EnumDecl):
            for i, v in enumerate(item.values):
                at = item.value_span[i] if i < len(item.value_span) else item.span  # the value itself
                if v in values and values[v][0] == item.name:
                    error(f"`{v}` appears twice in enum `{item.name}`", at)
                elif v in named:
                    error(
                        f"enum value `{v}` has the same name as the {named[v][0]} on line {named[v][1].line}",
                        at,
                        "rename one of them",
                    )
                values[v] = (item.name, item.span)
        if isinstance(item, ast.OptionDecl) and len(set(item.values)) != len(item.values):
            error(f"option `{item.name}` lists a value twice", item.span)
    labels: dict[tuple, Span] = {}
    for item in items:
        kind = RULE_KINDS.get(type(item))
        if kind is not None:  # a score, hint or measure: one per label and `if` condition
            key = (kind, item.label, guard_text(rs.source, item))
            if key in labels:
                error(
                    f'{kind} "{item.label}" is defined twice',
                    item.span,
                    f"give the {'rule' if kind == 'score' else kind}s different names, or different `if` conditions",
                )
            labels[key] = item.span
    if errors:
        raise MeepleError(errors)


def guard_text(source: str, item) -> str:
    """The `if` condition of a score, hint or measure rule as written ("" for none)."""
    if item.guard is None:
        return ""
    lines = source.splitlines()
    s = item.guard.span
    return lines[s.line - 1][s.col - 1 : s.end_col - 1] if s.line == s.end_line and s.line else repr(item.guard)


def warnings(game, rs: ast.Ruleset, items: list) -> list[Diagnostic]:
    """Things that are legal but probably mistakes."""
    out = []
    flow = game.flow
    start = flow.graph.get("start")
    reachable = nx.descendants(flow, start) | {start} if start in flow else set()
    for p in [i for i in items if isinstance(i, ast.PhaseDecl)]:
        if p.name not in reachable:
            out.append(
                Diagnostic(
                    f"phase `{p.name}` can never be reached",
                    p.span,
                    f"add `next {p.name}` where the game should go there",
                    "warning",
                )
            )
    used = _words(rs.source)
    for comp in game.components.values():  # effects named by cards' `effect` fields
        for value in comp.values():
            if isinstance(value, list) and len(value) == 2 and value[0] in game.effects:
                used[value[0]] = used.get(value[0], 0) + 1
    for item in items:
        what = {
            ast.ComponentDecl: "component",
            ast.ZoneDecl: "zone",
            ast.CounterDecl: "counter",
            ast.GridDecl: "grid",
            ast.EffectDecl: "effect",
            ast.TableDecl: "table",
            ast.BoardDecl: "board",
            ast.FunctionDecl: "function",
        }.get(type(item))
        if what and used.get(item.name, 0) <= 1:
            out.append(
                Diagnostic(
                    f"{what} `{item.name}` is never used", item.span, "remove it, or use it in the rules", "warning"
                )
            )
    out += stale_checks(game, items)
    for d in out:
        d.path, d.source = rs.path, rs.source
    return out


def _words(source: str) -> dict:
    counts: dict[str, int] = {}
    for line in source.splitlines():
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line.split("#", 1)[0]):
            counts[word] = counts.get(word, 0) + 1
    return counts
