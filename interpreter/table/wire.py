"""What the table sends, as text: JSON in which no string can reorder or hide the page's text.

Names, titles and labels come from rules files, data files and clients. A right-to-left override
(U+202E) in a card's name would make the page read it (and what follows) backwards; zero-width
characters make two names that look the same differ. The terminal shows them written out
(interpreter/printable.py); the pages do the same: every string in a response or socket message,
and every object key, goes through `printable.neutral`, so U+202E reaches the browser as the six
characters `\\u202e`. Control characters are written out the same way.

Most pages hold no such character: `dumps` checks the JSON text once and walks the data only
when it finds one (or the escape of a control character).
"""

from __future__ import annotations

import json
import re

from starlette.responses import JSONResponse

from meeple.interpreter.printable import NEUTRAL, neutral

# In the JSON text: a character `neutral` rewrites, as itself (json.dumps keeps them with
# ensure_ascii=False), or a control character's \u00XX escape (json.dumps escapes those).
_SUSPECT = re.compile("[" + "".join(re.escape(chr(c)) for c in NEUTRAL if c >= 0x20) + r"]|\\u00[01]")


def clean(value):
    """The value with every string (and key) written through `neutral`."""
    if isinstance(value, str):
        return neutral(value)
    if isinstance(value, dict):
        return {neutral(k) if isinstance(k, str) else k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def dumps(message) -> str:
    """The message as JSON text for a page, its strings made harmless."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    if _SUSPECT.search(text):
        text = json.dumps(clean(message), ensure_ascii=False, separators=(",", ":"))
    return text


class PageJSON(JSONResponse):
    """A JSON response through `dumps`."""

    def render(self, content) -> bytes:
        return dumps(content).encode("utf-8")
