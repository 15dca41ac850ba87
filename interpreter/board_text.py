"""Boards as text: grids drawn as rows of codes, path boards as rows of spaces.

For traces, the terminal and the play table's legends: a grid reads with row and
column numbers, its terrain and a legend; a path board reads space by space with
its tags, its areas and what lies in each (zones kept per area), where the arrows
lead and who stands there. Names are written as people say them (`render`).
"""

from __future__ import annotations

from meeple.interpreter.naming import key_label
from meeple.interpreter.render import item_text, labelled_flag, player_name, runs_text, shown_value, var_text
from meeple.interpreter.state import HIDDEN, can_see


def boards_text(game, state: dict) -> list[str]:
    """Every grid drawn with row and column numbers, for traces and the terminal."""
    lines = []
    for key, grid in state["grids"].items():
        lines += grid_text(game, key, grid)
    return lines


def grid_text(game, key: str, grid: dict, preview: dict | None = None) -> list[str]:
    """One grid drawn: a legend line, column numbers on top, row numbers on the left.

    An empty cell shows its terrain (the first layout's symbol, `#` path, `.` grass)
    or `.` without a layout; `preview` (cell index -> content) draws a piece that is
    not placed yet in CAPITALS, over whatever is there."""
    spec = game.grids[key.split("/", 1)[0]]
    codes = grid_codes(game, spec)
    attr, symbols = terrain(game, spec)
    geometry = spec.geometry
    preview = preview or {}
    legend = ", ".join(f"{c}={v}" for v, c in codes.items())
    if attr:
        legend = f"{attr}: " + ", ".join(f"{s} {v}" for v, s in symbols.items()) + f"; {legend}"
    width = max([len(c) for c in codes.values()] + [len(str(geometry.cols)), 1])
    margin = len(str(geometry.rows))
    lines = [
        f"{key_label(game, key)} ({legend}):",
        " " * (margin + 1) + " ".join(str(c + 1).ljust(width) for c in range(geometry.cols)).rstrip(),
    ]
    layout = spec.layouts.get(attr, ()) if attr else ()
    for r in range(geometry.rows):
        row = []
        for c in range(geometry.cols):
            i = r * geometry.cols + c
            v = grid["cells"][i]
            if i in preview:
                text = codes.get(preview[i], preview[i]).upper()
            elif v is not None:
                text = codes.get(v, v)
            else:
                text = symbols[layout[i]] if layout else "."
            row.append(text.ljust(width))
        lines.append(f"{r + 1:>{margin}} " + " ".join(row).rstrip())
    return lines


def terrain(game, spec) -> tuple[str, dict]:
    """The grid's first layout attribute and one symbol per value, as the rules file's
    legend writes them (`"#" = path`); ("", {}) for a grid without a layout."""
    if not spec.layouts:
        return "", {}
    attr = next(iter(spec.layouts))
    key = ("terrain symbols", spec.name)
    if key not in game.cache:
        game.cache[key] = _legend(game, spec.name, attr) or _own_symbols(spec.layouts[attr])
    return attr, game.cache[key]


def _legend(game, grid: str, attr: str) -> dict:
    """value -> symbol from the grid's layout declaration in the rules source."""
    from meeple.dsl import ast
    from meeple.dsl.errors import MeepleError
    from meeple.dsl.parser import parse_text

    try:
        rs = parse_text(game.source, game.path or "<rules>")
    except MeepleError:
        return {}
    for decl in rs.of(ast.GridDecl):
        for lay in decl.layouts if decl.name == grid else ():
            if lay.attr == attr:
                return {v: ch for ch, v in lay.legend.items() if len(ch) == 1}
    return {}


def _own_symbols(values) -> dict:
    out: dict[str, str] = {}
    for v in values:
        out.setdefault(v, v[:1])
    return out


def grid_codes(game, spec) -> dict:
    """Two-letter codes for a grid's contents (`re` for red), unique within the enum."""
    values = game.enums[spec.content]
    codes, used = {}, set()
    for v in values:
        code = v[:2]
        n = 2
        while code in used and n < len(v):
            n += 1
            code = v[:1] + v[n - 1]
        used.add(code)
        codes[v] = code
    return codes


def all_boards_text(game, state: dict) -> list[str]:
    """Grids drawn as grids, then the path boards in use with who stands where."""
    lines = boards_text(game, state)
    for name in boards_in_use(game, state) if game.boards else []:
        lines += path_board_text(game, state, name)
    return lines


def board_occupants(game, state: dict, name: str) -> dict:
    """Who stands on each space of path board `name`: every variable whose value is
    that space's name, as people read it (`at[P1]`). Space -> list of labels."""
    spaces = game.boards[name].successors
    out: dict = {}
    for key, value in state["vars"].items():
        if isinstance(value, str) and value in spaces:
            out.setdefault(value, []).append(key_label(game, key))
    return out


