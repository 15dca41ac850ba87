"""The `layout` block, checked and compiled into plain data the play table sends with each view.

A layout names zones, counters, grids and boards of the ruleset; every name is checked here
(`path:line:col` with a caret, and a did-you-mean), and so is what it is kept per: a shared
area holds things not kept per player, `player:` and `others:` things kept per player,
`columns per E` things kept per the enum E. Card faces name fields of their component and
colours name values of their enum. The result (Game.page) is JSON-ready data; a ruleset
without a layout has Game.page None and keeps the generic page. Nothing here changes play,
and the game's digest leaves the block out (`without_layout`), so adding one keeps saves and
learned models valid.
"""

from __future__ import annotations

import re
from typing import Any

from meeple.dsl import ast
from meeple.dsl.compile_expr import fail
from meeple.dsl.compile_text import field_shown, split_template
from meeple.dsl.errors import did_you_mean
from meeple.dsl.runtime import PALETTE, words

COLOUR = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def compile_page(decls: list, game, types: dict) -> dict | None:
    """Game.page from the `layout` blocks (at most one), or None. `types`: {component: {field: type}}."""
    if not decls:
        return None
    if len(decls) > 1:
        raise fail("a ruleset has one `layout` block", decls[1].span, "put all of it under the first `layout:`")
    page: dict[str, Any] = {"areas": [], "player": None, "others": None, "colours": {}, "faces": {}}
    entries = decls[0].entries
    for e in entries:  # colours first: a face's colour reads them
        if isinstance(e, ast.PageColours):
            page["colours"][e.enum] = colours(e, game)
    for e in entries:
        if isinstance(e, ast.PageArea):
            page["areas"].append({"title": e.title, "rows": [row(r, game, False) for r in e.rows]})
        elif isinstance(e, ast.PagePlayer):
            if page["player"] is not None:
                raise fail("the layout has two `player:` blocks", e.span, "keep one")
            page["player"] = [row(r, game, True) for r in e.rows]
        elif isinstance(e, ast.PageOthers):
            page["others"] = [item(i, game, True) for i in e.items]
        elif isinstance(e, ast.PageFace):
            page["faces"].update(face(e, game, page["colours"], types.get(e.kind, {})))
    return page


def what(game, name: str) -> str:
    for kind, table in (("zone", game.zones), ("counter", game.counters), ("grid", game.grids), ("board", game.boards)):
        if name in table:
            return kind
    return ""


def item(i: ast.PageItem, game, per_player: bool, per: str = "") -> dict:
    kind = what(game, i.name)
    if not kind:
        known = list(game.zones) + list(game.counters) + list(game.grids) + list(game.boards)
        raise fail(
            f"the layout names `{i.name}`, which is not a zone, counter, grid or board",
            i.span,
            did_you_mean(i.name, known, "name") or "name a zone, a counter, a grid or a board",
        )
    dims = () if kind == "board" else getattr(game, kind + "s")[i.name].per
    if per_player and dims[:1] != ("player",):
        raise fail(
            f"`{i.name}` is not kept per player, so it has no place in each player's area",
            i.span,
            'put it in an `area "...":` of the shared table',
        )
    if not per_player and "player" in dims:
        raise fail(f"`{i.name}` is kept per player: it goes in `player:`, drawn in each player's area", i.span)
    if per and per not in dims:
        raise fail(
            f"`{i.name}` is not kept per `{per}`, so it has no place in its columns",
            i.span,
            f"declare it `per {per}` or move it out of `columns per {per}`",
        )
    out: dict[str, Any] = {"name": i.name, "what": kind, "title": i.title or heading(game, kind, i.name)}
    if i.track is not None:
        if kind != "counter" or game.counters[i.name].kind != "counter":
            raise fail(
                f"only a counter is drawn as a track; `{i.name}` is a {kind if kind != 'counter' else game.counters[i.name].kind}",
                i.span,
                "drop `track ...`",
            )
        out["track"] = list(i.track)
    return out


def heading(game, kind: str, name: str) -> str:
    """A thing's heading when the layout gives none: its label less what it is kept per
    ("the crate at {stall}" -> "the crate at"), else its name in words."""
    label = "" if kind == "board" else getattr(game, kind + "s")[name].label or ""
    label = re.sub(r"\{player\}'s\s*|\s*\{[^}]*\}", "", label).strip()
    return label[:1].upper() + label[1:] if label else name.replace("_", " ").capitalize()


def row(r, game, per_player: bool) -> dict:
    if isinstance(r, ast.PageColumns):
        if r.per not in game.enums:
            raise fail(
                f"`columns per {r.per}`: `{r.per}` is not an enum", r.span, did_you_mean(r.per, game.enums, "enum")
            )
        if r.title and re.sub(r"\{" + r.per + r"\}", "", r.title).count("{"):
            raise fail(f"a column's title names only `{{{r.per}}}`", r.span, f'write for example "Table {{{r.per}}}"')
        return {
            "columns": r.per,
            "values": list(game.enums[r.per]),
            "labels": [game.labels.get(v) or words(v) for v in game.enums[r.per]],  # as the column's title says it
            "title": r.title or "{" + r.per + "}",
            "items": [item(i, game, per_player, r.per) for i in r.items],
        }
    return {"items": [item(i, game, per_player) for i in r.items]}


