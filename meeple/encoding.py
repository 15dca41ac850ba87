"""A seat's view as numbers and a decision's options as a fixed set of actions, for any ruleset.

What the research adapters (meeple.pettingzoo, meeple.openspiel) share. Learning libraries want
fixed sizes; a Meeple game gives a view (nested plain data) and a decision with a varying list
of options. So:

- Actions are, by default, meeple.spaces's: a fixed space derived from the rules. With the
  adapters' `actions="options"` they are indices into the current decision's options, in the
  engine's order, below a fixed `action_count` per ruleset and player count. Unless given, that
  count is the most options seen in a few seeded random games (`probe_action_count`); a rarer
  decision with more options offers only its first `action_count` ones. The meaning of such an
  index depends on the decision: its label says what it is (`option_labels`), and the
  observation names each option with a number.
- Observations are a fixed-length vector of the view's numbers (`ViewEncoder`): whose seat, whose
  turn, the phase, which decision is asked, every zone's size, where each component is as far as
  the seat sees it, every counter, every grid cell, a number per option. It is read from `engine.view(state, seat)` only, so it cannot hold what
  the seat may not see (tests/test_interop_leaks.py perturbs the hidden parts and compares).
- Rewards come at the end: +1 a win and -1 a loss where the game declares an outcome, else the
  ranking: for each other player +1 placed ahead, -1 behind, 0 tied, averaged (2 players: +1/-1/0).
"""

from __future__ import annotations

import random

from meeple.interpreter.engine import Engine
from meeple.interpreter.state import HIDDEN

# Observation values are clipped to this, so that they fit a bounded float32 box.
BOUND = 2.0**31
PROBE_GAMES = 8
PROBE_DECISIONS = 5_000  # per probe game: a ruleset that never ends still gives an answer


def table(game, players: int | None = None, options: dict | None = None, variants: list | None = None):
    """A meeple.Game for the adapters: `game` is one already (its options and variants stand), or
    a shipped ruleset's name or a .rules path loaded with these. Bad input is a UsageError."""
    import meeple

    if isinstance(game, meeple.Game):
        return game.with_players(players) if players is not None else game
    return meeple.load(game, options, variants, players)


def probe_action_count(engine: Engine, players: int, games: int = PROBE_GAMES) -> int:
    """The most options any decision had in `games` seeded uniformly random games (remembered
    per rules, options, variants and player count: environments are made often)."""
    g = engine.game
    key = (g.digest, tuple(sorted((k, str(v)) for k, v in g.options.items())), tuple(g.variants), players, games)
    if key not in _PROBED:
        _PROBED[key] = _probe(engine, players, games)
    return _PROBED[key]


_PROBED: dict = {}


def _probe(engine: Engine, players: int, games: int) -> int:
    most = 1
    for seed in range(games):
        state, _ = engine.start(players, seed)
        pick = random.Random(seed)
        for _ in range(PROBE_DECISIONS):
            n = engine.option_count(state)
            if not n:
                break
            most = max(most, n)
            state, _ = engine.apply(state, pick.randrange(n), inplace=True, events=False)
    return most


def legal_actions(engine: Engine, state: dict, action_count: int) -> list[int]:
    return list(range(min(engine.option_count(state), action_count)))


def option_labels(engine: Engine, state: dict, action_count: int) -> list[str]:
    """What each legal action means now, for people (ids with labels)."""
    d = engine.decision(state)
    return [] if d is None else [o.label for o in d.options[:action_count]]


def rewards(engine: Engine, state: dict) -> list[float]:
    """Per seat, at the end of a game: see the module's docstring."""
    n = state["players"]
    scores = engine.scores(state)
    outcome = engine.outcome(state, scores)
    if outcome is not None:
        return [1.0 if o["win"] else -1.0 for o in sorted(outcome, key=lambda o: o["player"])]
    if n == 1:
        return [0.0]
    place = {r["player"]: r["place"] for r in engine.ranking(state, scores)}
    return [sum((place[q] > place[p]) - (place[q] < place[p]) for q in range(n) if q != p) / (n - 1) for p in range(n)]


