"""Bad input found by the red-team pass (issue 16) ends in one located error, never a traceback.

Each case is a small ruleset (and data file) written to a temporary folder and run the way
`meeple run` runs it: compile, play with random bots, score and rank. The test asserts the
error names the file, the line and what is wrong; cases that must now work assert the result.
"""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import compile_ruleset
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_file
from meeple.interpreter.engine import Engine

HEAD = 'game "T"\nplayers 2\ncounter a = 0\n'


def play(folder, rules: str, data: dict | None = None) -> list:
    """Compile and play the rules to the end; the final scores."""
    for name, content in (data or {}).items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    path = folder / "t.rules"
    path.write_bytes(rules if isinstance(rules, bytes) else rules.encode())
    engine = Engine(compile_ruleset(parse_file(path), {}, []))
    state, _ = engine.start(2, 1)
    while (d := engine.decision(state)) is not None:
        state, _ = engine.apply(state, d.options[0].id)
    scores = engine.scores(state)
    engine.ranking(state, scores)
    return [s["total"] for s in scores]


def error_of(folder, rules, data=None) -> str:
    with pytest.raises(MeepleError) as info:
        play(folder, rules, data)
    text = info.value.format()
    assert "Traceback" not in text
    return text


@pytest.mark.parametrize(
    "body, message, line",
    [
        ("setup:\n    a = " + "9" * 4400 + '\n    end game\nscore "S": a\n', "4400 digits", 5),
        ('setup:\n    log "\\x"\n    end game\nscore "S": a\n', "`\\x` is not an escape", 5),
        ('setup:\n    end game\nscore "S": "text"\n', "must be a whole number, but it is text", 6),
        ('setup:\n    end game\nscore "S": [1, 2]\n', "but it is a list", 6),
        ('setup:\n    repeat 16:\n        a = a * 10 + 1\n    end game\nscore "S": a\n', "points are at most", 8),
        ('setup:\n    end game\nscore "S": 1\ntiebreak: most "x"\n', "a tie-break must be a whole number", 7),
        (
            'function f(x) = f(x)\nsetup:\n    end game\nscore "S": 1\ntiebreak: most f(1)\n',
            "calls itself without end",
            8,
        ),
    ],
)
def test_bad_rules_are_located(tmp_path, body, message, line):
    text = error_of(tmp_path, HEAD + body)
    assert text.startswith(f"{tmp_path / 't.rules'}:{line}:"), text
    assert message in text, text


def test_texts_keep_their_characters(tmp_path):
    # `café` with an escape used to be decoded byte by byte into `cafÃ©`
    rules = (
        HEAD
        + 'value v = "caf\u00e9\\t|\\"x\\\\"\nsetup:\n    end game\nscore "S": 1 if v == "caf\u00e9\t|\\"x\\\\" else 0\n'
    )
    assert play(tmp_path, rules) == [1, 1]


def test_a_byte_order_mark_is_accepted_in_rules_and_csv(tmp_path):
    rules = (
        "\ufeff" + 'game "T"\nplayers 2\ncomponent c from "c.csv":\n    v: int\nsetup:\n    end game\n'
        'score "S": sum(x.v for each x in c)\n'
    )
    assert play(tmp_path, rules, {"c.csv": "\ufeffid,v\na,2\nb,3\n"}) == [5, 5]


def test_a_counter_may_start_from_a_function_defined_later(tmp_path):
    rules = (
        'game "T"\nplayers 2\ncounter a = f(2)\nfunction f(x) = x * 2 + g(x)\nfunction g(y) = y\n'
        'setup:\n    end game\nscore "S": a\n'
    )
    assert play(tmp_path, rules) == [6, 6]


def test_ifs_nested_past_pythons_limit_still_run(tmp_path):
    depth = 120
    body = "".join("    " * (i + 1) + "if a == 0:\n" for i in range(depth))
    rules = HEAD + "setup:\n" + body + "    " * (depth + 1) + 'a = 1\n    end game\nscore "S": a\n'
    assert play(tmp_path, rules) == [1, 1]


COMPONENT = (
    'game "T"\nplayers 2\noption b = A | B\ncomponent c from "{path}":\n    v: int\n'
    'setup:\n    end game\nscore "S": sum(x.v for each x in c)\n'
)


