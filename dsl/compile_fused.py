"""Runs of simple statements compiled into one op, so the machine dispatches once.

Between two decisions a game mostly runs plain statements: assignments, moves,
draws, logs and `if`/`elif`/`else` around them, often ending in `next phase`.
Compiled one op per statement (with jumps for the `if`s), each costs a pass
through the machine's loop. A run of such statements (nothing that can wait
for a decision, call an effect or loop) is compiled instead into one Python
function whose body is the run itself, written out as source text:

    def run(m, frame):
      try:
        k0(m)                 # c.mark = x
        if k1(m):             # if in_a_row(...)
            k2(m)             #     winner = player
        elif k3(m):
            k4(m)
            frame[1] += 1
            return k5.run(m, frame)   # next turn
      except ...:             # the error, located at the statement that raised it
      frame[1] += 1
      return False

`kN` are the statements' own compiled closures, so the meaning is exactly the
one-op-per-statement meaning; only the jumps are gone. With generated source on
(dsl/compile_source.py), common statements (dsl/compile_statements.py) and the
conditions are written in place too, each falling back to its closure when it fails:

        try:
            _t = K2(S['grids']['board']['cells'], K1[E['player']])
        except Exception:
            _t = k1(m)        # the condition's closure: its own error, or its value
        if _t:
            ...
        else:                 # an `elif` nests, as its condition needs its own `try`
            ...
 The source is built
here from the rules' structure, never from their text. An error inside the
run is reported at the statement that raised it (the line of the generated
function tells which).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

from meeple.dsl import ast, compile_source
from meeple.dsl.compile_calls import binder
from meeple.dsl.compile_expr import compile_expr
from meeple.dsl.compile_statements import statement
from meeple.dsl.errors import MeepleError
from meeple.dsl.runtime import RULE_ERRORS, EndGame, Exec, Goto, kept_items, listed, zones

LEAVES = (ast.Let, ast.Assign, ast.Move, ast.MoveAll, ast.Draw, ast.Shuffle, ast.Log, ast.Pass)
ENDS = (ast.Next, ast.EndGame)
# Python refuses source nested about 100 blocks deep; deeper `if`s run as plain ops.
MAX_DEPTH = 40


# `for each` loops whose bodies are plain statements (no `next`) are fused too: the loop runs
# whole inside the run, its items bound in the frame as IterNext would (tests turn it off).
LOOPS = True
WHERE = True  # a fused loop's `where` written out as source (tests and benchmarks turn it off)


def fusable(s, depth: int = 0, ends: bool = True) -> bool:
    if isinstance(s, LEAVES) or ends and isinstance(s, ENDS):
        return True
    if depth >= MAX_DEPTH:
        return False
    if isinstance(s, ast.If):
        bodies = [body for _, body in s.branches] + [s.else_body or []]
        return all(fusable(x, depth + 1, ends) for body in bodies for x in body)
    if isinstance(s, ast.For) and LOOPS:
        return all(fusable(x, depth + 1, False) for x in s.body)
    return False


# A required `choose ... from` whose body is plain statements runs on into the plain statements
# after it: body and followers are one fused run (tests turn it off). See join_after_choice.
JOIN = True


def followers(stmts: list, i: int, plain=fusable) -> list:
    """The plain statements right after `stmts[i]` when it is a choice without `otherwise`
    whose body is plain (its body falls through into them); else none."""
    s = stmts[i]
    if not (JOIN and isinstance(s, ast.Choose) and s.otherwise is None and s.body and all(map(plain, s.body))):
        return []
    j = i + 1
    while j < len(stmts) and plain(stmts[j]):
        j += 1
    return stmts[i + 1 : j]


def join_after_choice(flow, ops: list, s, after: list, scope) -> None:
    """[choice, run of body + `after`, run of `after`]: a taken option goes on into the first
    run, which then skips the second; no option (or a `may` passed) skips to the second."""
    flow.s_Choose(ops, dataclasses.replace(s, body=[]), scope)
    choice = ops[-1]
    ops.append(compile_run(flow, s.body + after, scope, skip=2))
    choice.end = len(ops)
    slots = next(flow.slots)  # `after` is compiled twice; its loops count once, as op by op
    ops.append(compile_run(flow, after, scope))
    flow.slots = itertools.count(slots)


def worth_fusing(stmts: list) -> bool:
    """Fusing saves dispatches only when the run is more than one plain op; a lone `let` or
    assignment is worth it too when it is written as source (dsl/compile_statements.py)."""
    return (
        len(stmts) > 1
        or any(isinstance(s, (ast.If, ast.For)) for s in stmts)
        or (compile_source.ENABLED and isinstance(stmts[0], (ast.Let, ast.Assign)))
    )


class _At:
    """Where an error happened, for the machine's messages."""

    __slots__ = ("span",)

    def __init__(self, span):
        self.span = span


