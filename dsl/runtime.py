"""The compiler's one window onto the runtime: every part a compiled game is built from.

The compiler (dsl/compiler.py and the compile_*, source_*, op_chains, data and cell_values modules
beside it) turns a checked AST into a Game made of runtime parts: the game's specs
(interpreter/game.py), the machine's ops (interpreter/machine.py), the effects that stop for
decisions (interpreter/effects/), boards (interpreter/boards/), the built-in functions and the
bound on work. It imports them from here and only from here (a contract in pyproject.toml), so this
list is the whole of what the language needs of its runtime.
"""

from __future__ import annotations

from meeple.interpreter import builtins, machine
from meeple.interpreter.boards import grid as gridlib
from meeple.interpreter.boards import polyomino
from meeple.interpreter.boards.graph import Board, BoardError
from meeple.interpreter.boards.grid import Geometry
from meeple.interpreter.boards.placing import fitting, forget
from meeple.interpreter.builtins import FUNCTIONS
from meeple.interpreter.effects import actions, choices, choose_some, simultaneous, telling, zones
from meeple.interpreter.effects.actions import MomentPoint
from meeple.interpreter.effects.choices import ChooseFrom, Menu
from meeple.interpreter.game import (
    KIND,
    VISIBILITIES,
    VISIBILITY_DEFAULTS,
    Action,
    Block,
    CounterSpec,
    Game,
    GridSpec,
    HintRule,
    MeasureRule,
    Outcome,
    OutcomeEntry,
    Reaction,
    ScoreRule,
    ZoneSpec,
)
from meeple.interpreter.machine import (
    RULE_ERRORS,
    CallEffect,
    CallField,
    EndGame,
    Exec,
    Goto,
    IterNext,
    IterStart,
    Jump,
    JumpUnless,
    chain_phases,
    kept_items,
    listed,
)
from meeple.interpreter.naming import placeholders, player_name
from meeple.interpreter.render import PALETTE
from meeple.interpreter.sentences import words
from meeple.interpreter.state import SOME_PREFIX
from meeple.interpreter.work import WORK_LIMIT, charge, charge_one

__all__ = [
    # modules whose parts the compiler picks by name
    "actions",
    "builtins",
    "choices",
    "choose_some",
    "gridlib",
    "machine",
    "polyomino",
    "simultaneous",
    "telling",
    "zones",
    # the compiled game's specs
    "KIND",
    "VISIBILITIES",
    "VISIBILITY_DEFAULTS",
    "Action",
    "Block",
    "CounterSpec",
    "Game",
    "GridSpec",
    "HintRule",
    "MeasureRule",
    "Outcome",
    "OutcomeEntry",
    "Reaction",
    "ScoreRule",
    "ZoneSpec",
    # the machine's ops
    "RULE_ERRORS",
    "CallEffect",
    "CallField",
    "EndGame",
    "Exec",
    "Goto",
    "IterNext",
    "IterStart",
    "Jump",
    "JumpUnless",
    "chain_phases",
    "kept_items",
    "listed",
    # effects, boards, built-ins, names, state keys and the work bound
    "MomentPoint",
    "ChooseFrom",
    "Menu",
    "Board",
    "BoardError",
    "Geometry",
    "fitting",
    "forget",
    "FUNCTIONS",
    "PALETTE",
    "placeholders",
    "player_name",
    "words",
    "SOME_PREFIX",
    "WORK_LIMIT",
    "charge",
    "charge_one",
]
