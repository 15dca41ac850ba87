"""Apothebakery: the worked examples AB-E1..AB-E32 of RULEBOOK-NOTES.md §3 (rulebook shared/seeds/003_44e685869acc6128.txt),
on hand-built states (one effect of the ruleset run alone) and on seeded random games of every mode.
Card data used (rulesets/apothebakery/*.csv): cure-01 = plant plant (rep 2), cure-02 = water water (2),
cure-03 = berry berry (2), cure-04 = rock rock (2), cure-06 = plant water (3), cure-16 = plant berry rock (4);
adv-02 / adv-05 / adv-08: 1 spell, adv-02 and adv-08 have the GV gv_vial; res-*-01..05 potency 1,
-06..09 potency 2, -10..12 potency 3; f-plant-NN: stamina ceil(NN/3), strength (NN-1)%3+1;
cor-05: stamina 5, heart 2, corrupts s2 s3; cor-14: stamina 9. Die faces: the enum `face`.
"""

from __future__ import annotations

import pytest
from conftest import shipped

from meeple.interpreter import rng
from meeple.interpreter.rng import Random
from tests.helpers import effect_frame, run_alone, take
from tests.helpers import fill_zone as put
from tests.helpers import option_ids as ids

SPECIES = ["plant", "water", "berry", "rock", "insect"]  # seats 0..3 hatch the first four
FACES = ["skull", "blank", "plus1", "minus1", "minus2", "minus3"]


def fresh(players=2, zones=None, values=None, **options):
    """A started game (P1 plant, P2 water, ...) at the first Forrie choice; then the zones and counters given."""
    eng = shipped("apothebakery", {"objectives": "off", **options})
    state, _ = eng.start(players, 1)
    for sp in SPECIES[:players]:
        state, _ = eng.apply(state, sp)
    for key, items in (zones or {}).items():
        put(state, key, items)
    state["vars"].update(values or {})
    return eng, state


def push(eng, state, effect, frame=None, **env):
    """Run one effect of the ruleset (or a frame) alone up to its next decision; the events it caused."""
    return run_alone(eng, state, frame or effect_frame(eng, effect, **env))


def cast(eng, state, p, moment):  # the "Cast your spell" action alone, at this moment
    a = next(a for a in eng.game.actions if a.name == "cast_spell")
    state["vars"]["#moment"] = moment
    return push(eng, state, None, [a.block, 0, {a.param: p}])


def pick(eng, state, cards):  # the option whose value is this set of cards (a `subsets` choice)
    d = eng.decision(state)
    return eng.apply(state, next(i for i, o in enumerate(d.options) if sorted(o.value or []) == sorted(cards)))[0]


def rigged(state, *faces):
    """Set the RNG so that the next die rolls show `faces` (a seed found by trying)."""
    for seed in range(20000):
        probe = {"rng": rng.seed_state(seed)}
        if [FACES[rng.below(probe, 6)] for _ in faces] == list(faces):
            state["rng"] = rng.seed_state(seed)
            return state
    raise AssertionError(f"no seed below 20000 rolls {faces}")


def rolls(events):
    return [e["value"] for e in events if e["e"] == "roll"]


def adventurer(state, *rows):  # (place, adventurer, diagnosis, cure, hearts)
    for place, adv, dx, cure, hearts in rows:
        for zone, card in (("adventurer_at", adv), ("diagnosis_at", dx), ("cure_at", cure)):
            put(state, f"{zone}/{place}", [card])
        state["vars"][f"hearts/{place}"] = hearts


def wild(cards):
    return {f"wild_at/s{i}": [c] for i, c in enumerate(cards, 1)}


def kinds(items):  # "pure-plant-3" -> "pure-plant"
    return sorted(x.rsplit("-", 1)[0] for x in items)


def play(eng, players, seed, watch=lambda state, d: None):
    """A seeded random game that mostly does something rather than finish or pass."""
    rnd = Random(seed)
    state, events = eng.start(players, seed)
    while (d := eng.decision(state)) is not None:
        watch(state, d)
        active = [i for i, o in enumerate(d.options) if o.id not in ("Done", "pass")]
        choice = active[rnd.below(len(active))] if active and rnd.below(4) else rnd.below(len(d.options))
        state, ev = eng.apply(state, choice)
        events += ev
    return state, events


WATER = ["res-water-01", "res-water-02", "res-water-03", "res-water-04", "res-water-05"]
PLANTS = [f"pure-plant-{i}" for i in range(1, 7)]
WATERS = [f"pure-water-{i}" for i in range(1, 9)]


