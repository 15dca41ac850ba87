"""Games read the way the table would: titles, component and option labels, quiet
counters, declared outcomes, cells in words."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from meeple.cli import main
from meeple.dsl import ast
from meeple.dsl.compiler import compile_ruleset, load_game, shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_file, parse_text
from meeple.interpreter.board_text import state_text
from meeple.interpreter.engine import Engine
from meeple.interpreter.render import event_text, shown_event

CARDS = "id,name,cost,vp\nc1,Honey Cake,2,3\nc2,Mud Pie,1,1\nc3,Rose Tart,3,5\n"


def game(tmp_path, text: str) -> Engine:
    (tmp_path / "cards.csv").write_text(CARDS)
    path = tmp_path / "g.rules"
    path.write_text(text)
    return Engine(load_game(path))


HEAD = """game "Readable"
players 1..2
component card from "cards.csv":
    label "{name}: {cost} -> {vp} VP"
    cost: int
    vp: int
zone market: pile of card
zone hand per player: hand of card
counter coins per player = 5
counter seen_on per card = 0, quiet
enum slot = left | middle | right
"""


class TestComponentLabels:
    def test_options_and_events_read_by_label_and_keep_their_ids(self, tmp_path):
        e = game(
            tmp_path,
            HEAD
            + """setup:
    move card to market
    choose c from market by first_player "Buy which card ({coins[first_player]} coins)?":
        move c to hand[first_player]
""",
        )
        state, events = e.start(1, 1)
        d = e.decision(state)
        assert d.prompt == "Buy which card (5 coins)?"
        assert [(o.id, o.label) for o in d.options] == [
            ("c1", "Honey Cake: 2 -> 3 VP"),
            ("c2", "Mud Pie: 1 -> 1 VP"),
            ("c3", "Rose Tart: 3 -> 5 VP"),
        ]
        state, events = e.apply(state, "c2")
        assert event_text(e.game, events[0]) == "move Mud Pie: 1 -> 1 VP from market to hand[P1]"
        assert "  hand[P1]: Mud Pie: 1 -> 1 VP" in state_text(e.game, state)

    def test_a_value_holding_a_component_reads_by_its_label(self, tmp_path):
        e = game(tmp_path, HEAD + "value pick = none\nsetup:\n    pick = top(each c in card where c.cost == 3)\n")
        state, events = e.start(1, 1)
        assert "pick = Rose Tart: 3 -> 5 VP" in [event_text(e.game, ev) for ev in events]
        assert "pick=Rose Tart: 3 -> 5 VP" in state_text(e.game, state)[1]

    def test_a_label_naming_an_unknown_field_says_which_fields_there_are(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            game(tmp_path, HEAD.replace("{vp} VP", "{vps} VP") + "setup:\n    pass\n")
        out = info.value.format()
        assert "g.rules:4:" in out and "`vps`, which is not a field of `card`" in out
        assert "did you mean `vp`" in out

    def test_a_label_may_name_fields_only(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            game(tmp_path, HEAD.replace("{cost}", "{cost + 1}") + "setup:\n    pass\n")
        assert "can name fields only" in info.value.format()


class TestChoiceLabels:
    def test_each_option_reads_through_the_choice_label(self, tmp_path):
        e = game(
            tmp_path,
            HEAD
            + """table price = {left: 1, middle: 2, right: 3}
zone shelf per slot: pile of card
setup:
    move card to market
    for each s in slot:
        draw 1 from market into shelf[s]
    choose s from slot label "{top(shelf[s])} for {price[s]}" by first_player "Buy from which slot?":
        move top(shelf[s]) to hand[first_player]
""",
        )
        state, _ = e.start(1, 3)
        d = e.decision(state)
        assert [o.id for o in d.options] == ["left", "middle", "right"]
        first = state["zones"]["shelf/left"][0]
        assert d.options[0].label == f"{e.game.labels[first]} for 1"

    def test_a_label_without_braces_is_refused(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            game(tmp_path, HEAD + 'setup:\n    choose s from slot label "a slot" by first_player:\n        pass\n')
        assert "put an expression in braces" in info.value.format()


class TestTitles:
    def test_a_title_reads_its_expressions_where_it_is_asked(self, tmp_path):
        e = game(
            tmp_path,
            HEAD
            + """setup:
    repeat 2:
        coins[first_player] += 1
        choose one by first_player "Round {{{coins[first_player]}}}: go on?":
            "yes":
                pass
            "no":
                pass
