"""Wild Gardens: the worked examples WG-E1..E12 and the rule-derived checks of RULEBOOK-NOTES.md §3,
on hand-built states (one effect of the ruleset run alone) and on seeded random games.

Board facts used (rulesets/wild_gardens/path_front.json): p01 touches z01 z02 z13 and is not a picnic
space; p04 is a picnic space; p05 forks to p06 / p21; p07 forks to p08 / p29; p10 forks to p11 / p27
(the off-board link p27 => p28 -> p19); p16 -> p17 -> p18 -> p19 -> p20 -> p01 -> p02 has no fork.
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, shipped

from meeple.interpreter.rng import Random
from tests.helpers import effect_frame, run_alone, take
from tests.helpers import fill_zone as put
from tests.helpers import option_ids as ids

DATA = ROOT / "rulesets" / "wild_gardens"
JAR = [0, 2, 5, 8, 11, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 54]  # jar spaces (WG-A2)
TOKENS = ["one", "two", "three", "four", "wild"]
INGREDIENTS = ["fungus", "fruit", "nut", "flower", "leaf", "bark", "root", "aquatic"]
AREAS = [f"z{i:02d}" for i in range(1, 25)]


def spaces(side):
    return set(json.loads((DATA / f"path_{side}.json").read_text())["spaces"])


def fresh(players=2, seed=1, variants=(), values=None):
    """A started game at its first turn: VP and ingredients cleared, turn 9, P1 on p01, P2 on p10."""
    eng = shipped("wild_gardens", variants=list(variants))
    state, _ = eng.start(players, seed)
    while not is_token(eng.decision(state)):
        state, _ = eng.apply(state, 0)
    v = state["vars"]
    v.update({k: 0 for k in v if k.startswith(("stock/", "points/"))})
    v.update({"turn_number": 9, "at/0": "p01", "at/1": "p10", **(values or {})})
    return eng, state


def push(eng, state, effect, **env):
    """Run one effect of the ruleset alone (nothing below it on the stack) up to its next decision."""
    run_alone(eng, state, effect_frame(eng, effect, **env))
    return state


def swap_in(state, key, card):
    """Put `card` on the one-card pile `key`; what was there goes where `card` came from."""
    zones = state["zones"]
    src = next(k for k, v in zones.items() if card in v)
    if src != key:
        zones[src][zones[src].index(card)], zones[key] = zones[key][0], [card]


def set_sources(eng, state, wanted: dict):
    """Source tokens of the wanted ingredients on the given areas (swapped with other areas)."""
    fixed = set()
    for area, ing in wanted.items():
        swap_in(
            state,
            f"source_at/{area}",
            next(
                s
                for a in AREAS
                if a not in fixed
                for s in state["zones"][f"source_at/{a}"]
                if eng.game.components[s]["ingredient"] == ing
            ),
        )
        fixed.add(area)


def resting(eng, state, location):
    """P1 has placed all 5 tokens under `location`: the rest effect, up to the token choice."""
    swap_in(state, "active_location", location)
    state["vars"].update({f"placed/0/{t}": True for t in TOKENS})
    return push(eng, state, "rest", p=0)


def own_ids(d) -> set:
    """The decision's options without the actions offered at any time (free skills)."""
    return {o.id for o in d.options if not o.id.startswith("act:")}


def is_token(d):
    return d is not None and own_ids(d) <= set(TOKENS)


def is_rest(state, d):
    return is_token(d) and all(state["vars"][f"placed/{d.actor}/{o.id}"] for o in d.options)


def play(eng, players, seed, watch=lambda state, d: None, prefer=()):
    """A seeded random game that mostly does something rather than end the turn or pass;
    an option whose id is in `prefer` is always taken."""
    rnd = Random(seed)
    state, _ = eng.start(players, seed)
    while (d := eng.decision(state)) is not None:
        watch(state, d)
        active = [i for i, o in enumerate(d.options) if o.id not in ("End the turn", "Done", "pass")]
        pick = active[rnd.below(len(active))] if active and rnd.below(5) else rnd.below(len(d.options))
        pick = next((i for i, o in enumerate(d.options) if o.id in prefer), pick)
        state, _ = eng.apply(state, pick)
    return state


