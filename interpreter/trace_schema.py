"""What a trace line may hold, and the digest chain that names an edited line.

A trace is untrusted input: `meeple replay`, `show` and the web table's replay viewer read
files people send around. Every line is checked against a pydantic model in strict mode (the
header, the setup, each decision, the end), so a missing or mistyped field is one error naming
the line and the field, never a traceback. Each line also carries `chain`: a digest of the line
and the chain before it. An edited, removed, reordered or added line breaks the chain at that
line, which is what the error names. (The chain finds edits; it is not a signature: someone who
recomputes it can forge a trace, and then `replay` still finds every choice the rules refuse.)
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

FORMAT = 2  # the header's `meeple`: 2 adds the chain


class _Line(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    chain: str = Field(min_length=16, max_length=16)


class Header(_Line):
    model_config = ConfigDict(strict=True, extra="allow")  # rulesets may add fields (fingerprints)
    meeple: Literal[2]
    game: str
    ruleset: str = ""
    digest: str
    options: dict[str, str]
    variants: list[str]
    seed: int
    players: int = Field(ge=1, le=64)
    agents: list[str]


class Setup(_Line):
    setup: list[dict]


class Decision(_Line):
    step: int = Field(ge=1)
    actor: int = Field(ge=0)
    options: int = Field(ge=1)
    choice: str
    label: str
    title: str = ""
    events: list[dict]
    seen_by: list[int] | None = None
    private: bool = False  # an offer to act now that the seat passed: only it knows it was asked


class Ending(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    scores: list[dict]
    ranking: list[dict]
    boards: list[str] = []
    outcome: list[dict] | None = None


class End(_Line):
    end: Ending


BODY = TypeAdapter(Setup | Decision | End)


def link(previous: str, line: dict) -> str:
    """The chain value of `line` (without its own `chain`) after `previous`."""
    body = json.dumps({k: v for k, v in line.items() if k not in ("chain", "_line")}, sort_keys=True)
    return hashlib.sha256((previous + "\n" + body).encode("utf-8")).hexdigest()[:16]


def problem(line: dict, first: bool) -> str | None:
    """What is wrong with one line's fields, in words (None: nothing)."""
    try:
        if first:
            Header.model_validate(line)
        elif "setup" in line:
            Setup.model_validate(line)
        elif "end" in line:
            End.model_validate(line)
        else:
            Decision.model_validate(line)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "the line"
        return f"field `{where}`: {err['msg'].lower()}"
    return None
