"""What the table shows of each zone, counter and grid, as plain data in the game's words.

One row per zone, counter or grid of a seat's view (`engine.view`, so nothing hidden from the
seat is here): its label as people read it, its `short` form inside its owner's area, what it
is kept per said as words (`parts_said`: an enum value's label, not its id), and its contents:
cards by their face (the layout's `face`, else their label and printed fields), counters in
words. The play table's page (table/model.py) sends these rows and the terminal's laid-out
text (layout_text.py) writes them, so both say the same things the same way.
"""

from __future__ import annotations

import re

from meeple.interpreter.boards import polyomino
from meeple.interpreter.game import BOX, KIND
from meeple.interpreter.labels import field_text
from meeple.interpreter.naming import enum_word, in_area, parts_of
from meeple.interpreter.render import key_label, shown_value, var_text
from meeple.interpreter.state import HIDDEN


def parts(spec, key: str) -> dict:
    """What a zone, counter or grid instance is kept per, but the player: {"stall": "left"}."""
    if spec is None or not spec.per:
        return {}
    return {d: v for d, v in zip(spec.per, key.split("/")[1:]) if d != "player"}


def parts_said(game, spec, key: str) -> str:
    """`parts` as people say them (an enum value's label, "left stall", not its id): a slot's caption."""
    return " ".join(enum_word(game, d, v) for d, v in parts(spec, key).items())


def owner_of(spec, key: str):
    """The seat a per-player zone, counter or grid belongs to, else None."""
    if spec is None or "player" not in spec.per:
        return None
    return int(key.split("/")[1:][spec.per.index("player")])


ROWS_KEPT = 20_000  # rows of one kind remembered per game (a few MB); forgotten all at once past it


def remembered(game, kind: str) -> dict:
    """Rows of a picture already built, by what each is built from. A zone holding the same
    items, a counter at the same value, a card: each reads the same in every picture and for
    every seat, and most of a table is unchanged from one decision to the next, so a picture
    builds only what changed. The rows are shared between pictures: nothing may change them."""
    rows = game.cache.get(("table rows", kind))
    if rows is None or len(rows) > ROWS_KEPT:
        rows = game.cache[("table rows", kind)] = {}
    return rows


def card(engine, cid: str) -> dict:
    """A component's face: its name (or id) and its fields in words (built once per game)."""
    faces = remembered(engine.game, "card")
    if cid not in faces:
        faces[cid] = _card(engine, cid)
    return faces[cid]


def _card(engine, cid: str) -> dict:
    comp = engine.game.components[cid]
    shown = {k: v for k, v in comp.items() if k not in (KIND, "name") and v is not None}
    title = without_shapes(comp, str(engine.game.labels.get(cid) or comp.get("name") or cid)) or cid
    out = {
        "id": cid,
        "title": title,
        "kind": comp[KIND],
        "fields": [
            field_text(k, v)
            for k, v in shown.items()
            if not isinstance(v, tuple) and not said_in(str(title), k, v) and not does(engine.game, v)
        ],
        "text": engine.describe(cid),
    }
    face = (engine.game.page or {}).get("faces", {}).get(cid)
    if face is not None:  # the layout says which lines the card shows, and its colour by an enum value
        out["fields"] = list(face["lines"])
        out["title"] = face.get("title") or str(comp.get("name") or title)  # the lines say the rest
        if "colour" in face:
            out["colour"], out["mark"] = face["colour"], face["mark"]
    shapes = [{"name": k, "cells": [list(c) for c in v]} for k, v in shown.items() if isinstance(v, tuple)]
    if shapes:  # drawn as small grids, the way the piece looks
        out["shapes"] = shapes
    return out


def without_shapes(comp: dict, title: str) -> str:
    """A title less the shapes it writes out in words (`T3 [red blue / . red]` is
    `T3`): the page draws the shape beside it. Brackets left empty go too."""
    for value in comp.values():
        if isinstance(value, tuple):
            title = title.replace(polyomino.render(value), "")
    return re.sub(r"\s*(\[\s*\]|\(\s*\))", "", title).strip()