""",
        )
        state, _ = e.start(1, 1)
        assert e.decision(state).prompt == "Round {6}: go on?"
        state, _ = e.apply(state, 0)
        assert e.decision(state).prompt == "Round {7}: go on?"

    def test_a_bad_expression_in_a_title_points_at_its_line(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            game(tmp_path, HEAD + 'setup:\n    choose s from slot by first_player "Take {count(}":\n        pass\n')
        assert info.value.format().startswith(f"{tmp_path / 'g.rules'}:13:")
        with pytest.raises(MeepleError) as info:
            game(tmp_path, HEAD + 'setup:\n    choose s from slot by first_player "Take {coinz}":\n        pass\n')
        out = info.value.format()
        assert ":13:" in out.splitlines()[0] and "coinz" in out

    def test_a_window_has_its_own_title(self, tmp_path):
        e = game(
            tmp_path,
            HEAD
            + """reaction tip(p, moment) "Tip the baker":
    coins[p] -= 1
setup:
    window "after baking" "Tip the baker now?"
""",
        )
        state, _ = e.start(1, 1)
        d = e.decision(state)
        assert d.prompt == "Tip the baker now?" and [o.label for o in d.options] == ["Tip the baker", "pass"]


def decisions_without_title(node, out: list) -> list:
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        if isinstance(node, (ast.Choose, ast.Menu, ast.Place, ast.Window)) and not node.prompt:
            out.append(node.span.line)
        for f in dataclasses.fields(node):
            decisions_without_title(getattr(node, f.name), out)
    elif isinstance(node, (list, tuple)):
        for x in node:
            decisions_without_title(x, out)
    return out


@pytest.mark.parametrize("name", sorted(shipped_rulesets()))
def test_every_decision_of_a_shipped_ruleset_has_a_title(name):
    missing = decisions_without_title(parse_file(shipped_rulesets()[name]).items, [])
    assert missing == [], f"{name}: decisions without a title on lines {missing}"


class TestQuiet:
    def test_quiet_counters_stay_in_the_state_and_views_but_not_in_displays(self, tmp_path):
        e = game(
            tmp_path,
            HEAD + "setup:\n    for each c in card where c.cost == 2:\n        seen_on[c] = 4\n"
            "    coins[first_player] += 1\n",
        )
        state, events = e.start(1, 1)
        assert state["vars"]["seen_on/c1"] == 4 and e.view(state, 0)["vars"]["seen_on/c1"] == 4
        text = "\n".join(state_text(e.game, state))
        assert "seen_on" not in text and "coins[P1]=6" in text
        assert [shown_event(e.game, ev) for ev in events if ev["e"] == "set"] == [False, True]


class TestOutcome:
    RULES = (
        HEAD
        + """counter dragon = 4
score "Coins": coins
outcome if players == 1:
    win if score >= dragon: "You won, {score} to {dragon}"
    loss: "The dragon wins, {dragon} to {score}"
setup:
    choose n from [1, 9] by first_player "How hungry is the dragon?":
        dragon = n
"""
    )

    def test_solo_reads_in_the_rulesets_words(self, tmp_path):
        e = game(tmp_path, self.RULES)
        state, _ = e.start(1, 1)
        won, _ = e.apply(state, "1")
        lost, _ = e.apply(state, "9")
        assert e.outcome(won) == [{"player": 0, "win": True, "text": "You won, 5 to 1"}]
        assert e.outcome(lost) == [{"player": 0, "win": False, "text": "The dragon wins, 9 to 5"}]

    def test_no_outcome_applies_with_two_players(self, tmp_path):
        e = game(tmp_path, self.RULES)
        state, _ = e.start(2, 1)
        state, _ = e.apply(state, 0)
        assert e.outcome(state) is None

    def test_place_and_player_are_known_in_an_outcome(self, tmp_path):
        e = game(
            tmp_path,
            HEAD
            + """score "Coins": coins
outcome if players == 2:
    win if place == 1: "First with {score}"
    loss: "{player} came {place}"
setup:
    coins[1] += 3