# ---------------------------------------------------------------- phase 1: foraging
class TestForaging:
    @pytest.mark.parametrize("stamina", [6, 7])  # P1 is plant: no discount on berry / insect
    def test_e1_stamina_spent_and_the_rest_lost(self, stamina):
        eng, state = fresh(
            zones=wild(["res-water-01", "res-berry-01", "res-water-02", "res-insect-01", "res-water-03"]),
            values={"stamina/0": stamina},
        )
        push(eng, state, "forage_turn", p=0)
        state = take(eng, state, "s2", "s4")  # 6 - 2 - 4 = 0: the turn ends; 7 - 6 = 1: s1 (cost 1) only
        assert ids(eng, state) == ([] if stamina == 6 else ["s1", "pass"])
        if stamina == 7:
            state = take(eng, state, "pass")
        assert state["zones"]["resources/0"] == ["res-berry-01", "res-insect-01"]
        assert state["vars"]["left_to_spend/0"] == 0 and eng.decision(state) is None  # unspent: lost

    @pytest.mark.parametrize(
        "seat0,seat1,order",
        [  # (stamina, cards, strength)
            ((5, 1, 1), (4, 1, 1), [1, 0]),  # AB-E2: 5 vs 4 -> P2, P1
            ((5, 2, 1), (5, 3, 9), [0, 1]),  # AB-E3: equal stamina, 2 cards beat 3 (whatever the strength)
            ((6, 2, 5), (6, 2, 7), [1, 0]),  # AB-E3: equal cards, strength 7 beats 5
        ],
    )
    def test_e2_e3_turn_order(self, seat0, seat1, order):
        eng, state = fresh()
        for p, (stamina, cards, strength) in enumerate([seat0, seat1]):
            state["vars"].update({f"stamina/{p}": stamina, f"cards/{p}": cards, f"strength/{p}": strength})
        assert rolls(push(eng, state, "decide_order")) == [] and state["vars"]["order"] == order

    @pytest.mark.parametrize(
        "faces,order",
        [
            (("minus1", "skull"), [0, 1]),  # a skull always loses, even to -1
            (("skull", "minus3"), [1, 0]),
            (("minus2", "plus1"), [1, 0]),  # +1 > -2
            (("minus3", "minus1"), [1, 0]),  # -1 > -3
        ],
    )
    def test_e3_rolloff_both_players_roll(self, faces, order):
        eng, state = fresh(
            values={f"{k}/{p}": n for p in (0, 1) for k, n in (("stamina", 5), ("cards", 2), ("strength", 4))}
        )
        events = push(eng, rigged(state, *faces), "decide_order")
        # "roll the Side Effect die; the player who rolls the higher number will take the lead": every tied
        # player rolls (P1, then P2), the first one does not roll against an unrolled 0
        assert rolls(events) == list(faces), "every tied player rolls"
        assert state["vars"]["order"] == order

    def test_e4_feeding(self):
        eng, state = fresh(
            zones={**wild(WATER), "resources/0": ["res-rock-06"]},  # potency 2; s5 costs 5
            values={"stamina/0": 3, "order": [1, 0]},
        )
        push(eng, state, "forage_turn", p=0)
        assert ids(eng, state) == ["res-rock-06", "pass"]
        state = take(eng, state, "res-rock-06")
        assert "s5" in ids(eng, state) and state["vars"]["left_to_spend/0"] == 5  # 3 + 2
        assert state["vars"]["order"] == [1, 0] and state["vars"]["fed/0"]  # the order is unchanged
        assert "res-rock-06" in state["zones"]["wild_discard"]  # consumed
        state = take(eng, state, "pass")
        put(state, "resources/0", ["res-rock-07"])
        push(eng, state, "forage_turn", p=0)  # again in the same round: no second feed
        assert "res-rock-07" not in ids(eng, state) and "s3" in ids(eng, state)

    def test_e14_e15_played_forrie_exhausted_unplayed_on_top(self):
        eng, state = fresh(
            zones={
                "forrie_hand/0": [],
                **wild(["res-plant-01"] + WATER[:4]),  # s1: 1 - 1 = 0
                "forrie_deck/0": ["f-plant-04", "f-plant-01", "f-plant-02", "f-plant-09"],
                "forrie_deck/1": ["f-water-10", "f-water-11", "f-water-12", "f-water-01"],
            }
        )
        push(eng, state, "foraging")
        state = pick(eng, state, ["f-plant-04"])  # stamina 2
        state = pick(eng, state, ["f-water-10"])  # stamina 4: P1 (2) forages first
        assert eng.decision(state).actor == 0
        state = take(eng, state, "s1", "pass", "pass")  # P1 takes only the 0-cost card; P2 takes nothing
        z = state["zones"]
        assert z["resources/0"] == ["res-plant-01"] and z["exhausted/0"] == ["f-plant-04"]
        assert z["forrie_hand/0"] == [], "every unselected Forrie goes back to the deck"
        assert sorted(z["forrie_deck/0"][:2]) == ["f-plant-01", "f-plant-02"]  # on top
        push(eng, state, "draw_forries", p=0)
        assert {"f-plant-01", "f-plant-02"} <= set(state["zones"]["forrie_hand/0"])

    @pytest.mark.parametrize("affordable,shuffled", [(True, False), (False, True)])
    def test_iridescent_only_when_unable_to_forage(self, affordable, shuffled):
        # "In the rare event that you're unable to forage any resources during your turn, shuffle your Iridescent
        # Forrie card into your Forrie Egg deck": a pass while a card was affordable is not "unable".
        empty = {f"wild_at/s{i}": [] for i in range(1, 6)}
        eng, state = fresh(
            zones={**empty, "wild_at/s1": ["res-water-01"] if affordable else []}, values={"stamina/0": 1}
        )
        push(eng, state, "forage_turn", p=0)
        if affordable:
            assert ids(eng, state) == ["s1", "pass"]
            state = take(eng, state, "pass")
        assert eng.decision(state) is None and state["vars"]["gathered/0"] == 0
        assert ("f-plant-iri" in state["zones"]["forrie_deck/0"]) == shuffled

    def test_an_iridescent_played_this_round_comes_back_when_unable_again(self):
        # Clarifications: "This card is a one-time use, unless the same situation occurs again in a future turn
        # and you cannot forage a resource." Played (first position) and still unable: it is shuffled in again.
        empty = {f"wild_at/s{i}": [] for i in range(1, 6)}
        eng, state = fresh(
            zones={**empty, "forrie_shown/0": ["f-plant-iri"], "iridescent_aside/0": []},
            values={"stamina/0": 0, "claims_first/0": True},
        )
        push(eng, state, "forage_turn", p=0)
        z = state["zones"]
        assert "f-plant-iri" in z["forrie_deck/0"] and z["forrie_shown/0"] == [] and z["iridescent_aside/0"] == []

    def test_iridescent_shuffle_keeps_the_unplayed_forries_on_top_in_order(self):
        # "Any unselected Forrie cards are returned to the top of your Forrie deck, ensuring they're drawn first"
        eng, state = fresh(
            zones={
                "forrie_hand/0": [],
                **{f"wild_at/s{i}": [] for i in range(1, 6)},
                "forrie_deck/0": [
                    "f-plant-12",
                    "f-plant-05",
                    "f-plant-01",
                    "f-plant-02",
                    "f-plant-03",
                    "f-plant-04",
                    "f-plant-06",
                ],
                "forrie_deck/1": ["f-water-10", "f-water-11", "f-water-12", "f-water-01"],
            }
        )
        push(eng, state, "foraging")
        state = pick(eng, state, ["f-plant-12"])  # P1 returns f-plant-05 and f-plant-01, in that order
        state = pick(eng, state, ["f-water-10"])
        assert eng.decision(state) is None  # an empty Wilderness: nobody can forage
        deck = state["zones"]["forrie_deck/0"]
        assert state["vars"]["unplayed/0"] == 2 and "f-plant-iri" in deck  # unable: shuffled in ...
        assert deck[:2] == ["f-plant-05", "f-plant-01"]  # ... below the returned Forries

    @pytest.mark.parametrize(
        "s1,s4,stamina",
        [
            ("res-plant-01", "res-water-06", 0),  # matching cost-1 slot: 0
            ("res-water-01", "res-plant-06", 4),  # matching cost-4 slot: 3, and 4 - 3 = 1 still buys s1
        ],
    )
    def test_e26_species_discount(self, s1, s4, stamina):
        eng, state = fresh(
            zones=wild([s1, "res-water-02", "res-water-03", s4, "res-water-04"]), values={"stamina/0": stamina}
        )
        push(eng, state, "forage_turn", p=0)
        if stamina == 4:
            assert "s4" in ids(eng, state) and "s5" not in ids(eng, state)
            state = take(eng, state, "s4")
        assert ids(eng, state) == ["s1", "pass"]
        state["vars"].update({"stamina/0": 8, "fed/0": True})  # (no feeding offer)
        top2 = state["zones"]["wild_deck"][:2]
        push(eng, state, "forage_turn", p=0)  # 8 buys two blind deck cards, without any discount
        state = take(eng, state, "two from the deck for 8")  # 8 - 8 = 0 left
        assert state["zones"]["resources/0"][-2:] == top2 and state["vars"]["left_to_spend/0"] == 0


