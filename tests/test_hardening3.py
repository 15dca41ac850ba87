"""Findings of the third red-team pass (issue 35) outside the play table: hangs, memory, data loss
and crashes, each with the red team's input shape.

A rule that would run for hours must stop with a located error within seconds; tests that
would hang before their fix measure the CPU time they took, so they fail rather than pass slowly.
"""

from __future__ import annotations

import time

import pytest

from meeple import cli

NESTED = "count(each x in 1..100000 where count(each y in 1..100000 where y == x) > 0)"
HEAD = 'game "T"\nplayers 2\n'


def write(tmp_path, text: str, name="t.rules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def fast(start: float, seconds: float = 20) -> bool:
    return time.process_time() - start < seconds


# ----------------------------------------------------------------- work inside expressions
@pytest.mark.parametrize(
    "rules, line, checked",
    [
        # an `each` inside an `each`, in a statement and in a counter's start value (`check` works it out)
        (HEAD + f'counter a = 0\nsetup:\n    a = {NESTED}\n    end game\nscore "S": a\n', 5, False),
        (HEAD + f'counter a = {NESTED}\nsetup:\n    end game\nscore "S": a\n', 3, True),
        # a function that calls itself twice on every call
        (
            HEAD + "function f(n) = 0 if n == 0 else f(n - 1) + f(n - 1)\ncounter a = 0\nsetup:\n"
            '    a = f(60)\n    end game\nscore "S": a\n',
            6,
            False,
        ),
        # loops of statements inside loops, run as one op
        (
            HEAD + "counter a = 0\nsetup:\n    for each x in 1..100000:\n        for each y in 1..100000:\n"
            '            a += 1\n    end game\nscore "S": a\n',
            6,
            False,
        ),
        # the same in a score rule
        (HEAD + f'counter a = 0\nsetup:\n    end game\nscore "S": {NESTED}\n', 6, False),
    ],
)
@pytest.mark.parametrize("how", ["run", "check"])
def test_nested_work_is_a_located_error_not_a_hang(tmp_path, capsys, rules, line, checked, how):
    path = write(tmp_path, rules)
    start = time.process_time()
    argv = ["run", str(path), "--seconds", "600"] if how == "run" else ["check", str(path)]
    code = cli.main(argv)
    err = capsys.readouterr().err
    # `check` works out a counter's start value, and plays two short random games for the rest
    assert code != 0 and fast(start), err
    assert f"t.rules:{line}:" in err and "steps of work" in err and "Traceback" not in err, err


def test_the_language_server_reports_nested_work(tmp_path):
    from meeple.dsl.lsp import check_text

    start = time.process_time()
    diagnostics, _ = check_text(HEAD + f'counter a = {NESTED}\nsetup:\n    end game\nscore "S": a\n', "t.rules")
    assert fast(start) and any("steps of work" in d.message for d in diagnostics), diagnostics


BOARD = '{"spaces": {"a": {}, "b": {}, "c": {}}, "arrows": [["a", "b"], ["b", "c"], ["c", "a"]]}'


def test_reach_far_along_a_loop_costs_the_loop(tmp_path):
    import resource

    write(tmp_path, BOARD, "loop.json")
    path = write(
        tmp_path,
        HEAD + 'board path from "loop.json"\ncounter a = 0\nsetup:\n'
        '    a = count(reach(path, "a", 100000000000000000, []))\n    end game\nscore "S": a\n',
    )
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    assert cli.main(["run", str(path)]) == 0
    assert fast(start, 5) and resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # kB


def test_reach_gives_what_it_gave_step_by_step():
    import random

    from meeple.interpreter.boards.graph import Board

    def by_state(board, start, steps, blocked):  # the search reach used before: every (space, steps left)
        blocked = set(blocked) - {start}
        ends, seen, frontier = set(), set(), [(start, steps)]
        while frontier:
            space, left = frontier.pop()
            if left == 0:
                ends.add(space)
                continue
            for nxt in board.successors[space]:
                state = (nxt, left if nxt in blocked else left - 1)
                if state not in seen:
                    seen.add(state)
                    frontier.append(state)
        return [s for s in board.order if s in ends]

    r = random.Random(5)
    for _ in range(400):
        names = [f"s{i}" for i in range(r.randint(1, 8))]
        arrows = [[r.choice(names), r.choice(names)] for _ in range(r.randint(0, 16))]
        board = Board.from_data("b", {"spaces": {s: {} for s in names}, "arrows": arrows})
        start, steps, blocked = r.choice(names), r.randint(0, 30), r.sample(names, r.randint(0, len(names)))
        assert board.reach(start, steps, blocked) == by_state(board, start, steps, blocked)


# ----------------------------------------------------------------- plug-in agents
class Stubborn:
    """Thinks on through anything its search raises, as a careless agent might."""

    def __init__(self, engine, seat, seed):
        pass

    def choose(self, view, decision):
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass


class Exits:
    def __init__(self, engine, seat, seed):
        pass

    def choose(self, view, decision):
        import sys

        sys.exit(0)


def test_an_agent_that_catches_everything_is_still_stopped(monkeypatch):
    from meeple.interpreter import agents
    from meeple.interpreter.runner import play
    from tests.conftest import shipped

    monkeypatch.setattr(agents.choose, "__defaults__", (0.2,))
    with pytest.raises(agents.AgentError, match="took more than 0.2 s"):
        play(shipped("tic_tac_toe"), 2, 1, ["tests.test_hardening3:Stubborn", "random"])


@pytest.mark.parametrize("command", [["run", "tic_tac_toe"], ["simulate", "tic_tac_toe", "-n", "2", "--jobs", "1"]])
def test_an_agent_that_exits_is_its_error(capsys, command):
    code = cli.main(command + ["--agents", "tests.test_hardening3:Exits,random"])
    out, err = capsys.readouterr()
    assert code != 0, (out, err)
    assert "agent `Exits` in seat P1 failed: SystemExit" in out + err and "Traceback" not in out + err


# ----------------------------------------------------------------- sizes bounded before the work
def test_copies_of_components_are_bounded(tmp_path, capsys):
    rows = "".join(f"c{i},1,10000\n" for i in range(400))  # 5 kB asking for 4,000,000 components
    write(tmp_path, "id,v,count\n" + rows, "c.csv")
    path = write(tmp_path, HEAD + 'component c from "c.csv":\n    v: int\nsetup:\n    end game\nscore "S": 1\n')
    start = time.process_time()
    assert cli.main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "c.csv:12:" in err and "more than 100,000" in err and fast(start, 5), err


@pytest.mark.parametrize(
    "name, what", [("t.rules", "a ruleset is at most 2 MB"), ("c.csv", "a data file is at most 20 MB")]
)
def test_a_huge_file_is_refused_before_it_is_read(tmp_path, capsys, name, what):
    import resource

    with open(tmp_path / name, "wb") as f:  # 800 MB on paper, nothing on the disk
        f.truncate(800_000_000)
    if name != "t.rules":
        write(tmp_path, HEAD + 'component c from "c.csv":\n    v: int\nsetup:\n    end game\nscore "S": 1\n')
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert cli.main(["check", str(tmp_path / "t.rules")]) == 1
    err = capsys.readouterr().err
    assert "this file is 800.0 MB; " + what in err, err
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # kB: never read whole


# ----------------------------------------------------------------- meeple train
@pytest.mark.parametrize(
    "out, message",
    [
        ("{rules}", "Meeple will not write over rules"),
        ("{data}", "Meeple will not write over it"),
        ("{folder}", "is a folder; give a file name"),
        ("{folder}/none/m.json", "there is no folder"),
    ],
)
def test_train_never_writes_over_rules_or_data(tmp_path, capsys, monkeypatch, out, message):
    from meeple.interpreter.commands import train as learned

    pytest.importorskip("numpy")
    rules = write(
        tmp_path,
        HEAD + 'component c from "cards.csv":\n    v: int\ncounter a = 0\nsetup:\n    end game\nscore "S": a\n',
        "g.rules",
    )
    data = write(tmp_path, "id,v\na,1\n", "cards.csv")
    (tmp_path / "sub").mkdir()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    monkeypatch.setattr(learned, "train", lambda *a, **k: pytest.fail("trained before checking --out"))
    target = out.format(rules=rules, data=data, folder=tmp_path / "sub")
    assert cli.main(["train", str(rules), "--games", "1", "--out", target]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1, err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("weights", "NaN", "`weights` must be"),
        ("bias", "Infinity", "`bias` must be a finite number"),
        ("weights", [], "`weights` must be"),
        ("scale", 0, "`scale` must have no zeros"),
    ],
)
def test_a_model_with_nonsense_numbers_is_refused(tmp_path, capsys, key, value, message):
    import json
    import shutil

    from meeple.dsl.compiler import find_ruleset

    folder = tmp_path / "qw"
    shutil.copytree(find_ruleset("queens_wishes").parent, folder)
    model = folder / "queens_wishes.model.json"
    data = json.loads(model.read_text())
    if isinstance(value, list) or key == "bias":
        data[key] = value
    else:
        data[key][0] = value
    model.write_text(json.dumps(data).replace('"NaN"', "NaN").replace('"Infinity"', "Infinity"))
    assert cli.main(["run", str(folder / "queens_wishes.rules"), "--agents", "planner@2"]) == 2
    err = capsys.readouterr().err
    assert "cannot start agent `planner@2` in seat P1" in err and message in err and "Traceback" not in err, err