class Fused:
    """One op for a run of simple statements; returns like the ops it replaces.

    Its `run(m, frame)` is the generated function itself (one call per op, not two):
    it moves the frame on, runs a `next` or `end game` it reaches, and hands errors
    to `located`/`failed`, which say at which statement they happened."""

    __slots__ = ("run", "fn", "spans", "span", "then", "leaves", "skip")
    run: Any  # the generated function (None until compile_run makes it), as `fn`
    fn: Any

    def __init__(self, spans: dict, span, skip: int = 1):
        self.spans, self.span = spans, span
        self.skip = skip  # how far it moves the frame on: 2 when the next op repeats its tail
        self.run = self.fn = None  # set once generated (compile_run)
        self.then = None  # the choice right after it, run from here (`chain`)
        self.leaves = False  # it may run a `next` or `end game`

    def chain(self, op) -> None:
        """Run `op` (the choice after this run) straight from the generated function."""
        self.then = self.fn.__globals__["THEN"] = op

    def located(self, exc: MeepleError) -> MeepleError:
        at = self.where(exc)
        for d in exc.diagnostics:
            if not d.span.line:
                d.span = at.span
        return exc

    def failed(self, m, exc, frame) -> MeepleError:
        return m.rule_error(str(exc) or type(exc).__name__, self.where(exc), frame)

    def where(self, exc) -> _At:
        tb, line = exc.__traceback__, None
        while tb is not None:
            if tb.tb_frame.f_code is self.fn.__code__:
                line = tb.tb_lineno
            tb = tb.tb_next
        return _At(self.spans.get(line, self.span))


# Conditions written in place nest one level per `elif`; deeper than this they are called.
INLINE_DEPTH = 30


