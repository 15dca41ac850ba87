"""Designer metrics on games whose answers are known (interpreter/lab/designer.py, record.py)."""

from __future__ import annotations

import pytest

from meeple.interpreter.lab import designer, stats, tables
from meeple.interpreter.lab.record import GameRecord
from meeple.interpreter.lab.simulate import Side, play_row


def row(seed, scores, first=0, picks=None, breakdown=None, win=None):
    winners = [i for i, s in enumerate(scores) if s == max(scores)]
    return {
        "seed": seed,
        "side": "base",
        "ruleset": "g",
        "players": len(scores),
        "options": {},
        "variants": [],
        "agents": ["random"],
        "scores": scores,
        "winners": winners,
        "win": win,
        "breakdown": breakdown or [{"A": s} for s in scores],
        "first_player": first,
        "picks": picks or {},
        "error": None,
        "margin": None,
        "lead_changes": None,
        "lead_for_good": None,
    }


class FakeEngine:
    """Totals after each decision, as scripted."""

    def __init__(self, totals):
        self.script = iter(totals)

    def totals(self, state):
        return next(self.script)


def test_lead_changes_and_decisiveness_follow_the_sole_leader():
    # leaders after each decision: P1, tie, P2, P2, P1, P1 -> two changes (a tie is none);
    # the winner P1 led for good through the last 2 of 6 decisions
    rec = GameRecord(FakeEngine([[1, 0], [1, 1], [1, 2], [1, 3], [5, 3], [6, 3]]), 2)
    for _ in range(6):
        rec.after({})
    got = rec.fields([6, 3], [0])
    assert (got["lead_changes"], got["lead_for_good"], got["margin"]) == (2, round(2 / 6, 4), 3)


def test_a_shared_win_has_no_decisiveness_and_a_wire_to_wire_win_has_one():
    rec = GameRecord(FakeEngine([[2, 0], [3, 1]]), 2)
    rec.after({}), rec.after({})
    assert rec.fields([3, 1], [0])["lead_for_good"] == 1.0
    assert rec.fields([3, 3], [0, 1])["lead_for_good"] is None


def test_first_player_advantage_is_the_first_players_not_seat_ones():
    # the first player (seat 2 in odd games, seat 1 in even ones) always wins: seat rates are even
    rows = [row(s, [10, 5] if s % 2 == 0 else [5, 10], first=s % 2) for s in range(20)]
    first = designer.first_player(rows)
    assert first["rate"] == 1.0 and first["p"] == pytest.approx(2 * 0.5**20)
    summary = stats.summarize(rows)
    assert summary["seats"][0]["win_rate"]["p"] == 0.5
    assert summary["first_player"]["rate"] == 1.0


def test_the_deciding_category_is_the_one_winners_score_in():
    rows = [row(s, [10 + s % 3, 4], breakdown=[{"A": 8 + s % 3, "B": 2}, {"A": 2, "B": 2}]) for s in range(12)]
    [a, b] = designer.deciding(rows, ["A", "B"])
    assert a["rule"] == "A" and a["d"] > 2 and b["d"] is None  # B never varies: no spread to divide by


def test_picks_count_offers_takes_and_the_win_rate_either_way():
    # seat 0 is offered "x" in every game and takes it in games 0-5 (and wins those), passes in 6-9
    rows = []
    for s in range(10):
        took = s < 6
        picks = {
            "7": {
                "title": "Which?",
                "things": {"x": [[1, 1 if took else 0], [0, 0]], "y": [[1, 0 if took else 1], [0, 0]]},
            }
        }
        rows.append(row(s, [9, 1] if took else [1, 9], picks=picks))
    [entry] = designer.picks(rows)
    x = entry["things"]["x"]
    assert (x["offered"], x["taken"], x["rate"]) == (10, 6, 0.6)
    assert (x["win_taken"], x["win_passed"]) == (1.0, 0.0)
    assert entry["never"] == [] and entry["always"] == []
    text = tables.format_summary(stats.summarize(rows))
    assert "Choices: Which? (line 7; least taken first)" in text


def test_a_thing_never_taken_is_listed():
    rows = [
        row(s, [1, 0], picks={"3": {"title": "Pick", "things": {"good": [[1, 1], [0, 0]], "bad": [[1, 0], [0, 0]]}}})
        for s in range(6)
    ]
    [entry] = designer.picks(rows)
    assert entry["never"] == ["bad"] and entry["always"] == ["good"]


