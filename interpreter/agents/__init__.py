"""Agents: who picks an option when a player must decide.

An agent is any class built as `Agent(engine, seat, seed)` with a method
`choose(view, decision) -> int` (the index of the chosen option). It sees only
the player's view and the options, never the true state. Name one on the
command line by its short name (`random`, `greedy`) or as `module:Class`.
"""

from __future__ import annotations

import importlib
import math
import signal
import threading

from meeple.interpreter.agents.greedy import GreedyAgent
from meeple.interpreter.agents.mcts import MctsAgent
from meeple.interpreter.agents.planner import PlannerAgent
from meeple.interpreter.agents.quick import QuickAgent
from meeple.interpreter.agents.random_agent import RandomAgent
from meeple.interpreter.agents.rollout import RolloutAgent

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MctsAgent,
    "planner": PlannerAgent,
    "rollout": RolloutAgent,
    "quick": QuickAgent,
}

# The agent the designer's lab plays when a command names none (`simulate`, `compare`, ...):
# as strong as greedy against greedy in every shipped game, at a half to a quarter of its cost
# (docs/agents.md, "Which agent for a comparison").
RECOMMENDED = "quick"

# NAME@N: the keyword N sets and its bounds; NAME@Xs (where seconds bound) a time per decision;
# the example and the words an error says.
BUDGETS = {
    "greedy": ("tries", (0, 1_000_000), None, "greedy@200 (options its look tries per decision)"),
    "mcts": ("iterations", (1, 10_000_000), (0, 3600), "mcts@500 (iterations) or mcts@2s"),
    "planner": ("iterations", (1, math.inf), (0, math.inf), "planner@100 (iterations) or planner@1s"),
    "rollout": ("guesses", (0, 10_000), None, "rollout@8 (guesses each candidate is played on)"),
    "quick": ("tries", (0, 1_000_000), None, "quick@100 (options its look tries per decision)"),
}


class AgentError(ValueError):
    pass


# A decision that takes longer than this is an agent that hangs (mcts@Xs budgets stay far below).
DECISION_SECONDS = 300.0


class OutOfTime(BaseException):
    """Raised into an agent past its time: a BaseException, so an agent's own `except Exception`
    (around its search, say) cannot swallow it and think on."""


def _name(agent) -> str:
    return getattr(type(agent), "name", None) or getattr(agent, "name", None) or type(agent).__name__


def choose(agent, view: dict, decision, seconds: float = DECISION_SECONDS) -> int:
    """Ask an agent for its choice, checked: an agent that raises, answers something that is
    not one of the options or takes longer than `seconds` is one AgentError naming it and the seat."""
    who = f"agent `{_name(agent)}` in seat P{decision.actor + 1}"
    method = getattr(agent, "choose", None)
    if not callable(method):
        raise AgentError(f"{who} has no `choose(view, decision)` method")
    timed = seconds and math.isfinite(seconds) and threading.current_thread() is threading.main_thread()
    if timed:

        def too_slow(signum, frame):
            raise OutOfTime

        old = signal.signal(signal.SIGALRM, too_slow)
        # Again every second after: an agent with a bare `except:` that swallows one still stops.
        signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:  # the outer try: the alarm may also ring while an error is being handled, until it is off
        try:
            index = method(view, decision)
        except (OutOfTime, AgentError):
            raise
        except (Exception, SystemExit) as exc:  # a plug-in agent's own bug, or its sys.exit: its error, one line
            raise AgentError(f"{who} failed: {type(exc).__name__}: {exc}") from None
        finally:
            if timed:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
    except OutOfTime:
        raise AgentError(f"{who} took more than {seconds:g} s to decide") from None
    if type(index) is not int or not 0 <= index < len(decision.options):
        raise AgentError(
            f"{who} answered {index!r}; it must answer an option's index, 0 to {len(decision.options) - 1}"
        )
    return index


def builtin_agent(name: str) -> bool:
    """True for an agent Meeple ships (resolved without importing anything): not `module:Class`."""
    return ":" not in name


def budgeted(base: str, spec: str):
    """`greedy@200`, `mcts@2s`...: a maker of that agent with that budget (ValueError if the
    budget is not a number within its bounds)."""
    keyword, (lo, hi), timed, _ = BUDGETS[base]
    if timed and spec.endswith("s"):
        keyword, value = "seconds", float(spec[:-1])
        if not timed[0] < value <= timed[1]:  # also refuses nan
            raise ValueError
    else:
        value = int(spec)
        if not lo <= value <= hi:
            raise ValueError
    cls = AGENTS[base]

    def make(engine, seat, seed):
        return cls(engine, seat, seed, **{keyword: value})

    make.name = base  # type: ignore[attr-defined]  # a function with a name, as agent lists read it
    return make


def agent_class(name: str):
    if name in AGENTS:
        return AGENTS[name]
    base, at, spec = name.partition("@")
    if at and base in BUDGETS:
        try:
            return budgeted(base, spec)
        except ValueError:
            raise AgentError(f"`{name}`: give {base} a budget like {BUDGETS[base][3]}") from None
    if ":" in name:
        module, _, cls = name.partition(":")
        try:
            found = getattr(importlib.import_module(module), cls)
        except (Exception, SystemExit) as exc:  # importing runs the module: any failure is the agent's
            raise AgentError(f"cannot load agent `{name}`: {exc}") from None
        if not callable(found):
            raise AgentError(f"`{name}` is not a class (an agent is built as Agent(engine, seat, seed))")
        return found
    raise AgentError(
        f"unknown agent `{name}`; choose from {', '.join(AGENTS)}, greedy@N, mcts@N, planner@N, rollout@N, quick@N or give module:Class"
    )


def make_agent(engine, name: str, seat: int, game_seed: int):
    """The agent `name` for one seat, seeded from the game's seed (as `make_agents` seeds it)."""
    cls = agent_class(name)
    try:
        return cls(engine, seat, game_seed * 7919 + seat)
    except (Exception, SystemExit) as exc:
        raise AgentError(f"cannot start agent `{name}` in seat P{seat + 1}: {type(exc).__name__}: {exc}") from None


def make_agents(engine, names: list, players: int, seed: int) -> list:
    """One agent per seat; a short list repeats its last name. An entry that is not a name is
    an agent already built (a library user's), used as it is."""
    if not names:
        names = ["random"]
    names = (list(names) + [names[-1]] * players)[:players]
    return [make_agent(engine, n, seat, seed) if isinstance(n, str) else n for seat, n in enumerate(names)]
