"""The lab's statistics and reports on hand-made rows: known values, paired comparisons, HTML and PNGs."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from meeple.interpreter.lab import findings, inference, report, stats, tables

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def row(
    seed,
    scores,
    winners=None,
    actions=None,
    side="base",
    tiebreak=False,
    error=None,
    breakdown=None,
    steps=100,
    decisions=20,
    turns=5,
):
    """One game as `meeple simulate` writes it; rule A is the score minus 2, rule B is 2."""
    if error:
        return {
            "seed": seed,
            "ruleset": "g",
            "side": side,
            "players": 2,
            "options": {},
            "variants": [],
            "agents": ["random", "random"],
            "scores": None,
            "breakdown": None,
            "ranking": None,
            "winners": None,
            "tiebreak_used": False,
            "turns": None,
            "decisions": 3,
            "steps": 9,
            "branching": 2.0,
            "actions": {},
            "seconds": 0.01,
            "error": error,
        }
    if winners is None:
        winners = [i for i, s in enumerate(scores) if s == max(scores)]
    return {
        "seed": seed,
        "ruleset": "g",
        "side": side,
        "players": len(scores),
        "options": {},
        "variants": [],
        "agents": ["random"] * len(scores),
        "scores": list(scores),
        "breakdown": breakdown or [{"A": s - 2, "B": 2} for s in scores],
        "ranking": [
            {"player": i, "place": 1 if i in winners else 2, "total": s, "tied_on_total": False}
            for i, s in enumerate(scores)
        ],
        "winners": winners,
        "tiebreak_used": tiebreak,
        "turns": turns,
        "decisions": decisions,
        "steps": steps,
        "branching": 3.5,
        "actions": actions or {},
        "seconds": 0.01,
        "error": None,
    }


def hand_rows():
    return [
        row(1, [10, 8], actions={"Extra": 3, "Pass": 1}, steps=100),
        row(2, [7, 9], actions={"Pass": 2}, steps=120),
        row(3, [9, 9], actions={"Extra": 1}, steps=80),  # shared first place
        row(4, [12, 12], winners=[1], tiebreak=True, steps=140),  # a tie-break decided it
        row(5, None, error="step limit reached"),
        row(6, None, error="no option at <decision>"),
    ]


def synthetic(n=40, side="base", shift=0, noise=0.0, extra=0):
    """n seeded two-seat games; side b can add `shift` (+ noise) to seat 0's rule A, and Extra uses."""
    out = []
    for seed in range(n):
        r = random.Random(seed)
        a0, a1 = r.randint(5, 30), r.randint(5, 30)
        bump = shift + (random.Random(1000 + seed).gauss(0, noise) if noise else 0)
        breakdown = [{"A": a0 + bump, "B": 4}, {"A": a1, "B": 4}]
        scores = [a0 + bump + 4, a1 + 4]
        out.append(
            row(
                seed,
                scores,
                side=side,
                breakdown=breakdown,
                steps=r.randint(200, 300),
                decisions=r.randint(40, 60),
                actions={"Extra": r.randint(0, 3) + extra, "Pass": 5},
            )
        )
    return out


# ---------------------------------------------------------------- known values


def test_wilson_known_values():
    p, low, high = stats.wilson(50, 100)
    assert p == 0.5 and low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    p, low, high = stats.wilson(0, 10)
    assert (p, low) == (0.0, 0.0) and high == pytest.approx(0.2775, abs=1e-4)
    assert stats.wilson(10, 10)[2] == 1.0 and stats.wilson(10, 10)[1] == pytest.approx(0.7225, abs=1e-4)
    assert stats.wilson(2.5, 5)[0] == 0.5  # fractional (shared) wins
    assert stats.wilson(0, 0) == (None, None, None)


@pytest.mark.parametrize(
    "df, q", [(1, 12.7062), (4, 2.7764), (9, 2.2622), (29, 2.0452), (100, 1.9840), (100000, 1.9600)]
)
def test_t_quantiles_match_tables(df, q):
    assert stats.t_quantile(0.975, df) == pytest.approx(q, abs=1e-4)


