"""A PettingZoo AEC environment for any ruleset (the `research` extra).

    from meeple.pettingzoo import env
    e = env("tic_tac_toe", players=2)   # a meeple.Game, a shipped name or a .rules path; options=, variants=
                                        # (raw_env(...): the same without the OrderEnforcingWrapper)
    e.reset(seed=3)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the seats ("player_0", ...); the one to act is whoever the engine's pending decision
belongs to, so an action at any time (another seat's "act now?") and a simultaneous decision (the
engine asks each seat in turn and keeps the answers secret until the reveal) need nothing special.
Observations are meeple.tensors's complete tensor of the seat's view (with "action_mask" in a
dict: shared between steps, so read-only). Actions are meeple.spaces's (`actions="rules"`, the default): a Discrete of the space the rules
give, an index the same value in every decision; a set of things is picked one item at a time,
the same seat acting again until it is complete (`actions="options"`: indices into the current
decision's options, below a probed count, observed as meeple.encoding's vector). Rewards are
meeple.encoding's: at the end, from the outcome or the ranking.
`option_labels()` names the acting seat's options (not in `infos`: labels cost, and most
steps of a learner never read them); `view(agent)` is the seat's view as plain data.
`reset(seed=...)` is the engine's seed: the same seed and actions give the same game; `reset()`
without one deals anew (the next seed of a generator that reset(seed=...) seeds, else one seeded
from the operating system). `state()` is the whole state as the engine's plain data. An episode
is truncated (no rewards) after `max_decisions` decisions, by default the runner's bound.
"""

from __future__ import annotations

import random
from typing import Any

from meeple.interpreter.extras import need