def colours(e: ast.PageColours, game) -> dict:
    if e.enum not in game.enums:
        raise fail(f"`colours {e.enum}`: `{e.enum}` is not an enum", e.span, did_you_mean(e.enum, game.enums, "enum"))
    values = game.enums[e.enum]
    out = {v: PALETTE[k % len(PALETTE)] for k, v in enumerate(values)}
    for (value, colour), span in zip(e.colours, e.each_span):
        if value not in values:
            raise fail(
                f"`{value}` is not a value of `{e.enum}`",
                span,
                did_you_mean(value, values, "value") or f"its values: {', '.join(values)}",
            )
        if not COLOUR.fullmatch(colour):
            raise fail(f"`{colour}` is not a colour", span, 'write it as "#rrggbb", for example "#f4d35e"')
        out[value] = colour
    return out


def face(e: ast.PageFace, game, declared: dict, types: dict) -> dict:
    """{component id: {"lines": [words], "colour": "#rrggbb", "mark": value}} for one kind."""
    if e.kind not in game.kinds:
        raise fail(
            f"`face {e.kind}`: `{e.kind}` is not a component", e.span, did_you_mean(e.kind, game.kinds, "component")
        )
    ids = game.kinds[e.kind]
    fields = sorted({k for cid in ids for k in game.components[cid] if not k.startswith("_")} | {"id"})
    where = f"the face of `{e.kind}`"
    lines: list[tuple] = []  # (a field name or a template of words and fields, the field it is shown `when`)
    title = template(e.title, e.span, where, fields, e.kind) if e.title else None
    for line in e.lines:
        if line.when and line.when not in fields:
            raise fail(
                f"{where} shows a line `when {line.when}`, which is not a field of `{e.kind}`",
                line.when_span,
                did_you_mean(line.when, fields, "field") or f"fields: {', '.join(fields)}",
            )
        if line.kind == "field":
            if line.text not in fields:
                raise fail(
                    f"{where} names `{line.text}`, which is not a field of `{e.kind}`",
                    line.span,
                    did_you_mean(line.text, fields, "field") or f"fields: {', '.join(fields)}",
                )
            lines.append((line.text, line.when))
            continue
        lines.append((template(line.text, line.span, where, fields, e.kind), line.when))
    enum = ""
    if e.colour:
        field_type = types.get(e.colour)
        if field_type not in game.enums:
            raise fail(
                f"{where} takes its colour from `{e.colour}`, which is not a field holding an enum value",
                e.colour_span,
                "colour a card by a field whose type is an enum",
            )
        enum = str(field_type)
    out: dict[str, dict] = {}
    for cid in ids:
        comp = game.components[cid]
        said: list[str] = []
        for line, when in lines:
            if when and not is_set(cid if when == "id" else comp.get(when)):
                continue  # `when FIELD`: only on the cards whose FIELD is set
            if isinstance(line, str):
                value = cid if line == "id" else comp.get(line)
                if value is None or value == "" or value == []:
                    continue  # a field this card leaves empty: no line
                plain = types.get(line) == "text" or (
                    isinstance(value, str) and value in game.enums.get(types.get(line, ""), [])
                )
                said.append(field_shown(game, value) if plain else f"{line} {field_shown(game, value)}")
            else:
                said.append(filled(game, line, cid, comp))
        card: dict[str, Any] = {"lines": [s for s in said if s.strip()]}
        if title is not None:
            card["title"] = filled(game, title, cid, comp)
        if enum and comp.get(e.colour) is not None:
            value = comp[e.colour]
            palette = declared.get(enum) or {v: PALETTE[k % len(PALETTE)] for k, v in enumerate(game.enums[enum])}
            card["colour"], card["mark"] = palette.get(value, PALETTE[0]), str(value)
        out[cid] = card
    return out


def is_set(value) -> bool:
    """Whether a card's field counts as set for a face line's `when`: not empty, zero or false."""
    return value not in (None, "", [], 0, False)


def template(text: str, span, where: str, fields: list, kind: str) -> list:
    """Words with fields in braces, checked: only fields of the component."""
    parts = split_template(text, span, where)
    for p in parts:
        if not isinstance(p, str) and not isinstance(p, ast.Name):
            raise fail(f"{where} can name fields only, in braces", span, f"fields: {', '.join(fields)}")
        if isinstance(p, ast.Name) and p.name not in fields:
            raise fail(
                f"{where} names `{p.name}`, which is not a field of `{kind}`",
                span,
                did_you_mean(p.name, fields, "field") or f"fields: {', '.join(fields)}",
            )
    return parts


def filled(game, parts: list, cid: str, comp: dict) -> str:
    return "".join(
        p if isinstance(p, str) else cid if p.name == "id" else field_shown(game, comp.get(p.name)) for p in parts
    )


def without_layout(source: str, decls: list) -> str:
    """The source less its `layout` blocks (and the blank lines just before each), so that the
    digest covers only what affects play."""
    lines = source.splitlines(keepends=True)
    drop: set[int] = set()
    for d in decls:
        first, last = d.span.line - 1, d.span.line - 1
        while last + 1 < len(lines) and (lines[last + 1].strip() == "" or lines[last + 1][:1] in " \t"):
            last += 1
        while last > first and lines[last].strip() == "":  # blank lines after it belong to what follows
            last -= 1
        while first > 0 and lines[first - 1].strip() == "":
            first -= 1
        drop.update(range(first, last + 1))
    return "".join(x for k, x in enumerate(lines) if k not in drop)
