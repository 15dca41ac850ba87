"""Zone effects: move components, draw them, shuffle zones.

A zone is a list of component ids in the state; index 0 is the top. Drawing
from a `bag` picks at random with the state's RNG; from anything else it takes
the top. A component is always in exactly one zone (or covering grid cells),
so moving one finds it wherever it is.

A zone's list may be shared by many states (an apply forks its state sharing
them, state.fork), so a list is never changed in place unless this run made
it: every change goes through `own`, which copies a list on its first change.
"""

from __future__ import annotations

from meeple.interpreter import rng
from meeple.interpreter.game import BOX, KIND


def own(m, key: str) -> list:
    """The zone's list, this run's own to change (copied on its first change in this run)."""
    zones = m.state["zones"]
    if key in m.owned:
        return zones[key]
    items = zones[key] = zones[key][:]
    m.owned.add(key)
    return items


def zone_spec(game, key: str):
    name = key.split("/", 1)[0]
    return None if name == BOX else game.zones[name]


# Where each component was last moved or drawn to, in any state of any game: a guess that
# `locate` checks first (one list instead of a search of every zone; a component is in
# exactly one zone, so a guess that holds is the answer). Tests turn it off.
REMEMBER = True
SEEN: dict = {}


def locate(state: dict, item: str) -> str | None:
    zones = state["zones"]
    if REMEMBER:
        key = SEEN.get(item)
        if key is not None and item in zones.get(key, ()):
            return key
    for key, items in zones.items():
        if item in items:
            return key
    return None


def seen(items, to: str) -> None:
    if REMEMBER:
        if len(SEEN) > 100_000:  # ids of many games in one process: start again
            SEEN.clear()
        for item in items:
            SEEN[item] = to


MANY = 8  # moves of more items than this from one zone take them out at once (tests set it higher)


def move(m, what, to: str, position: str = "") -> None:
    """Move one component or a list of them to a zone (at its bottom unless `top`)."""
    # A copy: `what` may be the very list of a zone this move empties.
    items = list(what) if isinstance(what, list) else [what]
    zones = m.state["zones"]
    dest = own(m, to)
    check_kind(m, items, to)
    by_source: dict[str, list] = {}
    moved = []
    present = [item for item in items if item is not None]
    src = locate(m.state, present[0]) if len(present) > MANY else None
    if src is not None and len(gone := set(present)) == len(present) and gone.issubset(zones[src]):
        # Setting up a game moves whole decks out of one zone: take them out at once
        # instead of a search of every zone and a removal per item.
        own(m, src)[:] = [x for x in zones[src] if x not in gone]  # in place: `src` may be `to`
        by_source[src] = moved = present
    else:
        for item in present:
            src = locate(m.state, item)
            if src is None:
                raise ValueError(f"`{item}` is not in any zone (is it placed on a grid?)")
            own(m, src).remove(item)
            by_source.setdefault(src, []).append(item)
            moved.append(item)
    seen(moved, to)
    if position == "top":
        dest[0:0] = moved  # a list put on top keeps its order: its first item becomes the top
    else:
        dest.extend(moved)
    if m.recording:
        for src, moved in by_source.items():
            m.emit("move", items=moved, src=src, dst=to)


def move_all(m, src: str, to: str) -> None:
    zones = m.state["zones"]
    items = zones[src]
    if not items:
        return
    check_kind(m, items, to)
    own(m, to).extend(items)
    seen(items, to)
    zones[src] = []
    m.owned.add(src)
    if m.recording:
        m.emit("move", items=list(items), src=src, dst=to)


def draw(m, count: int, src: str, to: str) -> None:
    """Draw up to `count` components: at random from a bag, else from the top."""
    spec = zone_spec(m.game, src)
    items = own(m, src)  # owned before anything else: the refill below adds to this very list
    if spec is not None and spec.refill and len(items) < count and refill_key(m, spec, src) != to:
        # Take what is left first, then shuffle the refill zone in and go on drawing.
        have = len(items)
        if have:
            draw(m, have, src, to)
        refill_from(m, spec, src)
        count -= have
    if count <= 0 or not items:
        return
    taken = []
    if spec is not None and spec.kind == "bag":
        for _ in range(min(count, len(items))):
            taken.append(items.pop(rng.below(m.state, len(items))))
    else:
        taken = items[:count]
        del items[:count]
    check_kind(m, taken, to)
    own(m, to).extend(taken)
    seen(taken, to)
    if m.recording:
        m.emit("draw", items=taken, src=src, dst=to, wanted=count)


def refill_key(m, spec, src: str) -> str:
    """The zone a draw from `src` refills from: `discard/0` for `deck/0`, or the shared one."""
    return spec.refill + src[len(spec.name) :] if m.game.zones[spec.refill].per else spec.refill


def refill_from(m, spec, src: str) -> None:
    """Move the refill zone (the same instance: `discard/0` for `deck/0`) into `src` and shuffle it."""
    key = refill_key(m, spec, src)
    if m.state["zones"][key]:
        move_all(m, key, src)
        shuffle(m, src)


def shuffle(m, key: str) -> None:
    rng.shuffle(m.state, own(m, key))
    if m.recording:
        m.emit("shuffle", zone=key)


def check_kind(m, items, to: str) -> None:
    spec = zone_spec(m.game, to)
    if spec is None:
        return
    components = m.game.components
    for item in items:
        comp = components.get(item)
        if comp is None or comp[KIND] != spec.of:
            raise ValueError(f"`{item}` cannot go to `{to}`: that zone holds {spec.of} components")


def pass_on(m, name: str) -> None:
    """`pass hand to next`: every player's zone goes, whole, to the next player (clockwise)."""
    zones, players = m.state["zones"], m.state["players"]
    held = [zones[f"{name}/{p}"] for p in range(players)]
    for p in range(players):
        to = (p + 1) % players
        zones[f"{name}/{to}"] = held[p]
        m.owned.discard(f"{name}/{to}")  # the list came from another key: owned or not, copy it again
        if held[p]:
            m.emit("move", items=list(held[p]), src=f"{name}/{p}", dst=f"{name}/{to}")
