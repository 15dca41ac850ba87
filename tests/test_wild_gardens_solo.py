"""Wild Gardens solo: the scenario framework (story entries, milestones, goals,
achievements, extended trip) and the solo Reserve."""

from __future__ import annotations

import pytest

from tests.conftest import shipped
from tests.helpers import effect_frame, relocate, run_alone, take


def solo():
    engine = shipped("wild_gardens")
    state, _ = engine.start(1, 3)
    return engine, state


def run_effect(engine, state, name, **env):
    """Run one effect of the ruleset on its own, from a fresh stack."""
    return run_alone(engine, state, effect_frame(engine, name, **env))


def test_the_scenario_setup_runs_and_its_cards_are_in_play():
    engine, state = solo()
    assert state["zones"]["scenario_book"] == ["harvest_festival"]
    assert len(state["zones"]["story_book"]) == 12
    # setup gain_two(fruit, flower) on top of the location's day effect
    assert state["vars"]["stock/0/fruit"] >= 1 and state["vars"]["stock/0/flower"] >= 1


def test_serving_a_guest_reads_its_story_entry_and_999_is_a_milestone():
    engine, state = solo()
    state["vars"]["at/0"] = "p04"  # a picnic space
    # g10 Farmer Aldous wants a dinner and one Chef's Choice; story bubble 110 -> entry 999
    relocate(state, "g10", "guest_supply")
    relocate(state, "r21", "cooked/0")  # a dinner
    relocate(state, "r22", "cooked/0")  # anything for the Chef's Choice
    events = run_effect(engine, state, "serve", p=0)
    d = engine.decision(state)
    assert "g10" in [o.id for o in d.options]
    events = []
    state = take(engine, state, "g10", events=events)
    while engine.decision(state) is not None and state["vars"]["milestones"] == 0:
        state = take(engine, state, 0, events=events)
    texts = [e["text"] for e in events if e["e"] == "log"]
    assert any("Go to 999" in t for t in texts) and "Milestone reached (entry 999)" in texts
    assert state["vars"]["milestones"] == 1
    assert "g10" in state["zones"]["served/0"]


@pytest.mark.parametrize(
    "milestones, vp, won, level",
    [
        (2, 70, True, "Legendary"),
        (2, 50, True, "Epic"),
        (2, 36, True, "Standard"),
        (1, 70, False, "Legendary"),  # a milestone short: lost, whatever the VP
        (2, 20, False, None),  # below the goal and every achievement
    ],
)
def test_goals_and_achievements(milestones, vp, won, level):
    engine, state = solo()
    for i in ("fungus", "fruit", "nut", "flower", "leaf", "bark", "root", "aquatic"):
        state["vars"][f"stock/0/{i}"] = 0
    state["vars"]["milestones"] = milestones
    state["vars"]["points/0"] = vp
    events = run_effect(engine, state, "judge_scenario", p=0)
    assert state["vars"]["won"] is won and state["vars"]["achievement"] == level
    assert {"e": "log", "text": "Scenario won" if won else "Scenario lost"} in events


def test_extended_trip_keeps_the_starting_location():
    engine, state = solo()
    first = list(state["zones"]["active_location"])
    run_effect(engine, state, "end_trip")
    assert state["zones"]["active_location"] == first and state["zones"]["past_locations"] == []


def test_multiplayer_trip_end_flips_a_new_location():
    engine = shipped("wild_gardens")
    state, _ = engine.start(2, 3)
    first = list(state["zones"]["active_location"])
    run_effect(engine, state, "end_trip")
    assert state["zones"]["past_locations"] == first and state["zones"]["active_location"] != first


