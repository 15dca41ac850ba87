"""Parameter sweeps and tuning: how a number in the rules moves the game, and which value balances it.

    meeple sweep GAME --param mana_cost=1..4 [--param board=A,B] -n 100 [--plot sweep.png]
    meeple tune GAME --param mana_cost=1..4 --target balance -n 60 --trials 20

A sweep plays every point of the grid (each combination of the values given)
on the same seeds, so the points differ only by the rules, and reports per
point each seat's win rate, the first player's, the mean score, the game's
length and the ruleset's measures, with 95% intervals; each point is also
compared with the first point, paired by seed, with Holm-adjusted p-values.

`tune` searches the params' ranges with optuna's TPE sampler (seeded, so a run
repeats), every trial on the same seeds, for the point closest to a target:

- `balance`: every seat's win rate closest to 1/players (the largest gap);
- `first`: the first player's win rate closest to 1/players;
- `FIGURE=VALUE`: a figure's mean closest to a value (`decisions=200`,
  `measure/Rounds=10`), named as `--precision --on` names it.

It reports the best points with their figures and intervals. A param is
declared in the rules (`param mana_cost = 2 in 1..4`); an option's names can
be swept too (`--param board=A,B`).
"""

from __future__ import annotations

import itertools

from meeple.interpreter.lab import inference, precision, stats


class SweepError(ValueError):
    """A grid or target that cannot be read: the message says what to write."""


def grid_values(spec: str, game) -> tuple[str, list[str]]:
    """`NAME=1..4` or `NAME=A,B` as (name, values as --option gives them), checked against the game."""
    name, eq, values = spec.partition("=")
    name = name.strip()
    if not eq or not values:
        raise SweepError(f"--param wants NAME=LO..HI or NAME=V1,V2, not `{spec}`")
    if name not in game.option_choices:
        known = ", ".join(game.option_choices) or "none"
        raise SweepError(f"`{name}` is not a param or option of {game.title} (it has: {known})")
    if ".." in values:
        lo, _, hi = values.partition("..")
        try:
            out = [str(v) for v in range(int(lo), int(hi) + 1)]
        except ValueError:
            raise SweepError(f"`{values}` is not a range of whole numbers such as 1..4") from None
    else:
        out = [v.strip() for v in values.split(",") if v.strip()]
    if not out:
        raise SweepError(f"--param {spec} names no value")
    if name in game.params:
        lo, hi = game.params[name]
        bad = [v for v in out if not (v.isdigit() and lo <= int(v) <= hi)]
        if bad:
            raise SweepError(f"param `{name}` goes from {lo} to {hi}; {', '.join(bad)} is outside it")
    else:
        bad = [v for v in out if v not in game.option_choices[name][0]]
        if bad:
            raise SweepError(
                f"option `{name}` has no value {', '.join(bad)}; it has {', '.join(game.option_choices[name][0])}"
            )
    return name, out


def grid(specs: list[str], game) -> list[dict]:
    """Every combination of the swept values, in order."""
    if not specs:
        raise SweepError("say what to sweep: --param NAME=LO..HI (a param) or --param NAME=A,B (an option)")
    axes = [grid_values(s, game) for s in specs]
    names = [n for n, _ in axes]
    if len(set(names)) != len(names):
        raise SweepError("each param once: give its values in one --param")
    return [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in axes))]


def point_label(point: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in point.items())


def response(rows: list[dict], points: list[dict]) -> dict:
    """Per point: its summary; and each point against the first, paired by seed."""
    labels = [point_label(p) for p in points]
    by_label = {label: [r for r in rows if r["side"] == label] for label in labels}
    summaries = {label: stats.summarize(by_label[label]) for label in labels}
    against = {
        label: stats.compare(by_label[labels[0]], by_label[label], labels=(labels[0], label)) for label in labels[1:]
    }
    return {"kind": "sweep", "points": points, "labels": labels, "summaries": summaries, "against": against}


def sweep_table(result: dict) -> tuple:
    """(title, headers, rows): per point, the figures a designer reads first, with intervals."""
    from meeple.interpreter.lab.tables import interval, num, pct

    first = result["summaries"][result["labels"][0]]
    seats = len(first["seats"])
    measures = list(first.get("measures") or {})
    headers = (
        ["point", "games"]
        + [f"P{s + 1} wins" for s in range(seats)]
        + ["first player wins", "mean score", "decisions"]
        + measures
    )
    rows = []
    for label in result["labels"]:
        s = result["summaries"][label]
        cells = [label, str(s["ok"])]
        for seat in s["seats"]:
            w = seat["win_rate"]
            cells.append(f"{pct(w['p'])} {interval(w['low'], w['high'], pct)}")
        f = s.get("first_player")
        cells.append(f"{pct(f['rate'])} {interval(f['low'], f['high'], pct)}" if f else "-")
        scores = [seat["score"]["mean"] for seat in s["seats"] if seat["score"]["mean"] is not None]
        cells.append(num(sum(scores) / len(scores)) if scores else "-")
        d = s["length"]["decisions"]
        cells.append(f"{num(d['mean'])} {interval(d['low'], d['high'])}")
        for k in measures:
            m = (s.get("measures") or {}).get(k, {}).get("per_seat", {})
            cells.append(f"{num(m.get('mean'))} {interval(m.get('low'), m.get('high'))}" if m else "-")
        rows.append(cells)
    return ("Each point (95% intervals)", headers, rows)


