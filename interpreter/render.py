"""Readable text for people: zone names, events, states and score tables.

Seats are 0-based in data and shown as P1, P2... to people. A per-player key
`saved/0` reads `saved[P1]`; a per-value key `bag/O` reads `bag[O]`. What a
viewer cannot see is shown as a count, never as the components. Components read
by their kind's `label` (the id when it has none); counters declared `quiet` are
bookkeeping and stay out of what people read (`shown_event`; board_text.state_text).
"""

from __future__ import annotations

from meeple.interpreter import sentences
from meeple.interpreter.boards import polyomino
from meeple.interpreter.game import KIND
from meeple.interpreter.naming import key_label, parts_of, player_name  # noqa: F401 (said from here too)
from meeple.interpreter.state import HIDDEN, may_see_var, sees_moves

# The colours the values of an enum take where the rules name none: in pictures of boards and on the
# table's layout alike.
PALETTE = [
    "#8dd3c7",
    "#fdb462",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#b3de69",
    "#fccde5",
    "#ffffb3",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
    "#d9d9d9",
]


def choice_text(title: str, actor, label: str) -> str:
    """A choice as every log says it: the decision's title, who chose, and the option's label."""
    return f"{title} {player_name(actor)} chooses {label}" if title else f"{player_name(actor)} chooses {label}"


MANY = 8  # a move of more items reads as a count per kind ("48 × card"), like a box emptied at setup


def item_text(game, cid) -> str:
    """A component as people read it: its label, else its id."""
    return game.labels.get(cid, cid) if type(cid) is str else str(cid)


def items_text(game, items: list) -> str:
    """Components moved together: a count per kind when there are many (a box emptied at setup),
    else in order with a run of alike ones as a count."""
    if len(items) > MANY and all(i in game.components for i in items):
        kinds: dict = {}
        for i in items:
            kind = game.components[i][KIND]
            kinds[kind] = kinds.get(kind, 0) + 1
        return ", ".join(f"{n} × {kind}" for kind, n in kinds.items())
    return runs_text(game, items)


def runs_text(game, items: list) -> str:
    """Cards in order, a run of alike ones as a count (`8 × silver coin`), as a pile reads on the table."""
    return ", ".join(runs(game, items))


def runs(game, items: list) -> list[str]:
    """Cards in order, a run of alike ones as a count (`8 × silver coin`), one entry per run."""
    out: list = []
    for label in (item_text(game, i) for i in items):
        if out and out[-1][0] == label:
            out[-1][1] += 1
        else:
            out.append([label, 1])
    return [label if n == 1 else f"{n} × {label}" for label, n in out]


def _items(game, event, viewer) -> str:
    items = event["items"]
    visible = viewer is None or any(_visible(game, k, viewer) for k in (event["src"], event["dst"]))
    if not visible:
        # the kind is no secret (a zone holds one kind): "draw 1 × card (hidden)" says what was drawn
        kind = _zone_kind(game, event["dst"]) or _zone_kind(game, event["src"])
        return sentences.counted(len(items), kind) if kind else f"{len(items)} unseen"
    return items_text(game, items)


def _zone_text(game, key: str) -> str:
    """A zone as the log says it; the box, where the components not in play wait, is "the box"."""
    return "the box" if key == "box" else key_label(game, key)


def _zone_kind(game, key: str) -> str:
    """The kind of component a zone holds ('' for the box, which holds every kind)."""
    spec = game.zones.get(key.split("/", 1)[0])
    return spec.of if spec is not None else ""


def is_quiet(game, key: str) -> bool:
    """A `quiet` counter, or the engine's own bookkeeping (`#moment`, `#held/...`)."""
    if key[:1] == "#":
        return True
    spec = game.counters.get(key.split("/", 1)[0])
    return spec is not None and spec.quiet


def shown_value(game, key: str, value) -> bool:
    """Whether displays (state text, the table's chips) show this counter now: not a `quiet`
    one, nor a flag with a `label` while it is false (it reads as its label while true)."""
    if is_quiet(game, key):
        return False
    return not (value is False and labelled_flag(game, key))


def labelled_flag(game, key: str) -> bool:
    spec = game.counters.get(key.split("/", 1)[0])
    return spec is not None and spec.kind == "flag" and bool(spec.label)


def shown_event(game, e: dict) -> bool:
    """Whether people are shown this event: not what a `quietly` block did, nor the changes of
    `quiet` counters, nor a flag with a label turning false (it reads as its label while true,
    and says nothing else)."""
    if e.get("quiet"):
        return False
    if e["e"] == "reset":
        return not is_quiet(game, e["var"])
    if e["e"] != "set":
        return True
    return not (is_quiet(game, e["var"]) or e["value"] is False and labelled_flag(game, e["var"]))


def _auto_choice(game, e, viewer) -> str:
    """A lone option as `viewer` reads it: another player's is hidden when secret, hidden
    in the viewer's view ("?"), or naming a component the viewer could not see (`seen_by`)."""
    if viewer is None or viewer == e["player"]:
        return e.get("label", item_text(game, e["choice"]))
    if e.get("secret") or e["choice"] == HIDDEN or viewer not in e.get("seen_by", [viewer]):
        return "something hidden"
    if "label" not in e and e["choice"] in game.components:  # an event from before labels and `seen_by`
        return "something hidden"
    return e.get("label", e["choice"])


