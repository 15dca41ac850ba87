"""The cookbook is part of the product: every recipe has a whole game that parses,
compiles and plays to the end, and each one checks that its mechanic does what
the recipe says.

Convention: docs/cookbook.md links every recipe, a `## Title` section of one of the
topic pages (docs/cookbook-*.md); a recipe's example is the
```rules block, and the data files it reads follow it as blocks whose info string
names the file (```csv file=cards.csv, ```json file=path.json).
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from meeple.dsl.checker import warnings
from meeple.dsl.compiler import apply_variants, compile_ruleset
from meeple.dsl.parser import parse_file
from meeple.interpreter import runner, trace
from meeple.interpreter import state as st
from meeple.interpreter.engine import Engine
from meeple.interpreter.rng import Random
from tests.conftest import ROOT
from tests.helpers import effect_frame, fill_zone, option_ids, run_alone, take

DOC = ROOT / "docs" / "cookbook.md"
INDEX = DOC.read_text()
PAGES = list(dict.fromkeys(re.findall(r"\]\((cookbook-[a-z]+\.md)[#)]", INDEX)))
TEXT = "\n".join((DOC.parent / page).read_text() for page in PAGES)
BLOCK = re.compile(r"^```(\w+)(?:[ \t]+file=(\S+))?[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def slug(title: str) -> str:
    """The anchor a Markdown heading gets: lower case, punctuation dropped, spaces as dashes."""
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def sections() -> dict[str, dict]:
    """Each `## ` section by its anchor: its title, its rules examples and the files after them."""
    out = {}
    for part in re.split(r"^## ", TEXT, flags=re.M)[1:]:
        title, body = part.split("\n", 1)
        examples = []
        for lang, name, content in BLOCK.findall(body):
            if lang == "rules":
                examples.append({"rules": content, "files": {}})
            elif name:
                assert examples, f"`{name}` in '{title}' comes before any ```rules example"
                examples[-1]["files"][name] = content
        out[slug(title.strip())] = {"title": title.strip(), "examples": examples}
    return out


SECTIONS = sections()
TOC = re.findall(r"\]\(cookbook-[a-z]+\.md#([a-z0-9-]+)\)", INDEX)
EXAMPLES = [(anchor, i) for anchor, s in SECTIONS.items() for i in range(len(s["examples"]))]


def build(tmp_path, anchor: str, index: int = 0, options=None, variants=None) -> Engine:
    """The recipe's example compiled from a folder holding it and its data files."""
    example = SECTIONS[anchor]["examples"][index]
    for name, content in example["files"].items():
        (tmp_path / name).write_text(content)
    path = tmp_path / f"{anchor}.rules"
    path.write_text(example["rules"])
    return Engine(compile_ruleset(parse_file(path), options or {}, variants or []))


@pytest.fixture
def recipe(tmp_path):
    return lambda anchor, **kw: build(tmp_path, anchor, **kw)


def play(engine: Engine, players: int, seed: int, limit: int = 3000) -> tuple[dict, list]:
    """A whole game with seeded random choices; the final state and every decision's actor."""
    rng = Random(seed)
    state, _ = engine.start(players, seed)
    actors = []
    while (d := engine.decision(state)) is not None:
        assert len(actors) < limit, f"{engine.game.title}: no end after {limit} decisions"
        actors.append(d.actor)
        state, _ = engine.apply(state, rng.below(len(d.options)), inplace=True)
    assert engine.is_terminal(state)
    return state, actors


# ----------------------------------------------------------------- every example
def test_every_recipe_in_the_contents_has_an_example():
    assert len(PAGES) == 4 and all(page.startswith("cookbook-") for page in PAGES)
    assert len(TOC) == 18
    assert sorted(TOC) == sorted(SECTIONS), "the contents and the sections differ"
    for anchor in TOC:
        assert SECTIONS[anchor]["examples"], f"recipe '{anchor}' has no ```rules example"


@pytest.mark.parametrize("anchor,index", EXAMPLES)
def test_example_plays_to_the_end(tmp_path, anchor, index):
    engine = build(tmp_path, anchor, index)
    game = engine.game
    for players in sorted({game.min_players, game.max_players}):
        for seed in (1, 2):
            state, _ = play(engine, players, seed)
            scores = engine.scores(state)
            assert len(scores) == players
            engine.ranking(state, scores)


