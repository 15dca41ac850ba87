"""Result rows on disk: one JSON line per game, written as each game ends, read back to resume or report.

A run's `--out` file is a `RowsFile`. Each row is appended and flushed the
moment its game ends, so a run stopped by Ctrl-C, a crash or a lost machine
keeps every game it finished. A process killed mid-write can leave a last line
cut short: that line is the only damaged line ever forgiven, and resuming drops
it. `--resume` plays only the games whose rows are not in the file yet (and the
games a worker lost: stopped past its time limit, or its process died); the
rows already there must be of the same setup, so a file never mixes two kinds
of games under one side's name. A run that ends writes the file once more in
task order (by side, then seed), so a resumed run's file holds exactly the rows
an uninterrupted run writes.

A row's key is its side and setup (ruleset, options, variants, agents,
players) and its seed: the same game, wherever it was played.
"""

from __future__ import annotations

import json
from typing import TextIO

from meeple.interpreter.lab.simulate import blank_row


class RowsError(ValueError):
    """A rows file that cannot be read or resumed: the message says where and why."""


def row_key(row: dict) -> tuple:
    return (
        row["side"],
        row["ruleset"],
        json.dumps(row["options"], sort_keys=True),
        tuple(row["variants"]),
        tuple(row["agents"]),
        row["players"],
        tuple(row.get("variant_files", ())),
        row["seed"],
    )


def task_key(task) -> tuple:
    return row_key(blank_row(*task))


def in_task_order(rows, tasks: list) -> list[dict]:
    """The rows sorted as the tasks were listed (by side, then seed); rows of no task go last."""
    order = {task_key(t): i for i, t in enumerate(tasks)}
    return sorted(rows, key=lambda r: order.get(row_key(r), len(order)))


def parse_lines(text: str, where: str, torn_tail: bool = False) -> list[dict]:
    """Rows from a file's text; with `torn_tail`, a last line cut short (no newline) is dropped."""
    rows = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            row_key(row)
        except (ValueError, KeyError, TypeError, RecursionError):
            if torn_tail and number == len(lines):  # the last line, with no newline after it
                break
            raise RowsError(f"{where}:{number}: not a result row") from None
        rows.append(row)
    return rows


def read_rows(paths: list) -> list[dict]:
    """Rows from several result files, merged; a game seen twice (same key) counts once."""
    seen, rows = set(), []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for row in parse_lines(text, str(path), torn_tail=True):
            if (key := row_key(row)) not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def write_rows(path, rows: list[dict]) -> None:
    from meeple.interpreter import outputs

    outputs.write_text(path, "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))


class RowsFile:
    """A run's `--out`: rows appended as games end; on resume, the games it already holds."""

    def __init__(self, path) -> None:
        from meeple.interpreter import outputs

        self.path = outputs.guard(path)
        self.rows: list[dict] = []  # every row in the file, old and new
        self.kept: list[dict] = []  # on resume: the rows of this run's games the file already held
        self.file: TextIO | None = None  # open from open() to close()

    def open(self, resume: bool, tasks: list) -> list[dict]:
        """Start writing; with `resume`, first read what is there. The rows already played, of `tasks`."""
        if resume and self.path.exists():
            text = self.path.read_text(encoding="utf-8")
            # a game its worker lost (stopped, died) is played again; every other row stays
            self.rows = [r for r in parse_lines(text, str(self.path), torn_tail=True) if not r.get("lost")]
            self._check_setup(tasks)
            # a torn last line is cut off, so that the next row starts on a line of its own
            self.path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in self.rows), encoding="utf-8")
        else:
            self.path.write_text("", encoding="utf-8")
        self.file = open(self.path, "a", encoding="utf-8")
        wanted = {task_key(t) for t in tasks}
        self.kept = [r for r in self.rows if row_key(r) in wanted]
        return self.kept

    def _check_setup(self, tasks: list) -> None:
        setups = {task_key(t)[:-1] for t in tasks}
        for row in self.rows:
            key = row_key(row)
            if key[0] in {s[0] for s in setups} and key[:-1] not in setups:
                raise RowsError(
                    f"{self.path} holds games of side `{key[0]}` played another way "
                    f"(agents {', '.join(key[4])}, options {key[2]}, variants {list(key[3])}): "
                    "resume with the same command, or give another --out"
                )

    def append(self, row: dict) -> None:
        self.rows.append(row)
        assert self.file is not None  # rows are appended between open() and close()
        self.file.write(json.dumps(row, sort_keys=True) + "\n")
        self.file.flush()  # in the OS's hands: a killed run keeps it

    def close(self, tasks: list | None = None) -> None:
        """Stop writing; given the run's tasks (a run that ended), write the file in task order."""
        if self.file is not None:
            self.file.close()
            self.file = None
        if tasks is not None:
            write_rows(self.path, in_task_order(self.rows, tasks))
