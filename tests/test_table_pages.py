"""A seat's page is built once per change of its table, from rows remembered by what they show
(interpreter/table/pages.py, model.remembered), and its log is read from the end. Each page must
be exactly the page built afresh, for every seat and the spectator, over whole games."""

from __future__ import annotations

import random

import pytest

from meeple.interpreter.render import choice_text
from meeple.interpreter.table.bots import SPECTATOR
from meeple.interpreter.table.hall import Hall
from meeple.interpreter.table.pages import LOG_LINES, build_page, seat_page
from meeple.interpreter.table.store import Store


def log_from_the_start(setup: dict, entries: list, viewer) -> list[str]:
    """The log as it was read before: every decision from the first, then the latest lines."""
    lines = ["Setup"] + ["  " + t for t in setup[viewer]] if setup[viewer] else []
    for e in entries:
        if e.get("private") and viewer != e["actor"]:
            continue
        lines.append(choice_text(e.get("title", ""), e["actor"], e["label"][viewer]))
        lines += ["  " + t for t in e["lines"][viewer]]
    return lines[-LOG_LINES:]


def forget_rows(game) -> None:
    for key in [k for k in game.cache if isinstance(k, tuple) and k[0] == "table rows"]:
        del game.cache[key]


@pytest.mark.parametrize(
    "game, players, seed, moves",
    [("queens_wishes", 3, 5, 400), ("apothebakery", 2, 3, 150), ("wild_gardens", 3, 8, 120)],
)
def test_every_page_is_the_page_built_afresh(game, players, seed, moves):
    hall = Hall([game], Store())
    live = hall.table(hall.create(game, players, {}, [], ["person"] * players, seed)["id"])
    rnd, undone = random.Random(seed), False
    for n in range(moves + 1):
        for seat in [*range(players), SPECTATOR]:
            page = seat_page(live, seat)
            assert seat_page(live, seat) is page  # built once for this moment, then shared
            forget_rows(live.engine.game)
            assert page == build_page(live, seat), (n, seat)
            viewer = None if seat == SPECTATOR else seat
            assert page["log"] == log_from_the_start(live.setup, live.entries, viewer), (n, seat)
        d = live.decision()
        if d is None:
            break
        back = [p for p in range(players) if live.can_undo(p)]
        if not undone and n > 10 and back:  # an undo shortens the log: the pages follow it
            live.undo(back[0])
            undone = True
            continue
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    assert n > 40 and undone == (game == "queens_wishes")  # its placements may be taken back


def test_a_page_is_new_after_every_change_and_after_a_bots_error():
    hall = Hall(["queens_wishes"], Store())
    live = hall.table(hall.create("queens_wishes", 3, {}, [], ["person"] * 3, 5)["id"])
    before = seat_page(live, 0)
    d = live.decision()
    live.choose(d.actor, d.options[0].id, live.state["step"])
    after = seat_page(live, 0)
    assert after is not before and after["step"] == before["step"] + 1
    live.bot_error = "the bot cannot move"  # set by the hall with the version bumped; here without
    assert seat_page(live, 0)["bot_error"] == "the bot cannot move"


def test_a_long_log_keeps_its_latest_lines():
    hall = Hall(["wild_gardens"], Store())
    live = hall.table(hall.create("wild_gardens", 3, {}, [], ["person"] * 3, 8)["id"])
    rnd = random.Random(8)
    while (d := live.decision()) is not None:
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    page = seat_page(live, 1)
    assert len(page["log"]) == LOG_LINES and page["log"] == log_from_the_start(live.setup, live.entries, 1)


def test_the_summary_above_the_decision_says_what_came_of_the_seats_last_choice_in_the_games_words():
    """Not the last choice made ("... P1 chooses pass"): the rules' sentences said since the seat's
    last decision, the others' latest choices, then each thing that changed from the table it saw
    then, one entry per thing."""
    hall = Hall(["apothebakery"], Store())
    live = hall.table(hall.create("apothebakery", 2, {}, [], ["person", "person"], 11)["id"])
    rnd = random.Random(11)
    assert seat_page(live, 0)["since"] is None and seat_page(live, SPECTATOR)["since"] is None  # nothing decided yet
    seen, foraged = set(), 0
    while (d := live.decision()) is not None:
        page = seat_page(live, d.actor)
        since = page["since"]
        if since is not None:
            assert not any(f"P{d.actor + 1} chooses " in s for s in since), since  # not the seat's own choice
            assert sum(" chooses " in s for s in since) <= 2, since  # the others' latest two at most
            seen.update(since)
        before = dict(live.state["zones"])
        choice = rnd.choice(d.options)
        live.choose(d.actor, choice.id, live.state["step"])
        nxt = live.decision()
        if d.prompt.startswith("Forage which card") and choice.value in live.engine.game.enums["slot"]:
            got = [c for c in live.state["zones"][f"resources/{d.actor}"] if c not in before[f"resources/{d.actor}"]]
            if nxt is not None and nxt.actor == d.actor and got:  # what came of it is said at the very next decision
                said = seat_page(live, d.actor)["since"]
                assert any(s.startswith(f"P{d.actor + 1}'s resources: + ") for s in said), said
                foraged += 1
    assert foraged >= 3
    counted = [int(s.split()[1]) for s in seen if s.startswith("and ") and s.endswith(" more in the log")]
    assert counted and min(counted) > 0  # what the summary leaves out is counted, never "and -3 more"
    assert {f"Round {n} of 6 begins" for n in range(2, 7)} <= seen  # the rules' own sentences
    assert any(s.endswith("cannot heal anyone: no Cure whose elixirs they hold") for s in seen)


def test_apothebakerys_table_shows_the_stamina_left_that_the_foraging_prompt_says():
    """The stamina revealed (it sets the turn order) and the stamina left to spend are two
    figures: the table shows each under its own words, the prompt's "N stamina left" is the
    latter's, and its changes stay out of the log (the prompt says them)."""
    import re

    hall = Hall(["apothebakery"], Store())
    live = hall.table(hall.create("apothebakery", 2, {}, [], ["person", "person"], 11)["id"])
    rnd = random.Random(11)
    asked = 0
    while (d := live.decision()) is not None and asked < 12:
        if m := re.match(r"Forage which card \((\d+) stamina left\)\?", d.prompt):
            chips = {c["key"]: c for c in seat_page(live, d.actor)["counters"]}
            left, revealed = chips[f"left_to_spend/{d.actor}"], chips[f"stamina/{d.actor}"]
            assert (left["head"], left["value"]) == ("stamina left", m.group(1)), left
            assert revealed["head"] == "stamina revealed" and revealed["value"] == str(
                live.state["vars"][f"stamina/{d.actor}"]
            )
            asked += 1
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    assert asked == 12
    told = [line for line in seat_page(live, 0)["log"] if line.startswith("  ")]  # not the choices' prompts
    assert not any("stamina left" in line for line in told) and any("stamina revealed" in line for line in told)
