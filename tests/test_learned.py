"""`meeple train`: a state evaluation fitted from self-play, saved next to the ruleset, loaded by the
planner and the rollout agent."""

from __future__ import annotations

import json

import pytest

from meeple.cli import main
from meeple.interpreter.agents import agent_class
from meeple.interpreter.agents.learned import Model, feature_names, features, load_model, model_path
from meeple.interpreter.commands.train import save, train
from tests.conftest import rules

RACE = """
game "Race"
players 2
counter coins per player = 0
counter gems per player = 0
counter round_number = 0
zone hand per player: pile of token
component token from "tokens.csv":
    size: int
setup:
    next round
phase round:
    round_number += 1
    for each player in turn_order:
        choose n from [0, 1, 2]:
            coins += n
        if coins >= 3:
            coins -= 3
            gems += 1
    if round_number < 6:
        next round
score "Gems": gems * 3
hint "Coins toward a gem" worth 1 / 2: coins
"""
FILES = {"tokens.csv": "id,size\na,1\n"}


def test_features_are_generic_and_per_seat(tmp_path):
    engine = rules(RACE, tmp_path, FILES)
    assert feature_names(engine.game) == [
        "score:Gems",
        "hint:Coins toward a gem",
        "lead",
        "counter:coins",
        "counter:gems",
        "zone:hand",
        "game:round_number",
    ]
    state, _ = engine.start(2, 1)
    state, _ = engine.apply(state, 2)
    assert features(engine, state, 0) == [0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0]
    assert features(engine, state, 1) == [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]  # the round is everyone's


GRID = """
game "Fill"
players 2
enum mark = x | o
grid board per player: 2 x 3 of mark
flag done = false
setup:
    for each player in turn_order:
        choose c from cells(board) where c.empty:
            c.mark = x
    done = true
score "Marks": count(each c in cells(board) where c.mark == x)
"""


def test_a_grid_kept_per_player_counts_its_empty_cells_and_a_flag_counts_as_a_number(tmp_path):
    engine = rules(GRID, tmp_path)
    names = feature_names(engine.game)
    assert names[:4] == ["score:Marks", "lead", "empty:board", "game:done"]
    assert all(n.split(":")[0] in ("groups", "rows", "cols") for n in names[4:])  # the grid's shape
    state, _ = engine.start(2, 1)
    state, _ = engine.apply(state, 0)
    assert features(engine, state, 0)[:4] == [1.0, 1.0, 5.0, 0.0]
    assert features(engine, state, 1)[:4] == [0.0, -1.0, 6.0, 0.0]
    state, _ = engine.apply(state, 4)
    assert state["over"] and features(engine, state, 1)[:4] == [1.0, 0.0, 5.0, 1.0]


SHAPED = """
game "Shaped"
players 1
enum mark = x | o
grid board per player: 3 x 4 of mark:
    terrain from "layout.txt": "#" = path, "." = grass
setup:
    pass
score "Marks": count(each c in cells(board) where c.mark == x)
"""
LAYOUT = {"layout.txt": "..#.\n..#.\n..#.\n"}


def test_a_grids_shape_groups_terrain_and_lines(tmp_path):
    """What the score does not count: groups of each kind by size, squares of each kind on
    each terrain, rows and columns by how many of a kind they hold (shapes.py)."""
    engine = rules(SHAPED, tmp_path, LAYOUT)
    state, _ = engine.start(1, 1)
    # x x . o      three x in one group (an L), one o alone on grass,
    # x . . o      two o in a column on grass, and the path column (2) all empty.
    # . . . .
    cells = state["grids"]["board/0"]["cells"]
    for i, mark in ((0, "x"), (1, "x"), (4, "x"), (3, "o"), (7, "o")):
        cells[i] = mark
    got = dict(zip(feature_names(engine.game), features(engine, state, 0)))
    shape = {k: v for k, v in got.items() if v and k.split(":")[0] in ("groups", "cells", "rows", "cols")}
    assert shape == {
        "groups:board:x:3": 1,
        "groups:board:o:2": 1,
        "groups:board:empty:5": 1,  # 7 empty: one group
        "cells:board:terrain=grass:x": 3,
        "cells:board:terrain=grass:o": 2,
        "cells:board:terrain=grass:empty": 4,
        "cells:board:terrain=path:empty": 3,
        "rows:board:x:2": 1,
        "rows:board:x:1": 1,
        "rows:board:o:1": 2,
        "rows:board:empty:1": 1,
        "rows:board:empty:2": 1,
        "rows:board:empty:3": 1,  # 4 empty: 3 or more
        "cols:board:x:2": 1,
        "cols:board:x:1": 1,
        "cols:board:o:2": 1,
        "cols:board:empty:1": 2,
        "cols:board:empty:2": 1,
        "cols:board:empty:3": 1,
    }
    assert got["empty:board"] == 7 and got["score:Marks"] == 3


