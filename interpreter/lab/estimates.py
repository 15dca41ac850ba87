"""Basic estimates over plain lists of numbers: means, spreads, quantiles, intervals and two tests.

Pure functions with no dependencies (Student's t is computed here, through the
regularized incomplete beta function, so small samples get honest intervals
without scipy). interpreter/lab/stats.py reads rows with them;
interpreter/lab/inference.py builds the report-wide corrections on them.
"""

from __future__ import annotations

import math
from functools import lru_cache


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
        for aa in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
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
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
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
    if s is None or m is None:  # (two values or more have both)
        return m, None, None
    half = t_quantile(0.5 + level / 2.0, len(xs) - 1) * s / math.sqrt(len(xs))
    return m, m - half, m + half


def describe(xs) -> dict:
    """n, mean with its 95% interval, sd, min, quartiles, max (None when empty)."""
    xs = [x for x in xs if x is not None]
    m, low, high = mean_ci(xs)
    return {
        "n": len(xs),
        "mean": m,
        "low": low,
        "high": high,
        "sd": sd(xs),
        "min": min(xs, default=None),
        "q25": quantile(xs, 0.25),
        "median": quantile(xs, 0.5),
        "q75": quantile(xs, 0.75),
        "max": max(xs, default=None),
    }


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
