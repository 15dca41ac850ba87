"""Score rules' and hints' values kept while what they read is unchanged.

A bot's look values thousands of positions that differ from one another in a counter or a
zone or two (interpreter/agents/quick.py). dsl/reads.py finds from a rule's text the counters,
zones and grids it can read; here its value is kept per player under those parts' values and
given back while they are the same, so a hint about a hand and a market is worked out once
for every position with the same cards in both.

A zone is compared as its list: an apply shares the lists of the zones it did not change with
the state it came from (copy on write, interpreter/state.py), so the comparison mostly finds
the very same list and costs one identity check; an equal list of another state compares
equal all the same. Counters are compared by value. The first player and the
number of players are always part of what a rule reads. One value is kept per player and
per counters' values (and zones' sizes), at most LIMIT of them per rule.
"""

from __future__ import annotations

from operator import itemgetter

from meeple.interpreter.effects.actions import MOMENT

LIMIT = 4096  # values kept per rule: a long game's look cannot fill the memory


class Kept:
    """One rule's kept values; `value(m, state, player)` is `fn(m)` with `m.env` for `player`."""

    __slots__ = ("fn", "reads", "game", "parts", "table")

    def __init__(self, fn, reads, game):
        self.fn, self.reads, self.game = fn, reads, game
        self.parts: dict = {}  # players -> (the counters' values getter, the zones' getter)
        self.table: dict = {}

    def getters(self, players: int):
        got = self.parts.get(players)
        if got is None:
            g, r = self.game, self.reads
            counters = [k for n in sorted(r.counters) for k, _ in g.instance_keys(n, g.counters[n].per, players)]
            zones = [k for n in sorted(r.zones) for k, _ in g.instance_keys(n, g.zones[n].per, players)]
            getter = _tuple_of(counters)
            if r.moment:  # kept apart from the counters, and absent before the first `moment`
                getter = (lambda get: lambda d: (*get(d), d.get(MOMENT)))(getter)
            got = self.parts[players] = (getter, _tuple_of(zones))
        return got

    def value(self, m, state: dict, player: int):
        players = state["players"]
        counters, zones = self.getters(players)
        table = self.table
        try:
            lists = zones(state["zones"])
            key = (player, players, state["first"], counters(state["vars"]), tuple(map(len, lists)))
            got = table.get(key)
        except (KeyError, TypeError):  # a part the state lacks, or a counter holding a list: not kept
            return self.fn(m)
        if got is not None and got[0] == lists:  # the same lists mostly: identity first
            return got[1]
        value = self.fn(m)
        if len(table) >= LIMIT:
            table.clear()
        table[key] = (lists, value)
        return value


def _tuple_of(keys: list):
    """A getter of these keys' values as a tuple (itemgetter gives one key's value bare)."""
    if not keys:
        return lambda d: ()
    if len(keys) == 1:
        (k,) = keys
        return lambda d: (d[k],)
    return itemgetter(*keys)


def kept_rules(game, rules: list) -> list:
    """Per rule: its `Kept` where its reads are known and it does enough work to be worth
    keeping (a loop or a call of a rules' function), else None. Not a rule that reads a grid:
    a placement changes the grid it is valued for, and a look's positions are mostly one
    placement each (a placement game's look took a third longer with them kept)."""
    out = []
    for rule in rules:
        r = getattr(rule, "reads", None)
        out.append(Kept(rule.fn, r, game) if r is not None and r.busy and not r.grids else None)
    return out
