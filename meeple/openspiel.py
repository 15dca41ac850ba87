"""An OpenSpiel game for any ruleset (the `research` extra): OpenSpiel's algorithms on Meeple games.

    import pyspiel
    from meeple import openspiel
    game = openspiel.load("tic_tac_toe")     # or pyspiel.load_game("meeple", {"ruleset": "tic_tac_toe"})
    state = game.new_initial_state()

Importing this module registers one Python game, "meeple", whose parameters name the ruleset
(a shipped name or a .rules path) and fix the rest: players, options ("name:value;...") and
variants ("a;b": OpenSpiel's game strings already use "=" and ","), actions ("rules", the
default: meeple.spaces's fixed space, a set picked one item at a time by the same player;
"options": indices into each decision's options), action_count (with "options"; 0: probed, see
meeple.encoding), seed and seeds.

Chance (`chance`): with "draws" (the default) every random draw of the engine (a bag draw, each
step of a shuffle, a die) is an explicit chance node with its equally likely outcomes: the engine
takes its draws from outside (interpreter/rng.py, GIVEN), and a step that needs one more is re-run
with it (the engine is deterministic). A cloned state then holds no future draw, so a search over
clones (MCTS, CFR) meets chance where it happens. With "seed" the engine draws from its own RNG:
one chance node at the start picks the game's seed, `seed + k` for k uniform in 0..seeds-1
(seeds=1: no chance node; the game is deterministic given `seed`).

Returns (`returns`): "outcome" (the default) is meeple.encoding's (+1/-1 from a declared outcome
or the ranking); "score" is each seat's total minus the table's mean (zero-sum: in a game that scores a seat's
chips, what it gained). `max_game_length` (decisions; chance not counted): 0 asks the
engine for the longest game found by searching every decision and draw within a budget of states
(meeple.bounds), else the runner's bound.

Observations come from the seat's view (engine.view) only: the observation string is that view as
JSON, the tensor meeple.tensors's (with actions="options", meeple.encoding's vector); the information state string adds the seat's record of
every decision so far as the seat saw it (a chosen option it may not see reads "?"). A public
observation (OpenSpiel's private_info NONE) is the view of an onlooker who sees public zones only.

This module is the game (its parameters, what is made once per process, the registration); the
state is meeple.openspiel_state's MeepleState, its records (undo, resampling) meeple.openspiel_recall's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from meeple.interpreter.extras import need

need("research", "meeple.openspiel", "numpy", "pyspiel")

import pyspiel  # noqa: E402

from meeple import chance as draws  # noqa: E402
from meeple import encoding, spaces  # noqa: E402
from meeple.dsl.compiler import UsageError  # noqa: E402
from meeple.infostate import InfoStateLayout, MeepleObserver  # noqa: E402
from meeple.openspiel_recall import _Plain  # noqa: E402, F401  (states pickled before it moved there)
from meeple.openspiel_state import MeepleState  # noqa: E402
from meeple.tensors import TensorEncoder  # noqa: E402

NAME = "meeple"
MAX_LENGTH = 100_000  # decisions: the runner's bound on a whole game
PARAMETERS = {
    "ruleset": "tic_tac_toe",
    "players": 0,
    "options": "",
    "variants": "",
    "action_count": 0,
    "seed": 0,
    "seeds": 1,
    "chance": "draws",
    "returns": "outcome",
    "max_game_length": 0,
    "actions": "rules",
}
CHANCE = ("draws", "seed")
ACTIONS = ("rules", "options")
RETURNS = ("outcome", "score")
_T = pyspiel.GameType


def load(
    game,
    players: int = 0,
    options: dict | None = None,
    variants: list | None = None,
    action_count: int = 0,
    seed: int = 0,
    seeds: int = 1,
    chance: str = "draws",
    returns: str = "outcome",
    max_game_length: int = 0,
    actions: str = "rules",
) -> MeepleGame:
    """The OpenSpiel game of a meeple.Game, a shipped ruleset's name or a .rules path (players 0:
    the default count, 2 or the nearest the ruleset allows)."""
    import meeple

    if isinstance(game, meeple.Game):
        options, variants = game.options, game.variants
        players, game = players or game.players, game.ruleset
    params = {
        "ruleset": str(game),
        "players": players,
        "action_count": action_count,
        "seed": seed,
        "seeds": seeds,
        "chance": chance,
        "returns": returns,
        "max_game_length": max_game_length,
        "actions": actions,
        "options": ";".join(f"{k}:{v}" for k, v in (options or {}).items()),
        "variants": ";".join(variants or []),
    }
    return pyspiel.load_game(NAME, params)


def _game_type(
    min_players: int = 1,
    max_players: int = 10,
    chance=_T.ChanceMode.EXPLICIT_STOCHASTIC,
    information=_T.Information.IMPERFECT_INFORMATION,
    utility=_T.Utility.GENERAL_SUM,
    info_tensor: bool = False,
) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=NAME,
        long_name="Meeple ruleset",
        dynamics=_T.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=_T.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


def _pairs(text: str) -> dict:
    return dict(p.split(":", 1) for p in text.split(";") if p.strip()) if text else {}


def _made(p: dict, options: dict, variants: list) -> tuple:
    """The loaded game, its action space, action count and encoder for these parameters, made
    once per process: OpenSpiel makes the game again for every state it deserializes
    (random_sim_test(serialize=True) does it at every step). A .rules file is made again once
    it changes."""
    path = Path(str(p["ruleset"]))
    stamp = (path.stat().st_mtime_ns, path.stat().st_size) if path.is_file() else None
    key = (
        str(p["ruleset"]),
        stamp,
        p["players"],
        tuple(sorted(options.items())),
        tuple(variants),
        p["actions"],
        p["action_count"],
    )
    made = _MADE.get(key)
    if made is None:
        _LONGEST.pop(key, None)
        table = encoding.table(p["ruleset"], p["players"] or None, options, variants)
        engine, n = table.engine, table.players
        # The action space: the rules' (meeple.spaces), or indices into each decision's options.
        space = spaces.ActionSpace(engine.game, n) if p["actions"] == "rules" else None
        count = space.size if space else (p["action_count"] or encoding.probe_action_count(engine, n))
        encoder = TensorEncoder(engine, n, space) if space else encoding.ViewEncoder(engine, n, count)
        made = _MADE[key] = (table, space, count, encoder, key)
    return made


_MADE: dict = {}
_LONGEST: dict = {}  # the key of _MADE -> the longest game the engine found (None: no bound found)


def _longest(key, engine, players: int) -> int | None:
    """meeple.chance.longest_game, searched once per process for a game's parameters."""
    if key not in _LONGEST:
        _LONGEST[key] = draws.longest_game(engine, players)
    return _LONGEST[key]


