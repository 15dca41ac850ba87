"""The designer's lab: seeded simulations, their rows, processes and a Dask cluster, comparisons."""

from __future__ import annotations

import json

import pytest

from meeple.cli import main
from meeple.interpreter import runner
from meeple.interpreter.agents import AgentError, agent_class
from meeple.interpreter.agents.mcts import MctsAgent, rank_utility
from meeple.interpreter.lab.rows import read_rows, write_rows
from meeple.interpreter.lab.runs import run_rows
from meeple.interpreter.lab.simulate import Side, play_row, tasks_for
from tests.conftest import shipped

TTT = Side("tic_tac_toe", 2, ("random",))
WG = Side("wild_gardens", 2, ("random",))


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


class TestRows:
    def test_a_row_describes_the_game(self):
        row = play_row(WG, 5)
        assert row["error"] is None, row["error"]
        assert row["seed"] == 5 and row["players"] == 2 and row["agents"] == ["random"]
        assert len(row["scores"]) == 2 and row["scores"] == [sum(b.values()) for b in row["breakdown"]]
        assert {r["player"] for r in row["ranking"]} == {0, 1}
        assert row["winners"] == [r["player"] for r in row["ranking"] if r["place"] == 1]
        assert row["decisions"] > 50 and row["steps"] > row["decisions"] and row["branching"] > 1
        assert sum(row["actions"].values()) > 0
        json.dumps(row)  # plain data

    def test_a_row_is_the_game_meeple_run_plays(self, capsys):
        row = play_row(WG, 9)
        code, out, _ = run(capsys, "run", "wild_gardens", "--players", "2", "--seed", "9", "--json")
        ran = json.loads(out)
        assert code == 0
        assert row["scores"] == [s["total"] for s in ran["scores"]]
        assert row["decisions"] == ran["decisions"]

    def test_a_broken_game_is_an_error_row_not_an_exception(self, tmp_path):
        bad = tmp_path / "loop.rules"
        bad.write_text(
            'game "L"\nplayers 2\ncounter n = 0\nsetup:\n    next a\nphase a:\n'
            "    n += 1\n    n = [1, 2, 3][n]\n    next a\n"
        )
        row = play_row(Side(str(bad), 2), 1)
        assert row["scores"] is None and "no item 3" in row["error"] and row["error"].startswith(str(bad))

    def test_processes_give_the_same_rows_as_one_process(self):
        tasks = tasks_for([TTT], 12, 100)
        alone = run_rows(tasks, jobs=1)
        spread = run_rows(tasks, jobs=2)
        strip = lambda rows: [{k: v for k, v in r.items() if k not in ("seconds", "cpu")} for r in rows]  # noqa: E731
        assert strip(alone) == strip(spread)
        assert [r["seed"] for r in alone] == list(range(100, 112))

    def test_results_merge_and_count_each_game_once(self, tmp_path):
        rows = run_rows(tasks_for([TTT], 6, 1))
        write_rows(tmp_path / "a.jsonl", rows[:4])
        write_rows(tmp_path / "b.jsonl", rows[2:])
        merged = read_rows([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])
        assert sorted(r["seed"] for r in merged) == list(range(1, 7))


def test_a_local_dask_cluster_plays_the_same_games(tmp_path, capsys):
    from dask import distributed

    tasks = tasks_for([TTT], 8, 40)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_cluster = run_rows(tasks, scheduler=cluster.scheduler_address)
        # ...and through the command line, as a designer would start it
        code, out, err = run(
            capsys,
            "simulate",
            "tic_tac_toe",
            "-n",
            "8",
            "--seed",
            "40",
            "--agents",
            "random",
            "--scheduler",
            cluster.scheduler_address,
            "--out",
            str(tmp_path / "rows.jsonl"),
        )
    here = run_rows(tasks)
    assert [(r["seed"], r["scores"], r["decisions"]) for r in on_cluster] == [
        (r["seed"], r["scores"], r["decisions"]) for r in here
    ]
    assert code == 0, err
    written = read_rows([tmp_path / "rows.jsonl"])
    assert [(r["seed"], r["scores"]) for r in written] == [(r["seed"], r["scores"]) for r in here]


