"""Output that cannot drive the terminal: control characters in rules text, labels or traces
are shown as `\\x1b`, never sent raw; characters that reorder or hide text as `\\u202e`.

A .rules file, a data file or a trace may hold escape sequences (by accident or on purpose) that
would recolour, clear or retitle the reader's terminal when printed. The command line wraps its
output streams in `Printable`, which neutralises every C0/C1 control character except new line,
tab and carriage return. Code that must really control the terminal (clearing the screen between
hot-seat players) writes to `stream.raw`.
"""

from __future__ import annotations

import io

_KEEP = {"\n", "\t", "\r"}
NEUTRAL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if chr(c) not in _KEEP}
# Characters that reorder or hide text: right-to-left overrides and isolates (a label could read
# backwards, or a name hide what follows it) and zero-width ones (two names that look the same and
# differ). Shown as `\u202e`; an emoji joined with U+200D shows its parts apart, which is rare in a game.
INVISIBLE = [
    0x061C,
    *range(0x200B, 0x2010),
    *range(0x202A, 0x202F),
    *range(0x2060, 0x2065),
    *range(0x2066, 0x206A),
    0xFEFF,
]
NEUTRAL.update({c: f"\\u{c:04x}" for c in INVISIBLE})


def neutral(text: str) -> str:
    """The text with control characters written out as `\\xNN`."""
    return text.translate(NEUTRAL)


class Printable(io.TextIOBase):
    """A text stream that writes everything through `neutral`."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(text.translate(NEUTRAL))
        return len(text)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self):
        return getattr(self.raw, "encoding", "utf-8")
