"""The engine: the small API every player, bot, trace and test goes through.

    engine = Engine(game)
    state, events = engine.start(players=3, seed=7)
    while (d := engine.decision(state)) is not None:
        state, events = engine.apply(state, d.options[0].id)
    engine.scores(state), engine.ranking(state)

`decision` says who decides among which options (stable ids, readable labels);
`apply` takes an option id or index and returns a new state (the old one is
untouched unless `inplace=True`) with the events it caused; `view` is what one
player may see. The engine holds no game state of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.dsl.errors import MeepleError
from meeple.interpreter import rng
from meeple.interpreter import state as st
from meeple.interpreter.effects import actions
from meeple.interpreter.effects.choices import option_id
from meeple.interpreter.game import Game
from meeple.interpreter.labels import describe, option_label, own_label
from meeple.interpreter.machine import Machine
from meeple.interpreter.scoring import MAX_POINTS, RULE_FAILURES, Scoring  # noqa: F401 (MAX_POINTS, RULE_FAILURES: here too)
from meeple.interpreter.work import WORK_LIMIT

# `apply(..., events=False)` and the scores reuse the engine's quiet machines instead of
# building one per call (simulations and bots call them millions of times); tests turn it
# off to play the same games with a new machine each time.
REUSE = True
# `start` keeps the state (and events) its setup reached when the setup drew nothing at
# random: that state is the same for every seed but for the generator's own, so later
# starts with that player count copy it instead of running the setup again (simulations
# start thousands of games). Tests turn it off to run every setup.
START_ONCE = True


@dataclass(frozen=True)
class Option:
    id: str
    label: str
    value: object


@dataclass(frozen=True)
class Decision:
    actor: int
    options: list
    prompt: str
    undoable: bool = False
    line: int = 0
    secret: bool = False  # `secret choose`: the others must not learn the chosen option
    requests: list = field(default_factory=list)  # `on request` actions the actor may ask for (Options)
    # An interrupting action offered to this seat alone ("act now?"): the others must not
    # learn that it was asked, nor that it passed (being asked tells what it holds in secret).
    private: bool = False

    def index_of(self, option_id: str) -> int:
        for i, o in enumerate(self.options):
            if o.id == option_id:
                return i
        raise KeyError(option_id)


class Engine(Scoring):
    def __init__(self, game: Game):
        self.game = game
        # Quiet machines not in use (REUSE). Taken with pop() and given back with append(), each
        # one atomic, so bots of two tables thinking in two threads never share one.
        self._spare: list = []

    def quiet_machine(self, state: dict) -> Machine:
        """A machine on `state` that keeps no events (give it back with `spare` when done)."""
        try:
            m = self._spare.pop()
        except IndexError:
            return Machine(self.game, state, quiet=True)
        m.state = state
        m.owned = set()  # a zone this machine copied for an earlier state is not this state's
        m.work = WORK_LIMIT  # a fresh allowance (work.py): a machine scoring again and again must not run dry
        if m.kept:  # masks kept for another state, or for this one before a caller changed it
            m.kept.clear()
        return m

    def spare(self, m: Machine) -> None:
        if REUSE:
            self._spare.append(m)

    # ------------------------------------------------------------- lifecycle
    def start(self, players: int, seed: int, events: bool = True, draws: list | None = None) -> tuple[dict, list]:
        """The state after setup, and the setup's events (`events=False`: none, for simulations
        that keep no trace; a kept start's events are then not copied). `draws`: the outcomes of
        setup's draws, given from outside (rng.GIVEN; rng.NeedDraw when they run out)."""
        g = self.game
        if not g.min_players <= players <= g.max_players:
            raise ValueError(f"{g.title} is for {g.min_players}-{g.max_players} players, not {players}")
        if START_ONCE:
            kept = g.cache.get(("started", players))
            if kept is not None:
                state = st.copy_state(kept[0])
                state["rng"] = rng.seed_state(seed)
                return state, st.copy_data(kept[1]) if events else []
        state = st.initial_state(g, players, seed)
        before = state["rng"]
        if draws is not None:
            state[rng.GIVEN] = list(draws)
        m = Machine(g, state)
        m.run()
        state.pop(rng.GIVEN, None)
        # The generator untouched, nothing in the state depended on the seed (the rules read
        # randomness only through it), so the state is the one every seed reaches.
        if START_ONCE and state["rng"] == before:
            g.cache[("started", players)] = (st.copy_state(state), st.copy_data(m.events))
        return state, m.events if events else []

    def is_terminal(self, state: dict) -> bool:
        return state["over"]

    # ------------------------------------------------------------- decisions
    def pending_op(self, state: dict):
        frame = state["stack"][-1]
        return self.game.blocks[frame[0]].ops[frame[1]]

    def decision(self, state: dict) -> Decision | None:
        pending = state["pending"]
        if state["over"] or pending is None:
            return None
        op = self.pending_op(state)
        values = pending["options"]
        if getattr(op, "label", None) is not None:
            labels = self.choice_labels(state, op, values)
            options = [Option(option_id(self.game, v), lab, v) for v, lab in zip(values, labels)]
        else:
            titled = getattr(op, "titled", False)
            options = [Option(option_id(self.game, v), self.label(v, pending, titled), v) for v in values]
        prompt = pending.get("prompt") or getattr(op, "prompt", "")
        return Decision(
            pending["actor"],
            options,
            prompt,
            bool(pending.get("undoable")),
            pending.get("line", 0),
            pending.get("secret", getattr(op, "secret", False)),
            self.requests(state),
            bool(pending.get("interrupt")),
        )

    def requests(self, state: dict) -> list:
        """The `on request` actions the deciding player may ask for now, as Options."""
        if not actions.request_actions(self.game) or state["pending"] is None or state["pending"].get("interrupt"):
            return []
        m = Machine(self.game, state)
        return [
            Option(f"{actions.ACT}:{a.name}", a.title, {actions.ACT: a.name})
            for a in actions.requests(m, state["pending"]["actor"])
        ]

    def option_count(self, state: dict) -> int:
        pending = state["pending"]
        return 0 if pending is None or state["over"] else len(pending["options"])

    def apply(self, state: dict, choice, inplace: bool = False, events: bool = True) -> tuple[dict, list]:
        """Take an option (its id, or its index) and run to the next decision.

        `inplace` changes `state` itself; `events=False` skips building events
        (for simulations that keep no trace)."""
        pending = state["pending"]
        if state["over"] or pending is None:
            raise ValueError("the game is over; there is nothing to choose")
        values = pending["options"]
        if type(choice) is int:  # an index (a bool is not one)
            if not 0 <= choice < len(values):
                raise ValueError(f"option {choice} does not exist (there are {len(values)})")
            value = values[choice]
        else:
            for value in values:
                if option_id(self.game, value) == choice:
                    break
            else:
                value = next((o.value for o in self.requests(state) if o.id == choice), None)
                if value is None:
                    raise ValueError(f"`{choice}` is not one of the options")
        s = state if inplace else st.fork(state)
        s["pending"] = None
        s["step"] += 1
        m = Machine(self.game, s) if events else self.quiet_machine(s)
        frame = s["stack"][-1]
        m.env = frame[2]
        op = self.game.blocks[frame[0]].ops[frame[1]]
        try:
            if type(value) is dict and actions.ACT in value or pending.get("interrupt"):  # an action at any time
                actions.take(m, pending, value)
            else:
                op.take(m, frame, value)
        except MeepleError as exc:
            raise m.locate(exc, op, frame) from None
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise m.rule_error(str(exc), op, frame) from None
        m.run()
        if events:
            return s, m.events
        if REUSE:  # given back in place (not through `spare`): one call less a decision
            self._spare.append(m)
        return s, []

    # ------------------------------------------------------------- views
    def view(self, state: dict, player) -> dict:
        return st.view(self.game, state, player)

    # ------------------------------------------------------------- outcome
    def outcome(self, state: dict, scores: list | None = None) -> list[dict] | None:
        """How the game ended for each player, for a game with an `outcome` that applies:
        [{"player", "win", "text"}]; None when the game declares none (then the ranking says)."""
        g = self.game
        if not g.outcomes:
            return None
        m = Machine(g, state)
        try:
            for chosen in g.outcomes:  # the one being tried is named in an error its guard raises
                if chosen.guard is None or chosen.guard(m):
                    break
            else:
                return None
            out = []
            scores = scores or self.scores(state)
            places = {r["player"]: r["place"] for r in self.ranking(state, scores)}
            for s in scores:
                m.env = {"player": s["player"], "score": s["total"], "place": places[s["player"]]}
                entry = next(e for e in chosen.entries if e.guard is None or e.guard(m))
                text = entry.text if type(entry.text) is str else entry.text(m)
                out.append({"player": s["player"], "win": entry.win, "text": text})
            return out
        except MeepleError as exc:
            raise exc.located(g.path, g.source) from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise MeepleError(f"in the outcome: {exc}", chosen.span).located(g.path, g.source) from None

    # ------------------------------------------------------------- labels
    def choice_labels(self, state: dict, op, values: list) -> list[str]:
        """Options read through the choice's own `label` text, the option bound to its name."""
        m = Machine(self.game, state)
        m.env = dict(state["stack"][-1][2])
        try:
            return [own_label(m, op, v) for v in values]
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            raise MeepleError(f"in the label of `{op.var}`: {exc}", op.span).located(
                self.game.path, self.game.source
            ) from None

    def label(self, value, pending=None, titled=False) -> str:
        return option_label(self.game, value, pending, titled)

    def describe(self, value) -> str:
        return describe(self.game, value)
