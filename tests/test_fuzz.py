"""Bad rules never crash Meeple: thousands of mutated rulesets end in a located error or a pass,
and those that load also play a few decisions and are scored.

Mutations of every shipped .rules file (lines deleted, duplicated or swapped,
tokens deleted or swapped, truncation, random bytes, huge numbers, deep
nesting, bad encodings), plus hypothesis-generated text, go through the same
path as `meeple check`: parse, check, compile and start a game. Any other
exception is a bug; every input must finish within a time bound.
"""

from __future__ import annotations

import os
import random
import re
import time
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meeple.dsl.compiler import compile_ruleset, shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_text
from meeple.interpreter.engine import Engine

TIME_LIMIT = 10.0  # CPU seconds per input: an endless loop stops at the step limit well before
# per shipped ruleset: with the generated texts, a few thousand inputs; `make fuzz` runs many more
MUTANTS = int(os.environ.get("MEEPLE_FUZZ_MUTANTS", "300"))
PLAYED = 12  # decisions each loadable mutant plays before it is scored
SHIPPED = shipped_rulesets()


def check_text(text: str, path: str) -> str:
    """Run `meeple check`'s path (and start a game); return 'ok' or 'error'."""
    start = time.process_time()
    try:
        rs = parse_text(text, path)
        game = compile_ruleset(rs, {}, [])
        engine = Engine(game)
        state, _ = engine.start(game.min_players, 1)
        play_a_little(engine, state)
        outcome = "ok"
    except MeepleError as exc:
        formatted = exc.format()
        assert re.match(r"^\S.*?:\d+:\d+: error: ", formatted) or ": error: " in formatted.splitlines()[0], formatted
        outcome = "error"
    except ValueError as exc:  # a player count the engine refuses is a clear message, not a crash
        assert "players" in str(exc), repr(exc)
        outcome = "error"
    assert time.process_time() - start < TIME_LIMIT, f"{path}: took too long"
    return outcome


def play_a_little(engine, state: dict, decisions: int = PLAYED) -> None:
    """Play a few decisions (varied options, fixed choices), then score: mutants must run, not only load."""
    for step in range(decisions):
        d = engine.decision(state)
        if d is None:
            break
        state, _ = engine.apply(state, step * 7919 % len(d.options), inplace=True)
    engine.ranking(state)


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    kind = rng.randrange(9)
    if kind == 0 and lines:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1 and lines:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 2 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:  # truncate
        return text[: rng.randrange(len(text) + 1)]
    elif kind == 4:  # random bytes somewhere
        i = rng.randrange(len(text) + 1)
        junk = "".join(
            chr(rng.choice([0, 7, 9, 10, 13, 34, 35, 58, 91, 93, 0x2028, 0xFEFF, 0x1F600]))
            for _ in range(rng.randrange(1, 6))
        )
        return text[:i] + junk + text[i:]
    elif kind == 5:  # a huge number
        return re.sub(r"\b\d+\b", lambda m: str(10 ** rng.randrange(5, 400)) if rng.random() < 0.2 else m.group(), text)
    elif kind == 6:  # delete or swap a token
        words = re.findall(r"\S+", text)
        if words:
            w = rng.choice(words)
            other = rng.choice(words)
            return text.replace(w, other if rng.random() < 0.5 else "", 1)
    elif kind == 7:  # deep nesting
        depth = rng.randrange(50, 400)
        return text + "\nfunction deep(x) = " + "(" * depth + "x" + ")" * depth + "\n"
    else:  # re-indent a line
        if lines:
            i = rng.randrange(len(lines))
            lines[i] = " " * rng.randrange(0, 13) + lines[i].lstrip()
    return "\n".join(lines) + "\n"


def mutants(name: str, seed: int, count: int):
    original = SHIPPED[name].read_text()
    rng = random.Random(seed)
    for _ in range(count):
        text = mutate(original, rng)
        if rng.random() < 0.3:
            text = mutate(text, rng)
        yield text


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_mutations_of_shipped_rulesets(name):
    seed = zlib.crc32(name.encode())  # fixed: the same mutants in every run
    outcomes = {"ok": 0, "error": 0}
    for i, text in enumerate(mutants(name, seed, MUTANTS)):
        try:
            outcomes[check_text(text, str(SHIPPED[name]))] += 1
        except AssertionError as exc:
            raise AssertionError(f"mutant {i} of {name} (seed {seed}): {exc}\n--- mutant ---\n{text}") from None
    assert outcomes["error"] > 0  # the mutations do break things; they just never crash


def test_non_utf8_rules_file(tmp_path):
    from meeple.cli import main

    bad = tmp_path / "bad.rules"
    bad.write_bytes(b'game "G"\nplayers 2\n\xff\xfe\x00\n')
    assert main(["check", str(bad)]) == 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(
        alphabet=st.sampled_from(
            list(
                'game"players 1..4\n:    =+-*()[]{},.#abcxyz0123456789_'
                "phasesetupchooseforeachinwheremovedrawnextendletif"
            )
        ),
        max_size=300,
    )
)
def test_generated_text_never_crashes(text):
    check_text(text, "generated.rules")