@pytest.mark.parametrize("anchor,index", EXAMPLES)
def test_example_plays_with_every_option_and_variant(tmp_path, anchor, index):
    engine = build(tmp_path, anchor, index)
    game = engine.game
    choices = [{name: v} for name, (values, _) in game.option_choices.items() for v in values[1:]]
    choices += [{"variants": [v]} for v in game.variant_titles]
    for choice in choices:
        variants = choice.pop("variants", [])
        other = build(tmp_path, anchor, index, options=choice, variants=variants)
        play(other, other.game.max_players, 3)


@pytest.mark.parametrize("anchor,index", EXAMPLES)
def test_example_has_no_warnings(tmp_path, anchor, index):
    engine = build(tmp_path, anchor, index)
    rs = parse_file(tmp_path / f"{anchor}.rules")
    found = [w.format() for w in warnings(engine.game, rs, apply_variants(rs, []))]
    assert found == []


def test_every_data_file_is_read():
    for anchor, s in SECTIONS.items():
        for example in s["examples"]:
            for name in example["files"]:
                assert f'"{name}"' in example["rules"], f"{anchor}: `{name}` is never read"


# ----------------------------------------------------------------- each mechanic
def counts(state: dict, *keys) -> int:
    return sum(len(state["zones"][k]) for k in keys)


class TestDrawAndDiscard:
    def test_an_empty_deck_is_rebuilt_from_the_discard_in_the_middle_of_a_draw(self, recipe):
        e = recipe("draw-and-discard")
        s, _ = e.start(2, 1)
        assert e.decision(s).actor == 0  # P1 plays; then P2 draws 2
        zones = s["zones"]
        zones["discard"], zones["deck"] = zones["deck"][1:], zones["deck"][:1]  # one card left
        last = zones["deck"][0]
        events = []
        while e.decision(s).actor == 0:  # P1 plays a card and discards down to three
            s, ev = e.apply(s, 0)
            events += ev
        kinds = [x["e"] for x in events]
        draw = kinds.index("draw")
        assert kinds[draw : draw + 4] == ["draw", "move", "shuffle", "draw"]  # take what is left, refill, go on
        assert events[draw]["items"] == [last] and events[draw + 1]["src"] == "discard"
        assert len(s["zones"]["hand/1"]) == 5 and s["zones"]["discard"] == []

    def test_cards_are_conserved_and_hands_end_each_turn_at_three(self, recipe):
        e = recipe("draw-and-discard")
        rng = Random(5)
        s, _ = e.start(4, 5)
        shuffles = 0
        while (d := e.decision(s)) is not None:
            hands = [f"hand/{p}" for p in range(4)]
            assert counts(s, "deck", "discard", *hands) == 20
            assert sorted(len(s["zones"][h]) for h in hands if h != f"hand/{d.actor}") == [3, 3, 3]
            s, ev = e.apply(s, rng.below(len(d.options)))
            shuffles += sum(x["e"] == "shuffle" for x in ev)
        assert shuffles >= 2, "six rounds of four players run through the deck more than once"


class TestMarketsThatRefill:
    def test_the_market_refills_to_four_after_a_purchase_and_at_the_end_of_the_round(self, recipe):
        e = recipe("markets-that-refill")
        for seed in range(20):
            s, _ = e.start(2, seed)
            buys = [o.id for o in e.decision(s).options if o.id != "pass"]
            if buys:
                break
        deck = len(s["zones"]["deck"])
        s = take(e, s, buys[0])
        assert buys[0] in s["zones"]["tableau/0"] and buys[0] not in s["zones"]["market"]
        assert len(s["zones"]["market"]) == 4 and len(s["zones"]["deck"]) == deck - 1
        oldest = s["zones"]["market"][0]
        while e.decision(s).actor == 1:
            s = take(e, s, "pass")
        assert s["zones"]["gone"] == [oldest] and len(s["zones"]["market"]) == 4


