"""Play whole games: agents in their seats, a trace of everything, the result.

This is what `meeple run`, the snapshot tests and the invariant tests call.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.agents import make_agents
from interpreter.engine import Engine
from interpreter.render import boards_text
from interpreter.trace import TraceWriter


@dataclass
class Result:
    state: dict
    scores: list
    ranking: list
    decisions: int
    trace: TraceWriter = field(repr=False)


def header(engine: Engine, players: int, seed: int, agents: list[str], ruleset: str) -> dict:
    g = engine.game
    return {"game": g.title, "ruleset": ruleset, "digest": g.digest, "options": dict(g.options),
            "variants": list(g.variants), "seed": seed, "players": players, "agents": agents}


def play(engine: Engine, players: int, seed: int, agent_names: list[str], ruleset: str = "",
         max_decisions: int = 100_000) -> Result:
    agents = make_agents(engine, agent_names, players, seed)
    names = [type(a).name if hasattr(type(a), "name") else type(a).__name__ for a in agents]
    trace = TraceWriter(header(engine, players, seed, names, ruleset))
    state, events = engine.start(players, seed)
    trace.setup(events)
    step = 0
    while (d := engine.decision(state)) is not None:
        step += 1
        if step > max_decisions:
            raise RuntimeError(f"seed {seed}: no end after {max_decisions} decisions")
        index = agents[d.actor].choose(engine.view(state, d.actor), d)
        state, events = engine.apply(state, index, inplace=True)
        trace.decision(step, d, index, events)
    scores = engine.scores(state)
    ranking = engine.ranking(state, scores)
    trace.end(scores, ranking, boards_text(engine.game, state))
    return Result(state, scores, ranking, step, trace)