# ---------------------------------------------------------------- phase 2: alchemy
class TestAlchemy:
    def test_rainbow_declared_before_the_pull_combines_before_the_overflow_discard(self):
        # "The Rainbow ability is only activated before pulling if you're relying on elixirs from an immediate
        # pull": declared with the card, the two drawn waters become a rainbow, and 5 + 1 = 6 fit without a discard.
        pulls = ["pure-water-1", "pure-water-2"]
        eng, state = fresh(
            zones={"inventory/0": PLANTS[:5], "resources/0": ["res-water-06"], "bag/water": pulls},
            values={"burned/0/transmute": True, "burned/0/potency": True},
        )
        push(eng, state, "process", p=0)
        assert ids(eng, state) == ["Rainbow with this pull", "pass"]
        state = pick(eng, take(eng, state, "Rainbow with this pull"), pulls)
        z, v = state["zones"], state["vars"]
        assert kinds(z["inventory/0"]) == ["pure-plant"] * 5 + ["rainbow"] and eng.decision(state) is None
        assert v["mana/0"] == 11 and v["burned/0/rainbow_ability"] and sorted(z["bag/water"]) == pulls

    def test_e5_overflow_draw_all_then_discard(self):
        pulls = ["pure-berry-1", "pure-berry-2", "impure-berry-1"]
        eng, state = fresh(
            zones={"inventory/0": PLANTS[:4], "resources/0": ["res-berry-10"], "bag/berry": pulls},
            values={"burned/0/transmute": True, "burned/0/potency": True},
        )
        push(eng, state, "process", p=0)
        state = take(eng, state, "pass")  # no Rainbow declared: potency 3, all three drawn first
        assert set(ids(eng, state)) == set(PLANTS[:4] + pulls)
        state = take(eng, state, "impure-berry-1")  # 4 + 3 = 7 -> one discard down to 6
        z = state["zones"]
        assert z["inventory/0"][:4] == PLANTS[:4] and sorted(z["inventory/0"][4:]) == pulls[:2]
        assert z["bag/berry"] == ["impure-berry-1"] and "res-berry-10" in z["wild_discard"]

    @pytest.mark.parametrize(
        "ability,choice,pulled",
        [
            ("transmute", "rock", ["pure-rock"] * 2),  # AB-E6: Water potency 2 -> 2 pulls from the Rock bag
            ("potency", "+1 potency", ["pure-water"] * 3),  # AB-E7: 2 + 1 = 3 pulls from the Water bag
        ],
    )
    def test_e6_e7_transmute_and_potency(self, ability, choice, pulled):
        other = {"transmute": "potency", "potency": "transmute"}[ability]
        eng, state = fresh(
            zones={
                "resources/0": ["res-water-06"],
                "bag/water": WATERS,
                "bag/rock": [f"pure-rock-{i}" for i in range(1, 9)],
            },
            values={f"burned/0/{other}": True},
        )
        push(eng, state, "process", p=0)
        state = take(eng, state, choice, "pass")  # no Rainbow declared for the pull
        z, v = state["zones"], state["vars"]
        assert kinds(z["inventory/0"]) == pulled and len(z["bag/water"]) + len(z["bag/rock"]) == 16 - len(pulled)
        assert v["mana/0"] == 12 - 1 and v[f"burned/0/{ability}"]

    def test_e8_transmute_then_rainbow_then_nothing(self):
        eng, state = fresh(zones={"resources/0": ["res-berry-06"], "inventory/0": PLANTS[:2], "bag/water": WATERS})
        push(eng, state, "alchemy", p=0)
        state = take(
            eng,
            state,
            "Process a resource card",
            "water",
            "pass",
            "pass",  # no Potency, no Rainbow yet
            "Rainbow: combine two pure elixirs",
            "pure-plant-1+pure-plant-2",
        )
        z, v = state["zones"], state["vars"]
        assert v["mana/0"] == 12 - 1 - 2 and v["burned/0/transmute"] and v["burned/0/rainbow_ability"]
        assert kinds(z["inventory/0"]) == ["pure-water", "pure-water", "rainbow"] and "pure-plant-1" in z["bag/plant"]
        # no third ability: "Done" was the only entry, taken at once (rearranging is asked for apart)
        assert eng.decision(state) is None and eng.requests(state) == []
        put(state, "resources/0", ["res-berry-07"])
        push(eng, state, "process", p=0)  # no Transmute / Potency offer any more: straight to the pulls
        assert len(state["zones"]["inventory/0"]) == 3 + 2 and eng.decision(state) is None

    def test_each_ability_offered_while_processing_says_what_it_costs(self):
        eng, state = fresh(zones={"resources/0": ["res-berry-06"], "bag/water": WATERS})
        push(eng, state, "process", p=0)
        assert eng.decision(state).prompt == "Transmute it into another elixir (cost 1 mana)?"
        state = take(eng, state, "water")
        assert eng.decision(state).prompt == "Add 1 potency (cost 2 mana)?"  # the second ability costs 2
        state = take(eng, state, "pass")
        assert eng.decision(state).prompt == "Declare Rainbow for this pull (cost 2 mana)?"

    @pytest.mark.parametrize("mana,second", [(2, False), (3, True), (12, True)])
    def test_e32_costs_one_then_two(self, mana, second):
        eng, state = fresh(zones={"inventory/0": PLANTS[:2] + ["failed-20"]}, values={"mana/0": mana})
        push(eng, state, "alchemy", p=0)
        state = take(eng, state, "Purge", "pass")  # the first ability: 1
        assert state["vars"]["mana/0"] == mana - 1
        assert ("Rainbow: combine two pure elixirs" in ids(eng, state)) == second  # the second: 2 more
        if second:
            state = take(eng, state, "Rainbow: combine two pure elixirs")
            assert state["vars"]["mana/0"] == mana - 3

    def test_e16_purge_removes_failed_spectral_and_chosen(self):
        eng, state = fresh(
            zones={"inventory/0": ["failed-20", "pure-plant-1", "spectral-1", "impure-rock-1", "failed-21"]}
        )
        push(eng, state, "alchemy", p=0)
        state = take(eng, state, "Purge")
        assert ids(eng, state) == ["pure-plant-1", "impure-rock-1", "pass"]  # failed/spectral: already gone
        state = take(eng, state, "impure-rock-1", "pass")
        z = state["zones"]
        assert (
            z["inventory/0"] == ["pure-plant-1"] and state["vars"]["mana/0"] == 11 and "impure-rock-1" in z["bag/rock"]
        )
        assert {"failed-20", "failed-21"} <= set(z["stock/failed/clear"]) and "spectral-1" in z["stock/spectral/clear"]

    def test_e17_forced_spectral_into_full_inventory(self):
        full = ["failed-20", "spectral-1", "pure-plant-1", "impure-rock-1", "rainbow-1", "pure-water-1"]
        eng, state = fresh(zones={"inventory/0": full})
        push(eng, state, "gv_vial", p=0)
        assert ids(eng, state) == full[2:]  # never the failed or spectral token already there
        state = take(eng, state, "rainbow-1")
        inv = state["zones"]["inventory/0"]
        assert len(inv) == 6 and "rainbow-1" not in inv and {"failed-20", "spectral-1"} <= set(inv)
        assert kinds(inv).count("spectral") == 2


# ---------------------------------------------------------------- phase 3: healing
def healing(hearts, tokens, p=0, zones=None):
    """cure-01 (plant plant, rep 2) on a1 (adv-02: 1 spell, GV gv_vial); player p holds `tokens`."""
    eng, state = fresh(zones={f"inventory/{p}": tokens, **(zones or {})})
    adventurer(state, ("a1", "adv-02", "dx-03", "cure-01", hearts))
    return eng, state


