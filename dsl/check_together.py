"""`meeple check`'s warning for a check that an action at any time can undo before it is paid.

An action at any time is offered at every decision of its player, in the middle of
an effect too (interpreter/effects/actions.py). So in

    if coins[p] >= 2:
        may choose yes from ["yes"] "Spend 2 coins for a point?":   # an action may be taken here
            coins[p] -= 2

the check and the payment are two steps, and an action taken at the choice can spend
what the check found: the player spends what they no longer have. The rules say
"these steps happen together" with `together:` (no action is offered inside it).

What is warned about, a static approximation: a condition (an `if`'s, a choice's
`where`, a `choose one` entry's guard) whose block holds a decision and then changes
what the condition read (pays for it), outside any `together:` block, reached from the setup, a phase or a reaction (action blocks offer
no actions), when the condition reads (through the rules' functions) a counter, zone
or grid that some action writes (through the effects it runs, and every effect named
in the data when it runs a card's ability). A component moved "to Z" may come from any
zone holding its kind, so such a move writes every zone of Z's kind. A block that opens
with a choice that reads those names again, and has a `may` or an `otherwise`, checks
again where it matters and is not warned about.
"""

from __future__ import annotations

from meeple.dsl import ast
from meeple.dsl.ast import walk
from meeple.dsl.errors import Diagnostic
from meeple.dsl.flow_graph import sub_bodies

DECIDES = (ast.Choose, ast.ChooseSome, ast.Menu, ast.Place, ast.Simultaneous)


class _Rules:
    """What the walk needs to know of the ruleset, read once."""

    def __init__(self, game, items: list):
        self.effects = {i.name: i.body for i in items if isinstance(i, ast.EffectDecl)}
        self.functions = {i.name: i.expr for i in items if isinstance(i, ast.FunctionDecl)}
        self.reactions = [i.body for i in items if isinstance(i, ast.ReactionDecl)]
        self.kind_of = {i.name: i.of for i in items if isinstance(i, ast.ZoneDecl)}
        self.grids = {i.name for i in items if isinstance(i, ast.GridDecl)}
        self.state = (
            {i.name for i in items if isinstance(i, ast.CounterDecl)}
            | set(self.kind_of)
            | self.grids
            | {"first_player"}
        )
        # Effects the data names (a card's ability): `do card.field(...)` may run any of them.
        self.data_effects = sorted(
            {
                v[0]
                for comp in game.components.values()
                for v in comp.values()
                if isinstance(v, list) and len(v) == 2 and v[0] in self.effects
            }
        )

    def zone_family(self, name: str) -> set:
        kind = self.kind_of.get(name)
        return {z for z, k in self.kind_of.items() if k == kind} if kind else {name}

    def writes(self, stmts: list, seen: set) -> set:
        """The state names a block writes, through the effects it runs (each followed once)."""
        out: set = set()
        for s in stmts:
            if isinstance(s, ast.Assign):
                t = s.target
                if isinstance(t, ast.Attr):  # a cell's mark
                    out |= self.grids
                else:
                    out.add(t.name if isinstance(t, ast.Name) else getattr(t.obj, "name", ""))
            elif isinstance(s, ast.Move):
                out |= self.zone_family(s.to.name)
            elif isinstance(s, (ast.MoveAll, ast.Draw)):
                out |= {s.source.name, s.to.name}
            elif isinstance(s, ast.Shuffle):
                out.add(s.zone.name)
            elif isinstance(s, ast.PassOn):
                out.add(s.zone)
            elif isinstance(s, ast.Place):  # the cells, and the piece leaves its zone
                out |= self.grids | set(self.kind_of)
            for name in self.called(s):
                if name not in seen:
                    seen.add(name)
                    out |= self.writes(self.effects[name], seen)
            if isinstance(s, ast.Window):
                for body in self.reactions:
                    out |= self.writes(body, seen)
            for body in sub_bodies(s):
                out |= self.writes(body, seen)
        return out & self.state

    def called(self, s) -> list:
        """The effects a statement runs itself (`do`, or any effect of the data for a card's)."""
        if isinstance(s, ast.Do):
            return [s.effect] if s.effect in self.effects else []
        if isinstance(s, ast.DoField):
            return self.data_effects
        return []

    def reads(self, expr, seen: set | None = None) -> set:
        """The state names an expression reads, through the rules' functions."""
        seen = set() if seen is None else seen
        out: set = set()
        for node in walk(expr):
            if isinstance(node, ast.Name) and node.name in self.state:
                out.add(node.name)
            elif isinstance(node, ast.Name) and node.name == "turn_order":
                out.add("first_player")
            elif isinstance(node, ast.Call) and node.func in self.functions and node.func not in seen:
                seen.add(node.func)
                out |= self.reads(self.functions[node.func], seen)
        return out


def decides(stmts: list) -> bool:
    """Does the block (not counting the effects it runs) hold a decision?"""
    for s in stmts:
        if isinstance(s, DECIDES):
            return True
        if isinstance(s, ast.Together):
            continue  # its own decisions come after a check inside it, or are warned about there
        if any(decides(body) for body in sub_bodies(s)):
            return True
    return False


def stale_checks(game, items: list) -> list[Diagnostic]:
    """The warnings (see the module's docstring), one per condition, in the order of the walk."""
    actions = [i for i in items if isinstance(i, ast.ActionDecl)]
    if not actions:
        return []
    rules = _Rules(game, items)
    writers: dict[str, str] = {}  # a state name -> the first action that writes it
    for a in actions:
        for name in sorted(rules.writes(a.body, set())):
            writers.setdefault(name, a.name)
    out: list[Diagnostic] = []
    warned: set = set()
    visited: set = set()

    def check(cond, body) -> None:
        if cond is None or not decides(body):
            return
        hit = rules.reads(cond) & set(writers) & rules.writes(body, set())
        first = body[0] if body else None
        if isinstance(first, (ast.Choose, ast.ChooseSome)) and (
            first.otherwise is not None or getattr(first, "may", False)
        ):
            # The choice right after the check asks again (its list and `where` are read at the
            # decision, after any action) and says what happens when nothing is left.
            hit -= rules.reads([first.source, first.where])
        key = (cond.span.line, cond.span.col)
        if hit and key not in warned:
            warned.add(key)
            by = "; ".join(f"`{writers[n]}` changes `{n}`" for n in sorted(hit))
            out.append(
                Diagnostic(
                    "an action at any time can change what this checks before the block after it is done "
                    f"(it is offered at the decision inside): {by}",
                    cond.span,
                    "if the check and what it allows are one step of the rules (a cost checked, then paid), "
                    "put them in `together:`; else check again where it matters",
                    "warning",
                )
            )

    def block(stmts: list, inside: bool) -> None:
        for s in stmts:
            if isinstance(s, ast.Together):
                block(s.body, True)
                continue
            if not inside:
                if isinstance(s, ast.If):
                    for cond, body in s.branches:
                        check(cond, body)
                elif isinstance(s, (ast.Choose, ast.ChooseSome)):
                    check(s.where, s.body)
                elif isinstance(s, ast.Menu):
                    for e in s.entries:
                        check(e.guard, e.body)
            for name in rules.called(s):
                if (name, inside) not in visited:
                    visited.add((name, inside))
                    block(rules.effects[name], inside)
            for body in sub_bodies(s):
                block(body, inside)

    for item in items:
        if isinstance(item, (ast.SetupDecl, ast.PhaseDecl, ast.ReactionDecl)):
            block(item.body, False)
    return out