@pytest.mark.parametrize("t, df", [(0.5, 2), (1.7, 5), (2.3, 12), (4.0, 30), (1.0, 1)])
def test_t_pvalue_matches_numerical_integration(t, df):
    x = np.linspace(0.0, t, 200001)
    pdf = (
        math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2))
        / math.sqrt(df * math.pi)
        * (1 + x * x / df) ** (-(df + 1) / 2)
    )
    inner = float(np.sum((pdf[1:] + pdf[:-1]) / 2 * np.diff(x)))
    assert stats.t_pvalue(t, df) == pytest.approx(1 - 2 * inner, abs=1e-7)
    assert stats.t_pvalue(0.0, df) == 1.0


def test_basic_statistics_agree_with_numpy():
    xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    assert stats.mean(xs) == pytest.approx(np.mean(xs))
    assert stats.sd(xs) == pytest.approx(np.std(xs, ddof=1))
    for q in (0, 0.25, 0.5, 0.75, 1):
        assert stats.quantile(xs, q) == pytest.approx(np.quantile(xs, q))
    assert stats.sd([4]) is None and stats.mean([]) is None and stats.quantile([], 0.5) is None
    m, low, high = stats.mean_ci([1, 2, 3, 4, 5])
    assert (m, low, high) == pytest.approx(
        (3.0, 3 - 2.7764 * math.sqrt(2.5 / 5), 3 + 2.7764 * math.sqrt(2.5 / 5)), abs=1e-4
    )


def test_paired_t_and_mcnemar_known_values():
    res = stats.paired_t([1, 2, 3, 4, 5])  # t = 4.243, df = 4
    assert res["diff"] == 3.0 and res["p"] == pytest.approx(0.01324, abs=1e-5)
    assert stats.mcnemar(15, 0) == pytest.approx(2 * 0.5**15)
    assert stats.mcnemar(3, 3) == 1.0 and stats.mcnemar(0, 0) == 1.0
    assert stats.mcnemar(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)


# ---------------------------------------------------------------- summarize


def test_summarize_counts_errors_draws_tiebreaks_and_actions():
    s = stats.summarize(hand_rows())
    assert (s["games"], s["ok"], s["errors"]["count"]) == (6, 4, 2)
    assert [(e["seed"], e["error"]) for e in s["errors"]["first"]] == [
        (5, "step limit reached"),
        (6, "no option at <decision>"),
    ]
    assert s["draws"]["count"] == 1 and s["draws"]["rate"] == 0.25
    assert s["tiebreaks"]["count"] == 1 and s["tiebreaks"]["rate"] == 0.25
    p0, p1 = s["seats"]
    assert p0["wins"] == 1.5 and p1["wins"] == 2.5  # the shared first place is half a win each
    assert p0["win_rate"]["p"] + p1["win_rate"]["p"] == 1.0
    assert p0["win_rate"]["low"] < 0.375 < p0["win_rate"]["high"]
    sc = p0["score"]
    assert (sc["min"], sc["q25"], sc["median"], sc["q75"], sc["max"], sc["mean"]) == (7, 8.5, 9.5, 10.5, 12, 9.5)
    assert s["actions"]["Extra"] == {
        "mean": 1.0,
        "sd": pytest.approx(np.std([3, 0, 1, 0], ddof=1)),
        "games_used": 2,
        "used_share": 0.5,
    }
    assert s["actions"]["Pass"]["mean"] == 0.75 and s["actions"]["Pass"]["games_used"] == 2
    assert s["rules"]["B"]["mean"] == 2 and s["rules"]["B"]["sd"] == 0
    assert s["rules"]["A"]["n"] == 8 and s["rules"]["A"]["mean"] == pytest.approx((8 + 6 + 5 + 7 + 7 + 7 + 10 + 10) / 8)
    assert p1["rules"]["A"]["mean"] == pytest.approx((6 + 7 + 7 + 10) / 4)
    assert s["length"]["steps"]["mean"] == 110 and s["length"]["turns"]["mean"] == 5
    json.dumps(s, allow_nan=False)


