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

import threading

from meeple.interpreter.board_text import area_holds, area_zones, board_occupants, boards_in_use, space_names
from meeple.interpreter.boards import polyomino
from meeple.interpreter.labels import option_label
from meeple.interpreter.pictures import board_positions
from meeple.interpreter.render import player_name
from meeple.interpreter.standing import score_so_far
from meeple.interpreter.table_parts import (  # noqa: F401 (the page's rows; tests read them from here too)
    card,
    counters,
    grids,
    owner_of,
    parts,
    parts_said,
    remembered,
    said_in,
    without_shapes,
    zones,
)

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
