"""Each language primitive on its own, through small inline rulesets."""

from __future__ import annotations

import pytest

from meeple.dsl.errors import MeepleError
from meeple.interpreter.boards import polyomino
from tests.conftest import rules
from tests.helpers import take

CARDS = {
    "cards.csv": """
    id,value
    a,1
    b,2
    c,3
    d,4
    e,5
"""
}

HEAD = """
game "Test"
players 1..3
component card from "cards.csv":
    value: int
"""


class TestZones:
    def test_draw_from_a_deck_takes_the_top(self, tmp_path):
        e = rules(
            HEAD
            + """
zone deck: deck of card
zone hand per player: hand of card
setup:
    move card to deck
    let player = 0
    draw 2 from deck into hand
""",
            tmp_path,
            CARDS,
        )
        s, _ = e.start(1, 1)
        assert s["zones"]["hand/0"] == ["a", "b"]
        assert s["zones"]["deck"] == ["c", "d", "e"]

    def test_draw_from_a_bag_is_random_but_seeded(self, tmp_path):
        e = rules(
            HEAD
            + """
zone bag: bag of card
zone out: pile of card
setup:
    move card to bag
    draw 3 from bag into out
""",
            tmp_path,
            CARDS,
        )
        draws = {tuple(e.start(1, seed)[0]["zones"]["out"]) for seed in range(20)}
        assert len(draws) > 5, "20 seeds should give different draws"
        assert e.start(1, 7)[0]["zones"]["out"] == e.start(1, 7)[0]["zones"]["out"]

    def test_draw_more_than_there_is_draws_what_remains(self, tmp_path):
        e = rules(
            HEAD
            + """
zone deck: deck of card
zone out: pile of card
setup:
    move card to deck
    draw 9 from deck into out
""",
            tmp_path,
            CARDS,
        )
        s, events = e.start(1, 1)
        assert len(s["zones"]["out"]) == 5 and s["zones"]["deck"] == []
        assert events[-2]["e"] == "draw" and events[-2]["wanted"] == 9

    def test_shuffle_is_seeded_and_an_event(self, tmp_path):
        e = rules(
            HEAD
            + """
zone deck: deck of card
setup:
    move card to deck
    shuffle deck
""",
            tmp_path,
            CARDS,
        )
        s1, ev = e.start(1, 3)
        s2, _ = e.start(1, 3)
        assert s1["zones"]["deck"] == s2["zones"]["deck"]
        assert sorted(s1["zones"]["deck"]) == ["a", "b", "c", "d", "e"]
        assert any(x["e"] == "shuffle" for x in ev)

    def test_move_to_top_and_bottom(self, tmp_path):
        e = rules(
            HEAD
            + """
zone deck: deck of card
zone side: pile of card
setup:
    move [card[0], card[1], card[2]] to deck
    move card[3] to deck at top
    move card[4] to deck at bottom
    move all from deck to side
""",
            tmp_path,
            CARDS,
        )
        s, _ = e.start(1, 1)
        assert s["zones"]["side"] == ["d", "a", "b", "c", "e"]
        assert s["zones"]["deck"] == []

    def test_a_zone_refuses_components_of_another_kind(self, tmp_path):
        files = dict(CARDS, **{"coins.csv": "id\ncoin\n"})
        e_text = (
            HEAD
            + """
component coin from "coins.csv":
    value: int
zone deck: deck of card
setup:
    move coin to deck
"""
        )
        files["coins.csv"] = "id,value\ncoin,1\n"
        e = rules(e_text, tmp_path, files)
        with pytest.raises(MeepleError) as info:
            e.start(1, 1)
        assert "holds card components" in info.value.format()

    def test_hidden_zone_contents_are_not_in_a_view(self, tmp_path):
        e = rules(
            HEAD
            + """
zone bag: bag of card
zone hand per player: hand of card
zone table: pile of card
setup:
    move card to bag
    for each player in turn_order:
        draw 1 from bag into hand
    draw 1 from bag into table
""",
            tmp_path,
            CARDS,
        )
        s, _ = e.start(2, 1)
        v = e.view(s, 0)
        assert v["zones"]["bag"] == ["?", "?"]
        assert v["zones"]["hand/0"] == s["zones"]["hand/0"]
        assert v["zones"]["hand/1"] == ["?"]
        assert v["zones"]["table"] == s["zones"]["table"]
        assert v["rng"] is None


class TestLayoutsAndContents:
    def test_a_layout_named_like_another_grids_content_is_the_layout(self, tmp_path):
        e = rules(
            """
game "L"
players 1
enum terrain = water | land
enum mark = x | o
grid map: 2 x 2 of terrain
grid board: 2 x 2 of mark:
    terrain from "b.txt": "#" = water, "." = land
counter n = 0
counter k = 0
setup:
    n = count(each c in cells(board) where c.terrain == water)
    for each c in cells(board):
        if c.terrain == water:
            k += 1
    end game
""",
            tmp_path,
            {"b.txt": "#.\n.#\n"},
        )
        s, _ = e.start(1, 1)
        assert s["vars"] == {"n": 2, "k": 2}