def test_summarize_all_errors_and_empty():
    s = stats.summarize([row(1, None, error="bad")])
    assert s["ok"] == 0 and s["seats"] == [] and s["draws"]["rate"] is None
    assert "Errors" in tables.format_summary(s)
    assert stats.summarize([])["games"] == 0


# ---------------------------------------------------------------- compare


def test_compare_finds_an_exact_shift_on_seat_zero():
    c = stats.compare(synthetic(side="base"), synthetic(side="plus", shift=3))
    m = c["metrics"]
    assert c["pairs"] == 40 and c["sides"] == ["base", "plus"]
    assert m["score/0"]["diff"] == 3 and (m["score/0"]["low"], m["score/0"]["high"]) == (3, 3)
    assert m["score/0"]["p"] < 0.05 and m["score/0"]["significant"]
    assert m["rule/A/0"]["diff"] == 3 and m["rule/A"]["diff"] == 1.5
    for key in ("score/1", "rule/B", "rule/A/1", "steps", "decisions", "action/Extra"):
        assert m[key]["diff"] == 0 and not m[key]["significant"], key


def test_compare_finds_a_noisy_shift_and_action_use():
    c = stats.compare(synthetic(), synthetic(side="plus", shift=3, noise=2.0, extra=1))
    m = c["metrics"]
    assert 2.0 < m["score/0"]["diff"] < 4.0 and m["score/0"]["low"] < m["score/0"]["diff"] < m["score/0"]["high"]
    assert m["score/0"]["p"] < 1e-6 and m["score/0"]["test"] == "paired t"
    assert m["action/Extra"]["diff"] == 1 and m["action/Extra"]["significant"]
    assert m["win/0"]["diff"] > 0 and m["win/0"]["test"] == "McNemar"


def test_compare_identical_sides_is_not_significant():
    c = stats.compare(synthetic(), synthetic(side="same"))
    for key, m in c["metrics"].items():
        assert m["diff"] == 0 and not m["significant"], key
        assert m["p"] == 1.0, key
    json.dumps(c, allow_nan=False)


def test_compare_pairs_only_seeds_without_errors_on_both_sides():
    a = synthetic(10) + [row(99, [1, 2])]
    b = synthetic(10, side="b")
    b[3] = row(3, None, error="boom", side="b")
    c = stats.compare(a, b)
    assert c["pairs"] == 9 and c["only_a"] == 2 and c["only_b"] == 0 and c["errors_b"] == 1
    assert c["metrics"]["score/0"]["n"] == 9
    again = stats.compare(synthetic(5) + [row(0, [100, 0])], synthetic(5))  # a repeated seed: its first row counts
    assert again["pairs"] == 5 and again["metrics"]["score/0"]["diff"] == 0
    assert again["sides"] == ["a: base", "b: base"]  # the same label on both sides is told apart


def test_compare_win_rate_uses_exact_mcnemar():
    a = [row(s, [1, 0] if s < 10 else [0, 1]) for s in range(30)]
    b = [row(s, [1, 0] if s < 25 else [0, 1], side="b") for s in range(30)]
    w = stats.compare(a, b)["metrics"]["win/0"]
    assert (w["a"], w["b"], w["diff"]) == pytest.approx((1 / 3, 5 / 6, 0.5))
    assert w["p"] == pytest.approx(2 * 0.5**15) and w["significant"]


# ---------------------------------------------------------------- text


def test_format_summary_and_compare_headers():
    text = tables.format_summary(stats.summarize(hand_rows()))
    for word in (
        "Seats",
        "seat",
        "win rate",
        "95% CI",
        "median",
        "Scoring rules",
        "shared first place",
        "tie-break used",
        "Actions",
        "Extra",
        "Errors",
        "step limit reached",
        "P1",
        "P2",
    ):
        assert word in text, word
    assert "\x1b" not in text
    c = stats.compare(synthetic(), synthetic(side="plus", shift=3))
    text = tables.format_compare(c)
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("metric"))
    assert header.split() == [
        "metric",
        "n",
        "base",
        "plus",
        "diff",
        "95%",
        "CI",
        "effect",
        "detectable",
        "p",
        "p",
        "(Holm)",
        "test",
        "sig",
    ]
    score = next(line for line in lines if line.startswith("score P1"))
    assert "+3.00" in score and "[+3.00, +3.00]" in score and score.endswith("*")
    assert "rule A P1" not in text and "rule A P1" in tables.format_compare(c, detail=True)
    assert len(header) == len(lines[lines.index(header) + 1])  # the dashes line up with the header