class TestBags:
    def test_the_bag_is_hidden_and_draws_are_seeded_at_random(self, recipe):
        e = recipe("bags")
        s, _ = e.start(2, 1)
        assert set(e.view(s, 0)["zones"]["bag"]) == {"?"}
        first = [e.start(1, seed)[0]["zones"]["drawn/0"][0] for seed in range(20)]
        assert len({chip.split("-")[0] for chip in first}) == 3
        assert e.start(1, 7)[0]["zones"] == e.start(1, 7)[0]["zones"]

    def test_drawn_chips_go_back_and_two_skulls_score_nothing(self, recipe):
        e = recipe("bags")
        worth = {"g": 3, "s": 1, "x": 0}
        busts = 0
        for seed in range(30):
            rng = Random(seed)
            s, _ = e.start(3, seed)
            while (d := e.decision(s)) is not None:
                assert counts(s, "bag", "drawn/0", "drawn/1", "drawn/2") == 12
                old = dict(s["vars"])
                s, ev = e.apply(s, rng.below(len(d.options)))
                for x in ev:
                    if x["e"] == "move" and x["src"].startswith("drawn/"):
                        kinds = [chip.split("-")[0] for chip in x["items"]]
                        bust = kinds.count("x") >= 2
                        busts += bust
                        key = "points/" + x["src"].split("/")[1]
                        assert s["vars"][key] - old[key] == (0 if bust else sum(worth[k] for k in kinds))
            assert len(s["zones"]["bag"]) == 12
        assert busts > 0


class TestDice:
    def test_a_reroll_changes_only_the_chosen_dice_and_scores_the_faces(self, recipe):
        e = recipe("dice")
        s, _ = e.start(2, 4)
        kept = {d: s["vars"][f"showing/0/{d}"] for d in ("d1", "d3")}
        d = e.decision(s)
        s, events = e.apply(s, next(i for i, o in enumerate(d.options) if o.value == ["d2"]))
        assert {d: s["vars"][f"showing/0/{d}"] for d in ("d1", "d3")} == kept
        assert events[0] == {"e": "roll", "value": s["vars"]["showing/0/d2"]}
        faces = [s["vars"][f"showing/0/{d}"] for d in ("d1", "d2", "d3")]
        worth = {"coin": 1, "coins": 2, "star": 3, "skull": 0}
        assert s["vars"]["gold/0"] == (0 if faces.count("skull") >= 2 else sum(worth[f] for f in faces))

    def test_faces_printed_twice_come_up_about_twice_as_often(self, recipe):
        e = recipe("dice")
        rolled = Counter(
            v for seed in range(300) for k, v in e.start(1, seed)[0]["vars"].items() if k.startswith("showing/")
        )
        assert set(rolled) == {"coin", "coins", "star", "skull"}
        assert rolled["coin"] > 1.5 * rolled["star"] and rolled["coins"] > 1.5 * rolled["skull"]


class TestTracksWithWrapAround:
    @pytest.mark.parametrize("start,gain,space,laps", [(58, 5, 3, 1), (0, 59, 59, 0), (10, 110, 0, 2)])
    def test_the_marker_wraps_and_counts_laps(self, recipe, start, gain, space, laps):
        e = recipe("tracks-with-wrap-around")
        s, _ = e.start(2, 1)
        s["vars"]["position/0"] = start
        run_alone(e, s, effect_frame(e, "advance", p=0, n=gain))
        assert (s["vars"]["position/0"], s["vars"]["laps/0"]) == (space, laps)
        assert e.scores(s)[0]["total"] == start + gain


