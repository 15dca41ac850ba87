"""Game data beside a ruleset: component tables and grid layouts, declared and validated.

Component tables are CSV (one row per component, a header naming `id` and the
declared fields, optionally `count` for copies) or JSON (a list of objects).
Grid layouts are text files: one line per row, one legend character per cell;
lines starting with `//` are comments.
Every problem points at the data file's line. A data path may not leave the
ruleset's folder.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from meeple.dsl import ast
from meeple.dsl.errors import Diagnostic, MeepleError, Span, did_you_mean, read_text
from meeple.dsl.runtime import KIND, Board, BoardError, polyomino

# Data values: whole numbers within what a table counts, read exactly (no 1.7 -> 1, no true -> 1).
WHOLE = TypeAdapter(Annotated[int, Field(ge=-(10**15), le=10**15)], config=ConfigDict(strict=True))
TEXT = TypeAdapter(str, config=ConfigDict(strict=True))
_DIGITS = re.compile(r"-?[0-9]{1,18}")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
MAX_NAME = 200


def resolve(base: Path, relative: str, span: Span, options: dict) -> Path:
    """The data file's path, with `{option}` filled in; it must stay in the ruleset's folder."""

    def fill(match) -> str:
        if match.group(1) not in options:
            raise MeepleError(
                f"`{relative}` names an option `{match.group(1)}` that does not exist",
                span,
                f"options are: {', '.join(options) or 'none'}; write `{{name}}` with nothing else",
            )
        return str(options[match.group(1)])

    name = _PLACEHOLDER.sub(fill, relative)
    if "{" in name or "}" in name:
        raise MeepleError(
            f"`{relative}` has a brace that is not an `{{option}}`",
            span,
            "write an option's name in braces, like `board_{board}.txt`",
        )
    if any(ord(ch) < 32 for ch in name):  # a control character (a NUL stops the OS's path calls)
        raise MeepleError(
            f"data file name {name!r} has a control character", span, "write the file's name in plain characters"
        )
    if len(name) > MAX_NAME or any(len(part) > 100 for part in Path(name).parts):
        raise MeepleError(
            f"data file name is {len(name)} characters long", span, f"keep data file names under {MAX_NAME} characters"
        )
    root = base.resolve()
    try:
        path = (root / name).resolve()
        if root != path and root not in path.parents:
            raise MeepleError(
                f"data file `{name}` is outside the ruleset's folder", span, "keep data files next to the .rules file"
            )
        if not path.is_file():
            raise MeepleError(f"data file `{name}` not found", span, f"looked for {path}")
    except OSError as exc:
        raise MeepleError(f"data file `{name}` cannot be opened: {exc.strerror or exc}", span) from None
    return path


def whole(raw, from_json: bool):
    """A whole number from a data cell, or None: JSON numbers must be ints, CSV text plain digits."""
    if not from_json:
        if not isinstance(raw, str) or not _DIGITS.fullmatch(raw):
            return None
        raw = int(raw)
    try:
        return WHOLE.validate_python(raw)
    except ValidationError:
        return None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a table can hold")


def _error(path: Path, line: int, message: str, hint: str = "", source: str = "") -> MeepleError:
    return MeepleError(Diagnostic(message, Span(line, 1), hint, "error", str(path), source))


def read_rows(path: Path) -> list[tuple[int, dict]]:
    """(line number, row) pairs from a CSV or JSON table."""
    text = read_text(path)
    if path.suffix == ".json":
        try:
            rows = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise _error(path, exc.lineno, f"not valid JSON: {exc.msg}", source=text) from None
        except ValueError as exc:  # Infinity, NaN
            raise _error(path, 1, f"not valid JSON: {exc}", source=text) from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise _error(path, 1, "a JSON table is a list of objects", source=text)
        return [(i + 1, {k: "" if v is None else v for k, v in r.items()}) for i, r in enumerate(rows)]
    lines = [ln for ln in io.StringIO(text)]
    reader = csv.DictReader((ln for ln in lines), strict=True)
    out = []
    try:
        for row in reader:
            if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
                continue
            if None in row:
                raise _error(path, reader.line_num, "this row has more values than the header has columns", source=text)
            out.append((reader.line_num, {k.strip(): (v or "").strip() for k, v in row.items()}))
    except csv.Error as exc:
        raise _error(path, reader.line_num, f"not valid CSV: {exc}", source=text) from None
    return out


# Components in one game, from every data file together: the largest shipped game has 441; each
# one costs about 300 bytes kept, and every state lists them.
MAX_COMPONENTS = 100_000


def load_components(
    decl: ast.ComponentDecl, base: Path, options: dict, enums: dict, taken_ids: set, effects: dict
) -> tuple[dict, list, dict]:
    """Components of one kind: ({id: fields}, [ids in order], {id: shape})."""
    path = resolve(base, decl.path, decl.span, options)
    text = read_text(path)
    rows = read_rows(path)
    fields = {f.name: f for f in decl.fields}
    from_json = path.suffix == ".json"
    components, order, shapes = dict[str, dict](), [], {}
    for line, row in rows:
        if "id" not in row or not str(row["id"]).strip():
            raise _error(path, line, "every row needs an `id`", "add an `id` column", text)
        extra = set(row) - set(fields) - {"id", "count", "name"}
        if extra:
            raise _error(
                path,
                line,
                f"column `{sorted(extra)[0]}` is not a field of {decl.name}",
                f"declare it under `component {decl.name}` or remove the column",
                text,
            )
        values = {KIND: decl.name}
        if row.get("name"):
            if from_json and not isinstance(row["name"], str):
                raise _error(path, line, f"`name` must be text, not {row['name']!r}", source=text)
            values["name"] = str(row["name"])
        for fname, f in fields.items():
            if fname not in row:
                raise _error(path, line, f"missing field `{fname}`", source=text)
            values[fname] = _field_value(path, line, text, f, row[fname], enums, effects, from_json)
        count = whole(row["count"], from_json) if row.get("count") not in (None, "") else 1
        if count is None:
            raise _error(path, line, f"`count` must be a whole number, not {row['count']!r}", source=text)
        if not 1 <= count <= 10_000:
            raise _error(path, line, "`count` must be between 1 and 10000", source=text)
        if len(taken_ids) + len(components) + count > MAX_COMPONENTS:
            raise _error(
                path,
                line,
                f"this row makes the game's components more than {MAX_COMPONENTS:,}",
                "a game of that many components is a runaway `count`",
                text,
            )
        base_id = str(row["id"]).strip()
        for copy in range(count):
            cid = base_id if count == 1 else f"{base_id}-{copy + 1}"
            if cid in taken_ids or cid in components:
                raise _error(path, line, f"id `{cid}` is used twice", "ids must be unique in the game", text)
            components[cid] = dict(values)
            order.append(cid)
            for f in fields.values():
                if f.form == "shape":
                    shapes[cid] = values[f.name]
    return components, order, shapes


def _field_value(path, line, text, f: ast.FieldDecl, raw, enums, effects, from_json: bool):
    if f.form == "shape":
        try:
            return polyomino.parse_shape(str(raw), set(enums[f.type]))
        except polyomino.ShapeError as exc:
            raise _error(
                path,
                line,
                f"field `{f.name}`: {exc}",
                "write cells split by spaces and rows by `/`, `.` for a hole",
                text,
            ) from None
    if f.form == "list":
        words = raw if isinstance(raw, list) else str(raw).replace(",", " ").split()
        for w in words:
            if w not in enums[f.type]:
                raise _error(
                    path, line, f"field `{f.name}`: {w!r} is not one of {', '.join(enums[f.type])}", source=text
                )
        return list(words)
    if f.type == "int":
        value = whole(raw, from_json)
        if value is None:
            raise _error(path, line, f"field `{f.name}` must be a whole number, not {raw!r}", source=text)
        return value
    if f.type == "text":
        try:
            return TEXT.validate_python(raw)
        except ValidationError:
            raise _error(
                path, line, f"field `{f.name}` must be text, not {raw!r}", "put the value in quotes", text
            ) from None
    if f.type == "effect":
        return _effect_value(path, line, text, f, str(raw).strip(), effects)
    allowed = enums[f.type]
    if raw not in allowed:
        raise _error(path, line, f"field `{f.name}`: {raw!r} is not one of {', '.join(allowed)}", source=text)
    return raw


_CALL = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?$")


def _effect_value(path, line, text, f, raw: str, effects: dict):
    """`gain(gold, 2)` -> ["gain", ["gold", 2]]; empty -> None (no ability)."""
    if not raw:
        return None
    match = _CALL.match(raw)
    if not match:
        raise _error(
            path,
            line,
            f"field `{f.name}`: {raw!r} is not an effect call",
            "write `name` or `name(arg, ...)` with numbers and names as arguments",
            text,
        )
    name, inner = match.group(1), match.group(2)
    if name not in effects:
        raise _error(
            path, line, f"field `{f.name}`: there is no effect `{name}`", did_you_mean(name, effects, "effect"), text
        )
    args: list[int | str] = []
    for part in [a.strip() for a in inner.split(",")] if inner and inner.strip() else []:
        if re.fullmatch(r"-?[0-9]+", part):
            args.append(int(part))
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part):
            args.append(part)
        else:
            raise _error(path, line, f"field `{f.name}`: argument {part!r} must be a number or a name", source=text)
    if len(args) > len(effects[name]):
        raise _error(
            path,
            line,
            f"field `{f.name}`: `{name}` takes {len(effects[name])} argument(s), this gives {len(args)}",
            source=text,
        )
    return [name, args]


def load_board(decl: ast.BoardDecl, base: Path, options: dict):
    path = resolve(base, decl.path, decl.span, options)
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(path, exc.lineno, f"not valid JSON: {exc.msg}", source=text) from None
    try:
        return Board.from_data(decl.name, data)
    except BoardError as exc:
        raise _error(path, 1, str(exc), source=text) from None


def load_layout(decl: ast.LayoutDecl, grid: ast.GridDecl, base: Path, options: dict) -> tuple:
    """A layout file -> one legend value per cell, row by row."""
    path = resolve(base, decl.path, decl.span, options)
    text = read_text(path)
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    rows = [(i + 1, ln) for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("//")]
    if len(rows) != grid.rows:
        raise _error(
            path,
            rows[-1][0] if rows else 1,
            f"the layout has {len(rows)} rows; grid `{grid.name}` has {grid.rows}",
            source=text,
        )
    values = []
    for number, row in rows:
        chars = row.replace(" ", "")
        if len(chars) != grid.cols:
            raise _error(
                path, number, f"this row has {len(chars)} cells; grid `{grid.name}` has {grid.cols}", source=text
            )
        for ch in chars:
            if ch not in decl.legend:
                raise _error(
                    path,
                    number,
                    f"`{ch}` is not in the legend",
                    "legend: " + ", ".join(f'"{k}" = {v}' for k, v in decl.legend.items()),
                    text,
                )
            values.append(decl.legend[ch])
    return tuple(values)
