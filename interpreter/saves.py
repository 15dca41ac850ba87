"""Saved games: the choices made so far, written atomically, refused if the rules changed.

A save is JSON: the ruleset, its digest, options, variants, players, seed, the
person's seat, and every choice (option id) from the start. Resuming replays
the choices, so a save is small and can never hold an inconsistent state. It
is written to a temporary file and renamed over the old one, so a crash while
writing leaves the previous save intact.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


class SaveError(Exception):
    """A save that cannot be used: the message says why."""


def write(path: str | Path, data: dict) -> None:
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=str(path.parent or "."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read(path: str | Path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(f"cannot read save {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise SaveError(f"{path} is not a Meeple save (damaged?)") from None
    if not isinstance(data, dict) or data.get("meeple_save") != 1 or not isinstance(data.get("choices"), list):
        raise SaveError(f"{path} is not a Meeple save")
    return data


def resume(engine, data: dict) -> dict:
    """The state after replaying a save's choices; refuses a save from other rules."""
    if data.get("digest") != engine.game.digest:
        raise SaveError("this save was made with another version of the rules "
                        f"(digest {data.get('digest')}, now {engine.game.digest}); it cannot be resumed")
    state, _ = engine.start(data["players"], data["seed"])
    for n, choice in enumerate(data["choices"], 1):
        try:
            state, _ = engine.apply(state, choice, inplace=True)
        except ValueError:
            raise SaveError(f"choice {n} of the save (`{choice}`) is not possible: the save is damaged") from None
    return state
