"""Fill a player's view with one guess at what they cannot see.

Components the player has not seen are dealt at random into the hidden slots,
preferring for each zone components of the kind it holds, and among those the
ones with a field equal to the zone's index (a bag per colour holds that
colour). Bots then simulate on the guess, never on the true state.
"""
from __future__ import annotations

from interpreter import rng
from interpreter.state import HIDDEN, copy_state


def determinize(game, view: dict, seed: int) -> dict:
    state = copy_state(view)
    state["rng"] = rng.seed_state(seed)
    seen = {i for items in state["zones"].values() for i in items if i != HIDDEN}
    seen |= {p[0] for g in state["grids"].values() for p in g["pieces"]}
    unseen = [cid for ids in game.kinds.values() for cid in ids if cid not in seen]
    rng.shuffle(state, unseen)
    pool = set(unseen)
    hidden = [(k, v) for k, v in state["zones"].items() if HIDDEN in v]
    for key, items in hidden:
        name, _, index = key.partition("/")
        spec = game.zones.get(name)
        kind = spec.of if spec else None
        ranked = sorted((c for c in unseen if c in pool),
                        key=lambda c: (game.components[c]["kind"] != kind,
                                       not (index and index in game.components[c].values())))
        filled = []
        for item in items:
            if item != HIDDEN:
                filled.append(item)
                continue
            pick = ranked.pop(0) if ranked else None
            if pick is None:
                continue
            pool.discard(pick)
            filled.append(pick)
        state["zones"][key] = filled
    return state