def compile_run(flow, stmts: list, scope, inline: bool = True, skip: int = 1) -> Fused:
    """Build the op for `stmts` (all `fusable`); `flow` compiles each simple statement."""
    names: dict = {}
    spans: dict = {}
    lines = ["def run(m, frame):", "  try:", "    E = m.env", "    S = m.state"]
    leaves = [False]
    gen = compile_source.Gen(scope, names)

    def name_for(value) -> str:
        key = f"k{len(names)}"
        names[key] = value
        return key

    def emit(text: str, depth: int, span) -> None:
        lines.append("    " * depth + text)
        spans[len(lines)] = span

    def body(block: list, depth: int) -> None:
        wrote = False
        for s in block:
            if isinstance(s, ast.Pass):
                continue
            if isinstance(s, ast.If):
                branches(s.branches, s, depth)
            elif isinstance(s, ast.For):
                loop(s, depth)
            else:
                ops: list = []
                flow.stmt(ops, s, scope)
                (op,) = ops
                if isinstance(op, (Goto, EndGame)):  # they replace the frames
                    leaves[0] = True
                    emit("frame[1] += 1", depth, s.span)
                    emit(f"return {name_for(op)}.run(m, frame)", depth, s.span)
                else:
                    assert isinstance(op, Exec), type(op).__name__
                    fallback = name_for(op.fn)
                    written = statement(s, scope, gen, fallback) if compile_source.ENABLED else None
                    for line in written or [f"{fallback}(m)"]:
                        emit(line, depth, s.span)
            wrote = True
        if not wrote:
            emit("pass", depth, None)

    def loop(s: ast.For, depth: int) -> None:
        """The loop of IterStart/IterNext as a Python `for` over the same items, bound the same way."""
        next(flow.slots)  # the hidden slot op-by-op loops take: later ones keep their names
        where = name_for(compile_expr(s.where, scope)) if s.where is not None else "None"
        bind, item, pattern = name_for(binder(s.pattern)), f"_i{len(names)}", name_for(s.pattern.names)
        source = f"{name_for(compile_expr(s.source, scope))}(m)"
        test = filtered(s, item) if where != "None" else None
        if test is None:
            emit(f"for {item} in KEPT(m, E, LISTED(m, {source}), {where}, {bind}, {pattern}):", depth, s.span)
        else:  # the `where` written out, the item a Python local; its closure if that fails
            for line in [
                f"{item}s = LISTED(m, {source})",
                "try:",
                f"    {item}k = [{item} for {item} in {item}s if {test}]",
                "except Exception:",
                f"    {item}k = KEPT(m, E, {item}s, {where}, {bind}, {pattern})",
                f"for {item} in {item}k:",
            ]:
                emit(line, depth, s.span)
        emit(f"    {bind}(E, {item})", depth, s.span)
        body(s.body, depth + 1)

    def filtered(s: ast.For, item: str) -> str | None:
        """A loop's `where` as source over its item `_iN`, or None (its closure tests it then)."""
        if not (inline and compile_source.ENABLED and WHERE) or s.pattern.unpack:
            return None
        try:
            return gen.expr(s.where, {s.pattern.names[0]: compile_source.Var(item)})
        except compile_source.NotGenerated:
            return None

    def branches(rest: list, s, depth: int) -> None:
        """`if`/`elif`/`else` from the first of `rest` on; a condition written as source nests."""
        for i, (cond, branch) in enumerate(rest):
            fallback = name_for(compile_expr(cond, scope))
            written = condition(cond) if depth < INLINE_DEPTH else None
            if written is None:
                emit(f"{'if' if i == 0 else 'elif'} {fallback}(m):", depth, cond.span)
                body(branch, depth + 1)
                continue
            if i > 0:
                emit("else:", depth, cond.span)
                depth += 1
            for line in ["try:", f"    _t = {written}", "except Exception:", f"    _t = {fallback}(m)", "if _t:"]:
                emit(line, depth, cond.span)
            body(branch, depth + 1)
            if i + 1 < len(rest):
                emit("else:", depth, rest[i + 1][0].span)
                branches(rest[i + 1 :], s, depth + 1)
                return
        if s.else_body:
            emit("else:", depth, s.span)
            body(s.else_body, depth + 1)

    def condition(cond) -> str | None:
        if not (inline and compile_source.ENABLED):
            return None
        try:
            return gen.expr(cond, {})
        except compile_source.NotGenerated:
            return None

    body(stmts, 1)
    lines.extend(
        [
            "  except MeepleError as exc:",
            "    raise OP.located(exc)",
            "  except RULE_ERRORS as exc:",
            "    raise OP.failed(m, exc, frame) from None",
            f"  frame[1] += {skip}",
            "  if THEN is None:",
            "    return False",
            # the choice after the run, as the machine would run it (errors located at it)
            "  try:",
            "    return THEN.run(m, frame)",
            "  except MeepleError as exc:",
            "    raise m.locate(exc, THEN, frame) from None",
            "  except RULE_ERRORS as exc:",
            "    raise m.rule_error(str(exc) or type(exc).__name__, THEN, frame) from None",
        ]
    )
    op = Fused({k: v for k, v in spans.items() if v is not None}, stmts[0].span, skip)
    op.leaves = leaves[0]
    namespace: dict[str, Any] = dict(compile_source.HELPERS)
    namespace.update(names)
    namespace.update(
        OP=op,
        THEN=None,
        MeepleError=MeepleError,
        RULE_ERRORS=RULE_ERRORS,
        LISTED=listed,
        KEPT=kept_items,
        DRAW=zones.draw,
    )
    try:
        code = compile("\n".join(lines) + "\n", "<rules: fused statements>", "exec")
    except SyntaxError:
        if not inline:
            raise
        return compile_run(flow, stmts, scope, inline=False, skip=skip)  # conditions called, as before
    exec(code, namespace)
    op.run = op.fn = namespace["run"]
    return op
