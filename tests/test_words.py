"""Words for every value: players held by names read P1, P2; nested lists keep their pairs;
quoted texts inside a text's braces; enum values by their labels; names that clash pointed at."""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import load_game
from meeple.dsl.errors import MeepleError
from meeple.interpreter.engine import Engine


def engine(tmp_path, text: str, files: dict | None = None) -> Engine:
    for name, body in (files or {}).items():
        (tmp_path / name).write_text(body)
    path = tmp_path / "g.rules"
    path.write_text(text)
    return Engine(load_game(path))


def logs(events) -> list[str]:
    return [e["text"] for e in events if e["e"] == "log"]


PLAYERS = """game "Words"
players 2
value leader = none
counter best = 0
value pairs = [[0, 0], [1, 2]]
effect hail(q, n):
    log "hail {q} with {n}"
setup:
    let w = next_player(first_player)
    best = w
    leader = w
    do hail(w, 3)
    log "leader {leader}, let {w}, best {best}, order {turn_order}, pairs {pairs}"
    log "says {"yes" if best == 1 else "no"}"
    for each p in turn_order:
        let n = 2
        log "{p} has {n}"
"""


class TestPlayersAndLists:
    def test_a_player_held_by_a_let_a_value_a_counter_or_a_parameter_reads_as_a_player(self, tmp_path):
        e = engine(tmp_path, PLAYERS)
        state, events = e.start(2, 1)
        lines = logs(events)
        assert lines[0] == "hail P2 with 3"
        assert lines[1] == "leader P2, let P2, best P2, order P1, P2, pairs [0, 0], [1, 2]"
        assert lines[3:] == ["P1 has 2", "P2 has 2"]

    def test_a_quoted_text_inside_braces_parses(self, tmp_path):
        e = engine(tmp_path, PLAYERS)
        _, events = e.start(2, 1)
        assert logs(events)[2] == "says yes"

    def test_a_name_bound_to_a_number_anywhere_stays_a_number(self, tmp_path):
        e = engine(tmp_path, PLAYERS.replace("    let n = 2\n", "    let n = 2\n        let w = 1\n"))
        _, events = e.start(2, 1)
        assert logs(events)[1].startswith("leader 1, let 1, best 1, order P1, P2")  # not known to hold a player


SITES = """game "Sites"
players 2
enum site = clay_pit "clay pit" | day_labour "day labour" | market
counter workers per site = 0
value last = none
effect market(p):
    log "{p} goes to market"
setup:
    choose s from site by first_player "Where?":
        workers[s] += 1
        last = s
        log "went to {s}"
        do market(first_player)
"""


class TestEnumLabels:
    def test_options_logs_and_summaries_read_an_enum_value_by_its_label(self, tmp_path):
        from meeple.interpreter.board_text import state_text
        from meeple.interpreter.render import event_text

        e = engine(tmp_path, SITES)
        state, _ = e.start(2, 1)
        d = e.decision(state)
        assert [(o.id, o.label) for o in d.options] == [
            ("clay_pit", "clay pit"),
            ("day_labour", "day labour"),
            ("market", "market"),
        ]
        state, events = e.apply(state, "clay_pit")
        said = [event_text(e.game, ev) for ev in events]
        assert said[:3] == ["workers[clay pit] = 1", "last = clay pit", "went to clay pit"]
        assert "last=clay pit" in " ".join(state_text(e.game, state))

    def test_an_enum_value_may_share_its_name_with_an_effect(self, tmp_path):
        e = engine(tmp_path, SITES)
        state, _ = e.start(2, 1)
        state, events = e.apply(state, "market")
        assert logs(events) == ["went to market", "P1 goes to market"]

    def test_a_clash_points_at_the_value_not_the_enum_line(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(tmp_path, SITES.replace("value last = none", "value last = none\ncounter day_labour = 0"))
        out = info.value.format()
        assert "enum value `day_labour` has the same name as the counter on line 6" in out
        line = out.splitlines()
        caret = next(ln for ln in line if set(ln.strip()) == {"^"})
        assert caret.index("^") == line[line.index(caret) - 1].index("day_labour")
        assert caret.count("^") == len("day_labour")


CARDS = "id,kind,title\nc1,red_fox,Red Fox\nc2,red_fox,Red Fox\nc3,owl,Owl\n"
KINDS = """game "Kinds"
players 2
enum kind from "cards.csv" column kind, label title
component card from "cards.csv":
    kind: kind
    title: text
zone supply per kind: pile of card, public
setup:
    for each c in card:
        move c to supply[c.kind]
    log "kinds: {kind}; foxes {count(supply[red_fox])}"
"""


class TestEnumFromData:
    def test_the_values_are_the_columns_distinct_values_in_file_order_with_labels(self, tmp_path):
        e = engine(tmp_path, KINDS, {"cards.csv": CARDS})
        assert e.game.enums["kind"] == ["red_fox", "owl"]
        _, events = e.start(2, 1)
        assert logs(events) == ["kinds: Red Fox, Owl; foxes 2"]

    def test_an_unknown_column_is_named_with_the_columns_there_are(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(tmp_path, KINDS.replace("column kind,", "column kinds,"), {"cards.csv": CARDS})
        assert "`cards.csv` has no column `kinds`" in info.value.format()
        assert "did you mean `kind`" in info.value.format()

    def test_a_value_that_is_not_a_name_is_refused(self, tmp_path):
        with pytest.raises(MeepleError) as info:
            engine(tmp_path, KINDS, {"cards.csv": CARDS.replace("c3,owl", "c3,barn owl")})
        assert "`barn owl` in column `kind` is not a name" in info.value.format()


class TestTableExpressions:
    RULES = """game "Capacities"
players 2..4
table capacity = {2: 3, 3: players + 1, else: 2 * players - 3}
counter room = 0
setup:
    room = capacity[players]
"""

    @pytest.mark.parametrize("players,room", [(2, 3), (3, 4), (4, 5)])
    def test_an_entry_may_read_the_player_count(self, tmp_path, players, room):
        e = engine(tmp_path, self.RULES)
        state, _ = e.start(players, 1)
        assert state["vars"]["room"] == room