# ---------------------------------------------------------------- report


def _check_page(files, tmp_path, name, compared=False):
    page = tmp_path / f"{name}.html"
    assert files[0] == str(page)
    plots = ("scores", "rules", "length", "wins") + (("effects",) if compared else ())
    for suffix in plots:
        png = tmp_path / f"{name}_{suffix}.png"
        assert str(png) in files and png.read_bytes()[:8] == PNG_MAGIC
    html = page.read_text()
    assert html.count("data:image/png;base64,") == len(plots)
    lowered = html.lower()
    for external in ("http:", "https:", "<script", "<link", "@import", "url("):
        assert external not in lowered, external
    return html


def test_write_report_for_a_comparison(tmp_path):
    a, b = synthetic(side="base"), synthetic(side="plus", shift=3)
    b[0]["breakdown"][0]["<odd & rule>"] = 1
    files = report.write_report(tmp_path / "report.html", stats.compare(a, b), a, b, title="A <test>")
    html = _check_page(files, tmp_path, "report", compared=True)
    assert "<title>A &lt;test&gt;</title>" in html and "&lt;odd &amp; rule&gt;" in html
    assert "+3.00" in html and "[+3.00, +3.00]" in html and 'class="sig"' in html
    assert ">base</h2>" in html and ">plus</h2>" in html


def test_write_report_for_one_side(tmp_path):
    rows = hand_rows()
    files = report.write_report(tmp_path / "sub" / "sim.html", stats.summarize(rows), rows)
    html = _check_page(files, tmp_path / "sub", "sim")
    assert "step limit reached" in html and "37.5%" in html and "Extra" in html
    assert "Differences" not in html


def test_write_report_with_only_errors(tmp_path):
    rows = [row(1, None, error="bad")]
    _check_page(report.write_report(tmp_path / "r.html", stats.summarize(rows), rows), tmp_path, "r")


# ---------------------------------------------------------------- many tests at once


def test_holm_adjusts_as_the_method_says():
    # m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06 (running max), 0.5
    assert inference.holm([0.03, 0.5, 0.01, None, 0.02]) == pytest.approx([0.06, 0.5, 0.04, None, 0.06])
    assert inference.holm([0.04, 0.3]) == pytest.approx([0.08, 0.3])
    assert inference.holm([0.9, 0.8]) == [1.0, 1.0]  # capped at 1


def test_a_noise_row_is_not_flagged_once_adjusted():
    # 40 seeds where nothing changes but noise: of the ~30 tests, raw p-values dip below 0.05 by
    # chance; adjusted, none is flagged.
    c = stats.compare(synthetic(), synthetic(side="plus", noise=3.0))
    raw = [m for m in c["metrics"].values() if m["p"] is not None and m["p"] < 0.05]
    assert c["tests"] >= 10
    assert not any(m["significant"] for m in c["metrics"].values())
    for m in c["metrics"].values():
        if m["p"] is not None:
            assert m["p_adjusted"] >= m["p"]
    assert raw == [] or all(m["p_adjusted"] > m["p"] for m in raw)


def test_paired_rates_stay_inside_plus_minus_one_where_a_t_interval_does_not():
    xs, ys = [0, 0, 1, 0], [1, 1, 1, 0]
    diff, low, high = inference.paired_rates(xs, ys)
    assert diff == pytest.approx(0.5) and -1.0 <= low < 0.5 < high <= 1.0
    t = stats.paired_t([y - x for x, y in zip(xs, ys)])
    assert t["high"] > 1.0  # the interval the report showed before: [-54.6pp, +104.6pp]-like