class TestCommands:
    def test_simulate_writes_rows_and_a_summary(self, tmp_path, capsys):
        out_file = tmp_path / "rows.jsonl"
        code, out, err = run(capsys, "simulate", "tic_tac_toe", "-n", "30", "--out", str(out_file))
        assert code == 0, err
        rows = [json.loads(line) for line in out_file.read_text().splitlines()]
        assert [r["seed"] for r in rows] == list(range(1, 31))
        assert "tic_tac_toe (base): 30 games, 2 players, 0 errors" in out
        wins = sum(1 for r in rows if r["winners"] == [0]) + sum(0.5 for r in rows if r["winners"] == [0, 1])
        assert f"{100 * wins / 30:.1f}%" in out  # P1's win rate, shared wins split

    def test_summarize_reads_what_simulate_wrote(self, tmp_path, capsys):
        out_file = tmp_path / "rows.jsonl"
        run(capsys, "simulate", "tic_tac_toe", "-n", "10", "--out", str(out_file))
        code, out, _ = run(capsys, "summarize", str(out_file), str(out_file))
        assert code == 0 and "10 games" in out

    def test_compare_a_variant_with_a_report(self, tmp_path, capsys):
        report = tmp_path / "r.html"
        code, out, err = run(
            capsys, "compare", "mudcake_fair", "--variant", "picky_judges", "-n", "40", "--report", str(report)
        )
        assert code == 0, err
        assert "+picky_judges against base, 40 games paired by seed" in out
        # Picky judges make every worm cost a point, so wormcakes stop paying: the rule moves.
        line = next(ln for ln in out.splitlines() if ln.startswith("rule Worms (per seat)"))
        assert line.rstrip().endswith("*")
        html = report.read_text()
        assert "<img" in html and "data:image/png;base64," in html
        assert (tmp_path / "r_scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    def test_compare_two_files(self, tmp_path, capsys):
        from tests.conftest import ROOT

        a = ROOT / "rulesets/classic/tic_tac_toe.rules"
        b = tmp_path / "ttt_b.rules"
        b.write_text(a.read_text().replace('score "Win": 1 if', 'score "Win": 2 if'))
        code, out, err = run(capsys, "compare", str(a), str(b), "-n", "20")
        assert code == 0, err
        assert "ttt_b against tic_tac_toe" in out

    def test_two_files_of_the_same_name_are_sides_a_and_b(self, tmp_path, capsys):
        from tests.conftest import ROOT

        text = (ROOT / "rulesets/classic/tic_tac_toe.rules").read_text()
        for folder in ("one", "two"):
            (tmp_path / folder).mkdir()
            (tmp_path / folder / "game.rules").write_text(text)
        code, out, err = run(
            capsys, "compare", str(tmp_path / "one/game.rules"), str(tmp_path / "two/game.rules"), "-n", "10"
        )
        assert code == 0, err
        assert "B against A, 10 games paired by seed" in out

    @pytest.mark.parametrize(
        "args, message",
        [
            (["simulate", "tic_tac_toe", "-n", "0"], "-n must be at least 1"),
            (["simulate", "tic_tac_toe", "--agents", "nobody"], "unknown agent `nobody`"),
            (["simulate", "tic_tac_toe", "--agents", "mcts@zero"], "give mcts a budget"),
            (["compare", "tic_tac_toe"], "say what to compare"),
            (["simulate", "no_such_game"], "no_such_game"),
            (["summarize", "/nonexistent/rows.jsonl"], "cannot read"),
        ],
    )
    def test_bad_command_lines_are_one_line(self, capsys, args, message):
        code, _, err = run(capsys, *args)
        assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


class TestMcts:
    def test_budget_names(self):
        assert agent_class("mcts") is MctsAgent
        assert agent_class("mcts@50")(shipped("tic_tac_toe"), 0, 1).iterations == 50
        assert agent_class("mcts@0.5s")(shipped("tic_tac_toe"), 0, 1).seconds == 0.5
        with pytest.raises(AgentError):
            agent_class("mcts@-3")
        assert agent_class("planner@40")(shipped("tic_tac_toe"), 0, 1).iterations == 40
        assert agent_class("planner@1s")(shipped("tic_tac_toe"), 0, 1).seconds == 1
        with pytest.raises(AgentError, match="planner@100"):
            agent_class("planner@x")

    def test_planner_widens_the_root_with_its_visits(self):
        """Queen's Wishes offers many placements: a small budget searches only the best few by outlook."""
        from meeple.interpreter.agents.planner import PlannerAgent

        engine = shipped("queens_wishes")
        state, _ = engine.start(2, 1)
        d = engine.decision(state)
        while len(d.options) < 30:
            state, _ = engine.apply(state, 0)
            d = engine.decision(state)
        agent = PlannerAgent(engine, d.actor, 1, iterations=16)
        seen = []
        real = agent.iterate
        agent.iterate = lambda root, view: (real(root, view), seen.append(len(root.children)))[0]
        agent.choose(engine.view(state, d.actor), d)
        assert seen[-1] == 1 + int(2.0 * 15**0.5) < len(d.options)

    def test_planner_budget_grows_with_the_options(self):
        """`planner` (no budget given) searches 30 iterations plus one per option: 39 over tic-tac-toe's
        nine squares, 37 once two are taken; `planner@N` keeps N."""
        from meeple.interpreter.agents.planner import PlannerAgent

        engine = shipped("tic_tac_toe")
        state, _ = engine.start(2, 1)
        agent = agent_class("planner")(engine, 0, 1)
        done = []
        real = agent.iterate
        agent.iterate = lambda root, view: (real(root, view), done.append(1))[0]
        d = engine.decision(state)
        agent.choose(engine.view(state, 0), d)
        assert len(done) == 39
        state, _ = engine.apply(state, "board@4")
        state, _ = engine.apply(state, "board@0")
        done.clear()
        agent.choose(engine.view(state, 0), engine.decision(state))
        assert len(done) == 37
        assert PlannerAgent(engine, 0, 1, iterations=12).per_option is False

    def test_planner_takes_greedys_best_among_too_many_options_to_search(self):
        """A Queen's Wishes placement (over a hundred options): `planner` takes the option greedy's
        look ranks first, without searching; planner@N searches it."""
        engine = shipped("queens_wishes")
        state, _ = engine.start(2, 1)
        d = engine.decision(state)
        while len(d.options) <= 12:
            state, _ = engine.apply(state, 0)
            d = engine.decision(state)
        view = engine.view(state, d.actor)
        for name, searched in (("planner", False), ("planner@3", True)):
            agent = agent_class(name)(engine, d.actor, 5)
            done = []
            real = agent.iterate
            agent.iterate = lambda root, v, real=real: (real(root, v), done.append(1))[0]
            agent.choose(view, d)
            assert bool(done) is searched
        ranked = agent_class("planner")(engine, d.actor, 5).greedy_order(view, d)
        assert agent_class("planner")(engine, d.actor, 5).choose(view, d) == ranked.index(0)

    def test_it_takes_a_win_and_blocks_a_loss(self):
        engine = shipped("tic_tac_toe")
        state, _ = engine.start(2, 1)
        for cell in ["board@0", "board@3", "board@1"]:  # X threatens the top row
            state, _ = engine.apply(state, cell)
        d = engine.decision(state)  # O must block at board@2
        agent = MctsAgent(engine, 1, 7, iterations=300)
        assert d.options[agent.choose(engine.view(state, 1), d)].id == "board@2"
        state, _ = engine.apply(state, "board@8")  # O does not block; X can win
        d = engine.decision(state)
        agent = MctsAgent(engine, 0, 7, iterations=300)
        assert d.options[agent.choose(engine.view(state, 0), d)].id == "board@2"

    @pytest.mark.parametrize("agent", ["mcts@20", "planner@20", "greedy"])
    def test_same_seed_and_budget_same_choices(self, agent):
        rows = [play_row(Side("queens_wishes", 2, (agent, "random")), 3) for _ in range(2)]
        assert rows[0]["error"] is None and rows[0] == {**rows[1], "seconds": rows[0]["seconds"], "cpu": rows[0]["cpu"]}

    @pytest.mark.parametrize("agent", ["mcts@10", "planner@10", "greedy", "rollout@1"])
    @pytest.mark.parametrize("game", ["apothebakery", "wild_gardens"])
    def test_it_never_reads_the_true_state(self, monkeypatch, agent, game):
        """The agent gets the view: hidden cards are `?`; it must not find them elsewhere,
        neither to play on nor to value (score, hints) a position."""
        engine = shipped(game)
        state, _ = engine.start(2, 4)
        for _ in range(6):  # a few decisions in, so hands and bags hold something
            state, _ = engine.apply(state, 0)
        d = engine.decision(state)
        view = engine.view(state, d.actor)
        seen = []
        for name in ("apply", "outlook", "total", "hints", "decision"):
            real = getattr(engine, name)
            monkeypatch.setattr(engine, name, lambda s, *a, _real=real, **k: (seen.append(s), _real(s, *a, **k))[1])
        agent_class(agent)(engine, d.actor, 1).choose(view, d)
        assert seen and all(s is not state and s["rng"] != state["rng"] for s in seen)

    HIDDEN_LOCAL = """
game "H"
players 2
component card from "cards.csv":
    value: int
zone deck: deck of card
zone hand per player: hand of card, private
counter won per player = 0
setup:
    move card to deck
    shuffle deck
    draw 3 from deck into hand[0]
    choose c from hand[0] by 0:
        choose y from [1, 2, 3] by 1:
            if c.value > y:
                won[0] = 1
            else:
                won[1] = 1
    end game
score "Won": won
"""

    @pytest.mark.parametrize(
        "agents",
        [
            ["random", "mcts@50"],
            ["random", "mcts@2"],
            ["random", "greedy"],
            ["random", "planner@20"],
            ["random", "rollout@2"],
        ],
    )
    def test_a_rule_that_needs_what_the_bot_cannot_see_does_not_stop_it(self, tmp_path, agents):
        """P2 decides while P1's chosen card (hidden) sits in a local: every guess fails on it."""
        from tests.conftest import rules

        engine = rules(self.HIDDEN_LOCAL, tmp_path, {"cards.csv": "id,value\na,1\nb,2\nc,3\nd,4\ne,5\n"})
        for seed in range(1, 5):
            result = runner.play(engine, 2, seed, agents)
            assert result.state["over"], f"seed {seed}"

    def test_a_failing_game_is_one_error_row(self, monkeypatch):
        def broken(*args, **kwargs):
            raise ZeroDivisionError("a bot's own bug")

        monkeypatch.setattr(MctsAgent, "choose", broken)
        row = play_row(Side("tic_tac_toe", 2, ("mcts@5",)), 1)
        assert (
            row["scores"] is None
            and row["error"] == "agent `mcts` in seat P1 failed: ZeroDivisionError: a bot's own bug"
        )

    def test_rank_utility(self):
        assert rank_utility([10, 5, 1]) == [1.0, 0.5, 0.0]
        assert rank_utility([7, 7]) == [0.5, 0.5]
        assert rank_utility([9, 4, 4]) == [1.0, 0.25, 0.25]


class TestReport:
    """`meeple report`: the report of saved rows, two kinds of games paired by seed across files."""

    def test_two_runs_saved_apart_are_compared_by_seed(self, tmp_path, capsys):
        base, picky = tmp_path / "base.jsonl", tmp_path / "picky.jsonl"
        for out, more in ((base, []), (picky, ["--variant", "picky_judges"])):
            code, _, err = run(
                capsys, "simulate", "mudcake_fair", "-n", "30", "--agents", "random", "--out", str(out), *more
            )
            assert code == 0, err
        page = tmp_path / "r.html"
        code, out, err = run(capsys, "report", str(base), str(picky), "--html", str(page))
        assert code == 0, err
        assert out.startswith("+picky_judges against base: 30 games paired by seed (agents: random)")
        _, direct, _ = run(
            capsys, "compare", "mudcake_fair", "--variant", "picky_judges", "-n", "30", "--agents", "random"
        )
        assert out == direct  # the same report as the run that played both sides
        html = page.read_text()
        assert '<section class="findings">' in html and "+picky_judges against base" in html

    def test_one_kind_of_game_is_summarized(self, tmp_path, capsys):
        rows = tmp_path / "rows.jsonl"
        run(capsys, "simulate", "tic_tac_toe", "-n", "10", "--agents", "random", "--out", str(rows))
        code, out, _ = run(capsys, "report", str(rows))
        assert code == 0 and out.startswith("10 games of 2 players (agents: random), 0 errors.")

    def test_three_kinds_are_refused(self, tmp_path, capsys):
        paths = []
        for agents in ("random", "greedy", "mcts@5"):
            paths.append(str(tmp_path / f"{agents}.jsonl"))
            run(capsys, "simulate", "tic_tac_toe", "-n", "2", "--agents", agents, "--out", paths[-1])
        code, _, err = run(capsys, "report", *paths)
        assert code == 2 and "3 kinds of games" in err
