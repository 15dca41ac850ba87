"""Reports: one self-contained HTML page with plots and the tables from `stats`.

`write_report` draws its plots with matplotlib on the Agg backend (no
display needed) -- scores per seat, points per scoring rule with 95%
intervals, game length, win rates, pick rates (how often each thing offered
at a decision was taken), and for a comparison the differences -- and writes
each as a PNG next to the page (`<name>_scores.png`, ...). The page
embeds the same PNGs as base64 data URIs and carries its CSS inline, so it
can be mailed or opened offline: it references nothing outside itself. It
works for one side (`meeple simulate`: a summary) and for two (`meeple
compare`: a comparison, with both sides' rows).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path

from meeple.interpreter.lab import stats, tables
from meeple.interpreter.lab.estimates import wilson

COLOURS = ["#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb"]
CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1em; margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0 1.5em; font-size: .9em; }
th, td { padding: .25em .7em; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th.t, td.t { text-align: left; }
th { background: #f3f3f3; } tr.sig td { background: #fff4d6; font-weight: 600; }
figure { margin: 1em 0; } img { max-width: 100%; height: auto; } figcaption { color: #555; font-size: .9em; }
.meta, .notes { color: #555; font-size: .9em; }
.findings { background: #f6f8fb; border-left: 4px solid #4a6fa5; padding: .3em 1em; margin: 1em 0 2em; }
"""


def _figure(width: float, height: float, panels: int = 1):
    import matplotlib

    matplotlib.use("Agg")  # headless; set before anything imports pyplot
    from matplotlib.figure import Figure  # the object API: no pyplot state to leak between reports

    fig = Figure(figsize=(width, height), dpi=100)
    return fig, [fig.add_subplot(1, panels, i + 1) for i in range(panels)]


def _png(fig) -> bytes:
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _empty(ax, text: str = "no games without errors") -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#777")
    ax.set_xticks([])
    ax.set_yticks([])


def _plot_scores(sides: list) -> bytes:
    """Box plots of the total score per seat, the sides side by side (a triangle marks the mean)."""
    seats = max((len(r["scores"]) for _, rows in sides for r in rows), default=0)
    fig, (ax,) = _figure(max(5.0, 1.4 * seats * len(sides) + 2), 4)
    k = len(sides)
    for j, (label, rows) in enumerate(sides):
        data, positions = [], []
        for s in range(seats):
            values = [r["scores"][s] for r in rows if s < len(r["scores"])]
            if values:
                data.append(values)
                positions.append(s * (k + 1) + j)
        if data:
            box = ax.boxplot(
                data,
                positions=positions,
                widths=0.7,
                patch_artist=True,
                showmeans=True,
                medianprops={"color": "#222"},
                meanprops={"markerfacecolor": "#222", "markeredgecolor": "#222"},
            )
            for patch in box["boxes"]:
                patch.set_facecolor(COLOURS[j % len(COLOURS)])
                patch.set_alpha(0.6)
            ax.plot([], [], "s", color=COLOURS[j % len(COLOURS)], label=label)
    if not seats:
        _empty(ax)
    else:
        ax.set_xticks([s * (k + 1) + (k - 1) / 2 for s in range(seats)], [f"P{s + 1}" for s in range(seats)])
        ax.set_xlim(-1, seats * (k + 1) - 1)
        ax.set_ylabel("total score")
        if k > 1:
            ax.legend(frameon=False)
    ax.set_title("Scores per seat")
    return _png(fig)


def _plot_rules(summaries: list) -> bytes:
    """Grouped bars: mean points per scoring rule with 95% intervals; per seat (one side) or per side."""
    if len(summaries) == 1:
        series = [(f"P{s['seat'] + 1}", s["rules"]) for s in summaries[0]["seats"]]
    else:
        series = [(sm["side"], sm["rules"]) for sm in summaries]
    labels = list(dict.fromkeys(k for _, rules in series for k in rules))
    fig, (ax,) = _figure(max(5.0, 0.9 * len(labels) * max(len(series), 1) + 2), 4)
    if not labels:
        _empty(ax, "no scoring rules")
    width = 0.8 / max(len(series), 1)
    for j, (name, rules) in enumerate(series):
        ds = [rules.get(k) or {} for k in labels]
        means = [d.get("mean") or 0.0 for d in ds]
        err = [
            [m - (low if (low := d.get("low")) is not None else m) for m, d in zip(means, ds)],
            [(high if (high := d.get("high")) is not None else m) - m for m, d in zip(means, ds)],
        ]
        xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(labels))]
        if labels:
            ax.bar(xs, means, width, yerr=err, capsize=3, label=name, color=COLOURS[j % len(COLOURS)])
    if labels:
        tilt = len(labels) > 6 or max(map(len, labels)) > 12
        ax.set_xticks(range(len(labels)), labels, rotation=30 if tilt else 0, ha="right" if tilt else "center")
        ax.set_ylabel("mean points per seat")
        ax.axhline(0, color="#999", linewidth=0.8)
        ax.legend(frameon=False)
    ax.set_title("Points per scoring rule (95% interval)")
    return _png(fig)


