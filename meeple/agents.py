"""Agents for a library user: `meeple.agent("planner@30", game, seat=0, seed=1)` is a bot that
chooses for one seat from what that seat sees.

    bot = meeple.agent("greedy", game, seat=1)
    state = state.apply(bot.choose(state))
"""

from __future__ import annotations

from meeple.dsl.compiler import UsageError
from meeple.interpreter.agents import AgentError, choose, make_agent
from meeple.interpreter.render import player_name

# Short names Meeple ships; also mcts@N, mcts@Ns, planner@N, planner@Ns and module:Class.
NAMES = ("random", "greedy", "mcts", "planner")


class Agent:
    """A bot in one seat; `bot` is the underlying agent (what `game.play` is given)."""

    def __init__(self, name: str, bot, seat: int):
        self.name, self.bot, self.seat = name, bot, seat

    def choose(self, state):
        """The Option this bot takes at `state` (it must be this seat's decision)."""
        d = state.decision
        if d is None:
            raise UsageError("the game is over; there is nothing to choose")
        if d.player != self.seat:
            raise UsageError(
                f"it is {player_name(d.player)}'s decision, not this {self.name} bot's ({player_name(self.seat)})"
            )
        return d.options[choose(self.bot, state.view(d.player), d.raw)]

    def __repr__(self) -> str:
        return f"<meeple.Agent {self.name} in seat {player_name(self.seat)}>"


def agent(name: str, game, seat: int = 0, seed: int = 1) -> Agent:
    """A bot by name (`random`, `greedy`, `mcts@500`, `planner@30`, `planner@1s`,
    `module:Class`) for one seat (0-based) of `game`, with its own seed."""
    if type(seat) is not int or not 0 <= seat < game.players:
        raise UsageError(f"no seat {seat!r}: the seats are 0 to {game.players - 1}")
    if not isinstance(name, str):
        raise AgentError(f"an agent is named by text, not {type(name).__name__}")
    return Agent(name, make_agent(game.engine, name, seat, seed), seat)
