"""Designer metrics over rows: who benefits from going first, how close and how settled games are,
which scoring category decides them, and which choices players take or pass over.

Each is defined here once, with its formula (docs/lab.md repeats them):

- first-player advantage: the win rate of the player who was first player when
  the first decision was asked (not always seat P1), tested against 1/players
  with the exact binomial test.
- margin: the winner's total minus the best total behind it, per game.
- lead changes: per game, how often the sole lead (by the score rules' totals
  after each decision) passed from one player to another.
- decisiveness: per game, the share of its decisions, counted from the end,
  through which the final winner held the sole lead without a break.
- rounds: a round is one pass through the phase a game entered most often;
  per round k, over the games that reached its end: the mean total of every
  player when it ended, of the game's final winners and of the others (how
  scores grow, and when the winners get ahead).
- deciding category: per score rule, the mean points of the winners minus the
  mean points of the others, divided by the pooled standard deviation of that
  rule's points (Cohen's d); the largest |d| separates winners best.
- picks: per decision and thing offered, times offered and taken (all seats,
  and per seat), the take rate, and the win rate of a seat in games where it
  took the thing at least once against games where it was offered it and never
  took it. "Never taken": offered at least MIN_OFFERED times and never taken;
  "always taken": offered at least MIN_OFFERED times and taken every time.
"""

from __future__ import annotations

import math

from meeple.interpreter.lab import inference
from meeple.interpreter.lab.estimates import describe, mean, sd, wilson

MIN_OFFERED = 5


def win_share(row: dict, seat: int) -> float:
    """A seat's win in one game: the game's own outcome where it declares one, else a first place
    shared by k counting 1/k."""
    if row.get("win") is not None:
        return 1.0 if row["win"][seat] else 0.0
    winners = row.get("winners") or []
    return 1.0 / len(winners) if seat in winners else 0.0


def first_player(ok: list) -> dict | None:
    """The first player's win rate and its test against an even share (None for solo games)."""
    games = [r for r in ok if r.get("first_player") is not None and len(r["scores"]) > 1]
    if not games:
        return None
    wins = math.fsum(win_share(r, r["first_player"]) for r in games)
    fair = 1 / len(games[0]["scores"])
    p, low, high = wilson(wins, len(games))
    return {
        "games": len(games),
        "wins": wins,
        "rate": p,
        "low": low,
        "high": high,
        "fair": fair,
        "p": inference.binomial_test(wins, len(games), fair),
    }


def closeness(ok: list) -> dict:
    """Margin, lead changes and decisiveness, each described over the games that have it."""
    many = [r for r in ok if len(r["scores"]) > 1]
    return {key: describe(r.get(key) for r in many) for key in ("margin", "lead_changes", "lead_for_good")}


def per_round(ok: list) -> dict | None:
    """The totals at the end of each round: per round, the games that reached its end and the mean
    total of all players, of the final winners and of the others (None if no row has rounds)."""
    games = [r for r in ok if r.get("round_totals")]
    if not games:
        return None
    phases = [r["round_phase"] for r in games]
    phase = max(dict.fromkeys(phases), key=phases.count)
    games = [r for r in games if r["round_phase"] == phase]
    out = []
    for k in range(max(len(r["round_totals"]) for r in games)):
        everyone, ahead, behind = list[float](), list[float](), list[float]()
        for r in games:
            if k < len(r["round_totals"]):
                winners = set(r.get("winners") or [])
                for seat, total in enumerate(r["round_totals"][k]):
                    everyone.append(total)
                    (ahead if seat in winners else behind).append(total)
        out.append(
            {
                "round": k + 1,
                "games": sum(1 for r in games if k < len(r["round_totals"])),
                "all": mean(everyone),
                "winners": mean(ahead),
                "others": mean(behind),
            }
        )
    return {"phase": phase, "rounds": out}


def deciding(ok: list, labels: list) -> list[dict]:
    """Per score rule: winners' and others' mean points and Cohen's d, the largest |d| first."""
    out = []
    for label in labels:
        ahead, behind = list[float](), list[float]()
        for r in ok:
            winners = set(r.get("winners") or [])
            for seat, rules in enumerate(r.get("breakdown") or []):
                (ahead if seat in winners else behind).append((rules or {}).get(label, 0))
        s_ahead, s_behind, m_ahead, m_behind = sd(ahead), sd(behind), mean(ahead), mean(behind)
        if s_ahead is None or s_behind is None or m_ahead is None or m_behind is None:  # fewer than two
            continue
        pooled = math.sqrt(
            ((len(ahead) - 1) * s_ahead**2 + (len(behind) - 1) * s_behind**2) / (len(ahead) + len(behind) - 2)
        )
        d = (m_ahead - m_behind) / pooled if pooled else None
        out.append({"rule": label, "winners": m_ahead, "others": m_behind, "d": d})
    return sorted(out, key=lambda x: -abs(x["d"]) if x["d"] is not None else 0)


def picks(ok: list) -> list[dict]:
    """The choice records of every game, merged: one entry per decision, its things by times offered."""
    merged: dict = {}
    for r in ok:
        for line, entry in (r.get("picks") or {}).items():
            into = merged.setdefault(line, {"title": entry["title"], "things": {}})
            for thing, seats in entry["things"].items():
                per = into["things"].setdefault(
                    thing, {"seats": [[0, 0] for _ in seats], "taken_wins": [], "passed_wins": []}
                )
                for seat, (offered, taken) in enumerate(seats):
                    per["seats"][seat][0] += offered
                    per["seats"][seat][1] += taken
                    if offered:
                        (per["taken_wins"] if taken else per["passed_wins"]).append(win_share(r, seat))
    out = []
    for line, entry in sorted(merged.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0):
        things = {}
        for thing, per in entry["things"].items():
            offered = sum(o for o, _ in per["seats"])
            taken = sum(t for _, t in per["seats"])
            things[thing] = {
                "offered": offered,
                "taken": taken,
                "rate": taken / offered if offered else None,
                "seats": per["seats"],
                "win_taken": mean(per["taken_wins"]),
                "win_passed": mean(per["passed_wins"]),
                "games_taken": len(per["taken_wins"]),
                "games_passed": len(per["passed_wins"]),
            }
        ordered = dict(
            sorted(things.items(), key=lambda kv: (kv[1]["rate"] if kv[1]["rate"] is not None else 2, kv[0]))
        )
        out.append(
            {
                "line": line,
                "title": entry["title"],
                "things": ordered,
                "never": [t for t, d in ordered.items() if d["offered"] >= MIN_OFFERED and d["taken"] == 0],
                "always": [t for t, d in ordered.items() if d["offered"] >= MIN_OFFERED and d["taken"] == d["offered"]],
            }
        )
    return out
