"""AST -> Game: declarations become specs and data, the flow becomes blocks of ops.

`load_game(path, options, variants)` is the one entry point from text to a
runnable Game: parse, apply the chosen variants, check, load the data files,
compile. Options are fixed at compile time, so `if scoring == A` in a score
rule's header is decided once, not at every step.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import cast

from meeple.dsl import ast, compile_calls, compile_source  # noqa: F401 (they register their parts with compile_expr)
from meeple.dsl.checker import KINDS, OWN_NAMES, check, guard_text
from meeple.dsl.compile_expr import Scope, compile_expr, compile_table, constant, fail
from meeple.dsl.compile_flow import FlowCompiler, bound_names
from meeple.dsl.compile_page import compile_page, without_layout
from meeple.dsl.compile_pure import compile_pure
from meeple.dsl.compile_text import compile_outcomes, component_labels
from meeple.dsl.compile_told import COUNTER_WORDS, ZONE_WORDS, check_says
from meeple.dsl.data import load_board, load_components, load_layout
from meeple.dsl.enums import load_enums
from meeple.dsl.errors import MeepleError, did_you_mean
from meeple.dsl.flow_graph import flow_graph
from meeple.dsl.parser import parse_file
from meeple.dsl.player_values import player_lists, player_locals, player_values
from meeple.dsl.reads import reads_of
from meeple.dsl.runtime import (
    FUNCTIONS,
    VISIBILITIES,
    VISIBILITY_DEFAULTS,
    Action,
    Block,
    CounterSpec,
    Game,
    Geometry,
    GridSpec,
    HintRule,
    MeasureRule,
    Reaction,
    ScoreRule,
    ZoneSpec,
    chain_phases,
    placeholders,
)

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


class UsageError(Exception):
    """A bad request from the command line (unknown game, bad option): exit code 2."""


def find_ruleset(name: str) -> Path:
    """A shipped ruleset's name, or a path to a .rules file."""
    candidate = Path(name)
    if candidate.suffix == ".rules" or candidate.exists():
        if candidate.is_dir():
            found = sorted(candidate.glob("*.rules"))
            if len(found) == 1:
                return found[0]
        if not candidate.is_file():
            raise UsageError(f"no such rules file: {name}")
        return candidate
    shipped = shipped_rulesets()
    if name in shipped:
        return shipped[name]
    hint = did_you_mean(name, shipped)
    raise UsageError(
        f"unknown game `{name}`" + (f"; {hint}" if hint else f"; shipped games: {', '.join(sorted(shipped))}")
    )


def shipped_rulesets() -> dict[str, Path]:
    """Every .rules file under rulesets/, by its file name without `.rules`."""
    return {p.stem: p for p in sorted(RULESETS.glob("*/*.rules"))}


def apply_variants(rs: ast.Ruleset, chosen: list[str]) -> list:
    """The ruleset's items with each chosen variant's definitions replacing same-named ones."""
    declared = {v.name: v for v in rs.of(ast.VariantDecl)}
    items = [i for i in rs.items if not isinstance(i, ast.VariantDecl)]
    for name in chosen:
        if name not in declared:
            hint = did_you_mean(name, declared)
            raise UsageError(
                f"unknown variant `{name}`" + (f"; {hint}" if hint else f"; variants: {', '.join(declared) or 'none'}")
            )
        for new in declared[name].items:
            key = item_key(new, rs.source)
            if key is not None and key[0] in RULES:
                _keeps_conditions(name, new, key, items, rs.source)
            items = [i for i in items if key is None or item_key(i, rs.source) != key] + [new]
    return items


RULES = ("score", "hint", "measure")  # kept per label and `if` condition: scoring cards A and B share labels


def item_key(item, source: str = ""):
    """What a variant's definition replaces: the definition of the same kind and name (a score,
    hint or measure rule: of the same label and the same `if` condition)."""
    for kind, cls in zip(RULES, (ast.ScoreDecl, ast.HintDecl, ast.MeasureDecl)):
        if isinstance(item, cls):
            return (kind, cast(ast.ScoreDecl, item).label, guard_text(source, item))  # (each has a label)
    name = getattr(item, "name", None)
    return (type(item).__name__, name) if name is not None else (type(item).__name__,)


