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
- `rounds`, `round_phase`, `round_totals`: a round is one pass through the
  phase the game entered most often (the first of those on a tie): its name,
  how many passes the game made, and each player's total when each pass
  ended (at the first decision point after it, or at the game's end).
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
        self.phase, self.seq = None, None  # the phase running, and its entry's number (state["seq"])
        self.passes: list = []  # per phase entry that ended: (its phase, the totals when it ended)

    def decided(self, state: dict, decision, index: int) -> None:
        """Decision `decision` is about to be applied with option `index` taken."""
        if self.first_player is None:
            self.first_player = state["first"]
            self.phase, self.seq = state.get("phase"), state.get("seq")
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
        if state.get("seq") != self.seq:  # a phase ended since the last decision point
            self.passes.append((self.phase, totals))
            self.phase, self.seq = state.get("phase"), state.get("seq")

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
        passes: list = [*self.passes, (self.phase, list(totals))] if self.phase is not None else []
        names = [phase for phase, _ in passes]
        round_phase = max(dict.fromkeys(names), key=names.count) if names else None  # the first on a tie
        return {
            "rounds": names.count(round_phase) if names else None,
            "round_phase": round_phase,
            "round_totals": [t for phase, t in passes if phase == round_phase],
            "picks": self.picks,
            "actions": self.actions,
            "first_player": self.first_player,
            "lead_changes": changes,
            "lead_for_good": lead_for_good,
            "margin": ordered[0] - ordered[1] if len(ordered) > 1 else None,
        }
