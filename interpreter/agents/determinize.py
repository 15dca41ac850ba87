"""Fill a player's view with one guess at what they cannot see.

Components the player has not seen are dealt at random into the hidden slots:
a zone only gets components of the kind it holds, preferring those with a
field equal to the zone's index (a bag per colour holds that colour); the box
gets what is left. A hidden card whose back shows something (`?gold`, the top of
a deck) is only ever replaced by a card with that back; the cards with a shown
back are placed first, so a card needed there is not spent on a plain `?`. Another player's secret counter is guessed
to hold its starting value. Bots then simulate on the guess, never on
the true state.
"""

from __future__ import annotations

from meeple.interpreter import rng
from meeple.interpreter.game import BOX, KIND
from meeple.interpreter.state import HIDDEN, copy_state


def determinize(game, view: dict, seed: int) -> dict:
    state = copy_state(view)
    state["rng"] = rng.seed_state(seed)
    # Another player's secret counter: guess its starting value.
    for key, value in state["vars"].items():
        if value == HIDDEN:
            state["vars"][key] = game.counters[key.split("/", 1)[0]].init
    seen = {i for items in state["zones"].values() for i in items if not i.startswith(HIDDEN)}
    seen |= {p[0] for g in state["grids"].values() for p in g["pieces"]}
    unseen = [cid for ids in game.kinds.values() for cid in ids if cid not in seen]
    rng.shuffle(state, unseen)
    pool = set(unseen)
    hidden = [(k, v) for k, v in state["zones"].items() if any(i.startswith(HIDDEN) for i in v)]
    # The box takes whatever is left, so it comes last; every other zone holds one kind only.
    hidden.sort(key=lambda kv: kv[0] == BOX)
    filled = {key: list(items) for key, items in hidden}
    components = game.components
    by_kind: dict = {}  # the unseen of each kind, in the shuffled order
    for c in unseen:
        by_kind.setdefault(components[c][KIND], []).append(c)
    candidates = {}
    for key, _ in hidden:
        name, _, index = key.partition("/")
        spec = game.zones.get(name)
        mine = unseen if spec is None else by_kind.get(spec.of, [])
        if index:  # a zone per colour prefers its own colour (a stable sort: the shuffle's order otherwise)
            mine = sorted(mine, key=lambda c: index not in components[c].values())
        candidates[key] = mine
    # First the slots whose back shows (the top of a deck): only a card with that back
    # can be there; then the plain "?" slots, with any unseen card the zone may hold.
    backs = game.backs
    for key, items in hidden:
        slots = filled[key]
        for n, item in enumerate(items):
            back = item[len(HIDDEN) :] if item.startswith(HIDDEN) else ""
            if back:
                pick = next((c for c in candidates[key] if c in pool and backs.get(c, "") == back), None)
                slots[n] = pick
                pool.discard(pick)
    for key, items in hidden:
        slots, mine = filled[key], candidates[key]
        # The pool only shrinks, so the first candidate still in it never moves back: a pointer
        # finds each slot's card where a scan from the start was quadratic in the unseen cards.
        at, end = 0, len(mine)
        for n, item in enumerate(items):
            if item != HIDDEN:
                continue
            while at < end and mine[at] not in pool:
                at += 1
            if at < end:
                slots[n] = mine[at]
                pool.discard(mine[at])
                at += 1
            else:
                slots[n] = None
    for key, _ in hidden:
        state["zones"][key] = [c for c in filled[key] if c is not None]
    return state