class TestRefill:
    RULES = (
        HEAD
        + """
zone deck per player: deck of card, refill from discard
zone discard per player: pile of card
zone hand per player: hand of card
setup:
    move card to deck[0]
    let player = 0
    draw 4 from deck into hand
    move all from hand to discard
    draw 3 from deck into hand
"""
    )

    def test_a_short_draw_shuffles_the_discard_in_and_goes_on(self, tmp_path):
        s, events = rules(self.RULES, tmp_path, CARDS).start(1, 3)
        assert len(s["zones"]["hand/0"]) == 3 and s["zones"]["hand/0"][0] == "e"  # e was left, drawn first
        assert s["zones"]["discard/0"] == [] and len(s["zones"]["deck/0"]) == 2
        tail = [(e["e"], e.get("src"), e.get("dst")) for e in events][-5:-1]
        assert tail == [
            ("draw", "deck/0", "hand/0"),
            ("move", "discard/0", "deck/0"),
            ("shuffle", None, None),
            ("draw", "deck/0", "hand/0"),
        ]

    def test_a_draw_into_the_refill_zone_itself_does_not_refill(self, tmp_path):
        text = self.RULES.replace("    draw 3 from deck into hand\n", "    draw 3 from deck into discard\n")
        s, events = rules(text, tmp_path, CARDS).start(1, 3)
        assert s["zones"]["discard/0"] == ["a", "b", "c", "d", "e"] and s["zones"]["deck/0"] == []
        assert "shuffle" not in [x["e"] for x in events]

    def test_nothing_to_refill_draws_what_there_is(self, tmp_path):
        text = self.RULES.replace("    move all from hand to discard\n", "")
        s, _ = rules(text, tmp_path, CARDS).start(1, 3)
        assert s["zones"]["hand/0"] == ["a", "b", "c", "d", "e"] and s["zones"]["deck/0"] == []

    @pytest.mark.parametrize(
        "decl, message",
        [
            ("zone deck: deck of card, refill from discrd", "refills from `discrd`, which is not a zone"),
            ("zone deck: deck of card, refill from deck", "cannot refill from `deck`"),
        ],
    )
    def test_a_bad_refill_zone_is_an_error(self, tmp_path, decl, message):
        text = HEAD + decl + "\nzone discard per player: pile of card\nsetup:\n    move card to deck\n"
        with pytest.raises(MeepleError) as info:
            rules(text, tmp_path, CARDS)
        assert message in str(info.value)


class TestSecrets:
    RULES = """
game "Secret"
players 2
counter bid per player = 0, secret
counter paid per player = 0
setup:
    for each player in turn_order:
        secret choose b from [1, 2, 3] "Bid":
            bid = b
    for each player in turn_order:
        secret choose b from [7] "Only one way":
            bid += 0
    for each player in turn_order:
        paid = bid
    end game
score "Paid": paid
"""

    def play(self, seed=1):
        from meeple.interpreter import runner

        engine = rules(self.RULES)
        return engine, runner.play(engine, 2, seed, ["random"])

    def test_views_show_a_secret_to_its_player_only(self):
        e = rules(self.RULES)
        s, _ = e.start(2, 1)
        s, events = e.apply(s, "3")
        assert e.view(s, 0)["vars"]["bid/0"] == 3 and e.view(s, 1)["vars"]["bid/0"] == "?"
        assert e.view(s, 1)["vars"]["bid/1"] == 0
        locals_for = [{k: v for k, v in f[2].items() if not k.startswith("$")} for f in e.view(s, 1)["stack"]]
        assert {"player": 1, "b": "?"} in locals_for
        assert e.decision(s).secret

    def test_a_local_chosen_in_secret_again_belongs_to_its_latest_chooser(self):
        e = rules("""
game "Secret"
players 2
setup:
    for each player in turn_order:
        secret choose b from [1, 2, 3] "Bid":
            pass
        choose one "Go on":
            "yes":
                pass
            "also yes":
                pass
""")
        s, _ = e.start(2, 1)
        s = take(e, s, "3", "yes", "1")  # P1 bids 3 and goes on; P2 bids 1

        def b_as_seen_by(p):
            return [f[2]["b"] for f in e.view(s, p)["stack"] if "b" in f[2]]

        assert b_as_seen_by(1) == [1] and b_as_seen_by(0) == ["?"]

    def test_events_traces_and_the_terminal_hide_it(self, monkeypatch):
        import io

        from meeple.interpreter import trace
        from meeple.interpreter.play import play_at_terminal
        from meeple.interpreter.render import event_text
        from meeple.interpreter.state import visible_events

        e, result = self.play()
        for_p2 = trace.render(e.game, result.trace.lines, 1)
        assert "P1 chooses something hidden" in for_p2 and "bid[P1] = ?" in for_p2
        assert "Only one way P1 chooses something hidden (the only option)" in for_p2  # a lone secret choice
        assert "Only one way P1 chooses 7 (the only option)" in trace.render(e.game, result.trace.lines, 0)
        assert "paid[P1] = " + str(result.state["vars"]["bid/0"]) in for_p2  # revealed by the rules
        s, _ = e.start(2, 1)
        s, events = e.apply(s, "2")
        assert [x["value"] for x in visible_events(e.game, events, 1, s) if x["e"] == "set"] == ["?"]
        assert event_text(e.game, next(x for x in events if x["e"] == "set"), 0) == "bid[P1] = 2"
        monkeypatch.setattr("builtins.input", lambda prompt="": "1")
        out = io.StringIO()
        play_at_terminal(e, 2, 1, 1, ["random"], out)
        assert "P1 chooses something hidden" in out.getvalue()

    def test_an_unchanged_secret_is_announced_too(self):
        """No event when a bid of 0 leaves the counter at 0 would tell the others it was 0."""
        from meeple.interpreter.state import visible_events

        e = rules(self.RULES.replace("[1, 2, 3]", "[0, 1, 2]"))
        s, _ = e.start(2, 1)
        s, events = e.apply(s, "0")
        assert [x["value"] for x in visible_events(e.game, events, 1, s) if x["e"] == "set"] == ["?"]

    def test_bots_play_with_secrets_they_cannot_see(self):
        from meeple.interpreter import runner

        e = rules(self.RULES)
        for agents in (["greedy"], ["mcts@10"]):
            result = runner.play(e, 2, 3, agents)
            assert result.state["over"]

    def test_a_secret_must_be_kept_per_player(self):
        with pytest.raises(MeepleError) as info:
            rules('game "S"\nplayers 2\ncounter pot = 0, secret\nsetup:\n    end game\n')
        assert "`pot` is secret, so it must be kept per player" in str(info.value)


