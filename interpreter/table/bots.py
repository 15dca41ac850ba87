"""Who plays the bot seats: the usual agents (random, greedy, mcts@N), seeded per table.

A seat is either a person (`PERSON`) or a bot named like on the command line.
Bots get the seat's view and the options, as in every other game Meeple plays.
"""
from __future__ import annotations

from meeple.interpreter.agents import BUDGETS, AgentError, agent_class

PERSON = "person"
BOT_CHOICES = ("random", "greedy", "mcts@200")  # offered in the lobby; any agent name within the caps works

# A table's bots think on the server everyone shares, for whoever asks: their budget per move is
# capped (the command line allows far more, for one person's own machine). NAME@N: N at most the
# first; NAME@Xs: X at most the second. A thousand search iterations take 1 to 5 s in the shipped
# games on one core; greedy's and rollout's own defaults are 1,000 tries and 6 guesses.
TABLE_CAPS = {"greedy": (1_000, None), "mcts": (1_000, 5.0), "planner": (1_000, 5.0), "rollout": (12, None)}


def check_seats(agents: list[str], players: int) -> None:
    """A clear error for a bad seat list: one entry per seat, each a person or a known agent."""
    if len(agents) != players:
        raise AgentError(f"give one entry per seat: {players} seats, {len(agents)} given")
    for name in agents:
        if name != PERSON and ":" in name:
            raise AgentError(f"`{name}`: the table offers the built-in agents only")
        if name != PERSON:
            agent_class(name)  # AgentError for an unknown name or a budget out of the command line's bounds
            check_budget(name)


def check_budget(name: str, who: str = "a bot at a table") -> None:
    """AgentError for a bot that may think longer than a table allows (see TABLE_CAPS); a saved
    game's bots, named by a file that may come from anyone, get the same caps."""
    base, at, spec = name.partition("@")
    if not at or base not in TABLE_CAPS:
        return
    most, seconds = TABLE_CAPS[base]
    timed = seconds is not None and spec.endswith("s")
    if (float(spec[:-1]) <= seconds) if timed else (int(spec) <= most):  # agent_class took these numbers
        return
    keyword = BUDGETS[base][0]
    allowed = f"{seconds:g} s or {most:,} {keyword}" if seconds is not None else f"{most:,} {keyword}"
    example = f"{base}@2s, {base}@{min(500, most)}" if seconds is not None else f"{base}@{most}"
    raise AgentError(f"`{name}`: {who} may think at most {allowed} a move ({example})")