def _keeps_conditions(variant: str, new, key: tuple, items: list, source: str) -> None:
    """A variant's rule that would sit beside same-named rules an option made conditional (rather
    than replace one of them) is an error naming both: the variant meant to replace, and the
    game would count both."""
    kind, label, condition = key
    same = [i for i in items if (k := item_key(i, source))[0] == kind and k[1] == label]
    others = [i for i in same if item_key(i, source) != key]
    if not others or len(others) < len(same):  # nothing of that label, or the very rule it replaces
        return
    where = " and ".join(f"if `{guard_text(source, i) or 'always'}` (line {i.span.line})" for i in others)
    own = f" if `{condition}`" if condition else ""
    raise MeepleError(
        f'variant `{variant}` defines {kind} "{label}"{own}, but the rules define {kind} '
        f'"{label}" {where}: the variant\'s rule would be counted beside them, not instead',
        new.span,
        f'give the variant one rule per condition ({kind} "{label}" if '
        f"{guard_text(source, others[0]) or '...'}: ...) to replace each, or another label",
    )


def choose_options(rs_items, requested: dict) -> tuple[dict, dict]:
    """The chosen value of every option and param (as text, as `--option` gives it), and what each
    offers: an option its values, a param its default and its two ends (what `check` compiles)."""
    decls = {o.name: o for o in rs_items if isinstance(o, (ast.OptionDecl, ast.ParamDecl))}
    for name, value in requested.items():
        if name not in decls:
            hint = did_you_mean(name, decls)
            raise UsageError(
                f"unknown option `{name}`" + (f"; {hint}" if hint else f"; options: {', '.join(decls) or 'none'}")
            )
        d = decls[name]
        if isinstance(d, ast.ParamDecl):
            if not (value.isdigit() and d.lo <= int(value) <= d.hi):
                raise UsageError(f"param `{name}` is a whole number from {d.lo} to {d.hi}, not `{value}`")
        elif value not in d.values:
            raise UsageError(f"option `{name}` cannot be `{value}`; choose one of: {', '.join(d.values)}")
    offered = {
        name: (
            d.values if isinstance(d, ast.OptionDecl) else list(dict.fromkeys(str(v) for v in (d.default, d.lo, d.hi))),
            d.doc,
        )
        for name, d in decls.items()
    }
    chosen = {
        name: str(int(requested[name]))
        if name in requested and isinstance(d, ast.ParamDecl)
        else requested.get(name, offered[name][0][0])
        for name, d in decls.items()
    }
    return chosen, offered


def load_game(path: str | Path, options: dict | None = None, variants: list | None = None) -> Game:
    rs = parse_file(path)
    return compile_ruleset(rs, options or {}, variants or [])


def compile_ruleset(rs: ast.Ruleset, options: dict, variants: list) -> Game:
    try:
        items = apply_variants(rs, variants)
        check(rs, items, FUNCTIONS)
        return _compile(rs, items, options, variants)
    except MeepleError as exc:
        raise exc.located(rs.path, rs.source) from None
    except RecursionError:
        from meeple.dsl.parser import too_deep

        raise too_deep(rs.path, rs.source) from None


