"""Agents see only views and options; the greedy agent plays better than random."""

from __future__ import annotations

import copy

import pytest

from meeple.interpreter import runner
from meeple.interpreter.agents import AGENTS, AgentError, agent_class, make_agents
from meeple.interpreter.state import HIDDEN, can_see
from tests.conftest import shipped


def engine_of(text: str, name: str):
    """An engine for a small ruleset written in a test."""
    from meeple.dsl.compiler import compile_ruleset
    from meeple.dsl.parser import parse_text
    from meeple.interpreter.engine import Engine

    return Engine(compile_ruleset(parse_text(text, f"{name}.rules"), {}, []))


class Spy:
    """Records what it is shown and checks that nothing hidden is in it."""

    name = "spy"
    seen = []

    def __init__(self, engine, seat, seed):
        self.engine, self.seat = engine, seat

    def choose(self, view, decision):
        assert view["rng"] is None
        for key, items in view["zones"].items():
            if not can_see(self.engine.game, key, self.seat):
                assert all(i.startswith(HIDDEN) and i not in self.engine.game.components for i in items), key
        Spy.seen.append(decision.actor)
        return 0


def test_agents_only_get_views(monkeypatch):
    monkeypatch.setitem(AGENTS, "spy", Spy)
    Spy.seen = []
    result = runner.play(shipped("queens_wishes"), 3, 8, ["spy"], "queens_wishes")
    assert len(Spy.seen) == result.decisions > 0


def test_plugin_agents_by_module_and_class():
    loaded = agent_class("tests.test_agents:Spy")
    assert loaded.__name__ == "Spy" and loaded.__module__ == "tests.test_agents"
    agents = make_agents(shipped("queens_wishes"), ["greedy", "random"], 4, 1)
    assert [a.name for a in agents] == ["greedy", "random", "random", "random"]


def test_greedy_beats_random():
    engine = shipped("queens_wishes")
    wins = 0
    for seed in range(1, 7):
        result = runner.play(engine, 2, seed, ["greedy", "random"], "queens_wishes")
        wins += result.ranking[0]["player"] == 0 and result.ranking[0]["place"] == 1
    assert wins >= 5, f"greedy won {wins} of 6 (seeds 1-6)"


def test_determinized_zones_only_hold_their_kind():
    from meeple.interpreter.agents.determinize import determinize
    from meeple.interpreter.game import KIND

    engine = shipped("wild_gardens")
    state, _ = engine.start(2, 2)
    for seed in range(5):
        guess = determinize(engine.game, engine.view(state, 0), seed)
        for key, items in guess["zones"].items():
            spec = engine.game.zones.get(key.split("/")[0])
            if spec is not None:
                assert {engine.game.components[i][KIND] for i in items} <= {spec.of}, key
        assert sorted(i for items in guess["zones"].values() for i in items) == sorted(engine.game.components)