def _plot_length(sides: list) -> bytes:
    """Histograms of game length in machine steps and of decisions per game, sides overlaid."""
    import numpy as np

    fig, axes = _figure(10, 3.8, panels=2)
    for ax, key, title in zip(axes, ("steps", "decisions"), ("Game length (steps)", "Decisions per game")):
        values = [[r[key] for r in rows if r.get(key) is not None] for _, rows in sides]
        everything = [v for vs in values for v in vs]
        if not everything:
            _empty(ax)
        else:
            lo, hi = min(everything), max(everything)
            if all(float(v).is_integer() for v in everything) and hi - lo <= 40:
                bins = np.arange(lo - 0.5, hi + 1.5)  # one bar per value
            else:
                bins = np.histogram_bin_edges(everything, bins=30)
            for j, ((label, _), vs) in enumerate(zip(sides, values)):
                colour = COLOURS[j % len(COLOURS)]
                if vs and len(sides) == 1:
                    ax.hist(vs, bins=bins, color=colour, alpha=0.8)
                elif vs:  # outlines, so that overlapping sides stay readable
                    ax.hist(vs, bins=bins, histtype="step", linewidth=1.8, label=label, color=colour)
            ax.set_ylabel("games")
            ax.yaxis.get_major_locator().set_params(integer=True)
            if len(sides) > 1:
                ax.legend(frameon=False)
        ax.set_title(title)
    return _png(fig)


def _plot_wins(summaries: list) -> bytes:
    """Each seat's win rate and the first player's, per side, with 95% Wilson intervals; a dotted
    line at an even share."""
    fig, (ax,) = _figure(max(5.0, 1.2 * (len(summaries[0]["seats"]) + 1) * len(summaries) + 2), 3.8)
    names = [f"P{s['seat'] + 1}" for s in summaries[0]["seats"]] + ["first player"]
    width = 0.8 / len(summaries)
    for j, sm in enumerate(summaries):
        rates = [s["win_rate"] for s in sm["seats"]]
        first = sm.get("first_player")
        rates.append(
            {"p": first["rate"], "low": first["low"], "high": first["high"]}
            if first
            else {"p": None, "low": None, "high": None}
        )
        xs = [i + (j - (len(summaries) - 1) / 2) * width for i in range(len(names))]
        ps = [r["p"] if r["p"] is not None else 0.0 for r in rates]
        err = [
            [p - (r["low"] if r["low"] is not None else p) for p, r in zip(ps, rates)],
            [(r["high"] if r["high"] is not None else p) - p for p, r in zip(ps, rates)],
        ]
        ax.bar(xs, ps, width, yerr=err, capsize=3, label=str(sm["side"]), color=COLOURS[j % len(COLOURS)])
    if len(summaries[0]["seats"]) > 1:
        ax.axhline(1 / len(summaries[0]["seats"]), color="#999", linestyle=":", linewidth=1)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.legend(frameon=False)
    ax.set_title("Win rates (95% interval; dotted: an even share)")
    return _png(fig)


PICK_DECISIONS, PICK_THINGS = 4, 20  # the most offered decisions, and at most this many things on each


def pick_rates(summaries: list) -> list[dict]:
    """What the pick-rate plot shows: the decisions offered most (with at least two things to pick
    from, in the first side's records), each with its things (rarest picks first, as the tables list
    them) and, per side, each thing's (rate, low, high) taken when offered (Wilson, 95%)."""
    first = [e for e in summaries[0].get("picks") or [] if len(e["things"]) >= 2]
    shown = sorted(first, key=lambda e: -sum(t["offered"] for t in e["things"].values()))[:PICK_DECISIONS]
    out = []
    for entry in shown:
        things = list(entry["things"])[:PICK_THINGS]
        sides = []
        for sm in summaries:
            same = {e["title"]: e for e in sm.get("picks") or []}.get(entry["title"], {"things": {}})
            sides.append(
                [
                    wilson(d["taken"], d["offered"]) if (d := same["things"].get(t)) else (None, None, None)
                    for t in things
                ]
            )
        out.append({"title": entry["title"], "things": things, "sides": sides})
    return out


