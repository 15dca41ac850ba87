"""meeple.gym: Gymnasium's env checker passes; a tabular Q-learner trained through the wrapper
against random play wins at least 90% of tic-tac-toe games against it; the vector env steps N
games together."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from meeple.gym import MeepleGymEnv, vector_env  # noqa: E402


@pytest.mark.parametrize(
    "name, opponents", [("tic_tac_toe", ["greedy"]), ("kuhn_poker", ["random"]), ("apothebakery", ["random"])]
)
def test_gymnasium_env_checker_passes(name, opponents):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure too
        warnings.filterwarnings("ignore", "The environment .* is out of date", DeprecationWarning)
        check_env(MeepleGymEnv(name, opponents=opponents), skip_render_check=True)


def greedy(q, key, legal):
    values = q.get(key)
    if values is None:
        return random.choice(legal)
    return max(legal, key=lambda a: values[a])


def test_a_tabular_learner_beats_random_play_at_tic_tac_toe():
    random.seed(0)
    env = MeepleGymEnv("tic_tac_toe", seat=0, opponents=["random"])
    q: dict = {}
    alpha, gamma = 0.5, 0.95
    for episode in range(EPISODES):
        obs, info = env.reset(seed=episode)
        key, done = obs.tobytes(), False
        epsilon = max(0.05, 1.0 - episode / (0.6 * EPISODES))
        while not done:
            legal = np.flatnonzero(info["action_mask"]).tolist()
            action = random.choice(legal) if random.random() < epsilon else greedy(q, key, legal)
            obs, reward, done, truncated, info = env.step(action)
            after = obs.tobytes()
            row = q.setdefault(key, np.zeros(env.action_space.n))
            future = (
                0.0
                if done
                else gamma
                * max(q.get(after, np.zeros(env.action_space.n))[a] for a in np.flatnonzero(info["action_mask"]))
            )
            row[action] += alpha * (reward + future - row[action])
            key = after
    wins = 0
    for game in range(GAMES):
        obs, info = env.reset(seed=100_000 + game)
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"]).tolist()
            obs, reward, done, _, info = env.step(greedy(q, obs.tobytes(), legal))
        wins += reward > 0
    assert wins >= 0.9 * GAMES, f"won {wins} of {GAMES}"


EPISODES, GAMES = 6000, 200


def test_an_illegal_action_loses_or_raises():
    env = MeepleGymEnv("tic_tac_toe")
    env.reset(seed=1)
    env.step(4)
    obs, reward, terminated, truncated, info = env.step(4)  # taken already
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    strict = MeepleGymEnv("tic_tac_toe", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(99)


def test_the_vector_env_steps_games_together():
    envs = vector_env("connect_four", 4, opponents=["random"])
    obs, info = envs.reset(seed=3)
    assert obs.shape == (4, envs.single_observation_space.shape[0]) and info["action_mask"].shape == (4, 7)
    finished = 0
    for _ in range(60):
        actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum())
    assert finished >= 4
    with pytest.raises(ValueError, match="whole number of games"):
        vector_env("connect_four", 0)