# ---------------------------------------------------------------- the VP track and resting
class TestVpTrack:  # WG-E1, WG-E7
    @pytest.mark.parametrize("guests", [["g01", "g11"], ["g01", "g02", "g05"]])  # jars 1+2, 1+1+1
    @pytest.mark.parametrize("reserved", [[], ["g19"]])  # g19 has 2 jars, but is only reserved
    def test_jar_example(self, guests, reserved):
        eng, state = fresh(values={"jar_steps/0": 2, "points/0": 7, "stock/0/fungus": 1, "stock/0/root": 2})
        put(state, "served/0", guests)
        put(state, "reserved_guests/0", reserved)
        state = take(eng, resting(eng, state, "l02"), "three")  # l02 rest3 = pay_for_jar(fungus, root)
        assert ids(eng, state) == ["pay", "pass"]
        state = take(eng, state, "pay")
        v = state["vars"]
        # 1 board jar + 3 on served guests = 4 jar spaces: 5 -> 8 -> 11 -> 13 -> 16 (jar_steps 2 -> 6)
        assert v["jar_steps/0"] == 6 and eng.breakdown(state, 0)["Jar"] == 16
        assert (v["stock/0/fungus"], v["stock/0/root"], v["points/0"]) == (0, 1, 7)

    @pytest.mark.parametrize("steps,value", [(19, 60), (18, 54), (39, 120), (0, 2)])
    def test_jar_wraps(self, steps, value):  # no served guests: the Jar moves 1
        eng, state = fresh(values={"jar_steps/0": steps})
        push(eng, state, "move_jar", p=0)
        assert eng.breakdown(state, 0)["Jar"] == value  # 54 + 1 -> space 0 flipped = 60

    def test_pollinator_wraps(self):
        eng, state = fresh(values={"points/0": 58})
        push(eng, state, "vp", p=0, n=3)
        assert eng.breakdown(state, 0)["Pollinator"] == 61  # 58 + 3 -> space 1 flipped = 61


class TestRest:  # WG-E2
    @pytest.mark.parametrize("location", ["l01", "l10"])  # both have rest1 = vp(2)
    def test_token_one_gives_2_vp_and_is_gone_for_the_trip(self, location):
        eng, state = fresh(2, 4)
        swap_in(state, "active_location", location)
        rested = offered_again = False
        while (d := eng.decision(state)) is not None and not offered_again:
            v = state["vars"]
            if d.actor == 0 and is_rest(state, d) and not rested:
                before, rested = v["points/0"], True
                state = take(eng, state, "one")  # P1 rests before P2 on day 1: no day effect in between
                assert state["vars"]["points/0"] == before + 2 and state["vars"]["rested/0/one"], "seed 4"
                continue
            if d.actor == 0 and is_token(d) and not is_rest(state, d) and rested:
                offered_again = "one" in [o.id for o in d.options]
                assert offered_again == (v["trip"] == 2), f"seed 4, trip {v['trip']} day {v['day_number']}"
                assert v["rested/0/one"] == (v["trip"] == 1), "seed 4: reset when the trip ends"
            state = take(eng, state, 0)
        assert rested and offered_again, "seed 4"

    def test_wild_chooses_any_bonus(self):
        eng, state = fresh()
        state = take(eng, resting(eng, state, "l01"), "wild")
        assert ids(eng, state) == ["1", "2", "3", "4"]
        v = take(eng, state, "2")["vars"]  # l01 rest2 = gain_two(flower, fruit)
        assert (v["stock/0/flower"], v["stock/0/fruit"], v["rested/0/wild"]) == (1, 1, True)


# ---------------------------------------------------------------- movement
class TestMovement:  # WG-E3, WG-E12
    @pytest.mark.parametrize(
        "start,token,other,ends",
        [
            ("p04", "two", "p13", {"p06", "p21"}),  # p04 -> p05, then the fork: p06 or p21
            ("p04", "two", "p06", {"p07", "p21"}),  # p06 occupied: skipped, not counted -> p07
            ("p04", "two", "p21", {"p06", "p22"}),
            ("p10", "two", "p01", {"p12", "p28"}),  # p11 -> p12, or over the link p27 -> p28
            ("p10", "two", "p27", {"p12", "p19"}),  # p27 occupied: p28 (1), p19 (2)
            ("p04", "three", "p05", {"p08", "p29", "p23"}),  # p05 skipped: p06 p07 then p08|p29; p21 p22 p23
        ],
    )
    def test_end_spaces(self, start, token, other, ends):
        eng, state = fresh(values={"at/0": start, "at/1": other})
        state = take(eng, push(eng, state, "action_turn", p=0), token, "A")
        assert set(ids(eng, state)) == ends

    @pytest.mark.parametrize(
        "token,changes,end",
        [  # from p16 (no fork): p17 p18 p19 p20 p01 p02
            (["one"], ["-1", "pass"], "p16"),  # 1 - 1 = 0: the forager stays
            (["one"], ["-1", "-1"], "p16"),  # max(0, 0 - 1) = 0
            (["four"], ["-1", "-1"], "p18"),  # 2
            (["four"], ["-1", "pass"], "p19"),  # 3
            (["four"], ["-1", "1"], "p20"),  # 4
            (["four"], ["1", "pass"], "p01"),  # 5
            (["four"], ["1", "1"], "p02"),  # 6
            (["wild", "4"], ["1", "pass"], "p01"),  # WG-A24: the Wild's value first, then +1 -> 5
        ],
    )
    def test_plus_minus_tokens(self, token, changes, end):
        eng, state = fresh(values={"at/0": "p16"})
        put(state, "slots/0/A", ["k-pm-1", "k-pm-2"])
        state = take(eng, push(eng, state, "action_turn", p=0), token[0], "A", *token[1:])
        for c in changes:
            assert ids(eng, state) == ["-1", "1", "pass"]
            state = take(eng, state, c)
        assert state["vars"]["at/0"] == end


