"""The OpenSpiel state of a Meeple game (meeple.openspiel's MeepleState): whose move, the legal
actions, taking one, the returns and the strings.

A state holds the engine's state (plain data; None at a chance node) and its records in a
`_Plain` (meeple.openspiel_recall, with undo_action and resample_from_infostate). An action of
the rules' space is taken by its place among the decision's options (meeple.spaces); an item of
a set is kept in `picked` until the set is complete. With draws as chance nodes a step runs on a
copy and again with each draw it needs (meeple.chance); without, in place, and undo_action plays
the game again to the step before. Everything the C++ side asks several times a step (the
current player, the legal actions) is answered in Python and worked out once per state.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pyspiel

from meeple import chance as draws
from meeple import encoding, spaces
from meeple.interpreter.runner import seen_by
from meeple.interpreter.state import copy_state
from meeple.openspiel_recall import _REPLAY, Recall, _Plain, action_names

if TYPE_CHECKING:
    from meeple.openspiel import MeepleGame

_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL


class MeepleState(Recall, pyspiel.State):
    """An OpenSpiel state around the engine's state (plain data) and each seat's record."""

    def __init__(self, game: MeepleGame):
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying its attributes: the game copies as
        # itself, the engine's state with the engine's own copy (see _Plain).
        self.meeple = game
        self._plain = _Plain(None)
        if game.by_seed:
            if game.seeds == 1:
                self._plain.state = copy_state(game.start)
        else:
            self._step(None, None, [])

    def _step(self, before, action, given):
        """Run the start (`before` None) or `action` from `before` with these draws given; a
        draw not given yet makes this state a chance node (the step runs again with it)."""
        g = self.meeple
        if before is not None and not g.draws:  # nothing to draw: in place (undo_action replays)
            self.data = g.engine.apply(before, action, inplace=True, events=False)[0]
            return
        state, n = draws.step(g.engine, g.players, g.seed, before, action, given)
        self.data = state
        self._plain.chance = None if state is not None else (before, action, given, n)

    @property
    def data(self) -> dict | None:
        """The engine's state; None at a chance node."""
        return self._plain.state

    @data.setter
    def data(self, value):
        plain = self._plain
        plain.state, plain.decision, plain.names, plain.player = value, None, None, None

    def decision(self):
        """The engine's pending decision with its labels (made once per state: labels cost)."""
        if self._plain.decision is None:
            self._plain.decision = self.meeple.engine.decision(self.data)
        return self._plain.decision

    # ------------------------------------------------------------- whose move
    def current_player(self):
        # Asked several times a step from OpenSpiel's C++ side: worked out once per state.
        plain = self._plain
        player = plain.player
        if player is None:
            data = plain.state
            if data is None:
                player = _CHANCE
            elif data["over"] or data["pending"] is None:  # engine.option_count is 0
                player = _TERMINAL
            else:
                player = data["pending"]["actor"]
            plain.player = player
        return player

    def is_terminal(self):
        player = self._plain.player
        return (self.current_player() if player is None else player) is _TERMINAL

    def chance_outcomes(self):
        if self.data is not None:
            raise pyspiel.SpielError("chance_outcomes: this is not a chance node")
        k = self._plain.chance[3] if self._plain.chance else self.meeple.seeds
        return [(i, 1.0 / k) for i in range(k)]

    def legal_actions(self, player=None):
        """OpenSpiel's legal_actions: the seat to act's (or a chance node's outcomes) answered
        here, without going through C++ and back (that costs more than a tic-tac-toe step);
        anything else as OpenSpiel's wrapper answers it (C++ algorithms ask the wrapper)."""
        now = self._plain.player
        if now is None:
            now = self.current_player()
        if (player is None or player == now) and now is not _TERMINAL:
            if now is _CHANCE:
                return [a for a, _ in self.chance_outcomes()]
            plain, g = self._plain, self.meeple
            if g.space:
                return g.space.legal(plain.state["pending"], plain.picked)
            return encoding.legal_actions(g.engine, plain.state, g.action_count)
        return pyspiel.State.legal_actions(self) if player is None else pyspiel.State.legal_actions(self, player)

    def is_chance_node(self):
        return self.current_player() is _CHANCE

    def _legal_actions(self, player):
        plain = self._plain
        if plain.state is None or player != self.current_player():
            return []
        if self.meeple.space:
            return self.meeple.space.legal(plain.state["pending"], plain.picked)
        return encoding.legal_actions(self.meeple.engine, plain.state, self.meeple.action_count)

    def _apply_action(self, action, record: bool = True):
        """Take an action (OpenSpiel's apply_action comes here); `record`: keep what undo_action
        restores (a replay for undo_action keeps nothing)."""
        g, plain = self.meeple, self._plain
        data = plain.state
        if record:
            # What undo_action restores. With draws (or in a resampled world, which no moves
            # lead to) a step runs on a copy, so the state before stays as it was; else in
            # place, and undo_action plays the game again to the step before.
            before = (
                data if data is None or g.draws or not plain.replayable else _REPLAY,
                plain.chance,
                plain.picked,
                len(plain.told),
                self.current_player() if plain.player is None else plain.player,
            )
        if data is None:
            k = self._plain.chance[3] if self._plain.chance else g.seeds
            if not (type(action) is int and 0 <= action < k):
                raise pyspiel.SpielError(f"chance outcome {action!r} does not exist: the outcomes are 0 to {k - 1}")
            if self._plain.chance:
                chance_before, act, given, _ = self._plain.chance
                self._step(chance_before, act, given + [action])
            else:
                self.data, _ = g.engine.start(g.players, g.seed + action)
            if record:
                plain.undo.append(before)
                plain.moves.append(action)
            return
        engine, taken = g.engine, action
        pending = data["pending"]
        n = 0 if pending is None or data["over"] else len(pending["options"])  # engine.option_count
        space = g.space
        # A decision of plain options (most): the action's place among them, looked up once.
        index = space.plain(pending) if space and n and not plain.picked else None
        at = None
        if index is not None and type(action) is int:
            try:
                at = index.index(action)
            except ValueError:
                pass  # not one of them: an error below
        if at is not None:
            action, actions = at, (action,)
        elif space:
            if not n:
                raise pyspiel.SpielError(f"action {action!r} is not legal now: the game is over")
            try:  # a legal action gives its option's place (below n)
                action, picked = space.choose(pending, plain.picked, action)
            except (ValueError, TypeError):
                raise pyspiel.SpielError(
                    f"action {action!r} is not legal now: the legal actions are "
                    + spaces.listed(self._legal_actions(self.current_player()))
                ) from None
            if action is None:  # an item of a set: the set is not complete yet
                plain.picked = picked
                if record:
                    plain.undo.append(before)
                    plain.moves.append(taken)
                return
            value = pending["options"][action]
            # The option's actions, for the information state tensor (meeple.infostate).
            actions = (
                tuple(sorted(space.index(x, pending) for x in value)) + (space.DONE,)
                if space.is_set(value)
                else (space.index(value, pending),)
            )
        elif not (type(action) is int and 0 <= action < min(n, g.action_count)):
            n = min(n, g.action_count)
            raise pyspiel.SpielError(
                f"action {action!r} is not legal now: "
                + (f"the legal actions are 0 to {n - 1}" if n else "the game is over")
            )
        else:
            actions = (action,)
        # What each seat is told of this choice (as the runner judges it for per-player traces):
        # read off the pending options, without making every option's label.
        value = pending["options"][action]
        secret = (
            pending["secret"]
            if "secret" in pending
            else g.secret_ops and getattr(engine.pending_op(data), "secret", False)
        )
        # (Who sees it: a game without components names none in its options: everyone does.)
        who = [pending["actor"]] if secret else seen_by(engine.game, data, value, g.players) if g.named else None
        if g.draws:
            self._step(data, action, [])
        elif plain.replayable:  # in place (undo_action replays); what _step does, without the calls
            try:
                engine.apply(data, action, inplace=True, events=False)
            except Exception:  # the rules refused the choice half way: the state before, again
                plain.state = self._replayed()
                raise
            finally:
                plain.decision = plain.names = plain.player = None
        else:
            self.data = engine.apply(data, action, inplace=False, events=False)[0]
        plain.picked = []
        plain.told.append((pending["actor"], value, who, actions))  # made into text when asked (seen)
        if record:
            plain.undo.append(before)
            plain.moves.append(taken)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self.meeple.by_seed:
                return f"seed {self.meeple.seed + action}"
            return f"draw {action + 1}"
        d = self.decision() if self.data is not None else None
        space = self.meeple.space
        if space:  # the option's label where the action is one now, else what the index means
            if d is not None and self._plain.names is None:
                place = {
                    path[0]: k for k, path in enumerate(space.option_indices(self.data["pending"])) if len(path) == 1
                }
                names = action_names(d)
                self._plain.names = {i: names[k] for i, k in place.items()}
            if d is not None and action in self._plain.names:
                return self._plain.names[action]
            return space.describe(action) if 0 <= action < space.size else f"action {action}"
        if d is None or not 0 <= action < len(d.options):
            return f"option {action}"
        if self._plain.names is None:
            self._plain.names = action_names(d)
        return self._plain.names[action]

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.meeple.players
        if self.meeple.score_returns:
            totals = [s["total"] for s in self.meeple.engine.scores(self.data)]
            mean = sum(totals) / len(totals)
            return [float(t - mean) for t in totals]
        return encoding.rewards(self.meeple.engine, self.data)

    def __str__(self):
        if self.data is None:
            return "" if self._plain.chance is None else f"chance: {self._plain.chance[3]} outcomes"
        return json.dumps(self.data, sort_keys=True, separators=(",", ":"))
