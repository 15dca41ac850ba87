"""What a client may send the table: request bodies and socket messages, checked before use.

Everything a page sends is untrusted. It is read with bounds first (jsontext.loads: nesting,
huge numbers), then checked against a pydantic model in strict mode: a field of the wrong type,
a number out of range or a field nobody asked for is one error naming the field (HTTP 400, or
an error message on the socket), never an exception deeper in the server (a seed of 2^63 did
not fit SQLite's integer; a list as the game could not be looked up).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from meeple.interpreter import jsontext

BODY_BYTES = 64_000  # a table request is a few hundred bytes
MESSAGE_CHARS = 4_000  # a socket message is a few dozen
Name = Annotated[str, StringConstraints(max_length=200)]
NAME_CHARS = 24  # a player's name: it stands in for "P1" in headers, log lines and scores
MESSAGES = ("choose", "undo", "name", "concede", "rematch")


def person(name: str) -> str:
    """A player's name as given, or a ValueError: printable characters only (no control, format or
    direction characters, which could hide or reorder the text around it), not a seat's own word
    (`P2` for P1 would read as the other seat). "" leaves the seat's name as P1, P2, ..."""
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise ValueError("a name is printable characters only")
    if re.fullmatch(r"[Pp]\d+", name):
        raise ValueError("a name cannot be a seat's own word like P2")
    return name


PersonName = Annotated[str, StringConstraints(strip_whitespace=True, max_length=NAME_CHARS), AfterValidator(person)]


class BodyError(ValueError):
    """A body or message that is not what the table takes; the message names the field."""


class NewTable(BaseModel):
    """POST /api/tables: the lobby's form."""

    model_config = ConfigDict(strict=True, extra="forbid")
    game: Name
    players: int = Field(ge=1, le=64)
    options: dict[Name, Name] = Field(default_factory=dict, max_length=64)
    variants: list[Name] = Field(default_factory=list, max_length=64)
    seats: list[Name] = Field(max_length=64)
    seed: int | None = Field(default=None, ge=0, lt=2**63)  # SQLite keeps signed 64-bit integers
    names: list[PersonName] = Field(default_factory=list, max_length=64)  # per seat; "" or missing: P1, P2, ...


class Choose(BaseModel):
    """A seat takes an option, as it stood at `step` (a page showing an older step is refused)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    type: Literal["choose"]
    option: str | list | int | None = None  # a wrong option is the table's to explain, in its words
    step: int | None = Field(default=None, ge=0, lt=2**63)


class Undo(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    type: Literal["undo"]


class Named(BaseModel):
    """A person names their own seat (on taking its link, or later)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    type: Literal["name"]
    name: PersonName


class Concede(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    type: Literal["concede"]


class Rematch(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    type: Literal["rematch"]


KINDS: dict[str, type[BaseModel]] = {
    "choose": Choose,
    "undo": Undo,
    "name": Named,
    "concede": Concede,
    "rematch": Rematch,
}


def problem(exc: ValidationError) -> str:
    """The first thing wrong, naming the field, in the trace reader's words."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the body"
    return f"field `{where}`: {err['msg'].lower()}"


def new_table(body: bytes) -> NewTable:
    """The table asked for in a request body (BodyError if it is not one)."""
    try:
        data = jsontext.loads(body)
    except jsontext.JsonError as exc:
        raise BodyError(f"send the table as a JSON object ({exc})") from None
    if not isinstance(data, dict):
        raise BodyError("send the table as a JSON object")
    try:
        return NewTable.model_validate(data)
    except ValidationError as exc:
        raise BodyError(problem(exc)) from None


def message(text) -> dict:
    """A socket message as a dict with a known type (BodyError if it is not one)."""
    if not isinstance(text, str):
        raise BodyError("send messages as text frames of JSON (this was binary)")
    if len(text) > MESSAGE_CHARS:
        raise BodyError(f"a message is at most {MESSAGE_CHARS:,} characters")
    try:
        data = jsontext.loads(text)
    except jsontext.JsonError:
        data = None
    if not isinstance(data, dict):
        raise BodyError("a message is a JSON object with a type")
    if data.get("type") not in MESSAGES:
        raise BodyError(f"unknown message type `{str(data.get('type'))[:40]}`; send one of: {', '.join(MESSAGES)}")
    try:
        return KINDS[data["type"]].model_validate(data).model_dump()
    except ValidationError as exc:
        raise BodyError(problem(exc)) from None