""",
        )
        state, _ = e.start(2, 1)
        assert [(o["win"], o["text"]) for o in e.outcome(state)] == [(False, "P1 came 2"), (True, "First with 8")]

    def test_rows_count_wins_from_the_outcome(self):
        from meeple.interpreter.lab import stats

        rows = [
            {"scores": [3], "winners": [0], "win": [w], "breakdown": [{}], "ranking": []}
            for w in (True, False, False, False)
        ]
        summary = stats.summarize(rows)
        assert summary["seats"][0]["wins"] == 1 and summary["wins_from"] == "outcome"
        assert stats.summarize([dict(r, win=None) for r in rows])["seats"][0]["wins"] == 4

    def test_the_last_entry_has_no_condition_and_entries_are_wins_or_losses(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            game(tmp_path, self.RULES.replace('    loss: "The', '    loss if true: "The'))
        assert "the last entry of an outcome needs no `if`" in info.value.format()
        with pytest.raises(MeepleError) as info:
            game(tmp_path, self.RULES.replace("    loss:", "    draw:"))
        assert "an outcome is a `win` or a `loss`, not `draw`" in info.value.format()

    def test_meeple_run_prints_the_outcome_not_a_place(self, capsys):
        assert main(["run", "apothebakery", "--players", "1", "--seed", "3"]) == 0
        out = capsys.readouterr().out
        table = out.splitlines()[1:3]
        assert table[0].split()[-1] == "outcome" and table[1].split()[-1] in ("win", "loss")
        assert out.splitlines()[3].startswith(("Corruption is cleansed", "Corruption wins"))

    def test_simulate_counts_solo_wins_from_the_outcome(self, tmp_path, capsys):
        rows_file = tmp_path / "rows.jsonl"
        assert (
            main(
                [
                    "simulate",
                    "apothebakery",
                    "--players",
                    "1",
                    "-n",
                    "20",
                    "--agents",
                    "random",
                    "--out",
                    str(rows_file),
                ]
            )
            == 0
        )
        out = capsys.readouterr().out
        rows = [json.loads(line) for line in rows_file.read_text().splitlines()]
        wins = sum(1 for r in rows if r["win"] == [True])
        assert all(r["win"] is not None for r in rows) and all(r["winners"] == [0] for r in rows)
        assert "a win is the game's own outcome" in out
        assert f"{100 * wins / 20:.1f}%" in out.split("Seats", 1)[1].splitlines()[3]


def test_cells_read_as_row_and_column(tmp_path):
    (tmp_path / "t.rules").write_text("""game "Marks"
players 2
enum mark = x | o
grid board: 3 x 3 of mark
setup:
    choose c from cells(board) where c.empty by first_player "Mark which square?":
        c.mark = x
""")
    e = Engine(compile_ruleset(parse_text((tmp_path / "t.rules").read_text(), "t.rules"), {}, []))
    state, _ = e.start(2, 1)
    d = e.decision(state)
    assert d.options[5].label == "board row 2, column 3" and d.options[5].id == "board@5"
    state, events = e.apply(state, 5)
    assert event_text(e.game, events[0]) == "mark board row 2, column 3 = x"


BOARD = {
    "spaces": {"s1": {"tags": ["start"], "label": "the gate"}, "s2": {}, "s3": {"label": "the pond"}},
    "arrows": [["s1", "s2"], ["s2", "s3"]],
}


def test_a_path_space_reads_as_its_label_in_options_and_events(tmp_path):
    (tmp_path / "path.json").write_text(json.dumps(BOARD))
    (tmp_path / "g.rules").write_text("""game "Walk"
players 1
board path from "path.json"
value at per player = none
value seen = []
setup:
    at[0] = "s1"
    choose s from next_spaces(path, at[0]) + ["s3"] by first_player "Where to?":
        at[0] = s
        seen = [s, 2, [s, 3]]
""")
    eng = Engine(load_game(tmp_path / "g.rules"))
    state, events = eng.start(1, 1)
    assert [event_text(eng.game, e) for e in events if e["e"] == "set"] == ["at[P1] = the gate"]
    d = eng.decision(state)
    assert [(o.id, o.label) for o in d.options] == [("s2", "s2"), ("s3", "the pond")]
    state, events = eng.apply(state, "s3")
    texts = [event_text(eng.game, e) for e in events if e["e"] == "set"]
    assert texts == ["at[P1] = the pond", "seen = the pond, 2, [the pond, 3]"], "lists read as words"
    assert state["vars"]["at/0"] == "s3", "the rules and the state keep the space's name"


def test_a_label_that_is_not_a_text_is_a_located_error(tmp_path):
    (tmp_path / "path.json").write_text(json.dumps({"spaces": {"s1": {"label": 3}}, "arrows": []}))
    (tmp_path / "g.rules").write_text('game "Walk"\nplayers 1\nboard path from "path.json"\nsetup:\n    pass\n')
    with pytest.raises(MeepleError) as err:
        load_game(tmp_path / "g.rules")
    assert "path.json:1:" in str(err.value) and "a label is a text" in str(err.value)


def test_a_lone_option_reads_with_its_question_and_label_for_everyone(tmp_path):
    """Taken at once, an option still reads as a choice: the question, who, and the option's
    label (a space's, a set of cards'), for the chooser and for the others alike."""
    from meeple.interpreter.state import visible_events

    (tmp_path / "path.json").write_text(json.dumps(BOARD))
    eng = game(
        tmp_path,
        HEAD
        + """board path from "path.json"
