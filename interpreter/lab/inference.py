"""Sound reading of many tests at once: adjusted p-values, paired-rate intervals, effect sizes, power.

A report tests dozens of figures; at p < 0.05 one in twenty moves by chance.
So every p-value a report shows comes with Holm's adjustment across all the
tests of that report (Holm 1979: sort the m p-values, multiply the i-th
smallest by m - i + 1, keep the running maximum, cap at 1), and a figure is
flagged only when its adjusted p is below 0.05. Holm controls the chance of
even one false flag, whatever the tests' dependence, and is never weaker than
Bonferroni.

A difference of two rates measured on the same seeds gets Newcombe's hybrid
score interval for paired proportions (Newcombe 1998, method 10): each side's
Wilson interval, combined through the correlation of the paired outcomes; it
stays inside [-100pp, +100pp] where a t interval on 0/1 differences does not.

Power: for a paired difference with standard deviation s over n pairs, the
smallest difference a two-sided test at 5% finds with 80% power is
(z(0.975) + z(0.8)) * s / sqrt(n); a difference d needs
((z(0.975) + z(0.8)) * s / d)^2 pairs (the normal approximation).
"""

from __future__ import annotations

import math
from statistics import NormalDist

from meeple.interpreter.lab.estimates import mean, sd, wilson

ALPHA = 0.05
POWER = 0.8
Z = NormalDist().inv_cdf(1 - ALPHA / 2) + NormalDist().inv_cdf(POWER)  # 1.96 + 0.84
FEW = 20  # fewer paired games than this: an interval says little, and the report says so


def holm(pvalues: list) -> list:
    """Holm's step-down adjusted p-values, in the order given (None stays None)."""
    indexed = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(indexed)
    out: list = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(indexed):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def _phi(xs: list, ys: list) -> float:
    """Newcombe's continuity-corrected phi of the paired 2 x 2 table (fractional counts for shared wins)."""
    n = len(xs)
    both = math.fsum(x * y for x, y in zip(xs, ys))
    only_x = math.fsum(x * (1 - y) for x, y in zip(xs, ys))
    only_y = math.fsum((1 - x) * y for x, y in zip(xs, ys))
    neither = n - both - only_x - only_y
    margins = (both + only_x) * (only_y + neither) * (both + only_y) * (only_x + neither)
    if margins <= 0:
        return 0.0
    b = both * neither - only_x * only_y
    c = b - n / 2 if b > n / 2 else b if b < 0 else 0.0
    return c / math.sqrt(margins)


def paired_rates(xs: list, ys: list) -> tuple:
    """(difference y - x, low, high): Newcombe's interval for two rates on the same games.

    Values are 0..1 per game (a shared first place counts 1/k)."""
    n = len(xs)
    if n == 0:
        return None, None, None
    p1, l1, u1 = wilson(math.fsum(ys), n)  # Newcombe's first proportion is the side the difference adds
    p2, l2, u2 = wilson(math.fsum(xs), n)
    phi = _phi(ys, xs)
    diff = p1 - p2
    low = diff - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = diff + math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    return diff, max(-1.0, low), min(1.0, high)


def effect_size(diffs: list) -> float | None:
    """Cohen's d for paired data (d_z): the mean difference in standard deviations of the differences."""
    s, m = sd(diffs), mean(diffs)
    if s is None or s == 0 or m is None:  # (m is a number wherever s is)
        return None
    return m / s


def detectable(spread: float | None, n: int) -> float | None:
    """The smallest difference that n pairs with this spread of differences find with 80% power."""
    if spread is None or n < 2:
        return None
    return Z * spread / math.sqrt(n)


def games_needed(spread: float | None, difference: float) -> int | None:
    """Pairs needed to find `difference` with 80% power at 5% (two-sided)."""
    if spread is None or difference == 0:
        return None
    return max(2, math.ceil((Z * spread / abs(difference)) ** 2))


def binomial_test(successes: float, n: int, p0: float) -> float | None:
    """Two-sided exact binomial p-value of `successes` in n against rate p0 (shared wins rounded)."""
    if n == 0:
        return None
    k = round(successes)

    def pmf(i: int) -> float:
        return math.exp(
            math.lgamma(n + 1)
            - math.lgamma(i + 1)
            - math.lgamma(n - i + 1)
            + (i * math.log(p0) if i else 0.0)
            + ((n - i) * math.log1p(-p0) if n - i else 0.0)
        )

    observed = pmf(k)
    return min(1.0, math.fsum(q for i in range(n + 1) if (q := pmf(i)) <= observed * (1 + 1e-7)))
