"""Helpers the game tests share: run one effect alone, steer decisions, arrange zones."""

from __future__ import annotations

from meeple.dsl.errors import MeepleError
from meeple.interpreter.machine import Machine


def effect_frame(engine, effect: str, **env) -> list:
    """A stack frame that runs one effect of the ruleset with these parameters."""
    block, params = engine.game.effects[effect]
    assert sorted(params) == sorted(env), params
    return [block, 0, env]


def run_alone(engine, state: dict, frame: list) -> list:
    """Run a frame with nothing below it on the stack, up to its next decision; its events."""
    state["pending"], state["stack"], state["over"] = None, [frame], False
    m = Machine(engine.game, state)
    m.run()
    return m.events


def take(engine, state: dict, *choices, events: list | None = None) -> dict:
    """Apply choices (ids or indexes) one after another; collect their events if asked."""
    for choice in choices:
        state, ev = engine.apply(state, choice)
        if events is not None:
            events.extend(ev)
    return state


def option_ids(engine, state: dict) -> list:
    d = engine.decision(state)
    return [] if d is None else [o.id for o in d.options]


def fill_zone(state: dict, key: str, items) -> None:
    """Make zone `key` hold exactly `items` (taken from wherever they are; its old contents go to the box)."""
    zones = state["zones"]
    for k in zones:
        zones[k] = [c for c in zones[k] if c not in items]
    zones["box"] = zones["box"] + zones[key]  # new lists: an apply's state shares them (state.fork)
    zones[key] = list(items)


def relocate(state: dict, item: str, zone: str) -> None:
    """Move one component to the end of a zone, from wherever it is."""
    zones = state["zones"]
    for key, items in zones.items():  # new lists: an apply's state shares them (state.fork)
        if item in items:
            zones[key] = [c for c in items if c != item]
    zones[zone] = zones[zone] + [item]


def both_ways(monkeypatch, module, switch: str, run) -> list:
    """run(on) with `module.switch` set on, then off: each time its result, or its error's text
    (a shortcut must play, and fail, as the way it shortcuts)."""
    outcomes = []
    for on in (True, False):
        monkeypatch.setattr(module, switch, on)
        try:
            outcomes.append(run(on))
        except MeepleError as exc:
            outcomes.append(exc.format())
    return outcomes
