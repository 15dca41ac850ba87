"""Fill a player's view with one guess at what they cannot see.

Components the player has not seen are dealt at random into the hidden slots,
preferring for each zone components of the kind it holds, and among those the
ones with a field equal to the zone's index (a bag per colour holds that
colour). A hidden card whose back shows something (`?fungus`) is only ever
replaced by a card with that back. Bots then simulate on the guess, never on
the true state.
"""
from __future__ import annotations

from interpreter import rng
from interpreter.game import KIND
from interpreter.state import HIDDEN, copy_state


def determinize(game, view: dict, seed: int) -> dict:
    state = copy_state(view)
    state["rng"] = rng.seed_state(seed)
    seen = {i for items in state["zones"].values() for i in items if not i.startswith(HIDDEN)}
    seen |= {p[0] for g in state["grids"].values() for p in g["pieces"]}
    unseen = [cid for ids in game.kinds.values() for cid in ids if cid not in seen]
    rng.shuffle(state, unseen)
    pool = set(unseen)
    hidden = [(k, v) for k, v in state["zones"].items() if any(i.startswith(HIDDEN) for i in v)]
    for key, items in hidden:
        name, _, index = key.partition("/")
        spec = game.zones.get(name)
        kind = spec.of if spec else None
        ranked = sorted((c for c in unseen if c in pool),
                        key=lambda c: (game.components[c][KIND] != kind,
                                       not (index and index in game.components[c].values())))
        filled = []
        for item in items:
            if not item.startswith(HIDDEN):
                filled.append(item)
                continue
            back = item[len(HIDDEN):]
            # A card's back is public: only cards with that back can be there.
            pick = next((c for c in ranked if game.backs.get(c, "") == back), None)
            if pick is None:
                continue
            ranked.remove(pick)
            pool.discard(pick)
            filled.append(pick)
        state["zones"][key] = filled
    return state