class TestCountersAndFlow:
    def test_counters_clamp_to_their_bounds(self):
        e = rules("""
game "T"
players 1
counter coins = 3, min 0, max 5
setup:
    coins -= 10
    log "low"
    coins += 100
""")
        s, ev = e.start(1, 1)
        assert s["vars"]["coins"] == 5
        assert [x["value"] for x in ev if x["e"] == "set"] == [0, 5]

    def test_a_log_line_reads_its_braces_as_a_title_does(self):
        """It printed them: `log "Gold is {gold}"` logged the braces themselves."""
        e = rules("""
game "T"
players 2
counter gold = 3
setup:
    log "Gold is {gold}, {{as written}}"
    for each p in turn_order:
        log "{p + 1}: {gold * 2}"
    log "plain"
""")
        _, ev = e.start(2, 1)
        assert [x["text"] for x in ev if x["e"] == "log"] == ["Gold is 3, {as written}", "1: 6", "2: 6", "plain"]

    def test_per_player_counters_and_turn_order(self):
        e = rules("""
game "T"
players 1..4
counter seen per player = 0
counter order = 0
setup:
    first_player = 2
    for each player in turn_order:
        order += 1
        seen = order
""")
        s, _ = e.start(4, 1)
        assert [s["vars"][f"seen/{p}"] for p in range(4)] == [3, 4, 1, 2]

    def test_repeat_while_and_effects(self):
        e = rules("""
game "T"
players 1
counter n = 0
counter m = 0
effect bump(k):
    n += k
setup:
    repeat 3:
        do bump(2)
    while m < n:
        m += 4
""")
        s, _ = e.start(1, 1)
        assert s["vars"]["n"] == 6 and s["vars"]["m"] == 8

    def test_tables_with_ranges_and_else(self):
        e = rules("""
game "T"
players 1
table bonus = {1..3: 2, 4..6: 3, 13+: 8, else: 0}
counter a = 0
counter b = 0
counter c = 0
counter d = 0
setup:
    a = bonus[2]
    b = bonus[6]
    c = bonus[40]
    d = bonus[8]
""")
        s, _ = e.start(1, 1)
        assert [s["vars"][k] for k in "abcd"] == [2, 3, 8, 0]

    def test_a_missing_table_entry_is_a_located_error(self):
        e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    a = {1: 5}[2]\n')
        with pytest.raises(MeepleError) as info:
            e.start(1, 1)
        assert "<test>:5:" in info.value.format() and "no entry for 2" in info.value.format()

    def test_next_runs_phases_and_falling_off_ends_the_game(self):
        e = rules("""
game "T"
players 1
counter rounds = 0
setup:
    next round
phase round:
    rounds += 1
    if rounds < 4:
        next round
""")
        s, ev = e.start(1, 1)
        assert s["over"] and s["vars"]["rounds"] == 4
        assert [x["phase"] for x in ev if x["e"] == "phase"] == ["round"] * 4

    def test_an_endless_loop_is_stopped_with_its_line(self):
        e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    while true:\n        a += 1\n')
        with pytest.raises(MeepleError) as info:
            e.start(1, 1)
        assert "loop forever" in info.value.format() and "<test>:" in info.value.format()


class TestChoices:
    def test_choose_enumerates_options_and_binds(self):
        e = rules("""
game "T"
players 2
counter got per player = 0
setup:
    for each player in turn_order:
        choose x from [3, 5, 7] where x > 3:
            got = x
""")
        s, _ = e.start(2, 1)
        d = e.decision(s)
        assert d.actor == 0 and [o.id for o in d.options] == ["5", "7"]
        s, _ = e.apply(s, "7")
        assert e.decision(s).actor == 1
        s, _ = e.apply(s, 0)
        assert s["vars"]["got/0"] == 7 and s["vars"]["got/1"] == 5 and s["over"]

    def test_must_if_possible_runs_otherwise_when_nothing_qualifies(self):
        e = rules("""
game "T"
players 1
flag passed = false
setup:
    choose x from [1, 2] where x > 5 by first_player:
        pass
    otherwise:
        passed = true
""")
        s, _ = e.start(1, 1)
        assert s["vars"]["passed"] is True and s["over"]

    def test_a_lone_option_is_taken_automatically(self):
        e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    choose x from [4] by 0:\n        a = x\n')
        s, ev = e.start(1, 1)
        assert s["vars"]["a"] == 4 and ev[0]["e"] == "auto"

    def test_may_adds_pass(self):
        e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    may choose x from [4] by 0:\n        a = x\n')
        s, _ = e.start(1, 1)
        assert [o.id for o in e.decision(s).options] == ["4", "pass"]
        s2, _ = e.apply(s, "pass")
        assert s2["vars"]["a"] == 0

    def test_no_options_and_no_otherwise_is_an_error(self):
        e = rules('game "T"\nplayers 1\nsetup:\n    choose x from [] by 0:\n        pass\n')
        with pytest.raises(MeepleError) as info:
            e.start(1, 1)
        assert "nothing to choose" in info.value.format()

    def test_menu_offers_guarded_entries(self):
        e = rules("""
game "T"
players 1
counter gold = 1
setup:
    choose one by 0:
        "take 2":
            gold += 2
        "spend 5" if gold >= 5:
            gold -= 5
        "double":
            gold = gold * 2
""")
        s, _ = e.start(1, 1)
        assert [o.id for o in e.decision(s).options] == ["take 2", "double"]
        s, _ = e.apply(s, "double")
        assert s["vars"]["gold"] == 2

    def test_apply_leaves_the_old_state_alone(self):
        e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    choose x from [1, 2] by 0:\n        a = x\n')
        s, _ = e.start(1, 1)
        before = repr(s)
        e.apply(s, 1)
        assert repr(s) == before


