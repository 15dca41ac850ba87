"""Files Meeple writes for people (saves, traces, result rows, reports, pictures): checked and atomic.

An output flag must never destroy what a designer wrote: `play x.rules --save x.rules` once
overwrote the rules themselves. `guard` refuses a `.rules` file, a folder, and an existing data
file beside a ruleset (CSV, JSON or text that is not a Meeple save or trace). `write_text` and
`write_with` write to a temporary file in the same folder and rename it over the target, so a
crash leaves the old file or the new one, never half of one, and no `*.tmp` stays behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(Exception):
    """An output path Meeple will not write: the message says why."""


DATA_SUFFIXES = {".csv", ".json", ".txt", ".tsv"}
MARKS = ('"meeple_save"', '"digest"')  # a save's and a trace header's own keys


def guard(path: str | Path) -> Path:
    """The path, if Meeple may write it; else OutputError."""
    p = Path(path)
    if p.suffix.lower() == ".rules":
        raise OutputError(f"{path} is a ruleset; Meeple will not write over rules (choose another file name)")
    if p.is_dir():
        raise OutputError(f"{path} is a folder; give a file name")
    if p.exists() and p.suffix.lower() in DATA_SUFFIXES and _beside_rules(p) and not _ours(p):
        raise OutputError(
            f"{path} is a data file beside a ruleset; Meeple will not write over it (choose another file name)"
        )
    return p


def _beside_rules(p: Path) -> bool:
    try:
        return any(p.resolve().parent.glob("*.rules"))
    except OSError:
        return False


def _ours(p: Path) -> bool:
    try:
        with open(p, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return False
    return any(mark in head for mark in MARKS)


def write_with(path: str | Path, write) -> None:
    """Call `write(temporary_path)`, then put the result in place in one step."""
    target = guard(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(target.parent))
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Write text atomically (fsync'd, then renamed over the target)."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())

    write_with(path, write)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write bytes (a picture) atomically."""

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    write_with(path, write)
