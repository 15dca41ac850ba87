"""The quick agent: greedy's look, kept across its own chain of choices and pruned."""

from __future__ import annotations

import copy

import pytest

from meeple.interpreter import runner
from meeple.interpreter.agents import AgentError, make_agents, quick
from tests.conftest import rules, shipped
from tests.test_agents import DOORS, engine_of


def counting(monkeypatch, module, name):
    """Count the calls of `module.name` (the calls still go through)."""
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_quick_follows_its_own_choices_to_a_payoff_three_steps_away():
    engine = engine_of(DOORS, "doors")
    for seed in range(1, 4):
        result = runner.play(engine, 1, seed, ["quick"], "doors")
        assert result.ranking[0]["total"] == 5, f"seed {seed}: {result.ranking}"


def test_quick_guesses_once_for_a_chain_and_goes_on_from_its_look(monkeypatch):
    """Left, Up, Gold: the first look reached every position of the chain, so the next two
    decisions make no new guess and apply nothing new."""
    guesses = counting(monkeypatch, quick, "determinize")
    engine = engine_of(DOORS, "doors")
    state, _ = engine.start(1, 1)
    agent = make_agents(engine, ["quick"], 1, 1)[0]
    applied = []
    while (d := engine.decision(state)) is not None:
        index = agent.choose(engine.view(state, 0), d)
        applied.append(agent.fresh)
        state, _ = engine.apply(state, index)
    assert engine.total(state, 0) == 5
    assert len(guesses) == 1
    assert applied == [applied[0]] * 3 and applied[0] == 6  # Left, Right; Up, Down; Gold, Empty


def test_quick_guesses_again_when_the_view_is_not_the_one_its_guess_foresaw(monkeypatch, tmp_path):
    """A card drawn from a hidden deck in the middle of the chain: where the guess drew another
    card than the game did, the view differs and the agent guesses again (never goes on from a
    position it did not see coming)."""
    text = """game "Draw"
players 1
component card from "cards.csv":
    value: int
zone deck: deck of card
zone hand per player: hand of card
counter coins = 0
setup:
    move card to deck
    shuffle deck
    next play
phase play:
    choose one by first_player:
        "Draw":
            draw 1 from deck into hand[first_player]
            choose one by first_player:
                "Keep":
                    coins = sum(c.value for each c in hand[first_player])
                "Toss":
                    coins = 3
        "Pass":
            coins = 2
score "Coins": coins
"""
    engine = rules(
        text, tmp_path, {"cards.csv": "id,value\n" + "".join(f"{c},{v}\n" for v, c in enumerate("abcdef", 1))}
    )
    counts = []
    for seed in range(1, 9):
        guesses = counting(monkeypatch, quick, "determinize")
        result = runner.play(engine, 1, seed, ["quick"], "draw")
        counts.append(len(guesses))
        monkeypatch.undo()
        assert result.decisions in (1, 2)
    assert 2 in counts, counts  # a wrong guess of the drawn card: a new guess at the next decision


def test_quick_values_equal_boards_once(monkeypatch):
    """Two picks added up: 1 then 2 and 2 then 1 leave the same board; its outlook is asked once."""
    text = """game "Two picks"
players 1
counter total = 0
setup:
    next play
phase play:
    choose x from [1, 2, 3] by first_player:
        total += x
        choose y from [1, 2, 3] by first_player:
            total += y * 1
score "Total": total
"""
    engine = engine_of(text, "picks")
    state, _ = engine.start(1, 1)
    outlooks = counting(monkeypatch, engine, "outlook")
    agent = make_agents(engine, ["quick"], 1, 1)[0]
    d = engine.decision(state)
    assert d.options[agent.choose(engine.view(state, 0), d)].id.endswith("3")
    assert agent.fresh == 3 + 9
    assert len(outlooks) == len({2, 3, 4, 5, 6})  # the totals two picks can reach


def test_quick_shares_one_look_among_options_showing_the_same_deep_in_a_chain(monkeypatch):
    """Deep in a chain, three options that change nothing the outlook sees: the first is
    followed, the others are worth what it reached; every one is followed when sharing is off."""
    text = """game "Corridors"
players 1
counter coins = 0
counter steps = 0
setup:
    next play
phase play:
    choose one by first_player:
        "Walk":
            choose a from [1, 2, 3] by first_player:
                choose b from [1, 2, 3] by first_player:
                    choose c from [1, 2, 3] by first_player:
                        choose d from [1, 2, 3] by first_player:
                            choose e from [1, 2, 3] by first_player:
                                steps = a + b + c + d + e
                                coins = 1
        "Sit":
            coins = 0
score "Coins": coins
"""
    engine = engine_of(text, "corridors")
    fresh = {}
    for shared in (True, False):
        if not shared:
            monkeypatch.setattr(quick, "SAME_OUTLOOK", 0)
            monkeypatch.setattr(quick, "SAME_NEXT", 0)
        state, _ = engine.start(1, 1)
        agent = make_agents(engine, ["quick"], 1, 1)[0]
        d = engine.decision(state)
        assert d.options[agent.choose(engine.view(state, 0), d)].id == "Walk"
        fresh[shared] = agent.fresh
    assert fresh[False] == 2 + 3 + 9 + 27 + 81 + 243
    assert fresh[True] < fresh[False]


def test_quick_does_not_take_the_same_option_twice_from_the_same_view():
    engine = shipped("tic_tac_toe")
    state, _ = engine.start(2, 1)
    for cell in ("board@0", "board@4", "board@1", "board@5"):  # X X _ / O O _: X wins at 2
        engine.apply(state, engine.decision(state).index_of(cell), inplace=True)
    decision, view = engine.decision(state), engine.view(state, 0)
    agent = make_agents(engine, ["quick"], 2, 1)[0]
    first = agent.choose(view, decision)
    assert decision.options[first].id == "board@2"
    assert agent.choose(copy.deepcopy(view), decision) != first


def test_quick_plays_the_same_game_from_the_same_seed():
    engine = shipped("queens_wishes")
    one = runner.play(engine, 2, 3, ["quick"], "queens_wishes")
    two = runner.play(engine, 2, 3, ["quick"], "queens_wishes")
    assert one.ranking == two.ranking and one.decisions == two.decisions


def test_quick_budget_on_the_command_line():
    engine = shipped("tic_tac_toe")
    assert make_agents(engine, ["quick@50"], 2, 1)[0].tries == 50
    with pytest.raises(AgentError, match="quick@100"):
        make_agents(engine, ["quick@lots"], 2, 1)
