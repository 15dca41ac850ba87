"""How the keys of zones, grids and counters read to people.

A key is the name and its indices: `hand/0` is seat 0's hand, `stock/1/red`
seat 1's red stock. Without a `label` it reads as the name with its indices in
brackets, seats as P1, P2... (`hand[P1]`, `stock[P2, red]`). A `label` says it
in the designer's words; braces in it name what the thing is kept per and are
filled in (`"{player}'s hand"` reads `P1's hand`); indices it does not name
follow in parentheses, words rather than code (`"{player}'s stock"` reads
`P2's stock (red)`).
"""

from __future__ import annotations

import re

BRACES = re.compile(r"\{(\w+)\}")


def player_name(p) -> str:
    return f"P{p + 1}" if isinstance(p, int) else str(p)


def placeholders(label: str) -> list[str]:
    """The names a label's braces hold, in order."""
    return BRACES.findall(label)


def spec_of(game, name: str):
    return game.counters.get(name) or game.zones.get(name) or game.grids.get(name)


def key_label(game, key: str, parts: bool = True) -> str:
    """A key as people read it. With parts=False the indices a group lists after its head are
    left out (`stock[P1]` heads `stock[P1]: red 1, blue 3`). A bare name whose label names
    indices it does not have (a grid's picture of its shape) reads as the name."""
    name, *indices = key.split("/")
    spec = spec_of(game, name)
    dims = spec.per if spec is not None else ()
    said = (spec.label if spec is not None else "") or name
    plain = said == name  # no label: the name with its indices in brackets
    values = {d: player_name(int(i)) if d == "player" else enum_word(game, d, i) for d, i in zip(dims, indices)}
    named = placeholders(said)
    if any(n not in values for n in named):
        said, named = name, []
    elif named:
        said = BRACES.sub(lambda m: values[m.group(1)], said)
    rest = [values[d] for d in dims if d in values and d not in named and (parts or d == "player")]
    if plain:
        said = words(name)
    if not rest:
        return said
    return f"{said}[{', '.join(rest)}]" if plain else f"{said} ({', '.join(rest)})"


def parts_of(game, key: str) -> list[str]:
    """The indices a grouped display lists after the head: all but the seat and those the
    label's braces already say."""
    name, *indices = key.split("/")
    spec = spec_of(game, name)
    if spec is None:
        return []
    named = set(placeholders(spec.label))
    return [enum_word(game, d, i) for d, i in zip(spec.per, indices) if d != "player" and d not in named]


def enum_word(game, dim: str, value: str) -> str:
    """An index as it reads: an enum value by its label (`clay pit`), anything else as it is."""
    return game.labels.get(value) or words(value) if dim in game.enums else value


def words(value: str) -> str:
    """A name as people read it: `gold_coin` reads "gold coin"."""
    return _SNAKE.sub(" ", value)


_SNAKE = re.compile(r"(?<=[a-z0-9])_(?=[a-z0-9])")


def in_area(label: str, owner) -> str:
    """A label as it reads inside its owner's area on the table, where the area's heading
    already says whose it is: `P1's coins` reads `coins`, `P1 passed` reads `passed`."""
    if owner is None:
        return label
    who = player_name(owner)
    for prefix in (f"{who}'s ", f"{who} "):
        if label.startswith(prefix) and len(label) > len(prefix):
            return label[len(prefix) :]
    return label
