"""The ruleset's `layout:` as text: the terminal's table arranged the way the play table draws it.

The rows come from interpreter/table_parts.py, the same rows the play table's page draws, so a
thing reads the same in both places: a counter by its label less its owner inside its owner's
area (`VP 3/60` in P1's area), a counter kept per something as one group (`gems: red 1,
blue 2`), a zone kept per an enum as one line of captioned slots, a card by its `face`. The
order is the page's: your area, then the shared areas in the declared order, then the other
players' areas showing what `others:` names; whatever the layout does not name follows each
area under "More", so nothing is out of reach. Nothing here knows a game.
"""

from __future__ import annotations

from meeple.dsl.compile_page import heading
from meeple.interpreter.board_text import area_zones, boards_in_use, grid_text, path_board_text
from meeple.interpreter.naming import player_name
from meeple.interpreter.render import item_text
from meeple.interpreter.standing import score_so_far
from meeple.interpreter.table_parts import counters, grids, zones

WIDTH = 100  # a line of counters wraps here


class Rows:
    """A seat's view as the table's rows, and which of them an arrangement has said already."""

    def __init__(self, engine, view: dict, skip=()):
        self.engine, self.game, self.view = engine, engine.game, view
        self.of = {"zone": zones(engine, view), "counter": counters(engine, view), "grid": grids(engine, view)}
        self.used: set[str] = set(skip)  # `skip`: keys said elsewhere (the grid drawn for the decision)

    def mine(self, what: str, name: str, owner) -> list:
        return [x for x in self.of[what] if x["name"] == name and x["owner"] == owner and x["key"] not in self.used]


def cards_text(rows: Rows, zone: dict) -> str:
    """A zone's contents: its cards by their face, alike ones counted; face-down ones as a count."""
    if "backs" in zone:
        shown = [b for b in zone["backs"] if b]
        backs = {b: shown.count(b) for b in dict.fromkeys(shown)}
        said = f" (backs: {', '.join(f'{n} × {b}' for b, n in backs.items())})" if backs else ""
        return f"{zone['count']} face down{said}"
    runs: list = []
    for c in zone["cards"]:
        text = face_text(rows, c)
        if runs and runs[-1][0] == text:
            runs[-1][1] += 1
        else:
            runs.append([text, 1])
    return ", ".join(t if n == 1 else f"{n} × {t}" for t, n in runs)


def face_text(rows: Rows, card: dict) -> str:
    """A card as its `face` says it ("Title (line; line)"), else as its label."""
    if card["id"] not in ((rows.game.page or {}).get("faces") or {}):
        return item_text(rows.game, card["id"])
    return card["title"] + (f" ({'; '.join(card['fields'])})" if card["fields"] else "")


def counters_said(chips: list, title: str = "") -> list[str]:
    """Counters as the table's chips read: `short value`, a group kept per something as
    `head: part value, ...` (zeros left out, a flag by where it is true). `title` names a lone one."""
    out, groups = [], dict[str, list]()
    for c in chips:
        groups.setdefault(c["name"], []).append(c)
    for cs in groups.values():
        if all(c["part"] == "" for c in cs):
            out += [f"{title or c['short']} {c['value']}".strip() for c in cs]
            continue
        flags = all(c["value"] in ("true", "false") for c in cs)
        shown = [
            c["part"] if flags else f"{c['part']} {c['value']}"
            for c in cs
            if c["value"] not in ("0", "false", "none", "")
        ]
        if flags and not shown:
            continue
        out.append(f"{cs[0]['head']}: {', '.join(shown) or 'none'}")
    return out


def item_lines(rows: Rows, it: dict, owner) -> tuple[list[str], list[str]]:
    """(counter words, whole lines) for one named thing of a row, in `owner`'s area."""
    if it["what"] == "board":
        if owner is not None or it["name"] not in boards_in_use(rows.game, rows.view):
            return [], []  # as on the table: the side of the board not in play is not drawn
        rows.used.add("board:" + it["name"])
        # what lies in each area is said beside the spaces that touch it: not again under "More"
        rows.used.update(k for keys in area_zones(rows.game, rows.view["zones"], [it["name"]]).values() for k in keys)
        return [], path_board_text(rows.game, rows.view, it["name"])
    found = rows.mine(it["what"], it["name"], owner)
    rows.used.update(x["key"] for x in found)
    if not found:
        return [], []
    if it["what"] == "counter":
        if "track" in it and len(found) == 1:
            return [f"{found[0]['short']} {found[0]['value']}/{it['track'][1]}"], []
        return counters_said(found), []
    if it["what"] == "grid":
        return [], [line for g in found for line in grid_text(rows.game, g["key"], rows.view["grids"][g["key"]])]
    if all(not z["at"] for z in found):
        return [], [f"{z['short']}: {cards_text(rows, z)}" for z in found if z["count"]]
    slots = [f"{z['said']}: {cards_text(rows, z)}" for z in found if z["count"]]
    return [], [f"{it['title']}: {' · '.join(slots)}"] if slots else []