class TestHealing:
    @pytest.mark.parametrize("hearts,gain", [(1, 2 + 3), (2, 2 + 2), (3, 2 + 1), (4, 2 + 0)])
    def test_e9_heart_bonus(self, hearts, gain):
        eng, state = healing(hearts, PLANTS[:2])
        push(eng, state, "heal_turn", p=0)
        state = take(eng, state, "a1")  # one spell offered: kept at once
        z = state["zones"]
        assert state["vars"]["reputation/0"] == gain and z["cures_won/0"] == ["cure-01"] and z["cakes/0"] == ["dx-03"]
        assert len(z["oven/0"]) == 1 and z["inventory/0"] == [] and set(PLANTS[:2]) <= set(z["bag/plant"])

    def test_a_player_who_can_heal_nobody_is_told_so_in_the_log(self):
        eng, state = healing(2, ["pure-water-1"])  # no Cure on the table is paid with one water
        events = push(eng, state, "heal_turn", p=0)
        assert eng.decision(state) is None and state["vars"]["healed/0"] is False
        said = [e for e in events if e["e"] == "log"]
        assert [e["text"] for e in said] == ["P1 cannot heal anyone: no Cure whose elixirs they hold"], said
        eng, state = healing(2, PLANTS[:2])
        events = push(eng, state, "heal_turn", p=0)  # one to heal: asked, not told
        assert eng.decision(state) is not None and not any(e["e"] == "log" for e in events)

    def test_e10_impure_rolls_minus1(self):
        eng, state = healing(2, ["pure-plant-1", "impure-plant-1"])
        events = push(eng, rigged(state, "minus1"), "heal_turn", p=0)
        state = take(eng, state, "a1", "impure", events=events)  # the first plant is paid with the impure
        assert rolls(events) == ["minus1"] and state["vars"]["reputation/0"] == 2 + 2 - 1

    def test_e11_free_sample_interrupts_a_heal(self):
        eng, state = healing(1, PLANTS[:2], p=1, zones={"oven/0": ["sp-free-sample-1"]})
        push(eng, state, "heal_turn", p=1)
        assert eng.decision(state).prompt == "Act now, before P2 decides?"  # any time: P1 may cast now too
        state = take(eng, state, "pass", "a1")  # P2 declares the heal: the "heal declared" moment
        assert eng.decision(state).actor == 0 and ids(eng, state) == ["act:cast_spell", "pass"]
        state = take(eng, state, "act:cast_spell", "a1", "1")  # +1 heart: 1 -> 2
        assert state["vars"]["reputation/1"] == 2 + 2  # not 2 + 3
        assert state["zones"]["oven/0"] == [] and "sp-free-sample-1" in state["zones"]["spell_discard"]

    def test_e12_skull_death(self):
        eng, state = healing(1, ["impure-plant-1", "pure-plant-1"])
        spells = len(state["zones"]["spell_deck"])
        events = push(eng, rigged(state, "skull"), "heal_turn", p=0)
        state = take(eng, state, "a1", "impure", events=events)
        z, v = state["zones"], state["vars"]
        assert rolls(events) == ["skull"] and v["reputation/0"] == 2  # the Cure's 2 only, no +3 for the heart
        assert z["cakes/0"] == ["dx-03"] and "adv-02" in z["adventurer_gone"] and v["healed/0"]
        assert kinds(z["inventory/0"]) == ["spectral"] and z["inventory/1"] == []  # only the healer's GV
        assert z["oven/0"] == [] and len(z["spell_deck"]) == spells  # no spells
        # "collects the Diagnosis (cake) card and the reputation points indicated on the cure card": not the Cure card
        assert z["cures_won/0"] == [] and "cure-01" in z["cure_gone"]

    def test_solo_skull_death_resolves_no_ghost_vengeance(self):
        # Solo: "Ghost Vengeance events are only resolved if an adventurer dies naturally from health loss per round."
        eng, state = fresh(1, zones={"inventory/0": ["impure-plant-1", "pure-plant-1"]})
        adventurer(state, ("a1", "adv-02", "dx-03", "cure-01", 1))  # adv-02: GV gv_vial
        events = push(eng, rigged(state, "skull"), "heal_turn", p=0)
        state = take(eng, state, "a1", "impure", events=events)
        z = state["zones"]
        assert rolls(events) == ["skull"] and z["inventory/0"] == [] and z["cakes/0"] == ["dx-03"]
        assert len(z["corruption_vials"]) == 1  # "Corruption acquires 1 Spectral Vial token for each death"

    def test_free_sample_killing_the_declared_adventurer_lets_the_healer_choose_again(self):
        # The rulebook is silent; "Each player can only heal one adventurer per round" and nobody was healed,
        # so the healer chooses again among those they can still pay for (D25).
        eng, state = healing(1, PLANTS[:3] + ["pure-water-1"], p=1, zones={"oven/0": ["sp-free-sample-1"]})
        adventurer(state, ("a2", "adv-05", "dx-02", "cure-06", 2))  # cure-06: plant water
        push(eng, state, "heal_turn", p=1)
        state = take(eng, state, "pass", "a1", "act:cast_spell", "a1", "-1")  # P1 kills the declared adventurer
        d = eng.decision(state)
        assert (d.actor, d.prompt, [o.id for o in d.options]) == (1, "Which adventurer do you heal?", ["a2", "pass"])
        state = take(eng, state, "a2")
        assert state["zones"]["cures_won/1"] == ["cure-06"] and state["vars"]["healed/1"]

    @pytest.mark.parametrize("players,vials", [(1, ["spectral"]), (2, [])])
    def test_free_sample_death_ghost_vengeance_only_with_players(self, players, vials):
        # "the player who cast the spell must resolve the Ghost Vengeance effect"; in solo GV is "only resolved if
        # an adventurer dies naturally from health loss per round".
        eng, state = fresh(players, zones={"oven/0": ["sp-free-sample-1"]})
        adventurer(state, ("a1", "adv-02", "dx-03", "cure-01", 1))  # adv-02: GV gv_vial
        events = cast(eng, state, 0, "start of healing")
        assert [e["text"] for e in events if e["e"] == "log"] == ["Free Sample is cast"]  # the spell's name, in words
        state = take(eng, state, "a1", "-1")  # 1 -> 0 hearts
        z = state["zones"]
        assert "adv-02" in z["adventurer_gone"] and kinds(z["inventory/0"]) == ([] if players == 1 else ["spectral"])
        assert kinds(z["corruption_vials"]) == vials  # Corruption's vial "for each death" (solo only here)

    def test_solo_natural_death_still_resolves_ghost_vengeance(self):
        eng, state = fresh(1, zones={**wild(WATER)})
        adventurer(state, ("a1", "adv-02", "dx-03", "cure-01", 1))
        push(eng, state, "end_of_round")
        assert kinds(state["zones"]["inventory/0"]) == ["spectral"]  # gv_vial

    @pytest.mark.parametrize(
        "faces,gain",
        [
            (("skull", "minus3"), 2),  # the second roll is skipped: the Cure's 2 only
            (("minus1", "skull"), 2 - 1),  # applied at once, then the death
        ],
    )
    def test_rolls_after_a_skull_are_skipped(self, faces, gain):
        # Clarifications sheet: "Side Effect die rolls are resolved individually, with all reputation effects
        # applied immediately. If an adventurer dies during the process, any remaining Side Effect rolls are skipped."
        eng, state = healing(1, ["impure-plant-1", "impure-plant-2"])
        events = push(eng, rigged(state, *faces), "heal_turn", p=0)
        state = take(eng, state, "a1", events=events)
        assert rolls(events) == list(faces[: faces.index("skull") + 1])
        assert state["vars"]["reputation/0"] == gain

    def test_e13_natural_death_and_round_end(self):
        eng, state = healing(1, [], zones={**wild(WATER), "adventurer_at/a3": []})
        adventurer(state, ("a2", "adv-05", "dx-02", "cure-02", 3))
        state["vars"].update({"burned/0/purge": True, "abilities_used/0": 2, "fed/1": True})
        nxt = state["zones"]["adventurer_deck"][0]
        push(eng, state, "end_of_round")
        z, v = state["zones"], state["vars"]
        assert v["sun"] == 2 and "adv-02" in z["adventurer_gone"]  # 1 - 1 = 0 hearts
        assert kinds(z["inventory/0"]) == kinds(z["inventory/1"]) == ["spectral"]  # every player's GV
        assert (
            z["adventurer_at/a1"] == [nxt] and v["hearts/a1"] == eng.game.components[z["diagnosis_at/a1"][0]]["health"]
        )
        assert z["adventurer_at/a2"] == ["adv-05"] and v["hearts/a2"] == 2 and len(z["adventurer_at/a3"]) == 1
        assert "res-water-01" in z["wild_discard"]  # the left-most is discarded, the rest slide left
        assert [z[f"wild_at/s{i}"] for i in range(1, 5)] == [[c] for c in WATER[1:]] and len(z["wild_at/s5"]) == 1
        assert not v["burned/0/purge"] and v["abilities_used/0"] == 0 and not v["fed/1"]


