"""Readable text for people: zone names, events, states and score tables.

Seats are 0-based in data and shown as P1, P2... to people. A per-player key
`saved/0` reads `saved[P1]`; a per-value key `bag/O` reads `bag[O]`. What a
viewer cannot see is shown as a count, never as the components.
"""
from __future__ import annotations

from interpreter.boards import grid as gridlib
from interpreter.boards import polyomino
from interpreter.state import can_see


def player_name(p) -> str:
    return f"P{p + 1}" if isinstance(p, int) else str(p)


def key_label(game, key: str) -> str:
    name, *indices = key.split("/")
    if not indices:
        return name
    spec = game.zones.get(name) or game.grids.get(name) or game.counters.get(name)
    dims = spec.per if spec is not None else ()
    shown = [player_name(int(i)) if d == "player" else i for d, i in zip(dims, indices)]
    return f"{name}[{', '.join(shown)}]"


def _items(game, event, viewer) -> str:
    items = event["items"]
    visible = viewer is None or any(_visible(game, k, viewer) for k in (event["src"], event["dst"]))
    if not visible:
        return f"{len(items)} hidden"
    return ", ".join(items)


def _auto_choice(game, e, viewer) -> str:
    # Without the state at hand, a hidden-looking choice (a card) is not shown to others.
    return "something hidden" if e["choice"] in game.components else e["choice"]


def _visible(game, key: str, viewer) -> bool:
    return key.split("/", 1)[0] != "box" and can_see(game, key, viewer)


def event_text(game, e: dict, viewer=None) -> str:
    kind = e["e"]
    if kind in ("move", "draw"):
        verb = "draw" if kind == "draw" else "move"
        short = f" (wanted {e['wanted']})" if kind == "draw" and e["wanted"] > len(e["items"]) else ""
        return (f"{verb} {_items(game, e, viewer)} from {key_label(game, e['src'])} "
                f"to {key_label(game, e['dst'])}{short}")
    if kind == "shuffle":
        return f"shuffle {key_label(game, e['zone'])}"
    if kind == "place":
        o, r, c = e["at"]
        return (f"place {e['piece']} on {key_label(game, e['grid'])} at row {r}, column {c}, "
                f"{polyomino.describe_orientation(o)}")
    if kind == "set":
        return f"{key_label(game, e['var'])} = {value_text(e['value'])}"
    if kind == "first":
        return f"first player: {player_name(e['player'])}"
    if kind == "phase":
        return f"phase {e['phase']}"
    if kind == "auto":
        shown = e["choice"] if viewer is None or viewer == e["player"] else _auto_choice(game, e, viewer)
        return f"{player_name(e['player'])} has one option: {shown}"
    if kind == "mark":
        return f"mark {key_label(game, e['cell'][0])} cell {e['cell'][1]} = {value_text(e['value'])}"
    if kind == "react":
        return f"{player_name(e['player'])} reacts at \"{e['moment']}\": {e['reaction']}"
    if kind == "roll":
        return f"roll: {value_text(e['value'])}"
    if kind == "log":
        return e["text"]
    if kind == "end":
        return "game over"
    return str(e)


def value_text(value) -> str:
    """Values as the rules language writes them."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def boards_text(game, state: dict) -> list[str]:
    """Every grid drawn with two-letter codes, for traces and the terminal."""
    lines = []
    for key, grid in state["grids"].items():
        spec = game.grids[key.split("/", 1)[0]]
        codes = grid_codes(game, spec)
        legend = ", ".join(f"{c}={v}" for v, c in codes.items())
        lines.append(f"{key_label(game, key)} ({legend}):")
        lines += ["  " + row for row in gridlib.render(grid, spec.geometry, codes)]
    return lines


def grid_codes(game, spec) -> dict:
    """Two-letter codes for a grid's contents (`re` for red), unique within the enum."""
    values = game.enums[spec.content]
    codes, used = {}, set()
    for v in values:
        code = v[:2]
        n = 2
        while code in used and n < len(v):
            n += 1
            code = v[:1] + v[n - 1]
        used.add(code)
        codes[v] = code
    return codes


def state_text(game, state: dict, viewer=None) -> list[str]:
    """The state as a person sees it: counters, zones (hidden ones as counts), grids."""
    lines = [f"phase {state['phase']}, first player {player_name(state['first'])}"]
    shown_vars = [f"{key_label(game, k)}={value_text(v)}" for k, v in state["vars"].items()]
    if shown_vars:
        lines.append("  " + "  ".join(shown_vars))
    for key, items in state["zones"].items():
        if key == "box" or not items:
            continue
        if viewer is not None and not can_see(game, key, viewer) or "?" in items:
            lines.append(f"  {key_label(game, key)}: {len(items)} hidden")
        else:
            lines.append(f"  {key_label(game, key)}: {', '.join(items)}")
    lines += ["  " + line for line in boards_text(game, state)]
    return lines


def score_table(scores: list, ranking: list, agents: list | None = None) -> list[str]:
    labels = list(scores[0]["breakdown"]) if scores else []
    head = ["player"] + (["agent"] if agents else []) + labels + ["total", "place"]
    places = {r["player"]: r["place"] for r in ranking}
    rows = []
    for s in scores:
        p = s["player"]
        row = [player_name(p)] + ([agents[p]] if agents else [])
        row += [str(s["breakdown"][lab]) for lab in labels] + [str(s["total"]), str(places[p])]
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) if i < (2 if agents else 1) else c.rjust(w)  # noqa: E731
                              for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return [fmt(head)] + [fmt(r) for r in rows]