# ---------------------------------------------------------------- skills
class TestForage:  # WG-E4, WG-E6, WG-E11 (P1 stands on p01: z01 z02 z13)
    @pytest.mark.parametrize(
        "sources,offered",
        [
            ({"z01": "fungus", "z02": "flower", "z13": "nut"}, ["flower", "fungus", "nut"]),
            ({"z01": "fungus", "z02": "fungus", "z13": "nut"}, ["fungus", "nut"]),
        ],
    )
    def test_options_are_the_adjacent_sources(self, sources, offered):
        eng, state = fresh()
        set_sources(eng, state, sources)
        assert sorted(ids(eng, push(eng, state, "forage", p=0))) == offered

    def test_two_forages_may_take_the_same(self):
        eng, state = fresh()
        set_sources(eng, state, {"z01": "fungus", "z02": "flower", "z13": "nut"})
        state = take(eng, push(eng, state, "activate", p=0, s="A"), "Forage twice")
        for _ in range(2):
            assert sorted(ids(eng, state)) == ["flower", "fungus", "nut"]
            state = take(eng, state, "fungus")
        assert state["vars"]["stock/0/fungus"] == 2 and state["vars"]["stock/0/flower"] == 0

    @pytest.mark.parametrize("fruit_areas,gained", [(["z01", "z02"], 2), (["z13"], 2), ([], 0)])
    def test_near_token_fires_once(self, fruit_areas, gained):
        eng, state = fresh(values={"gained_on/k-near2-fruit": 3})
        set_sources(eng, state, {a: ("fruit" if a in fruit_areas else "nut") for a in ("z01", "z02", "z13")})
        put(state, "slots/0/A", ["k-near2-fruit"])  # gain_if_near(fruit, 2)
        state = take(eng, push(eng, state, "activate", p=0, s="A"), "Use a skill token")
        assert state["vars"]["stock/0/fruit"] == gained  # +2 once, never 2 x 2
        assert "Use a skill token" not in ids(eng, state)  # once per turn


class TestStudy:  # WG-E5
    @pytest.mark.parametrize(
        "held,offered",
        [([], ["book-fruit", "book-leaf", "book-root", "pass"]), (["book-root"], ["book-fruit", "book-leaf", "pass"])],
    )
    def test_book_skill_and_refill(self, held, offered):
        eng, state = fresh(values={"gained_on/k-forage-2": 3, "gained_on/k-main-1": 3})
        set_sources(eng, state, {"z01": "fruit", "z02": "root", "z13": "leaf"})
        swap_in(state, "book_spot/spot3", "book-fruit")  # spot3 is on shelf2
        swap_in(state, "lightbulb/shelf2", "k-forage-1")
        put(state, "books/0", held)
        put(state, "slots/0/C", ["k-forage-2", "k-main-1"])
        bag = len(state["zones"]["skill_bag"])
        state = take(eng, push(eng, state, "activate", p=0, s="C"), "Study")
        assert sorted(ids(eng, state)) == offered
        state = take(eng, state, "book-fruit", "C")
        z, v = state["zones"], state["vars"]
        assert sorted(z["books/0"]) == sorted(held + ["book-fruit"]) and z["book_spot/spot3"] == []
        assert "k-forage-1" in z["slots/0/C"] and v["gained_on/k-forage-1"] == v["turn_number"] == 9
        assert [len(z[f"lightbulb/shelf{i}"]) for i in range(1, 5)] == [1, 1, 1, 1]
        assert z["lightbulb/shelf2"] != ["k-forage-1"] and len(z["skill_bag"]) == bag - 1
        state = take(eng, state, "Use a skill token")
        assert sorted(ids(eng, state)) == ["k-forage-2", "k-main-1"]  # not the token gained this turn

    def test_two_books_cannot_study(self):
        eng, state = fresh()
        set_sources(eng, state, {"z01": "fruit", "z02": "root", "z13": "leaf"})
        put(state, "books/0", ["book-nut", "book-bark"])
        menu = ids(eng, push(eng, state, "activate", p=0, s="C"))
        assert "Study" not in menu and "Reserve and gain 2 VP" in menu