def _compile(rs: ast.Ruleset, items: list, requested: dict, variants: list) -> Game:
    base = Path(rs.path).parent if rs.path else Path(".")
    of = lambda cls: [i for i in items if isinstance(i, cls)]  # noqa: E731
    options, option_choices = choose_options(items, requested)
    title = of(ast.GameDecl)[0].title
    players = of(ast.PlayersDecl)[0]
    enums, enum_labels = load_enums(
        of(ast.EnumDecl),
        base,
        options,
        {i.name: KINDS[type(i)] for i in items if type(i) in KINDS and type(i) not in OWN_NAMES},
    )
    digest = hashlib.sha256(without_layout(rs.source, rs.of(ast.PageDecl)).encode())  # what affects play

    components, kinds, shapes = dict[str, dict](), {}, {}
    effect_params = {e.name: e.params for e in of(ast.EffectDecl)}
    for decl in of(ast.ComponentDecl):
        for f in decl.fields:
            if f.type not in ("int", "text", "effect") and f.type not in enums:
                raise fail(
                    f"unknown type `{f.type}` for field `{f.name}`",
                    f.span,
                    did_you_mean(f.type, list(enums) + ["int", "text", "effect"], "enum"),
                )
            if f.form and f.type not in enums:
                raise fail(f"`{f.form} of {f.type}`: {f.form}s are made of the values of an enum", f.span)
        comps, order, comp_shapes = load_components(decl, base, options, enums, set(components), effect_params)
        components.update(comps)
        kinds[decl.name] = order
        shapes.update(comp_shapes)

    symbols = {v for values in enums.values() for v in values}
    symbols |= {v for vals, _ in option_choices.values() for v in vals}

    zones = {}
    for z in of(ast.ZoneDecl):
        if z.kind not in VISIBILITY_DEFAULTS:
            raise fail(f"`{z.kind}` is not a kind of zone", z.span, f"a zone is a {', '.join(VISIBILITY_DEFAULTS)}")
        if z.of not in kinds:
            raise fail(
                f"zone `{z.name}` holds `{z.of}`, which is not a component",
                z.span,
                did_you_mean(z.of, kinds, "component"),
            )
        vis = z.visibility or VISIBILITY_DEFAULTS[z.kind]
        if vis not in VISIBILITIES:
            raise fail(f"`{vis}` is not a visibility", z.span, "use public, private, hidden or top")
        check_per(z.per, enums, kinds, z.span, z.label)
        check_says(z.says, z.per, ZONE_WORDS, z.span, f"zone `{z.name}`")
        zones[z.name] = ZoneSpec(z.name, z.per, z.kind, z.of, vis, z.span, z.refill, z.label, z.says)
    for z in of(ast.ZoneDecl):
        if not z.refill:
            continue
        source = zones.get(z.refill)
        if source is None:
            raise fail(
                f"zone `{z.name}` refills from `{z.refill}`, which is not a zone",
                z.span,
                did_you_mean(z.refill, zones, "zone"),
            )
        if source.of != z.of or source.per not in ((), z.per) or z.refill == z.name:
            raise fail(
                f"zone `{z.name}` cannot refill from `{z.refill}`",
                z.span,
                "the refill zone holds the same component and is shared or kept per the same things",
            )

    grids = {}
    for gd in of(ast.GridDecl):
        check_per(gd.per, enums, kinds, gd.span, gd.label)
        if gd.content not in enums:
            raise fail(
                f"cells of `{gd.name}` hold `{gd.content}`, which is not an enum",
                gd.span,
                did_you_mean(gd.content, enums, "enum"),
            )
        if not (1 <= gd.rows <= 64 and 1 <= gd.cols <= 64):
            raise fail("a grid has 1 to 64 rows and columns", gd.span)
        layouts = {}
        for lay in gd.layouts:
            layouts[lay.attr] = load_layout(lay, gd, base, options)
            symbols |= set(lay.legend.values())
        grids[gd.name] = GridSpec(
            gd.name, gd.per, gd.content, Geometry.square(gd.rows, gd.cols), layouts, gd.span, gd.label
        )

    boards = {b.name: load_board(b, base, options) for b in of(ast.BoardDecl)}
    backs = {}
    for decl in of(ast.ComponentDecl):
        shown = [f.name for f in decl.fields if f.back]
        for cid in kinds[decl.name] if shown else ():  # only cards whose back shows something
            backs[cid] = "/".join(str(components[cid][f]) for f in shown)

    game = Game(
        title=title,
        path=rs.path,
        source=rs.source,
        digest="",
        min_players=players.lo,
        max_players=players.hi,
        options=options,
        option_choices=option_choices,
        params={p.name: (p.lo, p.hi) for p in of(ast.ParamDecl)},
        variants=list(variants),
        variant_titles={v.name: v.title or v.name for v in rs.of(ast.VariantDecl)},
        enums=enums,
        components=components,
        kinds=kinds,
        shapes=shapes,
        zones=zones,
        grids=grids,
        counters={},
        tables={},
        blocks=[],
        phases={},
        effects={},
        setup=0,
        scores=[],
        tiebreaks=[],
        boards=boards,
        backs=backs,
    )
    game.labels.update(enum_labels)  # before the components': a component's label wins a shared name
    for decl in of(ast.ComponentDecl):
        game.labels.update(component_labels(decl, game))
    for board in boards.values():  # a value holding a space reads as its label, like a component
        game.labels.update(board.labels)
    scope = Scope(game, symbols)
    for t in of(ast.TableDecl):
        game.tables[t.name] = compile_table(t.table, scope)
    # Counters are known before functions are compiled (a function may read one), and their starting
    # values are worked out after (a starting value may call a function defined anywhere in the file).
    for c in of(ast.CounterDecl):
        check_per(c.per, enums, kinds, c.span, c.label)
        game.counters[c.name] = CounterSpec(c.name, c.per, c.kind, None, None, None, c.span, c.secret)
    for f in of(ast.FunctionDecl):
        game.functions[f.name] = [list(f.params), None]
        game.function_bodies[f.name] = f.expr
    for f in of(ast.FunctionDecl):
        game.functions[f.name][1] = compile_expr(f.expr, scope.with_locals(f.params))
    for c in of(ast.CounterDecl):
        init = constant(c.init, scope)
        lo = constant(c.lo, scope) if c.lo is not None else None
        hi = constant(c.hi, scope) if c.hi is not None else None
        if c.kind == "flag" and not isinstance(init, bool):
            raise fail(f"flag `{c.name}` starts as true or false", c.init.span)
        if c.kind == "counter" and (not isinstance(init, int) or isinstance(init, bool)):
            raise fail(f"counter `{c.name}` starts as a whole number", c.init.span)
        if c.kind != "counter" and (lo is not None or hi is not None):
            raise fail(f"only counters have bounds; `{c.name}` is a {c.kind}", c.span)
        if c.secret and c.per[:1] != ("player",):
            raise fail(
                f"`{c.name}` is secret, so it must be kept per player (only its player sees it)",
                c.span,
                f"write `{c.kind} {c.name} per player = ..., secret`",
            )
        check_says(c.says, c.per, COUNTER_WORDS, c.span, f"`{c.name}`")
        game.counters[c.name] = CounterSpec(
            c.name, c.per, c.kind, init, lo, hi, c.span, c.secret, c.quiet, label=c.label, says=c.says
        )
    # Which values and locals hold players: a local may be set from a value and a value from a
    # local (`let w = leader`, `leader = w`), so the values are judged again with the locals known.
    data_effects = {
        v[0]
        for comp in game.components.values()
        for v in comp.values()
        if isinstance(v, list) and len(v) == 2 and isinstance(v[1], list) and v[0] in effect_params
    }
    seats = player_locals(items, game.counters, data_effects)
    for name in player_values(items, game.counters, seats):
        game.counters[name].player = True
    for name in player_lists(items, game.counters, seats):
        game.counters[name].players = True
    game.player_locals = frozenset(player_locals(items, game.counters, data_effects))
    compile_flow(game, items, rs, scope)
    compile_scoring(game, items, scope)
    game.outcomes = compile_outcomes(of(ast.OutcomeDecl), scope)
    game.page = compile_page(
        of(ast.PageDecl), game, {d.name: {f.name: f.type for f in d.fields} for d in of(ast.ComponentDecl)}
    )
    for path in sorted(
        {d.path for d in of(ast.ComponentDecl)}
        | {b.path for b in of(ast.BoardDecl)}
        | {e.path for e in of(ast.EnumDecl) if e.path}
        | {lay.path for g in of(ast.GridDecl) for lay in g.layouts}
    ):
        digest.update((base / path.format(**options)).read_bytes())
    game.digest = digest.hexdigest()[:16]
    return game


