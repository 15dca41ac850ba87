"""Play whole games: agents in their seats, a trace of everything, the result.

This is what `meeple run`, the snapshot tests and the invariant tests call.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from meeple.interpreter.agents import choose, make_agents
from meeple.interpreter.board_text import all_boards_text
from meeple.interpreter.engine import Engine
from meeple.interpreter.state import component_ids, visible_to
from meeple.interpreter.trace import TraceWriter


@dataclass
class Result:
    state: dict
    scores: list
    ranking: list
    decisions: int
    trace: TraceWriter = field(repr=False)
    outcome: list | None = None  # engine.outcome: win or loss per player, for games that declare it


def header(engine: Engine, players: int, seed: int, agents: list[str], ruleset: str) -> dict:
    g = engine.game
    return {
        "game": g.title,
        "ruleset": ruleset,
        "digest": g.digest,
        "options": dict(g.options),
        "variants": list(g.variants),
        "seed": seed,
        "players": players,
        "agents": agents,
    }


def conservation_errors(game, state: dict) -> list[str]:
    """Every component must be in exactly one zone or on exactly one grid."""
    seen: dict[str, str] = {}
    problems = []
    places = list(state["zones"].items()) + [(k, [p[0] for p in g["pieces"]]) for k, g in state["grids"].items()]
    for key, items in places:
        for item in items:
            if item in seen:
                problems.append(f"`{item}` is both in {seen[item]} and in {key}")
            seen[item] = key
    problems += [f"`{c}` is nowhere" for c in game.components if c not in seen]
    problems += [f"`{c}` is not a component" for c in seen if c not in game.components]
    return problems


def seen_by(game, state: dict, value, players: int) -> list | None:
    """Who may see a chosen value: None when it names no hidden component."""
    ids = component_ids(value, game)
    if not ids:
        return None
    seats = [p for p in range(players) if visible_to(game, state, p, ids)]
    return None if len(seats) == players else seats


def choice_seen_by(game, state: dict, decision, index: int, players: int) -> list | None:
    """Who may see the option taken, judged before it is taken: the chooser alone for a
    `secret choose`, else whoever sees the component it names (None: everyone)."""
    if decision.secret:
        return [decision.actor]
    return seen_by(game, state, decision.options[index].value, players)


class Stopped(Exception):
    """A game stopped by `play`: past its bound of decisions or seconds, or (strict) a component lost."""


class TooLong(Stopped):
    """Past the bound of decisions or seconds: the rules (or the bots) never end it."""


def play(
    engine: Engine,
    players: int,
    seed: int,
    agent_names: list[str],
    ruleset: str = "",
    max_decisions: int = 100_000,
    strict: bool = False,
    seconds: float | None = None,
) -> Result:
    """Play one game; `seconds` bounds the whole game's time (checked between decisions)."""
    deadline = time.monotonic() + seconds if seconds else None
    agents = make_agents(engine, agent_names, players, seed)
    names = [type(a).name if hasattr(type(a), "name") else type(a).__name__ for a in agents]
    trace = TraceWriter(header(engine, players, seed, names, ruleset))
    state, events = engine.start(players, seed)
    trace.setup(events)
    step = 0
    while (d := engine.decision(state)) is not None:
        step += 1
        if step > max_decisions:
            raise TooLong(f"seed {seed}: no end after {max_decisions:,} decisions")
        if deadline is not None and time.monotonic() > deadline:
            raise TooLong(f"seed {seed}: no end after {seconds:g} s ({step - 1} decisions)")
        index = choose(agents[d.actor], engine.view(state, d.actor), d)
        # Who saw the chosen thing where it was when it was chosen (a card taken from
        # a face-up market is public, one played from a hand is not).
        who = choice_seen_by(engine.game, state, d, index, players)
        state, events = engine.apply(state, index, inplace=True)
        trace.decision(step, d, index, events, who)
        if strict:
            problems = conservation_errors(engine.game, state)
            if problems:
                raise Stopped(f"seed {seed}, step {step}: " + "; ".join(problems[:3]))
    scores = engine.scores(state)
    ranking = engine.ranking(state, scores)
    outcome = engine.outcome(state, scores)
    trace.end(scores, ranking, all_boards_text(engine.game, state), outcome)
    return Result(state, scores, ranking, step, trace, outcome)
