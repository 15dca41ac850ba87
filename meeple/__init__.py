"""Meeple as a library: `import meeple`.

    import meeple
    game = meeple.load("tic_tac_toe")                  # or a path to a .rules file
    state = game.start(seed=7)
    while (d := state.decision) is not None:
        state = state.apply(d.options[0])              # an Option, its label, id or index
    state.scores, state.ranking
    result = game.play(agents=["greedy", "random"], seed=7)
    result.trace.save("game.jsonl")

docs/api.md describes every call (docs/research.md the research adapters). In the source tree the engine keeps the design card's layout
(dsl/, interpreter/, cli.py and rulesets/ at the repository's top); this folder holds symbolic
links to them (meeple/dsl -> ../dsl, ...), so `meeple.dsl` is an ordinary subpackage that Python,
type checkers, import linters and editors all find the same way. The wheel holds the real files.
"""

from __future__ import annotations

from meeple.agents import Agent, agent
from meeple.dsl.compiler import UsageError
from meeple.dsl.errors import MeepleError
from meeple.game import Game, Result, Trace, TraceError, load, read_trace, rulesets
from meeple.interpreter.agents import AgentError
from meeple.interpreter.extras import MissingExtra
from meeple.state import Decision, Option, State

__version__ = "0.1.0"
__all__ = [
    "Agent",
    "AgentError",
    "Decision",
    "Game",
    "MeepleError",
    "MissingExtra",
    "Option",
    "Result",
    "State",
    "Trace",
    "TraceError",
    "UsageError",
    "agent",
    "load",
    "read_trace",
    "rulesets",
]
