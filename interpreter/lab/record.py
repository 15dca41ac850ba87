"""What one game's row records beyond its score: the choices offered and taken, and how the lead went.

`GameRecord` watches a game decision by decision (play_row calls `decided`
before each decision is applied and `after` once it is) and gives the row's
fields at the end:

- `picks`: per decision (keyed by the rules line that asks it, with its title
  as first asked), per thing offered (a component by name, a value, a menu
  entry, "pass"), per seat: [times offered, times taken]. Options that are
  places, cells or sets are not things and are not counted; an action taken at
  any time is counted under `actions` instead.
- `first_player`: who was first player when the first decision was asked.
- `lead_changes`: how often the sole lead passed from one player to another
  (the score rules' totals after each decision; a tie in between is no change).
- `lead_for_good`: the share of the game's decisions, counted from the end,
  through which the final winner held the sole lead without a break (1: led
  from the first decision; 0: took the lead at the very end or never alone).
- `margin`: the winner's total minus the best total behind it.
"""

from __future__ import annotations

from meeple.interpreter.effects.choices import Menu

PASS = "pass"


class GameRecord:
    def __init__(self, engine, players: int):
        self.engine, self.players = engine, players
        self.picks: dict = {}
        self.actions: dict = {}
        self.first_player = None
        self.leaders: list = []  # the sole leader (or None) after each decision

    def decided(self, state: dict, decision, index: int) -> None:
        """Decision `decision` is about to be applied with option `index` taken."""
        if self.first_player is None:
            self.first_player = state["first"]
        chosen = decision.options[index]
        if type(chosen.value) is dict:  # an action at any time: counted by its title
            self.actions[chosen.label] = self.actions.get(chosen.label, 0) + 1
            return
        menu = isinstance(self.engine.pending_op(state), Menu)
        if menu and chosen.value is not None:
            self.actions[chosen.value] = self.actions.get(chosen.value, 0) + 1
        things = [self._thing(o.value) for o in decision.options]
        if not any(t is not None for t in things):
            return
        entry = self.picks.setdefault(str(decision.line), {"title": decision.prompt, "things": {}})
        seat = decision.actor
        for k, thing in enumerate(things):
            if thing is None:
                continue
            counts = entry["things"].setdefault(thing, [[0, 0] for _ in range(self.players)])
            counts[seat][0] += 1
            if k == index:
                counts[seat][1] += 1

    def _thing(self, value):
        if value is None:
            return PASS
        if isinstance(value, str):
            return self.engine.thing_name(value)
        return None  # a place, a cell, a set of things: not one thing

    def after(self, state: dict) -> None:
        totals = self.engine.totals(state)
        top = max(totals)
        self.leaders.append(totals.index(top) if totals.count(top) == 1 else None)

    def fields(self, totals: list[int], winners: list[int]) -> dict:
        changes, last = 0, None
        for leader in self.leaders:
            if leader is not None:
                changes += last is not None and leader != last
                last = leader
        lead_for_good = None
        if len(winners) == 1 and self.leaders:
            held = 0
            for leader in reversed(self.leaders):
                if leader != winners[0]:
                    break
                held += 1
            lead_for_good = round(held / len(self.leaders), 4)
        ordered = sorted(totals, reverse=True)
        return {
            "picks": self.picks,
            "actions": self.actions,
            "first_player": self.first_player,
            "lead_changes": changes,
            "lead_for_good": lead_for_good,
            "margin": ordered[0] - ordered[1] if len(ordered) > 1 else None,
        }