class MeepleGame(pyspiel.Game):
    def __init__(self, params=None):
        p = dict(PARAMETERS, **(params or {}))
        options = {k.strip(): v.strip() for k, v in _pairs(p["options"]).items()}
        variants = [v.strip() for v in p["variants"].split(";") if v.strip()]
        for name, allowed in (("chance", CHANCE), ("returns", RETURNS), ("actions", ACTIONS)):
            if p[name] not in allowed:
                raise UsageError(f"{name}={p[name]!r}: it is one of {', '.join(allowed)}")
        self.table, self.space, self.action_count, self.encoder, self._key = _made(p, options, variants)
        self.engine, n = self.table.engine, self.table.players
        g = self.engine.game
        self.players, self.seed, self.seeds = n, p["seed"], max(1, p["seeds"])
        self.by_seed = p["chance"] == "seed"
        self.score_returns = p["returns"] == "score"
        # Without draws a step runs in place; with them on a copy (a step may be run again).
        self.draws = not self.by_seed and draws.may_draw(self.engine)
        self.named = bool(g.components)  # whether an option can name a component (seen_by)
        self.secret_ops = any(getattr(op, "secret", False) for b in g.blocks for op in b.ops)  # a secret choice
        self.declared_length = p["max_game_length"]
        self.start, _ = self.engine.start(n, self.seed)
        perfect = (
            not any(z.visibility != "public" for z in g.zones.values())
            and not any(c.secret for c in g.counters.values())
            and not self.start["zones"].get("box")
        )
        # The information state tensor (meeple.infostate): a game of imperfect information whose
        # length is bounded (the bound searched for here, once per process for these parameters).
        self.info_length = None if perfect else self.declared_length or _longest(self._key, self.engine, n)
        self.info_layout = InfoStateLayout.of(self.encoder.size, n, self.action_count, self.info_length, perfect)
        stochastic = self.draws or (self.by_seed and self.seeds > 1)
        game_type = _game_type(
            n,
            n,
            _T.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else _T.ChanceMode.DETERMINISTIC,
            _T.Information.PERFECT_INFORMATION if perfect else _T.Information.IMPERFECT_INFORMATION,
            _T.Utility.ZERO_SUM if n > 1 and (self.score_returns or not g.outcomes) else _T.Utility.GENERAL_SUM,
            self.info_layout is not None,
        )
        # A draw is among a zone's components (a bag, a shuffle) or a die's faces: as many as the
        # game has components, or the faces of the largest die seen while searching for the bound.
        most = len(g.components) if self.draws else self.seeds if self.by_seed and self.seeds > 1 else 0
        bound = float(sys.float_info.max) if self.score_returns else 1.0  # scores have no declared bound
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_count,
            max_chance_outcomes=most,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if n > 1 and (self.score_returns or not g.outcomes) else None,
            max_game_length=self.declared_length or MAX_LENGTH,
        )
        super().__init__(game_type, info, p)

    def max_game_length(self) -> int:
        """The most decisions a game can take: the `max_game_length` parameter, else the longest
        game the engine finds by searching every decision and draw (meeple.chance.longest_game,
        asked once, on the first call: it can take a second), else the runner's bound."""
        if self.declared_length:
            return self.declared_length
        return _longest(self._key, self.engine, self.players) or MAX_LENGTH

    def __deepcopy__(self, memo):
        return self  # compiled and frozen: states share it

    def __reduce__(self):  # pickled with a state (OpenSpiel's serialize): loaded again by its parameters
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self):
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeepleObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


pyspiel.register_game(_game_type(), MeepleGame)
