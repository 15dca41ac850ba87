"""Agents: who picks an option when a player must decide.

An agent is any class built as `Agent(engine, seat, seed)` with a method
`choose(view, decision) -> int` (the index of the chosen option). It sees only
the player's view and the options, never the true state. Name one on the
command line by its short name (`random`, `greedy`) or as `module:Class`.
"""
from __future__ import annotations

import importlib

from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.mcts import MctsAgent, budget_agent
from interpreter.agents.planner import PlannerAgent, planner_budget
from interpreter.agents.random_agent import RandomAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent, "planner": PlannerAgent}


class AgentError(ValueError):
    pass


def agent_class(name: str):
    if name in AGENTS:
        return AGENTS[name]
    if name.startswith("mcts@"):
        try:
            return budget_agent(name[len("mcts@"):])
        except ValueError:
            raise AgentError(f"`{name}`: give mcts a budget like mcts@500 (iterations) or mcts@2s") from None
    if name.startswith("planner@"):
        try:
            return planner_budget(name[len("planner@"):])
        except ValueError:
            raise AgentError(f"`{name}`: give planner a budget like planner@100 (iterations) or planner@1s") from None
    if ":" in name:
        module, _, cls = name.partition(":")
        try:
            return getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError) as exc:
            raise AgentError(f"cannot load agent `{name}`: {exc}") from None
    raise AgentError(f"unknown agent `{name}`; choose from {', '.join(AGENTS)}, mcts@N, planner@N or give module:Class")


def make_agents(engine, names: list[str], players: int, seed: int) -> list:
    """One agent per seat; a short list repeats its last name."""
    if not names:
        names = ["random"]
    names = (names + [names[-1]] * players)[:players]
    return [agent_class(n)(engine, seat, seed * 7919 + seat) for seat, n in enumerate(names)]