def _plot_picks(summaries: list) -> bytes | None:
    """pick_rates as horizontal bars with their intervals, one panel per decision; None if no
    decision recorded picks."""
    shown = pick_rates(summaries)
    if not shown:
        return None
    tall = max(len(e["things"]) for e in shown)
    fig, axes = _figure(4.2 * len(shown) + 1, max(3.0, 0.28 * tall * len(summaries) + 1.6), panels=len(shown))
    width = 0.8 / len(summaries)
    for ax, entry in zip(axes, shown):
        things = entry["things"]
        for j, (sm, rates) in enumerate(zip(summaries, entry["sides"])):
            ys = [i + (j - (len(summaries) - 1) / 2) * width for i in range(len(things))]
            ps = [p if p is not None else 0.0 for p, _, _ in rates]
            err = [
                [p - (lo if lo is not None else p) for p, (_, lo, _) in zip(ps, rates)],
                [(hi if hi is not None else p) - p for p, (_, _, hi) in zip(ps, rates)],
            ]
            ax.barh(ys, ps, width, xerr=err, capsize=2, color=COLOURS[j % len(COLOURS)], label=str(sm["side"]))
        ax.set_yticks(range(len(things)), things, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("taken when offered")
        ax.set_title(entry["title"][:48], fontsize=9)
    if len(summaries) > 1:
        axes[0].legend(frameon=False, fontsize=8)
    return _png(fig)


def _plot_effects(comparison: dict) -> bytes:
    """The main table's differences with their 95% intervals: rates in percentage points, the
    other figures in standard deviations of their per-seed differences (Cohen's d_z, so a
    score and a game length share one axis); flagged ones (adjusted p < 0.05) filled."""
    rows = [
        m
        for m in comparison["metrics"].values()
        if m["group"] not in stats.DETAIL and m["low"] is not None and (m["high"] - m["low"] or m["diff"])
    ]
    rates = [m for m in rows if m["group"] in ("win", "outcome")]
    others = [m for m in rows if m["group"] not in ("win", "outcome") and m.get("sd_diff")]
    fig, axes = _figure(11, max(3.0, 0.32 * max(len(rates), len(others), 1) + 1.5), panels=2)
    for ax, group, scale, unit in (
        (axes[0], rates, lambda m, x: 100 * x, "difference (pp)"),
        (axes[1], others, lambda m, x: x / m["sd_diff"], "difference (Cohen's d_z)"),
    ):
        if not group:
            _empty(ax, "nothing to show")
            continue
        for i, m in enumerate(group):
            d, lo, hi = (scale(m, m[k]) for k in ("diff", "low", "high"))
            ax.errorbar(
                [d],
                [i],
                xerr=[[d - lo], [hi - d]],
                fmt="o",
                mfc="#c0392b" if m["significant"] else "white",
                color="#333",
                capsize=3,
            )
        ax.axvline(0, color="#999", linewidth=0.8)
        ax.set_yticks(range(len(group)), [m["label"] for m in group], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(unit)
    axes[0].set_title("Rates (filled: adjusted p < 0.05)")
    axes[1].set_title("Means")
    return _png(fig)


def _html_table(title: str, headers, rows) -> str:
    esc = html.escape
    right = tables.numeric_columns(rows) if rows else [i > 0 for i in range(len(headers))]
    cls = ["" if r else ' class="t"' for r in right]
    head = "".join(f"<th{c}>{esc(str(h))}</th>" for h, c in zip(headers, cls))
    marked = headers[-1] == "sig"
    body = "".join(
        ('<tr class="sig">' if marked and r[-1] == "*" else "<tr>")
        + "".join(f"<td{c}>{esc(str(v))}</td>" for v, c in zip(r, cls))
        + "</tr>\n"
        for r in rows
    )
    return f"<h3>{esc(title)}</h3>\n<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n"


def _findings_html(lines: Sequence[str]) -> str:
    """The findings as paragraphs, with "  - " lines as a list under the line before them."""
    esc = html.escape
    out, items = [], []
    for line in lines:
        if line.startswith("  - "):
            items.append(f"<li>{esc(line[4:])}</li>")
            continue
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items = []
        out.append(f"<p>{esc(line)}</p>")
    if items:
        out.append("<ul>" + "".join(items) + "</ul>")
    return '<section class="findings">' + "".join(out) + "</section>"


def write_report(
    path, result: dict, rows_a, rows_b=None, title: str = "Meeple report", opening: Sequence[str] = ()
) -> list[str]:
    """Write the HTML page at `path` and its PNGs beside it; return the paths written (page first).

    `result` is `stats.summarize(rows_a)` or `stats.compare(rows_a, rows_b)`; rows_b is the
    second side's rows for a comparison (None for a single side); `opening` the plain-language
    findings (interpreter/lab/findings.py) that open the page."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    row_sets = [list(rows_a)] + ([list(rows_b)] if rows_b is not None else [])
    if result.get("kind") == "summary" and rows_b is None:
        summaries = [result]
    else:
        summaries = [stats.summarize(rows) for rows in row_sets]
    if result.get("kind") == "compare" and len(summaries) == 2:
        for sm, label in zip(summaries, result["sides"]):
            sm["side"] = label
    sides = [(sm["side"], [r for r in rows if stats.is_ok(r)]) for sm, rows in zip(summaries, row_sets)]
    plots = [
        (
            "scores",
            "Total score per seat: box from first to third quartile, line at the median, "
            "triangle at the mean, whiskers to 1.5 IQR.",
            _plot_scores(sides),
        ),
        ("rules", "Mean points per seat from each scoring rule, with 95% t intervals.", _plot_rules(summaries)),
        ("length", "Distribution of game length (machine steps) and of decisions per game.", _plot_length(sides)),
        ("wins", "Each seat's win rate and the first player's, with 95% Wilson intervals.", _plot_wins(summaries)),
    ]
    picks = _plot_picks(summaries)
    if picks is not None:
        plots.append(
            (
                "picks",
                "How often each thing offered at the decisions offered most was taken when offered "
                "(95% Wilson intervals); rarest picks on top.",
                picks,
            )
        )
    if result.get("kind") == "compare":
        plots.append(
            (
                "effects",
                "Each difference of the main table with its 95% interval: rates in percentage "
                "points (Newcombe), means in standard deviations of their per-seed differences (d_z, t interval).",
                _plot_effects(result),
            )
        )
    written = []
    figures = []
    for name, caption, png in plots:
        png_path = path.with_name(f"{path.stem}_{name}.png")
        png_path.write_bytes(png)
        written.append(str(png_path))
        data = base64.b64encode(png).decode("ascii")
        figures.append(
            f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    esc = html.escape
    parts = [f"<h1>{esc(title)}</h1>"]
    if opening:
        parts.append(_findings_html(opening))
    if result.get("kind") == "compare":
        parts += [f'<p class="meta">{esc(tables.compare_heading(result))}</p>', "<h2>Differences</h2>"]
        parts += [_html_table(*t) for t in tables.compare_tables(result, detail=True)]
    else:
        parts.append(f'<p class="meta">{esc(tables.summary_heading(result))}</p>')
    parts += ["<h2>Plots</h2>"] + figures
    for sm in summaries:
        parts.append(f"<h2>{esc(str(sm['side']))}</h2>")
        parts.append(f'<p class="meta">{esc(tables.summary_heading(sm))}</p>')
        parts += [_html_table(*t) for t in tables.summary_tables(sm)]
    parts.append('<ul class="notes">' + "".join(f"<li>{esc(n)}</li>" for n in stats.NOTES) + "</ul>")
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        + "\n".join(parts)
        + "\n</body>\n</html>\n"
    )
    path.write_text(page, encoding="utf-8")
    return [str(path)] + written


def plot_sweep(result: dict) -> bytes:
    """The response to a sweep: each seat's win rate (and the first player's) per point, and the
    game's length, with 95% intervals as error bars."""
    labels = result["labels"]
    summaries = [result["summaries"][label] for label in labels]
    fig, (ax_win, ax_len) = _figure(max(7.0, 1.1 * len(labels) + 3), 3.6, panels=2)
    xs = list(range(len(labels)))
    seats = len(summaries[0]["seats"]) if summaries else 0
    for s in range(seats):
        rates = [sm["seats"][s]["win_rate"] for sm in summaries]
        _bars(ax_win, [x + 0.06 * (s - seats / 2) for x in xs], rates, "p", f"P{s + 1}")
    firsts = [sm.get("first_player") for sm in summaries]
    if all(firsts):
        _bars(
            ax_win,
            xs,
            [{"p": f["rate"], "low": f["low"], "high": f["high"]} for f in firsts],
            "p",
            "first player",
            style="k--",
        )
    if seats > 1:
        ax_win.axhline(1 / seats, color="#999", linestyle=":", linewidth=1)  # an even share
    ax_win.set_ylabel("win rate")
    ax_win.set_ylim(0, 1)
    ax_win.legend(fontsize=8)
    _bars(ax_len, xs, [sm["length"]["decisions"] for sm in summaries], "mean", "decisions")
    ax_len.set_ylabel("decisions per game")
    for ax in (ax_win, ax_len):
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    return _png(fig)


def _bars(ax, xs, figures: list, key: str, label: str, style: str = "o-") -> None:
    ys = [f[key] if f[key] is not None else float("nan") for f in figures]
    low = [y - f["low"] if f["low"] is not None else 0 for y, f in zip(ys, figures)]
    high = [f["high"] - y if f["high"] is not None else 0 for y, f in zip(ys, figures)]
    ax.errorbar(xs, ys, yerr=[low, high], fmt=style, capsize=3, label=label)
