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


PLAYERS = '''game "Words"
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
'''


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
