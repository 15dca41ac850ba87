"""Statistics over played games: pure functions over rows (one plain dict per game).

The choices, stated once (NOTES repeats them under every table):

- Win rate: where the game declares an `outcome` (solo, cooperative, against an
  automaton), a win is what the outcome says. Otherwise it is a first place:
  one shared by k seats counts 1/k of a win for each
  ("fractional wins"), so the seats' rates add up to 1 per game; its interval
  is Wilson's (z = 1.96) on that proportion, exact Wilson when nobody shares a
  win. Shared first places are also counted on their own, as the draw rate.
- Spread: sample standard deviation (n - 1). Quantiles: linear between order
  statistics (numpy's default).
- Mean intervals: Student's t with n - 1 degrees of freedom, its distribution
  computed here (regularized incomplete beta, continued fraction; no scipy), so
  small samples get honest intervals; for n >= 30 it is close to the normal one.
- `compare` pairs the sides' games by seed (seeds without an error on both
  sides; a repeated seed: its first row); differences are b - a. A mean gets
  the paired t-test and t interval of the per-seed differences. A rate (each
  seat's win rate, shared first places, tie-breaks) gets the same interval, but
  its p-value is the exact McNemar test: a two-sided binomial sign test over
  the seeds whose outcome changed. "significant" means p < 0.05.
"""
from __future__ import annotations

import math
from functools import lru_cache

ALPHA = 0.05
ERRORS_SHOWN = 5
NOTES = [
    "win rate: the game's outcome where it declares one, else a first place (shared by k: 1/k each); "
    "95% Wilson interval",
    "means: 95% Student t interval; sd is the sample standard deviation",
    "compare: games paired by seed (both sides without error); differences are b - a",
    "p: paired t-test for means, exact McNemar (sign) test for rates; * marks p < 0.05",
]


# ---------------------------------------------------------------- basic statistics

def mean(xs) -> float | None:
    xs = list(xs)
    return math.fsum(xs) / len(xs) if xs else None


def sd(xs) -> float | None:
    """Sample standard deviation (n - 1); None below two values."""
    xs = list(xs)
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else None


