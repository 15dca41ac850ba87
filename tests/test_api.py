"""The public API (`import meeple`): loading, deciding, applying, views, scores, whole games,
agents, traces and notebook display, checked against the engine and the command line."""

from __future__ import annotations

import json

import pytest

import meeple
from meeple.cli import main
from meeple.dsl.compiler import UsageError
from meeple.dsl.errors import MeepleError


def test_the_errors_are_the_engines_own_types():
    assert meeple.UsageError is UsageError and meeple.MeepleError is MeepleError
    assert issubclass(meeple.MissingExtra, UsageError)


class TestLoad:
    def test_by_name_and_by_path_are_the_same_rules(self, tmp_path):
        by_name = meeple.load("queens_wishes", options={"board": "B"}, players=3)
        by_path = meeple.load(by_name.path, options={"board": "B"}, players=3)
        assert by_name.rules.digest == by_path.rules.digest
        assert by_name.options["board"] == "B" and by_name.players == 3
        assert by_name.ruleset == "queens_wishes" and by_path.ruleset == str(by_name.path.resolve())

    def test_default_players_and_variants(self):
        game = meeple.load("mudcake_fair", variants=["picky_judges"])
        assert game.players == 2 and game.variants == ["picky_judges"] and game.player_range == (2, 4)
        assert meeple.load("apothebakery").option_choices["difficulty"] == ["normal", "difficult"]

    @pytest.mark.parametrize(
        "kwargs, message",
        [
            ({"name_or_path": "no_such_game"}, "no_such_game"),
            ({"name_or_path": "tic_tac_toe", "players": 5}, "is for 2-2 players, not 5"),
            ({"name_or_path": "mudcake_fair", "variants": ["nope"]}, "unknown variant `nope`"),
            ({"name_or_path": "queens_wishes", "options": {"board": "Z"}}, "board"),
        ],
    )
    def test_bad_requests_are_usage_errors(self, kwargs, message):
        with pytest.raises(UsageError, match=message):
            meeple.load(**kwargs)

    def test_a_broken_rules_file_is_a_located_error(self, tmp_path):
        bad = tmp_path / "bad.rules"
        bad.write_text('game "x" {\n  players 2..\n}\n')
        with pytest.raises(MeepleError) as caught:
            meeple.load(bad)
        assert str(caught.value).startswith(f"{bad}:1:10: error:")


class TestDeciding:
    def test_label_id_index_and_option_choose_the_same(self):
        state = meeple.load("tic_tac_toe").start(seed=3)
        d = state.decision
        assert d.player == 0 and d.title == "Mark which square?" and len(d.options) == 9
        picked = d.options[4]
        results = {state.apply(x).to_json() for x in (picked, picked.label, picked.id, 4)}
        assert len(results) == 1
        assert state.step == 0 and state.apply(4).step == 1  # the old state is untouched

    def test_a_wrong_choice_names_the_options(self):
        state = meeple.load("tic_tac_toe").start(seed=3)
        with pytest.raises(UsageError, match="not one of P1's options: `board row 1, column 1`"):
            state.apply("the middle")
        with pytest.raises(UsageError, match="0 to 8"):
            state.apply(9)

    def test_applying_after_the_end_is_refused(self):
        result = meeple.load("tic_tac_toe").play(seed=2)
        assert result.state.over and result.state.decision is None
        with pytest.raises(UsageError, match="the game is over"):
            result.state.apply(0)

    def test_the_view_hides_what_a_seat_may_not_see(self):
        state = meeple.load("mudcake_fair", players=3).start(seed=5)
        zones, seen = state.data["zones"], state.view(0)["zones"]
        assert seen["basket/0"] == zones["basket/0"] != [] and seen["market"] == zones["market"]
        assert seen["basket/1"] == ["?"] * len(zones["basket/1"]) and set(seen["deck"]) == {"?"}
        with pytest.raises(UsageError, match="seats are 0 to 2"):
            state.view(3)

    def test_state_data_round_trips_through_json(self):
        game = meeple.load("queens_wishes", players=2)
        state = game.start(seed=4).apply(0).apply(0)
        again = game.state(json.loads(state.to_json()))
        assert again == state and again.decision.labels == state.decision.labels
        assert again.apply(1) == state.apply(1)