GRID = """
game "Grid"
players 1..2
enum mark = x | o
grid board per player: 3 x 4 of mark
"""


class TestGrids:
    def test_marking_cells_and_reading_rows_and_columns(self):
        e = rules(
            GRID
            + """
counter in_row per player = 0
counter in_col per player = 0
setup:
    let player = 0
    for each c in cells(board) where c.row == 2 or c.col == 1:
        c.mark = x
    in_row = count(each c in top(rows(board)) where c.mark == x)
    in_col = max(count(each c in col where c.mark == x) for each col in columns(board))
"""
        )
        s, _ = e.start(1, 1)
        cells = s["grids"]["board/0"]["cells"]
        assert cells[:4] == ["x", None, None, None] and cells[4:8] == ["x"] * 4
        assert s["vars"]["in_row/0"] == 1 and s["vars"]["in_col/0"] == 3

    def test_groups_are_orthogonal(self):
        e = rules(
            GRID
            + """
counter n = 0
counter biggest = 0
setup:
    let player = 0
    for each c in cells(board) where c.col != 2 and not (c.row == 2 and c.col == 4):
        c.mark = o
    n = count(groups(each c in cells(board) where c.mark == o))
    biggest = max(count(g) for each g in groups(each c in cells(board) where c.mark == o))
"""
        )
        s, _ = e.start(1, 1)
        # col 1 (3 cells) | cols 3-4 minus r2c4: r1c3 r1c4 r2c3 r3c3 r3c4 -> one group of 5
        assert s["vars"]["n"] == 2 and s["vars"]["biggest"] == 5

    def test_neighbour_steps_are_none_at_the_edge(self):
        e = rules(
            GRID
            + """
flag edge = false
counter around = 0
setup:
    let player = 0
    let corner = top(cells(board))
    edge = left(corner) == none and above(corner) == none and right(corner) != none
    around = count(neighbours(right(corner)))
"""
        )
        s, _ = e.start(1, 1)
        assert s["vars"]["edge"] is True and s["vars"]["around"] == 3


class TestPolyominoes:
    def test_eight_orientations_of_an_asymmetric_piece(self):
        shape = polyomino.parse_shape("a . / a . / a b", {"a", "b"})
        assert len({polyomino.orient(shape, k) for k in range(8)}) == 8

    def test_symmetric_pieces_collapse(self):
        square = polyomino.parse_shape("a a / a a", {"a"})
        assert len({polyomino.orient(square, k) for k in range(8)}) == 1
        marked = polyomino.parse_shape("a b / a a", {"a", "b"})
        assert len({polyomino.orient(marked, k) for k in range(8)}) == 4

    def test_placements_stay_inside_the_grid(self):
        line = polyomino.parse_shape("a a a", {"a"})
        places = polyomino.placements(line, 2, 3)
        # horizontal: 2 rows x 1 column; vertical: does not fit in 2 rows
        assert [(p.orientation, p.row, p.col) for p in places] == [(0, 0, 0), (0, 1, 0)]

    def test_shape_text_errors(self):
        with pytest.raises(polyomino.ShapeError):
            polyomino.parse_shape("a z", {"a"})
        with pytest.raises(polyomino.ShapeError):
            polyomino.parse_shape(". .", {"a"})

    def test_place_offers_only_fitting_spots_and_writes_cells(self, tmp_path):
        e = rules(
            """
game "P"
players 1
enum mark = a | b
component piece from "pieces.csv":
    cells: shape of mark
zone hand: pile of piece
grid board: 2 x 3 of mark
flag fitted = false
setup:
    move piece to hand
    fitted = fits(top(hand), board)
    place top(hand) on board by 0 as covered, undoable
""",
            tmp_path,
            {"pieces.csv": "id,cells\nbar,a a b\n"},
        )
        s, _ = e.start(1, 1)
        d = e.decision(s)
        assert s["vars"]["fitted"] is True and d.undoable
        # a a b in a 2x3 grid: upright or turned 180, in either row
        assert sorted(o.id for o in d.options) == ["r1c1o0", "r1c1o2", "r2c1o0", "r2c1o2"]
        s, ev = e.apply(s, "r2c1o2")
        assert s["grids"]["board"]["cells"] == [None, None, None, "b", "a", "a"]
        assert s["zones"]["hand"] == [] and s["grids"]["board"]["pieces"][0][0] == "bar"
        assert ev[0]["e"] == "place"