class ViewEncoder:
    """A fixed layout of numbers for one ruleset and player count, filled from a view: the seat
    (one-hot), whose turn (one-hot), the phase, which decision the seat is asked (its line in the
    rules; 0 when not its turn), every zone's size, where each component is as far as the seat
    sees it (a zone's or grid's number, 0 when unseen), every counter, every grid cell, and one
    number naming each of the seat's options (0s when not its turn).

    The layout comes from the starting state (a game's zone, counter and grid keys are all there
    from the start; keys that appeared later would be left out). Text values (enum values,
    component ids, players' phases) read as their place in one vocabulary of the game's names;
    a hidden value as 0 with a 1 in its `hidden` slot for secret counters."""

    def __init__(self, engine: Engine, players: int, action_count: int):
        g = engine.game
        self.action_count = action_count
        start, _ = engine.start(players, 0)
        self.players = players
        self.zones = sorted(start["zones"])
        self.grids = sorted(start["grids"])
        self.vars = sorted(start["vars"])
        self.secret = [bool(self._spec(g, k) and self._spec(g, k).secret) for k in self.vars]
        self.cells = [len(start["grids"][k]["cells"]) for k in self.grids]
        self.components = list(g.components)
        self.where = {k: i + 1 for i, k in enumerate(self.zones + self.grids)}
        words = [w for values in g.enums.values() for w in values] + self.components + list(g.phases)
        self.vocab: dict[str, int] = {}
        for w in words:
            self.vocab.setdefault(w, len(self.vocab) + 1)
        self.codes: dict[str | None, float] = {w: float(i) for w, i in self.vocab.items()}  # what cells mostly hold
        self.codes[None] = 0.0
        self.size = (
            2 * players
            + 2
            + len(self.zones)
            + action_count
            + len(self.components)
            + len(self.vars)
            + sum(self.secret)
            + sum(self.cells)
        )

    @staticmethod
    def _spec(game, key: str):
        return game.counters.get(key.split("/", 1)[0])

    def number(self, value) -> float:
        if value is None or value is True or value is False:
            return float(bool(value))
        if isinstance(value, (int, float)):
            return float(max(-BOUND, min(BOUND, value)))
        if isinstance(value, str):
            return float(self.vocab.get(value, len(self.vocab) + 1))
        if isinstance(value, (list, tuple)):
            return float(len(value))
        return 0.0

    def encode(self, view: dict, seat: int) -> list[float]:
        """The numbers of `view` (the state as `seat` sees it) in the layout."""
        out = [0.0] * (2 * self.players + 2)
        out[seat] = 1.0
        pending = view["pending"]
        mine = pending is not None and not view["over"] and pending["actor"] == seat
        if pending is not None and not view["over"]:
            out[self.players + pending["actor"]] = 1.0
        out[-2] = self.number(view["phase"])
        out[-1] = float(pending.get("line", 0)) if mine else 0.0  # which decision of the rules
        zones, grids, where = view["zones"], view["grids"], self.where
        out += [float(len(zones.get(k, ()))) for k in self.zones]
        place = {}
        for k in self.zones:
            code = where[k]
            for item in zones.get(k, ()):
                place[item] = code
        for k in self.grids:
            for piece in grids[k]["pieces"] if k in grids else ():
                place[piece[0]] = where[k]
        out += [float(place.get(c, 0)) for c in self.components]
        values, number = view["vars"], self.number
        for k, secret in zip(self.vars, self.secret):
            v = values.get(k)
            if secret:
                out += [0.0, 1.0] if v == HIDDEN else [number(v), 0.0]
            else:
                out.append(number(v))
        codes = self.codes
        for k, n in zip(self.grids, self.cells):
            cells = grids[k]["cells"] if k in grids else ()
            row = [codes[c] if c in codes else number(c) for c in cells[:n]]
            out += row + [0.0] * (n - len(row))
        options = [self.option_code(v) for v in pending["options"][: self.action_count]] if mine else []
        return out + options + [0.0] * (self.action_count - len(options))

    def option_code(self, value) -> float:
        """A number naming an option: a component's or enum value's code, a cell's number
        (from 1), a list's first item's (a row of cells: its first cell), else as `number`."""
        if type(value) is list and value:
            if len(value) == 2 and type(value[0]) is str and type(value[1]) is int:
                return float(value[1] + 1)  # a cell
            return self.option_code(value[0])
        return self.number(value)
