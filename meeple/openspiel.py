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
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from meeple.interpreter.extras import need

need("research", "meeple.openspiel", "numpy", "pyspiel")

import pyspiel  # noqa: E402

from meeple import chance as draws  # noqa: E402
from meeple import encoding, spaces  # noqa: E402
from meeple.dsl.compiler import UsageError  # noqa: E402
from meeple.infostate import InfoStateLayout, MeepleObserver  # noqa: E402
from meeple.interpreter.agents.determinize import determinize  # noqa: E402
from meeple.interpreter.effects.choices import option_id  # noqa: E402
from meeple.interpreter.runner import seen_by  # noqa: E402
from meeple.interpreter.state import copy_state  # noqa: E402
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


class MeepleState(pyspiel.State):
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
        again = MeepleState(self.meeple)
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


_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
_REPLAY = object()  # in an undo record: the state before was changed in place (undo_action replays)
_UNSEEN = object()  # in a record of decisions: a choice the record's seat did not see


pyspiel.register_game(_game_type(), MeepleGame)