class TestCookServe:  # WG-E8, WG-E9
    SUPPLY = ["r04", "r01", "r11", "r21", "r27", "r30"]  # only r04 (nut fruit, 3 VP) is affordable

    def test_forage_then_cook_needs_no_picnic(self):
        eng, state = fresh(values={"stock/0/fruit": 1})  # p01 is not a picnic space
        set_sources(eng, state, {"z01": "nut", "z02": "nut", "z13": "nut"})
        put(state, "recipe_supply", self.SUPPLY)
        push(eng, state, "forage_then_cook", p=0)  # the forage is automatic: only nut
        assert ids(eng, state) == ["r04", "pass"]
        state = take(eng, state, "r04")
        z, v = state["zones"], state["vars"]
        assert (v["points/0"], v["stock/0/nut"], v["stock/0/fruit"], z["cooked/0"]) == (3, 0, 0, ["r04"])
        assert len(z["recipe_supply"]) == 6 and "r04" not in z["recipe_supply"]

    @pytest.mark.parametrize("space,offered", [("p04", True), ("p01", False)])
    def test_board_cook_needs_a_picnic(self, space, offered):
        eng, state = fresh(values={"at/0": space, "stock/0/fruit": 1, "stock/0/nut": 1})
        put(state, "recipe_supply", self.SUPPLY)
        assert ("Cook" in ids(eng, push(eng, state, "activate", p=0, s="B"))) == offered

    def test_serving_discards_recipes_without_losing_vp(self):
        eng, state = fresh(values={"at/0": "p04", "points/0": 10})
        put(state, "cooked/0", ["r04"])
        put(state, "guest_supply", ["g14", "g02", "g03", "g05", "g06", "g07"])
        assert ids(eng, push(eng, state, "serve", p=0)) == ["g14", "pass"]
        state = take(eng, state, "g14")
        # g14 Little Wren: 3 VP, When Served vp(2); the breakfast r04 is discarded: 10 + 3 + 2
        assert state["vars"]["points/0"] == 15 and state["zones"]["cooked/0"] == []
        assert "r04" in state["zones"]["recipe_discard"] and state["zones"]["served/0"] == ["g14"]

    def test_game_end_abilities_of_reserved_guests_do_not_score(self):
        eng, state = fresh(values={"points/0": 40, "jar_steps/0": 5, "stock/0/fungus": 5, "stock/0/leaf": 4})
        put(state, "served/0", ["g35", "g40", "g42", "g45", "g47"])
        put(state, "reserved_guests/0", ["g48", "g36"])  # end_flat(5), end_per_dish(lunch, 2)
        put(state, "cooked/0", ["r01", "r04", "r11"])
        run_alone(eng, state, [eng.game.phases["final"], 0, {}])
        # g35 2 x 2 breakfasts = 4; g40 1 x 5 served = 5; g42 1 x 5 fungus = 5;
        # g45 2 x (1 + jars 0+1+1+2+0) = 10; g47 4  -> 28 (reserved g48/g36 add nothing)
        want = {"Pollinator": 40, "Jar": 13, "At Game End": 28, "Ingredients": 2}  # jar_steps 5 -> 13; 9 // 4
        assert eng.breakdown(state, 0) == want and eng.total(state, 0) == 83


class TestReserveTrade:  # WG-E10, Trade
    def test_board_reserve_gains_2(self):
        eng, state = fresh()
        state = take(eng, push(eng, state, "activate", p=0, s="C"), "Reserve and gain 2 VP")
        card = state["zones"]["recipe_supply"][0]
        state = take(eng, state, card)
        z = state["zones"]
        assert state["vars"]["points/0"] == 2 and z["reserved_recipes/0"] == [card]
        assert len(z["recipe_supply"]) == 6 and card not in z["recipe_supply"]

    def test_reserve_card_gains_nothing(self):
        eng, state = fresh()
        card = push(eng, state, "reserve_card", p=0)["zones"]["guest_supply"][2]
        state = take(eng, state, card)
        assert state["vars"]["points/0"] == 0 and state["zones"]["reserved_guests/0"] == [card]

    @pytest.mark.parametrize(
        "guest,cooked,offered",
        [
            ("g01", ["r01"], True),  # g01 in the supply has a When Served: gain 2 fruit
            (None, ["r01"], False),  # no When Served anywhere: the token is not offered
            ("g01", [], False),  # no cooked Recipe to discard
        ],
    )
    def test_recipe_for_when_served_only_when_it_can_activate(self, guest, cooked, offered):
        # "(x2) Discard 1 cooked Recipe to Activate the "When Served" effect of a Guest card in your play area,
        # your reserve, or in the supply."
        eng, state = fresh()
        put(state, "guest_supply", ["g21", "g22", "g23", "g24", "g25"] + ([guest] if guest else ["g26"]))
        put(state, "cooked/0", cooked)
        put(state, "slots/0/A", ["k-ract-1"])
        push(eng, state, "activate", p=0, s="A")
        assert ("Use a skill token" in ids(eng, state)) == offered
        if offered:
            state = take(eng, state, "Use a skill token")  # the only token: taken at once
            assert ids(eng, state) == ["r01", "pass"]
            state = take(eng, state, "r01")  # paid: g01 is the only guest to activate, and it must be
            assert "r01" in state["zones"]["recipe_discard"] and state["vars"]["stock/0/fruit"] == 2

    def test_solo_reserve_replaces_every_reserve(self):
        # "Reserve (this replaces the multiplayer version)": Rest bonuses and guest abilities too, not only the board.
        eng, state = fresh(players=1)
        push(eng, state, "reserve_card", p=0)
        assert ids(eng, state) == ["breakfast", "lunch", "dinner", "dessert", "drink"]  # a Recipe type, not a card
        state = take(eng, state, "lunch")
        (card,) = state["zones"]["reserved_recipes/0"]
        assert eng.game.components[card]["dish"] == "lunch" and state["vars"]["points/0"] == 0

    def test_not_with_three_reserved(self):
        eng, state = fresh()
        put(state, "reserved_recipes/0", ["r01", "r02"])
        put(state, "reserved_guests/0", ["g01"])
        assert "Reserve and gain 2 VP" not in ids(eng, push(eng, state, "activate", p=0, s="C"))
        push(eng, state, "reserve_card", p=0)
        assert state["over"] and len(state["zones"]["reserved_recipes/0"]) == 2

    def test_trade_three_roots_for_an_aquatic(self):
        eng, state = fresh(values={"stock/0/root": 4})
        push(eng, state, "trade", p=0)
        # root is the only ingredient with 3; it is P1's turn, so free skills are offered too
        assert ids(eng, state) == ["root", "act:use_free_skills"]
        state = take(eng, state, "root")
        assert set(ids(eng, state)) >= set(INGREDIENTS) - {"root"}  # "gain any 1 Ingredient"
        v = take(eng, state, "aquatic")["vars"]
        assert (v["stock/0/root"], v["stock/0/aquatic"]) == (1, 1)


