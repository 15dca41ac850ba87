"""Enums: their values, the words each value reads by, and enums read from a data file's column.

`enum site = clay_pit "clay pit" | market` gives `clay_pit` the label "clay pit":
options, logs, summaries and the table's view say the label, the rules say the
name. `enum kind from "cards.csv" column kind, label title` takes the distinct
values of a column in the file's order (so sixteen card kinds are not typed
twice), and their labels from another column of the same rows.
"""

from __future__ import annotations

import re
from pathlib import Path

from meeple.dsl import ast
from meeple.dsl.data import read_rows, resolve
from meeple.dsl.errors import MeepleError, did_you_mean

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def load_enums(decls: list, base: Path, options: dict, names: dict) -> tuple[dict, dict]:
    """(enum -> values, value -> label) for every enum; `names` are the ruleset's other top-level
    names (name -> what it is), which a value read from a file may not repeat."""
    enums: dict[str, list] = {}
    labels: dict[str, str] = {}
    for d in decls:
        if d.path:
            values, found = _from_file(d, base, options)
            for v in values:
                if v in names:
                    raise MeepleError(
                        f"enum `{d.name}` reads the value `{v}` from `{d.path}`, which is "
                        f"also the name of a {names[v]}",
                        d.span,
                        "rename one of them",
                    )
            labels.update(found)
        else:
            values = list(d.values)
        enums[d.name] = values
        labels.update(d.labels)
    return enums, labels


def _from_file(d: ast.EnumDecl, base: Path, options: dict) -> tuple[list, dict]:
    path = resolve(base, d.path, d.span, options)
    rows = read_rows(path)
    columns = list(rows[0][1]) if rows else []
    for col in (d.column, d.label_column):
        if col and col not in columns:
            raise MeepleError(
                f"`{d.path}` has no column `{col}`",
                d.span,
                did_you_mean(col, columns, "column") or f"its columns: {', '.join(columns) or 'none'}",
            )
    values: list = []
    labels: dict = {}
    for line, row in rows:
        v = str(row[d.column]).strip()
        if not _NAME.fullmatch(v):
            raise MeepleError(
                f"`{d.path}` line {line}: `{v}` in column `{d.column}` is not a name an enum value can have",
                d.span,
                "letters, digits and `_`, not starting with a digit",
            )
        if v not in labels and v not in values:
            values.append(v)
            if d.label_column and str(row[d.label_column]).strip():
                labels[v] = str(row[d.label_column]).strip()
    if not values:
        raise MeepleError(f"`{d.path}` has no rows, so enum `{d.name}` would have no values", d.span)
    return values, labels