class TestTurnOrderByBids:
    def test_the_highest_bidder_goes_first_and_pays(self, recipe):
        e = recipe("turn-order-by-bids")
        s, _ = e.start(3, 1)
        s = take(e, s, "1", "4", "2")
        assert s["vars"]["order"] == [1, 2, 0] and s["first"] == 1
        d = e.decision(s)
        assert d.actor == 1 and d.prompt == "Which prize do you take?"
        assert s["vars"]["coins/1"] == 4
        s = take(e, s, "5", "3", "2")
        d = e.decision(s)
        assert d.actor == 1 and d.prompt == "How many coins do you bid?", "the next bidding starts with the winner"

    def test_equal_bids_keep_the_current_order(self, recipe):
        e = recipe("turn-order-by-bids")
        s, _ = e.start(3, 1)
        s = take(e, s, "2", "1", "2")
        assert s["vars"]["order"] == [0, 2, 1]
        s = take(e, s, "5", "3", "2")  # the prizes; P1 stays first
        s = take(e, s, "1", "4", "2", "5", "3", "2")  # P2 wins round 2 and is first
        assert s["first"] == 1
        s = take(e, s, "0", "3", "3")  # bids of P2, P3, P1: P3 and P1 tie
        assert s["vars"]["order"] == [2, 0, 1], "P3 comes before P1 counting from P2"

    def test_bids_are_secret_until_revealed(self, recipe):
        e = recipe("turn-order-by-bids")
        s, _ = e.start(3, 1)
        s, events = e.apply(s, "4")  # P1 bids 4
        assert e.view(s, 0)["vars"]["bid/0"] == 4 and e.view(s, 1)["vars"]["bid/0"] == "?"
        assert "4" not in repr([f[2] for f in e.view(s, 1)["stack"]])  # the chosen local too
        assert [x["value"] for x in st.visible_events(e.game, events, 1, s) if x["e"] == "set"] == ["?"]
        s = take(e, s, "1", "2")
        assert e.view(s, 1)["vars"]["paid/0"] == 4, "revealed once everyone has bid"
        result = runner.play(e, 3, 2, ["random"])
        for_p2 = trace.render(e.game, result.trace.lines, 1)
        assert "P1 chooses something hidden" in for_p2 and "P2 chooses something hidden" not in for_p2


class TestSimultaneousReveal:
    def test_a_later_player_sees_and_may_choose_the_same_whatever_was_picked_before(self, recipe):
        e = recipe("simultaneous-reveal")
        s, _ = e.start(3, 1)
        seen = set()
        for option in e.decision(s).options:
            after, events = e.apply(s, option.id)
            d = e.decision(after)
            assert d.actor == 1
            view = e.view(after, 1)
            seen.add((repr(view), tuple(o.id for o in d.options), repr(e.view(after, 2))))
            assert option.id not in repr(view) and option.id in repr(e.view(after, 0))
            assert events == [], "nothing of a choice runs before everyone has chosen"
        assert len(seen) == 1

    def test_all_cards_are_revealed_together_and_the_highest_wins(self, recipe):
        e = recipe("simultaneous-reveal")
        s, _ = e.start(3, 1)
        s = take(e, s, "four-1", "two-2")
        assert s["zones"]["shown/0"] == [] and s["zones"]["played/0"] == [], "kept secret, not played yet"
        s = take(e, s, "three-3")
        assert sorted(s["zones"]["spent"]) == ["four-1", "three-3", "two-2"]
        assert [s["vars"][f"vp/{p}"] for p in range(3)] == [1, 0, 0]
        s = take(e, s, "three-1", "three-2", "one-3")
        assert [s["vars"][f"vp/{p}"] for p in range(3)] == [1, 0, 0], "a tie for the highest wins nothing"


class TestReactionWindows:
    def test_only_the_target_with_a_shield_is_asked_and_the_shield_blocks(self, recipe):
        e = recipe("reaction-windows")
        s, _ = e.start(2, 1)
        d = e.decision(s)  # P1 attacks P2 (the only target): P2 may react, P1 is not asked
        assert d.actor == 1 and option_ids(e, s) == ["Raise your shield", "pass"]
        s = take(e, s, "Raise your shield")
        assert (s["vars"]["health/1"], s["vars"]["shields/1"]) == (6, 0)
        assert e.decision(s).actor == 0  # P2 attacks P1, who has a shield
        s = take(e, s, "pass")
        assert s["vars"]["health/0"] == 4
        # Round 2: P1 hits P2, who has no shield left and is not asked; then P1 may react again.
        assert s["vars"]["health/1"] == 4 and s["vars"]["round_number"] == 2
        assert e.decision(s).actor == 0


class TestOncePerTurn:
    def test_the_trade_is_offered_once_per_turn(self, recipe):
        e = recipe("once-per-turn")
        s, _ = e.start(1, 1)
        trade = "Trade a coin for 2 VP (once per turn)"
        s = take(e, s, "Take a coin", "Take a coin")
        assert trade in option_ids(e, s)
        s = take(e, s, trade)
        assert s["vars"]["coins/0"] == 1 and s["vars"]["vp/0"] == 2
        assert option_ids(e, s) == ["Take a coin", "End the turn"]
        s = take(e, s, "End the turn")
        assert s["vars"]["turn_number"] == 2
        assert option_ids(e, s) == ["Take a coin", trade, "End the turn"]


