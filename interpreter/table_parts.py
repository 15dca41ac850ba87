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


def card(engine, cid: str) -> dict:
    """A component's face: its name (or id) and its fields in words."""
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
    g = engine.game
    out = []
    for key, items in view["zones"].items():
        name = key.split("/", 1)[0]
        if name == BOX or not items:
            continue
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
        out.append(row)
    return out


def counters(engine, view: dict) -> list:
    g = engine.game
    out = []
    for key, value in view["vars"].items():
        spec = g.counters.get(key.split("/", 1)[0])
        if spec is None or not shown_value(g, key, value):  # bookkeeping; a labelled flag while false
            continue
        name = key.split("/", 1)[0]
        part = " ".join(parts_of(g, key))
        # a labelled flag while true is its label alone: "last round", not "ending true"
        said = "" if value is True and spec.label and not part else var_text(g, key, value)
        owner, label = owner_of(spec, key), key_label(g, key)
        out.append(
            {
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
        )
    return out


def grids(engine, view: dict) -> list:
    g = engine.game
    out = []
    for key, grid in view["grids"].items():
        spec = g.grids[key.split("/", 1)[0]]
        geo = spec.geometry
        owner, label = owner_of(spec, key), key_label(g, key)
        out.append(
            {
                "key": key,
                "label": label,
                "short": in_area(label, owner),
                "owner": owner,
                "name": spec.name,
                "at": parts(spec, key),
                "said": parts_said(g, spec, key),
                "rows": geo.rows,
                "cols": geo.cols,
                "cells": grid["cells"],
                "layouts": {k: list(v) for k, v in spec.layouts.items()},
                "contents": list(g.enums.get(spec.content, [])),
                "pieces": [p[:4] + [list(p[4])] for p in grid["pieces"]],
            }
        )
    return out