def test_the_agent_written_in_docs_agents_md_plays(tmp_path, monkeypatch, capsys):
    """The documented protocol is the real one: the example class, saved as a module, plays."""
    import re
    import sys

    from meeple.cli import main
    from tests.conftest import ROOT

    code = re.search(r"```python\n(.*?)```", (ROOT / "docs/agents.md").read_text(), re.S).group(1)
    (tmp_path / "my_bots.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("my_bots", None)
    assert main(["run", "tic_tac_toe", "--agents", "my_bots:FirstOption,mcts@20", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^P1\s+first\s", out, re.M) and re.search(r"^P2\s+mcts\s", out, re.M)


def test_greedy_values_a_simultaneous_pick_as_if_revealed(tmp_path):
    """Cookbook's simultaneous reveal: the first picker sees no score change until all have picked,
    so greedy plays the others out; the highest card wins most often and is picked (was random)."""
    from tests.test_cookbook import build

    engine = build(tmp_path, "simultaneous-reveal")
    picks = []
    for seed in range(1, 11):
        state, _ = engine.start(4, seed)
        agent = make_agents(engine, ["greedy"], 4, seed)[0]
        d = engine.decision(state)
        picks.append(d.options[agent.choose(engine.view(state, 0), d)].id)
    assert picks.count("four-1") >= 8, picks


@pytest.mark.parametrize("agent", ["greedy", "quick"])
def test_greedy_prefers_moving_on_to_a_move_that_changes_nothing(tmp_path, agent):
    text = """game "Idle"
players 1
counter rounds = 0
counter coins = 0
setup:
    next play
phase play:
    rounds += 1
    let done = false
    while not done:
        choose one by first_player:
            "Turn the coins over":
                coins = coins
            "Done":
                done = true
    if rounds < 3:
        next play
score "Coins": coins
"""
    engine = engine_of(text, "idle")
    for seed in range(1, 6):
        result = runner.play(engine, 1, seed, [agent], "idle")
        assert result.decisions == 3, f"seed {seed}: {result.decisions} decisions"


# A door, then a path, then a chest: only the far chest pays (also the quick agent's test game).
DOORS = """game "Doors"
players 1
counter coins = 0
setup:
    next play
phase play:
    choose one by first_player:
        "Left":
            choose one by first_player:
                "Up":
                    choose one by first_player:
                        "Gold":
                            coins = 5
                        "Empty":
                            coins = 0
                "Down":
                    coins = 0
        "Right":
            coins = 1
score "Coins": coins
"""


def test_greedy_follows_its_own_choices_to_a_payoff_three_steps_away():
    """A door, then a path, then a chest: only the far chest pays, so a one-step look takes the
    small sure coin; following its own chain of choices, greedy finds the gold."""
    engine = engine_of(DOORS, "doors")
    for seed in range(1, 4):
        result = runner.play(engine, 1, seed, ["greedy"], "doors")
        assert result.ranking[0]["total"] == 5, f"seed {seed}: {result.ranking}"


def test_greedy_values_a_small_choice_by_the_wide_choice_it_opens():
    """Which card, then where among 30 places: the card shows no gain until it is placed, and the
    places are too many to chain through; greedy values each card by its best place (it picked
    the card at random before, as it picked tiles in The Queen's Wishes)."""
    text = """game "Cards and places"
players 1
counter coins = 0
setup:
    next play
phase play:
    choose c from [1, 2, 3] by first_player "Which card?":
        choose spot from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] by first_player "Where?":
            if spot == 17:
                coins = c * 10 - spot
score "Coins": coins
"""
    engine = engine_of(text, "cards")
    for seed in range(1, 4):
        result = runner.play(engine, 1, seed, ["greedy"], "cards")
        assert result.ranking[0]["total"] == 13, f"seed {seed}: {result.ranking}"


def test_greedy_splits_its_look_evenly_so_the_last_option_is_seen_too():
    """Behind a door, two wide halls of nothing listed first and a narrow corridor to gold.
    With the door's 15 tries spent depth-first the first hall used them all, the corridor was
    never looked down and the sure coin won; split evenly among the options at every step,
    greedy@30 walks in and finds the gold."""
    text = """game "Halls"
players 1
counter coins = 0
counter step = 0
setup:
    next play
phase play:
    choose one by first_player:
        "Take the coin":
            coins = 1
        "Open the door":
            choose one by first_player:
                "East hall":
                    choose n from [1, 2, 3, 4, 5, 6, 7, 8] by first_player:
                        choose m from [1, 2, 3, 4, 5, 6, 7, 8] by first_player:
                            step = n + m
                "West hall":
                    choose n from [1, 2, 3, 4, 5, 6, 7, 8] by first_player:
                        choose m from [1, 2, 3, 4, 5, 6, 7, 8] by first_player:
                            step = n + m
                "Corridor":
                    choose one by first_player:
                        "Gold":
                            coins = 5
                        "Dust":
                            coins = 0
score "Coins": coins
"""
    engine = engine_of(text, "halls")
    for seed in range(1, 4):
        result = runner.play(engine, 1, seed, ["greedy@30"], "halls")
        assert result.ranking[0]["total"] == 5, f"seed {seed}: {result.ranking}"


@pytest.mark.parametrize("name", ["greedy", "rollout@2"])
def test_greedy_does_not_take_the_same_option_twice_from_the_same_position(name):
    """Back at a view it has decided in, nothing changed, greedy (and rollout, which ranks by
    greedy) takes another option: a menu entry whose sub-menu leads straight back to the menu
    is not taken forever."""
    engine = shipped("tic_tac_toe")
    state, _ = engine.start(2, 1)
    for cell in ("board@0", "board@4", "board@1", "board@5"):  # X X _ / O O _: X wins at 2
        engine.apply(state, engine.decision(state).index_of(cell), inplace=True)
    decision, view = engine.decision(state), engine.view(state, 0)
    agent = make_agents(engine, [name], 2, 1)[0]
    first = agent.choose(view, decision)
    assert decision.options[first].id == "board@2"
    again = agent.choose(copy.deepcopy(view), decision)
    assert again != first
    other = make_agents(engine, ["greedy"], 2, 1)[0]  # a fresh agent has no memory of it
    assert other.choose(view, decision) == first


def test_greedy_budget_on_the_command_line():
    engine = shipped("tic_tac_toe")
    assert make_agents(engine, ["greedy@50"], 2, 1)[0].tries == 50
    with pytest.raises(AgentError, match="greedy@200"):
        make_agents(engine, ["greedy@lots"], 2, 1)
