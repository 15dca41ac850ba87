"""Traces for a library user: every decision and event of a played game, to save, read,
print, replay (checking every line) and step through.

    result = game.play(agents=["greedy"], seed=3)
    result.trace.save("game.jsonl")
    trace = meeple.read_trace("game.jsonl")
    final = trace.replay()          # a State; TraceError names the first line that differs
    middle = trace.at(5)            # the State after decision 5
"""
from __future__ import annotations

from meeple import checks
from meeple.interpreter import loader, show, trace as traces
from meeple.interpreter.trace import TraceError

__all__ = ["Trace", "TraceError", "read_trace"]


class Trace:
    """A game's trace: a header (game, options, seed, players, agents), the setup, one line per
    decision and the end. Made by `game.play`, or read from a file."""

    def __init__(self, lines: list[dict] | None = None, text: str | None = None):
        self._lines, self._text = lines, text

    @classmethod
    def parse(cls, text: str, name: str = "trace") -> "Trace":
        """A trace from its JSON lines (checked; TraceError names a bad line)."""
        return cls(traces.parse(text, name), text)

    @property
    def lines(self) -> list[dict]:
        """Every line as a dict, checked and numbered (as `meeple replay` reads them)."""
        if self._lines is None or "_line" not in self._lines[0]:
            self._lines = traces.parse(self.jsonl())
        return self._lines

    @property
    def header(self) -> dict:
        return dict(self.lines[0])

    @property
    def decisions(self) -> int:
        return sum(1 for line in self.lines if "step" in line)

    def jsonl(self) -> str:
        """The trace as JSON lines, what `save` writes and `meeple replay` reads."""
        if self._text is None:
            writer = traces.TraceWriter({})
            writer.lines = [{k: v for k, v in line.items() if k not in ("chain", "_line")} for line in self._lines]
            self._text = writer.jsonl()
        return self._text

    def save(self, path) -> None:
        """Write the trace to `path` (refusing to overwrite a ruleset or a data file)."""
        from meeple.interpreter import outputs
        outputs.write_text(path, self.jsonl())

    def game(self):
        """The Game the trace was played with (its ruleset, options, variants and players)."""
        from meeple.game import Game
        head = self.lines[0]
        return Game(loader.trace_loader(head), head["players"], head.get("ruleset", ""))

    def replay(self):
        """Play the trace again, checking every line; the final State (TraceError at the first difference)."""
        from meeple.state import State
        game = self.game()
        return State(game, traces.replay(self.lines, lambda head: game.engine))

    def at(self, step: int):
        """The State after decision `step` (0: right after setup), replayed and checked."""
        from meeple.dsl.compiler import UsageError
        from meeple.state import State
        game = self.game()
        try:
            snap = show.replay_to(self.lines, lambda head: game.engine, step)
        except show.StepError as exc:
            raise UsageError(str(exc).replace("--step", "step")) from None
        return State(game, snap.state, snap.taken["events"] if snap.taken else snap.setup)

    def text(self, player: int | None = None) -> str:
        """The trace as people read it (the snapshot tests' form); with a seat, what it saw."""
        return traces.render(self.game().rules, self.lines, player)

    def __repr__(self) -> str:
        head = self.lines[0]
        return (f"<meeple.Trace {head['game']}: seed {head['seed']}, {head['players']} players, "
                f"{self.decisions} decisions>")


def read_trace(path) -> Trace:
    """A trace file written by `trace.save` or `meeple run --trace` (TraceError if damaged)."""
    return Trace(traces.read(checks.path(path)))
