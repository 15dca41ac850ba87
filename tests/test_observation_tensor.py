"""meeple/tensors.py: a seat's tensor changes when anything it may see changes (a counter, a
position on a path board, an item of a zone it sees, a grid's cell) and never when only what it
may not see changes (another's secret counter, the items of zones hidden from it, swapped for
ones with the same back). Mid-game states of every shipped ruleset, every seat."""

from __future__ import annotations

import random

import pytest

import meeple
from meeple import encoding, spaces
from meeple.interpreter.state import HIDDEN, copy_state
from meeple.tensors import TensorEncoder

STEPS = (0, 7, 40)  # random decisions before the state is looked at


def states(name, players=None):
    table = encoding.table(name, players)
    engine = table.engine
    for steps in STEPS:
        state, _ = engine.start(table.players, steps)
        pick = random.Random(steps)
        for _ in range(steps):
            n = engine.option_count(state)
            if not n:
                break
            state, _ = engine.apply(state, pick.randrange(n), inplace=True, events=False)
        yield engine, table.players, state


def other_value(game, v):
    """Another value of the same kind, or None where there is none to try."""
    if type(v) is bool:
        return not v
    if type(v) is int:
        return v + 1
    if type(v) is str:
        for group in (
            [list(b.order) for b in game.boards.values()] + [list(game.components)] + list(game.enums.values())
        ):
            if v in group and len(group) > 1:
                return group[(group.index(v) + 1) % len(group)]
    return None


@pytest.mark.parametrize("name", meeple.rulesets())
def test_what_a_seat_sees_changes_its_tensor_and_nothing_else_does(name):
    tried = 0
    for engine, players, state in states(name):
        game = engine.game
        enc = TensorEncoder(engine, players, spaces.ActionSpace(game, players))
        for seat in range(players):
            view = engine.view(state, seat)
            base = enc.encode(view, seat)
            assert base.shape == (enc.size,)

            def changed(s):
                return not (enc.encode(engine.view(s, seat), seat) == base).all()

            for key, v in view["vars"].items():
                new = other_value(game, v) if v != HIDDEN else None
                s = copy_state(state)
                if v == HIDDEN:  # another's secret: nothing of it may show
                    s["vars"][key] = (state["vars"][key] or 0) + 1 if type(state["vars"][key]) is int else None
                    assert not changed(s), f"{name}: P{seat + 1} sees the secret {key}"
                elif new is not None:
                    s["vars"][key] = new
                    assert changed(s), f"{name}: P{seat + 1} does not see {key} go from {v!r} to {new!r}"
                    tried += 1
            zones = sorted(state["zones"])
            for key in zones:
                seen, real = view["zones"][key], state["zones"][key]
                if not real:
                    continue
                other = next((k for k in zones if k != key and state["zones"][k]), None)
                if other is None:
                    continue
                s = copy_state(state)
                s["zones"][key][0], s["zones"][other][0] = state["zones"][other][0], real[0]
                if not str(seen[0]).startswith(HIDDEN):
                    assert changed(s), f"{name}: P{seat + 1} does not see {real[0]} leave {key}"
                    tried += 1
                elif all(str(x).startswith(HIDDEN) for x in view["zones"][other]) and game.backs.get(
                    real[0], ""
                ) == game.backs.get(state["zones"][other][0], ""):
                    assert not changed(s), f"{name}: P{seat + 1} tells hidden {key} and {other} apart"
            for key, grid in state["grids"].items():
                for i, cell in enumerate(grid["cells"][:3]):
                    content = game.enums.get(game.grids[key.split("/", 1)[0]].content, [])
                    new = None if cell is not None else (content[0] if content else None)
                    if new == cell:
                        continue
                    s = copy_state(state)
                    s["grids"][key]["cells"][i] = new
                    assert changed(s), f"{name}: P{seat + 1} does not see {key}@{i} change"
                    tried += 1
    assert tried > 0


def test_positions_on_a_path_board_show():
    """The issue's case: in Wild Gardens, moving both players along the path changed nothing."""
    table = encoding.table("wild_gardens", 2)
    engine = table.engine
    state, _ = engine.start(2, 3)
    pick = random.Random(3)
    while not (state["vars"]["at/0"] and state["vars"]["at/1"]):  # both on the path
        state, _ = engine.apply(state, pick.randrange(engine.option_count(state)), inplace=True, events=False)
    path = list(next(iter(engine.game.boards.values())).order)
    moved = copy_state(state)
    for p in (0, 1):
        moved["vars"][f"at/{p}"] = path[(path.index(state["vars"][f"at/{p}"]) + 1) % len(path)]
    old = encoding.ViewEncoder(engine, 2, 10)  # the vector of actions="options": blind to it
    assert old.encode(engine.view(moved, 0), 0) == old.encode(engine.view(state, 0), 0)
    enc = TensorEncoder(engine, 2, spaces.ActionSpace(engine.game, 2))
    assert not (enc.encode(engine.view(moved, 0), 0) == enc.encode(engine.view(state, 0), 0)).all()


