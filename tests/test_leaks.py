"""Hidden information never leaks: views, events and trace renderings for a player
contain nothing that player cannot see (bag and deck order, other hands, secrets)."""

from __future__ import annotations

import re

import pytest

from meeple.interpreter import runner, trace
from meeple.interpreter.rng import Random
from meeple.interpreter.state import HIDDEN, can_see, visible_events
from tests.conftest import SHIPPED, shipped

CASES = [(name, seed) for name in SHIPPED for seed in (21, 22)]


def hidden_ids(game, state, viewer) -> set:
    """Components sitting in zones the viewer cannot see."""
    return {i for k, items in state["zones"].items() if not can_see(game, k, viewer) for i in items}


@pytest.mark.parametrize("name, seed", CASES)
def test_views_and_events_hide_what_a_player_cannot_see(name, seed):
    engine = shipped(name)
    game = engine.game
    players = game.max_players
    rng = Random(seed)
    state, _ = engine.start(players, seed)
    while engine.option_count(state):
        before = state
        state, events = engine.apply(state, rng.below(engine.option_count(state)))
        for viewer in range(players):
            secret = hidden_ids(game, before, viewer) & hidden_ids(game, state, viewer)
            view = engine.view(state, viewer)
            assert not secret & {i for items in view["zones"].values() for i in items}, f"seed {seed}: view"
            for e in visible_events(game, events, viewer, state):
                if e["e"] in ("move", "draw") and not (
                    can_see(game, e["src"], viewer) or can_see(game, e["dst"], viewer)
                ):
                    assert set(e["items"]) <= {HIDDEN}, f"seed {seed}: {e} shown to P{viewer + 1}"
                if e["e"] == "auto" and e["player"] != viewer:
                    assert e["choice"] not in secret, f"seed {seed}: {e} shown to P{viewer + 1}"


@pytest.mark.parametrize("name", SHIPPED)
def test_trace_rendering_for_a_player_hides_secrets(name):
    engine = shipped(name)
    players = engine.game.max_players
    result = runner.play(engine, players, 31, ["random"], name)
    final_hidden = {v: hidden_ids(engine.game, result.state, v) for v in range(players)}
    for viewer in range(players):
        text = trace.render(engine.game, result.trace.lines, viewer).split("\n", 1)[1]  # the header names options
        # Cards hidden from the viewer at the end were never named in a zone they could see...
        # ...unless they were visible once: only check cards that never left hidden zones.
        never_seen = final_hidden[viewer] - _ever_visible(engine, result.trace.lines, viewer)
        leaked = [c for c in never_seen if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]
        assert not leaked, f"P{viewer + 1} sees {leaked[:3]}"


def _ever_visible(engine, lines, viewer) -> set:
    seen = set()
    for line in lines[1:]:
        events = line.get("setup") or line.get("events") or []
        for e in events:
            if e["e"] in ("move", "draw") and (
                can_see(engine.game, e["src"], viewer) or can_see(engine.game, e["dst"], viewer)
            ):
                seen |= set(e["items"])
            if e["e"] == "place":
                seen.add(e["piece"])
        if "step" in line and (line["actor"] == viewer or viewer in line.get("seen_by", [viewer])):
            seen |= {w.strip("[],") for w in line["label"].split()}
    return seen


@pytest.mark.parametrize("name, seed", CASES)
def test_decks_show_only_their_top_back_and_sealed_choices_show_nothing(name, seed):
    """Below the top of a face-down deck no back shows, and while a simultaneous choice is
    being gathered nobody else can tell which option (or how many cards) a player took."""
    from meeple.interpreter.effects.simultaneous import Gather

    engine = shipped(name)
    game = engine.game
    players = game.max_players
    rng = Random(seed)
    state, _ = engine.start(players, seed)
    sealed = 0
    while engine.option_count(state):
        d = engine.decision(state)
        for viewer in range(players):
            view = engine.view(state, viewer)
            for key in state["zones"]:
                spec = game.zones.get(key.split("/", 1)[0])
                if spec is not None and spec.kind == "deck" and not can_see(game, key, viewer):
                    assert set(view["zones"][key][1:]) <= {HIDDEN}, f"seed {seed}: backs below the top of {key}"
        if (
            isinstance(engine.pending_op(state), Gather)
            and not state["pending"].get("interrupt")
            and len(d.options) > 1
        ):
            sealed += 1
            (a, ea), (b, eb) = engine.apply(state, 0), engine.apply(state, len(d.options) - 1)
            if engine.option_count(a) and engine.option_count(b) and ea == eb == []:
                for viewer in set(range(players)) - {d.actor}:
                    assert engine.view(a, viewer) == engine.view(b, viewer), (
                        f"seed {seed}: P{viewer + 1} can tell P{d.actor + 1}'s sealed choices apart"
                    )
        state, _ = engine.apply(state, rng.below(engine.option_count(state)))
    if name == "apothebakery":
        assert sealed > 0, "the Forrie choice is sealed"