# ---------------------------------------------------------------- spells and ghost vengeance
class TestSpells:
    def test_e19_cleanse(self):
        eng, state = fresh(
            zones={"oven/0": ["sp-cleanse-1"], "inventory/1": ["failed-20", "pure-water-1", "failed-21", "spectral-1"]}
        )
        cast(eng, state, 0, "start of healing")
        assert state["zones"]["inventory/1"] == ["pure-water-1"] and state["vars"]["reputation/0"] == 4
        assert "sp-cleanse-1" in state["zones"]["spell_discard"]

    @pytest.mark.parametrize(
        "target,after",
        [
            (["pure-water-1"], ["pure-water-1", "impure-rock-1"]),
            (WATERS[:6], WATERS[:5] + ["impure-rock-1"]),  # full: the target's right-most goes first
        ],
    )
    def test_e20_poltergeist_right_most(self, target, after):
        eng, state = fresh(
            zones={
                "inventory/0": ["pure-plant-1", "impure-rock-1", "failed-20"],  # failed: never
                "inventory/1": target,
            }
        )
        push(eng, state, "gv_poltergeist", p=0, end="right")
        z = state["zones"]
        assert z["inventory/0"] == ["pure-plant-1", "failed-20"] and z["inventory/1"] == after
        assert len(target) < 6 or "pure-water-6" in z["bag/water"]

    def test_poltergeist_full_receiver_discards_an_elixir_not_a_penalty(self):
        # "they must discard their corresponding Elixir (left-most or right-most) and replace it with the passed
        # Elixir": a Failed Elixir at the receiver's right end stays; their right-most elixir goes.
        eng, state = fresh(zones={"inventory/0": ["pure-plant-1"], "inventory/1": WATERS[:5] + ["failed-20"]})
        push(eng, state, "gv_poltergeist", p=0, end="right")
        z = state["zones"]
        assert z["inventory/1"] == WATERS[:4] + ["failed-20", "pure-plant-1"]
        assert "pure-water-5" in z["bag/water"] and "failed-20" not in z["stock/failed/clear"]

    def test_poltergeist_receiver_full_of_penalties_loses_the_elixir(self):
        eng, state = fresh(
            zones={"inventory/0": ["pure-plant-1"], "inventory/1": [f"failed-{i}" for i in range(20, 26)]}
        )
        push(eng, state, "gv_poltergeist", p=0, end="left")
        z = state["zones"]
        assert z["inventory/1"] == [f"failed-{i}" for i in range(20, 26)] and "pure-plant-1" in z["bag/plant"]

    def test_e21_helping_hand_to_a_full_player(self):
        eng, state = fresh(
            zones={
                "oven/0": ["sp-helping-hand-1"],
                "inventory/0": ["pure-plant-1", "impure-rock-1"],
                "inventory/1": WATERS[:6],
                "bag/berry": [f"pure-berry-{i}" for i in range(1, 9)],
            }
        )
        cast(eng, state, 0, "alchemy turn")
        state = take(eng, state, "impure-rock-1", "berry")
        z = state["zones"]
        assert z["inventory/1"] == WATERS[:6] and "impure-rock-1" in z["bag/rock"]  # discarded, not given
        assert kinds(z["inventory/0"]) == ["pure-berry", "pure-berry", "pure-plant"] and len(z["bag/berry"]) == 6

    # "Players can cast a Spell card at any time—including interrupting another player's turn (provided the
    # spell's effect logically applies to that moment)": no list of moments, only each spell's own text (D28).
    @pytest.mark.parametrize(
        "spell,effect,moment,env",
        [
            ("sp-helping-hand-1", "heal_turn", "healing turn", {"p": 0}),  # at your own heal
            ("sp-stasis-1", "alchemy", "alchemy turn", {"p": 0}),  # during alchemy
            ("sp-free-sample-1", "forage_turn", "foraging turn", {"p": 0}),  # during foraging
        ],
    )
    def test_a_spell_is_offered_at_its_owners_decisions_whenever_it_applies(self, spell, effect, moment, env):
        eng, state = healing(2, PLANTS[:2], zones={"oven/0": [spell], "resources/0": ["res-plant-01"], **wild(WATER)})
        state["vars"].update({"#moment": moment, "stamina/0": 3})
        push(eng, state, effect, **env)
        assert eng.decision(state).actor == 0 and "act:cast_spell" in ids(eng, state)

    def test_helping_hand_is_offered_in_final_round_healing(self):
        eng, state = healing(2, PLANTS[:2], zones={"oven/0": ["sp-helping-hand-1"], "spell_deck": []})
        state["vars"].update({"sun": 6, "order": [0, 1]})
        push(eng, state, "final_healing")
        assert eng.decision(state).prompt == "Act now (healing turn)?" and eng.decision(state).actor == 0

    def test_a_spell_interrupts_the_forrie_choice(self):
        eng, state = fresh(zones={"oven/1": ["sp-clean-sweep-1"]})
        for p in (0, 1):
            state["zones"][f"forrie_deck/{p}"] += state["zones"][f"forrie_hand/{p}"]
            state["zones"][f"forrie_hand/{p}"] = []
        push(eng, state, "foraging")
        d = eng.decision(state)
        assert (d.actor, d.prompt) == (1, "Act now (choosing Forries)?")
        state = take(eng, state, "act:cast_spell")
        assert "sp-clean-sweep-1" in state["zones"]["spell_discard"]

    @pytest.mark.parametrize("out", [None, "forrie_hand/0", "forrie_shown/1"])
    def test_forrie_tamer_needs_two_complete_decks(self, out):
        # "exchange your complete Forrie deck with another player": not while either has Forries out.
        eng, state = fresh(zones={"oven/0": ["sp-forrie-tamer-1"], "forrie_hand/0": [], "forrie_hand/1": []})
        if out:
            owner = int(out[-1])
            put(state, out, [state["zones"][f"forrie_deck/{owner}"][0]])
        push(eng, state, "alchemy", p=0)
        assert ("act:cast_spell" in ids(eng, state)) == (out is None)

    def test_metamorphosis_lasts_the_casters_next_foraging_turn(self):
        # "change your Forries' species for your next Foraging turn ... lasts for one Foraging turn only": cast
        # after your own turn (or during Alchemy), it is still there at your next one; that turn ends it.
        eng, state = fresh(
            zones={**wild(["res-berry-01"]), "resources/0": [], "resources/1": []},
            values={"morph/0": "water", "stamina/0": 0, "stamina/1": 0},
        )
        push(eng, state, "forage_turn", p=1)  # another player's turn does not end it
        assert state["vars"]["morph/0"] == "water" and eng.decision(state) is None
        push(eng, state, "forage_turn", p=0)
        assert state["vars"]["morph/0"] is None

    def test_e22_forrie_tamer_iridescent(self):
        eng, state = fresh()
        z = state["zones"]
        z["forrie_deck/0"], z["forrie_hand/0"] = z["forrie_hand/0"] + z["forrie_deck/0"], []
        z["forrie_deck/1"], z["forrie_hand/1"] = z["forrie_hand/1"] + z["forrie_deck/1"], []  # complete decks
        z["forrie_deck/0"].insert(4, "f-plant-iri")  # A (plant) has shuffled its Iridescent in
        z["iridescent_aside/0"] = []
        a_deck, b_deck = list(z["forrie_deck/0"]), list(z["forrie_deck/1"])
        assert z["iridescent_aside/1"] == ["f-water-iri"]
        push(eng, state, "forrie_tamer_spell", p=0)
        z, v = state["zones"], state["vars"]
        assert z["forrie_deck/1"] == a_deck  # B gets A's deck, its Iridescent included
        assert z["forrie_deck/0"] == ["f-water-iri"] + b_deck  # A puts the new Iridescent on top
        assert (v["species_of/0"], v["species_of/1"]) == ("water", "plant")
        assert z["iridescent_aside/0"] == z["iridescent_aside/1"] == []


# ---------------------------------------------------------------- scoring
class TestScoring:
    def test_e23_scoring_card(self):
        eng, state = fresh(
            zones={
                "cures_won/0": ["cure-01"],
                "inventory/0": ["pure-plant-1", "failed-20", "spectral-1"],
                "cures_won/1": ["cure-06"],
                "inventory/1": ["pure-plant-2", "impure-plant-1"],
            },
            values={"reputation/0": 10, "reputation/1": 5},
        )
        # plant: P1 2 + 1 = 3, P2 1 + 2 = 3 -> tied, +2 each; water: P2 1 -> +2;
        # brewed: P1 3 (failed/spectral are not brewed) < P2 4 -> P2 +4; P1: -1 -1
        assert eng.breakdown(state, 0) == {
            "Reputation": 10,
            "Elixir majorities": 2,
            "Most brewed": 0,
            "Failed and spectral": -2,
            "Objectives": 0,
        }
        assert eng.breakdown(state, 1) == {
            "Reputation": 5,
            "Elixir majorities": 4,
            "Most brewed": 4,
            "Failed and spectral": 0,
            "Objectives": 0,
        }

    @pytest.mark.parametrize(
        "mana,places", [((5, 3), [(0, 1), (1, 2)]), ((3, 5), [(1, 1), (0, 2)]), ((4, 4), [(0, 1), (1, 1)])]
    )
    def test_e24_tie_on_reputation(self, mana, places):
        eng, state = fresh(values={"reputation/0": 7, "reputation/1": 7, "mana/0": mana[0], "mana/1": mana[1]})
        assert [(r["player"], r["place"]) for r in eng.ranking(state)] == places


