"""The game state: plain JSON data, copied cheaply, with the RNG inside.

Layout (every key always present)::

    players  int              seats 0..players-1
    rng      int              SplitMix64 state (interpreter/rng.py)
    first    int              the first player
    phase    str, seq int     the running phase and how many phases have started
    step     int              decisions taken so far
    over     bool             the game has ended
    zones    {key: [ids]}     "supply", "hand/0", "bag/O"; index 0 is the top
    vars     {key: value}     counters and flags: "round", "score/1"
    grids    {key: {"cells": [value|None], "pieces": [[id, orientation, row, col, [cells]]]}}
    stack    [[block, pc, {locals}]]   pending effects, innermost last
    pending  {"actor", "options", ...} | None   the decision being waited for

Nothing in it refers to a Python object of the Game; components are ids.
"""

from __future__ import annotations

import json

from meeple.interpreter import rng
from meeple.interpreter.boards.grid import new_grid
from meeple.interpreter.game import BOX, Game

SECRET_LOCALS = "$secret"  # see interpreter/effects/choices.py: [[local, who may see it], ...]

SIM_PREFIX = "$sim"  # the kept choices of a simultaneous decision (interpreter/effects/simultaneous.py)
SOME_PREFIX = "$some"  # the items picked so far in a `choose between` (interpreter/effects/choose_some.py)
HELD_PREFIX = "#held/"  # whether a player's interrupting action held (interpreter/effects/actions.py)

HIDDEN = "?"  # a hidden component in a view: "?" followed by what its back shows, if anything


def initial_state(game: Game, players: int, seed: int) -> dict:
    """The state before setup runs; built once per player count, then copied."""
    template = game.cache.get(("initial state", players))
    if template is None:
        template = game.cache[("initial state", players)] = _initial(game, players)
    state = copy_state(template)
    state["rng"] = rng.seed_state(seed)
    return state


def _initial(game: Game, players: int) -> dict:
    zones = {BOX: [cid for ids in game.kinds.values() for cid in ids]}
    for spec in game.zones.values():
        for key in game.zone_keys(spec, players):
            zones[key] = []
    vars_ = {}
    for spec in game.counters.values():
        for key, _ in game.instance_keys(spec.name, spec.per, players):
            vars_[key] = spec.init
    grids = {}
    for spec in game.grids.values():
        for key, _ in game.instance_keys(spec.name, spec.per, players):
            grids[key] = new_grid(spec.geometry.size)
    return {
        "players": players,
        "rng": 0,
        "first": 0,
        "phase": "setup",
        "seq": 0,
        "step": 0,
        "over": False,
        "zones": zones,
        "vars": vars_,
        "grids": grids,
        "stack": [[game.setup, 0, {}]] if game.blocks else [],
        "pending": None,
    }


def copy_state(s: dict) -> dict:
    """A copy sharing nothing mutable with the original (pending and pieces are never mutated)."""
    zones = s["zones"]  # every zone is a list (the effects append to them and JSON gives lists)
    return _copy(s, dict(zip(zones, map(list.copy, zones.values()))))  # in C: half a comprehension's time


def fork(s: dict) -> dict:
    """A copy for one apply to change: as `copy_state`, but the zones' lists are the original's
    until the apply changes one (effects/zones.py `own` copies a list on its first change).
    Copying 70 lists cost a seventh of an apply, and most applies change one or two."""
    return _copy(s, s["zones"].copy())


def _copy(s: dict, zones: dict) -> dict:
    return {
        "players": s["players"],
        "rng": s["rng"],
        "first": s["first"],
        "phase": s["phase"],
        "seq": s["seq"],
        "step": s["step"],
        "over": s["over"],
        "zones": zones,
        "vars": s["vars"].copy(),
        "grids": {k: {"cells": g["cells"][:], "pieces": g["pieces"][:]} for k, g in s["grids"].items()},
        "stack": [[f[0], f[1], _copy_env(f[2])] for f in s["stack"]],
        "pending": s["pending"],
    }


def copy_data(value):
    """A deep copy of plain JSON-like data (dicts, lists, scalars): events kept to hand out again."""
    if type(value) is list:
        return [copy_data(v) for v in value]
    if type(value) is dict:
        return {k: copy_data(v) for k, v in value.items()}
    return value


def _copy_env(env: dict) -> dict:
    out = env.copy()
    for k, v in env.items():
        if k[0] == "$":  # loop slots: [items, position]; the position moves
            out[k] = v[:]
    return out


