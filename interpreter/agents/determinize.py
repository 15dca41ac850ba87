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
    candidates = {}
    for key, _ in hidden:
        name, _, index = key.partition("/")
        spec = game.zones.get(name)
        mine = [c for c in unseen if spec is None or game.components[c][KIND] == spec.of]
        mine.sort(key=lambda c: not (index and index in game.components[c].values()))
        candidates[key] = mine
    # First the slots whose back shows (the top of a deck): only a card with that back
    # can be there; then the plain "?" slots, with any unseen card the zone may hold.
    for shown in (True, False):
        for key, items in hidden:
            slots = filled[key]
            for n, item in enumerate(items):
                back = item[len(HIDDEN):] if item.startswith(HIDDEN) else None
                if back is None or bool(back) != shown:
                    continue
                pick = next((c for c in candidates[key] if c in pool
                             and (not shown or game.backs.get(c, "") == back)), None)
                slots[n] = pick
                if pick is not None:
                    pool.discard(pick)
    for key, _ in hidden:
        state["zones"][key] = [c for c in filled[key] if c is not None]
    return state
