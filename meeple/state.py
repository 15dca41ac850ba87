"""A game in progress as a library sees it: a State wraps the engine's plain state data
(`state.data`, JSON) with its game, and answers who decides what, what a seat sees and how
the scores stand. A State is never changed: `apply` returns the next one.

    d = state.decision              # None when the game is over
    d.player, d.title, d.labels     # who decides (0-based seat), the question, the options
    state = state.apply("row 1, column 2")   # an option's label, id, index or the Option
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from meeple.dsl.compiler import UsageError
from meeple.interpreter.board_text import state_text
from meeple.interpreter.engine import Option
from meeple.interpreter.render import player_name
from meeple.interpreter.state import copy_state

__all__ = ["Decision", "Option", "State"]


@dataclass(frozen=True)
class Decision:
    """Who decides (`player`, a 0-based seat), the question (`title`, may be empty) and the
    options, each with a stable `id` and a readable `label`. `raw` is the engine's decision,
    what agents are given."""

    player: int
    title: str
    options: list
    raw: object

    @property
    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    @property
    def ids(self) -> list[str]:
        return [o.id for o in self.options]

    def find(self, choice) -> int:
        """The index of an option given as an Option, its index, its id or its label."""
        if isinstance(choice, Option):
            choice = choice.id
        if type(choice) is int:
            if 0 <= choice < len(self.options):
                return choice
            raise UsageError(
                f"option {choice} does not exist: {player_name(self.player)} has "
                f"{len(self.options)} options, 0 to {len(self.options) - 1}"
            )
        if isinstance(choice, str):
            for i, o in enumerate(self.options):
                if o.id == choice:
                    return i
            matches = [i for i, o in enumerate(self.options) if o.label == choice]
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise UsageError(f"{len(matches)} options read `{choice}`; give its id or index instead")
        shown = ", ".join(f"`{label}`" for label in self.labels[:8]) + (", ..." if len(self.options) > 8 else "")
        raise UsageError(f"`{choice}` is not one of {player_name(self.player)}'s options: {shown}")

    def __repr__(self) -> str:
        title = f" {self.title}:" if self.title else ""
        return f"<Decision {player_name(self.player)}{title} {len(self.options)} options>"


class State:
    """A game's state at one moment: the plain data, the game it belongs to and the events
    of the decision that led here."""

    def __init__(self, game, data: dict, events: list | None = None):
        self.game = game
        self.data = data
        self.events = events or []
        self._decision: Decision | None | Literal[False] = False  # not asked yet (None: the game is over)

    # ------------------------------------------------------------- deciding
    @property
    def decision(self) -> Decision | None:
        """The decision to take now, or None when the game is over."""
        if self._decision is False:  # asked once: labels are worked out from the rules
            d = self.game.engine.decision(self.data)
            self._decision = None if d is None else Decision(d.actor, d.prompt or "", list(d.options), d)
        return self._decision

    @property
    def over(self) -> bool:
        return self.data["over"] or self.data["pending"] is None

    @property
    def step(self) -> int:
        """How many decisions were taken to reach this state."""
        return self.data["step"]

    def apply(self, choice) -> State:
        """The state after the deciding player takes `choice`: an Option, its label, id or index."""
        d = self.decision
        if d is None:
            raise UsageError("the game is over; there is nothing to choose")
        data, events = self.game.engine.apply(self.data, d.find(choice))
        return State(self.game, data, events)

    # ------------------------------------------------------------- seeing
    def view(self, player: int) -> dict:
        """What one seat (0-based) may see: the state with what is hidden from it redacted."""
        if type(player) is not int or not 0 <= player < self.data["players"]:
            raise UsageError(f"no seat {player!r}: the seats are 0 to {self.data['players'] - 1}")
        return self.game.engine.view(self.data, player)

    def text(self, player: int | None = None) -> str:
        """The state as `meeple show` prints it; with a seat, only what it sees."""
        data = self.view(player) if player is not None else self.data
        return "\n".join(state_text(self.game.rules, data, player))

    def picture(self, fmt: str = "svg", player: int | None = None):
        """The grids and path boards drawn (the `lab` extra): SVG text, or PNG bytes."""
        from meeple.display import state_picture

        return state_picture(self, fmt, player)

    # ------------------------------------------------------------- scoring
    @property
    def scores(self) -> list[dict]:
        """Per seat: {"player", "total", "breakdown"} as the score rules count now."""
        return self.game.engine.scores(self.data)

    @property
    def ranking(self) -> list[dict]:
        """Places by total and the declared tie-breaks: [{"player", "place", "total", ...}]."""
        return self.game.engine.ranking(self.data)

    @property
    def outcome(self) -> list[dict] | None:
        """Win or loss per seat for a game that declares an outcome (None otherwise)."""
        return self.game.engine.outcome(self.data)

    # ------------------------------------------------------------- data
    def copy(self) -> State:
        return State(self.game, copy_state(self.data), list(self.events))

    def to_json(self) -> str:
        return json.dumps(self.data, sort_keys=True)

    def __eq__(self, other) -> bool:  # (with no __hash__ of its own, a State is unhashable: it changes)
        return isinstance(other, State) and other.game is self.game and other.data == self.data

    def __repr__(self) -> str:
        d = self.decision
        now = "over" if d is None else f"{player_name(d.player)} to choose among {len(d.options)}"
        return f"<meeple.State {self.game.title}, step {self.step}: {now}>"

    def _repr_html_(self) -> str:
        from meeple.display import state_html

        return state_html(self)