def to_json(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> dict:
    return json.loads(text)


def zone_owner(key: str, game: Game):
    """The seat owning a per-player zone key, else None."""
    name, *indices = key.split("/")
    spec = game.zones.get(name)
    if spec is not None and "player" in spec.per:
        return int(indices[spec.per.index("player")])
    return None


def can_see(game: Game, key: str, player) -> bool:
    """May `player` see the contents of this zone? (None = an observer who sees only public zones)"""
    name = key.split("/", 1)[0]
    if name == BOX:
        return False
    spec = game.zones[name]
    if spec.visibility == "public":
        return True
    if spec.visibility == "private":
        return player is not None and zone_owner(key, game) == player
    return False


def sees_moves(game: Game, key: str, player) -> bool:
    """Does `player` see what goes into and out of this zone? Its contents, or a face-up pile
    of which only the top shows (each card is seen as it is put on it or taken off it)."""
    name = key.split("/", 1)[0]
    return can_see(game, key, player) or name in game.zones and game.zones[name].visibility == "top"


def may_see_var(game: Game, key: str, player) -> bool:
    """A secret counter (`counter bid per player = 0, secret`) is seen by its own player only."""
    name, _, rest = key.partition("/")
    spec = game.counters.get(name)
    if spec is None or not spec.secret:
        return True
    return player is not None and rest.split("/", 1)[0] == str(player)


def view(game: Game, state: dict, player) -> dict:
    """What `player` can see: hidden zone contents become "?", the RNG is gone."""
    v = copy_state(state)
    v["rng"] = None
    for key, items in v["zones"].items():
        if not can_see(game, key, player):
            v["zones"][key] = seen_zone(game, key, items, player)
    seen = {i for items in v["zones"].values() for i in items}
    seen |= {p[0] for g in v["grids"].values() for p in g["pieces"]}
    pending = state["pending"]
    for frame in v["stack"]:
        env = frame[2] = {k: _redact(x, game, seen) for k, x in frame[2].items()}
        for name, owner in env.get(SECRET_LOCALS, []):
            if owner != player and name in env:
                env[name] = HIDDEN
        for name, kept in env.items():
            if name.startswith(SIM_PREFIX):  # others see that a simultaneous choice was made, not which
                env[name] = [k if k[0] == player else [k[0], HIDDEN, HIDDEN] for k in kept]
            elif name.startswith(SOME_PREFIX) and (pending is None or pending["actor"] != player):
                env[name] = [HIDDEN] * len(kept)  # what someone else has picked so far in a `choose between`
    v["vars"] = seen_vars(game, v["vars"], state["players"], player)
    v["pending"] = seen_pending(v["pending"], player)
    return v


def seen_zone(game: Game, key: str, items: list, player) -> list:
    """A zone's contents as `player` sees them (view's zones; the same list when it sees them)."""
    if can_see(game, key, player):
        return items
    out = hidden_items(game, key, items)
    if items and key != BOX and game.zones[key.split("/", 1)[0]].visibility == "top":
        out[0] = items[0]  # the face-up top card
    return out


def seen_vars(game: Game, vars_: dict, players: int, player) -> dict:
    """The counters as `player` sees them (view's vars; the same dict when nothing is hidden)."""
    secret = any(spec.secret for spec in game.counters.values())  # most games have none
    if not secret and not game.interrupting:
        return vars_
    out = dict(vars_)
    if secret:
        for key in out:
            if not may_see_var(game, key, player):
                out[key] = HIDDEN
    if game.interrupting:  # whether another's action holds can tell what they hold in secret
        for name in game.interrupting:
            for q in range(players):
                if q != player:
                    out.pop(f"{HELD_PREFIX}{name}/{q}", None)
    return out


def seen_pending(pending: dict | None, player) -> dict | None:
    """The pending decision as `player` sees it (view's pending): another's options hidden."""
    if pending is not None and pending["actor"] != player:
        # An offer to act now is the asked seat's alone: that it was asked would tell the
        # others what it holds in secret, so they see no decision pending at all.
        return (
            None
            if pending.get("interrupt")
            else {"actor": pending["actor"], "options": [HIDDEN] * len(pending["options"])}
        )
    return pending


def hidden_items(game: Game, key: str, items: list) -> list:
    """A hidden zone as a player sees it: "?" per item, with the back where it shows.

    A face-down deck shows only its top card's back (the others lie under it); a
    bag shows nothing of what is inside; a hidden hand or pile is spread out, so
    every back shows."""
    backs = game.backs
    if not backs or not items:
        return [HIDDEN] * len(items)
    name = key.split("/", 1)[0]
    kind = game.zones[name].kind if name in game.zones else "bag"
    if kind == "bag":
        return [HIDDEN] * len(items)
    if kind == "deck":
        return [HIDDEN + backs.get(items[0], "")] + [HIDDEN] * (len(items) - 1)
    return [HIDDEN + backs.get(i, "") for i in items]


def _redact(value, game: Game, seen: set):
    """Locals of pending effects may hold component ids the player cannot see."""
    if isinstance(value, str):
        return HIDDEN if value in game.components and value not in seen else value
    if isinstance(value, list):
        return [_redact(x, game, seen) for x in value]
    return value


def component_ids(value, game: Game) -> list:
    """The component ids a value mentions (an option value, an event's choice)."""
    if isinstance(value, str):
        return [value] if value in game.components else []
    if isinstance(value, list):
        return [c for v in value for c in component_ids(v, game)]
    return []


def visible_to(game: Game, state: dict, viewer, items) -> bool:
    """Can `viewer` see every one of these components where they are in `state`?"""
    for item in items:
        where = next((k for k, v in state["zones"].items() if item in v), None)
        if (
            where is not None
            and not can_see(game, where, viewer)
            and not (
                where != BOX
                and game.zones[where.split("/", 1)[0]].visibility == "top"
                and state["zones"][where][0] == item
            )
        ):
            return False
    return True


def visible_events(game: Game, events: list, viewer, after: dict) -> list:
    """The events as `viewer` sees them: components moved between zones they cannot
    see become "?", and another player's automatic choice of a hidden card is hidden."""
    out = []
    for e in events:
        kind = e["e"]
        if kind in ("move", "draw") and not (sees_moves(game, e["src"], viewer) or sees_moves(game, e["dst"], viewer)):
            e = dict(e, items=[HIDDEN] * len(e["items"]))
        elif (
            kind == "auto"
            and e.get("player") != viewer
            and (
                e.get("secret")
                or viewer not in e.get("seen_by", [viewer])
                or not visible_to(game, after, viewer, component_ids(e["choice"], game))
            )
        ):
            e = dict(e, choice=HIDDEN, label=HIDDEN)
        elif kind == "set" and not may_see_var(game, e["var"], viewer):
            e = dict(e, value=HIDDEN, **({"was": HIDDEN} if "was" in e else {}))
        out.append(e)
    return out
