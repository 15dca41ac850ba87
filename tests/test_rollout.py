"""The rollout agent: greedy's best options played on, the one that ends furthest ahead taken."""

from __future__ import annotations

import pytest

from meeple.interpreter import runner
from meeple.interpreter.agents import AgentError, make_agents
from tests.conftest import shipped
from tests.test_agents import engine_of

# P1 takes 2 coins now or plants a seed; P2 then decides (which breaks greedy's look along
# P1's own chain of choices); P1 harvests 5 coins per seed planted.
SEEDS = """game "Seeds"
players 2
counter coins per player = 0
counter seeds per player = 0
setup:
    next play
phase play:
    choose one by first_player:
        "Take two coins":
            coins[first_player] += 2
        "Plant a seed":
            seeds[first_player] += 1
    choose one by next_player(first_player):
        "Whistle":
            pass
        "Hum":
            pass
    choose one by first_player:
        "Harvest":
            coins[first_player] += 5 * seeds[first_player]
        "Rest":
            pass
    end game
score "Coins": coins
"""


# The same, with four ways to take the coins: greedy ranks them all above the seed, so the
# seed is its fifth option.
PLOTS = SEEDS.replace(
    """        "Take two coins":
            coins[first_player] += 2
""",
    "".join(
        f"""        "Take two coins {side}":
            coins[first_player] += 2
"""
        for side in ("left", "right", "ahead", "behind")
    ),
)


def first_pick(engine, agent: str, seed: int) -> str:
    state, _ = engine.start(2, seed)
    bot = make_agents(engine, [agent], 2, seed)[0]
    d = engine.decision(state)
    return d.options[bot.choose(engine.view(state, 0), d)].label


def test_rollout_plays_on_past_another_seat_to_a_payoff_greedy_misses():
    """Greedy's look stops at the other seat's choice and takes the two coins; played on,
    the seed harvests five."""
    engine = engine_of(SEEDS, "seeds")
    for seed in range(1, 4):
        assert first_pick(engine, "greedy", seed) == "Take two coins"
        assert first_pick(engine, "rollout@1", seed) == "Plant a seed"
        result = runner.play(engine, 2, seed, ["rollout@1", "greedy"], "seeds")
        assert result.ranking[0]["player"] == 0 and result.ranking[0]["total"] == 5, result.ranking


def test_rollout_with_no_guesses_is_greedy():
    engine = engine_of(SEEDS, "seeds")
    assert first_pick(engine, "rollout@0", 1) == "Take two coins"


def test_rollout_screens_more_options_than_it_plays_on_to_the_end():
    """Greedy's best eight are played on two guesses, the best three on the rest: the seed,
    fifth in greedy's order, is found; played on greedy's best four only, it was not."""
    from meeple.interpreter.agents.rollout import RolloutAgent

    engine = engine_of(PLOTS, "plots")
    state, _ = engine.start(2, 1)
    d = engine.decision(state)
    assert len(d.options) == 5
    for seed in range(1, 4):
        assert first_pick(engine, "rollout", seed) == "Plant a seed"
        old = RolloutAgent(engine, 0, seed, candidates=4, widen=4)
        assert d.options[old.choose(engine.view(state, 0), d)].label.startswith("Take two coins")


def test_quick_greedy_breaks_ties_at_random():
    """Which bag to draw from shows no gain one step on: the quick greedy takes any of the
    bags, not the first listed in every play-on (as it did)."""
    from meeple.interpreter.agents.rollout import quick_line
    from meeple.interpreter.rng import Random

    engine = shipped("queens_wishes")
    start = engine.start(2, 3)[0]
    assert len(engine.decision(start).options) == 5
    assert len({quick_line(engine, start, Random(seed))[0] for seed in range(40)}) >= 4


def test_rollout_same_seed_same_choices_in_the_queens_wishes():
    """Seeded guesses and dice: two agents built alike choose alike, decision after decision
    (a bag, a tile, a place among a hundred)."""
    engine = shipped("queens_wishes")
    state, _ = engine.start(2, 5)
    for _ in range(3):
        d = engine.decision(state)
        picks = {
            make_agents(engine, ["rollout@1"], 2, 5)[d.actor].choose(engine.view(state, d.actor), d) for _ in range(2)
        }
        assert len(picks) == 1
        state, _ = engine.apply(state, picks.pop())


def test_rollout_budget_on_the_command_line():
    engine = shipped("tic_tac_toe")
    assert make_agents(engine, ["rollout@3"], 2, 1)[0].guesses == 3
    with pytest.raises(AgentError, match="rollout@8"):
        make_agents(engine, ["rollout@many"], 2, 1)