need("research", "meeple.pettingzoo", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterator  # noqa: E402

from meeple import checks, encoding  # noqa: E402
from meeple.interpreter.board_text import all_boards_text  # noqa: E402
from meeple.interpreter.state import copy_state  # noqa: E402
from meeple.spaces import ActionSpace, listed  # noqa: E402
from meeple.tensors import TensorEncoder  # noqa: E402

MAX_DECISIONS = 100_000  # as `meeple run`: past this many decisions an episode is truncated


def env(
    game,
    players: int | None = None,
    options: dict | None = None,
    variants: list | None = None,
    action_count: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    render_mode: str | None = None,
    actions: str = "rules",
):
    """The environment for a meeple.Game, a shipped ruleset's name or a .rules file's path, in
    PettingZoo's OrderEnforcingWrapper (as PettingZoo's own `env()`s are)."""
    return Ordered(raw_env(game, players, options, variants, action_count, max_decisions, render_mode, actions))


def raw_env(
    game,
    players: int | None = None,
    options: dict | None = None,
    variants: list | None = None,
    action_count: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    render_mode: str | None = None,
    actions: str = "rules",
) -> MeepleEnv:
    """The environment without wrappers."""
    return MeepleEnv(game, players, options, variants, action_count, max_decisions, render_mode, actions)


def parallel_env(
    game,
    players: int | None = None,
    options: dict | None = None,
    variants: list | None = None,
    max_decisions: int = MAX_DECISIONS,
    render_mode: str | None = None,
):
    """A PettingZoo ParallelEnv of the same game (meeple.parallel): the seats asked hand in their
    actions in the same step (all of a `simultaneously` block's at once)."""
    from meeple.parallel import MeepleParallelEnv

    return MeepleParallelEnv(MeepleEnv(game, players, options, variants, None, max_decisions, render_mode))


class Ordered(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper, its checks kept, at a lower cost per step: once the
    environment was reset, `last()`, `step()`, `observe()` and the agent iterator go straight to
    it (the base class reads each attribute through `__getattr__`, a third of a step's time in
    tic-tac-toe)."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def observe(self, agent):
        return self.env.observe(agent) if self._has_reset else super().observe(agent)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Agents(self, max_iter)


class _Agents:
    """What `agent_iter` returns: an iterable of the seat to act (PettingZoo's AECIterable)."""

    def __init__(self, env: Ordered, max_iter: int):
        self.env, self.max_iter = env, max_iter

    def __iter__(self):
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator reading the environment itself."""

    def __next__(self):
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class MeepleEnv(AECEnv):
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "meeple_v0", "is_parallelizable": False}

    def __init__(
        self,
        game,
        players: int | None = None,
        options: dict | None = None,
        variants: list | None = None,
        action_count: int | None = None,
        max_decisions: int = MAX_DECISIONS,
        render_mode: str | None = None,
        actions: str = "rules",
    ):
        super().__init__()
        if actions not in ("rules", "options"):
            raise ValueError(f"actions {actions!r} is not one of 'rules', 'options'")
        self.game = encoding.table(game, players, options, variants)
        self.engine, n = self.game.engine, self.game.players
        g = self.engine.game
        self.players = n
        self.metadata = dict(self.metadata, name=f"meeple_{g.title}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} (or None)")
        self.render_mode = render_mode
        # Seeds for resets without one: after reset(seed=s), following from s, so that a seeded run
        # of several episodes replays; before any, from the operating system.
        self._seeds = random.Random()
        self._reseed: int | None = None  # the last reset's seed, until the generator is seeded with it
        self.max_decisions = max_decisions
        # The action space: the rules' (meeple.spaces), or indices into each decision's options.
        self.space = ActionSpace(g, n) if actions == "rules" else None
        self.action_count = (
            self.space.size if self.space else action_count or encoding.probe_action_count(self.engine, n)
        )
        # The observation: meeple.tensors's complete one with the rules' space, else the older vector.
        self.encoder = (
            TensorEncoder(self.engine, n, self.space)
            if self.space
            else encoding.ViewEncoder(self.engine, n, self.action_count)
        )
        self.picked: list = []  # the items of a set picked so far (meeple.spaces), one action each
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seats = {a: p for p, a in enumerate(self.possible_agents)}
        self._masks: dict = {}  # legal actions -> their mask (see _mask)
        self._none = np.zeros(self.action_count, np.int8)  # the mask of a seat not asked
        self._none.flags.writeable = False
        self._masks_by_choice: dict = {}  # (a choice's line, grid) -> (meeple.spaces's list of its actions, mask)
        self._asked: tuple = (None, None, None)  # the decision a mask was last made for, its actions, the mask
        box = spaces.Box(-encoding.BOUND, encoding.BOUND, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.action_count,), np.int8)
        self._obs_space = {a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents}
        self._act_space = {a: spaces.Discrete(self.action_count) for a in self.possible_agents}
        self.state_data: dict | None = None  # the engine's state, from reset() on

    # ------------------------------------------------------------- spaces
    def observation_space(self, agent):
        return self._obs_space[self.possible_agents[checks.agent_of(self.possible_agents, agent)]]

    def action_space(self, agent):
        return self._act_space[self.possible_agents[checks.agent_of(self.possible_agents, agent)]]

    # ------------------------------------------------------------- the loop
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.seed_used = self._reseed = checks.seed(seed)  # seeded when a reset without one needs it
        else:
            if self._reseed is not None:  # (seeding a generator costs more than a tic-tac-toe step)
                self._seeds.seed(self._reseed)
                self._reseed = None
            self.seed_used = self._seeds.randrange(2**31)
        self.state_data, _ = self.engine.start(self.players, self.seed_used)
        agents = self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict] = {a: {} for a in agents}
        self.decisions = 0
        self.picked = []
        self._after_move()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = int(checks.whole(action, f"{agent}'s action"))
        state = self.state_data
        pending = state["pending"]
        if self.space:
            asked = self._asked
            if asked[0] is pending and not self.picked:  # the decision the mask was made for
                try:
                    option = asked[1].index(action)
                except ValueError:
                    option = self._choose(agent, pending, action)
            else:
                option = self._choose(agent, pending, action)
            if option is None:  # an item of a set: the same seat picks on
                self._cumulative_rewards[agent] = 0.0
                return
        else:
            option = action
            n = min(self.engine.option_count(state), self.action_count)
            if not 0 <= option < n:
                raise checks.WrongValue(f"{agent}: action {action} is not legal (the legal ones are 0..{n - 1})")
        self._cumulative_rewards[agent] = 0.0
        self.engine.apply(state, option, inplace=True, events=False)
        self.decisions += 1
        # Who acts next (_after_move's first case, written out: this runs at every step).
        pending = state["pending"]
        if pending is not None and not state["over"] and self.decisions < self.max_decisions:
            self.agent_selection = self.possible_agents[pending["actor"]]
        else:
            self._after_move()

    def _choose(self, agent: str, pending: dict, action: int):
        """The option an action takes (meeple.spaces's `choose`), None for an item of a set
        picked (kept in `picked`); a WrongValue naming the legal actions when it is not one."""
        space = self.space
        assert space is not None
        try:
            option, self.picked = space.choose(pending, self.picked, action)
        except ValueError:
            raise checks.WrongValue(
                f"{agent}: action {action} is not legal (the legal ones are "
                f"{listed(space.legal(pending, self.picked), '..')})"
            ) from None
        return option

    def _after_move(self):
        # Rewards are all 0 until the end (the seats then leave, and PettingZoo clears them), and
        # infos stay the empty dicts of reset(): nothing to remake at a step.
        state = self.state_data
        more = self.engine.option_count(state)
        if more and self.decisions < self.max_decisions:
            self.agent_selection = self.possible_agents[state["pending"]["actor"]]
        elif more:
            for a in self.agents:  # no reward: the game did not end
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
        else:  # the end: everyone is told at once; the seats then leave in order
            for a, r in zip(self.possible_agents, encoding.rewards(self.engine, state)):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]

    def _was_dead_step(self, action):
        super()._was_dead_step(action)
        if self.agents and all(self.terminations[a] or self.truncations[a] for a in self.agents):
            self.agent_selection = self.agents[0]

    def observe(self, agent):
        seat = self._seats.get(agent) if type(agent) is str else None
        if seat is None:
            seat = checks.agent_of(self.possible_agents, agent)  # the error naming the agents
        state = self.state_data
        pending = state["pending"]
        space = self.space
        if pending is None or state["over"] or pending["actor"] != seat:
            mask = self._none
        elif space is None:
            mask = np.zeros(self.action_count, np.int8)
            mask[: min(len(pending["options"]), self.action_count)] = 1
        else:
            asked = self._asked
            mask = asked[2] if asked[0] is pending and not self.picked else self._mask(pending)
        if space is not None:
            return {"observation": self.encoder.seat_tensor(self.engine, state, seat, self.picked), "action_mask": mask}
        view = self.engine.view(state, seat)
        return {"observation": np.asarray(self.encoder.encode(view, seat), np.float32), "action_mask": mask}

    def _mask(self, pending: dict) -> np.ndarray:
        """The mask of the seat's legal actions, shared and so read-only. A decision of plain
        options has the one made when its choice last offered the same options (meeple.spaces
        keeps the same list of actions for them: a column to drop into), else the one made when
        the same actions were last legal (a few: a card of a hand); many (a placement's
        hundreds) are rarely the same twice and a new mask costs less than a look-up. A plain
        decision's actions and mask are kept for `step` (`_asked`)."""
        space = self.space
        assert space is not None  # (masks of the rules' space: actions="rules")
        plain = space.plain(pending) if not self.picked else None
        if plain is None:
            return self._made(space.legal(pending, self.picked))
        where = (pending.get("line"), pending.get("grid"))
        known = self._masks_by_choice.get(where)
        if known is not None and known[0] is plain:
            mask = known[1]
        else:
            mask = self._made(plain)
            self._masks_by_choice[where] = (plain, mask)  # the list kept, so that `is` stays true
        self._asked = (pending, plain, mask)
        return mask

    def _made(self, legal: list) -> np.ndarray:
        if len(legal) > 32:
            mask = np.zeros(self.action_count, np.int8)
            mask[np.fromiter(legal, np.intp, len(legal))] = 1  # (a third faster than from the list)
            mask.flags.writeable = False
            return mask
        key = tuple(legal)  # (in the options' order: the same actions in another order are another key)
        known = self._masks.get(key)
        if known is None:
            if len(self._masks) >= 4096:  # bounded: a game of many different decisions
                self._masks.clear()
            known = self._masks[key] = np.zeros(self.action_count, np.int8)
            known[legal] = 1
            known.flags.writeable = False
        return known

    # ------------------------------------------------------------- for people
    def option_labels(self) -> list[str]:
        """What each legal action of the seat to act means now: its option's label."""
        assert self.state_data is not None, "reset() needs to be called before option_labels."  # as PettingZoo says
        return encoding.option_labels(self.engine, self.state_data, self.action_count)

    def option_actions(self) -> list[int]:
        """The action that takes each of the acting seat's options (in `option_labels` order); for
        a set picked one item at a time, the action of its first item."""
        assert self.state_data is not None, "reset() needs to be called before option_actions."  # as PettingZoo says
        pending = self.state_data["pending"]
        if not self.space:
            return list(range(min(len(pending["options"]), self.action_count)))
        return [path[0] for path in self.space.option_indices(pending)]

    def state(self) -> dict:
        """The whole state (what no seat may see too) as the engine's plain data: a copy."""
        assert self.state_data is not None, "reset() needs to be called before state."
        return copy_state(self.state_data)

    def view(self, agent) -> dict:
        """The state as this seat sees it (plain data)."""
        return self.engine.view(self.state_data, checks.agent_of(self.possible_agents, agent))

    def render(self):
        if self.render_mode is None:
            return None
        return "\n".join(all_boards_text(self.engine.game, self.engine.view(self.state_data, None)))

    def close(self):
        pass
