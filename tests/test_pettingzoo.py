"""meeple.pettingzoo: PettingZoo's own api_test and seed_test on shipped rulesets, rewards at the
end, and the seats that act out of turn (an action at any time) or secretly (simultaneously)."""

from __future__ import annotations

import textwrap
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import meeple
from meeple.pettingzoo import env
from tests import test_actions, test_simultaneous

# (ruleset, players, cycles): enough cycles for a whole game of the short ones.
GAMES = [
    ("tic_tac_toe", 2, 20),
    ("connect_four", 2, 50),
    ("queens_wishes", 4, 100),
    ("wild_gardens", 2, 60),
    ("apothebakery", 3, 60),
]


@pytest.mark.parametrize("name, players, cycles", GAMES)
def test_pettingzoo_api_test_passes(name, players, cycles):
    e = env(name, players=players)
    with warnings.catch_warnings():
        # api_test only recommends a plain array; a dict with "action_mask" is what PettingZoo's
        # own classic games use (they are on its list of exceptions, a third-party env is not).
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        api_test(e, num_cycles=cycles)


def test_seed_test_passes_and_the_seed_is_the_engines():
    seed_test(lambda: env("queens_wishes", players=3), num_cycles=40)
    seen = {}
    for seed in (5, 5, 6):
        e = env("queens_wishes", players=3)
        e.reset(seed=seed)
        play(e, [0] * 6)  # the same first options: what is drawn is the seed's
        seen.setdefault(seed, []).append(e.observe("player_0")["observation"])
    assert np.array_equal(*seen[5]), "the same seed deals the same game"
    assert not np.array_equal(seen[5][0], seen[6][0]), "another seed deals another"


def play(e, options):
    """Take the given options (their places among the decision's options) in turn; return who
    was asked each time."""
    asked = []
    for option in options:
        asked.append(e.agent_selection)
        e.step(e.option_actions()[option])
    return asked


def test_a_won_game_rewards_the_winner_and_then_everyone_leaves():
    e = env("tic_tac_toe")
    e.reset(seed=1)
    assert e.option_labels() == [f"board row {r}, column {c}" for r in (1, 2, 3) for c in (1, 2, 3)]
    # Options are the free cells in order: X takes 0, 1, 2; O takes 3 and 4.
    asked = play(e, [0, 2, 0, 1, 0])
    assert asked == ["player_0", "player_1"] * 2 + ["player_0"]
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert e.last()[1] == 1.0  # player_0 is asked first to leave
    e.step(None)
    assert e.agents == ["player_1"] and e.last()[1] == -1.0
    e.step(None)
    assert e.agents == []


def test_an_illegal_action_is_refused():
    e = env("tic_tac_toe")
    e.reset()
    with pytest.raises(ValueError, match="not legal"):
        e.step(9)
    assert not e.observe("player_1")["action_mask"].any(), "only the seat to act has a mask"


def rules_file(tmp_path, text, files=None):
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(content).lstrip("\n"))
    path = tmp_path / "game.rules"
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def test_an_interrupting_action_asks_the_other_seat_out_of_turn(tmp_path):
    e = env(rules_file(tmp_path, test_actions.GAME), players=2)
    e.reset(seed=1)
    asked = play(e, [0, 0])  # both collect one coin; round 2 sets the alarm
    assert asked == ["player_0", "player_1"]
    assert e.agent_selection == "player_1", "P2 may ring the bell before P1 decides"
    assert e.option_labels() == ["Ring the bell", "pass"]
    e.step(e.option_actions()[0])
    assert e.agent_selection == "player_0" and e.view("player_1")["vars"]["vp/1"] == 2


def test_a_simultaneous_choice_stays_secret_from_the_next_seat(tmp_path):
    path = rules_file(tmp_path, test_simultaneous.GAME, test_simultaneous.CARDS)
    seen = []
    for bid in ("one card", "two cards"):
        e = env(path, players=3)
        e.reset(seed=4)
        labels = e.option_labels()
        option = next(i for i, label in enumerate(labels) if ("+" in label) == (bid == "two cards"))
        e.step(e.option_actions()[option])
        while e.agent_selection == "player_0":  # the bid's cards picked one at a time
            e.step(
                e.space.DONE
                if e.space.DONE in np.flatnonzero(e.observe("player_0")["action_mask"])
                else int(np.flatnonzero(e.observe("player_0")["action_mask"])[0])
            )
        assert e.agent_selection == "player_1"
        seen.append(e.observe("player_1")["observation"])
    assert np.array_equal(*seen), "P2 sees the same whichever bid P1 made"


def test_a_long_game_is_truncated_without_rewards():
    e = env("queens_wishes", players=2, max_decisions=10)
    e.reset(seed=2)
    play(e, [0] * 10)
    assert e.truncations == {"player_0": True, "player_1": True} and not any(e.terminations.values())
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    e.step(None)
    e.step(None)
    assert e.agents == []


def test_a_solo_game_rewards_its_declared_outcome():
    e = env("wild_gardens", players=1)
    e.reset(seed=5)
    pick = np.random.default_rng(5)
    while not e.terminations["player_0"]:
        e.step(int(pick.choice(np.flatnonzero(e.observe("player_0")["action_mask"]))))
    won = e.engine.outcome(e.state_data)[0]["win"]
    assert e.rewards == {"player_0": 1.0 if won else -1.0}


def test_a_loaded_game_its_players_and_bad_requests():
    game = meeple.load("queens_wishes", players=3, variants=[])
    e = env(game)
    assert e.possible_agents == ["player_0", "player_1", "player_2"] and e.engine is game.engine
    assert len(env(game, players=4).possible_agents) == 4
    with pytest.raises(meeple.UsageError, match="Tic-tac-toe is for 2-2 players, not 3"):
        env("tic_tac_toe", players=3)
    with pytest.raises(meeple.UsageError):
        env("no_such_game")