@pytest.mark.parametrize("name", meeple.rulesets())
def test_a_game_that_hides_nothing_reads_the_state_as_the_view(name):
    for engine, players, state in states(name):
        enc = TensorEncoder(engine, players, spaces.ActionSpace(engine.game, players))
        for seat in range(players):
            by_view = enc.encode(engine.view(state, seat), seat)
            assert (enc.seat_tensor(engine, state, seat) == by_view).all()
    assert enc.needs_view == (name not in ("tic_tac_toe", "connect_four", "breakthrough"))


@pytest.mark.parametrize("name", meeple.rulesets())
def test_the_fast_tensor_is_the_views_tensor_whatever_state_comes_next(name):
    """seat_tensor re-encodes only what changed since the seat's last tensor and makes no view:
    along whole games, and for earlier states thrown in, it equals encode(view) exactly."""
    table = encoding.table(name)
    engine, players = table.engine, table.players
    enc = TensorEncoder(engine, players, spaces.ActionSpace(engine.game, players))
    pick, earlier, compared = random.Random(2), [], 0
    for seed in range(12):  # whole games, a dozen short ones or a few long ones
        state, _ = engine.start(players, seed)
        while (n := engine.option_count(state)) and compared < 400:
            earlier.append(copy_state(state))
            for s in (state, pick.choice(earlier)):
                seat = pick.randrange(players)
                fast = enc.seat_tensor(engine, s, seat)
                assert (fast == enc.encode(engine.view(s, seat), seat)).all(), f"{name}: step {s['step']}, P{seat + 1}"
                compared += 1
            state, _ = engine.apply(state, pick.randrange(n), inplace=True, events=False)
    assert compared > 20


@pytest.mark.parametrize("name", meeple.rulesets())
def test_the_envs_observations_are_the_full_rebuild_over_many_games(name):
    """What the PettingZoo env hands out (meeple.tensor_memo: blocks kept once for every seat,
    a seat's own apart, only what changed encoded again) equals the tensor built afresh from the
    seat's view: for the seat asked, with the items of a set it has picked so far, and for a seat
    picked at random, at every decision of many random games one after another in one env."""
    from meeple.pettingzoo import raw_env

    e = raw_env(name)
    engine, enc, pick = e.engine, e.encoder, random.Random(11)
    compared, games = 0, 0
    while compared < 1500 and games < 40:
        e.reset(seed=games)
        games += 1
        while not all(e.terminations.values()) and not all(e.truncations.values()) and compared < 1500:
            agent = e.agent_selection
            for who in (pick.choice(e.possible_agents), agent):
                seat = e.possible_agents.index(who)
                obs = e.observe(who)
                picked = e.picked if who == agent else ()
                full = enc.encode(engine.view(e.state_data, seat), seat, picked)
                assert (obs["observation"] == full).all(), f"{name}: game {games}, step {e.state_data['step']}, {who}"
                compared += 1
            legal = obs["action_mask"].nonzero()[0].tolist()
            e.step(pick.choice(legal) if legal else None)
    assert games > 1 and compared > 100


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four"])
def test_the_benchmarks_grid_alone_floor_does_the_encoders_grid_work(name):
    """benchmarks/interop_floor.grids_only (the least a tensor kept up to date costs, a floor of
    benchmarks/interop_speed.py) writes the grid's block as the encoder does, along whole games:
    the floor does the same work on the grid, and only that."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "interop_floor.py"
    spec = importlib.util.spec_from_file_location("interop_floor", path)
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    table = encoding.table(name)
    engine, players = table.engine, table.players
    enc = TensorEncoder(engine, players, spaces.ActionSpace(engine.game, players))
    grid_only = floor.grids_only(enc)
    _, at, codes, cells, _ = enc.grids[0]
    block = slice(at, at + cells * (len(codes) + 1))
    pick, compared = random.Random(4), 0
    for seed in range(5):
        state, _ = engine.start(players, seed)
        while n := engine.option_count(state):
            full = enc.encode(engine.view(state, 0), 0)
            assert (grid_only(engine, state, 0)[block] == full[block]).all()
            compared += 1
            state, _ = engine.apply(state, pick.randrange(n), inplace=True, events=False)
    assert compared > 20
