"""The lab's results as text: a summary or a comparison (interpreter/lab/stats.py) as tables.

`summary_tables` and `compare_tables` give (title, headers, rows) of strings, which the
terminal prints aligned (`format_summary`, `format_compare`) and the HTML report
(interpreter/lab/report.py) writes as tables; numbers are right-aligned in both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from meeple.interpreter.lab.stats import DETAIL, NOTES


def num(x, digits: int = 2, sign: bool = False) -> str:
    if x is None:
        return "-"
    plus = "+" if sign else ""
    return f"{x:{plus}d}" if isinstance(x, int) and not isinstance(x, bool) else f"{x:{plus}.{digits}f}"


def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def pp(x) -> str:
    """A difference of two rates, in percentage points."""
    return "-" if x is None else f"{100 * x:+.1f}pp"


def pval(p) -> str:
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def _plus_minus(x, rate: bool) -> str:
    if x is None:
        return "-"
    return f"±{100 * x:.1f}pp" if rate else f"±{num(x)}"


def interval(low, high, fmt=num) -> str:
    return "-" if low is None or high is None else f"[{fmt(low)}, {fmt(high)}]"


def summary_tables(summary: dict) -> list:
    """[(title, headers, rows)]: the summary as tables of strings (terminal and HTML alike)."""
    seats = summary["seats"]
    quartiles = ("mean", "sd", "min", "q25", "median", "q75", "max")
    title = "Seats (a win is the game's own outcome)" if summary.get("wins_from") == "outcome" else "Seats"
    out = [
        (
            title,
            ["seat", "games", "wins", "win rate", "95% CI", "vs 1/n p (Holm)", *quartiles],
            [
                [
                    f"P{s['seat'] + 1}",
                    str(s["games"]),
                    num(s["wins"], 1),
                    pct(s["win_rate"]["p"]),
                    interval(s["win_rate"]["low"], s["win_rate"]["high"], pct),
                    pval(s.get("p_fair_adjusted")) + ("*" if (s.get("p_fair_adjusted") or 1) < 0.05 else ""),
                ]
                + [num(s["score"][k]) for k in quartiles]
                for s in seats
            ],
        )
    ]
    if summary["rules"]:
        out.append(
            (
                "Scoring rules (points per seat)",
                ["rule", "mean", "sd", "95% CI"] + [f"P{s['seat'] + 1}" for s in seats],
                [
                    [k, num(d["mean"]), num(d["sd"]), interval(d["low"], d["high"])]
                    + [num(s["rules"][k]["mean"]) for s in seats]
                    for k, d in summary["rules"].items()
                ],
            )
        )
    if summary.get("measures"):
        out.append(
            (
                "Measures (the ruleset's own, per seat at the game's end)",
                ["measure", "mean", "sd", "95% CI", "min", "max"] + [f"P{s['seat'] + 1}" for s in seats],
                [
                    [
                        k,
                        num(d["per_seat"]["mean"]),
                        num(d["per_seat"]["sd"]),
                        interval(d["per_seat"]["low"], d["per_seat"]["high"]),
                        num(d["per_seat"]["min"]),
                        num(d["per_seat"]["max"]),
                    ]
                    + [num(x["mean"]) for x in d["seats"]]
                    for k, d in summary["measures"].items()
                ],
            )
        )
    for group in summary.get("things") or []:
        out.append(_things_table(group))
    out.append(
        (
            "Outcomes",
            ["outcome", "games", "rate", "95% CI"],
            [
                [name, str(d["count"]), pct(d["rate"]), interval(d["low"], d["high"], pct)]
                for name, d in (("shared first place", summary["draws"]), ("tie-break used", summary["tiebreaks"]))
            ],
        )
    )
    out.append(
        (
            "Game",
            ["measure", "mean", "sd", "min", "q25", "median", "q75", "max"],
            [
                [
                    LENGTH_WORDS.get(k, k),
                    num(d["mean"]),
                    num(d["sd"]),
                    num(d["min"]),
                    num(d["q25"]),
                    num(d["median"]),
                    num(d["q75"]),
                    num(d["max"]),
                ]
                for k, d in summary["length"].items()
                if d["n"]
            ],
        )
    )
    out += _designer_tables(summary)
    if summary["actions"]:
        out.append(
            (
                "Actions",
                ["action", "per game", "sd", "games used", "share used"],
                [
                    [k, num(d["mean"]), num(d["sd"]), str(d["games_used"]), pct(d["used_share"])]
                    for k, d in summary["actions"].items()
                ],
            )
        )
    if summary["errors"]["count"]:
        out.append(
            (
                f"Errors (first {len(summary['errors']['first'])} of {summary['errors']['count']})",
                ["seed", "error"],
                [[str(e["seed"]), e["error"]] for e in summary["errors"]["first"]],
            )
        )
    return out


LENGTH_WORDS = {
    "turns": "phases entered",
    "rounds": "rounds (passes through the phase entered most)",
    "seconds": "seconds (wall)",
    "cpu": "CPU seconds",
}
CLOSENESS_WORDS = {
    "margin": "winning margin",
    "lead_changes": "lead changes",
    "lead_for_good": "decisiveness (share led for good)",
}
PICKS_SHOWN = 30  # things per decision in the text report (the JSON and HTML have them all)


def _designer_tables(summary: dict) -> list:
    """First player, closeness, the deciding category and the choice records (lab/designer.py)."""
    out = []
    first = summary.get("first_player")
    if first:
        out.append(
            (
                "First player (who was first player at the first decision)",
                ["games", "wins", "win rate", "95% CI", "even share", "p (binomial)"],
                [
                    [
                        str(first["games"]),
                        num(first["wins"], 1),
                        pct(first["rate"]),
                        interval(first["low"], first["high"], pct),
                        pct(first["fair"]),
                        pval(first["p"]),
                    ]
                ],
            )
        )
    close = {k: d for k, d in (summary.get("closeness") or {}).items() if d["n"]}
    if close:
        out.append(
            (
                "How close and how settled",
                ["measure", "mean", "sd", "min", "median", "max"],
                [
                    [CLOSENESS_WORDS[k], num(d["mean"]), num(d["sd"]), num(d["min"]), num(d["median"]), num(d["max"])]
                    for k, d in close.items()
                ],
            )
        )
    per_round = summary.get("per_round")
    if per_round:
        out.append(
            (
                f"Totals at the end of each round (a round: one pass through the phase {per_round['phase']})",
                ["round", "games", "all players", "final winners", "the others"],
                [
                    [str(d["round"]), str(d["games"]), num(d["all"]), num(d["winners"]), num(d["others"])]
                    for d in per_round["rounds"]
                ],
            )
        )
    if summary.get("deciding"):
        out.append(
            (
                "Which scoring rule separates winners from the others (largest |d| first)",
                ["rule", "winners", "others", "d"],
                [[d["rule"], num(d["winners"]), num(d["others"]), num(d["d"], sign=True)] for d in summary["deciding"]],
            )
        )
    for entry in summary.get("picks") or []:
        things = list(entry["things"].items())
        shown = things[:PICKS_SHOWN]
        title = f"Choices: {entry['title']} (line {entry['line']}; least taken first"
        title += f", {len(shown)} of {len(things)} shown)" if len(things) > len(shown) else ")"
        rows = [
            [t, str(d["offered"]), str(d["taken"]), pct(d["rate"]), pct(d["win_taken"]), pct(d["win_passed"])]
            for t, d in shown
        ]
        out.append((title, ["thing", "offered", "taken", "take rate", "win rate when taken", "when passed over"], rows))
        if entry["never"] or entry["always"]:
            lists = [
                ["never taken", ", ".join(entry["never"]) or "-"],
                ["always taken", ", ".join(entry["always"]) or "-"],
            ]
            out.append((f"Choices: {entry['title']}: offered at least 5 times and", ["", "things"], lists))
    return out


def _things_table(group: dict) -> tuple:
    """A kind of thing the listing measures named: per thing, times listed and games, per measure;
    each later measure also as a share of the first (cards played per card held)."""
    first, *later = group["measures"]
    if not group["things"]:
        return (f"{', '.join(group['measures'])}: nothing listed in {group['games']} games", ["thing"], [])
    headers = ["thing"]
    for label in group["measures"]:
        headers += [f"{label}: times", "games"]
    headers += [f"{label} per {first}" for label in later]
    rows = []
    for thing, per in group["things"].items():
        row = [thing]
        for label in group["measures"]:
            row += [str(per[label]["count"]), str(per[label]["games"])]
        base = per[first]["count"]
        row += [pct(per[label]["count"] / base) if base else "-" for label in later]
        rows.append(row)
    kind = f" ({group['kind']})" if group["kind"] else ""
    return (f"Things the measures list{kind}, all seats together, in {group['games']} games", headers, rows)


def compare_tables(comparison: dict, detail: bool = False) -> list:
    """[(title, headers, rows)] for a comparison; per-seat rule rows only with detail."""
    a, b = comparison["sides"]
    rows = []
    for m in comparison["metrics"].values():
        if m["group"] in DETAIL and not detail:
            continue
        rate = m["group"] in ("win", "outcome")
        f, fd = (pct, pp) if rate else (num, lambda x: num(x, sign=True))
        rows.append(
            [
                m["label"],
                str(m["n"]),
                f(m["a"]),
                f(m["b"]),
                fd(m["diff"]),
                interval(m["low"], m["high"], fd),
                num(m.get("effect"), sign=True),
                _plus_minus(m.get("detectable"), rate),
                pval(m["p"]),
                pval(m.get("p_adjusted")),
                m["test"],
                "*" if m["significant"] else "",
            ]
        )
    return [
        (
            f"{b} - {a}",
            ["metric", "n", a, b, "diff", "95% CI", "effect", "detectable", "p", "p (Holm)", "test", "sig"],
            rows,
        )
    ]


_NUMBER = re.compile(r"^(-|[-+<]?\[?[-+]?\d.*)?$")


def numeric_columns(rows) -> list:
    """Per column: True when every cell reads as a number (right-aligned); the first column never."""
    width = max((len(r) for r in rows), default=0)
    return [i > 0 and all(_NUMBER.match(str(r[i])) for r in rows) for i in range(width)]


def table(headers, rows) -> str:
    """An aligned plain-text table: numbers right, text left."""
    cells = [list(map(str, headers))] + [list(map(str, r)) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    right = numeric_columns(cells[1:]) if rows else [i > 0 for i in range(len(headers))]

    def line(r):
        return "  ".join(c.rjust(w) if rt else c.ljust(w) for c, w, rt in zip(r, widths, right)).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] + [line(r) for r in cells[1:]])


def summary_heading(summary: dict) -> str:
    players = "/".join(map(str, summary["players"])) or "?"
    return (
        f"{summary['ruleset'] or 'games'} ({summary['side']}): {summary['ok']} games, {players} players, "
        f"{summary['errors']['count']} errors"
    )


def compare_heading(c: dict) -> str:
    return (
        f"{c['ruleset'] or 'games'}: {c['sides'][1]} against {c['sides'][0]}, {c['pairs']} games paired by seed"
        f" (unpaired: {c['only_a']} + {c['only_b']}; errors: {c['errors_a']} + {c['errors_b']})"
    )


def _render(heading: str, tables: list) -> str:
    parts = [heading] + [f"{title}\n{table(headers, rows)}" for title, headers, rows in tables] + ["\n".join(NOTES)]
    return "\n\n".join(parts) + "\n"


def format_summary(summary: dict, opening: Sequence[str] = ()) -> str:
    """The summary as text; `opening`: the plain-language findings to put first (lab/findings.py)."""
    return _render(
        "\n".join([*opening, "", summary_heading(summary)] if opening else [summary_heading(summary)]),
        summary_tables(summary),
    )


def format_compare(comparison: dict, detail: bool = False, opening: Sequence[str] = ()) -> str:
    if opening:  # the findings end with the warnings
        return _render("\n".join([*opening, "", compare_heading(comparison)]), compare_tables(comparison, detail))
    heading = [compare_heading(comparison)] + [f"warning: {w}" for w in comparison.get("warnings", [])]
    return _render("\n".join(heading), compare_tables(comparison, detail))
