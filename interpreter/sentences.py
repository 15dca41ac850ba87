"""The sentences rules give their events (`says` on a zone or a counter), and the words of
bookkeeping: a `reset`, a phase beginning, the box.

A zone's sentence tells a move into it: `zone reserved per player: hand of
card, says "{player} reserves {items}"` reads "P1 reserves Honey Cake". A
counter's tells a change: `counter vp per player = 0, says "{player} scores
{change} VP ({value} in all)"` reads "P2 scores +3 VP (7 in all)". Braces name
what the thing is kept per (seats as P1, enum values by their labels) and
what happened, in words (`{change}` of a value that is not a number reads
"from quarry to clay pit"); what the viewer may not see reads as a count ("2 cards").
"""

from __future__ import annotations

import re

from meeple.interpreter.naming import BRACES, enum_word, player_name, words  # noqa: F401 (said from here too)


def dims(game, spec, key: str) -> dict:
    """What a key is kept per, as words: {"player": "P1", "colour": "red"}."""
    _, *indices = key.split("/")
    return {d: player_name(int(i)) if d == "player" else enum_word(game, d, i) for d, i in zip(spec.per, indices)}


def fill(text: str, values: dict) -> str:
    return BRACES.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def counted(n: int, kind: str) -> str:
    """`n` things of a kind, none shown: "a card", "3 cards"."""
    return f"a {words(kind)}" if n == 1 else f"{n} {words(kind)}s"


def move_sentence(game, e: dict, items: str, src: str) -> str | None:
    """The destination zone's sentence for a move or draw into it, or None if it has none."""
    spec = game.zones.get(e["dst"].split("/", 1)[0])
    if spec is None or not spec.says:
        return None
    return fill(spec.says, dict(dims(game, spec, e["dst"]), items=items, count=str(len(e["items"])), **{"from": src}))


def set_sentence(game, e: dict, shown) -> str | None:
    """The counter's sentence for a change, or None if it has none (or the value is hidden)."""
    spec = game.counters.get(e["var"].split("/", 1)[0])
    if spec is None or not spec.says:
        return None
    values = dict(dims(game, spec, e["var"]), value=shown(e["value"]))
    if "was" in e:
        values["was"] = shown(e["was"])
        values["change"] = change_words(e["was"], e["value"], shown, numbers=not spec.player)
    return fill(spec.says, values)


def change_words(was, value, shown, numbers: bool = True) -> str:
    """`{change}` in words: a number signed (`+3`, `-1`); a list by what came and what went
    (`+ red, - blue`); anything else (an enum value, a component, a seat, a flag) from what it
    was to what it is (`from quarry to clay pit`, `from P1 to P2`), or what it is when it was
    nothing. `shown` says a value as people read it; `numbers` is false for a counter holding a
    seat (its values are seats, not amounts)."""
    if numbers and type(value) is int and type(was) is int:
        return f"{value - was:+d}"
    if isinstance(value, list) and isinstance(was, list):
        left, came = list(was), []
        for x in value:  # as many of each as there were stay; the rest came
            if x in left:
                left.remove(x)
            else:
                came.append(x)
        said = [f"+ {shown([x])}" for x in came] + [f"- {shown([x])}" for x in left]
        return ", ".join(said) or "nothing"
    if was is None or was == "" or was == []:
        return shown(value)
    return f"from {shown(was)} to {shown(value)}"


def reset_text(game, e: dict, label: str, shown) -> str:
    """`reset NAME`: "all coins back to 0", a flag "used: all cleared" (one instance: "P1's coins
    back to 0", "used[P1]: cleared")."""
    if e.get("text"):
        return e["text"]
    start = e["value"]
    spec = game.counters.get(e["var"].split("/", 1)[0])
    if "/" in e["var"]:
        return f"{label}: cleared" if start is False else f"{label} back to {shown(start)}"
    plain = re.sub(r"\{\w+\}('s)?\s*", "", spec.label).strip() if spec is not None and spec.label else ""
    plain = plain or words(e["var"])
    return f"{plain}: all cleared" if start is False else f"all {plain} back to {shown(start)}"
