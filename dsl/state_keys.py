"""State keys made once: `NAME/2/VALUE` found by its parts' values instead of built each time.

A thing kept per player or per value lives in the state under a key of its name and its
parts (`NAME/2/VALUE` per player per enum value, `NAME/ID` per component). Built at every
read, a key costs a number formatted as text, a new string joined, hashed, compared and
freed; games with many things kept per player build dozens a decision. Found in a table
by the values of its varying parts (nested, one level per part), a key is a lookup or two
of values whose hashes Python knows, and a string the state's dict has compared before.

Generated source (dsl/compile_source.py) reads `filled_table`, which holds every key the
state can have; a value it lacks raises, and the expression's closure then reads or fails
as it always did. The closures read a `KeyTable`, filled as keys are asked for.

A lookup by value is only right where equal values have equal texts: `True == 1`, but the
key of `true` is `NAME/True/VALUE`. So a player's part is looked up only when it is a whole
number (not a bool); a text (an enum's value, a component's id) finds only its own key.
"""

from __future__ import annotations

# Keys found in tables by their parts (generated source and the closures alike); tests turn it off.
TABLES = True
LIMIT = 4096  # entries a table keeps: a rules bug reading with ever new values cannot fill memory


class KeyTable(dict):
    """value -> the key (or, for a part before the last, the table of the next part)."""

    __slots__ = ("make",)

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, value):
        found = self.make(value)
        if len(self) < LIMIT:
            self[value] = found
        return found


def axis_type(dim: str) -> type:
    """What the values of one axis of `per` are: players are numbers, enum values and
    components' ids are texts."""
    return int if dim == "player" else str


def key_table(name: str, fixed: list) -> KeyTable:
    """The table of `name`'s keys, filled as they are asked for; `fixed[i]` is the text of a
    part fixed in the rules (an item written out) or None for a part looked up."""
    varying = fixed.count(None)
    assert varying > 0

    def level(before: tuple) -> KeyTable:
        if len(before) + 1 == varying:
            return KeyTable(lambda v: built(name, fixed, before + (v,)))
        return KeyTable(lambda v: level(before + (v,)))

    return level(())


def built(name: str, fixed: list, values) -> str:
    """The key as the rules build it: the name, then each part's text."""
    it = iter(values)
    return name + "/" + "/".join(str(next(it)) if f is None else f for f in fixed)


def filled_table(game, name: str, per: tuple, fixed: list) -> dict:
    """Every key of `name` the state can hold, found by its varying parts (nested plain
    dicts, in `per`'s order): players up to the most the game allows, every value of an
    enum, every component of a kind. Generated source reads it (a value it lacks raises
    KeyError, and the expression's own closure then reads, or fails, as it always did)."""
    found = game.cache.get(("key table", name, tuple(fixed)))  # one per key, shared by every read
    if found is not None:
        return found
    domains = [game.dimension(dim, game.max_players) for dim, f in zip(per, fixed) if f is None]

    def level(before: tuple, rest: list) -> dict:
        if len(rest) == 1:
            return {v: built(name, fixed, before + (v,)) for v in rest[0]}
        return {v: level(before + (v,), rest[1:]) for v in rest[0]}

    found = game.cache[("key table", name, tuple(fixed))] = level((), domains)
    return found


def key_reader(name: str, per: tuple, parts: list):
    """A closure's key, `fn(m)`, from the closures of its parts (one per axis of `per`)."""
    table = key_table(name, [None] * len(parts))
    types = [axis_type(d) for d in per]
    prefix = name + "/"
    if len(parts) == 1:
        only, typ = parts[0], types[0]

        def one(m):
            v = only(m)
            return table[v] if type(v) is typ else prefix + str(v)

        return one

    def many(m):
        values = [p(m) for p in parts]
        found = table
        for v, typ in zip(values, types):
            if type(v) is not typ:
                return prefix + "/".join(map(str, values))
            found = found[v]
        return found

    return many