value at per player = none
setup:
    move card to market
    at[0] = "s2"
    for each player in turn_order:
        choose s from next_spaces(path, "s2") by player "Walk on to?":
            at[player] = s
    choose pair from subsets(list(each c in market where c != "c2"), 2, 2) by first_player "Which two cakes?":
        pass
""",
    )
    state, events = eng.start(2, 1)
    autos = [e for e in events if e["e"] == "auto"]
    assert [e["choice"] for e in autos] == ["s3", "s3", "c1+c3"], "the ids stay in the events"
    for viewer in (None, 0, 1):
        texts = [event_text(eng.game, e, viewer) for e in visible_events(eng.game, autos, viewer, state)]
        assert texts == [
            "Walk on to? P1 chooses the pond (the only option)",
            "Walk on to? P2 chooses the pond (the only option)",
            "Which two cakes? P1 chooses Honey Cake: 2 -> 3 VP + Rose Tart: 3 -> 5 VP (the only option)",
        ]


def test_a_lone_option_from_a_hidden_hand_stays_hidden_from_the_others(tmp_path):
    from meeple.interpreter.state import visible_events

    eng = game(
        tmp_path,
        HEAD
        + """setup:
    move card to market
    for each player in turn_order:
        move top(market) to hand[player]
    for each player in turn_order:
        choose c from hand[player] by player "Play which card?":
            move c to market
""",
    )
    state, events = eng.start(2, 1)
    autos = [e for e in events if e["e"] == "auto"]
    assert [e.get("seen_by") for e in autos] == [[0], [1]], "judged before it is played: in a hand"
    mine = [event_text(eng.game, e, 0) for e in visible_events(eng.game, autos, 0, state)]
    assert mine[0].startswith("Play which card? P1 chooses ") and mine[0].endswith(" VP (the only option)")
    assert mine[1] == "Play which card? P2 chooses something hidden (the only option)"


def test_a_value_that_holds_a_list_of_players_reads_them_as_players(tmp_path):
    """Seats in a list read P1, P2 like a single player value: followed through sorting, a
    generator over `turn_order`, and texts for another side of the table (`"bank"`)."""
    eng = game(
        tmp_path,
        HEAD
        + """value order = []
value counts = []
function sides() = turn_order + ["bank"]
function key(x) = 0 if x == "bank" else coins[x]
setup:
    order = list(k[1] for each k in sort(list([key(x), x] for each x in sides())))
    counts = list(coins[p] for each p in turn_order)
