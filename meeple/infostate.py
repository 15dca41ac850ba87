"""The information state tensor of meeple.openspiel's game: what a seat knows, in a shape the
rules fix. OpenSpiel's algorithms for imperfect information (CFR's neural kin, NFSP) read it.

    seat's view    the observation tensor of the seat's view now (meeple.tensors)
    its record     one block per decision of the game so far, in order, up to the most a game
                   can take: who decided (one-hot over the players), then either a 1 in the
                   "not seen" slot (a choice the seat was not shown) or the action indices of
                   the option taken (one index; a set: its items' indices and `done`)

So two states the seat cannot tell apart (the same information state string: the same record
and the same view) have the same tensor. The record's length is the game's bound: the
`max_game_length` parameter, else the longest game the engine finds (meeple.chance). A game
without a bound, one of perfect information (its observation is the whole state) or one whose
record would be too large to hold says it has no information state tensor (OpenSpiel's
`provides_information_state_tensor` is false, and asking for one is a SpielError).
"""

from __future__ import annotations

from meeple.interpreter.extras import need

need("research", "meeple.infostate", "numpy")

import numpy as np  # noqa: E402

MOST = 2_000_000  # floats: a record larger than this is not offered (a long game of many actions)


class InfoStateLayout:
    """The record's blocks after the observation tensor (see the module's docstring)."""

    def __init__(self, observation: int, players: int, actions: int, length: int):
        self.observation, self.players, self.actions, self.length = observation, players, actions, length
        self.block = players + 1 + actions
        self.size = observation + length * self.block

    @classmethod
    def of(cls, observation: int, players: int, actions: int, length: int | None, perfect: bool):
        """The layout, or None when the game has no information state tensor."""
        if perfect or not length or length * (players + 1 + actions) > MOST:
            return None
        return cls(observation, players, actions, length)

    def write(self, out: np.ndarray, observation: np.ndarray, record: list, seat: int) -> None:
        """Fill `out` (size `self.size`): the observation, then `record`'s decisions as `seat`
        knows them; `record`: (actor, option value, the seats told or None: all, its actions)."""
        out.fill(0)
        out[: self.observation] = observation
        at, block = self.observation, self.block
        for actor, _, who, actions in record[: self.length]:
            out[at + actor] = 1
            if who is None or seat in who:
                out[at + self.players + 1 + np.asarray(actions, dtype=np.intp)] = 1
            else:
                out[at + self.players] = 1
            at += block