def test_a_grids_shape_is_named_in_a_fixed_order_from_its_kinds_and_terrains(tmp_path):
    names = [n for n in feature_names(rules(SHAPED, tmp_path, LAYOUT).game) if ":board:" in n]
    kinds = ("x", "o", "empty")
    assert names == (
        [f"groups:board:{v}:{k}" for v in kinds for k in range(1, 6)]
        + [f"cells:board:terrain={t}:{v}" for t in ("grass", "path") for v in kinds]
        + [f"{line}:board:{v}:{k}" for line in ("rows", "cols") for v in kinds for k in (1, 2, 3)]
    )


def test_the_score_now_counts_at_face_value_and_the_rest_is_fitted(tmp_path):
    """The fit is of the points still to come: each score rule's point is worth one point at
    the end, and the other features learn how far the final score lands from the score now."""
    engine = rules(RACE, tmp_path, FILES)
    data = train(engine, 2, 12, 5, ["random"])
    model = Model(data)
    names = feature_names(engine.game)
    assert model.weights[names.index("score:Gems")] == pytest.approx(1.0)
    # Coins become gems later (3 coins, 3 points): a coin now predicts points still to come
    # (it counts as a coin and as half a point of the hint).
    coin = model.weights[names.index("counter:coins")] + model.weights[names.index("hint:Coins toward a gem")] / 2
    print(f"a coin is worth {coin:.2f} points")
    assert coin > 0.3


def test_training_is_reproducible_and_the_model_round_trips(tmp_path):
    engine = rules(RACE, tmp_path, FILES)
    data = train(engine, 2, 12, 5, ["random"])
    assert data == train(engine, 2, 12, 5, ["random"]), "same seed, same model"
    assert data != train(engine, 2, 12, 6, ["random"])
    assert data["positions"] > 0 and data["digest"] == engine.game.digest
    path = model_path(engine.game)
    assert path == tmp_path / "game.model.json"
    save(data, path)
    loaded = load_model(engine.game)
    assert loaded is not None and loaded.data == json.loads(json.dumps(data))
    state, _ = engine.start(2, 3)
    for choice in (2, 0, 2, 0, 2, 0):  # P1 takes 2 coins a round, P2 none: 2 gems to 0
        state, _ = engine.apply(state, choice)
    assert loaded.predict(engine, state, 0) == Model(data).predict(engine, state, 0)
    # More coins and gems predict a better final score: the fit learned something real.
    assert loaded.predict(engine, state, 0) > loaded.predict(engine, state, 1)
    assert agent_class("planner@5")(engine, 0, 1).model is loaded
    assert agent_class("rollout@2")(engine, 0, 1).model is loaded


def test_the_rollout_values_its_play_ons_by_the_model(tmp_path):
    """With a model, a play-on's end is valued by the predicted final scores, not the outlook;
    a finished game by its score as the rules count it (and who won)."""
    from meeple.interpreter.agents.rollout import WIN, margin

    engine = rules(RACE, tmp_path, FILES)
    model = Model(train(engine, 2, 12, 5, ["random"]))
    state, _ = engine.start(2, 3)
    for choice in (2, 0, 2, 0):
        state, _ = engine.apply(state, choice)
    assert margin(engine, state, 0, model) == model.predict(engine, state, 0) - model.predict(engine, state, 1)
    assert margin(engine, state, 0) == engine.outlook(state, 0) - engine.outlook(state, 1)
    assert margin(engine, state, 0, model) != margin(engine, state, 0)
    while not state["over"]:
        state, _ = engine.apply(state, 0)
    gap = engine.total(state, 0) - engine.total(state, 1)
    assert margin(engine, state, 0, model) == gap + WIN * ((gap > 0) - (gap < 0))  # no tie-breaks: the points