@pytest.mark.parametrize(
    "text",
    [
        'game "G"\nplayers 2\nsetup:\n'
        + "".join("    " * (i + 1) + "if true:\n" for i in range(900))
        + " " * 3604
        + "pass\n",
        'game "G"\nplayers 2\ncounter c = ' + "-" * 5000 + "1\n",
        'game "G"\nplayers 2\nfunction deep(x) = ' + "(" * 20000 + "x" + ")" * 20000 + "\n",
    ],
)
def test_very_deep_rules_are_a_clear_error(text):
    """Regression: these used to end in a Python RecursionError."""
    assert check_text(text, "deep.rules") in ("ok", "error")


def test_a_runaway_score_rule_is_a_located_error():
    from tests.conftest import rules

    e = rules('game "T"\nplayers 1\nfunction f(n) = f(n + 1)\nscore "Loop": f(1)\n')
    s, _ = e.start(1, 1)
    with pytest.raises(MeepleError) as info:
        e.scores(s)
    assert 'in score "Loop"' in info.value.format() and "<test>:4:" in info.value.format()


class TestBadGamesStopClearly:
    """Legal text, bad game: the engine stops with the phase and line, never hangs."""

    def error(self, text):
        from tests.conftest import rules

        with pytest.raises(MeepleError) as info:
            rules(text).start(1, 1)
        return info.value.format()

    def test_phases_that_lead_to_each_other_forever(self):
        out = self.error('game "T"\nplayers 1\nsetup:\n    next a\nphase a:\n    next b\nphase b:\n    next a\n')
        assert "steps without a decision" in out and "in phase" in out and "<test>:" in out

    def test_effects_that_call_each_other_forever(self):
        out = self.error('game "T"\nplayers 1\neffect e():\n    do f()\neffect f():\n    do e()\nsetup:\n    do e()\n')
        assert "more than 64 deep" in out and "<test>:" in out

    def test_a_choice_with_no_options(self):
        out = self.error('game "T"\nplayers 1\nsetup:\n    choose x from [] by 0:\n        pass\n')
        assert "nothing to choose" in out and "<test>:4:5" in out


class TestHugeValues:
    def test_a_huge_range_is_an_error_not_a_memory_blowup(self):
        from tests.conftest import rules

        with pytest.raises(MeepleError) as info:
            rules('game "T"\nplayers 1\ncounter n = 0\nsetup:\n    n = count(1..' + "9" * 18 + ")\n").start(1, 1)
        assert "more than 100,000 values" in info.value.format() and "<test>:5:" in info.value.format()

    def test_a_number_past_eighteen_digits_is_refused_where_written(self):
        from tests.conftest import rules

        with pytest.raises(MeepleError) as info:
            rules('game "T"\nplayers 1\ncounter n = 0\nsetup:\n    n = count(1..' + "9" * 300 + ")\n").start(1, 1)
        assert "300 digits" in info.value.format() and "<test>:5:18" in info.value.format()

    def test_too_many_subsets_is_an_error(self):
        from tests.conftest import rules

        with pytest.raises(MeepleError) as info:
            rules('game "T"\nplayers 1\ncounter n = 0\nsetup:\n    n = count(subsets(1..60, 0, 60))\n').start(1, 1)
        assert "more than 100,000 choices" in info.value.format()


# An action at any time that spends what a choice needs: each kind of choice reached with no
# options in random play. The game stops with a located rules error, never with a crash.
SPENT = {
    "choose": 'choose m from [gold] where m > 0 by 0 "Then?":\n                pass',
    "choose between": 'choose between 1 and 1 ms from [gold] where ms > 0 by 0 "Then?":\n                pass',
    "simultaneously": 'simultaneously for each q in [0]:\n                choose m from [gold] where m > 0 by q "Then?":'
    "\n                    pass",
}


@pytest.mark.parametrize("kind", sorted(SPENT))
def test_a_choice_left_with_no_options_in_play_is_a_located_rules_error(kind):
    from meeple.interpreter import runner
    from tests.conftest import rules

    text = (
        'game "Spent"\nplayers 1\ncounter gold = 1\naction spend(p) "Spend" when gold > 0:\n    gold -= 1\n'
        'setup:\n    repeat 8:\n        gold = 1\n        choose n from [1] by 0 "Which?":\n'
        f"            {SPENT[kind]}\n"
    )
    stopped = 0
    for seed in range(1, 13):
        try:
            runner.play(rules(text), 1, seed, ["random"])
        except MeepleError as exc:
            out = exc.format().splitlines()
            where = "<test>:11:17" if kind == "simultaneously" else "<test>:10:13"  # at the choice itself
            assert out[0].startswith(f"{where}: error: in setup: ") and "no `otherwise`" in out[0], out
            assert out[1].strip().startswith(("choose m", "choose between")) and "^" in out[2]
            assert out[3].startswith("hint: ") and "together:" in out[3]
            stopped += 1
    assert stopped > 0, "random play spends the gold at some seed"


def test_a_data_file_name_with_a_control_character_is_a_located_error(tmp_path):
    # Found by a mutant of Leduc hold'em: a NUL in the name stopped the OS's path call (ValueError).
    text = 'game "T"\nplayers 1\ncomponent card from "a\x00b.csv":\n    rank: int\nsetup:\n    pass\n'
    assert check_text(text, str(tmp_path / "t.rules")) == "error"
