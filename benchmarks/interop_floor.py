"""What PettingZoo's and OpenSpiel's own loops cost before any game runs: the floors that
benchmarks/interop_speed.py prints beside the adapters.

A floor is the same loop as the adapter's, over an environment or a game that does nothing: its
games last as long as a ruleset's uniformly random games (lengths drawn from 300 engine games),
its observation and mask have the adapter's sizes and are made once (the mask with as many legal
actions as the ruleset's decisions have options on average: sampling from it costs by that),
and a step only counts down. What an adapter costs above the engine's own loop is then this floor plus its own work:
the observation, the mask, the mapping of actions to options, the records OpenSpiel asks for.

    .venv/bin/python benchmarks/interop_speed.py --game tic_tac_toe   # prints the floors too
"""

from __future__ import annotations

import random
from itertools import compress
from operator import is_not

import numpy as np
import pyspiel
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from meeple.pettingzoo import Ordered


def aec_loop(e, pick):
    """PettingZoo's documented AEC loop as a researcher writes it (a legal action drawn from the
    mask): a function playing one game of `e` from a seed."""

    def play(seed: int):
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else pick.choice(obs["action_mask"].nonzero()[0].tolist()))

    return play


def grids_only(encoder):
    """A stand-in for the env's `seat_tensor`: the grids' blocks alone, kept up to date as
    meeple/tensor_memo.py keeps them (the changed cells found in C, two writes each) and handed
    out as a copy. Not an observation (nothing else of the state is in it): the least a tensor
    kept up to date costs a step, for games whose state is one grid (tic-tac-toe, Connect Four)."""
    base = np.zeros(encoder.size, np.float32)
    mv, kept = base.data, {}

    def tensor(engine, state, seat, picked=()):
        for key, at, codes, _, _ in encoder.grids:
            now, was, width = state["grids"][key]["cells"], kept.get(key), len(codes) + 1
            if was is None:
                kept[key] = now[:]
                for i, c in enumerate(now):
                    mv[at + i * width + codes.get(c, width - 1)] = 1
            elif now != was:
                for i in compress(range(len(now)), map(is_not, now, was)):
                    mv[at + i * width + codes.get(was[i], width - 1)] = 0
                    mv[at + i * width + codes.get(now[i], width - 1)] = 1
                    was[i] = now[i]
        return base.copy()

    return tensor


def game_lengths(game, games: int = 300) -> tuple[list[int], int]:
    """Decisions a game, in `games` uniformly random games of a meeple.Game, and the options a
    decision had on average (rounded)."""
    engine, pick, out, options = game.engine, random.Random(5), [], 0
    for seed in range(games):
        state, _ = engine.start(game.players, seed)
        n = 0
        while k := engine.option_count(state):
            engine.apply(state, pick.randrange(k), inplace=True, events=False)
            n, options = n + 1, options + k
        out.append(n)
    return out, max(1, round(options / max(1, sum(out))))


class NothingEnv(AECEnv):
    """An AEC environment whose seats take turns, each step only counting down a game of a length
    drawn from `lengths`; the winner is the last to move."""

    metadata = {"render_modes": [], "name": "nothing_v0"}

    def __init__(self, lengths: list[int], players: int, observation: int, actions: int, legal: int):
        super().__init__()
        self.lengths, self.pick = lengths, random.Random(0)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.obs = np.zeros(observation, np.float32)
        self.mask = np.zeros(actions, np.int8)
        self.mask[: min(legal, actions)] = 1
        box = spaces.Dict({"observation": spaces.Box(0, 1, (observation,)), "action_mask": spaces.MultiBinary(actions)})
        self._obs_space = {a: box for a in self.possible_agents}
        self._act_space = {a: spaces.Discrete(actions) for a in self.possible_agents}

    def observation_space(self, agent):
        return self._obs_space[agent]

    def action_space(self, agent):
        return self._act_space[agent]

    def observe(self, agent):
        return {"observation": self.obs, "action_mask": self.mask}

    def reset(self, seed=None, options=None):
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.left, self.turn = self.pick.choice(self.lengths), 0
        self.agent_selection = agents[0]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.left -= 1
        if self.left <= 0:
            for a in self.agents:
                self.rewards[a] = 1.0 if a == agent else -1.0
                self.terminations[a] = True
            self._accumulate_rewards()
        self.turn = (self.turn + 1) % len(self.agents)
        self.agent_selection = self.agents[self.turn]


def pettingzoo_floor(game, observation: int, actions: int, theirs: bool = False):
    """The benchmark's PettingZoo loop over a NothingEnv in meeple's order-checking wrapper (as
    meeple.pettingzoo's env is), or in PettingZoo's own (`theirs`: as PettingZoo's envs are)."""
    wrap = OrderEnforcingWrapper if theirs else Ordered
    lengths, legal = game_lengths(game)
    return aec_loop(wrap(NothingEnv(lengths, game.players, observation, actions, legal)), random.Random(1))


_T = pyspiel.GameType
_LENGTHS: list[int] = [1]  # the lengths of the game registered below: set before it is loaded


class NothingGame(pyspiel.Game):
    """A pyspiel Python game whose seats take turns, each action only counting down."""

    def __init__(self, params=None):
        info = pyspiel.GameInfo(
            num_distinct_actions=9,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max(_LENGTHS),
        )
        super().__init__(_TYPE, info, params or {})
        self.lengths, self.pick = list(_LENGTHS), random.Random(0)

    def new_initial_state(self):
        return NothingState(self)


class NothingState(pyspiel.State):
    ACTIONS = list(range(9))

    def __init__(self, game: NothingGame):
        super().__init__(game)
        self.left, self.turn = game.pick.choice(game.lengths), 0

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if self.left <= 0 else self.turn

    def is_terminal(self):
        return self.left <= 0

    def legal_actions(self, player=None):  # answered in Python, as meeple.openspiel's state does
        return list(self.ACTIONS)

    def _legal_actions(self, player):
        return list(self.ACTIONS)

    def _apply_action(self, action):
        self.left -= 1
        self.turn ^= 1

    def returns(self):
        return [0.0, 0.0]


_TYPE = pyspiel.GameType(
    short_name="meeple_floor",
    long_name="a game that does nothing",
    dynamics=_T.Dynamics.SEQUENTIAL,
    chance_mode=_T.ChanceMode.DETERMINISTIC,
    information=_T.Information.PERFECT_INFORMATION,
    utility=_T.Utility.ZERO_SUM,
    reward_model=_T.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
pyspiel.register_game(_TYPE, NothingGame)


def openspiel_floor(game):
    """The benchmark's OpenSpiel loop over a NothingGame with the ruleset's game lengths."""
    _LENGTHS[:] = game_lengths(game)[0]
    g, pick = pyspiel.load_game("meeple_floor"), random.Random(1)

    def play(seed: int):
        state = g.new_initial_state()
        while not state.is_terminal():
            state.apply_action(pick.choice(state.legal_actions()))

    return play


def pettingzoo_classic(name: str):
    """PettingZoo's own hand-written environment of the game (`env()`, its wrappers included) in
    the same loop, where PettingZoo has one (tic-tac-toe, Connect Four) and pygame is installed
    (`make bench`); else None."""
    module = {"tic_tac_toe": "tictactoe_v3", "connect_four": "connect_four_v3"}.get(name)
    if module is None:
        return None
    try:
        import importlib

        e = importlib.import_module(f"pettingzoo.classic.{module}").env()
    except (ImportError, AttributeError):  # no pygame (PettingZoo's deprecated-module shim may say either)
        return None
    return aec_loop(e, random.Random(1))
