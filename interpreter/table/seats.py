"""Who sits at a table, as its pages say it: players' names, concessions, the rematch.

The engine names seats P1, P2, ... in every sentence it writes (the log, labels like "P1's
hand", prompts, the outcome). A page puts each player's name in place of those words, in the
text people read only (never in ids, keys or values a page sends back), so a name given after
the game began reads everywhere at once, the log's earlier lines included. Names are checked
when given (bodies.py): printable, at most 24 characters, never a seat's own word like `P2`.

A seat that concedes is played by a bot to the end (live.py); the log says so where it happened,
and the result places it after every seat that played on (its points still shown).

The header says the part of the game running as the rules name it (`part_of_game`).
"""

from __future__ import annotations

import re

from meeple.interpreter.naming import player_name, words
from meeple.interpreter.render import key_label, shown_value
from meeple.interpreter.table.bots import PERSON, SPECTATOR

SEAT_WORD = re.compile(r"\bP([1-9][0-9]?)\b")
# what a page reads (text) and what holds it (containers); ids, keys and values are left alone
TEXT = {"log", "prompt", "label", "short", "said", "fields", "text", "part", "head", "value", "who"}
TEXT |= {"outcome", "first", "bot_error", "standing", "taken", "since"}
CONTAINERS = {"decision", "options", "requests", "zones", "cards", "counters", "grids", "boards", "spaces", "scores"}
CONTAINERS |= {"players"}  # the scores' players, whose `name` is text


def named(text: str, names: list[str]) -> str:
    """`text` with each seat's word (P1, P2, ...) as that player's name."""
    return SEAT_WORD.sub(lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) else m.group(0), text)


def say_names(node, names: list[str], key: str = ""):
    """The page (or a part of it under `key`) with the players' names in its text."""
    if isinstance(node, str):
        return named(node, names) if key in TEXT else node
    if isinstance(node, list):
        return [say_names(x, names, key) for x in node]
    if isinstance(node, dict):
        if key in TEXT:  # a dict of texts (the score so far, per seat)
            return {k: say_names(v, names, key) for k, v in node.items()}
        return {
            k: say_names(v, names, "text" if key == "players" and k == "name" else k)
            if (k in TEXT or k in CONTAINERS or key == "players")
            else v
            for k, v in node.items()
        }
    return node


def concession_lines(live) -> dict[int, list[str]]:
    """{decisions taken: the log's line for each seat that conceded then}."""
    out: dict[int, list[str]] = {}
    for seat, at in sorted(live.conceded().items(), key=lambda x: x[1]):
        out.setdefault(min(at, len(live.entries)), []).append(
            f"{player_name(seat)} concedes: a bot ({live.bots[seat]}) plays the seat to the end"
        )
    return out


def ranked_without(ranking: list, conceded) -> list:
    """The ranking with the seats that conceded placed after every other, in their order."""
    kept = [r for r in ranking if r["player"] not in conceded]
    out = [dict(r, place=1 + sum(1 for o in kept if o["place"] < r["place"])) for r in kept]
    return out + [dict(r, place=len(kept) + 1) for r in ranking if r["player"] in conceded]


def rematch_link(live, seat) -> str | None:
    """This seat's link to the rematch, once there is one (the spectator's: the new spectator link)."""
    row = live.next_row
    if row is None:
        return None
    if seat == SPECTATOR:
        return f"/table/{row['id']}?token={row['spectator']}"
    s = row["seats"][seat]
    return f"/table/{row['id']}?token={s['token']}" if s["agent"] == PERSON else None


def part_of_game(game, view: dict) -> str:
    """The part of the game running, in the rules' words: its phase ("round"), numbered when a counter
    kept for nothing counts it (a label starting with the phase's words: "round 3"). A game of one
    phase not counted says nothing: "turn" beside "your turn" would tell nobody anything."""
    part = words(view["phase"])
    for key, value in view["vars"].items():
        counted = "/" not in key and type(value) is int and shown_value(game, key, value)
        if counted and key_label(game, key).lower().startswith(part.lower()):
            return f"{part} {value}"
    return part if len(game.phases) > 1 else ""


def seating(live, seat) -> dict:
    """What a page adds about the seats: names, who conceded, the rematch."""
    conceded = live.conceded()
    names = live.names()
    return {
        "names": names,
        "seats": [
            {
                "name": player_name(p),
                "said": names[p],
                "agent": live.bots[p] if p in conceded else a,
                "conceded": p in conceded,
            }
            for p, a in enumerate(live.agents)
        ],
        "named": seat != SPECTATOR and bool(live.row["seats"][seat].get("name")),
        "conceded": seat in conceded,
        "can_concede": seat != SPECTATOR and seat not in conceded and live.decision() is not None,
        "can_rematch": seat != SPECTATOR and live.next_row is None and (live.decision() is None or bool(conceded)),
        "rematch": rematch_link(live, seat),
    }
