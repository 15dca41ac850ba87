"""Statements -> ops: phases, setup and effects become flat lists of machine ops.

Structured statements (if, for each, repeat, while, choose) compile to jumps,
so the whole "where are we" of a running game is a block number, a pc and the
locals - plain data in the state. Score rules compile instead to one pure
function (dsl/compile_pure.py: they may not change the game).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import cast

from meeple.dsl import ast, compile_told, op_chains
from meeple.dsl.compile_calls import binder, bound_names  # noqa: F401 - compiler.py reads it here
from meeple.dsl.compile_choices import ChoiceCompiler
from meeple.dsl.compile_expr import Scope, compile_expr, fail, instance_key
from meeple.dsl.compile_fused import Fused, compile_run, followers, fusable, join_after_choice, worth_fusing
from meeple.dsl.compile_text import compile_text
from meeple.dsl.errors import did_you_mean
from meeple.dsl.expr_operators import static_kind
from meeple.dsl.runtime import (
    Block,
    CallEffect,
    CallField,
    EndGame,
    Exec,
    Goto,
    IterNext,
    IterStart,
    Jump,
    JumpUnless,
    actions,
    choices,
    forget,
    machine,
    simultaneous,
    zones,
)


class FlowCompiler(ChoiceCompiler):
    """Compiles one block at a time; knows every phase and effect by name."""

    def __init__(self, game, phase_blocks: dict, effect_blocks: dict, source_lines: list[str]):
        self.game = game
        self.phase_blocks = phase_blocks  # name -> block index
        self.effect_blocks = effect_blocks  # name -> (block index, params)
        self.lines = source_lines
        self.slots = itertools.count(1)
        self.gotos: list = []  # every `next` compiled (interpreter/machine.py: chain_phases)
        self.together = 0  # how many `together:` blocks enclose the statement being compiled

    def prompt(self, span) -> str:
        if span and 0 < span.line <= len(self.lines):
            return self.lines[span.line - 1].strip().rstrip(":")
        return ""

    def title(self, s, scope):
        """What a decision asks: its own title (a text, maybe with `{...}`), else its rules line."""
        if not s.prompt:
            return self.prompt(s.span)
        return compile_text(s.prompt, scope, s.span, "a title")

    def compile_block(self, block: Block, stmts, scope: Scope) -> None:
        self.body(block.ops, stmts, scope)
        if machine.CHAINED:  # a fused run runs the choice right after it (one machine step less)
            ops = block.ops
            for i, op in enumerate(ops):
                if type(op) is Fused and i + op.skip < len(ops) and type(ops[i + op.skip]) is choices.ChooseFrom:
                    op.chain(ops[i + op.skip])
        op_chains.chain_block(block.ops)

    # ------------------------------------------------------------- statements
    def body(self, ops: list, stmts, scope: Scope) -> None:
        i = 0
        while i < len(stmts):
            j = i
            while j < len(stmts) and fusable(stmts[j]):
                j += 1
            after = followers(stmts, i, fusable) if j == i else []
            if j > i and worth_fusing(stmts[i:j]):
                ops.append(compile_run(self, stmts[i:j], scope))  # one op for the whole run
                i = j
            elif after:  # a required choice whose body runs on into the statements after it
                join_after_choice(self, ops, stmts[i], after, scope)
                i += 1 + len(after)
            else:
                self.stmt(ops, stmts[i], scope)
                i += 1

    def stmt(self, ops: list, s, scope: Scope) -> None:
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:
            raise fail(f"`{type(s).__name__.lower()}` cannot be used here", s.span)
        method(ops, s, scope)

    def s_Pass(self, ops, s, scope):
        pass

    def s_Add(self, ops, s, scope):
        raise fail("`add` belongs in a score rule", s.span, "to change a counter write `points += 1`")

    def s_Let(self, ops, s, scope):
        value, name = compile_expr(s.value, scope), s.name

        def let(m):
            m.env[name] = value(m)

        ops.append(Exec(let, s.span))

    def s_Assign(self, ops, s, scope):
        ops.append(Exec(self.assignment(s, scope), s.span))

    def assignment(self, s: ast.Assign, scope: Scope):
        value, op, target, g = compile_expr(s.value, scope), s.op, s.target, self.game

        if op != "=":  # `xs += [x]` adds to a list; numbers and lists do not mix
            kinds = {
                static_kind(s.target, scope) if not isinstance(s.target, ast.Attr) else None,
                static_kind(s.value, scope),
            }
            if kinds == {"list", "number"}:
                raise fail(
                    f"`{op}` cannot mix a list and a number",
                    s.span,
                    "to add one item to a list, put it in brackets: `xs += [x]`",
                )
            if op == "-=" and "list" in kinds:
                raise fail("`-=` needs numbers, not a list", s.span)

        def combine(old, new):
            if op == "=":
                return new
            if op == "+=" and type(old) is list and type(new) is list:
                return old + new
            if not isinstance(old, int) or not isinstance(new, int):
                raise ValueError(f"`{op}` needs numbers (or lists for `+=`), not {old!r} and {new!r}")
            return old + new if op == "+=" else old - new

        if isinstance(target, ast.Attr):
            cell = compile_expr(target.obj, scope)
            attr = target.name

            contents = {name: spec.content for name, spec in g.grids.items()}

            def set_cell(m):
                c = cell(m)
                key, i = c
                content = contents[key.split("/", 1)[0]]
                if attr != content:
                    raise ValueError(f"only a cell's `{content}` can be set, not `{attr}`")
                cells = m.state["grids"][key]["cells"]
                forget(m, key)  # a kept occupancy mask is `put`'s alone to update
                cells[i] = value(m) if op == "=" else combine(cells[i], value(m))
                if m.recording:
                    m.emit("mark", cell=c, value=cells[i])

            return set_cell
        name = target.name if isinstance(target, ast.Name) else cast(ast.Name, target.obj).name
        index = target.index if isinstance(target, ast.Index) else None
        if index is None and name in scope.locals:

            def set_local(m):
                m.env[name] = combine(m.env.get(name), value(m))

            return set_local
        if name == "first_player" and index is None:

            def set_first(m):
                m.state["first"] = combine(m.state["first"], value(m)) % m.state["players"]
                if m.recording:
                    m.emit("first", player=m.state["first"])

            return set_first
        spec = g.counters.get(name)
        if spec is None:
            what = "zone" if name in g.zones else "grid" if name in g.grids else ""
            hint = (
                f"`{name}` is a {what}: use move or draw to change it"
                if what
                else "declare it with `counter` or `flag`, or bind it with `let`"
            )
            raise fail(f"`{name}` is not a counter or flag that can be set", target.span, hint)
        key = instance_key(scope, name, spec.per, index, target.span)
        lo, hi, secret = spec.lo, spec.hi, spec.secret
        if "{was}" in spec.says or "{change}" in spec.says:
            return self.told_assignment(key, combine, value, lo, hi, secret)

        def set_var(m):
            k = key(m)
            vars_ = m.state["vars"]
            new = combine(vars_[k], value(m))
            if lo is not None and new < lo:
                new = lo
            if hi is not None and new > hi:
                new = hi
            # A secret is announced (as `?` to the others) even when it does not change:
            # a missing event would tell them that it did not.
            if vars_[k] != new or secret:
                vars_[k] = new
                if m.recording:
                    m.emit("set", var=k, value=new)

        return set_var

    @staticmethod
    def told_assignment(key, combine, value, lo, hi, secret):
        """An assignment to a counter whose sentence says what it was: its event carries `was`."""

        def set_var(m):
            k = key(m)
            vars_ = m.state["vars"]
            was = vars_[k]
            new = combine(was, value(m))
            new = new if lo is None or new >= lo else lo
            new = new if hi is None or new <= hi else hi
            if was != new or secret:
                vars_[k] = new
                if m.recording:
                    m.emit("set", var=k, value=new, was=was)

        return set_var

    def zone(self, ref: ast.ZoneRef, scope: Scope):
        spec = self.game.zones.get(ref.name)
        if spec is None:
            raise fail(f"unknown zone `{ref.name}`", ref.span, did_you_mean(ref.name, self.game.zones, "zone"))
        return instance_key(scope, ref.name, spec.per, ref.index, ref.span)

    def s_Move(self, ops, s, scope):
        what, to, position = compile_expr(s.what, scope), self.zone(s.to, scope), s.position
        if position not in ("", "top", "bottom"):
            raise fail(f"`at {position}`: a component goes `at top` or `at bottom`", s.span)
        ops.append(Exec(lambda m: zones.move(m, what(m), to(m), position), s.span))

    def s_MoveAll(self, ops, s, scope):
        src, to = self.zone(s.source, scope), self.zone(s.to, scope)
        ops.append(Exec(lambda m: zones.move_all(m, src(m), to(m)), s.span))

    def s_Draw(self, ops, s, scope):
        count, src, to = compile_expr(s.count, scope), self.zone(s.source, scope), self.zone(s.to, scope)
        ops.append(Exec(lambda m: zones.draw(m, count(m), src(m), to(m)), s.span))

    def s_Shuffle(self, ops, s, scope):
        key = self.zone(s.zone, scope)
        ops.append(Exec(lambda m: zones.shuffle(m, key(m)), s.span))

    def s_Place(self, ops, s, scope):
        ops.append(
            choices.Place(
                compile_expr(s.piece, scope),
                compile_expr(s.grid, scope),
                self.chooser(s.by, scope, s.span),
                s.bind,
                s.undoable,
                self.title(s, scope),
                s.span,
                titled=bool(s.prompt),
            )
        )

    def s_Next(self, ops, s, scope):
        if s.phase not in self.phase_blocks:
            raise fail(
                f"`next {s.phase}`: there is no phase `{s.phase}`",
                s.span,
                did_you_mean(s.phase, self.phase_blocks, "phase"),
            )
        goto = Goto(self.phase_blocks[s.phase], s.phase, s.span)
        self.gotos.append(goto)  # linked to its phase's opening op once all are compiled
        ops.append(goto)

    def s_EndGame(self, ops, s, scope):
        ops.append(EndGame(s.span))

    def s_Do(self, ops, s, scope):
        if s.effect not in self.effect_blocks:
            raise fail(f"unknown effect `{s.effect}`", s.span, did_you_mean(s.effect, self.effect_blocks, "effect"))
        block, params = self.effect_blocks[s.effect]
        if len(params) != len(s.args):
            raise fail(f"`{s.effect}` takes {len(params)} argument(s) ({', '.join(params)}), not {len(s.args)}", s.span)
        names = [a.name if isinstance(a, ast.Name) and a.name in scope.locals else None for a in s.args]
        ops.append(CallEffect(block, params, [compile_expr(a, scope) for a in s.args], s.span, names))

    def s_DoField(self, ops, s, scope):
        call = s.call
        ops.append(
            CallField(compile_expr(call.obj, scope), call.field, [compile_expr(a, scope) for a in call.args], s.span)
        )

    def s_Window(self, ops, s, scope):
        n = next(self.slots)
        who, moment = f"#who{n}", f"#moment{n}"  # hidden locals ("$" marks loop slots)
        value = compile_expr(s.moment, scope)

        def open_window(m):
            m.env[moment] = value(m)

        ops.append(Exec(open_window, s.span))
        turn_order = compile_expr(ast.Name("turn_order", span=s.span), scope)
        slot = f"${next(self.slots)}"
        ops.append(IterStart(turn_order, slot, s.span))
        head = len(ops)
        step = IterNext(slot, binder(ast.Pattern([who])), span=s.span)
        ops.append(step)
        ops.append(
            choices.WindowChoice(
                who, moment, s.span, compile_text(s.prompt, scope, s.span, "a title") if s.prompt else ""
            )
        )
        ops.append(Jump(head, s.span))
        step.end = len(ops)

    def s_Moment(self, ops, s, scope):
        if not any(a.interrupting for a in self.game.actions):
            raise fail(
                "`moment` offers interrupting actions, and this game declares none",
                s.span,
                'declare one: action NAME(p) "Title" when TEST, interrupting:',
            )
        name = compile_expr(s.name, scope)
        ops.append(Exec(lambda m: actions.begin_moment(m, name(m)), s.span))
        ops.append(actions.MomentPoint(s.span))

    def s_Log(self, ops, s, scope):
        if isinstance(s.text, ast.Str) and ("{" in s.text.value or "}" in s.text.value):
            # A quoted text with `{...}` parts reads them, as a title does ("{{" is a brace).
            line = compile_text(s.text.value, scope, s.text.span, "a log line")
            if isinstance(line, str):
                ops.append(Exec(lambda m: m.emit("log", text=line), s.span))
            else:
                ops.append(Exec(lambda m: m.emit("log", text=line(m)), s.span))
            return
        text = compile_expr(s.text, scope)
        ops.append(Exec(lambda m: m.emit("log", text=str(text(m))), s.span))

    def s_If(self, ops, s, scope):
        exits = []
        for i, (cond, body) in enumerate(s.branches):
            test = JumpUnless(compile_expr(cond, scope), span=cond.span)
            ops.append(test)
            self.body(ops, body, scope)
            if i < len(s.branches) - 1 or s.else_body:  # the last branch falls through
                jump = Jump(span=s.span)
                ops.append(jump)
                exits.append(jump)
            test.target = len(ops)
        if s.else_body:
            self.body(ops, s.else_body, scope)
        for jump in exits:
            jump.target = len(ops)

    def loop(self, ops, source, pattern: ast.Pattern, where, body, scope, span, inner=()):
        slot = f"${next(self.slots)}"
        bind = binder(pattern)
        ops.append(
            IterStart(
                source, slot, span, bind, pattern.names, compile_expr(where, scope) if where is not None else None
            )
        )
        head = len(ops)
        step = IterNext(slot, bind, span=span)
        ops.append(step)
        ops.extend(inner)
        self.body(ops, body, scope)
        ops.append(Jump(head, span))
        step.end = len(ops)

    def s_For(self, ops, s, scope):
        self.loop(ops, compile_expr(s.source, scope), s.pattern, s.where, s.body, scope, s.span)

    def s_Simultaneous(self, ops, s, scope):
        """Two loops over the same players: ask each (secretly), then run each one's block."""
        first = s.body[0]
        if isinstance(first, ast.ChooseSome):
            raise fail(
                "a `choose between` cannot be made simultaneously",
                first.span,
                "it asks one item at a time, so the number of decisions would show how many were "
                "picked; write `choose team from subsets(hand, 1, 3)` (one decision) instead",
            )
        if not isinstance(first, (ast.Choose, ast.Menu)):
            raise fail(
                "a `simultaneously` block starts with the choice everyone makes",
                s.span,
                "put `choose ...` (or `choose one`) first; what follows it runs after all have chosen",
            )
        kept = f"{simultaneous.SIM_PREFIX}{next(self.slots)}"
        players = f"#players{next(self.slots)}"
        source = compile_expr(s.source, scope)

        def list_players(m):
            m.env[players] = list(source(m))

        ops.append(Exec(list_players, s.span))
        listed = lambda m: m.env[players]  # noqa: E731 - both loops run over the same list
        pattern = ast.Pattern([s.var])
        # 1. Collect: the choice alone, with its body left out.
        asked = []
        self.stmt(
            asked,
            dataclasses.replace(first, body=[ast.Pass(span=first.span)], otherwise=None)
            if isinstance(first, ast.Choose)
            else dataclasses.replace(
                first, entries=[dataclasses.replace(e, body=[ast.Pass(span=e.span)]) for e in first.entries]
            ),
            scope,
        )
        gather = simultaneous.Gather(
            asked[0], kept, first.span, required=isinstance(first, ast.Choose) and first.otherwise is None
        )
        self.loop(ops, listed, pattern, None, [], scope, s.span, inner=[gather])
        # 2. Reveal: the whole block for each player, the choice taken from what was kept.
        head = len(ops)
        self.loop(ops, listed, pattern, None, s.body, scope, s.span)
        at = head + 2  # IterStart, IterNext, then the choice
        ops[at] = simultaneous.Recall(ops[at], kept, first.span, players)

    def s_Together(self, ops, s, scope):
        """`together:` marks its frame for as long as its block runs (actions.Together); one
        inside another adds nothing, and `body` compiles its statements as anywhere else."""
        if self.together:
            self.body(ops, s.body, scope)
            return
        self.together += 1
        try:
            ops.append(actions.Together(True, s.span))
            self.body(ops, s.body, scope)
            ops.append(actions.Together(False, s.span))
        finally:
            self.together -= 1

    def s_Quietly(self, ops, s, scope):
        compile_told.quietly(self, ops, s, scope)

    def s_Reset(self, ops, s, scope):
        compile_told.reset(ops, s, scope)

    def s_Repeat(self, ops, s, scope):
        count = compile_expr(s.count, scope)
        counter = ast.Pattern([f"#{next(self.slots)}"])
        self.loop(ops, lambda m: max(0, count(m)), counter, None, s.body, scope, s.span)

    def s_While(self, ops, s, scope):
        head = len(ops)
        test = JumpUnless(compile_expr(s.cond, scope), span=s.span)
        ops.append(test)
        self.body(ops, s.body, scope)
        ops.append(Jump(head, s.span))
        test.target = len(ops)

    # Sources whose items are distinct by construction: no need to look for duplicates.
    def s_PassOn(self, ops, s, scope):
        spec = self.game.zones.get(s.zone)
        if spec is None:
            raise fail(f"unknown zone `{s.zone}`", s.span, did_you_mean(s.zone, self.game.zones, "zone"))
        if spec.per != ("player",):
            raise fail(
                f"`pass {s.zone} to next` needs a zone kept per player only",
                s.span,
                f"declare it `zone {s.zone} per player: ...`",
            )
        name = s.zone
        ops.append(Exec(lambda m: zones.pass_on(m, name), s.span))