@pytest.mark.parametrize(
    "both, first, second, neither, low, high",
    [(36, 12, 2, 0, 0.0569, 0.3404), (18, 12, 2, 18, 0.0562, 0.3290), (53, 0, 0, 1, -0.0729, 0.0729)],
)
def test_paired_rates_match_newcombes_published_intervals(both, first, second, neither, low, high):
    # Newcombe (1998), method 10: the 2 x 2 tables (e, f, g, h) of the paper's examples
    ys = [1] * both + [1] * first + [0] * second + [0] * neither
    xs = [1] * both + [0] * first + [1] * second + [0] * neither
    diff, lo, hi = inference.paired_rates(xs, ys)
    assert diff == pytest.approx((first - second) / len(xs))
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_power_figures():
    # sd 10, n 100: the smallest difference found 4 times in 5 is 2.8 * 10 / 10
    assert inference.detectable(10.0, 100) == pytest.approx(2.8016, abs=1e-3)
    assert inference.games_needed(10.0, 2.8016) == 100
    assert inference.effect_size([1.0, 3.0]) == pytest.approx(2.0 / math.sqrt(2.0))


def test_exact_binomial_test_against_an_even_share():
    assert inference.binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    assert inference.binomial_test(9, 10, 0.5) == pytest.approx(0.021484375)  # 22 / 1024
    assert inference.binomial_test(0, 6, 1 / 3) == pytest.approx(0.1879, abs=1e-4)  # R: binom.test(0, 6, 1/3)


def test_a_summary_tests_each_seat_against_an_even_share():
    rows = [row(seed, [10, 5]) for seed in range(30)]  # P1 wins every game
    s = stats.summarize(rows)
    assert s["seats"][0]["p_fair"] < 1e-8 and s["seats"][0]["p_fair_adjusted"] <= 2 * s["seats"][0]["p_fair"]


def test_few_games_come_with_a_warning():
    c = stats.compare(synthetic(n=4), synthetic(n=4, side="plus", shift=1))
    assert c["warnings"] and "only 4 games paired by seed" in c["warnings"][0]
    assert "only 4 games" in tables.format_compare(c)


# ---------------------------------------------------------------- findings: the opening lines


def test_findings_name_what_changed_and_what_did_not():
    c = stats.compare(synthetic(), synthetic(side="plus", shift=3))
    lines = findings.compare_findings(c)
    assert lines[0].startswith("plus against base: 40 games paired by seed")
    changed = lines[lines.index("Changed:") + 1 :]
    assert any(ln.startswith("  - score P1: ") and "(+3.00" in ln and "p (Holm)" in ln for ln in changed)
    steady = next(ln for ln in lines if ln.startswith("No detectable change at n = 40 in:"))
    assert "game length (the same in every game)" in steady and "seat win rates (a change under ±" in steady


def test_findings_say_nothing_changed_and_warn_on_few_games():
    c = stats.compare(synthetic(n=6), synthetic(n=6, side="plus"))
    lines = findings.compare_findings(c)
    assert "Nothing changed detectably." in lines and lines[-1].startswith("Warning: only 6 games")


def test_summary_findings_name_a_seat_advantage():
    rows = [row(seed, [10, 5]) for seed in range(30)]
    lines = findings.summary_findings(stats.summarize(rows))
    assert any(ln.startswith("Seat advantage: P1 wins 100.0% against an even 50.0%") for ln in lines)
    even = findings.summary_findings(stats.summarize([row(s, [10, 5] if s % 2 else [5, 10]) for s in range(30)]))
    assert "No seat wins detectably more or less than an even 50.0% (n = 30)." in even


def test_findings_name_each_declared_measure_that_did_not_change_with_its_difference():
    a, b = synthetic(), synthetic(side="plus")
    for r in a + b:  # "Served" moves by one in 5 games of 40 on the plus side; "Days" never moves
        moved = r["side"] == "plus" and r["seed"] % 8 == 0
        r["measures"] = {"Served": [2 + moved, 1], "Days": [6, 6]}
    lines = findings.compare_findings(stats.compare(a, b))
    steady = next(ln for ln in lines if ln.startswith("No detectable change at n = 40 in:"))
    assert "Days (per seat) (the same in every game)" in steady
    assert "Served (per seat) (+0.06, 95% CI [" in steady and "p (Holm) " in steady  # half a seat in 5 games of 40
