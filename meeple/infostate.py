"""What a seat knows, for meeple.openspiel's game: OpenSpiel's observer (MeepleObserver: the
seat's view as a tensor and as text, with perfect recall its record too) and the information
state tensor's layout, a shape the rules fix (OpenSpiel's algorithms for imperfect
information, CFR's neural kin and NFSP, read it):

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

need("research", "meeple.infostate", "numpy", "pyspiel")

import json  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

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


class MeepleObserver:
    """OpenSpiel's observer interface: a seat's view as a tensor and as text."""

    def __init__(self, game, iig_obs_type):
        self.game = game
        self.recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        # With perfect recall, a seat's information state (meeple.infostate), where the game has one.
        self.layout = game.info_layout if self.recall and not self.public else None
        self.tensor = np.zeros(self.layout.size if self.layout else game.encoder.size, np.float32)
        self.seen = np.zeros(game.encoder.size, np.float32) if self.layout else self.tensor
        self.dict = {"observation": self.tensor}

    def _view(self, state, player: int):
        if state.data is None:
            return None
        return self.game.engine.view(state.data, None if self.public else player)

    def set_from(self, state, player: int):
        if self.recall and not self.public and self.layout is None:
            raise pyspiel.SpielError(
                f"{self.game.engine.game.title} has no information state tensor: "
                + (
                    "it is a game of perfect information (its observation tensor is the state)"
                    if self.game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
                    else "no bound on its length was found (give the game max_game_length=N)"
                    if not self.game.info_length
                    else f"a record of {self.game.info_length} decisions would be too large"
                )
            )
        view, seen = self._view(state, player), self.seen
        if view is None:
            seen.fill(0)
            seen[player] = 1
        else:
            picked = state._plain.picked if state.current_player() == player and not self.public else ()
            seen[:] = (
                self.game.encoder.encode(view, player, picked)
                if self.game.space
                else self.game.encoder.encode(view, player)
            )
        if self.layout is not None:
            self.layout.write(self.tensor, seen, state._plain.told, player)

    def string_from(self, state, player: int) -> str:
        text = json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))
        picked = state._plain.picked
        if picked and not self.public and state.current_player() == player:  # a set half picked: its own
            text += f"\npicking {json.dumps(picked)}"
        if self.recall:
            return f"P{player + 1} saw {' | '.join(state.seen[player])}\n{text}"
        return text
