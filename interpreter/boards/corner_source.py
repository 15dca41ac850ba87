"""A shape's outlines as straight-line Python: where they fit, without a loop over them.

Where an outline fits is its corner mask and-ed with the free cells shifted by each of its
cells' distances (interpreter/boards/polyomino.py `corners`). Looped over, that is eight
bytecodes per cell; written out once per family of outlines, with the masks and distances as
literals and each shift made once and shared by the outlines that need it,

    def fits(free):
        return ((0xff & free & (s1 := free >> 1) & (s8 := free >> 8)) or (0xfe & free & s1 & s8 ...)) != 0

it is two. Made once per family (tables of pieces of one shape share it) and per grid size;
the source is built from numbers only.
"""
from __future__ import annotations

FOUND: dict = {}  # (what, outlines) -> the written function


def _anded(mask: int, distances, named: set, free: str = "free") -> str:
    """`mask & free & (free shifted by each distance)`, a shift named the first time it is made."""
    parts = [hex(mask)]
    for d in distances:
        if d == 0:
            parts.append(free)
        elif d in named:
            parts.append(f"s{d}")
        else:
            named.add(d)
            parts.append(f"(s{d} := {free} >> {d})")
    return "(" + " & ".join(parts) + ")"


def _made(source: str, name: str):
    namespace: dict = {}
    exec(compile(source, f"<outlines: {name}>", "exec"), namespace)
    return namespace[name]


def fits_test(outlines: tuple):
    """`fn(free) -> bool`: whether some outline fits the free cells (a bitmask, ~occupied).

    The outlines are tried in order and the first that fits ends the test (`or`): a shift is
    named where it is first made, and every later outline is reached only past that one."""
    found = FOUND.get(("fits", outlines))
    if found is None:
        named: set = set()
        terms = [_anded(mask, distances, named) for mask, distances in outlines]
        found = FOUND["fits", outlines] = _made(f"def fits(free):\n    return ({' or '.join(terms)}) != 0\n", "fits")
    return found


def spread_tables(spread: tuple):
    """`fn(free) -> [byte table per outline]` for outlines spread to a byte a cell (polyomino
    `spread_bits`; `free` spread alike): byte i of an outline's table is 1 where its corner
    fits at cell i, as the translate tables of `placements_for` want them (256 bytes)."""
    found = FOUND.get(("spread", spread))
    if found is None:
        named: set = set()
        items = [f"{_anded(mask, distances, named)}.to_bytes(256, 'little')" for mask, distances in spread]
        found = FOUND["spread", spread] = _made(f"def tables(free):\n    return [{', '.join(items)}]\n", "tables")
    return found


def selector(spread: tuple, segments: tuple):
    """`fn(spread free) -> bytes`: one byte per entry of a table's padded option lists (polyomino
    `padded`), 1 where that placement fits. Per orientation (a segment, in the table's order),
    its outline's corners as bytes, from corner 0 up to the outline's last possible corner: no
    byte table to translate through, and each outline's bytes made once for the orientations
    that share it."""
    key = ("selector", spread, tuple(i for i, _ in segments))
    found = FOUND.get(key)
    if found is None:
        named: set = set()
        lines = ["def chosen(free):"]
        for i, (mask, distances) in enumerate(spread):
            lines.append(f"    t{i} = {_anded(mask, distances, named)}.to_bytes({(mask.bit_length() + 7) // 8}, 'little')")
        lines.append(f"    return b''.join(({''.join(f't{i}, ' for i, _ in segments)}))")
        found = FOUND[key] = _made("\n".join(lines) + "\n", "chosen")
    return found