def sweep_findings(result: dict) -> list[str]:
    """Opening lines: what moves between the first point and each other, Holm-adjusted per comparison."""
    from meeple.interpreter.lab.findings import changed_line

    labels = result["labels"]
    first = result["summaries"][labels[0]]
    agents = ", ".join(first.get("agents") or []) or "?"
    lines = [
        f"Sweep of {len(labels)} points, {first['ok']} games each on the same seeds (agents: {agents}); "
        f"each point against {labels[0]}."
    ]
    for label in labels[1:]:
        c = result["against"][label]
        moved = [
            m for m in c["metrics"].values() if m["significant"] and m["group"] in ("win", "score", "length", "measure")
        ]
        if moved:
            lines.append(f"{label}:")
            lines += [f"  - {changed_line(m)}" for m in moved]
        else:
            lines.append(f"{label}: nothing changed detectably.")
    return lines


# ---------------------------------------------------------------- tuning


def target_gap(target: str, players: int):
    """The function a tuning minimises over a summary, and its words; SweepError for an unknown target."""
    fair = 1 / players
    if target == "balance":
        if players < 2:
            raise SweepError("a solo game has no seats to balance: tune a figure (--target FIGURE=VALUE)")
        return (
            lambda s: max(abs(seat["win_rate"]["p"] - fair) for seat in s["seats"]),
            f"the largest gap between a seat's win rate and {100 * fair:.1f}%",
        )
    if target == "first":
        return (
            lambda s: abs(s["first_player"]["rate"] - fair) if s.get("first_player") else 1.0,
            f"the gap between the first player's win rate and {100 * fair:.1f}%",
        )
    figure, eq, value = target.partition("=")
    try:
        goal = float(value)
    except ValueError:
        raise SweepError(f"--target is balance, first or FIGURE=VALUE (decisions=200), not `{target}`") from None
    if not eq:
        raise SweepError(f"--target is balance, first or FIGURE=VALUE (decisions=200), not `{target}`")

    def gap(summary):
        got = precision.estimate(summary, figure)
        if got is None:
            raise SweepError(f"these games have no figure `{figure}`")
        return abs(got[0] - goal)

    return gap, f"the distance of {figure} from {value}"


def tune(play, game, specs: list[str], target: str, players: int, trials: int, seed: int) -> dict:
    """Search the params' ranges for the point that best meets the target. `play(point)` plays the
    run's games at one point (always on the same seeds) and returns its rows."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    axes = [grid_values(s, game) for s in specs]
    score, words = target_gap(target, players)
    tried: dict = {}

    def trial_fn(trial):
        point = {name: trial.suggest_categorical(name, values) for name, values in axes}
        label = point_label(point)
        if label not in tried:
            summary = stats.summarize(play(point))
            tried[label] = (point, summary, score(summary))
        return tried[label][2]

    search = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
    search.optimize(trial_fn, n_trials=trials)
    ranked = sorted(tried.values(), key=lambda t: t[2])
    return {
        "kind": "tune",
        "target": target,
        "words": words,
        "trials": trials,
        "tried": len(tried),
        "best": [{"point": p, "label": point_label(p), "gap": g, "summary": s} for p, s, g in ranked],
    }


def tune_lines(result: dict, shown: int = 5) -> list[str]:
    from meeple.interpreter.lab.tables import interval, pct

    best = result["best"]
    lines = [
        f"Tuned for {result['target']}: {result['words']}, smallest is best; {result['trials']} trials, "
        f"{result['tried']} different points played."
    ]
    for rank, b in enumerate(best[:shown], 1):
        s = b["summary"]
        seats = "; ".join(
            f"P{seat['seat'] + 1} {pct(seat['win_rate']['p'])} "
            f"{interval(seat['win_rate']['low'], seat['win_rate']['high'], pct)}"
            for seat in s["seats"]
        )
        lines.append(f"{rank}. {b['label']}: gap {b['gap']:.3f} ({s['ok']} games; wins {seats})")
    if len(best) > 1 and best[0]["summary"]["ok"] < inference.FEW:
        lines.append(
            f"Warning: {best[0]['summary']['ok']} games a point: the ranking may be noise; "
            "give more games (-n) and confirm the best point with `meeple compare`."
        )
    return lines
