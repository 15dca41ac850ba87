"""Meeple as a library: `import meeple`.

    import meeple
    game = meeple.load("tic_tac_toe")                  # or a path to a .rules file
    state = game.start(seed=7)
    while (d := state.decision) is not None:
        state = state.apply(d.options[0])              # an Option, its label, id or index
    state.scores, state.ranking
    result = game.play(agents=["greedy", "random"], seed=7)
    result.trace.save("game.jsonl")

docs/api.md describes every call. In the source tree the engine keeps the design card's layout
(dsl/, interpreter/, cli.py and rulesets/ at the repository's top); the wheel puts them under
this one package. So that the same `meeple.dsl`, `meeple.interpreter` and `meeple.cli` names
work in both, a source checkout adds the repository's top to this package's search path.
"""
from __future__ import annotations

from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent
if not (_HERE / "dsl").is_dir() and (_HERE.parent / "dsl" / "meeple.lark").is_file():
    __path__.append(str(_HERE.parent))  # a source checkout: meeple.dsl is ../dsl

from meeple.agents import Agent, agent  # noqa: E402
from meeple.dsl.compiler import UsageError  # noqa: E402
from meeple.dsl.errors import MeepleError  # noqa: E402
from meeple.game import Game, Result, load, rulesets  # noqa: E402
from meeple.interpreter.agents import AgentError  # noqa: E402
from meeple.interpreter.extras import MissingExtra  # noqa: E402
from meeple.state import Decision, Option, State  # noqa: E402
from meeple.traces import Trace, TraceError, read_trace  # noqa: E402

__version__ = "0.1.0"
__all__ = ["Agent", "AgentError", "Decision", "Game", "MeepleError", "MissingExtra", "Option", "Result",
           "State", "Trace", "TraceError", "UsageError", "agent", "load", "read_trace", "rulesets"]