# ---------------------------------------------------------------- setup
class TestSetup:
    @pytest.mark.parametrize(
        "players,difficulty,bag,adventurers,slots,mana",
        [
            (1, "normal", (8, 2, 1), 3, 5, 12),
            (1, "difficult", (8, 2, 2), 3, 5, 8),
            (2, "normal", (8, 2, 1), 3, 5, 12),
            (2, "difficult", (8, 2, 1), 3, 5, 12),
            (3, "normal", (12, 3, 1), 4, 7, 12),
            (4, "normal", (16, 4, 2), 5, 7, 12),
        ],
    )
    def test_e25_tables(self, players, difficulty, bag, adventurers, slots, mana):
        eng, state = fresh(players, difficulty=difficulty)
        z, v = state["zones"], state["vars"]
        for sp in SPECIES:
            held = kinds(z[f"bag/{sp}"])
            assert (held.count(f"pure-{sp}"), held.count(f"impure-{sp}"), held.count("failed")) == bag, sp
            assert len(held) == sum(bag), sp
        places = [a for a in ("a1", "a2", "a3", "a4", "a5") if z[f"adventurer_at/{a}"]]
        assert places == ["a1", "a2", "a3", "a4", "a5"][:adventurers]
        for a in places:
            assert v[f"hearts/{a}"] == eng.game.components[z[f"diagnosis_at/{a}"][0]]["health"] and z[f"cure_at/{a}"]
        assert [bool(z[f"wild_at/s{i}"]) for i in range(1, 8)] == [i < slots for i in range(7)]
        assert all(v[f"mana/{p}"] == mana and v[f"reputation/{p}"] == 0 for p in range(players))
        assert bool(z["corruption_deck"]) == (players == 1 or difficulty == "difficult")
        spells = {eng.game.components[s]["spell"] for s in z["spell_deck"]}
        assert {"cleanse", "helping_hand"} <= spells if players > 1 else not {"cleanse", "helping_hand"} & spells
        assert all(z[f"iridescent_aside/{p}"] == [f"f-{SPECIES[p]}-iri"] for p in range(players))


# ---------------------------------------------------------------- solo: the Corruption
def spectral(n):  # Corruption's collected souls
    return {"corruption_vials": [f"spectral-{i}" for i in range(1, n + 1)]}


class TestCorruption:
    def test_e27_corruption_kill(self):
        eng, state = fresh(1, values={"corruption_rep": -12})
        adventurer(state, ("a1", "adv-02", "dx-03", "cure-16", 1))  # cure-16: rep 4
        events = push(eng, rigged(state, "minus1"), "corruption_strike")
        z = state["zones"]
        assert rolls(events) == ["minus1"] and state["vars"]["corruption_rep"] == -12 - 4 - 3  # -19
        assert len(z["corruption_vials"]) == 1 and z["corruption_cakes"] == ["dx-03"]
        assert z["corruption_cures"] == ["cure-16"] and z["adventurer_at/a1"] == []
        assert z["inventory/0"] == []  # no Ghost Vengeance for a kill

    @pytest.mark.parametrize(
        "face,healed,killed,vials",
        [
            ("minus2", False, True, 1),
            ("minus2", True, False, 0),
            ("blank", False, False, 0),
            ("skull", False, False, 1),
        ],
    )
    def test_e28_corruption_rolls(self, face, healed, killed, vials):
        eng, state = fresh(1)
        adventurer(
            state,
            ("a1", "adv-05", "dx-02", "cure-02", 2),
            ("a2", "adv-02", "dx-03", "cure-01", 2),
            ("a3", "adv-08", "dx-05", "cure-03", 2),
        )
        for zone in ("adventurer_at/a2", "cure_at/a2") if healed else ():  # healed before Corruption's turn
            put(state, zone, [])
        push(eng, rigged(state, face), "corruption_strike")
        z = state["zones"]
        assert len(z["corruption_vials"]) == vials and (z["corruption_cures"] == ["cure-01"]) == killed
        assert z["adventurer_at/a1"] == ["adv-05"] and z["adventurer_at/a3"] == ["adv-08"]
        assert state["vars"]["corruption_rep"] == (-(2 + 2) if killed else 0)  # cure-01 rep 2 + 2 hearts

    @pytest.mark.parametrize(
        "team,corruption_first", [(["f-plant-12", "f-plant-11", "f-plant-10"], True), (["f-plant-10"], False)]
    )
    def test_e29_corrupted_slots(self, team, corruption_first):
        eng, state = fresh(
            1,
            zones={
                "forrie_hand/0": [],
                **wild(WATER),
                "forrie_deck/0": ["f-plant-12", "f-plant-11", "f-plant-10", "f-plant-01"],
                "corruption_deck": ["cor-05", "cor-14"],
            },
        )  # stamina 5, corrupts s2 s3
        push(eng, state, "foraging")
        state = pick(eng, state, team)  # stamina 4 + 4 + 4 = 12 (> 5) or 4 (< 5)
        assert state["vars"]["order"] == (["corruption", 0] if corruption_first else [0, "corruption"])
        offered = ids(eng, state)
        assert ("s2" in offered, "s3" in offered) == (not corruption_first, not corruption_first)
        if not corruption_first:
            state = take(eng, state, "pass")
        assert {"res-water-02", "res-water-03"} <= set(state["zones"]["wild_discard"])
        assert state["zones"]["wild_at/s2"] == state["zones"]["wild_at/s3"] == []

    @pytest.mark.parametrize(
        "vials,difficulty,bonus",
        [
            (5, "normal", 3),
            (5, "difficult", 6),
            (13, "normal", 8),
            (13, "difficult", 16),
            (0, "normal", 0),
            (2, "normal", 2),
        ],
    )
    def test_e30_vial_table_and_solo_win(self, vials, difficulty, bonus):
        eng, state = fresh(
            1, zones=spectral(vials), difficulty=difficulty, values={"corruption_rep": -10, "reputation/0": 10 + bonus}
        )  # exactly counterbalanced
        push(eng, state, None, [eng.game.phases["game_end"], 0, {}])
        assert state["over"] and state["vars"]["corruption_rep"] == -10 - bonus and state["vars"]["won"]

    @pytest.mark.parametrize("rep,won", [(8, True), (7, False)])
    def test_corruption_scores_the_scoring_card(self, rep, won):
        # "position the corresponding Cure Card and Diagnosis (cake) card beside Corruption's reputation dial.
        # This determines bonus points during the final scoring round." Corruption: plant 2, water 2 (cure-01,
        # cure-02) against the player's plant 1, water 1 (cure-06): +2 +2, and the most brewed (4 > 2) +4.
        eng, state = fresh(
            1,
            zones={"corruption_cures": ["cure-01", "cure-02"], "cures_won/0": ["cure-06"]},
            values={"reputation/0": rep},
        )
        events = push(eng, state, None, [eng.game.phases["game_end"], 0, {}])
        assert state["over"] and state["vars"]["corruption_rep"] == -8 and state["vars"]["won"] == won
        assert eng.breakdown(state, 0)["Elixir majorities"] == 0 and eng.breakdown(state, 0)["Most brewed"] == 0
        assert "Corruption's Scoring Card: 4 for majorities, 4 for the most brewed" in [e.get("text") for e in events]

    @pytest.mark.parametrize(
        "card,vials,strength,order",
        [
            ("cor-05", 2, 5, [0, "corruption"]),  # heart 2 + 2 vials = 4 < 5
            ("cor-05", 0, 1, ["corruption", 0]),  # 2 > 1
            ("cor-06", 0, 2, ["corruption", 0]),  # heart 3 > 2
        ],
    )
    def test_e31_solo_tie(self, card, vials, strength, order):
        eng, state = fresh(
            1,
            zones={"corruption_shown": [card], **spectral(vials)},  # both stamina 5
            values={"stamina/0": 5, "cards/0": 2, "strength/0": strength},
        )
        push(eng, state, "decide_order")
        assert state["vars"]["order"] == order

    def test_two_player_difficult_humans_still_tie_on_cards(self):
        # Two-Player (Difficult Mode) adds the Corruption "as a third player"; between the two humans the
        # normal tie-break stands: "precedence goes to the player who has deployed fewer Forrie cards".
        eng, state = fresh(
            2,
            zones={"corruption_shown": ["cor-14"]},
            difficulty="difficult",  # stamina 9
            values={"stamina/0": 5, "cards/0": 3, "strength/0": 9, "stamina/1": 5, "cards/1": 2, "strength/1": 2},
        )
        push(eng, state, "decide_order")
        assert state["vars"]["order"] == [1, 0, "corruption"]


