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
  the paired t-test and t interval of the per-seed differences, and its effect
  size (Cohen's d_z). A rate (each seat's win rate, shared first places,
  tie-breaks) gets Newcombe's paired interval, and its p-value is the exact
  McNemar test: a two-sided binomial sign test over the seeds whose outcome
  changed. Every p-value of a comparison is also adjusted by Holm's method
  across all the tests of its main table (the rows `--detail` adds, per seat
  and per thing, are a second family adjusted on their own), and
  "significant" means an adjusted p < 0.05
  (interpreter/lab/inference.py). "detectable" is the smallest difference the
  run finds with 80% power.
- A summary tests each seat's win rate against 1/players (the exact binomial
  test, Holm-adjusted across the seats): seat advantage.
"""

from __future__ import annotations

import math

from meeple.interpreter.lab import designer, inference
from meeple.interpreter.lab.designer import win_share
from meeple.interpreter.lab.estimates import (  # noqa: F401 (the lab's basic estimates, also read from here)
    betainc,
    describe,
    mcnemar,
    mean,
    mean_ci,
    paired_t,
    quantile,
    sd,
    t_pvalue,
    t_quantile,
    wilson,
)

ALPHA = 0.05
DETAIL = ("rule seat", "measure seat", "measure thing")  # rows shown with --detail, adjusted as their own family
ERRORS_SHOWN = 5
NOTES = [
    "win rate: the game's outcome where it declares one, else a first place (shared by k: 1/k each); "
    "95% Wilson interval",
    "means: 95% Student t interval; sd is the sample standard deviation",
    "compare: games paired by seed (both sides without error); differences are b - a",
    "p: paired t-test for means, exact McNemar (sign) test for rates; p (Holm): adjusted across the main table "
    "(the detail rows: a family of their own); * marks an adjusted p < 0.05",
    "rates: Newcombe's paired interval; effect: Cohen's d_z; detectable: the smallest difference this many "
    "games find with 80% power",
]


# ---------------------------------------------------------------- rows


def is_ok(row: dict) -> bool:
    """A game that finished and was scored."""
    return not row.get("error") and row.get("scores") is not None


def _rule(row: dict, seat: int, label: str):
    breakdown = row.get("breakdown") or []
    return (breakdown[seat] or {}).get(label, 0) if seat < len(breakdown) else None


def _measure(row: dict, seat: int, label: str):
    values = (row.get("measures") or {}).get(label)
    return values[seat] if values is not None and seat < len(values) else None


def _measure_mean(row: dict, label: str):
    """A measure per game: its mean over the seats (for a figure of the whole game, its value)."""
    values = (row.get("measures") or {}).get(label)
    return mean(values) if values else None


def _listing(rows, label: str) -> bool:
    """Whether a measure lists things (each card played) rather than counting."""
    return any(isinstance(v, list) for r in rows for v in (r.get("measures") or {}).get(label) or ())


def _things(row: dict, label: str) -> dict:
    """A listing measure in one game: how many times each thing was listed, all seats together."""
    out: dict = {}
    for listed in (row.get("measures") or {}).get(label) or ():
        for thing in listed:
            out[thing] = out.get(thing, 0) + 1
    return out


def _things_tables(ok: list, labels: list) -> list[dict]:
    """The listing measures as tables, one per kind of thing (cards held and cards played side
    by side): per thing, how often each measure listed it and in how many games; each later measure
    also as a share of the first (played per held). A measure that never listed anything is noted alone."""
    kinds: dict = {}
    for r in ok:
        for label, kind in (r.get("measure_kinds") or {}).items():
            kinds.setdefault(label, kind)
    groups: dict = {}
    for label in labels:
        groups.setdefault(kinds.get(label, f"? {label}"), []).append(label)
    out = []
    for kind, members in groups.items():
        counts = {label: [_things(r, label) for r in ok] for label in members}
        total: dict = {label: {} for label in members}
        for label in members:
            for c in counts[label]:
                for t, n in c.items():
                    total[label][t] = total[label].get(t, 0) + n
        first = members[0]
        names = sorted({t for label in members for t in total[label]}, key=lambda t: (-total[first].get(t, 0), t))
        rows = {
            t: {
                label: {"count": total[label].get(t, 0), "games": sum(1 for c in counts[label] if t in c)}
                for label in members
            }
            for t in names
        }
        out.append(
            {"kind": kind if not kind.startswith("? ") else None, "measures": members, "things": rows, "games": len(ok)}
        )
    return out


def _labels(rows, key: str) -> list:
    """Keys of a per-row dict (or list of dicts), in order of first appearance."""
    seen = {}
    for r in rows:
        value = r.get(key) or {}
        for d in value if isinstance(value, list) else [value]:
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
    by_outcome = any(r.get("win") is not None for r in ok)
    seats = []
    for s in range(max((len(r["scores"]) for r in ok), default=0)):
        games = [r for r in ok if s < len(r["scores"])]
        wins = math.fsum(win_share(r, s) for r in games)
        p, low, high = wilson(wins, len(games))
        # seat advantage: each seat's rate against an even share (not for a game's own outcome, or solo)
        fair = 1 / len(games[0]["scores"]) if games and not by_outcome and len(games[0]["scores"]) > 1 else None
        seats.append(
            {
                "seat": s,
                "games": len(games),
                "wins": wins,
                "win_rate": {"p": p, "low": low, "high": high},
                "fair": fair,
                "p_fair": inference.binomial_test(wins, len(games), fair) if fair else None,
                "score": describe(r["scores"][s] for r in games),
                "rules": {k: describe(_rule(r, s, k) for r in games) for k in labels},
            }
        )
    for seat, p in zip(seats, inference.holm([seat["p_fair"] for seat in seats])):
        seat["p_fair_adjusted"] = p
    rules = {k: describe(_rule(r, s, k) for r in ok for s in range(len(r["scores"]))) for k in labels}
    measure_labels = _labels(ok, "measures")
    measures = {
        k: {
            "per_seat": describe(_measure_mean(r, k) for r in ok),
            "seats": [describe(_measure(r, s, k) for r in ok) for s in range(len(seats))],
        }
        for k in measure_labels
        if not _listing(ok, k)
    }
    things = _things_tables(ok, [k for k in measure_labels if _listing(ok, k)])
    draws = sum(1 for r in ok if len(r.get("winners") or []) > 1)
    tiebreaks = sum(1 for r in ok if r.get("tiebreak_used"))
    actions = {}
    for name in sorted(_labels(ok, "actions")):
        counts = [(r.get("actions") or {}).get(name, 0) for r in ok]
        used = sum(1 for c in counts if c)
        actions[name] = {"mean": mean(counts), "sd": sd(counts), "games_used": used, "used_share": used / n}
    return {
        "kind": "summary",
        "ruleset": _first(rows, "ruleset"),
        "side": _first(rows, "side", "base"),
        "games": len(rows),
        "agents": _first(rows, "agents", []),
        "ok": n,
        "players": sorted({r["players"] for r in rows if r.get("players") is not None}),
        "errors": {
            "count": len(bad),
            "first": [{"seed": r.get("seed"), "error": r.get("error") or "no scores"} for r in bad[:ERRORS_SHOWN]],
        },
        "seats": seats,
        "rules": rules,
        "measures": measures,
        "things": things,
        "first_player": designer.first_player(ok),
        "closeness": designer.closeness(ok),
        "per_round": designer.per_round(ok),
        "deciding": designer.deciding(ok, labels),
        "picks": designer.picks(ok),
        "wins_from": "outcome" if by_outcome else "place",
        "draws": _rate(draws, n),
        "tiebreaks": _rate(tiebreaks, n),
        "length": {
            k: describe(r.get(k) for r in ok)
            for k in ("steps", "decisions", "turns", "rounds", "branching", "seconds", "cpu")
        },
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
        if not xy:  # a figure these rows do not have (rows of an older meeple, a solo game's margin)
            return
        diffs = [y - x for x, y in xy]
        res = paired_t(diffs)
        if rate and diffs:
            res["p"] = mcnemar(sum(1 for v in diffs if v > 0), sum(1 for v in diffs if v < 0))
            res["diff"], res["low"], res["high"] = inference.paired_rates([x for x, _ in xy], [y for _, y in xy])
        metrics[key] = {
            "label": label,
            "group": group,
            "n": res["n"],
            "a": mean(x for x, _ in xy),
            "b": mean(y for _, y in xy),
            "diff": res["diff"],
            "low": res["low"],
            "high": res["high"],
            "p": res["p"],
            "test": "McNemar" if rate else "paired t",
            "effect": None if rate else inference.effect_size(diffs),
            "sd_diff": sd(diffs),
            "detectable": inference.detectable(sd(diffs), len(diffs)),
        }

    def seat_value(f, s):
        return lambda r: f(r, s) if s < len(r["scores"]) else None

    seats = max((len(r["scores"]) for pair in pairs for r in pair), default=0)
    rule_labels = _labels([r for pair in pairs for r in pair], "breakdown")
    for s in range(seats):
        add(f"score/{s}", f"score P{s + 1}", "score", seat_value(lambda r, s: r["scores"][s], s))
    for s in range(seats):  # seat 0's is the first player's win rate
        add(f"win/{s}", f"win rate P{s + 1}", "win", seat_value(win_share, s), rate=True)
    add(
        "first/win",
        "first player's win rate",
        "win",
        lambda r: win_share(r, r["first_player"]) if r.get("first_player") is not None and seats > 1 else None,
        rate=True,
    )
    add("draws", "shared first place", "outcome", lambda r: 1 if len(r.get("winners") or []) > 1 else 0, rate=True)
    add("tiebreaks", "tie-break used", "outcome", lambda r: 1 if r.get("tiebreak_used") else 0, rate=True)
    for k in rule_labels:
        add(
            f"rule/{k}",
            f"rule {k} (per seat)",
            "rule",
            lambda r, k=k: mean(_rule(r, s, k) for s in range(len(r["scores"]))) if r.get("breakdown") else None,
        )
    for k in rule_labels:
        for s in range(seats):
            add(f"rule/{k}/{s}", f"rule {k} P{s + 1}", "rule seat", seat_value(lambda r, s, k=k: _rule(r, s, k), s))
    paired = [r for pair in pairs for r in pair]
    measure_labels = _labels(paired, "measures")
    counted = [k for k in measure_labels if not _listing(paired, k)]
    for k in counted:
        add(f"measure/{k}", f"{k} (per seat)", "measure", lambda r, k=k: _measure_mean(r, k))
    for k in [k for k in measure_labels if _listing(paired, k)]:
        add(f"measure/{k}", f"{k} (things per game)", "measure", lambda r, k=k: sum(_things(r, k).values()))
        for t in sorted({t for r in paired for t in _things(r, k)}):
            add(f"measure/{k}/{t}", f"{k}: {t} per game", "measure thing", lambda r, k=k, t=t: _things(r, k).get(t, 0))
    for k in counted:
        for s in range(seats):
            add(f"measure/{k}/{s}", f"{k} P{s + 1}", "measure seat", seat_value(lambda r, s, k=k: _measure(r, s, k), s))
    for key, label in (
        ("steps", "length (steps)"),
        ("decisions", "decisions"),
        ("turns", "phases entered"),
        ("rounds", "rounds"),
        ("branching", "branching"),
    ):
        add(key, label, "length", lambda r, key=key: r.get(key))
    for key, label in (
        ("margin", "winning margin"),
        ("lead_changes", "lead changes"),
        ("lead_for_good", "decisiveness (share led for good)"),
    ):
        add(key, label, "closeness", lambda r, key=key: r.get(key) if len(r["scores"]) > 1 else None)
    for name in sorted(_labels([r for pair in pairs for r in pair], "actions")):
        add(
            f"action/{name}",
            f"action {name} per game",
            "action",
            lambda r, name=name: (r.get("actions") or {}).get(name, 0),
        )
    # Two families of tests, each adjusted on its own: the report's main table, and the detail rows
    # (per seat, per thing) that --detail shows; hundreds of detail rows would drown the main ones.
    for family in (False, True):
        members = [m for m in metrics.values() if (m["group"] in DETAIL) == family]
        for m, p in zip(members, inference.holm([m["p"] for m in members])):
            m["p_adjusted"] = p
            m["significant"] = p is not None and p < ALPHA
    warnings = []
    if len(pairs) < inference.FEW:
        warnings.append(
            f"only {len(pairs)} games paired by seed: intervals this wide say little; "
            f"play at least {inference.FEW} (the 'detectable' column says what a run finds)"
        )
    return {
        "kind": "compare",
        "tests": sum(1 for m in metrics.values() if m["p"] is not None and m["group"] not in DETAIL),
        "warnings": warnings,
        "agents": _first(rows_a, "agents", []),
        "ruleset": _first(rows_a, "ruleset"),
        "sides": list(labels),
        "pairs": len(pairs),
        "only_a": sum(1 for s in a_rows if s not in b_rows),
        "only_b": sum(1 for s in b_rows if s not in a_rows),
        "errors_a": sum(1 for r in rows_a if not is_ok(r)),
        "errors_b": sum(1 for r in rows_b if not is_ok(r)),
        "metrics": metrics,
    }
