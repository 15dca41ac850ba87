"""A shape's outlines as straight-line Python: where they fit, without a loop over them.

Where an outline fits is its corner mask and-ed with the free cells shifted by each of its
cells' distances (interpreter/boards/polyomino.py `corners`). Looped over, that is eight
bytecodes per cell; written out once per family of outlines, with the masks and distances as
literals and each shift made once and shared by the outlines that need it,

    def fits(free):
        return ((0xff & free & (s1 := free >> 1) & (s8 := free >> 8)) or (0xfe & free & s1 & s8 ...)) != 0

it is two. Made once per family (tables of pieces of one shape share it) and per grid size;
the source is built from numbers only.

`picker` writes the placements that fit the same way: each orientation's fitting corners as
bytes, each byte (eight cells of the grid's numbering) indexing a tuple of the options at
those corners (`byte_options`), the tuples joined into the answer in one list display.
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
            lines.append(
                f"    t{i} = {_anded(mask, distances, named)}.to_bytes({(mask.bit_length() + 7) // 8}, 'little')"
            )
        lines.append(f"    return b''.join(({''.join(f't{i}, ' for i, _ in segments)}))")
        found = FOUND[key] = _made("\n".join(lines) + "\n", "chosen")
    return found


def picker(outlines: tuple, segments: tuple, size: int, cols: int):
    """`fn(occ) -> [option, ...]`: the placements that fit a grid of `size` cells whose filled
    cells are `occ` (a bitmask), in the table's order. `segments`: per run of the table's
    placements, (orientation, its outline's index); a run lists its orientation's corners
    in ascending order, as the bytes of its outline's fitting corners do.

        def pick(occ):
            free = 0xffffffffffff ^ occ
            b0_0, b0_1, = (0x3f3f & free & (s1 := free >> 1)).to_bytes(2, 'little')
            return [*O0_0[b0_0], *O0_1[b0_1]]

    A byte tuple is a constant of the function (a global), so each byte costs a lookup
    and an extend: no compress over every candidate, no free cells spread to bytes."""
    key = ("pick", outlines, segments, size, cols)
    found = FOUND.get(key)
    if found is None:
        named: set = set()
        namespace: dict = {}
        lines = ["def pick(occ):", f"    free = {hex((1 << size) - 1)} ^ occ"]
        nbytes = []
        for i, (mask, distances) in enumerate(outlines):
            n = (mask.bit_length() + 7) // 8
            nbytes.append(n)
            if any(i == j for _, j in segments):  # an outline no orientation uses is not tested
                names = "".join(f"b{i}_{b}, " for b in range(n))
                lines.append(f"    {names}= {_anded(mask, distances, named)}.to_bytes({n}, 'little')")
        items = []
        for s, (k, i) in enumerate(segments):
            for b in range(nbytes[i]):
                namespace[f"O{s}_{b}"] = byte_options(k, b, cols)
                items.append(f"*O{s}_{b}[b{i}_{b}]")
        lines.append(f"    return [{', '.join(items)}]")
        exec(compile("\n".join(lines) + "\n", "<outlines: pick>", "exec"), namespace)
        found = FOUND[key] = namespace["pick"]
    return found


BYTES: dict = {}  # (orientation, byte, columns) -> the options per value of that byte
OPTIONS: dict = {}  # (orientation, cell, columns) -> its option list, shared by every tuple naming it


def byte_options(k: int, b: int, cols: int) -> tuple:
    """Per value of byte `b` of a corner mask (cells 8b to 8b + 7), the options `[k, row, col]`
    (1-based) of orientation `k` at its set bits, in order: 256 tuples of shared option lists
    (made once per orientation, byte and grid width; never changed, as options are not)."""
    found = BYTES.get((k, b, cols))
    if found is None:
        lists = [OPTIONS.setdefault((k, i, cols), [k, i // cols + 1, i % cols + 1]) for i in range(8 * b, 8 * b + 8)]
        found = BYTES[k, b, cols] = tuple(tuple(lists[i] for i in range(8) if value >> i & 1) for value in range(256))
    return found
