"""A seat's whole page: the table's picture (model.py), its decision, its log and the scores.

A table sends every open page its picture after each change, and building one is most of what
the server does under load. Two things keep it cheap:

- a page is built once per change of the table and seat (`seat_page` remembers the last one per
  seat): two tabs of one seat, every spectator, the socket's first picture and the JSON route
  share it, and the outbox compares each new page with the last it sent (patch.py), which takes
  little when most of the two is the very same rows;
- the rows of the picture are remembered by what they are built from (model.remembered), and the
  log is read from its end: a page costs what changed since the last one, not the whole game.

The pages are shared, so nothing may change one after it is built.
"""

from __future__ import annotations

from meeple.interpreter.render import choice_text, player_name
from meeple.interpreter.summary_text import since_parts
from meeple.interpreter.table.bots import SPECTATOR
from meeple.interpreter.table.model import decision_json, table_picture
from meeple.interpreter.table.seats import concession_lines, part_of_game, ranked_without, say_names, seating

LOG_LINES = 300  # the latest log lines a page gets
SINCE = 8  # the things the summary above the decision names; the rest are counted
CHOICES = 2  # of which the other players' latest choices


def scores_json(engine, state: dict, conceded=()) -> dict | None:
    """The final scores; seats that `conceded` are placed last, and the outcome says so."""
    if not state["over"]:
        return None
    scores = engine.scores(state)
    ranking = ranked_without(engine.ranking(state, scores), conceded)
    places = {r["player"]: r["place"] for r in ranking}
    gave_up = "".join(f" · {player_name(p)} conceded" for p in sorted(conceded))
    return {
        "rules": list(scores[0]["breakdown"]) if scores else [],
        "outcome": outcome_words(engine, state, scores, ranking) + gave_up,
        "players": [
            {
                "name": player_name(s["player"]),
                "total": s["total"],
                "breakdown": s["breakdown"],
                "place": places[s["player"]],
            }
            for s in scores
        ],
    }


def outcome_words(engine, state: dict, scores: list, ranking: list) -> str:
    """How the game ended, in one line: the game's own `outcome` words when it declares them,
    else who placed first by the ranking (a shared first place names everyone on it)."""
    declared = engine.outcome(state, scores)
    if declared is not None:
        return " · ".join(f"{player_name(o['player'])}: {o['text']}" for o in declared)
    first = [r for r in ranking if r["place"] == 1]
    if not first:
        return ""
    names = " and ".join(player_name(r["player"]) for r in first)
    if len(ranking) == 1:
        return f"{names} scores {first[0]['total']}"
    verb = "wins" if len(first) == 1 else "share first place"
    tied = "" if len(first) > 1 or not first[0]["tied_on_total"] else ", on the tie-break"
    return f"{names} {verb} with {first[0]['total']}{tied}"


def log_lines(setup: dict, entries: list, viewer, notes: dict | None = None) -> list[str]:
    """The log in words for `viewer` (a seat, None for the public): each decision and its events,
    the latest LOG_LINES lines; read back from the latest decision as far as those need.
    `notes` {n: lines} are said after the first n decisions (a seat conceding)."""
    notes = notes or {}
    chunks: list[list[str]] = []
    count = 0
    if notes.get(len(entries)):
        chunks.append(list(notes[len(entries)]))
        count += len(chunks[-1])
    for n in range(len(entries) - 1, -1, -1):
        if count >= LOG_LINES:
            break
        e = entries[n]
        if not (e.get("private") and viewer != e["actor"]):  # an offer to act now, passed: its seat's alone
            chunk = said(e, viewer)
            chunks.append(chunk)
            count += len(chunk)
        if notes.get(n):
            chunks.append(list(notes[n]))
            count += len(chunks[-1])
    else:  # every decision read: the setup's events come first, under a heading (nobody chose them)
        if setup[viewer]:
            chunks.append(["Setup"] + ["  " + t for t in setup[viewer]])
    lines = [line for chunk in reversed(chunks) for line in chunk]
    return lines[-LOG_LINES:]