def test_a_model_of_other_rules_is_ignored(tmp_path):
    engine = rules(RACE, tmp_path, FILES)
    data = train(engine, 2, 3, 1, ["random"])
    save({**data, "digest": "0" * 16}, model_path(engine.game))
    assert load_model(rules(RACE, tmp_path, FILES).game) is None


def test_a_model_of_another_option_is_ignored(tmp_path):
    """The digest covers the rules' text and files; a scoring card chosen by an option is not in
    it, and a model of one card's points still to come is wrong for the other."""
    carded = RACE.replace("players 2\n", "players 2\noption card = A | B\n")
    engine = rules(carded, tmp_path, FILES)
    data = train(engine, 2, 3, 1, ["random"])
    assert data["options"] == {"card": "A"} and data["variants"] == []
    save(data, model_path(engine.game))
    assert load_model(rules(carded, tmp_path, FILES).game) is not None
    assert load_model(rules(carded, tmp_path, FILES, options={"card": "B"}).game) is None


def test_each_way_of_playing_has_its_own_model_file(tmp_path, capsys):
    """A game played with another option or a variant learns other points still to come: its
    model has its own file, so one ruleset can ship a model for every card."""
    carded = RACE.replace("players 2\n", "players 2\noption card = A | B\n")
    carded += 'variant fast "Quick":\n    counter gems per player = 1\n'
    (tmp_path / "tokens.csv").write_text(FILES["tokens.csv"])
    (tmp_path / "race.rules").write_text(carded.lstrip("\n"))
    path = str(tmp_path / "race.rules")
    assert main(["train", path, "--games", "3", "--option", "card=B", "--agents", "random"]) == 0
    assert "race.card=B.model.json" in capsys.readouterr().out
    assert main(["train", path, "--games", "3", "--option", "card=B", "--variant", "fast"]) == 0
    assert (tmp_path / "race.card=B.+fast.model.json").exists() and not (tmp_path / "race.model.json").exists()
    from meeple.interpreter.loader import load

    card_b = load(path, {"card": "B"}).game
    assert model_path(card_b) == tmp_path / "race.card=B.model.json"
    assert model_path(load(path, {"card": "A"}).game) == tmp_path / "race.model.json"
    assert load_model(card_b).data["options"] == {"card": "B"} and load_model(card_b).data["variants"] == []
    assert load_model(load(path, {"card": "B"}, ["fast"]).game).data["variants"] == ["fast"]
    assert load_model(load(path).game) is None  # card A has none yet


def test_training_in_several_processes_makes_the_same_model(tmp_path):
    (tmp_path / "tokens.csv").write_text(FILES["tokens.csv"])
    (tmp_path / "race.rules").write_text(RACE.lstrip("\n"))
    from meeple.interpreter.loader import load

    engine = load(str(tmp_path / "race.rules"))
    assert train(engine, 2, 8, 4, ["greedy", "random"], jobs=2) == train(engine, 2, 8, 4, ["greedy", "random"])


def test_training_reports_how_well_it_predicts_games_it_did_not_see(tmp_path, capsys):
    """R^2 on the positions fitted flatters a model; the held-out figure is over games left out of
    the fit, and a larger ridge penalty shrinks what is fitted (the score stays at face value)."""
    engine = rules(RACE, tmp_path, FILES)
    loose, tight = train(engine, 2, 20, 5, ["random"]), train(engine, 2, 20, 5, ["random"], ridge=1e6)
    assert loose["ridge"] == 1.0 and tight["ridge"] == 1e6
    assert loose["r2_held_out"] is not None and loose["r2_held_out"] < loose["r2"]
    names = feature_names(engine.game)
    free = [i for i, n in enumerate(names) if not n.startswith("score:")]
    assert sum(abs(tight["weights"][i]) for i in free) < sum(abs(loose["weights"][i]) for i in free) / 100
    assert tight["weights"][names.index("score:Gems")] == pytest.approx(loose["weights"][names.index("score:Gems")])
    assert train(engine, 2, 3, 5, ["random"])["r2_held_out"] is None  # too few games to hold any out
    (tmp_path / "race.rules").write_text(RACE.lstrip("\n"))
    assert main(["train", str(tmp_path / "race.rules"), "--games", "6", "--ridge", "10"]) == 0
    assert "on games held out" in capsys.readouterr().out
    assert main(["train", str(tmp_path / "race.rules"), "--ridge", "-1"]) == 2
    assert "--ridge must be 0 or more" in capsys.readouterr().err