""",
    )
    assert eng.game.counters["order"].players and not eng.game.counters["counts"].players
    state, events = eng.start(2, 1)
    texts = [event_text(eng.game, e) for e in events if e["e"] == "set"]
    assert texts == ["order = bank, P1, P2", "counts = 5, 5"]


def test_a_path_board_shows_its_spaces_as_the_log_names_them(tmp_path):
    """Boards write a space by its label, short: without the words every label shares and
    without a tag in brackets (the board shows tags beside it); the name without a label."""
    from meeple.interpreter.board_text import path_board_text, space_names
    from meeple.interpreter.table.model import boards

    board = {
        "spaces": {
            "s1": {"tags": ["start"], "label": "space 1 (start)"},
            "s2": {},
            "s3": {"tags": ["pond"], "label": "space 3 (pond)"},
            "s4": {"label": "space 4 (bridge)"},
        },
        "arrows": [["s1", "s2"], ["s2", "s3"], ["s3", "s4"]],
    }
    (tmp_path / "path.json").write_text(json.dumps(board))
    (tmp_path / "g.rules").write_text(
        'game "Walk"\nplayers 1\nboard path from "path.json"\nvalue at per player = none\nsetup:\n    at[0] = "s1"\n'
    )
    eng = Engine(load_game(tmp_path / "g.rules"))
    state, _ = eng.start(1, 1)
    assert space_names(eng.game, "path") == {"s1": "1", "s2": "s2", "s3": "3", "s4": "4 (bridge)"}
    text = path_board_text(eng.game, state, "path")
    assert text[1].split() == ["1", "start", "->", "s2", "<-", "at[P1]"] and text[2].split() == ["s2", "->", "3"]
    spaces = boards(eng, eng.view(state, 0))[0]["spaces"]
    assert [(s["short"], s["label"]) for s in spaces] == [
        ("1", "space 1 (start)"),
        ("s2", "s2"),
        ("3", "space 3 (pond)"),
        ("4 (bridge)", "space 4 (bridge)"),
    ]


def test_a_path_board_row_says_what_lies_in_each_area_it_touches(tmp_path):
    """Zones kept per area are read beside the spaces that touch the area (face-down ones
    counted), and the whole table (`s`) does not list them a second time."""
    from meeple.interpreter.board_text import path_board_text
    from meeple.interpreter.table.model import boards
    from meeple.interpreter.terminal import table_text

    board = {"spaces": {"s1": {"areas": ["north", "pond"]}, "s2": {"areas": ["pond"]}}, "arrows": [["s1", "s2"]]}
    (tmp_path / "path.json").write_text(json.dumps(board))
    (tmp_path / "stones.csv").write_text("id,name,count\nred,red stone,3\nblue,blue stone,1\n")
    (tmp_path / "g.rules").write_text(
        'game "Walk"\nplayers 2\nenum area = north | pond\nboard path from "path.json"\n'
        'component stone from "stones.csv":\n    label "{name}"\n'
        'zone stones per area: pile of stone, public, label "the stones at {area}"\n'
        "zone buried per area: pile of stone, hidden\n"
        'value at per player = none\nsetup:\n    at[0] = "s1"\n'
        "    move stone to stones[north]\n    move top(stones[north]) to buried[pond]\n"
    )
    eng = Engine(load_game(tmp_path / "g.rules"))
    state, _ = eng.start(2, 1)
    view = eng.view(state, 1)
    text = path_board_text(eng.game, view, "path")
    assert text[0] == "board path (space, tags, areas and what lies there, arrows, who is there):"
    assert re.split(r"\s{2,}", text[1].strip()) == [
        "s1",
        "north (2 × red stone, blue stone), pond (1 hidden)",
        "-> s2",
        "<- at[P1]",
    ]
    assert re.split(r"\s{2,}", text[2].strip()) == ["s2", "pond (1 hidden)", "-> nowhere"]
    table = "\n".join(table_text(eng.game, view, 1))
    assert "the stones at north" not in table and "north (2 × red stone, blue stone)" in table
    # the play table's board says the same in its legend (what `boards` gives the page)
    assert boards(eng, view)[0]["held"] == {"north": "2 × red stone, blue stone", "pond": "1 hidden"}


def test_a_flag_with_a_label_reads_as_its_label_while_true_and_is_left_out_while_false(tmp_path):
    from meeple.interpreter.table.model import counters
    from meeple.interpreter.terminal import counter_lines

    eng = game(
        tmp_path,
        HEAD
        + """flag ending = false, label "the last round"
flag plain = false
setup:
    move card to market
    choose c from market by first_player "Which card ends it?":
        ending = true
""",
    )
    state, _ = eng.start(1, 1)
    chips = {c["name"]: c for c in counters(eng, eng.view(state, 0))}
    assert "ending" not in chips and chips["plain"]["value"] == "false"
    assert "the last round" not in " ".join(state_text(eng.game, state))
    state, events = eng.apply(state, "c1")
    assert [event_text(eng.game, e) for e in events if e["e"] == "set"] == ["the last round"]
    chips = {c["name"]: c for c in counters(eng, eng.view(state, 0))}
    assert (chips["ending"]["label"], chips["ending"]["value"]) == ("the last round", "")
    assert "the last round" in state_text(eng.game, state)[1].split("  ")
    assert "the last round" in counter_lines(eng.game, eng.view(state, 0), lambda mine, spec: True)[0]


LABELLED = (
    HEAD.replace("zone hand per player: hand of card", 'zone hand per player: hand of card, label "{player}\'s hand"')
    + """
