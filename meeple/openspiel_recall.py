"""What an OpenSpiel state of a Meeple game remembers beyond the engine's state, for meeple.openspiel.

Each seat's record of the decisions so far (the information state string's `seen`: a choice a
seat may not see reads "?"), what `undo_action` restores (the state before an action, or a note
that the step ran in place and the game is played again to the step before) and the actions
taken (`history()`: OpenSpiel's own is kept in C++ and cannot be shortened from Python). From
them: `resample_from_infostate`, a world the seat cannot tell from this one (meeple's
determinize on its view), whose records are the seat's own and which no moves lead to, so it
keeps no undo. `_Plain` holds all of it with the engine's state: OpenSpiel clones a Python state
by deep-copying its attributes, and pickles it to serialize it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pyspiel

from meeple.interpreter.agents.determinize import determinize
from meeple.interpreter.effects.choices import option_id
from meeple.interpreter.state import copy_state

_REPLAY = object()  # in an undo record: the state before was changed in place (undo_action replays)
_UNSEEN = object()  # in a record of decisions: a choice the record's seat did not see


class Recall:
    """The records part of meeple.openspiel_state's MeepleState (see the module's docstring)."""

    # What the state (meeple.openspiel_state's MeepleState, a pyspiel.State) provides.
    meeple: Any  # its MeepleGame
    _plain: _Plain
    data: dict | None
    clone: Callable[[], Any]
    _apply_action: Callable[..., None]

    @property
    def seen(self) -> list[list[str]]:
        """Per seat, each decision so far as it saw it ("P1: a3", or "P1: ?" for a choice it may
        not see): the information state string's record."""
        out: list[list[str]] = [[] for _ in range(self.meeple.players)]
        game = self.meeple.engine.game
        for actor, value, who, _ in self._plain.told:
            told = f"P{actor + 1}: {'?' if value is _UNSEEN else option_id(game, value)}"
            for seat, record in enumerate(out):
                record.append(told if who is None or seat in who else f"P{actor + 1}: ?")
        return out

    def undo_action(self, player, action):
        """Back to the state before the last action (`player` and `action` name it, as OpenSpiel's
        games check). OpenSpiel's own history() is kept in C++ and cannot be shortened from
        Python, so this state's `history()` and `history_str()` are its own, undo included."""
        plain = self._plain
        if not plain.undo or plain.undo[-1][4] != player or plain.moves[-1] != action:
            raise pyspiel.SpielError(f"undo_action({player}, {action}) is not the last action taken")
        state, chance, picked, records, _ = plain.undo.pop()
        plain.moves.pop()
        if state is _REPLAY:  # the step ran in place: the game again, to the step before
            state = self._replayed()
        self.data = state
        plain.chance, plain.picked = chance, picked
        del plain.told[records:]

    def _replayed(self) -> dict | None:
        """The state this one's moves lead to from the start (None: a chance node): the game again."""
        make: Any = type(self)  # MeepleState
        again = make(self.meeple)
        for move in self._plain.moves:
            again._apply_action(move, False)
        return again._plain.state

    def history(self):
        return list(self._plain.moves)

    def history_str(self):
        return ", ".join(map(str, self._plain.moves))

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: its view with what it cannot see
        guessed (meeple's determinize, seeded from `probability_sampler`), every other seat's
        record of the decisions replaced by this seat's (what it knows of them), no undo."""
        out = self.clone()
        plain = out._plain
        plain.undo, plain.replayable = [], False  # a guessed world: its moves do not lead to it
        if self.data is not None:
            view = self.meeple.engine.view(self.data, player_id)
            out.data = determinize(self.meeple.engine.game, view, int(probability_sampler() * 2**31))
            plain.told = [  # every seat's record: what this one knows of it
                (actor, value, None, actions) if who is None or player_id in who else (actor, _UNSEEN, (), ())
                for actor, value, who, actions in plain.told
            ]
        return out


def action_names(d) -> list[str]:
    """The options' labels, made distinct as OpenSpiel wants: a label two options share gets the
    option's id, and an id two share (it happens with identical components) its position."""
    labels = Counter(o.label for o in d.options)
    names = [o.label if labels[o.label] == 1 else f"{o.label} ({o.id})" for o in d.options]
    twice = Counter(names)
    return [n if twice[n] == 1 else f"{n} #{i + 1}" for i, n in enumerate(names)]


class _Plain:
    """Holds the engine's state; a deep copy is the engine's copy (cheap: it shares what never changes)."""

    __slots__ = ("state", "decision", "names", "chance", "picked", "undo", "moves", "told", "player", "replayable")

    def __init__(self, state: dict | None):
        self.state, self.decision, self.names, self.player = state, None, None, None
        self.replayable = True  # the moves from the start lead to the state (not a resampled world)
        # Per decision: (actor, option value or _UNSEEN, the seats told or None: all, its actions).
        self.told: list = []
        self.undo: list = []  # per action taken: what undo_action restores (states never changed: shared)
        self.moves: list[int] = []  # the actions taken, chance outcomes too (history())
        self.picked: list = []  # the items of a set picked so far (meeple.spaces), one action each
        self.chance = None  # at a chance node of a step: (state before, action, draws given, outcomes)

    def __getstate__(self):  # pickled (OpenSpiel's serialize): without undo's states, rebuilt labels
        told = [(a, None if v is _UNSEEN else v, w, x, v is _UNSEEN) for a, v, w, x in self.told]
        return {
            "state": self.state,
            "chance": self.chance,
            "picked": self.picked,
            "moves": self.moves,
            "told": told,
            "replayable": self.replayable,
        }

    def __setstate__(self, saved):
        self.__init__(saved["state"])
        self.chance, self.picked, self.moves = saved["chance"], saved["picked"], saved["moves"]
        self.told = [(a, _UNSEEN if unseen else v, w, tuple(x)) for a, v, w, x, unseen in saved.get("told", [])]
        self.replayable = saved.get("replayable", True)

    def __deepcopy__(self, memo):
        copy = _Plain(None if self.state is None else copy_state(self.state))
        copy.picked, copy.undo, copy.moves, copy.told = self.picked[:], self.undo[:], self.moves[:], self.told[:]
        copy.player, copy.replayable = self.player, self.replayable
        if self.chance is not None:  # the state before is never changed (a step runs on a copy)
            before, action, given, n = self.chance
            copy.chance = (before, action, given[:], n)
        return copy