def test_render_draws_the_boards_as_an_onlooker_sees_them():
    e = env("tic_tac_toe", render_mode="ansi")
    e.reset()
    e.step(4)
    assert e.render().splitlines()[2:] == ["1 . . .", "2 . x .", "3 . . ."]


def test_a_reset_without_a_seed_deals_anew_and_after_a_seed_follows_it():
    e = env("leduc_holdem")
    hands = set()
    for _ in range(10):
        e.reset()
        hands.add(tuple(e.state()["zones"]["hand/0"] + e.state()["zones"]["hand/1"]))
    assert len(hands) > 3, "not seed 0 every time"
    runs = []
    for _ in range(2):
        e.reset(seed=4)
        seeds = [e.seed_used]
        for _ in range(3):
            e.reset()
            seeds.append(e.seed_used)
        runs.append(seeds)
    assert runs[0] == runs[1] and len(set(runs[0])) == 4


def test_render_modes_are_checked_and_state_is_the_whole_state():
    with pytest.raises(ValueError, match="render_mode 'human' is not one of"):
        env("tic_tac_toe", render_mode="human")
    e = env("kuhn_poker", render_mode="ansi")
    e.reset(seed=2)
    whole = e.state()
    assert whole["zones"]["hand/1"] != ["?"] and e.view("player_0")["zones"]["hand/1"] == ["?"]
    whole["zones"]["hand/1"] = []
    assert e.state()["zones"]["hand/1"], "a copy"


@pytest.mark.parametrize("name, players", [("tic_tac_toe", 2), ("apothebakery", 3)])
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(name, players):
    from pettingzoo.test import parallel_api_test

    from meeple.pettingzoo import parallel_env

    parallel_api_test(parallel_env(name, players=players), num_cycles=60)


BIDS = test_simultaneous.GAME.replace("subsets(hand, 1, 2)", "subsets(hand, 1, 3)")


def bid_in_parallel(path, sizes: dict):
    """Sealed bids in the parallel env, each seat bidding its lowest cards, as many as `sizes`
    says: per step, who was asked, the actions and the observations."""
    from meeple.pettingzoo import parallel_env

    e = parallel_env(path, players=3)
    done = e.aec.space.DONE
    obs, _ = e.reset(seed=4)
    steps: list = []
    while e.agents:
        actions = {}
        for a in e.agents:
            legal = [int(i) for i in np.flatnonzero(obs[a]["action_mask"])]
            picked = sum(1 for _, acts, _ in steps if acts.get(a, done) != done)
            if legal:
                items = [i for i in legal if i != done]
                actions[a] = items[0] if picked < sizes[a] and items else done
        steps.append(({a: bool(obs[a]["action_mask"].any()) for a in obs}, actions, obs))
        obs, *_ = e.step({a: actions.get(a, 0) for a in e.agents})
    return e, steps


def test_the_parallel_env_asks_a_simultaneous_block_at_once_and_resolves_it_together(tmp_path):
    """Every seat of a `simultaneously` block is asked in the same step, picks its set at its own
    pace (a seat done waits), and the game goes as the AEC env's with the same answers."""
    path = rules_file(tmp_path, BIDS, test_simultaneous.CARDS)
    e, steps = bid_in_parallel(path, {"player_0": 1, "player_1": 3, "player_2": 2})
    asked = [masks for masks, _, _ in steps]
    assert asked[0] == {"player_0": True, "player_1": True, "player_2": True}, "all asked at once"
    assert asked[2] == {"player_0": False, "player_1": True, "player_2": True}, "P1 bid one card: it waits"
    assert len(steps) == 3, "P2's third card completes its set: the bids resolve together"
    # The AEC env, the same answers given one seat after another (as the engine asks them).
    aec = env(path, players=3)
    aec.reset(seed=4)
    answers = {a: iter([acts[a] for _, acts, _ in steps if a in acts]) for a in aec.possible_agents}
    for agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else next(answers[agent]))
    assert e.state() == aec.unwrapped.state()
    assert [len(e.state()["zones"][f"shown/{p}"]) for p in range(3)] == [1, 3, 2]


def test_a_seat_sees_nothing_of_another_seats_simultaneous_answer(tmp_path):
    path = rules_file(tmp_path, BIDS, test_simultaneous.CARDS)
    seen = []
    for first in (1, 2):  # P1 bids one card, then two; the others as before
        _, steps = bid_in_parallel(path, {"player_0": first, "player_1": 3, "player_2": 2})
        seen.append([obs["player_1"]["observation"] for _, _, obs in steps])
    assert len(seen[0]) == len(seen[1]) == 3
    for a, b in zip(*seen):
        assert np.array_equal(a, b), "P2 sees the same whichever bid P1 made"


def test_an_illegal_answer_in_a_simultaneous_block_is_refused(tmp_path):
    from meeple.pettingzoo import parallel_env

    e = parallel_env(rules_file(tmp_path, BIDS, test_simultaneous.CARDS), players=3)
    obs, _ = e.reset(seed=4)
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in e.agents}
    actions["player_1"] = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"player_1: action \d+ is not legal \(the legal ones are"):
        e.step(actions)
    first = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in e.agents}
    again, *_ = e.step(first)
    fresh = parallel_env(rules_file(tmp_path, BIDS, test_simultaneous.CARDS), players=3)
    fresh.reset(seed=4)
    expected, *_ = fresh.step(first)
    for a in e.agents:  # P1's first card was not kept by the refused step: it is picked once
        assert np.array_equal(again[a]["observation"], expected[a]["observation"])
        assert np.array_equal(again[a]["action_mask"], expected[a]["action_mask"])