class TestScoringAndRanking:
    def test_score_rules_breakdown_and_tiebreak(self):
        e = rules("""
game "S"
players 3
counter vp per player = 0
counter coins per player = 0
setup:
    vp[0] = 5
    vp[1] = 5
    vp[2] = 2
    coins[1] = 3
score "Points": vp
score "Bonus":
    if vp >= 5:
        add 1
tiebreak: most coins
""")
        s, _ = e.start(3, 1)
        scores = e.scores(s)
        assert [x["total"] for x in scores] == [6, 6, 2]
        assert scores[0]["breakdown"] == {"Points": 5, "Bonus": 1}
        ranking = e.ranking(s)
        assert [(r["player"], r["place"]) for r in ranking] == [(1, 1), (0, 2), (2, 3)]

    def test_without_tiebreak_ties_share_the_place(self):
        e = rules('game "S"\nplayers 2\nscore "Flat": 3\n')
        s, _ = e.start(2, 1)
        assert [r["place"] for r in e.ranking(s)] == [1, 1]

    def test_option_guards_pick_score_rules_at_compile_time(self):
        text = 'game "S"\nplayers 1\noption card = A | B\nscore "Card" if card == A: 1\nscore "Card" if card == B: 2\n'
        assert rules(text).scores(rules(text).start(1, 1)[0])[0]["total"] == 1
        eb = rules(text, options={"card": "B"})
        assert eb.scores(eb.start(1, 1)[0])[0]["total"] == 2


class TestVariants:
    def test_a_variant_replaces_a_phase(self):
        text = """
game "V"
players 1
counter a = 0
setup:
    next main
phase main:
    a = 1
variant big "Big numbers":
    phase main:
        a = 100
"""
        plain = rules(text)
        assert plain.start(1, 1)[0]["vars"]["a"] == 1
        big = rules(text, variants=["big"])
        assert big.start(1, 1)[0]["vars"]["a"] == 100
        assert big.game.variants == ["big"]


class TestTablesOfCounters:
    def test_per_player_per_value_counters_and_zones(self, tmp_path):
        e = rules(
            HEAD
            + """
enum colour = red | blue
counter stock per player per colour = 0
zone slots per player per colour: pile of card
setup:
    for each player in turn_order:
        stock[red] += 2
        stock[player, blue] = player + 10
    move card[0] to slots[1, blue]
""",
            tmp_path,
            CARDS,
        )
        s, _ = e.start(2, 1)
        assert s["vars"]["stock/0/red"] == 2 and s["vars"]["stock/1/blue"] == 11
        assert s["zones"]["slots/1/blue"] == ["a"] and s["zones"]["slots/0/red"] == []
        from meeple.interpreter.render import key_label

        assert key_label(e.game, "slots/1/blue") == "slots[P2, blue]"

    def test_per_component_kind(self, tmp_path):
        e = rules(
            HEAD
            + """
flag seen per card = false
setup:
    for each c in card where c.value > 3:
        seen[c] = true
""",
            tmp_path,
            CARDS,
        )
        s, _ = e.start(1, 1)
        assert [k for k, v in s["vars"].items() if v] == ["seen/d", "seen/e"]

    def test_wrong_number_of_indexes(self):
        with pytest.raises(MeepleError) as info:
            rules('game "T"\nplayers 2\nenum c = r | b\ncounter s per player per c = 0\nsetup:\n    s[0, r, b] = 1\n')
        assert "give 2 indexes" in info.value.format()


class TestValues:
    def test_a_value_holds_any_name_and_round_trips(self):
        e = rules("""
game "T"
players 2
value spot per player = none
setup:
    spot[0] = "start"
    spot[1] = spot[0]
""")
        s, ev = e.start(2, 1)
        assert s["vars"] == {"spot/0": "start", "spot/1": "start"}
        import json

        assert json.loads(json.dumps(s)) == s


