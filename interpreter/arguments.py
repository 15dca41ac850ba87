"""What every command shares: the one-line command error, `--option NAME=VALUE` pairs, agent lists,
the game a command names, and the guard on files a command writes.

The command line (cli.py) and the command modules it dispatches to (the lab's, `see`, `train`,
`serve`) all sit above this module and import it; it imports nothing of theirs, so the commands
form no circle through cli.py.
"""

from __future__ import annotations

from meeple.interpreter import outputs
from meeple.interpreter.engine import Engine
from meeple.interpreter.loader import load, player_count, trace_loader

__all__ = [
    "CommandError",
    "agent_list",
    "engine_from",
    "guard_output",
    "load",
    "parse_options",
    "player_count",
    "plural",
    "trace_loader",
]


class CommandError(Exception):
    """A bad command line: printed as one line, exit code 2."""


def parse_options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise CommandError(f"--option wants NAME=VALUE, not `{pair}`")
        k, v = pair.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def engine_from(args) -> Engine:
    return load(args.game, parse_options(args.option), args.variant)


def agent_list(text: str | None) -> list[str]:
    return [a.strip() for a in text.split(",") if a.strip()] if text else ["random"]


def guard_output(path: str) -> None:
    """Refuse an output file Meeple must not write (a ruleset, a data file): one line, exit 2."""
    try:
        outputs.guard(path)
    except outputs.OutputError as exc:
        raise CommandError(str(exc)) from None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