def test_the_report_plots_pick_rates_with_their_intervals(tmp_path):
    pytest.importorskip("matplotlib")
    from meeple.interpreter.lab import report

    # "bad" is offered in all 8 games and never taken; "good" taken in all 8; "rare" offered in 2, taken in 1
    rows = [
        row(
            s,
            [1, 0],
            picks={
                "3": {
                    "title": "Pick",
                    "things": {
                        "good": [[1, 1], [0, 0]],
                        "bad": [[1, 0], [0, 0]],
                        **({"rare": [[1, s % 2], [0, 0]]} if s < 2 else {}),
                    },
                }
            },
        )
        for s in range(8)
    ]
    summary = stats.summarize(rows)
    [shown] = report.pick_rates([summary])
    assert shown["title"] == "Pick" and shown["things"] == ["bad", "rare", "good"]  # rarest picks first
    ((bad, rare, good),) = shown["sides"]
    assert bad[0] == 0.0 and good[0] == 1.0 and rare[0] == 0.5
    assert 0 < bad[2] < 0.4 and 0.6 < good[1] < 1 and rare[1] < 0.5 < rare[2]  # Wilson, 8 and 2 offers
    files = report.write_report(tmp_path / "r.html", summary, rows)
    assert str(tmp_path / "r_picks.png") in files and "taken when offered" in (tmp_path / "r.html").read_text()
    no_picks = [row(s, [1, 0]) for s in range(4)]
    assert report.pick_rates([stats.summarize(no_picks)]) == []
    assert not any(
        f.endswith("_picks.png") for f in report.write_report(tmp_path / "n.html", stats.summarize(no_picks), no_picks)
    )


def test_a_played_game_records_its_choices(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(
        'game "G"\nplayers 2\nenum fruit = apple | pear\ncounter n per player = 0\n'
        "setup:\n    for each player in turn_order:\n"
        '        choose f from fruit "Which fruit?":\n            n += 1 if f == apple else 0\n'
        'score "N": n\n'
    )
    r = play_row(Side(str(path), 2, ("random",)), 4)
    [(line, entry)] = r["picks"].items()
    assert entry["title"] == "Which fruit?" and set(entry["things"]) == {"apple", "pear"}
    assert [sum(seat[0] for seat in entry["things"][f]) for f in ("apple", "pear")] == [2, 2]
    assert sum(seat[1] for f in ("apple", "pear") for seat in entry["things"][f]) == 2
    assert r["first_player"] == 0 and r["margin"] == abs(r["scores"][0] - r["scores"][1])


class Scripted:
    """Totals after each decision, and the phase entry the game is in then, as scripted."""

    def __init__(self, steps):
        self.steps = steps

    def totals(self, state):
        return self.steps[state["i"]][1]


def test_rounds_are_passes_through_the_phase_entered_most_with_the_totals_when_each_ended():
    # setup (entry 1) -> round (2) -> round (3) -> round (4), totals after each decision
    steps = [
        (("setup", 1), [0, 0]),
        (("round", 2), [0, 0]),  # the setup ended with totals 0, 0
        (("round", 2), [2, 1]),
        (("round", 3), [2, 1]),  # the first round ended at 2, 1
        (("round", 4), [5, 1]),  # the second at 5, 1 (the third began in the same step)
        (("round", 4), [6, 4]),
    ]
    rec = GameRecord(Scripted(steps), 2)
    rec.first_player, rec.phase, rec.seq = 0, "setup", 1
    for i, ((phase, seq), _) in enumerate(steps):
        rec.after({"i": i, "phase": phase, "seq": seq})
    got = rec.fields([7, 4], [0])  # the game ended at 7, 4
    assert (got["rounds"], got["round_phase"]) == (3, "round")
    assert got["round_totals"] == [[2, 1], [5, 1], [7, 4]]


def test_totals_per_round_follow_the_winners_and_the_others():
    rows = []
    for s in range(4):
        r = row(s, [6, 3])  # P1 wins every game: 2 a round against 1
        r.update(rounds=3, round_phase="round", round_totals=[[2, 1], [4, 2], [6, 3]])
        rows.append(r)
    short = row(9, [2, 1])
    short.update(rounds=1, round_phase="round", round_totals=[[2, 1]])
    got = designer.per_round([*rows, short])
    assert got["phase"] == "round"
    assert [(d["round"], d["games"]) for d in got["rounds"]] == [(1, 5), (2, 4), (3, 4)]
    assert [(d["winners"], d["others"], d["all"]) for d in got["rounds"]] == [(2, 1, 1.5), (4, 2, 3), (6, 3, 4.5)]
    text = tables.format_summary(stats.summarize([*rows, short]))
    assert "Totals at the end of each round (a round: one pass through the phase round)" in text
    assert designer.per_round([row(1, [1, 0])]) is None  # rows without rounds (older files): no table


def test_a_played_game_counts_its_rounds(tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(
        'game "G"\nplayers 2\ncounter n per player = 0\ncounter r = 0\n'
        "setup:\n    next round\n"
        "phase round:\n    r += 1\n    for each player in turn_order:\n"
        '        choose k from [1, 2] "How many?":\n            n[player] += k\n'
        "    if r < 3:\n        next round\n"
        'score "N": n\n'
    )
    row_ = play_row(Side(str(path), 2, ("random",)), 4)
    assert row_["error"] is None
    assert (row_["rounds"], row_["round_phase"]) == (3, "round")
    assert row_["round_totals"][-1] == row_["scores"]
    assert all(
        a <= b for earlier, later in zip(row_["round_totals"], row_["round_totals"][1:]) for a, b in zip(earlier, later)
    )
    assert all(1 <= t <= 2 for t in row_["round_totals"][0])  # one choice of 1 or 2 each in the first round
