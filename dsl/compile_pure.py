"""Score rules and hints whose body is a block (`let`, `for each`, `if`, `add`) -> fn(m).

A bot values positions by these many times a decision (greedy before and after each
option, mcts and rollout at the end of every playout), so they are worth making cheap.
Compiled as closures, each statement is a call and each `let` or loop name goes through
the frame's locals. With generated source on (dsl/compile_source.py) the whole block is
written as one Python function instead, its names Python locals:

    def r(m):
        try:
            E = m.env
            S = m.state
            _total = 0
            for v1_row in ROWS(m, ('board/' + str(E['player']))):
                l_marked = [v2_c for v2_c in v1_row if ...]
                _total += max(...)
            return _total
        except Exception:
            return SLOW(m)

A block only reads the game (the checker refuses anything else), so when the generated
code raises, the closures (`SLOW`) run it again from the start: same value, same error.
A block with anything not written out (a name only a closure can read) stays closures.
"""

from __future__ import annotations

from meeple.dsl import ast, compile_source
from meeple.dsl.compile_calls import binder, restore
from meeple.dsl.compile_expr import Scope, compile_expr, fail
from meeple.dsl.compile_source import Gen, NotGenerated, Var, _build, safe_name

ENABLED = True  # tests turn it off to value the same positions on closures alone


def compile_pure(stmts, scope: Scope):
    """A score rule's or hint's block -> fn(m) returning the points its `add`s total."""
    slow = closures(stmts, scope)
    if ENABLED and compile_source.ENABLED:
        fast = generate(stmts, scope, slow)
        if fast is not None:
            return fast
    return slow


# ----------------------------------------------------------------- generated
def generate(stmts, scope: Scope, slow):
    for walrus in (True, False):
        consts: dict = {"SLOW": slow}
        gen = Gen(scope, consts)
        gen.walrus = walrus
        lines = ["def r(m):", "    try:", "        E = m.env", "        S = m.state", "        _total = 0"]
        try:
            block(gen, stmts, {}, lines, 2)
        except NotGenerated:
            return None
        lines += ["        return _total", "    except Exception:", "        return SLOW(m)", ""]
        try:
            return _build("\n".join(lines), consts, "r")
        except SyntaxError:  # e.g. too deeply nested
            continue
    return None


def block(gen: Gen, stmts, bound: dict, lines: list, depth: int) -> None:
    """Write `stmts`; a `let` binds a Python local, seen by what follows it (as in the frame)."""
    pad = "    " * depth
    wrote = False
    for s in stmts:
        if isinstance(s, ast.Pass):
            continue
        wrote = True
        if isinstance(s, ast.Add):
            lines.append(f"{pad}_total += {gen.expr(s.value, bound)}")
        elif isinstance(s, ast.Let):
            if not safe_name(s.name):
                raise NotGenerated(s.name)
            value = gen.expr(s.value, bound)
            bound[s.name] = Var(f"l_{s.name}")
            lines.append(f"{pad}{bound[s.name].py} = {value}")
        elif isinstance(s, ast.For):
            loop(gen, s, bound, lines, depth)
        elif isinstance(s, ast.If):
            for i, (cond, body) in enumerate(s.branches):
                lines.append(f"{pad}{'if' if i == 0 else 'elif'} {gen.expr(cond, bound)}:")
                block(gen, body, bound, lines, depth + 1)
            if s.else_body:
                lines.append(f"{pad}else:")
                block(gen, s.else_body, bound, lines, depth + 1)
        else:
            raise NotGenerated(type(s).__name__)  # the closures say what is wrong with it
    if not wrote:
        lines.append(f"{pad}pass")


def loop(gen: Gen, s: ast.For, bound: dict, lines: list, depth: int) -> None:
    """`for each ... in ... where ...:` as a Python `for`; the `where` skips an item."""
    pad = "    " * depth
    head = len(lines)
    inner, finish = gen.loop(ast.Selection(s.pattern, s.source, None, span=s.span), bound)
    if s.where is not None:
        lines.append(f"{pad}    if not ({gen.expr(s.where, inner)}):")
        lines.append(f"{pad}        continue")
    block(gen, s.body, inner, lines, depth + 1)
    lines.insert(head, f"{pad}{finish()}:")
    # A `let` inside is still bound after the loop (the frame keeps it); the loop's own names are not.
    for name, var in inner.items():
        if name not in s.pattern.names and bound.get(name) is not var:
            bound[name] = var


# ----------------------------------------------------------------- closures
def closures(stmts, scope: Scope):
    parts = [pure_stmt(s, scope) for s in stmts]

    def run(m):
        total = [0]
        for part in parts:
            part(m, total)
        return total[0]

    return run


def pure_stmt(s, scope: Scope):
    if isinstance(s, ast.Add):
        value = compile_expr(s.value, scope)

        def add(m, total):
            total[0] += value(m)

        return add
    if isinstance(s, ast.Let):
        value, name = compile_expr(s.value, scope), s.name

        def let(m, total):
            m.env[name] = value(m)

        return let
    if isinstance(s, ast.For):
        source = compile_expr(s.source, scope)
        where = compile_expr(s.where, scope) if s.where is not None else None
        bind, names = binder(s.pattern), s.pattern.names
        body = [pure_stmt(x, scope) for x in s.body]

        def loop(m, total):
            env = m.env
            saved = {n: env[n] for n in names if n in env}
            for item in list(source(m)):
                bind(env, item)
                if where is None or where(m):
                    for part in body:
                        part(m, total)
            restore(env, names, saved)

        return loop
    if isinstance(s, ast.If):
        branches = [(compile_expr(c, scope), [pure_stmt(x, scope) for x in b]) for c, b in s.branches]
        other = [pure_stmt(x, scope) for x in (s.else_body or [])]

        def choose_branch(m, total):
            for cond, body in branches:  # noqa: B007 (the branch taken is read after the loop)
                if cond(m):
                    break
            else:
                body = other
            for part in body:
                part(m, total)

        return choose_branch
    if isinstance(s, ast.Pass):
        return lambda m, total: None
    raise fail(
        "a score rule can only use let, for each, if and add",
        s.span,
        "score rules read the game; they cannot change it",
    )