# ---------------------------------------------------------------- whole games
class TestGames:
    def test_final_round_heals_alternate(self):
        eng, state = fresh(
            3,
            zones={
                "inventory/0": PLANTS[:2] + ["pure-berry-1", "pure-berry-2"],
                "inventory/1": WATERS[:2],
                "spell_deck": [],
            },
            values={"sun": 6, "order": [0, 1, 2]},
        )
        adventurer(
            state,
            ("a1", "adv-05", "dx-01", "cure-01", 2),
            ("a2", "adv-08", "dx-04", "cure-02", 2),
            ("a3", "adv-10", "dx-07", "cure-03", 2),
            ("a4", "adv-02", "dx-09", "cure-04", 2),
        )
        push(eng, state, "final_healing")
        heals = []
        while (d := eng.decision(state)) is not None:
            if d.prompt != "Alchemy:":
                heals.append((d.actor, d.options[0].id))
            state = take(eng, state, "Done" if d.prompt == "Alchemy:" else d.options[0].id)
        assert heals == [(0, "a1"), (1, "a2"), (0, "a3")]  # one heal a turn, in turn order, never twice in a row
        z = state["zones"]
        assert z["cures_won/0"] == ["cure-01", "cure-03"] and z["cures_won/1"] == ["cure-02"]
        assert z["adventurer_at/a4"] == [] and "adv-02" in z["adventurer_gone"]  # nobody could heal it
        assert all(kinds(z[f"inventory/{p}"]) == ["spectral"] for p in range(3))  # its GV, for every player

    @pytest.mark.parametrize("players,seed", [(1, 11), (2, 12), (3, 13), (4, 14)])
    def test_six_rounds(self, players, seed):
        eng, suns = shipped("apothebakery"), set()
        state, events = play(eng, players, seed, lambda state, d: suns.add(state["vars"]["sun"]))
        rounds = [e for e in events if e["e"] == "phase" and e["phase"] == "round"]
        assert state["over"] and len(rounds) == 6 and suns == {1, 2, 3, 4, 5, 6}, f"seed {seed}"

    @pytest.mark.parametrize("objectives", ["on", "off"])
    @pytest.mark.parametrize("difficulty", ["normal", "difficult"])
    @pytest.mark.parametrize("players", [1, 2, 3, 4])
    def test_every_component_in_exactly_one_zone(self, players, difficulty, objectives):
        eng = shipped("apothebakery", {"objectives": objectives, "difficulty": difficulty})
        everything = sorted(eng.game.components)

        def check(state, d):
            held = sorted(c for v in state["zones"].values() for c in v)
            assert held == everything, f"step {state['step']}: a component is lost or doubled"
            assert all(len(state["zones"][f"inventory/{p}"]) <= 6 for p in range(players))

        seed = 100 * players + 10 * (difficulty == "difficult") + (objectives == "on")
        state, _ = play(eng, players, seed, check)
        check(state, None)
        assert state["over"] and state["vars"]["sun"] == 6, f"seed {seed}"


def test_d38_rearranging_is_asked_for_at_any_decision_and_moves_an_elixir_to_the_left_end():
    """ "you may rearrange your inventory at any time": an `on request` action, not an option."""
    eng, state = fresh(zones={"resources/0": ["res-berry-06"], "inventory/0": PLANTS[:3], "bag/water": WATERS})
    push(eng, state, "alchemy", p=0)
    d = eng.decision(state)
    assert "act:rearrange" not in [o.id for o in d.options]
    assert [(o.id, o.label) for o in d.requests] == [("act:rearrange", "Rearrange inventory")]
    state, events = eng.apply(state, "act:rearrange")
    assert {"e": "act", "player": 0, "action": "rearrange"} in events
    assert eng.decision(state).prompt == "Which elixir goes to the left end?" and eng.decision(state).requests == []
    state, _ = eng.apply(state, PLANTS[2])
    assert state["zones"]["inventory/0"] == [PLANTS[2]] + PLANTS[:2]
    assert eng.decision(state).prompt == "Alchemy:", "then the interrupted decision again"


HINT = "A cure within reach, by what healing pays"


def test_the_bots_hint_values_a_cure_by_its_share_of_what_healing_it_pays():
    """The hint for bots (never scored): progress toward a cure on the table is worth its share of the
    cure's reputation plus the heart bonus, at half; a complete cure beats a start on a richer one."""
    eng, state = fresh()
    for zone in ("adventurer_at", "diagnosis_at", "cure_at"):
        for place in ("a2", "a3"):
            put(state, f"{zone}/{place}", [])
    adventurer(state, ("a1", "adv-02", "dx-03", "cure-06", 2))  # plant water, 3 reputation; 2 hearts: +2
    put(state, "inventory/0", [])
    put(state, "resources/0", [])
    assert eng.hints(state, 0)[HINT] == 0
    put(state, "inventory/0", ["pure-plant-1", "pure-plant-2"])
    assert eng.hints(state, 0)[HINT] == 1.25, "a second plant is not needed: half of 5 for half the cure"
    put(state, "inventory/0", ["pure-plant-1", "pure-water-1"])
    assert eng.hints(state, 0)[HINT] == 2.5, "complete: half of the 5 points the heal pays"
    adventurer(state, ("a2", "adv-05", "dx-03", "cure-16", 1))  # plant berry rock, 4 reputation; 1 heart: +3
    assert eng.hints(state, 0)[HINT] == 2.5, "one of three toward a cure paying 7 is less than a complete one"


def test_the_bots_hint_counts_a_resource_by_its_potency_and_spare_pure_elixirs_as_a_rainbow():
    eng, state = fresh()
    for zone in ("adventurer_at", "diagnosis_at", "cure_at"):
        for place in ("a2", "a3"):
            put(state, f"{zone}/{place}", [])
    adventurer(state, ("a1", "adv-02", "dx-03", "cure-10", 3))  # berry rainbow, 3 reputation; 3 hearts: +1
    put(state, "inventory/0", ["pure-plant-1"])
    put(state, "resources/0", ["res-berry-06"])  # potency 2: one pull more than the cure needs
    assert eng.hints(state, 0)[HINT] == 1
    put(state, "inventory/0", ["pure-plant-1", "pure-plant-2"])  # the Rainbow ability can make one of them
    assert eng.hints(state, 0)[HINT] == 1.5, "two spare pure elixirs are half a rainbow in hand"
    put(state, "inventory/0", ["rainbow-1"])
    assert eng.hints(state, 0)[HINT] == 2


def test_the_bots_hint_values_the_stamina_revealed_this_round():
    """Forries sent out show no gain until their stamina buys resources: the revealed stamina is worth 1/8 a point."""
    eng, state = fresh()
    state["vars"].update({"stamina/0": 8, "stamina/1": 3})
    assert eng.hints(state, 0)["Stamina to forage with"] == 1
    assert eng.hints(state, 1)["Stamina to forage with"] == 3 / 8


def test_greedy_keeps_the_elixirs_of_a_cure_it_can_pay_when_its_inventory_overflows():
    """Seed 1 of the 2-player snapshot once saw greedy throw away the rainbow of a complete cure
    (insect rock rainbow) to keep a berry "toward" another: counting elixirs alone, both looked alike."""
    from meeple.interpreter.agents.greedy import GreedyAgent

    eng, state = fresh()
    adventurer(
        state,
        ("a1", "adv-02", "dx-03", "cure-22", 2),  # insect rock rainbow, 5 reputation
        ("a2", "adv-05", "dx-03", "cure-27", 2),  # plant water berry insect, 6
        ("a3", "adv-08", "dx-03", "cure-26", 2),
    )  # insect insect berry water, 5
    put(state, "inventory/0", ["pure-rock-1", "pure-insect-1", "rainbow-1", "pure-plant-1", "failed-1"])
    put(state, "pulled/0", ["pure-berry-1", "pure-berry-2"])
    # P2 holds more of these three kinds: keeping them wins no majority, only the cure.
    put(
        state, "inventory/1", ["rainbow-2", "rainbow-3", "pure-rock-2", "pure-rock-3", "pure-insect-2", "pure-insect-3"]
    )
    push(eng, state, "keep_pulled", p=0)
    d = eng.decision(state)
    assert d.prompt == "Inventory full: which elixir do you discard?"
    for seed in range(6):
        pick = GreedyAgent(eng, 0, seed).choose(eng.view(state, 0), d)
        assert d.options[pick].id not in ("pure-rock-1", "pure-insect-1", "rainbow-1"), seed