class TestActionsAtAnyTime:
    def test_selling_is_offered_on_each_own_decision_and_the_decision_is_asked_again(self, recipe):
        e = recipe("actions-at-any-time")
        s, _ = e.start(2, 1)
        assert option_ids(e, s) == ["1", "2", "act:sell"]
        s = take(e, s, "act:sell")
        assert s["vars"]["coins/0"] == 3 and s["vars"]["cakes/0"] == 1
        assert option_ids(e, s) == ["1", "2", "act:sell"] and e.decision(s).actor == 0
        s = take(e, s, "act:sell", "1")
        assert s["vars"]["cakes/0"] == 1 and s["vars"]["coins/0"] == 6

    def test_a_rival_with_no_coins_interrupts_once_when_pinching_becomes_possible(self, recipe):
        e = recipe("actions-at-any-time")
        s, _ = e.start(2, 1)
        s = take(e, s, "act:sell", "1", "1")  # round 1: P1 has 3 coins, P2 none
        d = e.decision(s)
        assert d.actor == 1 and [o.id for o in d.options] == ["act:pinch", "pass"]
        s = take(e, s, "act:pinch")
        assert [s["vars"]["coins/0"], s["vars"]["coins/1"]] == [2, 1]
        assert e.decision(s).actor == 0, "then P1 decides, and is not interrupted again"
        s = take(e, s, "1")
        assert e.decision(s).actor == 1 and "act:pinch" not in option_ids(e, s)

    def test_a_moment_lets_the_rival_add_a_heart_after_a_heal_is_declared(self, recipe):
        e = recipe("actions-at-any-time", index=1)
        s, _ = e.start(2, 1)
        assert option_ids(e, s) == ["1", "2"] and [o.id for o in e.decision(s).requests] == ["act:tidy"]
        s = take(e, s, "2")
        d = e.decision(s)
        assert d.actor == 0 and d.prompt == "Act now (heal declared)?"  # everyone, in turn order
        s = take(e, s, "pass")
        assert e.decision(s).actor == 1 and option_ids(e, s) == ["act:sample", "pass"]
        s = take(e, s, "act:sample")
        assert s["vars"]["hearts"] == 3 + 1 - 2 and s["vars"]["vp/0"] == 1

    def test_tidying_is_asked_for_never_offered(self, recipe):
        e = recipe("actions-at-any-time", index=1)
        s, _ = e.start(2, 1)
        s, events = e.apply(s, "act:tidy")
        assert {"e": "act", "player": 0, "action": "tidy"} in events
        first = s["zones"]["shelf/0"][-1]
        s = take(e, s, first)
        assert s["zones"]["shelf/0"][0] == first and e.decision(s).prompt == "Heal how many hearts?"


class TestDrafting:
    def test_keep_one_or_two_card_by_card_then_the_hands_go_left(self, recipe):
        e = recipe("drafting")
        s, _ = e.start(3, 1)
        hands = [list(s["zones"][f"hand/{p}"]) for p in range(3)]
        assert option_ids(e, s) == list(dict.fromkeys(hands[0])), "one card at a time, each once"
        s = take(e, s, hands[0][0])
        assert "done" in option_ids(e, s) and e.decision(s).actor == 0
        s = take(e, s, "done")
        assert s["zones"]["kept/0"] == [hands[0][0]]
        s = take(e, s, hands[1][0], hands[1][1])  # two: the set closes by itself
        s = take(e, s, e.decision(s).options[0].id)
        s, events = e.apply(s, "done")
        # Everyone kept theirs, then each hand moved whole to the next player.
        assert s["zones"]["hand/1"] == hands[0][1:]
        assert s["zones"]["hand/2"] == hands[1][2:]
        moves = [x for x in st.visible_events(e.game, events, 2, s) if x["e"] == "move" and x["src"] == "hand/0"]
        assert moves and set(moves[0]["items"]) == {"?"}, "P3 sees only how many P1 passed"

    def test_the_draft_ends_when_the_hands_are_empty(self, recipe):
        e = recipe("drafting")
        result = runner.play(e, 4, 3, ["random"], "drafting")
        kept = [len(result.state["zones"][f"kept/{p}"]) for p in range(4)]
        assert sum(kept) == 16 and all(2 <= k <= 8 for k in kept)


