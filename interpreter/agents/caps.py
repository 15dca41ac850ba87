"""How long a bot may think when someone else's machine pays: the caps on agent budgets at a play
table, and for the bots a saved game names (a file that may come from anyone).

On the command line a person may give any budget for their own machine; here `NAME@N` and
`NAME@Xs` are held to TABLE_CAPS.
"""

from __future__ import annotations

from meeple.interpreter.agents import BUDGETS, AgentError

# A table's bots think on the server everyone shares, for whoever asks: their budget per move is
# capped (the command line allows far more, for one person's own machine). NAME@N: N at most the
# first; NAME@Xs: X at most the second. A thousand search iterations take 1 to 5 s in the shipped
# games on one core; greedy's and rollout's own defaults are 1,000 tries and 6 guesses.
TABLE_CAPS = {"greedy": (1_000, None), "mcts": (1_000, 5.0), "planner": (1_000, 5.0), "rollout": (12, None)}


def check_budget(name: str, who: str = "a bot at a table") -> None:
    """AgentError for a bot that may think longer than a table allows (see TABLE_CAPS); a saved
    game's bots, named by a file that may come from anyone, get the same caps."""
    base, at, spec = name.partition("@")
    if not at or base not in TABLE_CAPS:
        return
    most, seconds = TABLE_CAPS[base]
    timed = seconds is not None and spec.endswith("s")
    if (
        (seconds is not None and float(spec[:-1]) <= seconds) if timed else (int(spec) <= most)
    ):  # agent_class took these numbers
        return
    keyword = BUDGETS[base][0]
    allowed = f"{seconds:g} s or {most:,} {keyword}" if seconds is not None else f"{most:,} {keyword}"
    example = f"{base}@2s, {base}@{min(500, most)}" if seconds is not None else f"{base}@{most}"
    raise AgentError(f"`{name}`: {who} may think at most {allowed} a move ({example})")
