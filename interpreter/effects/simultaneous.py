"""Simultaneous decisions: `simultaneously for each player in LIST:` around a choice.

Every listed player chooses from what they can see, as if at the same time.
The engine still asks one player at a time, so nobody may learn anything about
an earlier choice before the reveal: the choices are kept in the state as
secrets and nothing of their bodies runs until all have chosen.

The statement compiles to two loops over the same players (dsl/compile_flow.py):

    collect:  for each player: Gather   -> ask, keep [player, found, value] in a hidden local
    reveal:   for each player: Recall   -> take the kept value, then run the whole body

The kept choices live in the frame's local `$simN` (a "$" slot, copied like a
loop's position). Views show another player's kept choice as "?"
(interpreter/state.py); a bot simulating on such a view guesses it as a legal
option at random when the reveal reaches it.
"""

from __future__ import annotations

from meeple.interpreter import rng
from meeple.interpreter.effects import actions
from meeple.interpreter.effects.choices import no_options, option_id
from meeple.interpreter.labels import lone_option
from meeple.interpreter.state import HIDDEN, SIM_PREFIX  # noqa: F401 - the compiler names kept choices with it


class Gather:
    """Ask one player of a simultaneous choice and keep the answer secret.

    `inner` is the compiled choice (a ChooseFrom or Menu) whose options are
    offered; its body does not run here. The pending decision is secret, and a
    lone option is taken without telling the others which."""

    __slots__ = ("inner", "slot", "span", "prompt", "required")
    secret = True

    def __init__(self, inner, slot: str, span, required: bool):
        self.inner, self.slot, self.span = inner, slot, span
        self.prompt = inner.prompt
        self.required = required  # a `choose` with no `otherwise`: having no option is a rules error

    @property
    def may(self):
        return self.inner.may

    def run(self, m, frame):
        options = self.inner.options(m, frame)
        who = self.inner.by(m)
        if not options:
            if self.required:
                raise no_options(m, f"nothing to choose for `{self.inner.var}`")
            self.keep(frame, who, False, None)
            return False
        if m.game.actions:
            line = self.span.line if self.span else 0
            mine = actions.offer(m, who, line)
            if mine is None:  # someone else is asked first
                return True
            options = options + mine
        if len(options) == 1 and (not self.inner.may or options[0] is None):
            if m.recording:
                m.emit(
                    "auto",
                    player=who,
                    choice=option_id(m.game, options[0]),
                    secret=True,
                    **lone_option(m, self.inner, options[0], {}),
                )
            self.keep(frame, who, True, options[0])
            return False
        pending = {"actor": who, "options": options, "line": self.span.line if self.span else 0}
        if type(self.prompt) is not str:  # a title with `{...}` parts, read where it is asked
            pending["prompt"] = self.prompt(m)
        m.state["pending"] = pending
        return True

    def take(self, m, frame, value):
        self.keep(frame, self.inner.by(m), True, value)

    def keep(self, frame, who, found: bool, value) -> None:
        kept = frame[2].get(self.slot)
        if kept is None:
            kept = frame[2][self.slot] = []
        kept.append([who, found, value])
        frame[1] += 1


class Recall:
    """At the reveal: take the kept choice of the next player and run the body with it."""

    __slots__ = ("inner", "slot", "span", "listed")

    def __init__(self, inner, slot: str, span, listed: str):
        self.inner, self.slot, self.span = inner, slot, span
        self.listed = listed  # the local holding the listed players

    @property
    def prompt(self):
        return self.inner.prompt

    def run(self, m, frame):
        kept = frame[2][self.slot]
        who, found, value = kept.pop(0)
        if not kept:
            del frame[2][self.slot]
        if found == HIDDEN:  # a bot's guess at another player's secret choice
            options = self.inner.options(m, frame)
            if not options:
                found = False
            else:
                found, value = True, options[rng.below(m.state, len(options))]
        if len(frame[2][self.listed]) > 1:  # alone, there is nothing to reveal to anyone
            m.emit("reveal", player=who)
        if not found:
            other = getattr(self.inner, "otherwise", None)
            frame[1] = other if other is not None else self.inner.end
            return False
        self.inner.take(m, frame, value)
        return False