@pytest.mark.parametrize(
    "path, data, message",
    [
        ("{b:>5000}.csv", {}, "names an option `b:>5000`"),
        ("a" * 300 + ".csv", {}, "characters long"),
        ("c.json", {"c.json": '[{"id": "a", "v": Infinity}]'}, "Infinity is not a number"),
        ("c.json", {"c.json": '[{"id": "a", "v": 1.7}]'}, "must be a whole number, not 1.7"),
        ("c.json", {"c.json": '[{"id": "a", "v": true}]'}, "must be a whole number, not True"),
        ("c.csv", {"c.csv": "id,v,count\na,1,2.9\n"}, "`count` must be a whole number, not '2.9'"),
        ("c.csv", {"c.csv": "id,v\na,1_000\n"}, "must be a whole number, not '1_000'"),
        ("c.csv", {"c.csv": 'id,v\n"a,1\nb,2\n'}, "not valid CSV"),
    ],
)
def test_data_files_are_read_exactly(tmp_path, path, data, message):
    text = error_of(tmp_path, COMPONENT.replace("{path}", path), data)
    assert message in text, text


# ----------------------------------------------------------------- agents
class Raises:
    def __init__(self, engine, seat, seed):
        pass

    def choose(self, view, decision):
        raise ZeroDivisionError("my bug")


class Answers:
    answer = None

    def __init__(self, engine, seat, seed):
        pass

    def choose(self, view, decision):
        return self.answer


class TooLarge(Answers):
    answer = 99


class NotAnInt(Answers):
    answer = "1"


class Hangs(Answers):
    def choose(self, view, decision):
        while True:
            pass


class NoChoose:
    def __init__(self, engine, seat, seed):
        pass


@pytest.mark.parametrize(
    "agent, message",
    [
        ("Raises", "agent `Raises` in seat P1 failed: ZeroDivisionError: my bug"),
        ("TooLarge", "agent `TooLarge` in seat P1 answered 99; it must answer an option's index, 0 to 8"),
        ("NotAnInt", "answered '1'"),
        ("NoChoose", "agent `NoChoose` in seat P1 has no `choose(view, decision)` method"),
    ],
)
def test_a_broken_agent_is_one_clear_line(capsys, agent, message):
    from meeple import cli

    code = cli.main(["run", "tic_tac_toe", "--agents", f"tests.test_hardening:{agent},random"])
    err = capsys.readouterr().err
    assert code != 0 and message in err and "Traceback" not in err, err


def test_a_hanging_agent_is_stopped(monkeypatch):
    from meeple.interpreter import agents
    from meeple.interpreter.runner import play
    from tests.conftest import shipped

    monkeypatch.setattr(agents.choose, "__defaults__", (0.2,))
    with pytest.raises(agents.AgentError, match="took more than 0.2 s"):
        play(shipped("tic_tac_toe"), 2, 1, ["tests.test_hardening:Hangs", "random"])


@pytest.mark.parametrize("name", ["mcts@infs", "mcts@nans", "mcts@0s", "mcts@-3", "mcts@99999999999"])
def test_silly_mcts_budgets_are_refused(name):
    from meeple.interpreter.agents import AgentError, agent_class

    with pytest.raises(AgentError, match="give mcts a budget"):
        agent_class(name)


def test_escape_codes_in_rules_text_never_reach_the_terminal(capsys, tmp_path):
    from meeple import cli

    path = tmp_path / "esc.rules"
    path.write_text(
        'game "T\x1b[31mred"\nplayers 2\ncounter a = 0\nsetup:\n    log "x\x1b]0;title\x07y"\n'
        '    end game\nscore "S\x9b": a\n',
        encoding="utf-8",
    )
    trace = tmp_path / "esc.jsonl"
    assert cli.main(["run", str(path), "--trace", str(trace)]) == 0
    assert cli.main(["show", str(trace), "--step", "0"]) == 0
    (tmp_path / "bad.rules").write_text('game "T"\nplayers 2\nsetup:\n    log \x1b[2J\n', encoding="utf-8")
    assert cli.main(["check", str(tmp_path / "bad.rules")]) == 1
    out, err = capsys.readouterr()
    assert "T\\x1b[31mred" in out and "x\\x1b]0;title\\x07y" in out and "\\x1b[2J" in err
    assert not any(ch in out + err for ch in "\x1b\x07\x9b")


@pytest.mark.parametrize(
    "body, message",
    [
        ("value v = [1] * 2000000000\nsetup:\n    end game\n", "2,000,000,000 items; the limit is 100,000"),
        ('value v = "ab" * 100000000\nsetup:\n    end game\n', "200,000,000 items"),
        ("value v = [1]\nsetup:\n    repeat 40:\n        v = v + v\n    end game\n", "131,072 items"),
        (
            "setup:\n    a = 3\n    repeat 400:\n        a = a * a\n    end game\n",
            "grows past 1,000,000,000,000,000,000",
        ),
    ],
)
def test_runaway_sizes_stop_at_their_line(tmp_path, body, message):
    text = error_of(tmp_path, HEAD + body + 'score "S": 1\n')
    assert message in text and "runaway rule" in text, text