def quantile(xs, q: float) -> float | None:
    """The q-quantile, linear between order statistics (numpy's default)."""
    if not (s := sorted(xs)):
        return None
    h = (len(s) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 20000):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_pvalue(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic with df degrees of freedom."""
    return 0.0 if math.isinf(t) else min(1.0, betainc(df / 2.0, 0.5, df / (df + t * t)))


@lru_cache(maxsize=256)
def t_quantile(p: float, df: float) -> float:
    """The p-quantile (p > 0.5) of Student's t, by bisection on t_pvalue."""
    alpha = 2.0 * (1.0 - p)
    lo, hi = 0.0, 2.0
    while t_pvalue(hi, df) > alpha:
        lo, hi = hi, hi * 2.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if t_pvalue(mid, df) > alpha else (lo, mid)
    return (lo + hi) / 2.0


def mean_ci(xs, level: float = 0.95) -> tuple:
    """(mean, low, high): Student t interval; low/high None below two values."""
    xs = list(xs)
    m, s = mean(xs), sd(xs)
    if s is None:
        return m, None, None
    half = t_quantile(0.5 + level / 2.0, len(xs) - 1) * s / math.sqrt(len(xs))
    return m, m - half, m + half


def describe(xs) -> dict:
    """n, mean with its 95% interval, sd, min, quartiles, max (None when empty)."""
    xs = [x for x in xs if x is not None]
    m, low, high = mean_ci(xs)
    return {"n": len(xs), "mean": m, "low": low, "high": high, "sd": sd(xs),
            "min": min(xs, default=None), "q25": quantile(xs, 0.25), "median": quantile(xs, 0.5),
            "q75": quantile(xs, 0.75), "max": max(xs, default=None)}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple:
    """(p, low, high): the proportion and its Wilson score interval.

    `successes` may be fractional (shared wins count 1/k); (None, None, None) if n == 0."""
    if n <= 0:
        return None, None, None
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def paired_t(diffs) -> dict:
    """Mean of paired differences, its 95% t interval and the paired t-test p-value."""
    d = list(diffs)
    m, low, high = mean_ci(d)
    s = sd(d)
    if s is None:
        p = None
    elif s == 0.0:
        p = 1.0 if m == 0 else 0.0  # every pair moved by exactly the same amount
    else:
        p = t_pvalue(abs(m) / (s / math.sqrt(len(d))), len(d) - 1)
    return {"n": len(d), "diff": m, "low": low, "high": high, "p": p}


def mcnemar(up: int, down: int) -> float:
    """Exact two-sided McNemar p: binomial sign test over the changed pairs (1.0 if none changed)."""
    k = min(up, down)  # P(X <= k) for X ~ Binomial(up + down, 1/2) is I_{1/2}(up + down - k, k + 1)
    return 1.0 if up == down else min(1.0, 2.0 * betainc(up + down - k, k + 1, 0.5))


# ---------------------------------------------------------------- rows

def is_ok(row: dict) -> bool:
    """A game that finished and was scored."""
    return not row.get("error") and row.get("scores") is not None


def _win_share(row: dict, seat: int) -> float:
    if row.get("win") is not None:  # the game's declared outcome
        return 1.0 if row["win"][seat] else 0.0
    winners = row.get("winners") or []
    return 1.0 / len(winners) if seat in winners else 0.0


def _rule(row: dict, seat: int, label: str):
    breakdown = row.get("breakdown") or []
    return (breakdown[seat] or {}).get(label, 0) if seat < len(breakdown) else None


def _labels(rows, key: str) -> list:
    """Keys of a per-row dict (or list of dicts), in order of first appearance."""
    seen = {}
    for r in rows:
        value = r.get(key) or {}
        for d in (value if isinstance(value, list) else [value]):
            seen.update(dict.fromkeys(d or {}))
    return list(seen)


def _first(rows, key: str, default=None):
    return next((r[key] for r in rows if r.get(key) is not None), default)


def summarize(rows) -> dict:
    """Everything one side's games say: outcomes per seat, rules, length, actions, errors."""
    rows = list(rows)
    ok = [r for r in rows if is_ok(r)]
    bad = [r for r in rows if not is_ok(r)]
    n = len(ok)
    labels = _labels(ok, "breakdown")
    seats = []
    for s in range(max((len(r["scores"]) for r in ok), default=0)):
        games = [r for r in ok if s < len(r["scores"])]
        wins = math.fsum(_win_share(r, s) for r in games)
        p, low, high = wilson(wins, len(games))
        seats.append({"seat": s, "games": len(games), "wins": wins,
                      "win_rate": {"p": p, "low": low, "high": high},
                      "score": describe(r["scores"][s] for r in games),
                      "rules": {k: describe(_rule(r, s, k) for r in games) for k in labels}})
    rules = {k: describe(_rule(r, s, k) for r in ok for s in range(len(r["scores"]))) for k in labels}
    draws = sum(1 for r in ok if len(r.get("winners") or []) > 1)
    tiebreaks = sum(1 for r in ok if r.get("tiebreak_used"))
    actions = {}
    for name in sorted(_labels(ok, "actions")):
        counts = [(r.get("actions") or {}).get(name, 0) for r in ok]
        used = sum(1 for c in counts if c)
        actions[name] = {"mean": mean(counts), "sd": sd(counts), "games_used": used, "used_share": used / n}
    return {
        "kind": "summary", "ruleset": _first(rows, "ruleset"), "side": _first(rows, "side", "base"), "games": len(rows),
        "ok": n, "players": sorted({r["players"] for r in rows if r.get("players") is not None}),
        "errors": {"count": len(bad), "first": [{"seed": r.get("seed"), "error": r.get("error") or "no scores"}
                                                for r in bad[:ERRORS_SHOWN]]},
        "seats": seats, "rules": rules,
        "wins_from": "outcome" if any(r.get("win") is not None for r in ok) else "place",
        "draws": _rate(draws, n), "tiebreaks": _rate(tiebreaks, n),
        "length": {k: describe(r.get(k) for r in ok) for k in ("steps", "decisions", "turns", "branching", "seconds")},
        "actions": actions,
    }


def _rate(count: int, n: int) -> dict:
    p, low, high = wilson(count, n)
    return {"count": count, "rate": p, "low": low, "high": high}


def compare(rows_a, rows_b, labels: tuple | None = None) -> dict:
    """Side b against side a on the same seeds: mean differences (b - a), intervals, p-values."""
    rows_a, rows_b = list(rows_a), list(rows_b)
    # by seed, the first row of a repeated seed winning (written last)
    a_rows, b_rows = ({r.get("seed"): r for r in reversed(rows) if is_ok(r)} for rows in (rows_a, rows_b))
    pairs = [(a_rows[s], b_rows[s]) for s in a_rows if s in b_rows]
    if labels is None:
        labels = (_first(rows_a, "side", "a"), _first(rows_b, "side", "b"))
        labels = labels if labels[0] != labels[1] else (f"a: {labels[0]}", f"b: {labels[1]}")
    metrics = {}

    def add(key, label, group, value, rate=False):
        xy = [(value(a), value(b)) for a, b in pairs]
        xy = [(x, y) for x, y in xy if x is not None and y is not None]
        diffs = [y - x for x, y in xy]
        res = paired_t(diffs)
        if rate and diffs:
            res["p"] = mcnemar(sum(1 for v in diffs if v > 0), sum(1 for v in diffs if v < 0))
        metrics[key] = {"label": label, "group": group, "n": res["n"],
                        "a": mean(x for x, _ in xy), "b": mean(y for _, y in xy),
                        "diff": res["diff"], "low": res["low"], "high": res["high"], "p": res["p"],
                        "test": "McNemar" if rate else "paired t",
                        "significant": res["p"] is not None and res["p"] < ALPHA}

    def seat_value(f, s):
        return lambda r: f(r, s) if s < len(r["scores"]) else None

    seats = max((len(r["scores"]) for pair in pairs for r in pair), default=0)
    rule_labels = _labels([r for pair in pairs for r in pair], "breakdown")
    for s in range(seats):
        add(f"score/{s}", f"score P{s + 1}", "score", seat_value(lambda r, s: r["scores"][s], s))
    for s in range(seats):  # seat 0's is the first player's win rate
        add(f"win/{s}", f"win rate P{s + 1}", "win", seat_value(_win_share, s), rate=True)
    add("draws", "shared first place", "outcome", lambda r: 1 if len(r.get("winners") or []) > 1 else 0, rate=True)
    add("tiebreaks", "tie-break used", "outcome", lambda r: 1 if r.get("tiebreak_used") else 0, rate=True)
    for k in rule_labels:
        add(f"rule/{k}", f"rule {k} (per seat)", "rule",
            lambda r, k=k: mean(_rule(r, s, k) for s in range(len(r["scores"]))) if r.get("breakdown") else None)
    for k in rule_labels:
        for s in range(seats):
            add(f"rule/{k}/{s}", f"rule {k} P{s + 1}", "rule seat", seat_value(lambda r, s, k=k: _rule(r, s, k), s))
    for key, label in (("steps", "length (steps)"), ("decisions", "decisions"), ("turns", "turns"),
                       ("branching", "branching")):
        add(key, label, "length", lambda r, key=key: r.get(key))
    for name in sorted(_labels([r for pair in pairs for r in pair], "actions")):
        add(f"action/{name}", f"action {name} per game", "action",
            lambda r, name=name: (r.get("actions") or {}).get(name, 0))
    return {
        "kind": "compare", "ruleset": _first(rows_a, "ruleset"), "sides": list(labels), "pairs": len(pairs),
        "only_a": sum(1 for s in a_rows if s not in b_rows), "only_b": sum(1 for s in b_rows if s not in a_rows),
        "errors_a": sum(1 for r in rows_a if not is_ok(r)), "errors_b": sum(1 for r in rows_b if not is_ok(r)),
        "metrics": metrics,
    }