def test_quick_greedy_plays_the_place_its_look_through_the_tile_found():
    """Which tile, then where: the quick greedy values each tile by its best place and plays
    that place next, not a second search (the same choice, found once)."""
    from meeple.interpreter.agents.rollout import quick_line
    from meeple.interpreter.rng import Random

    engine = shipped("queens_wishes")
    start = engine.start(2, 3)[0]  # which bag: its follow-up (which tile) is no wide choice,
    assert quick_line(engine, start, Random(1))[1] is None  # a tile is worth its place, not played blind
    state = engine.apply(start, 0)[0]  # the first bag drawn: which tile now
    seat = engine.decision(state).actor
    k, then = quick_line(engine, state, Random(1), sample=1000, follow=1000)
    after = engine.apply(state, k)[0]
    places = engine.decision(after)
    assert places.actor == seat and then is not None
    best = max(engine.outlook(engine.apply(after, j)[0], seat) for j in range(len(places.options)))
    assert engine.outlook(engine.apply(after, then)[0], seat) == best
    assert quick_line(engine, after, Random(1))[1] is None  # a place leads to no choice of the same seat's


def test_rollout_plays_on_to_the_start_of_a_round_or_a_fixed_count_where_phases_are_long():
    """Valued where every seat has had its turns of the same rounds: on to the start of the
    phase entered `rounds` times after the decision's, at most `cap` decisions; where no phase
    was entered within `horizon` decisions, `horizon` of them."""
    engine = shipped("queens_wishes")
    bot = make_agents(engine, ["rollout"], 2, 1)[0]
    state = engine.start(2, 1)[0]
    bot.round = state["seq"]
    later = {**state, "seq": state["seq"] + 1}
    assert bot.play_on(state, 0) and bot.play_on(later, 12) and bot.play_on(later, 15)
    assert not bot.play_on({**state, "seq": state["seq"] + bot.rounds}, 1)  # three rounds on
    assert not bot.play_on(later, bot.cap)
    assert bot.play_on(state, bot.horizon - 1) and not bot.play_on(state, bot.horizon)  # one long phase
    assert not bot.play_on({**later, "over": True}, 0)


# The last choice of the game: one more coin wins by one; the gamble wins by twenty once in three
# rolls and loses by two otherwise (worth more points on average: 5.3 against 1).
GAMBLE = """game "Gamble"
players 2
counter coins per player = 0
counter gems per player = 0
setup:
    next play
phase play:
    choose one by first_player:
        "Play safe":
            coins[first_player] += 1
        "Gamble":
            coins[first_player] += roll([20, -2, -2])
    end game
score "Coins": coins
tiebreak: most gems
"""


def test_rollout_plays_to_win_when_the_game_ends():
    """A play-on that ends the game is worth WIN points more for a win and WIN less for a loss:
    the sure win by a point beats the gamble that wins a third of the time by twenty. Valued
    by the points alone (WIN 0), the gamble is taken."""
    from meeple.interpreter.agents import rollout

    engine = engine_of(GAMBLE, "gamble")
    for seed in range(1, 5):
        assert first_pick(engine, "rollout@12", seed) == "Play safe", seed
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rollout, "WIN", 0)
        assert [first_pick(engine, "rollout@12", seed) for seed in range(1, 5)] == ["Gamble"] * 4


def test_a_finished_game_is_valued_by_the_place_and_the_points():
    """Won by 3: 3 + WIN; lost by 3: -3 - WIN; a shared first place: its margin alone. A tie
    on points broken by a tie-break is a win."""
    from meeple.interpreter.agents.rollout import WIN, margin

    engine = engine_of(GAMBLE, "gamble")
    state, _ = engine.start(2, 1)
    state = engine.apply(state, 0)[0]
    assert state["over"]
    for coins, gems, worth in (
        ([4, 1], [0, 0], 3 + WIN),
        ([1, 4], [0, 0], -3 - WIN),
        ([2, 2], [0, 0], 0),
        ([2, 2], [1, 0], WIN),
        ([2, 2], [0, 1], -WIN),
    ):
        counts = {f"{name}/{p}": n for name, values in (("coins", coins), ("gems", gems)) for p, n in enumerate(values)}
        finished = {**state, "vars": counts}
        assert margin(engine, finished, 0) == worth, (coins, gems)
    assert (state["vars"]["coins/0"], state["vars"]["coins/1"]) == (1, 0) and margin(engine, state, 0) == 1 + WIN