def test_a_huge_file_is_refused_before_parsing(tmp_path):
    import time

    start = time.process_time()
    text = error_of(tmp_path, HEAD + "setup:\n" + "    a = 1\n" * 1_100_000 + "    end game\n")
    assert "MB; a ruleset is at most 2 MB" in text and time.process_time() - start < 5


@pytest.mark.parametrize(
    "greeting, message",
    [
        (None, "said nothing within 0.5 s"),
        (b"HTTP/1.1 400 Bad Request\r\n\r\n", "does not speak Dask's protocol"),
        (b"\xff" * 16, "does not speak Dask's protocol"),
    ],
)
def test_a_scheduler_that_is_not_dask_is_refused_quickly(greeting, message):
    import socket
    import threading

    from meeple.interpreter.lab.simulate import check_scheduler

    server = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = server.accept()
        try:
            if greeting:
                conn.sendall(greeting)
            conn.recv(10)  # hold the line open until the client gives up
        except OSError:
            pass
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    with pytest.raises(ConnectionError, match=message):
        check_scheduler(f"tcp://127.0.0.1:{server.getsockname()[1]}", seconds=0.5)
    server.close()


# ----------------------------------------------------------------- saves and outputs
def test_a_save_may_not_name_code_to_import(tmp_path, capsys, monkeypatch):
    import json
    import sys

    from meeple import cli

    monkeypatch.setattr("builtins.input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    save = tmp_path / "game.json"
    assert cli.main(["play", "tic_tac_toe", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    data["agents"] = ["tests.planted_module_never_imported:Agent"]
    save.write_text(json.dumps(data))
    capsys.readouterr()
    assert cli.main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert "names agent `tests.planted_module_never_imported:Agent`, which is not built in" in err
    assert "tests.planted_module_never_imported" not in sys.modules


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "{rules}", "--save", "{rules}"],
        ["run", "{rules}", "--trace", "{rules}"],
        ["run", "{rules}", "--trace", "{data}"],
        ["graph", "{rules}", "--flow", "--out", "{rules}"],
        ["simulate", "{rules}", "-n", "1", "--out", "{data}"],
    ],
)
def test_output_flags_never_write_over_rules_or_data(tmp_path, capsys, argv):
    from meeple import cli

    rules = tmp_path / "g.rules"
    rules.write_text(
        'game "G"\nplayers 2\ncomponent c from "cards.csv":\n    v: int\ncounter a = 0\n'
        'setup:\n    end game\nscore "S": a\n',
        encoding="utf-8",
    )
    data = tmp_path / "cards.csv"
    data.write_text("id,v\na,1\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    code = cli.main([a.format(rules=rules, data=data) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and "Meeple will not write over" in err and "Traceback" not in err, err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # untouched, no *.tmp left


def test_a_trace_and_a_save_may_be_written_again(tmp_path, capsys):
    from meeple import cli

    rules = tmp_path / "g.rules"
    rules.write_text('game "G"\nplayers 2\ncounter a = 0\nsetup:\n    end game\nscore "S": a\n', encoding="utf-8")
    trace = tmp_path / "g.json"  # a trace beside the rules, even with a data file's suffix, is Meeple's own
    assert cli.main(["run", str(rules), "--trace", str(trace)]) == 0
    assert cli.main(["run", str(rules), "--trace", str(trace), "--seed", "2"]) == 0
    assert '"seed": 2' in trace.read_text() and sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "g.rules"]


# ----------------------------------------------------------------- tampered traces
def _trace(tmp_path, game="tic_tac_toe"):
    import json

    from meeple.interpreter import runner
    from tests.conftest import shipped

    result = runner.play(shipped(game), 2, 3, ["random"], game)
    path = tmp_path / "t.jsonl"
    result.trace.save(path)
    return path, [json.loads(x) for x in path.read_text().splitlines()]


def _rewrite(path, lines, rechain: bool):
    """Write edited lines back; with `rechain`, recompute the chain as a careful forger would."""
    import json

    from meeple.interpreter import trace_schema

    chain = ""
    out = []
    for line in lines:
        if rechain:
            chain = trace_schema.link(chain, line)
            line = dict(line, chain=chain)
        out.append(json.dumps(line, sort_keys=True))
    path.write_text("\n".join(out) + "\n")


