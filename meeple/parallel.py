"""A PettingZoo parallel environment for any ruleset (the `research` extra): every seat hands in
an action each step, and the one the game asks is taken.

    from meeple.pettingzoo import parallel_env
    env = parallel_env("apothebakery", players=3)
    observations, infos = env.reset(seed=1)
    while env.agents:
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

It runs the AEC environment (meeple.pettingzoo) underneath: a step takes the action of the one
seat the game asks (the seat whose mask is not all 0); the others' actions are ignored. A
`simultaneously` block asks its seats in as many steps, each choosing before anyone's answer
shows (the engine keeps them secret), and a set picked one item at a time is a step an item:
one action a step cannot hold a seat's several picks, and a seat's options in a block are only
known once it is asked. Spaces, observations and rewards are the AEC environment's.
"""

from __future__ import annotations

from meeple.interpreter.extras import need

need("research", "meeple.parallel", "numpy", "gymnasium", "pettingzoo")

from pettingzoo import ParallelEnv  # noqa: E402


class MeepleParallelEnv(ParallelEnv):
    metadata = {"render_modes": ["ansi"], "name": "meeple_parallel_v0", "is_parallelizable": True}

    def __init__(self, aec):
        self.aec = aec
        self.possible_agents = aec.possible_agents[:]
        self.metadata = dict(self.metadata, name=aec.metadata["name"] + "_parallel")
        self.render_mode = aec.render_mode
        self.agents = []

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict):
        aec = self.aec
        agent = aec.agent_selection
        if not (aec.terminations[agent] or aec.truncations[agent]) and agent in actions:
            aec.step(actions[agent])
        rewards = {a: aec.rewards.get(a, 0.0) for a in self.agents}
        over = all(aec.terminations[a] or aec.truncations[a] for a in self.agents)
        observations = {a: aec.observe(a) for a in self.agents}
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        infos: dict[str, dict] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> dict:
        return self.aec.state()

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()
