"""Saved games: the choices made so far, written atomically, refused if the rules changed.

A save is JSON: the ruleset (a shipped name or an absolute path, so it resumes
from any folder), the digest of each of its definitions and data files
(interpreter/fingerprint.py), options, variants, players, seed, who plays each
seat, and every choice (option id) from the start. An edit that changes no
definition (comments, layout) keeps the save usable; a real change is refused,
naming the definitions that differ. Resuming replays
the choices, so a save is small and can never hold an inconsistent state. It
is written to a temporary file and renamed over the old one, so a crash while
writing leaves the previous save intact.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from meeple.interpreter import jsontext, outputs


class SaveError(Exception):
    """A save that cannot be used: the message says why."""


class Save(BaseModel):
    """What a save may hold (strict: a save is untrusted input)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    meeple_save: Literal[1]
    ruleset: str = ""
    digest: str = ""
    rules: dict[str, str] | None = None
    options: dict[str, str] = {}
    variants: list[str] = []
    players: int = Field(ge=1, le=64)
    seed: int
    seat: int = Field(ge=0, le=63)
    agents: list[str] = ["random"]
    choices: list[str]


def write(path: str | Path, data: dict) -> None:
    """Write the save atomically; refuses to write over rules or data (OutputError)."""
    outputs.write_text(path, json.dumps(data, indent=1))


def read(path: str | Path) -> dict:
    try:
        data = jsontext.loads(Path(path).read_text(encoding="utf-8-sig"))  # an editor may add a BOM
    except OSError as exc:
        raise SaveError(f"cannot read save {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a Meeple save (damaged?)") from None
    except jsontext.JsonError as exc:
        raise SaveError(f"{path} is not a Meeple save (damaged?): {exc}") from None
    if not isinstance(data, dict) or data.get("meeple_save") != 1:
        raise SaveError(f"{path} is not a Meeple save")
    try:
        Save.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise SaveError(f"{path}: field `{where}`: {err['msg'].lower()}; the save is damaged") from None
    return data


def ruleset_named(data: dict, save) -> str:
    """The ruleset a save names, if it is one the player could have named: a shipped game, or a
    `.rules` file (never a device, a folder or another file, whose lines an error would show).
    A file is said before it is opened."""
    from meeple.dsl.compiler import shipped_rulesets

    name = data.get("ruleset", "")
    if not name or name in shipped_rulesets():
        return name
    path = Path(name)
    if path.suffix != ".rules" or not path.is_file():
        raise SaveError(f"the save {save} names `{name}`, which is not a shipped game or a .rules file")
    print(f"the save plays the rules in {path}")
    return name


def agents_named(data: dict) -> list[str]:
    """The agents a save names, if they are built in (never code to import) and within a table's
    budgets (never a bot thinking an hour a move); else SaveError saying how to allow them."""
    from meeple.interpreter.agents import AgentError, agent_class, builtin_agent
    from meeple.interpreter.agents.caps import check_budget

    saved = [str(a) for a in data.get("agents", ["random"])]
    allow = f"name it yourself: --agents {','.join(saved)}"
    for name in saved:
        if not builtin_agent(name):
            raise SaveError(f"the save names agent `{name}`, which is not built in; to run code from a module, {allow}")
        try:
            if "@" in name:  # a budget: one check_budget can read (or agent_class's error), within the caps
                agent_class(name)
                check_budget(name, "a bot named by a save")
        except AgentError as exc:
            raise SaveError(f"the save names agent {exc}; to allow it, {allow}") from None
    return saved


def resume(engine, data: dict, rules: dict | None = None) -> dict:
    """The state after replaying a save's choices; refuses a save from other rules.

    `rules` is the ruleset's fingerprint now; without one on both sides, the
    digests of the compiled game must match."""
    from meeple.interpreter.fingerprint import differences

    if rules is not None and isinstance(data.get("rules"), dict):
        changed = differences(data["rules"], rules)
        if changed:
            shown = "; ".join(changed[:5]) + (f"; and {len(changed) - 5} more" if len(changed) > 5 else "")
            raise SaveError(f"the rules changed since this save ({shown}); it cannot be resumed")
    elif data.get("digest") != engine.game.digest:
        raise SaveError(
            "this save was made with another version of the rules "
            f"(digest {data.get('digest')}, now {engine.game.digest}); it cannot be resumed"
        )
    state, _ = engine.start(data["players"], data["seed"])
    for n, choice in enumerate(data["choices"], 1):
        try:
            state, _ = engine.apply(state, choice, inplace=True)
        except ValueError:
            raise SaveError(f"choice {n} of the save (`{choice}`) is not possible: the save is damaged") from None
    return state