class TestHiddenHands:
    def test_a_hand_is_seen_by_its_owner_and_by_its_backs_for_the_others(self, recipe):
        e = recipe("hidden-hands")
        s, _ = e.start(2, 1)
        mine, theirs = e.view(s, 0)["zones"]["hand/0"], e.view(s, 0)["zones"]["hand/1"]
        assert mine == s["zones"]["hand/0"]
        assert sorted(theirs) == ["?I", "?I", "?II"]
        # A face-down deck shows only its top card's back; the rest lie under it.
        assert e.view(s, 0)["zones"]["deck/I"] == ["?I"] + ["?"] * (len(s["zones"]["deck/I"]) - 1)
        assert e.view(s, 1)["zones"]["deck/II"] == ["?II"] + ["?"] * (len(s["zones"]["deck/II"]) - 1)
        assert e.view(s, 1)["pending"]["options"] == ["?"] * 3, "P2 does not see P1's options"
        card = mine[0]
        s = take(e, s, card)
        assert e.view(s, 1)["zones"]["played/0"] == [card]


class TestPolyominoPlacement:
    def test_a_domino_can_go_in_every_orientation_and_position(self, recipe):
        e = recipe("polyomino-placement")
        s, _ = e.start(1, 1)
        run_alone(e, s, effect_frame(e, "plant", p=0, t="domino-1"))
        assert len(option_ids(e, s)) == 48  # 4 orientations x 12 positions on a 4 x 4 garden
        s = take(e, s, "r1c1o0")
        assert s["grids"]["garden/0"]["cells"][:2] == ["sun", "moon"]
        assert not any("domino-1" in z for z in s["zones"].values())
        assert s["vars"]["edge_moons/0"] == 1

    def test_only_tiles_that_fit_are_offered_otherwise_the_player_is_stuck(self, recipe):
        e = recipe("polyomino-placement")
        s, _ = e.start(1, 1)
        cells = s["grids"]["garden/0"]["cells"]
        cells[:] = ["moon"] * 16
        cells[0] = cells[1] = None  # a 1 x 2 hole
        fill_zone(s, "offer", ["bar-1", "domino-1"])
        s["vars"]["round_number"] = 4  # the last round: the phase ends the game
        run_alone(e, s, [e.game.phases["round"], 0, {}])
        d = e.decision(s)
        assert d.prompt == "Where does the tile go?" and s["pending"]["piece"] == "domino-1"
        assert len(d.options) == 2  # sun-moon or moon-sun
        s = take(e, s, 0)
        cells = s["grids"]["garden/0"]["cells"]
        cells[0] = None  # a single square: nothing fits
        fill_zone(s, "offer", ["bar-1", "ell-1"])
        s["vars"]["round_number"] = 4
        stuck = s["vars"]["stuck/0"]
        run_alone(e, s, [e.game.phases["round"], 0, {}])
        assert s["vars"]["stuck/0"] == stuck + 1 and e.is_terminal(s)


class TestPathMovement:
    def reach(self, e, at0, at1, steps):
        s, _ = e.start(2, 1)
        s["vars"]["at/0"], s["vars"]["at/1"] = at0, at1
        run_alone(e, s, effect_frame(e, "walk", p=0, steps=steps))
        return s

    def test_a_move_chooses_at_forks_and_skips_other_pieces(self, recipe):
        e = recipe("path-movement")
        assert self.reach(e, "start", "e", 3)["vars"]["at/0"] == "c"  # one end: taken at once
        assert option_ids(e, self.reach(e, "start", "e", 4)) == ["left", "right"]
        assert option_ids(e, self.reach(e, "start", "a", 3)) == ["left", "right"]  # `a` is not counted
        assert self.reach(e, "d", "start", 2)["vars"]["at/0"] == "a", "the loop goes round past the start"

    def test_a_flower_space_scores(self, recipe):
        e = recipe("path-movement")
        s = self.reach(e, "start", "e", 4)
        before = s["vars"]["flowers/0"]
        s = take(e, s, "left")
        assert s["vars"]["at/0"] == "left" and s["vars"]["flowers/0"] == before + 1


