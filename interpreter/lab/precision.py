"""Stop when the answer is known: play until one figure's 95% interval is as narrow as asked.

`--precision 3pp --on win/0` plays games in rounds until the interval of P1's
win rate (or, in a comparison, of its difference between the sides) is at most
3 percentage points either side of the estimate, or `--max-games` games a side
are played. A figure is named by its key: `win/S` (seat S+1's win rate),
`score/S`, `decisions`, `steps`, `margin`, `measure/LABEL` (a ruleset's
measure, per seat), `first/win` (the first player's win rate); a comparison
accepts every key of its table. Widths of rates are in percentage points
(`3pp`), of everything else in the figure's own units (`0.5`).

`--detect 5pp` asks the other way round: how many games would find a change
of that size in the figure (80% power at 5%, from the spread seen so far).
"""

from __future__ import annotations

import math

from meeple.interpreter.lab import inference

RATES = ("win/", "first/win", "draws", "tiebreaks")


class PrecisionError(ValueError):
    """A precision or figure that cannot be read: the message says what to write."""


def width(text: str) -> tuple[float, bool]:
    """A width as written: (value, in percentage points)."""
    points = text.endswith("pp")
    try:
        value = float(text[:-2] if points else text)
    except ValueError:
        raise PrecisionError(f"`{text}` is not a width: write 3pp (for a rate) or a number such as 0.5") from None
    if not value > 0 or math.isinf(value):
        raise PrecisionError(f"the width must be above 0, not {text}")
    return (value / 100 if points else value), points


def is_rate(figure: str) -> bool:
    return figure.startswith(RATES)


def estimate(result: dict, figure: str) -> tuple | None:
    """(value, low, high, spread of the per-game values or differences, n) of a figure in a summary
    or a comparison; None where these games do not have it."""
    if result["kind"] == "compare":
        m = result["metrics"].get(figure)
        if m is None or m["low"] is None:
            return None
        spread = m["detectable"] * math.sqrt(m["n"]) / inference.Z if m.get("detectable") is not None else None
        return m["diff"], m["low"], m["high"], spread, m["n"]
    return _summary_estimate(result, figure)


def _summary_estimate(summary: dict, figure: str):
    kind, _, rest = figure.partition("/")
    seats = summary["seats"]
    if kind in ("win", "score") and rest.isdigit() and int(rest) < len(seats):
        seat = seats[int(rest)]
        if kind == "win":
            p, low, high = (seat["win_rate"][k] for k in ("p", "low", "high"))
            return (p, low, high, math.sqrt(p * (1 - p)), seat["games"]) if p is not None else None
        d = seat["score"]
        return d["mean"], d["low"], d["high"], d["sd"], d["n"]
    if figure == "first/win" and summary.get("first_player"):
        f = summary["first_player"]
        return f["rate"], f["low"], f["high"], math.sqrt(f["rate"] * (1 - f["rate"])), f["games"]
    if kind == "measure" and rest in (summary.get("measures") or {}):
        d = summary["measures"][rest]["per_seat"]
        return d["mean"], d["low"], d["high"], d["sd"], d["n"]
    d = summary["length"].get(figure) or (summary.get("closeness") or {}).get(figure)
    if d is not None and d["n"]:
        return d["mean"], d["low"], d["high"], d["sd"], d["n"]
    return None


def narrow_enough(result: dict, figure: str, target: float) -> bool:
    got = estimate(result, figure)
    return got is not None and got[1] is not None and (got[2] - got[1]) / 2 <= target


def games_for(result: dict, figure: str, target: float, played: int) -> int:
    """Games a side for the next round: an interval's width shrinks as 1/sqrt(n), so the games
    played times (width now / width asked)^2, a tenth more for luck, and never fewer than half again."""
    got = estimate(result, figure)
    if got is None or got[1] is None or got[2] is None:  # no interval yet (one game): two at least
        return max(2, played + played // 2)
    half = (got[2] - got[1]) / 2
    return max(played + played // 2, math.ceil(1.1 * played * (half / target) ** 2))


def check_figure(result: dict, figure: str) -> None:
    """Refuse a figure these games do not have, naming the ones they do."""
    if estimate(result, figure) is not None:
        return
    known = (
        list(result["metrics"])
        if result["kind"] == "compare"
        else [f"win/{s}" for s in range(len(result["seats"]))]
        + [f"score/{s}" for s in range(len(result["seats"]))]
        + [f"measure/{k}" for k in result.get("measures") or {}]
        + list(result["length"])
    )
    raise PrecisionError(f"these games have no figure `{figure}`; choose one of: {', '.join(known[:20])}")


def detect_line(result: dict, figure: str, difference: float, rate: bool) -> str | None:
    """How many games find a change of `difference` in the figure, from the spread seen so far."""
    got = estimate(result, figure)
    if got is None or got[3] is None:
        return None
    needed = inference.games_needed(got[3], difference)
    size = f"{100 * difference:.1f}pp" if rate else f"{difference:g}"
    each = "paired games" if result["kind"] == "compare" else "games"
    return f"A change of {size} in {figure} needs about {needed} {each} to be found with 80% power."