def test_solo_reserve_reveals_until_the_chosen_type():
    engine, state = solo()
    deck = list(state["zones"]["recipe_deck"])
    run_effect(engine, state, "solo_reserve", p=0)
    events = []
    state = take(engine, state, "dessert", events=events)
    dishes = [engine.game.components[r]["dish"] for r in deck]
    first_dessert = deck[dishes.index("dessert")]
    assert state["zones"]["reserved_recipes/0"] == [first_dessert]
    revealed = deck[: dishes.index("dessert")]
    assert sorted(state["zones"]["recipe_deck"]) == sorted(r for r in deck if r != first_dessert)
    assert any(e["e"] == "move" and e["dst"] == "revealed" for e in events) == bool(revealed)
    assert state["zones"]["revealed"] == []


def test_solo_player_is_always_first():
    engine, state = solo()
    firsts = set()
    from meeple.interpreter.rng import Random

    rng = Random(1)
    while (d := engine.decision(state)) is not None:
        firsts.add(state["first"])
        state, _ = engine.apply(state, rng.below(len(d.options)), inplace=True)
    assert firsts == {0}
    assert state["vars"]["won"] in (True, False)


SCENARIOS = [
    "harvest_festival",
    "lost_recipe_book",
    "river_market",
    "winter_pantry",
    "moonlit_tea",
    "storm_season",
    "beekeepers_wedding",
]


def test_seven_scenarios_each_rated_casual_or_advanced():
    # "Wild Gardens comes with one Solo Scenarios book with 7 scenarios." / "Each scenario has a difficulty
    # rating, however, to tailor your session to the right level: Casual or Advanced."
    engine = shipped("wild_gardens")
    assert engine.game.options["scenario"] == "harvest_festival"  # the default; the option lists all seven
    for scenario in SCENARIOS:
        assert shipped("wild_gardens", {"scenario": scenario}).game.options["scenario"] == scenario
    cards = {c: engine.game.components[c] for c in engine.game.kinds["scenario_card"]}
    assert sorted(cards) == sorted(SCENARIOS) and sorted(c["number"] for c in cards.values()) == list(range(1, 8))
    assert {c["difficulty"] for c in cards.values()} == {"Casual", "Advanced"}
    for name, c in cards.items():
        assert c["standard"] <= c["epic"] <= c["legendary"] and c["milestones"] >= 1
        entries = [e for e in engine.game.kinds["entry"] if engine.game.components[e]["scenario"] == name]
        milestones = [e for e in entries if "999" in engine.game.components[e]["text"]]
        assert len(milestones) > c["milestones"], f"{name}: every milestone can be reached, with one to spare"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_plays_to_a_shown_result(scenario):
    engine = shipped("wild_gardens", {"scenario": scenario})
    state, events = engine.start(1, 5)
    from meeple.interpreter.rng import Random

    rng = Random(5)
    while (d := engine.decision(state)) is not None:
        state, ev = engine.apply(state, rng.below(len(d.options)))
        events += ev
    card = engine.game.components[scenario]
    assert {engine.game.components[e]["scenario"] for e in state["zones"]["story_book"]} == {scenario}
    logs = [e["text"] for e in events if e["e"] == "log"]
    assert logs[-1] == ("Scenario won" if state["vars"]["won"] else "Scenario lost")
    (result,) = engine.outcome(state)
    assert result["win"] is state["vars"]["won"]
    assert result["text"].startswith(f"{card['name']} ({card['difficulty']})" if not result["win"] else "You won")
    own = "none" if scenario == "harvest_festival" else "met" if state["vars"]["goal_met"] else "missed"
    assert result["win"] or result["text"].endswith(f"own goal {own}")


@pytest.mark.parametrize("served, won", [(5, False), (6, True)])
def test_a_scenario_goal_besides_milestones_and_vp(served, won):
    # moonlit_tea: 3 milestones, 45 VP and goal_guests(6)
    engine = shipped("wild_gardens", {"scenario": "moonlit_tea"})
    state, _ = engine.start(1, 3)
    for g in [f"g{i:02d}" for i in range(21, 21 + served)]:
        relocate(state, g, "served/0")
    state["vars"].update({"milestones": 3, "points/0": 60})
    run_effect(engine, state, "judge_scenario", p=0)
    assert state["vars"]["won"] is won and state["vars"]["goal_met"] is won