def does(game, value) -> bool:
    """Whether a field holds an effect (what the card does when played), not something printed on it."""
    return isinstance(value, list) and len(value) == 2 and value[0] in game.effects and isinstance(value[1], list)


def said_in(title: str, field: str, value) -> bool:
    """Whether a card's title already says this field, so the face need not repeat it: a word
    like `red` as a word of the title, a number only with its name (`size 3`)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value == "":
        return False
    words = re.findall(r"[\w']+", title.lower())
    if isinstance(value, int):
        return any(words[i : i + 2] == [field.lower(), str(value)] for i in range(len(words)))
    return all(w in words for w in re.findall(r"[\w']+", value.lower()))


def zones(engine, view: dict) -> list:
    rows = remembered(engine.game, "zone")
    out = []
    for key, items in view["zones"].items():
        if not items or key.split("/", 1)[0] == BOX:
            continue
        held = (key, tuple(items))
        if held not in rows:
            rows[held] = zone_row(engine, key, items)
        out.append(rows[held])
    return out


def zone_row(engine, key: str, items: list) -> dict:
    """A zone holding `items` (what the seat sees of them: hidden ones are backs)."""
    g = engine.game
    name = key.split("/", 1)[0]
    spec = g.zones[name]
    owner = owner_of(spec, key)
    label = key_label(g, key)
    row = {
        "key": key,
        "label": label,
        "short": in_area(label, owner),
        "name": name,
        "owner": owner,
        "at": parts(spec, key),
        "said": parts_said(g, spec, key),
        "kind": spec.kind,
        "visibility": spec.visibility,
        "count": len(items),
    }
    if any(i.startswith(HIDDEN) for i in items):
        row["backs"] = [i[len(HIDDEN) :] for i in items]  # what the backs show ("" if nothing)
    else:
        row["cards"] = [card(engine, i) for i in items]
    return row


def counters(engine, view: dict) -> list:
    rows = remembered(engine.game, "counter")
    out = []
    for key, value in view["vars"].items():
        try:
            at = (key, value, type(value))  # the type: True is 1 to a dict, not to a page
            row = rows[at] if at in rows else rows.setdefault(at, counter_row(engine, key, value))
        except TypeError:  # a value that is a list: built each time
            row = counter_row(engine, key, value)
        if row is not None:
            out.append(row)
    return out


def counter_row(engine, key: str, value) -> dict | None:
    """A counter at `value`, or None for one the page does not show."""
    g = engine.game
    spec = g.counters.get(key.split("/", 1)[0])
    if spec is None or not shown_value(g, key, value):  # bookkeeping; a labelled flag while false
        return None
    name = key.split("/", 1)[0]
    part = " ".join(parts_of(g, key))
    # a labelled flag while true is its label alone: "last round", not "ending true"
    said = "" if value is True and spec.label and not part else var_text(g, key, value)
    owner, label = owner_of(spec, key), key_label(g, key)
    return {
        "key": key,
        "label": label,
        "short": in_area(label, owner),
        "name": name,
        "part": part,
        "at": parts(spec, key),
        "said": parts_said(g, spec, key),
        "head": in_area(key_label(g, key, parts=False), owner),
        "owner": owner,
        "value": said,
    }


def grids(engine, view: dict) -> list:
    """Each grid: what it is (built once per game) with what lies on it now."""
    g, heads = engine.game, remembered(engine.game, "grid")
    out = []
    for key, grid in view["grids"].items():
        if key not in heads:
            heads[key] = grid_head(g, key)
        out.append({**heads[key], "cells": grid["cells"], "pieces": [p[:4] + [list(p[4])] for p in grid["pieces"]]})
    return out


def grid_head(g, key: str) -> dict:
    spec = g.grids[key.split("/", 1)[0]]
    geo = spec.geometry
    owner, label = owner_of(spec, key), key_label(g, key)
    return {
        "key": key,
        "label": label,
        "short": in_area(label, owner),
        "owner": owner,
        "name": spec.name,
        "at": parts(spec, key),
        "said": parts_said(g, spec, key),
        "rows": geo.rows,
        "cols": geo.cols,
        "layouts": {k: list(v) for k, v in spec.layouts.items()},
        "contents": list(g.enums.get(spec.content, [])),
    }