class TestMajorities:
    def test_most_scores_five_second_two_and_ties_share_the_better_place(self, recipe):
        e = recipe("majorities")
        s, _ = e.start(4, 1)
        for key in [k for k in s["vars"] if k.startswith("cubes/")]:
            s["vars"][key] = 0
        for key, n in {
            "0/north": 3,
            "1/north": 3,
            "2/north": 1,
            "0/south": 1,
            "2/east": 2,
            "3/east": 1,
            "3/west": 1,
            "1/west": 1,
        }.items():
            s["vars"][f"cubes/{key}"] = n
        # north: P1 and P2 tie for most (5 each), P3 is third (0); south: P1 alone;
        # east: P3 most, P4 second; west: P2 and P4 tie for most;
        # most cubes in all: P1 and P2 have 4 each and split the 6
        assert [x["total"] for x in e.scores(s)] == [13, 13, 5, 7]
        assert [x["breakdown"]["Most cubes"] for x in e.scores(s)] == [3, 3, 0, 0]


class TestTieBreaks:
    def test_more_coins_then_fewer_cards_then_a_shared_place(self, recipe):
        e = recipe("tie-breaks")
        s, _ = e.start(4, 1)
        values = {"vp": [5, 5, 5, 5], "coins": [1, 2, 2, 2], "cards": [0, 1, 0, 0]}
        for name, per in values.items():
            for p, v in enumerate(per):
                s["vars"][f"{name}/{p}"] = v
        places = {r["player"]: r["place"] for r in e.ranking(s)}
        assert places == {2: 1, 3: 1, 1: 3, 0: 4}


class TestSoloAutomata:
    def test_the_automaton_does_what_its_card_says(self, recipe):
        e = recipe("solo-automata")
        s, _ = e.start(1, 1)
        fill_zone(s, "bot_deck", ["b2", "n2"])
        s = take(e, s, "south")
        assert s["zones"]["bot_done"] == ["b2"]
        assert s["vars"]["bot_cubes/south"] == 2, "Block goes where the player is strongest"
        s = take(e, s, "north")
        assert s["vars"]["bot_cubes/north"] == 2 and e.is_terminal(s)
        assert s["vars"]["won"] is False  # 2 against 2: ties go to the automaton
        assert e.scores(s)[0]["breakdown"] == {"Regions": 0, "Beat the automaton": 0}

    def test_beating_the_automaton(self, recipe):
        e = recipe("solo-automata")
        s, _ = e.start(1, 1)
        fill_zone(s, "bot_deck", ["e1", "e3"])
        s = take(e, s, "south", "north")
        assert s["vars"]["won"] is True
        assert e.scores(s)[0]["total"] == 20


class TestVariantsAndOptions:
    def test_the_short_option_plays_three_rounds_and_adds_a_score(self, recipe):
        for length, rounds in [("standard", 5), ("short", 3)]:
            e = recipe("variants-and-options", options={"length": length})
            s, _ = play(e, 2, 1)
            assert s["vars"]["round_number"] == rounds
            assert ("Leftover coins" in e.scores(s)[0]["breakdown"]) == (length == "short")

    def test_the_rich_variant_replaces_the_income(self, recipe):
        plain, rich = recipe("variants-and-options"), recipe("variants-and-options", variants=["rich"])
        s, _ = plain.start(2, 1)  # one coin: round 1 has only "Score 1 VP", taken at once
        assert s["vars"]["round_number"] == 2
        s, _ = rich.start(2, 1)
        assert s["vars"]["round_number"] == 1 and s["vars"]["coins/0"] == 2
        assert option_ids(rich, s) == ["Score 1 VP", "Buy 3 VP for 2 coins"]


def test_every_recipe_has_its_own_mechanic_tests():
    for anchor in TOC:
        name = "Test" + "".join(w.capitalize() for w in anchor.split("-"))
        cls = globals().get(name)
        assert cls is not None and any(n.startswith("test_") for n in vars(cls)), f"no {name}"