def row_lines(rows: Rows, row: dict, owner, keep=None) -> list[str]:
    """One row of an area: its counters on one line (wrapped), then its zones, grids and boards;
    `keep` (names) limits it to what another player's area shows."""
    if "columns" in row:
        return column_lines(rows, row, owner)
    said, lines = [], []
    for it in row["items"]:
        if keep is None or it["name"] in keep:
            words, more = item_lines(rows, it, owner)
            said += words
            lines += more
    return wrapped(said) + lines


def column_lines(rows: Rows, row: dict, owner) -> list[str]:
    """`columns per E`: one line per value of E, what is kept there side by side; a value
    whose zones are all empty has no line, as the table draws no column for it."""
    per, out = row["columns"], []
    for n, value in enumerate(row["values"]):
        cells, full = [], False
        for it in row["items"]:
            if it["what"] == "board":
                continue
            found = [x for x in rows.mine(it["what"], it["name"], owner) if x["at"].get(per) == value]
            rows.used.update(x["key"] for x in found)
            if it["what"] == "zone":
                full = full or any(z["count"] for z in found)
                cells += [cards_text(rows, z) for z in found if z["count"]]
            elif it["what"] == "counter":
                cells += [f"{it['title']} {c['value']}" for c in found]
        if full or all(it["what"] != "zone" for it in row["items"]):
            if cells:
                title = row["title"].replace("{" + per + "}", row["labels"][n])
                out.append(f"{title}: {' · '.join(cells)}")
    return out


def wrapped(words: list[str]) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 3 + len(w) <= WIDTH:
            lines[-1] += " · " + w
        else:
            lines.append(w)
    return lines


def leftover_lines(rows: Rows, owner) -> list[str]:
    """What the layout does not name in this area, the generic way, under "More"."""
    said: list[str] = []
    lines: list[str] = []
    for what in ("counter", "zone", "grid"):
        for name in dict.fromkeys(
            x["name"] for x in rows.of[what] if x["owner"] == owner and x["key"] not in rows.used
        ):
            words, more = item_lines(rows, {"what": what, "name": name, "title": heading(rows.game, what, name)}, owner)
            said += words
            lines += more
    if owner is None and rows.game.boards:
        for name in boards_in_use(rows.game, rows.view):
            if "board:" + name not in rows.used:
                lines += item_lines(rows, {"what": "board", "name": name}, None)[1]
    body = wrapped(said) + lines
    return ["More:"] + ["  " + x for x in body] if body else []


def player_area(rows: Rows, seat: int, you: bool, others: bool = True) -> list[str]:
    """A player's area: its heading (with the score so far), its `player:` rows, then "More"."""
    page = rows.game.page
    keep = {i["name"] for i in page["others"]} if not you and page.get("others") else None
    sofar = score_so_far(rows.engine, rows.view)
    head = player_name(seat) + (" (you)" if you else "") + (f" · score so far {sofar[seat]}" if seat in sofar else "")
    body = [line for r in page.get("player") or [] for line in row_lines(rows, r, seat, keep)]
    if others:
        body += leftover_lines(rows, seat)
    return [head] + ["  " + x for x in body]


def shared_areas(rows: Rows, kinds=None, short: bool = False) -> list[str]:
    """The shared areas in the declared order, each under its title; `kinds` ("counter", "grid")
    keeps only those things of plain rows (what a summary shows of the table), no columns;
    `short`: an area of one line reads "Title: line"."""
    out = []
    for area in rows.game.page["areas"]:
        body: list[str] = []
        for r in area["rows"]:
            if kinds is not None:
                if "columns" in r:
                    continue
                r = {"items": [i for i in r["items"] if i["what"] in kinds]}
            body += row_lines(rows, r, None)
        if short and len(body) == 1:
            out.append(f"{area['title']}: {body[0]}")
        elif body:
            out += [area["title"]] + ["  " + x for x in body]
    return out


def named_lines(rows: Rows, seat: int, named: set) -> list[str]:
    """What the ruleset's `summary:` names, in the table's words: the shared things not said
    yet, then each other player's on one line (`P2: bid 1 · tricks 2`)."""
    out = []
    for owner in [None] + [p for p in range(rows.view["players"]) if p != seat]:
        chips = [
            c for c in rows.of["counter"] if c["owner"] == owner and c["name"] in named and c["key"] not in rows.used
        ]
        piles = [z for z in rows.of["zone"] if z["owner"] == owner and z["name"] in named and z["count"]]
        said = counters_said(chips) + [f"{z['short']}: {cards_text(rows, z)}" for z in piles]
        if said:
            out.append((f"{player_name(owner)}: " if owner is not None else "") + " · ".join(said))
    return out


def laid_out_table(engine, view: dict, seat: int | None) -> list[str]:
    """`s` at the terminal for a ruleset with a layout: your area, the shared areas, "More on
    the table", then the other players' areas as they show to you."""
    rows = Rows(engine, view)
    out = player_area(rows, seat, True) if seat is not None else []
    out += shared_areas(rows)
    more = leftover_lines(rows, None)
    if more:
        out += ["More on the table:"] + more[1:]
    for p in range(view["players"]):
        if p != seat:
            out += player_area(rows, p, False)
    return out