def _edit(lines, what):
    decisions = [i for i, ln in enumerate(lines) if "step" in ln]
    if what == "label":
        lines[decisions[0]]["label"] = "board row 9, column 9"
    elif what == "ranking":
        lines[-1]["end"]["ranking"][0]["place"] = 7
    elif what == "step":
        lines[decisions[1]]["step"] = 5
    elif what == "no setup":
        del lines[1]
    elif what == "no end":
        del lines[-1]
    elif what == "after end":
        lines.append(dict(lines[decisions[0]]))
    elif what == "missing field":
        del lines[decisions[0]]["actor"]
    elif what == "mistyped field":
        lines[decisions[0]]["options"] = "9"
    return lines


@pytest.mark.parametrize(
    "what, line, message",
    [
        ("label", 3, "the option reads `board row"),
        ("ranking", 10, "the ranking differs"),
        ("step", 4, "step 5 where step 2 comes"),
        ("no setup", 2, "expected the setup line"),
        ("no end", 9, "no end line"),
        ("after end", 11, "a line after the end"),
        ("missing field", 3, "field `actor`: field required"),
        ("mistyped field", 3, "field `options`: input should be a valid integer"),
    ],
)
def test_a_tampered_trace_is_one_error_at_its_line(tmp_path, capsys, what, line, message):
    from meeple import cli

    path, lines = _trace(tmp_path)
    # edited in place, the chain names the edited line at once
    _rewrite(path, _edit([dict(x) for x in lines], what), rechain=False)
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and ":" in err, err
    # edited and re-chained (a forger's work): replay still names the line and what is wrong
    _rewrite(path, _edit([dict(x) for x in lines], what), rechain=True)
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{line}:" in err and message in err and "Traceback" not in err, err


def test_an_edited_line_is_named_by_the_chain(tmp_path, capsys):
    from meeple import cli

    path, lines = _trace(tmp_path)
    text = path.read_text().splitlines()
    text[4] = text[4].replace('"label": "', '"label": "X')
    path.write_text("\n".join(text) + "\n")
    assert cli.main(["replay", str(path)]) == 1
    assert "t.jsonl:5: this line was edited" in capsys.readouterr().err


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("seed", "7", "field `seed`: input should be a valid integer"),
        ("choices", ["board@4", 3], "field `choices.1`: input should be a valid string"),
        ("players", 10**6, "field `players`: input should be less than or equal to 64"),
        ("surprise", 1, "field `surprise`: extra inputs are not permitted"),
    ],
)
def test_a_damaged_save_is_one_line_naming_the_field(tmp_path, capsys, monkeypatch, field, value, message):
    import json

    from meeple import cli

    monkeypatch.setattr("builtins.input", lambda prompt="": (_ for _ in ()).throw(EOFError))
    save = tmp_path / "game.json"
    assert cli.main(["play", "tic_tac_toe", "--save", str(save)]) == 0
    data = json.loads(save.read_text())
    data[field] = value
    save.write_text(json.dumps(data))
    capsys.readouterr()
    assert cli.main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1, err


@pytest.mark.parametrize("seconds", ["nan", "inf", "0", "-1"])
def test_bench_refuses_silly_durations(capsys, seconds):
    from meeple import cli

    assert cli.main(["bench", "tic_tac_toe", "--seconds", seconds]) == 2
    assert "--seconds must be more than 0" in capsys.readouterr().err


def test_bench_of_a_game_that_never_ends_stops(tmp_path, capsys, monkeypatch):
    from meeple import cli
    from meeple.interpreter import bench

    monkeypatch.setattr(bench, "MAX_DECISIONS", 2000)
    rules = tmp_path / "loop.rules"
    rules.write_text(
        'game "L"\nplayers 2\ncounter a = 0\nsetup:\n    next loop\nphase loop:\n'
        '    choose x from [1, 2] by 0:\n        a += x\n    next loop\nscore "S": a\n'
    )
    assert cli.main(["bench", str(rules), "--seconds", "0.5"]) == 2
    assert "does not end after 2,000 random decisions" in capsys.readouterr().err


def test_run_stops_a_game_past_its_time_or_decision_bound(tmp_path, capsys):
    from meeple import cli

    rules = tmp_path / "loop.rules"
    rules.write_text(
        'game "L"\nplayers 2\ncounter a = 0\nsetup:\n    next loop\nphase loop:\n'
        '    choose x from [1, 2] by 0:\n        a += x\n    next loop\nscore "S": a\n'
    )
    assert cli.main(["run", str(rules), "--seconds", "0.3"]) == 2
    err = capsys.readouterr().err
    assert "the game was stopped: seed 1: no end after 0.3 s" in err and "Traceback" not in err
    assert cli.main(["run", str(rules), "--seconds", "nan"]) == 2
    assert "--seconds must be more than 0" in capsys.readouterr().err