def test_the_bots_hint_drops_a_cure_whose_adventurer_dies_tonight_once_healing_has_begun():
    """An adventurer with one heart left is healed in this round's healing turns or lost: passing
    its heal must not keep the progress toward its cure (greedy passed such heals it could pay)."""
    eng, state = fresh()
    for zone in ("adventurer_at", "diagnosis_at", "cure_at"):
        for place in ("a2", "a3"):
            put(state, f"{zone}/{place}", [])
    adventurer(state, ("a1", "adv-02", "dx-03", "cure-03", 1))  # berry berry, 2 reputation; 1 heart: +3
    put(state, "inventory/0", ["impure-berry-1", "impure-berry-2"])
    state["vars"]["#moment"] = "alchemy turn"
    assert eng.hints(state, 0)[HINT] == 2.5, "still to be healed this round"
    state["vars"]["#moment"] = "healing turn"
    assert eng.hints(state, 0)[HINT] == 0
    state["vars"]["hearts/a1"] = 2
    assert eng.hints(state, 0)[HINT] == 2, "two hearts: it outlives the round (heart bonus +2)"
    state["vars"].update({"hearts/a1": 1, "sun": 6})
    assert eng.hints(state, 0)[HINT] == 2.5, "the final round's healing turns go on while anyone heals"


def test_a_death_whose_adventurer_a_spell_already_took_away_does_nothing():
    """Seed 20 of greedy self-play: while the adventurers left at the end were lost one by one, a Ghost
    Vengeance's decision let P2 cast Stasis on the next one; its turn in the loop then found no adventurer."""
    eng, state = fresh()
    for zone in ("adventurer_at", "diagnosis_at", "cure_at"):
        put(state, f"{zone}/a1", [])
    before = {k: list(v) for k, v in state["zones"].items()}
    events = push(eng, state, "natural_death", a="a1", at_the_end=True)
    assert not any(e["e"] == "log" for e in events)
    assert state["zones"] == before


def test_solo_greedy_with_a_cure_it_can_pay_sends_a_team_that_heals_before_corruption_strikes():
    """Solo: Corruption's die claims the adventurer it names on its healing turn. With a cure it can pay,
    greedy sends less stamina than Corruption's card so it heals first; without the hint it sent all three
    Forries every time (stamina 12, after both Corruption cards), since only the stamina showed."""
    from meeple.interpreter.agents.greedy import GreedyAgent

    eng, state = fresh(
        1,
        zones={
            "forrie_hand/0": [],
            **wild(WATER),
            "forrie_deck/0": ["f-plant-12", "f-plant-11", "f-plant-10", "f-plant-01"],
            "corruption_deck": ["cor-05", "cor-14"],
        },
    )  # stamina 5 and 9
    for zone in ("adventurer_at", "diagnosis_at", "cure_at"):
        for place in ("a2", "a3"):
            put(state, f"{zone}/{place}", [])
    adventurer(state, ("a1", "adv-02", "dx-03", "cure-06", 2))  # plant water, 3 reputation; 2 hearts: +2
    put(state, "inventory/0", ["pure-plant-1", "pure-water-1"])
    push(eng, state, "foraging")
    d = eng.decision(state)
    for seed in range(6):
        team = d.options[GreedyAgent(eng, 0, seed).choose(eng.view(state, 0), d)].value
        assert len(team) < 3, seed
    hint = "Ahead of Corruption with a cure under way (solo)"
    assert eng.hints(state, 0)[hint] == 0, "no order yet: nobody is ahead"
    state = pick(eng, state, ["f-plant-10"])  # stamina 4: ahead of either card
    assert state["vars"]["order"] == [0, "corruption"]
    assert eng.hints(state, 0)[hint] == pytest.approx(10 / 3), (
        "2 faces of 6 name place 1, twice the 5 points the heal pays"
    )


def test_an_offer_to_cast_does_not_tell_the_others_which_spell_lies_face_down():
    # "Place the chosen spell face down in the spell oven slot": another seat read "P3 chooses (Act now
    # (foraging turn)?)" and learned that P3 held the spell that fits. Now the offer, and a pass, are P3's alone.
    from meeple.interpreter import runner
    from meeple.interpreter.trace import render

    eng = shipped("apothebakery")
    state, _ = eng.start(3, 2)
    bots, asked = runner.make_agents(eng, ["random"], 3, 2), []
    while (d := eng.decision(state)) is not None:
        if d.private:
            asked.append(d.actor)
            assert all(eng.view(state, q)["pending"] is None for q in range(3) if q != d.actor)
            assert eng.view(state, d.actor)["pending"]["actor"] == d.actor
        state, _ = eng.apply(state, runner.choose(bots[d.actor], eng.view(state, d.actor), d))
    assert asked
    lines = runner.play(eng, 3, 2, ["random"]).trace.lines
    passed = [ln for ln in lines if ln.get("private")]
    assert passed and all(ln["title"].startswith("Act now") and ln["choice"] == "pass" for ln in passed)
    for viewer in range(3):
        text = render(eng.game, lines, viewer)
        for ln in passed:
            if ln["actor"] != viewer:
                assert f"{ln['title']} P{ln['actor'] + 1} chooses pass" not in text
        assert sum("Act now" in x and f"P{viewer + 1} chooses pass" in x for x in text.splitlines()) == sum(
            ln["actor"] == viewer for ln in passed
        )


# ---------------------------------------------------------------- read at the table (a played game)
def test_a_perishing_adventurer_is_named_and_each_spell_card_says_what_it_does():
    """A player reads who perished (their Ghost Vengeance follows) and what a spell offered does,
    not "An adventurer perishes" and the spell's id; an adventurer's card counts its spells."""
    eng = shipped("apothebakery", {})
    cards = eng.game.components
    names = {c["name"] for c in cards.values() if c["$kind"] == "adventurer"}
    state, events = play(eng, 2, 3)
    perished = [e["text"] for e in events if e["e"] == "log" and e["text"].endswith(" perishes")]
    assert perished, "seed 3: no adventurer perished"
    for text in perished:
        assert text.removeprefix("A skull: ").removesuffix(" perishes") in names, f"seed 3: {text!r}"
    faces = eng.game.page["faces"]
    spells = [k for k, c in cards.items() if c["$kind"] == "spell"]
    assert spells and all(faces[k]["lines"] == [cards[k]["text"]] and len(cards[k]["text"]) > 20 for k in spells)
    assert {tuple(faces[k]["lines"]) for k, c in cards.items() if c["$kind"] == "adventurer"} == {
        ("Spells: 1",),
        ("Spells: 2",),
        ("Spells: 3",),
    }


def test_a_payment_prompt_names_the_species_it_pays_and_healed_clears_when_a_round_begins():
    from meeple.interpreter.agents import make_agents

    eng = shipped("apothebakery", {})
    bots = make_agents(eng, ["quick"], 2, 1)
    state, _ = eng.start(2, 1)
    prompts, cleared = set(), []
    while (d := eng.decision(state)) is not None:
        prompts.add(d.prompt)
        if d.prompt == "Which Forries do you send out?" and state["vars"].get("round_number", 0) > 1:
            cleared.append(not any(v for k, v in state["vars"].items() if k.startswith("healed/")))
        state, _ = eng.apply(state, bots[d.actor].choose(eng.view(state, d.actor), d))
    paid = {p for p in prompts if p.endswith("elixir pays for it?")}
    assert paid and paid <= {f"Which {s} elixir pays for it?" for s in SPECIES}, f"seed 1: {paid}"
    assert cleared and all(cleared), f"seed 1: {cleared}"
