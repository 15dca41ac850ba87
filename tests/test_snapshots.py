"""Snapshot traces: seeded games rendered as text, reviewed, and compared byte for byte.

Every shipped ruleset needs scenarios here (a test fails otherwise). After an
intended change, `make snapshots` rewrites the files in __snapshots__/; read
the diff and say why it changed in the commit message.
"""

from __future__ import annotations

import pytest

from meeple.dsl.compiler import shipped_rulesets
from meeple.interpreter import runner, trace
from tests.conftest import shipped

# ruleset -> [(players, seed, options, variants, agents)]
SCENARIOS = {
    "queens_wishes": [
        (1, 1, {}, [], ["random"]),
        (1, 2, {"board": "B", "scoring": "B"}, [], ["greedy"]),
        (2, 3, {}, [], ["random"]),
        (2, 4, {"board": "A", "scoring": "B"}, [], ["greedy", "random"]),
        (4, 5, {}, [], ["random"]),
        (4, 6, {"board": "B", "scoring": "A"}, [], ["random"]),
        (3, 7, {"board": "B", "scoring": "B"}, [], ["random"]),
    ],
    "apothebakery": [
        (2, 1, {}, [], ["greedy", "random"]),
        (3, 2, {}, [], ["random"]),
        (4, 3, {"objectives": "off"}, [], ["random"]),
        (1, 4, {}, [], ["greedy@200"]),
        (1, 5, {"difficulty": "difficult"}, [], ["random"]),
        (2, 6, {"difficulty": "difficult"}, [], ["random"]),
    ],
    "tic_tac_toe": [(2, 1, {}, [], ["random"]), (2, 2, {}, [], ["greedy", "random"])],
    "kuhn_poker": [(2, 1, {}, [], ["random"]), (2, 2, {}, [], ["greedy", "random"])],
    "leduc_holdem": [(2, 1, {}, [], ["random"]), (2, 3, {}, [], ["greedy", "random"])],
    "mudcake_fair": [  # the tutorial's game; each of the first three seeds has a shriek
        (2, 4, {}, [], ["random"]),
        (2, 14, {}, [], ["greedy", "random"]),
        (3, 6, {}, [], ["random"]),
        (4, 2, {}, ["picky_judges"], ["random"]),
    ],
    "connect_four": [(2, 1, {}, [], ["random"])],
    "breakthrough": [(2, 1, {}, [], ["random"])],
    "wild_gardens": [
        (1, 1, {}, [], ["random"]),
        (2, 2, {}, [], ["greedy", "random"]),
        (3, 3, {}, [], ["random"]),
        (4, 4, {}, [], ["random"]),
        (2, 5, {}, ["keep_it_fresh"], ["random"]),
        (2, 6, {}, ["a_different_path"], ["random"]),
    ],
}

CASES = [(name, *case) for name, cases in SCENARIOS.items() for case in cases]


def case_id(case) -> str:
    name, players, seed, options, variants, agents = case
    opts = "".join(f"-{k}{v}" for k, v in options.items())
    return f"{name}-{players}p-seed{seed}{opts}{''.join('-' + v for v in variants)}-{'-'.join(agents)}"


def test_every_shipped_ruleset_has_snapshot_traces():
    missing = sorted(set(shipped_rulesets()) - set(SCENARIOS))
    assert missing == [], f"add snapshot scenarios for: {missing}"


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_trace_snapshot(case, text_snapshot):
    name, players, seed, options, variants, agents = case
    engine = shipped(name, options, variants)
    result = runner.play(engine, players, seed, agents, name)
    text = trace.render(engine.game, result.trace.lines)
    assert text == text_snapshot, f"seed {seed}: the trace changed; run `make snapshots` if intended"
