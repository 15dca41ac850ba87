"""The score so far, as a seat could count it from the table.

A person at the terminal or the play table wants to know how they stand before the
game ends: "if it ended now, P1 12, P2 9". The ruleset's score rules are run on the
seat's view, not on the true state, so the figure never uses anything the seat cannot
see. A player whose score needs something hidden from the seat (a field of a face-down
card, a secret counter) is left out: the rules fail on what the view hides, and a
figure the seat could not have counted is better not shown than guessed.
"""

from __future__ import annotations

from meeple.dsl.errors import MeepleError
from meeple.interpreter.naming import player_name


def score_so_far(engine, view: dict) -> dict[int, int]:
    """Seat -> total of the score rules on this view, for every seat the view lets us count;
    empty when the game is over (the final scores say it) or declares no score rules."""
    if view["over"] or not engine.game.scores:
        return {}
    out = {}
    for p in range(view["players"]):
        try:
            out[p] = engine.total(view, p)
        except MeepleError:  # the rule needs what this view hides
            continue
    return out


def score_so_far_text(engine, view: dict) -> str:
    """`score so far: P1 12, P2 9`, or '' when there is nothing to say."""
    totals = score_so_far(engine, view)
    if not totals:
        return ""
    return "score so far: " + ", ".join(f"{player_name(p)} {t}" for p, t in totals.items())
