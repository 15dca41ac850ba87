"""An OpenSpiel game for any ruleset (the `research` extra): OpenSpiel's algorithms on Meeple games.

    import pyspiel
    from meeple import openspiel
    game = openspiel.load("tic_tac_toe")     # or pyspiel.load_game("meeple", {"ruleset": "tic_tac_toe"})
    state = game.new_initial_state()

Importing this module registers one Python game, "meeple", whose parameters name the ruleset
(a shipped name or a .rules path) and fix the rest: players, options ("name:value;...") and
variants ("a;b": OpenSpiel's game strings already use "=" and ","), action_count (0: probed,
see meeple.encoding), seed and seeds.

Randomness: the engine draws from an RNG kept in its state, deep inside its effects, so single
draws cannot be chance nodes without changing the engine. What OpenSpiel gets instead is one chance
node at the start that picks the game's seed, `seed + k` for k uniform in 0..seeds-1: an explicit
chance outcome that fixes every later draw. With seeds=1 (the default) there is no chance node and
a game is deterministic given its seed parameter. Either way a state holds its future draws, so
an algorithm that searches cloned states (MCTS) knows them: fine for a demonstration or a
perfect-information game, not a fair player of a game with hidden draws.

Observations come from the seat's view (engine.view) only: the observation string is that view as
JSON, the tensor meeple.encoding's vector; the information state string adds the seat's record of
every decision so far as the seat saw it (a chosen option it may not see reads "?"). A public
observation (OpenSpiel's private_info NONE) is the view of an onlooker who sees public zones only.
"""
from __future__ import annotations

import json
from collections import Counter

from meeple.interpreter.extras import need

need("research", "meeple.openspiel", "numpy", "pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from meeple import encoding  # noqa: E402
from meeple.interpreter.effects.choices import option_id  # noqa: E402
from meeple.interpreter.runner import seen_by  # noqa: E402
from meeple.interpreter.state import copy_state  # noqa: E402

NAME = "meeple"
MAX_LENGTH = 100_000  # decisions: the runner's bound on a whole game
PARAMETERS = {"ruleset": "tic_tac_toe", "players": 0, "options": "", "variants": "", "action_count": 0,
              "seed": 0, "seeds": 1}
_T = pyspiel.GameType


def load(game, players: int = 0, options: dict | None = None, variants: list | None = None,
         action_count: int = 0, seed: int = 0, seeds: int = 1) -> "MeepleGame":
    """The OpenSpiel game of a meeple.Game, a shipped ruleset's name or a .rules path (players 0:
    the default count, 2 or the nearest the ruleset allows)."""
    import meeple

    if isinstance(game, meeple.Game):
        options, variants = game.options, game.variants
        players, game = players or game.players, game.ruleset
    params = {"ruleset": str(game), "players": players, "action_count": action_count, "seed": seed, "seeds": seeds,
              "options": ";".join(f"{k}:{v}" for k, v in (options or {}).items()),
              "variants": ";".join(variants or [])}
    return pyspiel.load_game(NAME, params)


def _game_type(min_players: int = 1, max_players: int = 10, chance=_T.ChanceMode.EXPLICIT_STOCHASTIC,
               information=_T.Information.IMPERFECT_INFORMATION, utility=_T.Utility.GENERAL_SUM) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=NAME, long_name="Meeple ruleset", dynamics=_T.Dynamics.SEQUENTIAL, chance_mode=chance,
        information=information, utility=utility, reward_model=_T.RewardModel.TERMINAL,
        max_num_players=max_players, min_num_players=min_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMETERS)


def _pairs(text: str) -> dict:
    return dict(p.split(":", 1) for p in text.split(";") if p.strip()) if text else {}


