"""Plain statements of a fused run written as Python source (see dsl/compile_fused.py).

`winner = player`, `score += 2`, `c.mark = [x, o][player]` and `let n = ...`
are the statements a game runs most. Inside a fused run each was a call of its
closure; here the common forms are written out instead:

    try:
        _k = 'score/' + str(E['player'])
        _o = S['vars'][_k]
        _v = 2
        if type(_o) is not int or type(_v) is not int:
            raise TypeError
    except Exception:
        k3(m)              # the statement's closure: the same error, or the rare case done right
    else:
        _v = _o + _v
        if _o != _v:
            S['vars'][_k] = _v
            if m.recording:
                m.emit('set', var=_k, value=_v)

Everything that reads (and may fail) comes first; when it fails the statement's
own closure runs instead, so errors read exactly as before. The writes after it
are the closure's writes, in the same order, with the same events.
"""

from __future__ import annotations

from typing import cast

from meeple.dsl import ast
from meeple.dsl.compile_expr import shared_content
from meeple.dsl.compile_source import Gen, NotGenerated

# `draw n from zone into zone` written as a direct call of the engine's draw with its count and
# zone keys read in place (not the statement's closure, which calls three more). Tests turn it off.
DRAWS = True


def statement(s, scope, gen: Gen, fallback: str) -> list | None:
    """Source lines (indented from 0) for one statement, or None to call its closure `fallback`."""
    try:
        parts = _parts(s, scope, gen)
    except NotGenerated:
        return None
    if parts is None:
        return None
    reads, writes = parts
    return (
        ["try:"]
        + ["    " + r for r in reads]
        + ["except Exception:", f"    {fallback}(m)", "else:"]
        + ["    " + w for w in writes]
    )


def _parts(s, scope, gen: Gen):
    g = scope.game
    if isinstance(s, ast.Let):
        return [f"_v = {gen.expr(s.value, {})}"], [f"E[{s.name!r}] = _v"]
    if isinstance(s, ast.Draw):
        src, to = g.zones.get(s.source.name), g.zones.get(s.to.name)
        if not DRAWS or src is None or to is None:
            return None
        # Read in the closure's order (count, source, destination); the draw itself is the
        # closure's own call, so its errors and events are the same.
        return (
            [
                f"_n = {gen.expr(s.count, {})}",
                f"_s = {gen.key(s.source.name, src.per, s.source.index, {})}",
                f"_d = {gen.key(s.to.name, to.per, s.to.index, {})}",
            ],
            ["DRAW(m, _n, _s, _d)"],
        )
    if not isinstance(s, ast.Assign):
        return None
    target, op = s.target, s.op
    if isinstance(target, ast.Attr):
        content = shared_content(g)
        if op != "=" or target.name != content or not all(spec.content == content for spec in g.grids.values()):
            return None
        reads = [
            f"_c = {gen.expr(target.obj, {})}",
            "_k, _i = _c",
            "_cs = S['grids'][_k]['cells']",
            f"_v = {gen.expr(s.value, {})}",
        ]
        # A game that places shapes keeps grids' occupancy masks on the machine: `put` alone updates them.
        forget = ["m.kept.pop(_k, None)"] if g.shapes else []
        return reads, forget + ["_cs[_i] = _v", "if m.recording:", "    m.emit('mark', cell=_c, value=_v)"]
    name = target.name if isinstance(target, ast.Name) else cast(ast.Name, target.obj).name
    index = target.index if isinstance(target, ast.Index) else None
    if index is None and name in scope.locals:
        if op != "=":
            return None
        return [f"_v = {gen.expr(s.value, {})}"], [f"E[{name!r}] = _v"]
    if name == "first_player" and index is None:
        if op != "=":
            return None
        return (
            [f"_v = {gen.expr(s.value, {})}"],
            ["S['first'] = _v % S['players']", "if m.recording:", "    m.emit('first', player=S['first'])"],
        )
    spec = g.counters.get(name)
    if spec is None or spec.secret or "{was}" in spec.says or "{change}" in spec.says:
        return None  # (a sentence that says what it was: the closure's event carries `was`)
    reads = [f"_k = {gen.key(name, spec.per, index, {})}", "_o = S['vars'][_k]", f"_v = {gen.expr(s.value, {})}"]
    writes = []
    if op != "=":
        # Numbers only; lists added with `+=`, and every mistake, are the closure's.
        reads.append("if type(_o) is not int or type(_v) is not int:")
        reads.append("    raise TypeError")
        writes.append(f"_v = _o {op[0]} _v")
    if spec.lo is not None:
        writes += [f"if _v < {spec.lo!r}:", f"    _v = {spec.lo!r}"]
    if spec.hi is not None:
        writes += [f"if _v > {spec.hi!r}:", f"    _v = {spec.hi!r}"]
    writes += [
        "if _o != _v:",
        "    S['vars'][_k] = _v",
        "    if m.recording:",
        "        m.emit('set', var=_k, value=_v)",
    ]
    return reads, writes