# ----------------------------------------------------------------- saves and traces from others
def no_input(prompt=""):
    raise EOFError


def saved_game(tmp_path, capsys, monkeypatch):
    import json

    monkeypatch.setattr("builtins.input", no_input)
    save = tmp_path / "game.json"
    assert cli.main(["play", "tic_tac_toe", "--save", str(save)]) == 0
    capsys.readouterr()
    return save, json.loads(save.read_text())


def test_a_save_may_not_set_a_bot_thinking_for_an_hour(tmp_path, capsys, monkeypatch):
    import json

    save, data = saved_game(tmp_path, capsys, monkeypatch)
    data["agents"] = ["human", "mcts@3600s"]
    save.write_text(json.dumps(data))
    start = time.time()
    assert cli.main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert "the save names agent `mcts@3600s`: a bot named by a save may think at most 5 s" in err, err
    assert "--agents human,mcts@3600s" in err and time.time() - start < 30


def test_a_save_with_a_byte_order_mark_resumes(tmp_path, capsys, monkeypatch):
    save, _ = saved_game(tmp_path, capsys, monkeypatch)
    save.write_bytes(b"\xef\xbb\xbf" + save.read_bytes())
    assert cli.main(["play", "--resume", str(save)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize(
    "named, message",
    [
        ("/etc/passwd", "which is not a shipped game or a .rules file"),
        ("{folder}", "which is not a shipped game or a .rules file"),
    ],
)
def test_a_save_opens_only_rules_the_player_could_name(tmp_path, capsys, monkeypatch, named, message):
    import json

    save, data = saved_game(tmp_path, capsys, monkeypatch)
    data["ruleset"] = named.format(folder=tmp_path)
    save.write_text(json.dumps(data))
    assert cli.main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert message in err and "root:" not in err and err.count("\n") == 1, err


def test_a_save_says_which_rules_file_it_opens(tmp_path, capsys, monkeypatch):
    import json
    import shutil

    from meeple.dsl.compiler import find_ruleset

    save, data = saved_game(tmp_path, capsys, monkeypatch)
    rules = tmp_path / "ttt.rules"
    shutil.copy(find_ruleset("tic_tac_toe"), rules)
    data["ruleset"] = str(rules)
    save.write_text(json.dumps(data))
    cli.main(["play", "--resume", str(save)])
    assert f"the save plays the rules in {rules}" in capsys.readouterr().out


@pytest.mark.parametrize("digest", ["", None])
def test_a_trace_without_a_digest_is_refused(tmp_path, capsys, digest):
    from tests.test_hardening import _rewrite, _trace

    path, lines = _trace(tmp_path)
    if digest is None:
        del lines[0]["digest"]
    else:
        lines[0]["digest"] = digest
    _rewrite(path, [dict(x) for x in lines], rechain=True)
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert ("another version of the ruleset" in err or "field `digest`" in err) and "Traceback" not in err, err


def test_text_that_reorders_or_hides_itself_is_shown_escaped(tmp_path, capsys):
    path = write(
        tmp_path,
        'game "T\u202eder"\nplayers 2\ncounter a = 0\nsetup:\n    log "x\u200by\u2066z"\n'
        '    end game\nscore "S\ufeff": a\n',
    )
    trace = tmp_path / "t.jsonl"
    assert cli.main(["run", str(path), "--trace", str(trace)]) == 0
    assert cli.main(["show", str(trace), "--step", "0"]) == 0
    out = capsys.readouterr().out
    assert "T\\u202eder" in out and "x\\u200by\\u2066z" in out
    assert not any(ch in out for ch in "\u202e\u200b\u2066\ufeff")


# ----------------------------------------------------------------- adapters
REFUSES = (
    HEAD + "counter a = 0\nsetup:\n    next turn\nphase turn:\n    choose x from [0, 1] by 0:\n"
    '        a = [5][x]\n    end game\nscore "S": a\n'
)


def test_openspiel_refuses_actions_that_do_not_exist_and_keeps_the_state(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from meeple import openspiel

    state = openspiel.load("tic_tac_toe").new_initial_state()
    before = [state.information_state_string(p) for p in (0, 1)], str(state)
    for action in (9, 50, 10**6):
        with pytest.raises(pyspiel.SpielError, match=f"action {action} is not legal now: the legal actions are 0 to 8"):
            state.apply_action(action)
    assert ([state.information_state_string(p) for p in (0, 1)], str(state)) == before
    chancy = openspiel.load("tic_tac_toe", seeds=3, chance="seed").new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="chance outcome 1000 does not exist: the outcomes are 0 to 2"):
        chancy.apply_action(1000)
    assert chancy.is_chance_node()
    # a choice the rules refuse (their error) leaves no phantom move in anyone's record
    state = openspiel.load(str(write(tmp_path, REFUSES)), action_count=2).new_initial_state()
    before = [state.information_state_string(p) for p in (0, 1)], str(state)
    with pytest.raises(Exception, match="no item 1"):
        state.apply_action(1)
    assert ([state.information_state_string(p) for p in (0, 1)], str(state)) == before


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda g: g.start(seed=1.5), TypeError, "seed must be a whole number, not 1.5"),
        (lambda g: g.start(seed="7"), TypeError, "seed must be a whole number, not '7'"),
        (lambda g: g.play(seed=None), TypeError, "seed must be a whole number, not None"),
        (lambda g: g.play(agents=3), TypeError, "agents must be an agent's name"),
        (lambda g: g.play(seconds=-1), ValueError, "seconds must be more than 0"),
        (lambda g: g.play(seconds="x"), TypeError, "seconds must be a number"),
        (lambda g: __import__("meeple").load("tic_tac_toe", options="board=B"), TypeError, "options must be a dict"),
        (lambda g: __import__("meeple").load("tic_tac_toe", variants=3), TypeError, "variants must be a list"),
        (lambda g: __import__("meeple").load(None), TypeError, "the game (a ruleset's name or a .rules path) must be"),
        (lambda g: __import__("meeple").read_trace(3), TypeError, "path must be a file's path, not 3"),
    ],
)
def test_the_library_says_what_is_wrong_with_an_argument(call, kind, message):
    import meeple

    with pytest.raises(kind, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")) as info:
        call(meeple.load("tic_tac_toe"))
    assert isinstance(info.value, meeple.UsageError)


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda e: e.step(float("inf")), TypeError, "player_0's action must be a whole number, not inf"),
        (lambda e: e.step([]), TypeError, "player_0's action must be a whole number, not \\[\\]"),
        (lambda e: e.step(9), ValueError, "action 9 is not legal \\(the legal ones are 0..8\\)"),
        (lambda e: e.reset(seed=1.5), TypeError, "seed must be a whole number"),
        (
            lambda e: e.action_space("player_9"),
            ValueError,
            "unknown agent 'player_9'; the agents are player_0, player_1",
        ),
        (lambda e: e.observation_space(None), ValueError, "unknown agent None"),
        (lambda e: e.observe("x"), ValueError, "unknown agent 'x'"),
    ],
)
def test_the_pettingzoo_environment_says_what_is_wrong_with_an_argument(call, kind, message):
    pytest.importorskip("pettingzoo")
    from meeple import pettingzoo

    env = pettingzoo.raw_env("tic_tac_toe")
    env.reset(seed=1)
    with pytest.raises(kind, match=message):
        call(env)