def said(entry: dict, viewer) -> list[str]:
    """A decision and its events as `viewer` reads them in the log; worded once, kept in the entry."""
    words = entry.setdefault("said", {})
    if viewer not in words:
        taken = choice_text(entry.get("title", ""), entry["actor"], entry["label"][viewer])
        words[viewer] = [taken] + ["  " + t for t in entry["lines"][viewer]]
    return words[viewer]


def seat_page(live, seat) -> dict:
    """What one seat's page (or, with seat SPECTATOR, a spectator's) receives: built once per
    change of the table, then the same page (the same object) until the next."""
    # names and concessions replace the row; a rematch sets next_row: none of them is a decision
    stamp = (live.version, live.bot_error, id(live.state), len(live.entries), id(live.row), id(live.next_row))
    kept = live.built.get(seat)
    if kept is None or kept[0] != stamp:
        kept = live.built[seat] = (stamp, build_page(live, seat))
    return kept[1]


def build_page(live, seat) -> dict:
    """The page built afresh (`seat_page` is the one to call)."""
    engine, state = live.engine, live.state
    viewer = None if seat == SPECTATOR else seat
    view = engine.view(state, viewer)
    g = engine.game
    page = {
        "table": live.id,
        "title": g.title,
        "version": live.version,
        "seat": viewer,
        "seat_name": player_name(viewer) if viewer is not None else "spectator",
        "options": dict(g.options),
        "variants": [g.variant_titles.get(v, v) for v in g.variants],
        # a seed chosen in the lobby is said to every seat (its chooser could foresee the draws);
        # a random one is never sent: it would let any seat foresee them
        "seed": live.row["seed"] if live.row.get("seed_chosen") else None,
        **table_picture(engine, view),
        "decision": decision_json(engine, state, view, viewer),
        "bot_error": live.bot_error,  # the bot to move cannot: said where "thinking" would be
        "can_undo": live.can_undo(seat),
        "log": log_lines(live.setup, live.entries, viewer, concession_lines(live)),
        "scores": scores_json(engine, state, live.conceded()),
        **seating(live, seat),
        "part": part_of_game(g, view),  # the header's "round 3"
        "since": since_words(live, viewer, view),
    }
    if page["names"] == [player_name(p) for p in range(len(page["names"]))]:
        return page  # nobody named: the page as built, its rows shared with the last one (patches stay small)
    return say_names(page, page["names"])


def since_words(live, seat, view: dict) -> list[str] | None:
    """What changed for `seat` since its last decision, for the summary above the decision: the
    rules' own sentences said since (`log`), the other players' latest choices, then each thing
    that changed from the table as the seat saw it just before that decision (so what came of
    the choice is said too: the cards drawn, the points scored), folded to one entry per thing
    in the log's words (summary_text.since_parts). None for a spectator, or before the seat's
    first decision."""
    if seat is None:
        return None
    at = next((n for n in range(len(live.history) - 1, -1, -1) if live.history[n][1] == seat), None)
    if at is None:
        return None
    state = live.history[at][0]
    kept = live.looked.get(seat)
    if kept is None or kept[0] is not state:  # the view before that decision, built once
        kept = live.looked[seat] = (state, live.engine.view(state, seat))
    told: list[list] = []  # [sentence, times]: a sentence said again at once is said once, counted
    for t in (t for e in live.entries[at:] for t in e.get("told", {}).get(seat, [])):
        if told and told[-1][0] == t:
            told[-1][1] += 1
        else:
            told.append([t, 1])
    # the others' latest choices: a bet, a pass or a pawn picked is news that may change nothing on the table
    chosen = [
        choice_text(e.get("title", ""), e["actor"], e["label"][seat])
        for e in live.entries[at + 1 :]
        if e["actor"] != seat and not e.get("private")
    ]
    said = [t if n == 1 else f"{t} (× {n})" for t, n in told] + chosen[-CHOICES:]
    said += since_parts(live.engine.game, kept[1], view, seat)
    more = max(0, len(said) - SINCE) + len(chosen[:-CHOICES])  # the older choices are in the log too
    return said[:SINCE] + ([f"and {more} more in the log"] if more > 0 else [])