def cell_text(game, key: str, index: int) -> str:
    """A cell as people read it: `board[P1] row 2, column 3`."""
    cols = game.grids[key.split("/", 1)[0]].geometry.cols
    r, c = divmod(index, cols)
    return f"{key_label(game, key)} row {r + 1}, column {c + 1}"


def _visible(game, key: str, viewer) -> bool:
    return key.split("/", 1)[0] != "box" and sees_moves(game, key, viewer)


def event_text(game, e: dict, viewer=None) -> str:
    kind = e["e"]
    if kind in ("move", "draw"):
        verb = "draw" if kind == "draw" else "move"
        short = f" (wanted {e['wanted']})" if kind == "draw" and e["wanted"] > len(e["items"]) else ""
        items, src = _items(game, e, viewer), _zone_text(game, e["src"])
        said = sentences.move_sentence(game, e, items, src)
        if said is not None:
            return said + short
        return f"{verb} {items} from {src} to {_zone_text(game, e['dst'])}{short}"
    if kind == "shuffle":
        return f"shuffle {key_label(game, e['zone'])}"
    if kind == "place":
        o, r, c = e["at"]
        return (
            f"place {item_text(game, e['piece'])} on {key_label(game, e['grid'])} at row {r}, column {c}, "
            f"{polyomino.describe_orientation(o)}"
        )
    if kind == "set":
        if e["value"] is True and labelled_flag(game, e["var"]):  # it reads as its label: "last round"
            rest = parts_of(game, e["var"])  # the displays list these after the label: one more joins them
            return (
                f"{key_label(game, e['var'], parts=False)}: + {' '.join(rest)}" if rest else key_label(game, e["var"])
            )
        seen = may_see_var(game, e["var"], viewer) or viewer is None
        said = sentences.set_sentence(game, e, lambda v: var_text(game, e["var"], v)) if seen else None
        if said is not None:
            return said
        shown = var_text(game, e["var"], e["value"]) if seen else "?"
        return f"{key_label(game, e['var'])} = {shown}"
    if kind == "reset":
        return sentences.reset_text(game, e, key_label(game, e["var"]), lambda v: var_text(game, e["var"], v))
    if kind == "first":
        return f"first player: {player_name(e['player'])}"
    if kind == "phase":  # a part of the game begins: its name, set apart
        return f"— {sentences.words(e['phase'])} —"
    if kind == "auto":
        return choice_text(e.get("title", ""), e["player"], _auto_choice(game, e, viewer)) + " (the only option)"
    if kind == "mark":
        return f"mark {cell_text(game, *e['cell'])} = {var_text(game, '', e['value'])}"
    if kind == "react":
        return f'{player_name(e["player"])} reacts at "{e["moment"]}": {e["reaction"]}'
    if kind == "act":
        title = next((a.title for a in game.actions if a.name == e["action"]), e["action"])
        return f"{player_name(e['player'])} acts: {title}"
    if kind == "reveal":
        return f"{player_name(e['player'])} shows their simultaneous choice"
    if kind == "roll":
        return f"roll: {value_text(e['value'])}"
    if kind == "log":
        return e["text"]
    if kind == "end":
        return "game over"
    return str(e)


def var_text(game, key: str, value) -> str:
    """A counter's, flag's or value's value; a `value` that holds a player reads P1, P2..."""
    spec = game.counters.get(key.split("/", 1)[0])
    if spec is not None and spec.player and isinstance(value, int) and not isinstance(value, bool):
        return player_name(value)
    if isinstance(value, str) and value in game.labels:  # a value holding a component
        return game.labels[value]
    if spec is not None and spec.players and isinstance(value, list):  # seats among them read P1, P2...
        return ", ".join(player_name(x) if type(x) is int else var_text(game, "", x) for x in value) or "nothing"
    if isinstance(value, list):  # words, not Python's brackets and quotes; an inner list in brackets
        return (
            ", ".join(f"[{var_text(game, '', x)}]" if isinstance(x, list) else var_text(game, "", x) for x in value)
            if value
            else "nothing"
        )
    if isinstance(value, str):  # a name the rules use: `gold_coin` reads "gold coin"
        return sentences.words(value)
    return value_text(value)


def value_text(value) -> str:
    """Values as the rules language writes them."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def outcome_text(o: dict, players: int) -> str:
    """One player's outcome in the ruleset's words: "Victory, 41 to 12" (with the seat if several play)."""
    return o["text"] if players == 1 else f"{player_name(o['player'])}: {o['text']}"


def score_table(scores: list, ranking: list, agents: list | None = None, outcome: list | None = None) -> list[str]:
    """Points per rule and total; the last column is the place, or win/loss where the game
    declares an outcome (a solo game has no place to speak of)."""
    labels = list(scores[0]["breakdown"]) if scores else []
    head = ["player"] + (["agent"] if agents else []) + labels + ["total", "outcome" if outcome else "place"]
    places = {r["player"]: r["place"] for r in ranking}
    if outcome:
        places = {o["player"]: "win" if o["win"] else "loss" for o in outcome}
    elif len(scores) == 1:  # alone, with no target declared: no place to speak of
        places = {scores[0]["player"]: "-"}
    rows = []
    for s in scores:
        p = s["player"]
        row = [player_name(p)] + ([agents[p]] if agents else [])
        row += [str(s["breakdown"][lab]) for lab in labels] + [str(s["total"]), str(places[p])]
        rows.append(row)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def fmt(r):
        return "  ".join(
            c.ljust(w) if i < (2 if agents else 1) else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))
        ).rstrip()

    return [fmt(head)] + [fmt(r) for r in rows]