class MeepleGame(pyspiel.Game):
    def __init__(self, params=None):
        p = dict(PARAMETERS, **(params or {}))
        options = {k.strip(): v.strip() for k, v in _pairs(p["options"]).items()}
        variants = [v.strip() for v in p["variants"].split(";") if v.strip()]
        self.table = encoding.table(p["ruleset"], p["players"] or None, options, variants)
        self.engine, n = self.table.engine, self.table.players
        g = self.engine.game
        self.players, self.seed, self.seeds = n, p["seed"], max(1, p["seeds"])
        self.action_count = p["action_count"] or encoding.probe_action_count(self.engine, n)
        self.encoder = encoding.ViewEncoder(self.engine, n, self.action_count)
        self.start, _ = self.engine.start(n, self.seed)
        perfect = (not any(z.visibility != "public" for z in g.zones.values())
                   and not any(c.secret for c in g.counters.values()) and not self.start["zones"].get("box"))
        game_type = _game_type(
            n, n, _T.ChanceMode.EXPLICIT_STOCHASTIC if self.seeds > 1 else _T.ChanceMode.DETERMINISTIC,
            _T.Information.PERFECT_INFORMATION if perfect else _T.Information.IMPERFECT_INFORMATION,
            _T.Utility.ZERO_SUM if n > 1 and not g.outcomes else _T.Utility.GENERAL_SUM)
        info = pyspiel.GameInfo(num_distinct_actions=self.action_count,
                                max_chance_outcomes=self.seeds if self.seeds > 1 else 0, num_players=n,
                                min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0 if n > 1 and not g.outcomes else None,
                                max_game_length=MAX_LENGTH)
        super().__init__(game_type, info, p)

    def __deepcopy__(self, memo):
        return self  # compiled and frozen: states share it

    def new_initial_state(self):
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeepleObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class MeepleState(pyspiel.State):
    """An OpenSpiel state around the engine's state (plain data) and each seat's record."""

    def __init__(self, game: MeepleGame):
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying its attributes: the game copies as
        # itself, the engine's state with the engine's own copy (see _Plain).
        self.meeple = game
        self._plain = _Plain(None if game.seeds > 1 else copy_state(game.start))
        self.seen = [[] for _ in range(game.players)]  # per seat: each decision as it saw it

    @property
    def data(self) -> dict | None:
        """The engine's state; None until the chance node picks the seed."""
        return self._plain.state

    @data.setter
    def data(self, value):
        self._plain.state, self._plain.decision, self._plain.names = value, None, None

    def decision(self):
        """The engine's pending decision with its labels (made once per state: labels cost)."""
        if self._plain.decision is None:
            self._plain.decision = self.meeple.engine.decision(self.data)
        return self._plain.decision

    # ------------------------------------------------------------- whose move
    def current_player(self):
        if self.data is None:
            return pyspiel.PlayerId.CHANCE
        if self.meeple.engine.option_count(self.data) == 0:
            return pyspiel.PlayerId.TERMINAL
        return self.data["pending"]["actor"]

    def is_terminal(self):
        return self.data is not None and self.meeple.engine.option_count(self.data) == 0

    def chance_outcomes(self):
        k = self.meeple.seeds
        return [(i, 1.0 / k) for i in range(k)]

    def _legal_actions(self, player):
        return encoding.legal_actions(self.meeple.engine, self.data, self.meeple.action_count)

    def _apply_action(self, action):
        g = self.meeple
        if self.data is None:
            if not (type(action) is int and 0 <= action < g.seeds):
                raise pyspiel.SpielError(f"chance outcome {action!r} does not exist: the outcomes are 0 to {g.seeds - 1}")
            self.data, _ = g.engine.start(g.players, g.seed + action)
            return
        engine, data = g.engine, self.data
        legal = min(engine.option_count(data), g.action_count)
        if not (type(action) is int and 0 <= action < legal):
            raise pyspiel.SpielError(f"action {action!r} is not legal now: the legal actions are 0 to {legal - 1}")
        # What each seat is told of this choice (as the runner judges it for per-player traces):
        # read off the pending options, without making every option's label.
        pending = data["pending"]
        value = pending["options"][action]
        secret = pending.get("secret", getattr(engine.pending_op(data), "secret", False))
        who = [pending["actor"]] if secret else seen_by(engine.game, data, value, g.players)
        told = f"P{pending['actor'] + 1}: {option_id(engine.game, value)}"
        # Applied first: a choice the engine refuses leaves the state and every seat's record as they were.
        self.data = g.engine.apply(self.data, action, inplace=False, events=False)[0]
        for seat, record in enumerate(self.seen):
            record.append(told if who is None or seat in who else f"P{pending['actor'] + 1}: ?")

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {self.meeple.seed + action}"
        d = self.decision()
        if d is None or action >= len(d.options):
            return f"option {action}"
        if self._plain.names is None:
            self._plain.names = action_names(d)
        return self._plain.names[action]

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.meeple.players
        return encoding.rewards(self.meeple.engine, self.data)

    def __str__(self):
        return "" if self.data is None else json.dumps(self.data, sort_keys=True, separators=(",", ":"))


def action_names(d) -> list[str]:
    """The options' labels, made distinct as OpenSpiel wants: a label two options share gets the
    option's id, and an id two share (it happens with identical components) its position."""
    labels = Counter(o.label for o in d.options)
    names = [o.label if labels[o.label] == 1 else f"{o.label} ({o.id})" for o in d.options]
    twice = Counter(names)
    return [n if twice[n] == 1 else f"{n} #{i + 1}" for i, n in enumerate(names)]


class _Plain:
    """Holds the engine's state; a deep copy is the engine's copy (cheap: it shares what never changes)."""

    __slots__ = ("state", "decision", "names")

    def __init__(self, state: dict | None):
        self.state, self.decision, self.names = state, None, None

    def __deepcopy__(self, memo):
        return _Plain(None if self.state is None else copy_state(self.state))


class MeepleObserver:
    """OpenSpiel's observer interface: a seat's view as a tensor and as text."""

    def __init__(self, game: MeepleGame, iig_obs_type):
        self.game = game
        self.recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: MeepleState, player: int):
        if state.data is None:
            return None
        return self.game.engine.view(state.data, None if self.public else player)

    def set_from(self, state: MeepleState, player: int):
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0)
            self.tensor[player] = 1
        else:
            self.tensor[:] = self.game.encoder.encode(view, player)

    def string_from(self, state: MeepleState, player: int) -> str:
        text = json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))
        if self.recall:
            return f"P{player + 1} saw {' | '.join(state.seen[player])}\n{text}"
        return text


pyspiel.register_game(_game_type(), MeepleGame)
