"""A Gymnasium single-agent environment for any ruleset: one seat learns, bots play the others
(the `research` extra).

    from meeple.gym import MeepleGymEnv, vector_env
    env = MeepleGymEnv("tic_tac_toe", seat=0, opponents=["greedy"])
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample(mask=info["action_mask"]))
    envs = vector_env("tic_tac_toe", 8, opponents=["random"])    # 8 games stepped together

The spaces are the adapters': actions are the ruleset's action space (meeple.spaces: an index
the same value in every state; a set picked one item at a time), the observation meeple.tensors's
tensor of the seat's view. The legal actions are `info["action_mask"]` (and `action_masks()`, as
sb3-contrib's MaskablePPO asks). An illegal action ends the episode as a loss (reward -1,
`info["illegal"]`), so that a learner that ignores the mask is told, and Gymnasium's env checker,
which steps random actions, runs (`illegal="raise"` raises a ValueError instead).

Opponents are bots by name (`random`, `greedy`, `mcts@200`...; one per other seat, a short list
repeating its last), made anew for each episode from its seed, and they play between the
learner's decisions (a decision the learner is not asked, such as an action at any time, is
theirs too). The reward is meeple.encoding's at the end (+1 win, -1 loss, else from the ranking).
`reset(seed=...)` seeds the game; `reset()` without one draws the next seed from the generator
Gymnasium seeds (`np_random`). An episode is truncated after `max_decisions` of the learner's.
"""

from __future__ import annotations

from meeple.interpreter.extras import need

need("research", "meeple.gym", "numpy", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces as gym_spaces  # noqa: E402

from meeple import encoding  # noqa: E402
from meeple.interpreter.agents import choose, make_agent  # noqa: E402
from meeple.interpreter.board_text import all_boards_text  # noqa: E402
from meeple.spaces import ActionSpace  # noqa: E402
from meeple.tensors import TensorEncoder  # noqa: E402

MAX_DECISIONS = 100_000


class MeepleGymEnv(gymnasium.Env):
    """One seat of a ruleset against bots (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game,
        seat: int = 0,
        opponents=("random",),
        players: int | None = None,
        options: dict | None = None,
        variants: list | None = None,
        max_decisions: int = MAX_DECISIONS,
        render_mode: str | None = None,
        illegal: str = "lose",
    ):
        table = encoding.table(game, players, options, variants)
        self.engine, self.players = table.engine, table.players
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat!r}: the seats are 0 to {self.players - 1}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']} (or None)")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: it is 'lose' or 'raise'")
        names = [opponents] if isinstance(opponents, str) else list(opponents) or ["random"]
        self.opponents = (names + [names[-1]] * self.players)[: self.players - 1]
        self.seat, self.render_mode, self.illegal, self.max_decisions = seat, render_mode, illegal, max_decisions
        self.space = ActionSpace(self.engine.game, self.players)
        self.encoder = TensorEncoder(self.engine, self.players, self.space)
        self.observation_space = gym_spaces.Box(-encoding.BOUND, encoding.BOUND, (self.encoder.size,), np.float32)
        self.action_space = gym_spaces.Discrete(self.space.size)
        self.state: dict | None = None
        self.picked: list = []
        self.bots: dict = {}

    # ------------------------------------------------------------- the loop
    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        self.state, _ = self.engine.start(self.players, game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: make_agent(self.engine, name, s, game_seed) for s, name in zip(others, self.opponents)}
        self.picked, self.decisions = [], 0
        self._others_play()
        return self._observe(), self._info()

    def step(self, action):
        pending = self.state["pending"]
        if self.state["over"] or pending is None:
            raise ValueError("the episode is over: call reset()")
        try:
            option, self.picked = self.space.choose(pending, self.picked, int(action))
        except (ValueError, TypeError):
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal now") from None
            self.picked = []
            return self._observe(), -1.0, True, False, dict(self._info(), illegal=True)
        if option is not None:
            self.state, _ = self.engine.apply(self.state, option, inplace=True, events=False)
            self.decisions += 1
            self._others_play()
        over = self.state["over"] or self.state["pending"] is None
        reward = float(encoding.rewards(self.engine, self.state)[self.seat]) if over else 0.0
        truncated = not over and self.decisions >= self.max_decisions
        return self._observe(), reward, over, truncated, self._info()

    def _others_play(self):
        """The bots decide until the learner is asked or the game ends."""
        engine, state = self.engine, self.state
        while not state["over"] and state["pending"] is not None and state["pending"]["actor"] != self.seat:
            actor = state["pending"]["actor"]
            d = engine.decision(state)
            k = choose(self.bots[actor], engine.view(state, actor), d, 0)
            state, _ = engine.apply(state, k, inplace=True, events=False)
        self.state = state

    # ------------------------------------------------------------- what the learner sees
    def _observe(self) -> np.ndarray:
        assert self.state is not None, "call reset() first"  # Gymnasium's order: reset, then step
        return self.encoder.seat_tensor(self.engine, self.state, self.seat, self.picked)

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.space.size, np.int8)
        assert self.state is not None, "call reset() first"
        pending = self.state["pending"]
        if not self.state["over"] and pending is not None and pending["actor"] == self.seat:
            mask[self.space.legal(pending, self.picked)] = 1
        return mask

    def _info(self) -> dict:
        return {"action_mask": self.action_masks()}

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        return "\n".join(all_boards_text(self.engine.game, self.engine.view(self.state, None)))


def vector_env(game, n: int, **kwargs) -> gymnasium.vector.SyncVectorEnv:
    """`n` games of `MeepleGymEnv(game, **kwargs)` stepped together in this process (Gymnasium's
    SyncVectorEnv: batched observations, rewards and masks; a finished game starts anew)."""
    if type(n) is not int or n < 1:
        raise ValueError(f"n must be a whole number of games, 1 or more, not {n!r}")
    return gymnasium.vector.SyncVectorEnv([lambda: MeepleGymEnv(game, **kwargs) for _ in range(n)])
