"""A PettingZoo parallel environment for any ruleset (the `research` extra): every seat asked
hands in its action in the same step.

    from meeple.pettingzoo import parallel_env
    env = parallel_env("apothebakery", players=3)
    observations, infos = env.reset(seed=1)
    while env.agents:
        actions = {a: env.action_space(a).sample(observations[a]["action_mask"]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

It runs the AEC environment (meeple.pettingzoo) underneath. A seat is asked when its mask is
not all 0; the others' actions are ignored. A turn of one seat is a step. A `simultaneously`
block is truly simultaneous: every seat it lists is asked in the same step, each with its own
options and mask, and the answers are resolved together once all are in: the engine then takes
them in the block's order (it keeps each secret until the reveal), so the game goes exactly as
the AEC environment's would with the same answers. A set of things is picked one item a step
(meeple.spaces), each seat at its own pace: a seat whose set is complete waits, its mask all 0,
until the others' are. Seats waiting, or not in the block, observe the state with no seat's turn.

The engine asks a block's seats one at a time; their options are found before any answers by
playing the block on a copy (a `Gather` keeps each answer secret and runs nothing of the block,
so a seat's options cannot depend on an earlier seat's answer). Where the copy meets something
else first (an offer to act now), the block ends there and the rest are asked in later steps;
an answer that is an action at any time changes the state before the others' are taken, and
they are asked again.
Spaces, observations and rewards are the AEC environment's.
"""

from __future__ import annotations

from meeple.interpreter.extras import need

need("research", "meeple.parallel", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo import ParallelEnv  # noqa: E402

from meeple import checks  # noqa: E402
from meeple.interpreter.effects.simultaneous import Gather  # noqa: E402
from meeple.spaces import listed  # noqa: E402


class MeepleParallelEnv(ParallelEnv):
    metadata = {"render_modes": ["ansi"], "name": "meeple_parallel_v0", "is_parallelizable": True}

    def __init__(self, aec):
        self.aec = aec
        self.possible_agents = aec.possible_agents[:]
        self.metadata = dict(self.metadata, name=aec.metadata["name"] + "_parallel")
        self.render_mode = aec.render_mode
        self.agents = []
        # A simultaneous block being answered: per seat asked, the state it is asked in (played
        # on a copy), its set's items picked so far and its answer (an option's place) once given.
        self.block: dict[int, dict] = {}

    def observation_space(self, agent):
        return self.aec.observation_space(agent)

    def action_space(self, agent):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        self._ask()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict):
        aec = self.aec
        if self.block:
            self._answer(actions)
        else:
            agent = aec.agent_selection
            if not (aec.terminations[agent] or aec.truncations[agent]) and agent in actions:
                aec.step(actions[agent])
            self._ask()
        rewards = {a: aec.rewards.get(a, 0.0) for a in self.agents}
        over = all(aec.terminations[a] or aec.truncations[a] for a in self.agents)
        observations = self._observations()
        terminations = {a: aec.terminations[a] for a in self.agents}
        truncations = {a: aec.truncations[a] for a in self.agents}
        infos: dict[str, dict] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    # ------------------------------------------------------------- simultaneous blocks
    def _ask(self) -> None:
        """At a simultaneous block with more than one seat to ask: every seat's decision, found
        by answering on a copy (any option: no answer shows before the reveal)."""
        aec = self.aec
        state, engine = aec.state_data, aec.engine
        self.block = {}
        if aec.picked or not engine.option_count(state) or any(aec.terminations.values()):
            return
        op = engine.pending_op(state)
        if not isinstance(op, Gather) or state["pending"].get("interrupt"):
            return
        asked, s = {}, state
        while engine.option_count(s) and engine.pending_op(s) is op and not s["pending"].get("interrupt"):
            seat = s["pending"]["actor"]
            if seat in asked:
                break
            asked[seat] = {"state": s, "picked": [], "answer": None}
            s = engine.apply(s, 0, inplace=False, events=False)[0]  # a copy: the state asked stays
        if len(asked) > 1:
            self.block = asked

    def _answer(self, actions: dict) -> None:
        """Each asked seat's action of this step (all checked before any is kept: an illegal one
        changes nothing); once all answers are in, the engine takes them."""
        aec, space = self.aec, self.aec.space
        assert space is not None  # (the parallel env has the rules' space)
        taken = {}
        for seat, ask in self.block.items():
            agent = self.possible_agents[seat]
            if ask["answer"] is not None or agent not in actions:
                continue
            pending = ask["state"]["pending"]
            try:
                taken[seat] = space.choose(pending, ask["picked"], int(actions[agent]))
            except ValueError:
                legal = listed(space.legal(pending, ask["picked"]), "..")
                raise checks.WrongValue(
                    f"{agent}: action {actions[agent]} is not legal (the legal ones are {legal})"
                ) from None
        for seat, (answer, picked) in taken.items():
            self.block[seat]["answer"], self.block[seat]["picked"] = answer, picked
        if any(ask["answer"] is None for ask in self.block.values()):
            return
        for seat, ask in self.block.items():  # resolved together, in the block's order
            state = aec.state_data
            pending = state["pending"]
            if (
                not aec.engine.option_count(state)
                or pending["actor"] != seat
                or pending["options"] != ask["state"]["pending"]["options"]
            ):
                break  # something came between (an action at any time taken as an answer): the rest are asked again
            aec.state_data, _ = aec.engine.apply(state, ask["answer"], inplace=True, events=False)
            aec.decisions += 1
            if aec.decisions >= aec.max_decisions:
                break
        aec._after_move()
        self._ask()

    # ------------------------------------------------------------- observing
    def _observations(self) -> dict:
        aec = self.aec
        if not self.block:
            return {a: aec.observe(a) for a in self.agents}
        waiting = dict(aec.state_data, pending=None)  # no one seat's turn
        out = {}
        for a in self.agents:
            seat = aec._seats[a]
            ask = self.block.get(seat)
            if ask is None or ask["answer"] is not None:
                tensor, mask = aec.encoder.seat_tensor(aec.engine, waiting, seat), None
            else:
                tensor = aec.encoder.seat_tensor(aec.engine, ask["state"], seat, ask["picked"])
                mask = aec.space.legal(ask["state"]["pending"], ask["picked"])
            mask_array = np.zeros(aec.action_count, np.int8)
            if mask:
                mask_array[mask] = 1
            out[a] = {"observation": tensor, "action_mask": mask_array}
        return out

    def state(self) -> dict:
        return self.aec.state()

    def render(self):
        return self.aec.render()

    def close(self):
        self.aec.close()
