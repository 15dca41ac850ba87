"""The JSON a table page draws from: one seat's view of the game, nothing more.

Everything here starts from `engine.view(state, seat)` (a spectator gets the
public view), so another seat's hidden components never reach the page: zones
the seat cannot see arrive as counts with what their backs show, the pending
decision's options only go to the seat that decides, and the log holds the
events as `event_text` words them for that seat. Drawing is generic: grids with
their layout attributes and contents, path boards placed by the networkx
layouts of interpreter/pictures.py, counters, and zones as rows of cards
showing their fields.
"""

from __future__ import annotations

import re
import threading

from meeple.interpreter.board_text import area_holds, area_zones, board_occupants, boards_in_use, space_names
from meeple.interpreter.boards import polyomino
from meeple.interpreter.game import BOX, KIND
from meeple.interpreter.labels import field_text, option_label
from meeple.interpreter.naming import enum_word, in_area, parts_of
from meeple.interpreter.pictures import board_positions
from meeple.interpreter.render import key_label, player_name, shown_value, var_text
from meeple.interpreter.standing import score_so_far
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


_LAYING = threading.Lock()


def space_positions(game, name: str) -> dict:
    """Where each space of a path board is drawn, in 0..1 (y down); a layout is slow, so once per game."""
    key = ("table space positions", name)
    with _LAYING:  # a page asking while the hall's thread lays the board out waits for it, not a second layout
        if key not in game.cache:
            pos = board_positions(game.boards[name])  # bounded: a track past pictures.LAYOUT_LIMIT spaces
            xs, ys = [p[0] for p in pos.values()] or [0.0], [p[1] for p in pos.values()] or [0.0]
            w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
            game.cache[key] = {
                s: (round((x - min(xs)) / w, 4), round(1 - (y - min(ys)) / h, 4)) for s, (x, y) in pos.items()
            }
    return game.cache[key]


def boards(engine, view: dict) -> list:
    g = engine.game
    if not g.boards:
        return []
    out = []
    for name in boards_in_use(g, view):
        board = g.boards[name]
        pos = space_positions(g, name)
        here = occupants(g, view, name)
        shown = space_names(g, name)
        spaces = [
            {
                "name": s,
                "short": shown[s],
                "label": g.labels.get(s, s),
                "x": pos[s][0],
                "y": pos[s][1],
                "tags": list(board.graph.nodes[s]["tags"]),
                "areas": list(board.graph.nodes[s]["areas"]),
                "who": here.get(s, []),
            }
            for s in board.order
        ]
        held = {a: area_holds(g, view, keys) for a, keys in area_zones(g, view["zones"], [name]).items()}
        out.append({"name": name, "spaces": spaces, "arrows": [list(e) for e in board.graph.edges], "held": held})
    return out


def occupants(game, view: dict, name: str) -> dict:
    """Who stands on each space: `at[P1]` as the state text says it, but just `P1` when one
    counter kept per player places everyone on this board (the usual pawn per player)."""
    spaces = game.boards[name].successors
    keys = [k for k, v in view["vars"].items() if isinstance(v, str) and v in spaces]
    names = {k.split("/", 1)[0] for k in keys}
    spec = game.counters.get(next(iter(names))) if len(names) == 1 else None
    if spec is None or tuple(spec.per) != ("player",):
        return board_occupants(game, view, name)
    out: dict = {}
    for k in keys:
        out.setdefault(view["vars"][k], []).append(player_name(int(k.split("/")[1])))
    return out


def table_picture(engine, view: dict) -> dict:
    """Everything on the table as this view shows it."""
    return {
        "phase": view["phase"],
        "first": player_name(view["first"]),
        "step": view["step"],
        "over": view["over"],
        "zones": zones(engine, view),
        "counters": counters(engine, view),
        "grids": grids(engine, view),
        "boards": boards(engine, view),
        "standing": {str(p): t for p, t in score_so_far(engine, view).items()},
        **game_parts(engine.game),
    }