def check_per(per: tuple, enums: dict, kinds: dict, span, label: str = "") -> None:
    """What a thing is kept per are known, `per player` comes first, and its label's braces
    name only those."""
    for name in placeholders(label):
        if name not in per:
            kept = ", ".join("{" + d + "}" for d in per)
            raise fail(
                f"the label names `{{{name}}}`, which this is not kept per",
                span,
                f"braces in this label may name {kept}"
                if per
                else "only a thing kept per something has braces in its label (`per player`: {player})",
            )
    for dim in per:
        if dim != "player" and dim not in enums and dim not in kinds:
            raise fail(
                f"`per {dim}`: a thing is kept per player, per value of an enum, or per component",
                span,
                did_you_mean(dim, list(enums) + list(kinds) + ["player"], "enum"),
            )
    if "player" in per[1:]:
        raise fail(
            "`per player` comes first", span, f"write `per player per {' per '.join(d for d in per if d != 'player')}`"
        )


def compile_flow(game: Game, items: list, rs: ast.Ruleset, scope: Scope) -> None:
    setups = [i for i in items if isinstance(i, ast.SetupDecl)]
    phases = [i for i in items if isinstance(i, ast.PhaseDecl)]
    effects = [i for i in items if isinstance(i, ast.EffectDecl)]
    reactions = [i for i in items if isinstance(i, ast.ReactionDecl)]
    if setups:
        game.blocks.append(Block("setup"))
    for p in phases:
        game.phases[p.name] = len(game.blocks)
        game.blocks.append(Block(f"phase {p.name}"))
    for e in effects:
        game.effects[e.name] = (len(game.blocks), list(e.params))
        game.blocks.append(Block(f"effect {e.name}"))
    for r in reactions:
        guard = compile_expr(r.guard, scope.with_locals(r.params)) if r.guard is not None else None
        game.reactions.append(Reaction(r.name, r.title, list(r.params), guard, len(game.blocks), r.span))
        game.blocks.append(Block(f"reaction {r.name}"))
    actions = [i for i in items if isinstance(i, ast.ActionDecl)]
    for a in actions:
        guard = compile_expr(a.guard, scope.with_locals([a.param])) if a.guard is not None else None
        game.actions.append(
            Action(a.name, a.title, a.param, guard, len(game.blocks), a.interrupting, a.span, a.on_request)
        )
        game.blocks.append(Block(f"action {a.name}"))
    game.interrupting = tuple(a.name for a in game.actions if a.interrupting)
    for i, a in enumerate(actions):
        if any(b.title == a.title for b in actions[:i]):  # the second one is the mistake
            raise fail(f'two actions are called "{a.title}"', a.span, "give each action its own title")
    titles = [r.title for r in game.reactions]
    for r in reactions:
        if titles.count(r.title) > 1:
            raise fail(f'two reactions are called "{r.title}"', r.span, "give each reaction its own title")
    game.setup = 0
    flow = FlowCompiler(game, game.phases, game.effects, rs.source.splitlines())
    if setups:
        body = setups[0].body
        flow.compile_block(game.blocks[0], body, scope.with_locals(bound_names(body)))
    for p in phases:
        flow.compile_block(game.blocks[game.phases[p.name]], p.body, scope.with_locals(bound_names(p.body)))
    for e in effects:
        names = set(e.params) | bound_names(e.body)
        flow.compile_block(game.blocks[game.effects[e.name][0]], e.body, scope.with_locals(names))
    for r, compiled in zip(reactions, game.reactions):
        names = set(r.params) | bound_names(r.body)
        flow.compile_block(game.blocks[compiled.block], r.body, scope.with_locals(names))
    for a, compiled in zip(actions, game.actions):
        names = {a.param} | bound_names(a.body)
        flow.compile_block(game.blocks[compiled.block], a.body, scope.with_locals(names))
    chain_phases(game, flow.gotos)
    game.flow = flow_graph(setups, phases, effects)


