"""What a grid's shape shows beyond its score: features for a learned evaluation (learned.py).

A score rule counts what a grid holds now; what it may still score lies in its
shape. A group one square short of a size that pays more may grow, a column with one of a
kind may get the second a rule asks for, an empty square on a terrain that pays
may still take the kind that scores there, a one-square hole may never be filled.
A linear model over counts alone sees none of this, so for every grid kept per
player these features count, for each kind a square can hold and for empty squares:

- its groups (orthogonally connected squares of the same kind) by size: 1, 2, ...,
  SIZES or more;
- its squares on each terrain of the grid's layouts (`terrain=path:x`);
- the rows and the columns holding 1, 2, ..., LINE or more of it.

They are generic (the kinds are the grid's enum, the terrains its layout files'
values) and cheap: one pass over the cells for the groups, one for the lines.
"""

from __future__ import annotations

SIZES = 5  # groups counted by size 1, 2, ... and SIZES or more
LINE = 3  # rows and columns counted by how many of a kind they hold: 1, 2, ... LINE or more


def shape_names(game, spec) -> list[str]:
    """The feature names of one grid, in a fixed order."""
    g, kinds = spec.name, kinds_of(game, spec)
    out = [f"groups:{g}:{v}:{k}" for v in kinds for k in range(1, SIZES + 1)]
    for attr, cells in spec.layouts.items():
        out += [f"cells:{g}:{attr}={t}:{v}" for t in sorted(set(cells)) for v in kinds]
    out += [f"{line}:{g}:{v}:{k}" for line in ("rows", "cols") for v in kinds for k in range(1, LINE + 1)]
    return out


def kinds_of(game, spec) -> list[str]:
    return list(game.enums.get(spec.content, ())) + ["empty"]


def add_shape(spec, cells: list, values: dict) -> None:
    """Add one grid's shape features to `values` (name -> amount; several grids of the
    same name kept per player add up)."""
    g, geo = spec.name, spec.geometry
    kinds = ["empty" if c is None else str(c) for c in cells]
    seen = [False] * len(kinds)
    for start, kind in enumerate(kinds):
        if seen[start]:
            continue
        seen[start], todo, size = True, [start], 0
        while todo:
            i = todo.pop()
            size += 1
            for n in geo.neighbours[i]:
                if not seen[n] and kinds[n] == kind:
                    seen[n] = True
                    todo.append(n)
        _add(values, f"groups:{g}:{kind}:{min(size, SIZES)}")
    for attr, terrain in spec.layouts.items():
        for t, kind in zip(terrain, kinds):
            _add(values, f"cells:{g}:{attr}={t}:{kind}")
    rows, cols = geo.rows, geo.cols
    for line, members in (
        ("rows", [kinds[r * cols : (r + 1) * cols] for r in range(rows)]),
        ("cols", [kinds[c::cols] for c in range(cols)]),
    ):
        for held in members:
            for kind in set(held):
                _add(values, f"{line}:{g}:{kind}:{min(held.count(kind), LINE)}")


def _add(values: dict, key: str) -> None:
    values[key] = values.get(key, 0) + 1