def game_parts(game) -> dict:
    """What a picture says of the game itself, the same in every picture (built once per game)."""
    kept = remembered(game, "game")
    if not kept:
        kept.update(
            {
                # how the ruleset arranges its table (dsl/compile_page.py); None: the generic page
                "layout": page_layout(game),
                "symbols": sorted(
                    {v for spec in game.grids.values() for v in game.enums.get(spec.content, [])}, key=str
                ),
            }
        )
    return kept


def page_layout(game) -> dict | None:
    """The declared layout less the card faces (those go out on the cards themselves)."""
    if game.page is None:
        return None
    return {k: v for k, v in game.page.items() if k != "faces"}


def option_json(engine, state: dict, option, visible: set) -> dict:
    """An option with what the page may click for it: a card, a cell or a board space."""
    g, v = engine.game, option.value

    def is_cell(x) -> bool:
        return (
            isinstance(x, list)
            and len(x) == 2
            and isinstance(x[0], str)
            and type(x[1]) is int
            and x[0] in state["grids"]
        )

    out = {"id": option.id, "label": option.label}
    if isinstance(v, str) and v in visible:
        out["card"] = v
        shapes = [s for s in g.components[v].values() if isinstance(s, tuple)] if v in g.components else []
        if shapes:  # a piece: its button shows the shape drawn, beside the label less the shape in words
            out["short"] = without_shapes(g.components[v], option.label) or v
            out["shape"] = [list(c) for c in shapes[0]]
    elif is_cell(v):
        out["cell"] = v
    elif isinstance(v, list) and v and all(is_cell(x) for x in v):
        out["cells"] = v  # a line or a group of cells: clicking any of them picks it
    elif isinstance(v, str) and any(v in b.successors for b in g.boards.values()):
        out["space"] = v
    return out


def decision_json(engine, state: dict, view: dict, seat) -> dict | None:
    """The pending decision: the full options for the seat that decides, who is awaited for the rest."""
    d = engine.decision(state)
    if d is None:
        return None
    if d.actor != seat:
        public = public_actor(engine, state, d)
        return {"actor": public, "actor_name": player_name(public) if public is not None else "", "mine": False}
    visible = {i for items in view["zones"].values() for i in items}
    out = {
        "actor": d.actor,
        "actor_name": player_name(d.actor),
        "mine": True,
        "prompt": d.prompt,
        "undoable": d.undoable,
        "step": state["step"],
        "options": [option_json(engine, state, o, visible) for o in d.options],
        "requests": [{"id": o.id, "label": o.label} for o in d.requests],
    }
    pending = state["pending"]
    if "piece" in pending and all(isinstance(o.value, list) and len(o.value) == 3 for o in d.options):
        for o, x in zip(out["options"], d.options):  # the panel names and draws the piece: where and how
            o["short"] = option_label(engine.game, x.value, pending, True)
        shape = engine.game.shapes[pending["piece"]]
        found = sorted({o.value[0] for o in d.options})
        out["placement"] = {
            "piece": pending["piece"],
            "grid": pending["grid"],
            "orientations": [
                {
                    "o": k,
                    "name": polyomino.describe_orientation(k),
                    "cells": [list(c) for c in polyomino.orient(shape, k)],
                }
                for k in found
            ],
            "places": [[o.value[0], o.value[1] - 1, o.value[2] - 1, o.id] for o in d.options],
        }
    return out


def public_actor(engine, state: dict, d, limit: int = 50):
    """Who the other seats see the table waiting for. An offer to act now is its seat's alone
    (Decision.private): the others are shown the seat that decides once the offers are passed,
    as if none had been made."""
    for _ in range(limit):
        if not d.private:
            return d.actor
        passes = [k for k, o in enumerate(d.options) if o.value is None]
        if not passes:
            return None
        state = engine.apply(state, passes[0], events=False)[0]
        d = engine.decision(state)
        if d is None:
            return None
    return None
