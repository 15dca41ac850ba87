"""A game as a library sees it: `meeple.load(...)` returns a Game, the compiled ruleset with
its engine, from which states start and whole games are played.

    game = meeple.load("tic_tac_toe")
    state = game.start(seed=7)
    result = game.play(agents=["greedy", "random"], seed=7)

A game's trace comes with it: every decision and event of a played game, to save, read, print,
replay (checking every line) and step through.

    result.trace.save("game.jsonl")
    trace = meeple.read_trace("game.jsonl")
    final = trace.replay()          # a State; TraceError names the first line that differs
    middle = trace.at(5)            # the State after decision 5

Game and Trace live together because each makes the other: a game's play gives a trace, and a
trace names the game it replays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple import checks
from meeple.dsl.compiler import UsageError, find_ruleset, shipped_rulesets
from meeple.interpreter import loader, outputs, runner, show
from meeple.interpreter import trace as traces
from meeple.interpreter.engine import Engine
from meeple.interpreter.render import outcome_text, score_table
from meeple.interpreter.trace import TraceError
from meeple.state import State

__all__ = ["Game", "Result", "Trace", "TraceError", "load", "read_trace", "rulesets"]


def load(name_or_path, options: dict | None = None, variants: list | None = None, players: int | None = None) -> Game:
    """A shipped ruleset by name (`"queens_wishes"`) or a .rules file by path, compiled with these
    options (NAME -> value) and variants; `players` is the table's size (default: 2, or the
    nearest count the game allows). Bad input raises UsageError or MeepleError."""
    ref = str(checks.path(name_or_path, "the game (a ruleset's name or a .rules path)"))
    engine = loader.load(ref, checks.options(options), checks.variants(variants))
    return Game(engine, loader.player_count(engine, players), loader.ruleset_ref(ref))


def rulesets() -> list[str]:
    """The names of the shipped rulesets, for `load`."""
    return list(shipped_rulesets())


@dataclass
class Result:
    """A whole game played by agents: the final state, scores, ranking, outcome and trace."""

    state: State
    scores: list
    ranking: list
    outcome: list | None
    decisions: int
    agents: list
    trace: Trace = field(repr=False)

    @property
    def winners(self) -> list[int]:
        """The seats (0-based) in first place (a declared outcome's winners when the game has one)."""
        if self.outcome is not None:
            return [o["player"] for o in self.outcome if o["win"]]
        return [r["player"] for r in self.ranking if r["place"] == 1]

    def table(self) -> str:
        """The score table as `meeple run` prints it."""
        lines = score_table(self.scores, self.ranking, self.agents, self.outcome)
        lines += [outcome_text(o, len(self.scores)) for o in self.outcome or []]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        return self.state._repr_html_()


class Game:
    """A compiled ruleset and its engine, for a table of `players` seats."""

    def __init__(self, engine: Engine, players: int, ruleset: str = ""):
        self.engine = engine
        self.players = players
        self.ruleset = ruleset  # how traces name it: a shipped name or an absolute path

    # ------------------------------------------------------------- what it is
    @property
    def rules(self):
        """The compiled ruleset (meeple.interpreter.game.Game): phases, components, zones."""
        return self.engine.game

    @property
    def title(self) -> str:
        return self.engine.game.title

    @property
    def options(self) -> dict:
        """The options in force, NAME -> value."""
        return dict(self.engine.game.options)

    @property
    def option_choices(self) -> dict:
        """Every option the ruleset declares: NAME -> the values it allows."""
        return {k: list(v) for k, (v, _) in self.engine.game.option_choices.items()}

    @property
    def variants(self) -> list:
        """The variants in force."""
        return list(self.engine.game.variants)

    @property
    def player_range(self) -> tuple[int, int]:
        return self.engine.game.min_players, self.engine.game.max_players

    @property
    def path(self):
        """The .rules file."""
        return find_ruleset(self.ruleset) if self.ruleset else self.engine.game.path

    def with_players(self, players: int) -> Game:
        """The same rules for another number of players."""
        return Game(self.engine, loader.player_count(self.engine, players), self.ruleset)

    # ------------------------------------------------------------- playing
    def start(self, seed: int = 1) -> State:
        """The state after setup, at the first decision, for this seed."""
        data, events = self.engine.start(self.players, checks.seed(seed))
        return State(self, data, events)

    def state(self, data: dict) -> State:
        """A State around plain state data (e.g. `json.loads` of `state.to_json()`)."""
        return State(self, data, [])

    def play(self, agents=("random",), seed: int = 1, strict: bool = False, seconds: float | None = None) -> Result:
        """Agents play one whole game; one agent (name or meeple.agent(...)) per seat, a short
        list repeats its last. `strict` checks that every component stays in one place."""
        from meeple.agents import Agent

        seed, seconds = checks.seed(seed), checks.seconds(seconds)
        if not isinstance(agents, (str, Agent, list, tuple)):
            raise checks.WrongType(
                f"agents must be an agent's name, a meeple.agent(...) or a list of them; not {agents!r}"
            )
        given = [agents] if isinstance(agents, str) or isinstance(agents, Agent) else list(agents) or ["random"]
        seats = (given + [given[-1]] * self.players)[: self.players]  # a short list repeats its last
        for seat, a in enumerate(seats):
            if isinstance(a, Agent) and a.seat != seat:
                raise UsageError(f"the {a.name} agent was made for seat {a.seat}, but it would play in seat {seat}")
        names = [a.bot if isinstance(a, Agent) else a for a in seats]
        r = runner.play(self.engine, self.players, seed, names, self.ruleset, strict=strict, seconds=seconds)
        return Result(
            State(self, r.state, []),
            r.scores,
            r.ranking,
            r.outcome,
            r.decisions,
            r.trace.lines[0]["agents"],
            Trace(r.trace.lines),
        )

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v}" for k, v in self.options.items())
        return f"<meeple.Game {self.title}: {self.players} players{opts}{''.join(', +' + v for v in self.variants)}>"

    def _repr_html_(self) -> str:
        from meeple.display import game_html

        return game_html(self)


class Trace:
    """A game's trace: a header (game, options, seed, players, agents), the setup, one line per
    decision and the end. Made by `game.play`, or read from a file."""

    def __init__(self, lines: list[dict] | None = None, text: str | None = None):
        self._lines, self._text = lines, text

    @classmethod
    def parse(cls, text: str, name: str = "trace") -> Trace:
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
            assert self._lines is not None  # a trace is made from its lines or its text
            writer = traces.TraceWriter({})
            writer.lines = [{k: v for k, v in line.items() if k not in ("chain", "_line")} for line in self._lines]
            self._text = writer.jsonl()
        return self._text

    def save(self, path) -> None:
        """Write the trace to `path` (refusing to overwrite a ruleset or a data file)."""
        outputs.write_text(path, self.jsonl())

    def game(self):
        """The Game the trace was played with (its ruleset, options, variants and players)."""
        head = self.lines[0]
        return Game(loader.trace_loader(head), head["players"], head.get("ruleset", ""))

    def replay(self):
        """Play the trace again, checking every line; the final State (TraceError at the first difference)."""
        game = self.game()
        return State(game, traces.replay(self.lines, lambda head: game.engine))

    def at(self, step: int):
        """The State after decision `step` (0: right after setup), replayed and checked."""
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
        return (
            f"<meeple.Trace {head['game']}: seed {head['seed']}, {head['players']} players, {self.decisions} decisions>"
        )


def read_trace(path) -> Trace:
    """A trace file written by `trace.save` or `meeple run --trace` (TraceError if damaged)."""
    return Trace(traces.read(checks.path(path)))