enum colour = red | blue
zone stash per player per colour: pile of card, label "{player}'s {colour} stash"
counter gems per player per colour = 0, label "{player}'s gems"
flag used per player per colour = false, label "{player} used {colour}"
grid board per player: 2 x 2 of colour, label "{player}'s board"
setup:
    move card to market
    choose c from market by first_player "Which card?":
        move c to hand[first_player]
        gems[first_player, red] += 2
        used[first_player, blue] = true
"""
)


def test_labels_with_braces_name_zones_counters_and_grids_by_what_they_are_kept_per(tmp_path):
    from meeple.interpreter.naming import key_label
    from meeple.interpreter.table.model import counters
    from meeple.interpreter.terminal import counter_lines

    eng = game(tmp_path, LABELLED)
    state, _ = eng.start(2, 1)
    state, events = eng.apply(state, "c2")
    assert [event_text(eng.game, e) for e in events] == [
        "move Mud Pie: 1 -> 1 VP from market to P1's hand",
        "P1's gems (red) = 2",
        "P1 used blue",
        "game over",
    ]
    assert [key_label(eng.game, k) for k in ("stash/1/red", "board/0", "board")] == [
        "P2's red stash",
        "P1's board",
        "board",
    ]  # a bare name has nothing to fill the braces with
    assert "  P1's hand: Mud Pie: 1 -> 1 VP" in state_text(eng.game, state)
    # the counter kept per colour reads as one group headed by the seat's label; the flag that
    # names its colour is a line of its own, its label alone while true
    lines = counter_lines(eng.game, eng.view(state, 0), lambda mine, spec: mine == 0)
    assert lines == ["  coins[P1]=5  P1 used blue  P1's gems: red 2"]
    chips = {c["key"]: c for c in counters(eng, eng.view(state, 0))}
    assert chips["gems/0/red"]["part"] == "red"
    assert (chips["used/0/blue"]["label"], chips["used/0/blue"]["value"]) == ("P1 used blue", "")
    # inside P1's area, whose heading says whose it is, the table drops the owner's name
    assert [chips["used/0/blue"]["short"], chips["gems/0/red"]["head"], chips["coins/0"]["short"]] == [
        "used blue",
        "gems",
        "coins[P1]",
    ]


@pytest.mark.parametrize(
    "line, hint",
    [
        ('zone pool: pile of card, label "the {player} pool"', "only a thing kept per something has braces"),
        ('counter gold per player = 0, label "{seat}\'s gold"', "braces in this label may name {player}"),
    ],
)
def test_a_label_naming_what_a_thing_is_not_kept_per_is_a_located_error(tmp_path, line, hint):
    with pytest.raises(MeepleError) as err:
        game(tmp_path, HEAD + line + "\n")
    text = str(err.value)
    assert "g.rules:12:1: error: the label names" in text and line in text and hint in text


def test_the_score_so_far_counts_what_the_seat_sees_and_leaves_out_what_it_cannot(tmp_path):
    from meeple.interpreter.standing import score_so_far, score_so_far_text
    from meeple.interpreter.terminal import summary

    e = game(
        tmp_path,
        HEAD
        + """score "Coins": coins
score "Hand": sum(c.vp for each c in hand)
setup:
    move card to market
    move top(market) to hand[0]
    move top(market) to hand[1]
    choose n from [1, 9] by first_player "How many?":
        coins[0] += n
""",
    )
    state, _ = e.start(2, 1)
    # each seat sees its own hand, not the other's: the other player's score is not guessed
    assert score_so_far(e, e.view(state, 0)) == {0: 5 + 3}
    assert score_so_far(e, e.view(state, 1)) == {1: 5 + 1}
    assert score_so_far(e, state) == {0: 8, 1: 6}  # the true state counts everyone
    assert "  score so far: P1 8" in summary(e, e.view(state, 0), 0)
    over, _ = e.apply(state, "9")
    assert over["over"] and score_so_far_text(e, e.view(over, 0)) == ""  # the final scores say it


def test_a_flag_kept_per_something_its_label_leaves_out_joins_its_group_when_it_turns_true(tmp_path):
    e = game(
        tmp_path,
        HEAD
        + """flag used per player per slot = false, label "{player}'s used slots"
setup:
    used[0, middle] = true
""",
    )
    state, events = e.start(2, 1)
    said = [event_text(e.game, ev) for ev in events if ev["e"] == "set"]
    assert said == ["P1's used slots: + middle"]
