"""Who plays the bot seats: the usual agents (random, greedy, mcts@N), seeded per table.

A seat is either a person (`PERSON`) or a bot named like on the command line.
Bots get the seat's view and the options, as in every other game Meeple plays.
"""

from __future__ import annotations

from meeple.interpreter.agents import AgentError, agent_class
from meeple.interpreter.agents.caps import check_budget

PERSON = "person"
SPECTATOR = "spectator"  # who opens a table's watching link: no seat
BOT_CHOICES = ("random", "greedy", "mcts@200")  # offered in the lobby; any agent name within the caps works


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