class TestWholeGames:
    def test_play_matches_meeple_run(self, capsys):
        game = meeple.load("queens_wishes", players=3)
        result = game.play(agents=["greedy", "random", "random"], seed=7)
        assert (
            main(
                ["run", "queens_wishes", "--players", "3", "--seed", "7", "--agents", "greedy,random,random", "--json"]
            )
            == 0
        )
        cli = json.loads(capsys.readouterr().out)
        assert cli["scores"] == result.scores and cli["ranking"] == result.ranking
        assert cli["decisions"] == result.decisions and result.agents == ["greedy", "random", "random"]
        assert result.scores == result.state.scores and result.ranking == result.state.ranking

    def test_winners_follow_the_outcome_or_the_ranking(self):
        solo = meeple.load("apothebakery", players=1).play(seed=1)  # lost to the game: no winner
        assert solo.outcome[0]["win"] is False and solo.winners == []
        qw = meeple.load("queens_wishes").play(seed=1)
        best = max(s["total"] for s in qw.scores)
        assert qw.outcome is None and all(qw.scores[p]["total"] == best for p in qw.winners)
        assert "place" in qw.table()

    def test_an_agent_object_plays_as_its_name_does(self):
        game = meeple.load("connect_four")
        bot = meeple.agent("greedy", game, seat=1, seed=11)
        assert (
            game.play(agents=["random", bot], seed=11).trace.jsonl()
            == game.play(agents=["random", "greedy"], seed=11).trace.jsonl()
        )

    def test_an_agent_object_plays_only_in_its_seat(self):
        game = meeple.load("connect_four")
        bot = meeple.agent("greedy", game, seat=0)
        with pytest.raises(UsageError, match="made for seat 0, but it would play in seat 1"):
            game.play(agents=[bot], seed=1)  # a short list repeats its last

    def test_an_agent_chooses_for_its_own_seat_only(self):
        game = meeple.load("tic_tac_toe")
        state = game.start(seed=1)
        bot = meeple.agent("planner@20", game, seat=0)
        option = bot.choose(state)
        assert option in state.decision.options
        with pytest.raises(UsageError, match="P2"):
            meeple.agent("random", game, seat=1).choose(state)
        with pytest.raises(meeple.AgentError, match="unknown agent `clever`"):
            meeple.agent("clever", game)
        with pytest.raises(UsageError, match="no seat 2"):
            meeple.agent("random", game, seat=2)


class TestTraces:
    def test_save_read_replay_and_step(self, tmp_path):
        game = meeple.load("tic_tac_toe")
        result = game.play(agents=["random"], seed=5)
        path = tmp_path / "game.jsonl"
        result.trace.save(path)
        trace = meeple.read_trace(path)
        assert trace.decisions == result.decisions and trace.header["seed"] == 5
        assert trace.replay().data == result.state.data
        state = game.start(seed=5)
        for line in trace.lines[2:5]:
            state = state.apply(line["choice"])
        assert trace.at(3).data == state.data
        assert trace.text().startswith("Tic-tac-toe: seed 5, 2 players, agents random,random")

    def test_an_edited_trace_names_its_line(self, tmp_path):
        text = meeple.load("tic_tac_toe").play(seed=5).trace.jsonl().splitlines()
        step = json.loads(text[3])
        step["label"] = "elsewhere"
        text[3] = json.dumps(step)
        with pytest.raises(meeple.TraceError, match="trace:4: this line was edited"):
            meeple.Trace.parse("\n".join(text))

    def test_a_step_out_of_range_is_a_usage_error(self):
        trace = meeple.load("tic_tac_toe").play(seed=5).trace
        with pytest.raises(UsageError, match="step 99 is not in this trace"):
            trace.at(99)


class TestDisplay:
    def test_a_board_game_shows_its_picture(self):
        state = meeple.load("tic_tac_toe").start(seed=1).apply(4)
        page = state._repr_html_()
        assert "<svg" in page and "<?xml" not in page and "P2 chooses" in page and "8 options" in page
        assert state.picture("png")[:4] == b"\x89PNG"

    def test_a_game_without_boards_shows_its_text(self):
        state = meeple.load("mudcake_fair").start(seed=1)
        page = state._repr_html_()
        assert "<svg" not in page and "<pre>start player" in page
        with pytest.raises(ValueError, match="no boards or grids"):
            state.picture()

    def test_a_game_shows_its_flow(self):
        page = meeple.load("queens_wishes")._repr_html_()
        assert "The Queen&#x27;s Wishes" in page and "<svg" in page