def rule_function(rule, scope: Scope):
    """A score rule's or hint's value: its block (dsl/compile_pure.py) or its expression."""
    if rule.body is not None:
        return compile_pure(rule.body, scope.with_locals(bound_names(rule.body)))
    return compile_expr(rule.expr, scope)


def compile_scoring(game: Game, items: list, scope: Scope) -> None:
    player_scope = scope.with_locals({"player"})
    for s in [i for i in items if isinstance(i, ast.ScoreDecl)]:
        if s.guard is not None and not constant(s.guard, scope):
            continue
        game.scores.append(ScoreRule(s.label, rule_function(s, player_scope), s.span, reads_of(s, game)))
    for h in [i for i in items if isinstance(i, ast.HintDecl)]:
        if h.guard is not None and not constant(h.guard, scope):
            continue
        if h.den == 0 or h.num == 0:
            raise fail(
                f'hint "{h.label}" is worth nothing',
                h.span,
                "write `worth N` or `worth N / M` with N and M above 0, e.g. `worth 1 / 2`",
            )
        game.hints.append(HintRule(h.label, rule_function(h, player_scope), h.num / h.den, h.span, reads_of(h, game)))
    for ms in [i for i in items if isinstance(i, ast.MeasureDecl)]:
        if ms.guard is None or constant(ms.guard, scope):
            game.measures.append(MeasureRule(ms.label, rule_function(ms, player_scope), ms.span))
    for d in [i for i in items if isinstance(i, ast.SummaryDecl)]:
        for name in d.names:
            if name not in game.counters and name not in game.zones:
                raise fail(
                    f"`summary` names `{name}`, which is not a counter, flag, value or zone",
                    d.span,
                    did_you_mean(name, list(game.counters) + list(game.zones), "name"),
                )
        game.summary = tuple(d.names)
    for t in [i for i in items if isinstance(i, ast.TiebreakDecl)]:
        game.tiebreaks = [(d, compile_expr(e, player_scope), e.span) for d, e in t.keys]
