"""The generic invariant test: random playouts of every shipped ruleset with checks at every step.

Options are never empty unless the game is over; the state survives a JSON
round trip and a copy unchanged; apply leaves earlier states alone; every
component is in exactly one place; hidden zones stay hidden in views; the same
seed gives the same trace; every game ends.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from meeple.interpreter import runner
from meeple.interpreter.rng import Random
from meeple.interpreter.state import HIDDEN, can_see, copy_state
from tests.conftest import SHIPPED, shipped

SEEDS = (11, 12)
OPTION_SETS = {
    "queens_wishes": [{}, {"board": "B", "scoring": "B"}],
    "apothebakery": [{}, {"difficulty": "difficult", "objectives": "off"}],
}
VARIANT_SETS = {"wild_gardens": [[], ["keep_it_fresh", "a_different_path"]], "mudcake_fair": [[], ["picky_judges"]]}


def cases():
    for name in SHIPPED:
        engine = shipped(name)
        for options in OPTION_SETS.get(name, [{}]):
            for variants in VARIANT_SETS.get(name, [[]]):
                for players in range(engine.game.min_players, engine.game.max_players + 1):
                    for seed in SEEDS:
                        yield name, options, variants, players, seed


def where_components_are(state: dict) -> Counter:
    places = Counter()
    for items in state["zones"].values():
        places.update(items)
    for grid in state["grids"].values():
        places.update(p[0] for p in grid["pieces"])
    return places


@pytest.mark.parametrize("name, options, variants, players, seed", list(cases()))
def test_random_playout_invariants(name, options, variants, players, seed):
    engine = shipped(name, options, variants)
    all_ids = set(engine.game.components)
    rng = Random(seed)
    state, _ = engine.start(players, seed)
    steps = 0
    while not engine.is_terminal(state):
        d = engine.decision(state)
        assert d is not None and d.options, f"seed {seed} step {steps}: no options but not over"
        assert len({o.id for o in d.options}) == len(d.options), f"seed {seed}: option ids repeat"
        assert json.loads(json.dumps(state)) == state, f"seed {seed} step {steps}: JSON round trip"
        assert copy_state(state) == state
        places = where_components_are(state)
        assert set(places) == all_ids and all(n == 1 for n in places.values()), f"seed {seed}: conservation"
        view = engine.view(state, d.actor)
        for key, items in state["zones"].items():
            if not can_see(engine.game, key, d.actor):
                # Only backs that can be seen show: the top of a face-down deck, none in a bag.
                spec = engine.game.zones.get(key.split("/", 1)[0])
                kind = spec.kind if spec is not None else "bag"
                backs = [engine.game.backs.get(i, "") for i in items]
                if kind == "bag":
                    backs = [""] * len(items)
                elif kind == "deck":
                    backs = backs[:1] + [""] * (len(items) - 1)
                assert view["zones"][key] == [HIDDEN + b for b in backs]
        before = json.dumps(state, sort_keys=True)
        new, _ = engine.apply(state, rng.below(len(d.options)))
        assert json.dumps(state, sort_keys=True) == before, f"seed {seed}: apply changed the old state"
        state = new
        steps += 1
        assert steps < 5000, f"seed {seed}: the game does not end"
    assert engine.decision(state) is None
    scores = engine.scores(state)
    assert all(isinstance(s["total"], int) for s in scores)


@pytest.mark.parametrize("name", SHIPPED)
def test_same_seed_same_trace(name):
    engine = shipped(name)
    players = engine.game.max_players
    a = runner.play(engine, players, 99, ["random"], name).trace.jsonl()
    b = runner.play(shipped(name), players, 99, ["random"], name).trace.jsonl()
    assert a == b
    c = runner.play(engine, players, 98, ["random"], name).trace.jsonl()
    assert a != c


@pytest.mark.parametrize("name", SHIPPED)
def test_quiet_apply_reaches_the_same_states(name):
    """apply(events=False), used by simulations, changes nothing but the events."""
    engine = shipped(name)
    players = engine.game.max_players
    rng = Random(5)
    loud, _ = engine.start(players, 5)
    quiet = copy_state(loud)
    while engine.option_count(loud):
        i = rng.below(engine.option_count(loud))
        loud, events = engine.apply(loud, i)
        quiet, none = engine.apply(quiet, i, events=False)
        assert none == [] and quiet == loud


@pytest.mark.parametrize("name", SHIPPED)
def test_no_apply_changes_an_earlier_state(name):
    """An apply's state shares the zone lists it leaves alone with the state it came from
    (state.fork): no later apply, quiet or not, in place or not, on the main line or on a side
    branch played out in place, may change any state reached before."""
    engine = shipped(name)
    players = engine.game.max_players
    rng = Random(7)
    kept = []
    seed = 6
    while len(kept) < 300:  # games until 300 states are kept (a game of poker has a few)
        seed += 1
        state, _ = engine.start(players, seed)
        while engine.option_count(state) and len(kept) < 300:
            kept.append((state, json.dumps(state, sort_keys=True)))
            side, _ = engine.apply(state, rng.below(engine.option_count(state)), events=False)
            for _ in range(5):  # a side branch, in place, as bots play out a guess
                if not engine.option_count(side):
                    break
                engine.apply(side, rng.below(engine.option_count(side)), inplace=True, events=len(kept) % 2 == 0)
            state, _ = engine.apply(state, rng.below(engine.option_count(state)), events=len(kept) % 2 == 1)
    for step, (earlier, text) in enumerate(kept):
        assert json.dumps(earlier, sort_keys=True) == text, f"{name}: the {step}th state kept (seeds from 7) changed"


def test_an_apply_copies_only_the_zones_it_changes():
    """state.fork shares every zone list; an apply copies the list of a zone it changes (once,
    effects/zones.own) and shares every other with the state it came from."""
    from meeple.interpreter.state import fork

    engine = shipped("wild_gardens")
    rng = Random(3)
    state, _ = engine.start(2, 3)
    forked = fork(state)
    assert forked["zones"] is not state["zones"]
    assert all(forked["zones"][k] is v for k, v in state["zones"].items())
    changes = copies = 0
    for _ in range(300):
        if not engine.option_count(state):
            break
        new, _ = engine.apply(state, rng.below(engine.option_count(state)), events=False)
        changed = {k for k, v in state["zones"].items() if new["zones"][k] != v}
        copied = {k for k, v in state["zones"].items() if new["zones"][k] is not v}
        assert changed <= copied  # every changed zone has a list of its own
        changes, copies = changes + len(changed), copies + len(copied)
        state = new
    # Zones change in these decisions, and about as many lists are copied (a zone emptied
    # and filled again is copied and not changed), not 70 a decision.
    assert 50 < changes <= copies < 2 * changes
