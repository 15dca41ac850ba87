"""What the rules say a choice can offer, for meeple.spaces: the kinds of value read from each
choice's source in the AST (`_kinds`), what the rules hold (`_walk`: literals, calls, choices),
and the runs of cells a grid's `rows`, `columns` and `lines` make (`_runs`)."""

from __future__ import annotations

import dataclasses

from meeple.dsl import ast

LINE_CALLS = {"rows", "columns", "lines"}  # built-ins whose values are runs of cells


def _walk(node, found: dict) -> None:
    """What the rules hold under an AST node: "texts" (in source order), whole "numbers"
    (negated ones too), the "calls" made, whether there are "bools", "places" and "sets"
    (`subsets(...)`, `choose between`), and the "sources" of choices."""
    stack = [node]
    while stack:
        n = stack.pop()
        t = type(n)
        if t is ast.Str:
            found["texts"].append(n.value)
        elif t is ast.Int:
            found["numbers"].add(n.value)
        elif t is ast.Neg and type(n.operand) is ast.Int:
            found["numbers"].add(-n.operand.value)
        elif t is ast.Bool:
            found["bools"] = True
        elif t is ast.Call:
            found["calls"].add(n.func)
            if n.func in LINE_CALLS:  # which runs: `lines(board, 4)` runs of 4 only
                size = n.args[1] if len(n.args) > 1 else None
                found.setdefault("runs", set()).add((n.func, size.value if type(size) is ast.Int else None))
        elif t is ast.Place:
            found["places"] = True
        elif t in (ast.Choose, ast.ChooseSome):
            found["sources"].append(n.source)
            found["sets"] |= t is ast.ChooseSome
        if isinstance(n, list | tuple):
            stack.extend(reversed(n))
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            stack.extend(reversed([getattr(n, f.name) for f in dataclasses.fields(n)]))


BOARD_CALLS = {"reach", "adjacent", "spaces", "areas"}  # built-ins whose values are board spaces


def _kinds(e, game, any_kind: set, calling: set) -> set:
    """The kinds of value a choice's source can offer, read from its AST: "cell", "name",
    "number", "bool", or a run of cells (`("rows", None)`...); `any_kind` where the rules do not
    say (a local, a field, a call of something else)."""
    t = type(e)
    if t is ast.Str:
        return {"name"}
    if t in (ast.Int, ast.Neg, ast.Range):
        return {"number"}
    if t is ast.Bool:
        return {"bool"}
    if t is ast.NoneLit:
        return set()
    if t is ast.ListLit:
        return set().union(*(_kinds(x, game, any_kind, calling) for x in e.items))
    if t is ast.Ternary:
        return _kinds(e.then, game, any_kind, calling) | _kinds(e.other, game, any_kind, calling)
    if t is ast.BinOp and e.op == "+":
        return _kinds(e.left, game, any_kind, calling) | _kinds(e.right, game, any_kind, calling)
    if t is ast.Name:
        if e.name in game.zones or e.name in game.enums or e.name in game.kinds:
            return {"name"}
        return {"number"} if e.name in ("players", "turn_order") else any_kind
    if t is ast.Index and type(e.obj) is ast.Name and e.obj.name in game.zones:
        return {"name"}
    if t is ast.Selection:
        return _kinds(e.source, game, any_kind, calling)
    if t is ast.Generator:
        return (
            _kinds(e.expr, game, any_kind, calling)
            if type(e.expr) is not ast.Name or e.expr.name not in e.selection.pattern.names
            else _kinds(e.selection, game, any_kind, calling)
        )
    if t is ast.Call:
        if e.func in ("cells", "neighbours"):
            return {"cell"}
        if e.func in LINE_CALLS:
            size = e.args[1] if len(e.args) > 1 else None
            return {(e.func, size.value if type(size) is ast.Int else None)}
        if e.func in BOARD_CALLS:
            return {"name"}
        if e.func in ("subsets", "list") and e.args:
            return _kinds(e.args[0], game, any_kind, calling)
        if e.func in game.function_bodies and e.func not in calling:
            return _kinds(game.function_bodies[e.func], game, any_kind, calling | {e.func})
    return any_kind


def _runs(g, calls: set) -> list:
    """Every run of cells (first cell, direction, length) the calls make on a grid of this
    geometry, in cell order: `rows` across, `columns` down, `lines(g, n)` n cells each way."""
    moves = ((0, 1), (1, 0), (1, 1), (1, -1))
    out = set()
    for call, n in calls:
        for r in range(g.rows):
            for c in range(g.cols):
                if call == "rows":
                    out |= {(r * g.cols + c, 0, g.cols)} if c == 0 else set()
                elif call == "columns":
                    out |= {(r * g.cols + c, 1, g.rows)} if r == 0 else set()
                else:
                    for d, (dr, dc) in enumerate(moves):
                        for k in [n] if n else range(1, max(g.rows, g.cols) + 1):
                            if 0 <= r + dr * (k - 1) < g.rows and 0 <= c + dc * (k - 1) < g.cols:
                                out.add((r * g.cols + c, d, k))
    return sorted(out)