def boards_in_use(game, state: dict) -> list:
    """The path boards worth showing: those a variable names (`path = front`) or stands
    on; every board when no variable points at any."""
    values = {v for v in state["vars"].values() if isinstance(v, str)}
    used = [name for name, board in game.boards.items() if name in values or any(v in board.successors for v in values)]
    return used or list(game.boards)


def space_names(game, name: str) -> dict:
    """How each space of path board `name` is written on the board: its label without what
    the board shows beside it (a tag in brackets) and without the words every label shares
    (`space 7 (bridge)` -> `7`, with `bridge` drawn as its tag); its name when it has no label."""
    key = ("space names", name)
    if key in game.cache:
        return game.cache[key]
    board = game.boards[name]
    words = {}
    for space in board.order:
        label = game.labels.get(space)
        if label is not None:
            tags = set(board.graph.nodes[space]["tags"])
            words[space] = [w for w in label.split() if w.strip("()") not in tags or not w.startswith("(")]
    shared = set.intersection(*(set(ws) for ws in words.values())) if len(words) > 1 else set()
    out = {}
    for space in board.order:
        short = " ".join(w for w in words.get(space, []) if w not in shared)
        out[space] = short or game.labels.get(space, space)
    game.cache[key] = out
    return out


def area_zones(game, zones: dict, boards=None) -> dict:
    """Zones kept per area of the path boards named (every one by default), by area
    (`zone source per area`): a board shows what lies in each area beside the spaces that
    touch it, so nobody has to look it up."""
    areas = {a for name in (game.boards if boards is None else boards) for a in game.boards[name].area_names}
    out: dict = {}
    for key in zones:
        head, _, index = key.partition("/")
        if index in areas:
            out.setdefault(index, []).append(key)
    return out


def area_holds(game, state: dict, keys: list) -> str:
    """What an area's zones hold, face-down ones counted ('' when nothing)."""
    said: list[str] = []
    for key in keys:
        items = state["zones"][key]
        shown = [i for i in items if not (type(i) is str and i.startswith(HIDDEN))]
        hidden = f"{len(items) - len(shown)} hidden" if len(shown) < len(items) else ""
        said += filter(None, [runs_text(game, shown), hidden])
    return ", ".join(said)


def area_text(game, state: dict, area: str, keys: list) -> str:
    """An area as a board row writes it: its name and what lies there."""
    holds = area_holds(game, state, keys)
    return f"{area} ({holds})" if holds else area


def path_board_text(game, state: dict | None, name: str) -> list:
    """A path board as text: its spaces in order (as `space_names` writes them) with tags,
    areas (with a state, what lies in each), where the arrows lead, and who stands there."""
    board = game.boards[name]
    here = board_occupants(game, state, name) if state is not None else {}
    held = area_zones(game, state["zones"], [name]) if state is not None else {}
    shown = space_names(game, name)
    rows = []
    for space in board.order:
        node = board.graph.nodes[space]
        areas = [area_text(game, state, a, held[a]) if state is not None and a in held else a for a in node["areas"]]
        rows.append(
            (
                shown[space],
                " ".join(node["tags"]),
                ", ".join(areas) if held else " ".join(areas),
                "-> " + (", ".join(shown[s] for s in board.successors[space]) or "nowhere"),
                ", ".join(here.get(space, [])),
            )
        )
    widths = [max([len(r[i]) for r in rows] + [1]) for i in range(4)]
    what = "areas and what lies there" if held else "areas"
    lines = [f"board {name} (space, tags, {what}, arrows, who is there):"]
    for row in rows:
        cells = [c.ljust(w) for c, w in zip(row, widths)] + ([f"<- {row[4]}"] if row[4] else [])
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def state_text(game, state: dict, viewer=None) -> list[str]:
    """The state as a person sees it: the start player (the rules' first player; no phase or
    step, which are the engine's words), counters, zones (hidden ones as counts), grids."""
    lines = [f"start player: {player_name(state['first'])}"]
    shown_vars = [
        key_label(game, k) if v is True and labelled_flag(game, k) else f"{key_label(game, k)}={var_text(game, k, v)}"
        for k, v in state["vars"].items()
        if shown_value(game, k, v)
    ]
    if shown_vars:
        lines.append("  " + "  ".join(shown_vars))
    for key, items in state["zones"].items():
        if key == "box" or not items:
            continue
        if viewer is not None and not can_see(game, key, viewer) or "?" in items:
            lines.append(f"  {key_label(game, key)}: {len(items)} hidden")
        else:
            lines.append(f"  {key_label(game, key)}: {', '.join(item_text(game, i) for i in items)}")
    lines += ["  " + line for line in all_boards_text(game, state)]
    return lines
