"""JSON from outside (a trace, a save, a request body, a socket message), read with bounds.

`json.loads` alone turns some bad input into the wrong exception: a document nested a few
thousand deep raises RecursionError, a number of more than 4,300 digits a bare ValueError
(Python's limit on converting text to int). Callers that caught only JSONDecodeError let
both through as tracebacks (or a 500 from the play table). `loads` turns every one of them
into a `JsonError` with a message for people, and refuses documents nested deeper than
`depth`: nothing Meeple writes goes past 5 levels, and deep data is what makes the code that
walks it afterwards (pydantic, json.dumps, comparisons) recurse without end.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

DEPTH = 32  # lists and objects inside each other; Meeple's own traces and saves use 5


class JsonError(ValueError):
    """Text that is not JSON within the bounds; the message says what is wrong, without the text."""


def depth_of(value) -> int:
    """How deep lists and objects nest in `value` (a scalar is 0), without recursing."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            children: Iterable = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in children)
    return deepest


def loads(text: str | bytes, depth: int = DEPTH):
    """The JSON value in `text`, or a JsonError (never RecursionError or a bare ValueError)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonError(f"{exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise JsonError(f"nested more than {depth} levels deep") from None
    except UnicodeDecodeError:
        raise JsonError("not UTF-8 text") from None
    except ValueError as exc:  # an integer past Python's digit limit for text conversion
        raise JsonError("a number of more than 4300 digits" if "digits" in str(exc) else str(exc)) from None
    if depth_of(value) > depth:
        raise JsonError(f"nested more than {depth} levels deep")
    return value