class TestCardFields:
    FILES = {
        "cards.csv": """
        id,cost,ability
        a,red red,gain(2)
        b,blue,gain(5)
        c,,
    """
    }
    TEXT = """
game "T"
players 1
enum colour = red | blue
component card from "cards.csv":
    cost: list of colour
    ability: effect
counter gold per player = 0
counter reds = 0
effect gain(p, n):
    gold[p] += n
setup:
    let player = 0
    for each c in card:
        do c.ability(player)
        reds += count(each x in c.cost where x == red)
"""

    def test_lists_and_effects_from_data(self, tmp_path):
        e = rules(self.TEXT, tmp_path, self.FILES)
        assert e.game.components["a"]["cost"] == ["red", "red"]
        assert e.game.components["c"]["ability"] is None
        s, _ = e.start(1, 1)
        assert s["vars"]["gold/0"] == 7 and s["vars"]["reds"] == 2

    def test_an_unknown_effect_in_data_points_at_the_data_line(self, tmp_path):
        files = {"cards.csv": "id,cost,ability\na,red,gian(2)\n"}
        with pytest.raises(MeepleError) as info:
            rules(self.TEXT, tmp_path, files)
        out = info.value.format()
        assert "cards.csv:2:1: error: field `ability`: there is no effect `gian`" in out
        assert "did you mean `gain`?" in out

    def test_field_calls_need_do(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            rules(
                self.TEXT.replace("        do c.ability(player)\n", "        reds = c.ability(player)\n"),
                tmp_path,
                self.FILES,
            )
        assert "needs `do` in front" in info.value.format()


BOARD = {
    "path.json": """
    {"spaces": {
        "s1": {"tags": ["start"], "areas": ["north", "pond", "wood"]},
        "s2": {"areas": ["north", "pond", "hill"]},
        "s3": {"tags": ["picnic"], "areas": ["pond", "hill", "wood"]},
        "s4": {"areas": ["north", "hill", "wood"]},
        "s5": {"areas": ["north", "pond", "wood"]}},
     "arrows": [["s1", "s2"], ["s2", "s3"], ["s3", "s5"], ["s1", "s4"], ["s4", "s5"], ["s5", "s1"]]}
"""
}


class TestBoards:
    def engine(self, tmp_path, body):
        return rules('game "B"\nplayers 1..2\nboard path from "path.json"\n' + body, tmp_path, BOARD)

    def test_reach_chooses_at_forks_and_skips_occupied_spaces(self, tmp_path):
        e = self.engine(tmp_path, "")
        from meeple.interpreter.builtins import FUNCTIONS
        from meeple.interpreter.machine import Machine

        m = Machine(e.game, e.start(1, 1)[0])
        reach = FUNCTIONS["reach"].fn
        assert reach(m, "path", "s1", 2, []) == ["s3", "s5"]  # two branches
        assert reach(m, "path", "s1", 2, ["s2"]) == ["s5"]  # s2 skipped: s1>(s2)>s3>s5 ... and s1>s4>s5
        assert reach(m, "path", "s1", 1, ["s2"]) == ["s3", "s4"]  # the occupied space is not counted
        assert reach(m, "path", "s3", 0, ["s3"]) == ["s3"]  # moving 0 stays put
        # round the loop: s1>s2>s3>s5>s1>s2, ...>s1>s4, s1>s4>s5>s1>s2>s3, ...>s4>s5
        assert reach(m, "path", "s1", 5, []) == ["s2", "s3", "s4", "s5"]

    def test_board_functions_in_rules(self, tmp_path):
        e = self.engine(
            tmp_path,
            """
value at per player = none
counter near = 0
flag picnic = false
setup:
    at[0] = top(each s in spaces(path) where "start" in tags(path, s))
    choose dest from reach(path, at[0], 2, []) by 0:
        at[0] = dest
    near = count(areas(path, at[0])) + count(adjacent(path, at[0])) + count(next_spaces(path, at[0]))
    picnic = "picnic" in tags(path, at[0])
""",
        )
        s, _ = e.start(1, 1)
        assert [o.id for o in e.decision(s).options] == ["s3", "s5"]
        s, _ = e.apply(s, "s3")
        assert s["vars"]["at/0"] == "s3" and s["vars"]["picnic"] is True
        assert s["vars"]["near"] == 3 + 2 + 1

    def test_bad_board_data(self, tmp_path):
        files = {"path.json": '{"spaces": {"a": {}}, "arrows": [["a", "zz"]]}'}
        with pytest.raises(MeepleError) as info:
            rules('game "B"\nplayers 1\nboard path from "path.json"\n', tmp_path, files)
        assert "an arrow is [from, to] between known spaces" in info.value.format()


class TestFunctions:
    def test_functions_compute_with_their_parameters(self):
        e = rules("""
game "F"
players 1
counter x = 3
counter out = 0
function double(n) = n * 2
function quad(n) = double(double(n)) + x - x
setup:
    out = quad(x)
""")
        assert e.start(1, 1)[0]["vars"]["out"] == 12

    def test_endless_recursion_is_a_located_error(self):
        e = rules('game "F"\nplayers 1\ncounter o = 0\nfunction f(n) = f(n + 1)\nsetup:\n    o = f(1)\n')
        with pytest.raises(MeepleError) as info:
            e.start(1, 1)
        assert "<test>:6:" in info.value.format()

    def test_a_function_cannot_shadow_a_builtin(self):
        with pytest.raises(MeepleError) as info:
            rules('game "F"\nplayers 1\nfunction count(n) = n\n')
        assert "`count` is a built-in function" in info.value.format()


def test_equal_values_are_one_option():
    e = rules('game "T"\nplayers 1\ncounter a = 0\nsetup:\n    choose x from [2, 3, 2, 3] by 0:\n        a = x\n')
    s, _ = e.start(1, 1)
    assert [o.id for o in e.decision(s).options] == ["2", "3"]


class TestCardBacks:
    FILES = {"cards.csv": "id,value,suit\na,1,red\nb,2,blue\nc,3,red\n"}
    TEXT = """
game "Backs"
players 2
enum colour = red | blue
component card from "cards.csv":
    value: int
    suit: colour, on back
zone deck: deck of card
zone table: pile of card
setup:
    move card to deck
    shuffle deck
    log top(deck).suit
    choose c from [1, 2] by 0:
        pass
"""

    def test_a_face_down_deck_shows_only_its_top_back(self, tmp_path):
        e = rules(self.TEXT, tmp_path, self.FILES)
        s, events = e.start(2, 5)
        view = e.view(s, 0)
        top = e.game.components[s["zones"]["deck"][0]]["suit"]
        assert view["zones"]["deck"] == ["?" + top, "?", "?"]
        assert events[-1] == {"e": "log", "text": top}

    def test_a_hidden_hand_shows_every_back_and_a_bag_none(self, tmp_path):
        text = self.TEXT.replace(
            "zone table: pile of card", "zone hand per player: hand of card\nzone bag: bag of card"
        )
        text = text.replace(
            "    log top(deck).suit\n", "    draw 2 from deck into hand[1]\n    move top(deck) to bag\n"
        )
        e = rules(text, tmp_path, self.FILES)
        s, _ = e.start(2, 5)
        view = e.view(s, 0)
        assert view["zones"]["hand/1"] == ["?" + e.game.components[c]["suit"] for c in s["zones"]["hand/1"]]
        assert view["zones"]["bag"] == ["?"]

    def test_determinizing_keeps_the_top_back_and_guesses_the_rest(self, tmp_path):
        from meeple.interpreter.agents.determinize import determinize

        e = rules(self.TEXT, tmp_path, self.FILES)
        s, _ = e.start(2, 5)
        top = e.game.components[s["zones"]["deck"][0]]["suit"]
        orders = set()
        for seed in range(20):
            guess = determinize(e.game, e.view(s, 0), seed)
            assert e.game.components[guess["zones"]["deck"][0]]["suit"] == top
            assert sorted(guess["zones"]["deck"]) == ["a", "b", "c"]
            orders.add(tuple(guess["zones"]["deck"]))
        # Below the top the backs are unseen, so some guesses put them in another order.
        assert len(orders) > 1


class TestReactionWindows:
    TEXT = """
game "R"
players 3
counter coins per player = 0
counter shields per player = 1
flag blocked = false
reaction block(p, moment) "Raise a shield" when moment == "attack" and shields[p] > 0:
    shields[p] -= 1
    blocked = true
reaction cheer(p, moment) when moment == "attack" and p == 2:
    coins[p] += 1
setup:
    first_player = 1
    window "attack"
    window "quiet"
"""

    def test_each_player_in_turn_order_may_react_once(self):
        e = rules(self.TEXT)
        s, _ = e.start(3, 1)
        d = e.decision(s)
        # P2 (seat 1) is first: only the shield applies to them
        assert d.actor == 1 and [o.id for o in d.options] == ["Raise a shield", "pass"]
        s, ev = e.apply(s, "Raise a shield")
        assert s["vars"]["blocked"] is True and s["vars"]["shields/1"] == 0
        assert ev[0] == {"e": "react", "player": 1, "reaction": "block", "moment": "attack"}
        d = e.decision(s)
        assert d.actor == 2 and [o.id for o in d.options] == ["Raise a shield", "cheer", "pass"]
        s, _ = e.apply(s, "cheer")
        d = e.decision(s)
        assert d.actor == 0
        s, _ = e.apply(s, "pass")
        # nothing applies at "quiet": the game ends without asking anyone
        assert s["over"] and s["vars"]["coins/2"] == 1

    def test_a_moment_with_context_reads_as_words(self):
        e = rules("""
game "R"
players 2
counter hits per player = 0
reaction dodge(p, moment) "Dodge" when moment[0] == "hit" and moment[1] == p:
    hits[p] -= 1
setup:
    window ["hit", 1]
""")
        s, _ = e.start(2, 1)
        d = e.decision(s)
        assert d.actor == 1 and d.prompt == 'React at "hit 1"?'

    def test_reaction_titles_must_differ(self):
        with pytest.raises(MeepleError) as info:
            rules(self.TEXT.replace('"Raise a shield"', '"cheer"'))
        assert 'two reactions are called "cheer"' in info.value.format()


def test_roll_subsets_last():
    e = rules("""
game "D"
players 1
value faces = none
counter n = 0
value tail = none
setup:
    faces = roll(["skull", "blank", 1, 2])
    n = count(subsets([1, 2, 3], 1, 3))
    tail = last([1, 2, 3])
""")
    rolls = set()
    for seed in range(30):
        s, ev = e.start(1, seed)
        rolls.add(s["vars"]["faces"])
        assert {"e": "roll", "value": s["vars"]["faces"]} in ev
    assert rolls == {"skull", "blank", 1, 2}
    assert s["vars"]["n"] == 7 and s["vars"]["tail"] == 3


def test_options_that_are_lists_get_joined_ids_and_labels():
    """A set of dice is not a cell: `d1+d2`, labelled `d1 + d2`; the empty set is `none`."""
    e = rules("""
game "Dice"
players 1
enum die = d1 | d2 | d3
grid board: 2 x 2 of die
counter kept = 0
setup:
    let player = 0
    choose s from subsets(die, 0, 2):
        kept = count(s)
    choose c from cells(board):
        c.die = d1
""")
    s, _ = e.start(1, 1)
    d = e.decision(s)
    ids = [o.id for o in d.options]
    assert "none" in ids and "d1" in ids and "d1+d2" in ids and not any("@" in i or "[" in i for i in ids)
    assert d.options[ids.index("d1+d2")].label == "d1 + d2"
    s, _ = e.apply(s, "d2+d3")
    assert s["vars"]["kept"] == 2
    assert [o.id for o in e.decision(s).options] == ["board@0", "board@1", "board@2", "board@3"]


class TestValuesHoldingPlayers:
    """A `value` that holds a player prints as P1, P2... in traces, views and at the terminal."""

    def test_player_values_print_as_players(self):
        from meeple.interpreter.board_text import state_text
        from meeple.interpreter.render import event_text

        e = rules("""
game "Leader"
players 3
value leader = none
value champion per player = none
value word = none
setup:
    for each player in turn_order:
        choose q from turn_order where q != player "Who leads?":
            leader = q
            champion = player
    leader = next_player(first_player)
    word = 2
""")
        assert [n for n, c in e.game.counters.items() if c.player] == ["leader", "champion"]
        s, _ = e.start(3, 1)
        s, events = e.apply(s, 0)
        sets = [event_text(e.game, x) for x in events if x["e"] == "set"]
        assert sets[:2] == ["leader = P2", "champion[P1] = P1"]
        assert "leader=P2" in state_text(e.game, s)[1]

    def test_a_value_also_given_numbers_stays_a_number(self):
        from meeple.interpreter.render import event_text

        e = rules("""
game "Mixed"
players 2
value pick = none
setup:
    pick = first_player
    pick = 1
""")
        assert not e.game.counters["pick"].player
        _, events = e.start(2, 1)
        assert [event_text(e.game, x) for x in events if x["e"] == "set"] == ["pick = 0", "pick = 1"]


class TestListHelpers:
    def test_unique_keeps_the_first_of_each_value(self):
        e = rules(
            'game "U"\nplayers 1\ncounter n = 0\nsetup:\n    for each x in unique([3, 1, 3, 2, 1]):\n'
            "        n = n * 10 + x\n"
        )
        s, _ = e.start(1, 1)
        assert s["vars"]["n"] == 312

    @pytest.mark.parametrize(
        "values, points, shares",
        [([3, 5, 5], 6, [0, 3, 3]), ([1, 0, 4], 5, [0, 0, 5]), ([0, 0], 4, [0, 0]), ([2, 2, 2], 5, [1, 1, 1])],
    )
    def test_majority_splits_the_points_among_the_tied_leaders(self, values, points, shares):
        from meeple.interpreter.builtins import FUNCTIONS

        assert FUNCTIONS["majority"].fn(None, values, points) == shares

    def test_pairings_are_every_split_into_pairs(self):
        from meeple.interpreter.builtins import FUNCTIONS

        pairings = FUNCTIONS["pairings"].fn
        assert pairings(None, [1, 2, 3, 4]) == [[[1, 2], [3, 4]], [[1, 3], [2, 4]], [[1, 4], [2, 3]]]
        assert len(pairings(None, list(range(8)))) == 105
        with pytest.raises(ValueError, match="cannot all be paired"):
            pairings(None, [1, 2, 3])

    def test_plus_and_plus_equals_join_lists(self):
        e = rules(
            'game "L"\nplayers 2\ncounter n = 0\nsetup:\n    let xs = [1] + turn_order\n'
            "    xs += [7]\n    xs += list(each p in turn_order where p > 0)\n    n = count(xs) * 100 + sum(xs)\n"
        )
        s, _ = e.start(2, 1)
        assert s["vars"]["n"] == 5 * 100 + (1 + 0 + 1 + 7 + 1)

    @pytest.mark.parametrize(
        "line, message",
        [
            ("n = count([1] + 2)", "5:15: error: cannot add a list and a number"),
            ("n = players + turn_order", "5:9: error: cannot add a number and a list"),
            ("n = count(turn_order - [0])", "5:15: error: `-` needs numbers, not a list"),
            ("n += [1]", "5:5: error: `+=` cannot mix a list and a number"),
        ],
    )
    def test_lists_and_numbers_do_not_mix_checked_before_play(self, line, message):
        with pytest.raises(MeepleError) as err:
            rules(f'game "L"\nplayers 2\ncounter n = 0\nsetup:\n    {line}\n')
        assert f"<test>:{message}" in str(err.value)

    def test_pairings_in_a_rule_error_names_the_line(self):
        e = rules('game "P"\nplayers 1\ncounter n = 0\nsetup:\n    n = count(pairings([1, 2, 3]))\n')
        with pytest.raises(MeepleError, match=r"<test>:5:.*cannot all be paired"):
            e.start(1, 1)


class TestPassOn:
    TEXT = (
        HEAD
        + """
zone hand per player: hand of card
zone pile: pile of card
setup:
    move [a, b] to hand[0]
    move c to hand[1]
    move [d, e] to hand[2]
    pass hand to next
""".replace("[a, b]", '["a", "b"]')
        .replace("move c", 'move "c"')
        .replace("[d, e]", '["d", "e"]')
    )

    def test_every_hand_goes_whole_to_the_next_player(self, tmp_path):
        e = rules(self.TEXT, tmp_path, CARDS)
        s, events = e.start(3, 1)
        assert [s["zones"][f"hand/{p}"] for p in range(3)] == [["d", "e"], ["a", "b"], ["c"]]
        moves = [(x["src"], x["dst"], x["items"]) for x in events if x["e"] == "move" and x["src"].startswith("hand")]
        assert moves == [
            ("hand/0", "hand/1", ["a", "b"]),
            ("hand/1", "hand/2", ["c"]),
            ("hand/2", "hand/0", ["d", "e"]),
        ]

    def test_only_a_zone_kept_per_player_can_be_passed(self, tmp_path):
        with pytest.raises(MeepleError) as err:
            rules(self.TEXT.replace("pass hand to next", "pass pile to next"), tmp_path, CARDS)
        assert "needs a zone kept per player only" in str(err.value) and "game.rules:12:5: error" in str(err.value)