def test_a_mix_of_agents_plays_every_seat(tmp_path, monkeypatch):
    from meeple.interpreter.commands import train as learned

    engine = rules(RACE, tmp_path, FILES)
    seated = []
    monkeypatch.setattr(
        learned, "self_play", lambda engine, players, agents, seed: seated.append(agents) or ([], [0, 0])
    )
    learned.train(engine, 2, 3, 1, ["rollout", "greedy"])
    assert seated == [["rollout", "greedy"], ["greedy", "rollout"], ["rollout", "greedy"]]
    seated.clear()
    learned.train(engine, 2, 2, 1, ["greedy"])
    assert seated == [["greedy", "greedy"]] * 2


def test_meeple_train_writes_the_model(tmp_path, capsys):
    (tmp_path / "tokens.csv").write_text(FILES["tokens.csv"])
    (tmp_path / "race.rules").write_text(RACE.lstrip("\n"))
    assert main(["train", str(tmp_path / "race.rules"), "--games", "4", "--agents", "greedy"]) == 0
    assert "wrote" in capsys.readouterr().out and (tmp_path / "race.model.json").exists()
    assert main(["train", str(tmp_path / "race.rules"), "--players", "5"]) == 2
    err = capsys.readouterr().err
    assert "for 2-2 players, not 5" in err and len(err.strip().splitlines()) == 1


def test_the_plain_python_evaluation_is_the_fitted_regression(tmp_path):
    """The planner evaluates without numpy; what it computes is the ridge fit's prediction."""
    import numpy as np

    engine = rules(RACE, tmp_path, FILES)
    data = train(engine, 2, 12, 5, ["random"])
    model = Model(data)
    state, _ = engine.start(2, 4)
    for choice in (1, 2, 2, 0, 1):
        state, _ = engine.apply(state, choice)
        for p in (0, 1):
            z = (np.array(features(engine, state, p)) - np.array(data["mean"])) / np.array(data["scale"])
            assert model.predict(engine, state, p) == pytest.approx(
                float(z @ np.array(data["weights"])) + data["bias"], rel=1e-9, abs=1e-9
            )


def test_the_shipped_model_of_the_queens_wishes_is_of_its_rules_as_they_are():
    """The Queen's Wishes ships a model (its rollout won a little more often with it, docs/agents.md). An
    edit of the rules or their files changes the digest and the model would be ignored without a
    word: this test says so, and how to retrain it."""
    from tests.conftest import shipped

    engine = shipped("queens_wishes")
    data = json.loads(model_path(engine.game).read_text(encoding="utf-8"))
    retrain = f"retrain: meeple train queens_wishes --games {data['games']} --seed {data['seed']}"
    assert load_model(engine.game) is not None, retrain
    assert data["options"] == {"board": "A", "scoring": "A"} and data["agents"] == ["greedy"]
    assert data["r2_held_out"] > 0.1, "it predicts games it was not fitted on"
    # Card B has its own model (its rollout won 81% against greedy where it won 74% without);
    # board B has none, and the model of card A's points still to come is not used there.
    card_b = shipped("queens_wishes", options={"scoring": "B"})
    data_b = json.loads(model_path(card_b.game).read_text(encoding="utf-8"))
    assert load_model(card_b.game) is not None, retrain + " --option scoring=B"
    assert data_b["options"] == {"board": "A", "scoring": "B"} and data_b["r2_held_out"] > 0.1
    assert load_model(shipped("queens_wishes", options={"board": "B"}).game) is None
