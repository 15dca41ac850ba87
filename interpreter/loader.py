"""Loading a ruleset into an engine: what the command line, traces, the play table and
`meeple.load` share.

A ruleset is named by a shipped game's name (`tic_tac_toe`) or a path to a .rules
file; options are NAME -> value, variants a list of names. A bad name, option,
variant or player count is a UsageError (one line); a bad rules file a MeepleError.
"""

from __future__ import annotations

from meeple.dsl.compiler import UsageError, compile_ruleset, find_ruleset, shipped_rulesets
from meeple.dsl.parser import parse_file
from meeple.interpreter.engine import Engine


def load(
    game: str, options: dict | None = None, variants: list | None = None, variant_files: list | tuple = ()
) -> Engine:
    """The engine for a ruleset with these options (values as the rules write them) and variants;
    `variant_files`: a designer's files of `variant` blocks laid over the ruleset."""
    path = find_ruleset(str(game))
    rs = parse_file(path, variant_files)
    chosen = {str(k): str(v) for k, v in (options or {}).items()}
    return Engine(compile_ruleset(rs, chosen, list(variants or [])))


def ruleset_ref(game: str) -> str:
    """How saves and traces name a ruleset: a shipped game by its name, a file by its
    absolute path, so they can be resumed and replayed from any folder."""
    path = find_ruleset(str(game))
    return str(game) if shipped_rulesets().get(str(game)) == path else str(path.resolve())


def trace_loader(head: dict) -> Engine:
    """The engine a trace was made with, from its header."""
    return load(head.get("ruleset") or head.get("game", ""), head.get("options", {}), head.get("variants", []))


def player_count(engine: Engine, requested: int | None) -> int:
    """The number of players: `requested` if the game allows it, else by default 2 (or the
    nearest count the game allows)."""
    g = engine.game
    n = requested if requested is not None else max(g.min_players, min(2, g.max_players))
    if type(n) is not int or not g.min_players <= n <= g.max_players:
        raise UsageError(f"{g.title} is for {g.min_players}-{g.max_players} players, not {n}")
    return n
