"""The engine's valuation: scores, totals, hints, outlooks, tie-breaks and rankings.

A mixin of `Engine` (interpreter/engine.py), which gives it `game`, `quiet_machine` and
`spare`. Tables, traces and results ask for `scores` and `ranking` once a game; bots ask
for `total`, `totals`, `outlook` and `places` after every playout and option, so those
have a fast way (FAST_VALUES) beside the long one through `breakdown`:

    engine.totals(state)            # [each player's total], in player order
    engine.places(state)            # [each player's place in `ranking`], in player order
    engine.outlook(state, player)   # total plus the declared hints (for bots only)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from meeple.dsl.errors import MeepleError
from meeple.interpreter.game import KIND
from meeple.interpreter.kept import kept_rules
from meeple.interpreter.machine import Machine

if TYPE_CHECKING:
    from meeple.interpreter.game import Game

# Scores beyond this are a runaway rule, not a game (and break statistics).
MAX_POINTS = 10**15
# What a score, tie-break or hint may raise that is the rules' fault: reported with its place.
RULE_FAILURES = (MeepleError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)
# `total`, `totals`, `outlook`, `places` and a `ranking` of the engine's own scores add up the
# score rules on one machine without the breakdown dicts (bots ask them after every playout
# and option); what is not a plain whole number, and every error, goes the long way, which
# says what is wrong. Tests turn it off to value the same positions through `breakdown`.
FAST_VALUES = True
# Score rules' and hints' values kept while what they read is unchanged (interpreter/kept.py);
# tests turn it off to work every value out afresh.
KEEP = True


class Scoring:
    """Engine's scoring methods (see the module's docstring)."""

    # Engine's own, declared here for type checkers (annotations only: nothing is set on the class).
    game: Game
    quiet_machine: Callable[[dict], Machine]
    spare: Callable[[Machine], None]

    def scores(self, state: dict) -> list[dict]:
        """Per player: total and the points of each score rule (rules with one label add up)."""
        out = []
        for p in range(state["players"]):
            breakdown = self.breakdown(state, p)
            out.append({"player": p, "total": sum(breakdown.values()), "breakdown": breakdown})
        return out

    def breakdown(self, state: dict, player: int) -> dict[str, int]:
        # Quiet: nothing keeps a score's events. Bots value positions by this many times a move.
        m = self.quiet_machine(state)
        m.env = {"player": player}
        out: dict[str, int] = {}
        for rule in self.game.scores:
            try:
                points = rule.fn(m)
            except RULE_FAILURES as exc:
                raise self._failure(exc, rule.span, f'score "{rule.label}"') from None
            if type(points) is not int or not -MAX_POINTS <= points <= MAX_POINTS:
                points = self._checked(points, rule.span, f'score "{rule.label}"')
            out[rule.label] = out.get(rule.label, 0) + points
        self.spare(m)
        return out

    def _evaluate(self, m: Machine, fn, span, what: str):
        """A score, tie-break or hint expression's value, or a located error naming `what`."""
        try:
            return fn(m)
        except RULE_FAILURES as exc:
            raise self._failure(exc, span, what) from None

    def _failure(self, exc: Exception, span, what: str) -> MeepleError:
        if isinstance(exc, MeepleError):
            return exc.located(self.game.path, self.game.source)
        if isinstance(exc, RecursionError):
            return MeepleError(
                f"in {what}: a function calls itself without end",
                span,
                "give the function a case that does not call itself",
            ).located(self.game.path, self.game.source)
        return MeepleError(f"in {what}: {exc}", span).located(self.game.path, self.game.source)

    def _number(self, m: Machine, fn, span, what: str) -> int:
        """A score or tie-break value: a whole number of a sane size, or a located error."""
        return self._checked(self._evaluate(m, fn, span, what), span, what)

    def _checked(self, value, span, what: str) -> int:
        if type(value) is bool:
            return int(value)
        if type(value) is not int:
            shown = "text" if isinstance(value, str) else "a list" if isinstance(value, list) else type(value).__name__
            raise MeepleError(
                f"{what} must be a whole number, but it is {shown}", span, "count or add up the things it scores"
            ).located(self.game.path, self.game.source)
        if abs(value) > MAX_POINTS:
            raise MeepleError(
                f"{what} is {len(str(abs(value)))} digits long; points are at most {MAX_POINTS:,}",
                span,
                "check the rule for a runaway product or power",
            ).located(self.game.path, self.game.source)
        return value

    def total(self, state: dict, player: int) -> int:
        if FAST_VALUES:
            got = self._totals(state, (player,))
            if got is not None:
                return got[0]
        return sum(self.breakdown(state, player).values())

    def totals(self, state: dict) -> list[int]:
        """Every player's total, in player order (what a bot compares at a playout's end)."""
        if FAST_VALUES:
            got = self._totals(state, range(state["players"]))
            if got is not None:
                return got
        return [sum(self.breakdown(state, p).values()) for p in range(state["players"])]

    def _totals(self, state: dict, players) -> list[int] | None:
        """The players' totals on one machine, or None for `breakdown` to redo (and explain)."""
        m = self.quiet_machine(state)
        rules = self.game.scores
        kept = self._kept("scores")
        out = []
        try:
            for p in players:
                m.env = {"player": p}  # a fresh frame each player, as `breakdown` gives
                total = 0
                for rule, keep in zip(rules, kept):
                    points = rule.fn(m) if keep is None else keep.value(m, state, p)
                    if type(points) is not int or not -MAX_POINTS <= points <= MAX_POINTS:
                        return None  # a bool, a wrong type or a runaway: the long way checks it
                    total += points
                out.append(total)
        except RULE_FAILURES:
            return None  # not given back: the long way builds its own machine and locates the error
        self.spare(m)
        return out

    def measures(self, state: dict, kinds: dict | None = None) -> dict[str, list]:
        """The ruleset's declared measures, per label: one value per player, a whole number (yes/no
        as 1/0) or a list of things (components by name, enum values), which the lab counts one by one.
        `kinds`, if given, gets the kind of thing each listing measure listed (when it listed any).

        For the lab's reports only: what a designer counts (a card played, a goal reached)."""
        out: dict[str, list] = {}
        for rule in self.game.measures:
            values = []
            for p in range(state["players"]):
                m = self.quiet_machine(state)
                m.env = {"player": p}
                what = f'measure "{rule.label}"'
                value = self._evaluate(m, rule.fn, rule.span, what)
                self.spare(m)
                values.append(
                    sorted(self.thing_name(x) for x in value)
                    if isinstance(value, list)
                    else self._checked(value, rule.span, what)
                )
                if kinds is not None and isinstance(value, list) and value:
                    comp = self.game.components.get(value[0]) if isinstance(value[0], str) else None
                    kinds[rule.label] = comp[KIND] if comp is not None else "value"
            out[rule.label] = values
        return out

    def thing_name(self, value) -> str:
        """A thing (a component, a value) by the name people know it by: a measure lists it so, and
        the lab's records of choices count it so."""
        comp = self.game.components.get(value) if isinstance(value, str) else None
        if comp is not None:
            return str(comp.get("name") or self.game.labels.get(value, value))
        return str(value)

    def hints(self, state: dict, player: int) -> dict[str, float]:
        """The ruleset's declared hints for one player, each in points (units times its worth).

        For bots only: progress the score does not count yet. Never part of a score."""
        m = self.quiet_machine(state)
        m.env = {"player": player}
        out: dict[str, float] = {}
        for rule in self.game.hints:
            units = self._evaluate(m, rule.fn, rule.span, f'hint "{rule.label}"')
            out[rule.label] = out.get(rule.label, 0) + units * rule.weight
        self.spare(m)
        return out

    def outlook(self, state: dict, player: int) -> float:
        """What a bot values: the score as the rules count it now plus the declared hints."""
        total = self.total(state, player)
        if not self.game.hints:
            return total
        if FAST_VALUES and self.game.cache.get("hint labels unique") is not False:
            got = self._hinted(state, player)
            if got is not None:
                return total + sum(got)
        return total + sum(self.hints(state, player).values())

    def _hinted(self, state: dict, player: int) -> list | None:
        """The hints' points in order, as `hints` would give them (each label once), or None."""
        hints = self.game.hints
        if "hint labels unique" not in self.game.cache:
            labels = [rule.label for rule in hints]
            self.game.cache["hint labels unique"] = len(set(labels)) == len(labels)
            if not self.game.cache["hint labels unique"]:
                return None  # `hints` adds up the rules of one label first: its order of sums
        m = self.quiet_machine(state)
        m.env = {"player": player}
        try:
            # `0 + ...` as `hints` writes it (out.get(label, 0) + units * weight): the same floats.
            out = [
                0 + (rule.fn(m) if keep is None else keep.value(m, state, player)) * rule.weight
                for rule, keep in zip(hints, self._kept("hints"))
            ]
        except RULE_FAILURES:
            return None
        self.spare(m)
        return out

    def _kept(self, which: str) -> list:
        """Per score rule or hint: its values kept by what it reads (interpreter/kept.py), or None."""
        got = self.game.cache.get(("kept", which))
        if got is None:
            rules = self.game.scores if which == "scores" else self.game.hints
            got = self.game.cache[("kept", which)] = kept_rules(self.game, rules) if KEEP else [None] * len(rules)
        return got

    def tiebreak_keys(self, state: dict, player: int) -> list:
        if not self.game.tiebreaks:
            return []
        m = self.quiet_machine(state)
        m.env = {"player": player}
        keys = []
        for direction, fn, span in self.game.tiebreaks:
            value = self._number(m, fn, span, "a tie-break")
            keys.append(value if direction == "most" else -value)
        self.spare(m)
        return keys

    def ranking(self, state: dict, scores: list | None = None) -> list[dict]:
        """Places by total, then the declared tie-breaks; what still ties shares the place."""
        if not scores and FAST_VALUES:
            # The engine's own totals (players in order); no tie-breaks: one number to sort by.
            pairs = enumerate(self.totals(state))
            if not self.game.tiebreaks:
                keyed = [((t,), p) for p, t in pairs]
                keyed.sort(key=lambda e: (-e[0][0], e[1]))
            else:
                keyed = [((t, *self.tiebreak_keys(state, p)), p) for p, t in pairs]
                keyed.sort(key=lambda e: (tuple(-k for k in e[0]), e[1]))
        else:
            scores = scores or self.scores(state)
            keyed = [((s["total"], *self.tiebreak_keys(state, s["player"])), s["player"]) for s in scores]
            keyed.sort(key=lambda e: (tuple(-k for k in e[0]), e[1]))
        totals = [k[0] for k, _ in keyed]
        out, place = [], 0
        for i, (key, p) in enumerate(keyed):
            if i == 0 or key != keyed[i - 1][0]:
                place = i + 1
            out.append({"player": p, "place": place, "total": key[0], "tied_on_total": totals.count(key[0]) > 1})
        return out

    def places(self, state: dict) -> list[int]:
        """Each player's place in `ranking`, in player order (what mcts rewards at a game's end)."""
        if FAST_VALUES and not self.game.tiebreaks:
            totals = self.totals(state)  # a place is 1 + how many totals are higher, as ranked
            return [1 + sum(1 for u in totals if u > t) for t in totals]
        places = [0] * state["players"]
        for r in self.ranking(state):
            places[r["player"]] = r["place"]
        return places
