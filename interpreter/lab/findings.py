"""The opening lines of a report: what changed and what did not, in plain words.

A designer reads these first, so each line states one finding with its
numbers: the figure on both sides, the difference with its 95% interval and
the Holm-adjusted p-value (interpreter/lab/inference.py). A figure counts as
changed only when its adjusted p is below 0.05; for game length, scores and
win rates that did not change, the line says how large a change this many
games would have found, so "no change" is never read as "no effect"; each
declared measure that did not change is named with the difference seen.
"""

from __future__ import annotations

from meeple.interpreter.lab import inference
from meeple.interpreter.lab.stats import DETAIL
from meeple.interpreter.lab.tables import interval, num, pct, pp, pval

# The groups of a comparison, in the order a designer asks about them, and their names in words.
KEY_GROUPS = {"length": "game length", "score": "scores", "win": "seat win rates"}
RELATIVE = ("length", "score", "measure")
ORDER = ["length", "score", "win", "outcome", "measure", "rule", "action", "rule seat"]


def _rate(m: dict) -> bool:
    return m["group"] in ("win", "outcome")


def changed_line(m: dict) -> str:
    """One significant metric as a sentence: label, both sides, difference, interval, p."""
    if _rate(m):
        sides, diff, ci = f"{pct(m['a'])} → {pct(m['b'])}", pp(m["diff"]), interval(m["low"], m["high"], pp)
        relative = ""
    else:
        sides, diff = f"{num(m['a'])} → {num(m['b'])}", num(m["diff"], sign=True)
        ci = interval(m["low"], m["high"], lambda x: num(x, sign=True))
        # "57% longer" reads well for a length or a score, not for a rule worth -0.04 points
        relative = f", {100 * (m['b'] / m['a'] - 1):+.0f}%" if m["group"] in RELATIVE and m["a"] > 0 else ""
    return f"{m['label']}: {sides} ({diff}{relative}; 95% CI {ci}; p (Holm) {pval(m['p_adjusted'])})"


def compare_findings(c: dict) -> list[str]:
    """The opening lines of a comparison."""
    a, b = c["sides"]
    agents = ", ".join(c.get("agents") or []) or "?"
    both = f"; both sides: {c['fixed']}" if c.get("fixed") else ""
    lines = [
        f"{b} against {a}: {c['pairs']} games paired by seed (agents: {agents}{both}); "
        f"{c['tests']} tests, p-values adjusted by Holm's method."
    ]
    metrics = sorted(c["metrics"].values(), key=lambda m: ORDER.index(m["group"]) if m["group"] in ORDER else 99)
    changed = [m for m in metrics if m["significant"] and m["group"] not in DETAIL]
    if changed:
        lines.append("Changed:")
        lines += [f"  - {changed_line(m)}" for m in changed]
    else:
        lines.append("Nothing changed detectably.")
    steady = []
    for group, words in KEY_GROUPS.items():
        members = [m for m in metrics if m["group"] == group]
        if members and not any(m["significant"] for m in members):
            widest = max((m["detectable"] for m in members if m.get("detectable") is not None), default=None)
            if widest is None:
                steady.append(words)
            elif widest == 0:
                steady.append(f"{words} (the same in every game)")
            else:
                steady.append(f"{words} (a change under {_size(widest, group == 'win')} would likely go unseen)")
    # What the ruleset declares it wants counted (its `measure` rules) is named one by one, with
    # the difference seen: a designer asked about each, and a difference just short of the bar
    # is worth reading.
    for m in metrics:
        if m["group"] == "measure" and not m["significant"]:
            if m.get("detectable") == 0:
                steady.append(f"{m['label']} (the same in every game)")
            elif m.get("diff") is not None and m.get("p_adjusted") is not None:
                ci = interval(m["low"], m["high"], lambda x: num(x, sign=True))
                steady.append(
                    f"{m['label']} ({num(m['diff'], sign=True)}, 95% CI {ci}; p (Holm) {pval(m['p_adjusted'])})"
                )
    if steady:
        lines.append(f"No detectable change at n = {c['pairs']} in: " + "; ".join(steady) + ".")
    lines += [f"Warning: {w}" for w in c.get("warnings", [])]
    return lines


def summary_findings(s: dict) -> list[str]:
    """The opening lines of one side's summary: how long, who wins, seat advantage."""
    agents = ", ".join(s.get("agents") or []) or "?"
    players = "/".join(map(str, s["players"])) or "?"
    lines = [f"{s['ok']} games of {players} players (agents: {agents}), {s['errors']['count']} errors."]
    length = s["length"]
    if length.get("decisions", {}).get("n"):
        rounds = length.get("rounds") or {}
        more = f", {num(rounds['mean'])} rounds" if rounds.get("n") else ""
        cost = f" and {_cpu(length['cpu']['mean'])} of one core" if length.get("cpu", {}).get("n") else ""
        lines.append(f"A game takes {num(length['decisions']['mean'])} decisions on average{more}{cost}.")
    tested = [seat for seat in s["seats"] if seat.get("p_fair_adjusted") is not None]
    if tested:
        uneven = [seat for seat in tested if seat["p_fair_adjusted"] < inference.ALPHA]
        fair = pct(tested[0]["fair"])
        if uneven:
            lines += [
                f"Seat advantage: P{seat['seat'] + 1} wins {pct(seat['win_rate']['p'])} against an even "
                f"{fair} (p (Holm) {pval(seat['p_fair_adjusted'])})."
                for seat in uneven
            ]
        else:
            lines.append(f"No seat wins detectably more or less than an even {fair} (n = {tested[0]['games']}).")
    if s["ok"] < inference.FEW:
        lines.append(f"Warning: only {s['ok']} games: intervals this wide say little; play at least {inference.FEW}.")
    return lines


def _size(x: float, rate: bool) -> str:
    return f"±{100 * x:.1f}pp" if rate else f"±{num(x)}"


def _cpu(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