# ---------------------------------------------------------------- whole games
class TestDaysAndTurns:
    @pytest.mark.parametrize("players,seed", [(2, 31), (3, 32), (4, 33)])
    def test_turns_per_day_and_first_player(self, players, seed):
        eng, turns, firsts = shipped("wild_gardens"), {}, {}

        def watch(state, d):  # every turn has a section choice or a rest token choice (3+ options)
            if is_token(d) or own_ids(d) == {"A", "B", "C"}:
                key = (state["vars"]["trip"], state["vars"]["day_number"])
                turns.setdefault(key + (d.actor,), set()).add(state["vars"]["turn_number"])
                firsts.setdefault(key, (d.actor, state["first"]))

        state = play(eng, players, seed, watch)
        assert state["vars"]["turn_number"] == 30 * players, f"seed {seed}: 15 turns a trip each"
        assert len(turns) == 6 * players
        for (trip, day, p), seen in turns.items():
            assert len(seen) == {1: 6, 2: 5, 3: 4}[day], f"seed {seed}: P{p + 1} trip {trip} day {day}"
        order = [firsts[(t, d)] for t in (1, 2) for d in (1, 2, 3)]
        assert order == [(i % players, i % players) for i in range(6)], f"seed {seed}"

    @pytest.mark.parametrize("players,seed", [(1, 41), (2, 42), (3, 43), (4, 44)])
    def test_supplies_hold_six(self, players, seed):
        eng = shipped("wild_gardens", variants=["keep_it_fresh"])

        def watch(state, d):
            z = state["zones"]
            for kind in ("recipe", "guest"):
                if z[f"{kind}_deck"] or z[f"{kind}_discard"]:
                    assert len(z[f"{kind}_supply"]) == 6, f"seed {seed}, step {state['step']}: {kind}"
                held = [c for k, v in z.items() if k != "box" for c in v if c in eng.game.kinds[kind]]
                assert sorted(held) == sorted(eng.game.kinds[kind]), f"seed {seed}: {kind} cards lost"

        play(eng, players, seed, watch)

    @pytest.mark.parametrize("players,seed", [(2, 51), (3, 52), (4, 53)])
    def test_final_score_formula(self, players, seed):
        eng = shipped("wild_gardens")
        state = play(eng, players, seed)
        for s in eng.scores(state):
            p, v = s["player"], state["vars"]
            steps, stock = v[f"jar_steps/{p}"], sum(v[f"stock/{p}/{i}"] for i in INGREDIENTS)
            want = {
                "Pollinator": v[f"points/{p}"],
                "Jar": JAR[steps % 20] + 60 * (steps // 20),
                "At Game End": reference_end(eng, state, p),
                "Ingredients": stock // 4,
            }
            assert s["breakdown"] == want and s["total"] == sum(want.values()), f"seed {seed}, P{p + 1}"


def reference_end(eng, state, p):
    """At Game End VP of the served guests, straight from guests.csv (reserved guests do not count)."""
    comps, served = eng.game.components, state["zones"][f"served/{p}"]
    rules = {
        "end_per_dish": lambda d, n: n * sum(comps[r]["dish"] == d for r in state["zones"][f"cooked/{p}"]),
        "end_per_guest": lambda n: n * len(served),
        "end_per_ingredient": lambda i, n: n * state["vars"][f"stock/{p}/{i}"],
        "end_per_jar": lambda n: n * (1 + sum(comps[g]["jars"] for g in served)),
        "end_flat": lambda n: n,
    }
    return sum(rules[comps[g]["game_end"][0]](*comps[g]["game_end"][1]) for g in served if comps[g]["game_end"])


class TestTiebreaks:
    def advantage(self, state, p, tier):
        """Give player p the edge on one tie-break key without changing their total."""
        z, v = state["zones"], state["vars"]
        if tier == 2:
            v[f"stock/{p}/fungus"] = 3  # 3 // 4 = 0 VP
        elif tier == 3:
            v[f"jar_steps/{p}"], v[f"points/{p}"] = 1, v[f"points/{p}"] - 2  # Jar 2, Pollinator -2
        else:  # most guests, cooked recipes, skill tokens, reserved recipes
            zone, source = {
                0: ("served", "guest_deck"),
                1: ("cooked", "recipe_deck"),
                4: ("slots", "skill_bag"),
                5: ("reserved_recipes", "recipe_deck"),
            }[tier]
            z[f"{zone}/{p}" + ("/A" if zone == "slots" else "")].append(z[source].pop())

    @pytest.mark.parametrize("tier", range(6))
    def test_each_key_decides_alone(self, tier):
        eng, state = fresh(values={"points/0": 10, "points/1": 10})
        self.advantage(state, 1, tier)  # P2 wins this key ...
        for lower in range(tier + 1, 6):
            self.advantage(state, 0, lower)  # ... while P1 wins every later key
        assert eng.total(state, 0) == eng.total(state, 1) == 10
        assert [(r["player"], r["place"]) for r in eng.ranking(state)] == [(1, 1), (0, 2)], f"tier {tier + 1}"

    def test_full_tie_is_shared(self):  # WG-A21
        eng, state = fresh()
        assert [r["place"] for r in eng.ranking(state)] == [1, 1]


# ---------------------------------------------------------------- optional rules
class TestKeepItFresh:
    STALE_RECIPES = ["r01", "r02", "r03", "r11", "r21", "r31"]  # 3 breakfasts
    MIXED_RECIPES = ["r01", "r02", "r11", "r21", "r31", "r41"]  # at most 2 of a dish
    STALE_GUESTS = ["g02", "g05", "g11", "g01", "g03", "g06"]  # 3 want lunch
    MIXED_GUESTS = ["g01", "g03", "g05", "g07", "g10", "g16"]  # 3 Chef's Choice, lunch only twice

    def menu(self, variants, recipes, guests):
        # Trade keeps the menu open; the menu runs as at the end of a turn (no free skills inside it)
        eng, state = fresh(variants=variants, values={"stock/0/fungus": 3, "turn_player": None})
        put(state, "recipe_supply", recipes)
        put(state, "guest_supply", guests)
        return eng, push(eng, state, "free_skills", p=0)

    @pytest.mark.parametrize(
        "variants,recipes,guests,offered",
        [
            (["keep_it_fresh"], STALE_RECIPES, MIXED_GUESTS, True),
            (["keep_it_fresh"], MIXED_RECIPES, STALE_GUESTS, True),
            (["keep_it_fresh"], MIXED_RECIPES, MIXED_GUESTS, False),
            ([], STALE_RECIPES, STALE_GUESTS, False),
        ],
    )
    def test_offered_only_when_stale_with_the_variant(self, variants, recipes, guests, offered):
        eng, state = self.menu(variants, recipes, guests)
        assert ("Keep It Fresh" in ids(eng, state)) == offered

    def test_once_per_turn(self):
        eng, state = self.menu(["keep_it_fresh"], self.STALE_RECIPES, self.MIXED_GUESTS)
        state = take(eng, state, "Keep It Fresh")  # only the recipes qualify: no further choice
        z = state["zones"]
        assert len(z["recipe_supply"]) == 6 and not set(z["recipe_supply"]) & set(self.STALE_RECIPES)
        assert set(self.STALE_RECIPES) <= set(z["recipe_discard"]) and state["vars"]["fresh_on/0"] == 9
        put(state, "recipe_supply", self.STALE_RECIPES)  # stale again, same turn
        assert "Keep It Fresh" not in ids(eng, push(eng, state, "free_skills", p=0))
        state["vars"]["turn_number"] = 10
        assert "Keep It Fresh" in ids(eng, push(eng, state, "free_skills", p=0))


FLIP, KEEP = "Flip the Path Board for the second trip", "Keep the same side"


class TestDifferentPath:
    @pytest.mark.parametrize(
        "players,seed,variants,side",
        [
            (2, 61, ["a_different_path"], "back"),
            (4, 62, ["a_different_path"], "back"),
            (3, 63, [], "front"),
            (3, 64, ["a_different_path"], "front"),
        ],
    )  # the variant, and the table keeps the side
    def test_second_trip_board(self, players, seed, variants, side):
        eng, checked = shipped("wild_gardens", variants=variants), []

        def watch(state, d):
            v = state["vars"]
            if v["trip"] == 2 and is_token(d) and not checked:
                where = [v[f"at/{p}"] for p in range(players)]
                assert v["path"] == side and set(where) <= spaces(side), f"seed {seed}: {where}"
                assert len(set(where)) == players, f"seed {seed}: foragers share a space"
                if side == "back":  # placed as in setup, the new first player by the statue
                    assert where[state["first"]] == "q01" and d.actor == state["first"]
                    assert set(where) - {"q01"} <= {"q02", "q18", "q27"}
                checked.append(True)

        play(eng, players, seed, watch, prefer={"back": {FLIP}, "front": {KEEP}}[side])
        assert checked, f"seed {seed}: trip 2 never started"

    @pytest.mark.parametrize("choice,side", [(FLIP, "back"), (KEEP, "front")])
    def test_the_flip_is_the_players_choice(self, choice, side):
        # "When ending the first trip, you can choose to add in another step that allows you to change the Path Board"
        eng, state = fresh(variants=["a_different_path"])
        state["first"] = 1
        push(eng, state, "end_trip")
        d = eng.decision(state)
        assert d.actor == 1 and sorted(o.id for o in d.options) == [FLIP, KEEP]
        state = take(eng, state, choice)
        while (d := eng.decision(state)) is not None and state["vars"]["path"] == "back":
            state = take(eng, state, 0)  # forager placement on the new side
        assert state["vars"]["path"] == side
        if side == "front":
            assert (state["vars"]["at/0"], state["vars"]["at/1"]) == ("p01", "p10")  # foragers stay


class TestFreeSkillsAnyTime:
    """ "Free skills can be used at any time on your turn": also between the steps of a
    combined effect. Today's main offered them only at fixed points of the turn."""

    def test_offered_in_the_middle_of_foraging_and_the_forage_is_asked_again(self):
        eng, state = fresh(values={"stock/0/fungus": 3, "turn_player": 0})
        push(eng, state, "forage_twice", p=0)
        before = own_ids(eng.decision(state))
        assert eng.decision(state).actor == 0 and "act:use_free_skills" in ids(eng, state)
        state = take(eng, state, "act:use_free_skills")
        # Inside the free skills menu no action is offered again.
        assert "act:use_free_skills" not in ids(eng, state)
        # After the trade only "Done" is left in the menu: it closes by itself.
        state = take(eng, state, "Trade 3 matching ingredients for 1", "root")
        assert state["vars"]["stock/0/fungus"] == 0 and state["vars"]["stock/0/root"] == 1
        assert own_ids(eng.decision(state)) == before, "the interrupted forage is asked again"
        assert "act:use_free_skills" not in ids(eng, state), "nothing left to trade"

    def test_not_offered_on_another_players_turn(self):
        eng, state = fresh(values={"stock/0/fungus": 3, "turn_player": 1})
        push(eng, state, "forage_twice", p=0)
        assert "act:use_free_skills" not in ids(eng, state)


class TestPayingIsOneStep:
    """ "Pay its cost by discarding one of each of the listed types of Recipe cards": a check, the
    choice of what pays and the payment are one step (`together:`), so the free skills offered at
    every decision of the turn are not offered between them. Before, a guest ability could take the
    recipe being paid with (the next payment choice then had no option: a rules error) and a Trade
    at "pay?" left the player at -1 of an ingredient with the reward still given."""

    def serving(self, cooked, guest):
        eng, state = fresh(values={"at/0": "p04", "turn_player": 0})
        put(state, "cooked/0", cooked)
        put(state, "served/0", ["g29"])  # Critic Thyme: discard to `recipe_for_vp(4)`, a free skill
        put(state, "guest_supply", [guest, "g03", "g05", "g06", "g07", "g08"])
        return eng, push(eng, state, "serve", p=0)

    def test_serving_pays_without_a_free_skill_in_between(self):
        # g02 Ranger Hollis wants lunch and dinner: r11 (lunch) and r21 (dinner) pay, both at once.
        eng, state = self.serving(["r11", "r21"], "g02")
        assert "act:use_free_skills" in ids(eng, state), "offered before the guest is chosen"
        state = take(eng, state, "g02")
        z = state["zones"]
        assert z["cooked/0"] == [] and {"r11", "r21"} <= set(z["recipe_discard"]) and "g02" in z["served/0"]

    def test_chefs_choice_is_part_of_the_payment(self):
        # g04 Professor Fennel wants drink and breakfast, and one recipe of any kind (Chef's Choice).
        eng, state = self.serving(["r41", "r01", "r11", "r21"], "g04")
        state = take(eng, state, "g04")
        d = eng.decision(state)
        assert d.prompt == "Which cooked recipe goes to Chef's Choice?"
        assert own_ids(d) == {o.id for o in d.options} == {"r11", "r21"}, "no free skill while paying"

    def test_discard_two_cooked_recipes_token(self):
        eng, state = fresh(values={"turn_player": 0})
        put(state, "cooked/0", ["r01", "r11", "r21"])
        put(state, "served/0", ["g29"])
        push(eng, state, "recipes_for_jar", p=0, n=2)
        assert ids(eng, state) == ["pay", "pass"]
        state = take(eng, state, "pay")
        assert ids(eng, state) == ["r01", "r11", "r21"]

    @pytest.mark.parametrize(
        "effect,env",
        [
            ("pay_for_jar", {"a": "fungus", "b": "root"}),  # "Discard the pictured Ingredients to move your Jar"
            (
                "main_for_vp",
                {"n": 1},
            ),  # "Discard 1 Ingredient token matching the current Main Ingredient to gain 1 VP."
            ("main_for_forage", {}),  # "... to Forage twice."
        ],
    )
    def test_no_trade_between_the_check_and_the_payment(self, effect, env):
        eng, state = fresh(values={"turn_player": 0})
        main = eng.game.components[state["zones"]["recipe_deck"][0]]["main"]
        # 3 of what is paid (so a Trade of it is possible) and a root for the Jar.
        state["vars"].update({"stock/0/root": 1, f"stock/0/{env.get('a', main)}": 3})
        push(eng, state, effect, p=0, **env)
        assert ids(eng, state) == ["pay", "pass"], "a Trade here would spend what was checked"


class TestServingHint:
    """The bots' hint "a guest ready to serve, a picnic space within reach of a token in hand":
    P1 on p01 holds a cooked breakfast for Little Wren (g14); the picnic space p04 is 3 spaces on."""

    HINT = "A guest ready to serve, a picnic within reach of a token in hand"

    def value(self, cooked=("r04",), placed=(), rested=()):
        eng, state = fresh()
        put(state, "cooked/0", list(cooked))
        put(state, "guest_supply", ["g14", "g02", "g03", "g05", "g06", "g07"])
        state["vars"].update({f"placed/0/{t}": True for t in placed})
        state["vars"].update({f"rested/0/{t}": True for t in rested})
        return eng.hints(state, 0)[self.HINT]

    def test_a_token_of_three_or_the_wild_in_hand_reaches_it(self):
        assert self.value() == 1
        assert self.value(placed=["three"]) == 1  # the Wild can count 3
        assert self.value(placed=["wild"], rested=["one"]) == 1

    def test_without_a_three_in_hand_it_is_out_of_reach(self):
        assert self.value(placed=["three", "wild"]) == 0
        assert self.value(placed=["one", "two"], rested=["three", "wild"]) == 0

    def test_with_every_token_placed_any_number_counts(self):  # a rest is next: they come back
        assert self.value(placed=TOKENS) == 1

    def test_nothing_to_serve_no_hint(self):
        assert self.value(cooked=()) == 0


# ---------------------------------------------------------------- what a player reads
class TestReading:
    def test_a_guest_reads_its_whole_card(self):
        # "Chef's Choice: If a Guest card displays this icon, you may Serve them any Recipe of your choice",
        # the Jar icons ("Guests with a Jar icon help you move your Jar token faster") and the ability.
        labels = shipped("wild_gardens").game.labels
        assert labels["g04"] == (
            "Professor Fennel (7 VP, Jar icons 0; wants drink breakfast, Chef's Choice 1; When Served: gain 2 Flower)"
        )
        assert "Jar icons 1" in labels["g01"]

    def test_a_location_reads_its_day_effect_and_rest_bonuses(self):
        label = shipped("wild_gardens").game.labels["l01"]
        assert label == (
            "Sunny Meadow (each day: gain 1 VP; Rest bonus 1: gain 2 VP; 2: gain 1 Flower and 1 Fruit; "
            "3: forage twice; 4: forage, then cook (no picnic zone needed))"
        )

    def test_the_rest_prompt_says_the_rulebooks_words_and_each_tokens_bonus(self):
        # "take a Rest action by choosing an Action token on your Player Board and placing it on the current day
        # of the Location Board. ... The number on the Action token determines which Bonus effect you will receive."
        eng, state = fresh()
        d = eng.decision(resting(eng, state, "l01"))
        assert d.prompt == "Rest: place which Action token on the Location Board?"
        labels = {o.id: o.label for o in d.options}
        assert labels["one"] == "one: gain 2 VP" and labels["four"].startswith("four: forage, then cook")
        assert labels["wild"] == "wild: you choose the bonus"
        state = take(eng, state, "wild")
        assert [o.label for o in eng.decision(state).options][1] == "2: gain 1 Flower and 1 Fruit"

    def test_the_terminal_shows_the_main_ingredient_on_the_recipe_decks_back(self):
        # "If an effect refers to the current Main Ingredient, it is referring to the one on top of the Recipe Deck."
        from meeple.interpreter.terminal import table_text

        eng, state = fresh()
        main = eng.game.components[state["zones"]["recipe_deck"][0]]["main"]
        line = next(x for x in table_text(eng.game, eng.view(state, 1), 1) if "the recipe deck" in x)
        assert line.endswith(f"hidden (the back shows {main})")

    def test_the_when_served_token_guard_reads_a_field_not_a_name(self):
        # Renaming the token in the data must not silently turn its guard off.
        eng, state = fresh()
        for cid, comp in eng.game.components.items():
            if cid.startswith("k-ract"):
                comp["name"] = "Renamed"
        put(state, "guest_supply", ["g21", "g22", "g23", "g24", "g25", "g26"])  # no When Served anywhere
        put(state, "cooked/0", ["r01"])
        put(state, "slots/0/A", ["k-ract-1"])
        push(eng, state, "activate", p=0, s="A")
        assert "Use a skill token" not in ids(eng, state)
