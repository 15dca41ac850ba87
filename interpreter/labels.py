"""How options read: the label of each option of a decision, and of an option taken alone.

`Engine.decision` labels every option it offers; a choice with exactly one option
is taken at once (an `auto` event), and that event carries the same label and the
decision's title, so logs read "Which space? P1 chooses space 2 (the only option)"
rather than an id. Labels come from the choice's own `label` text, else from the
components' labels, else are built from the value (a cell, a placement, a list).
"""

from __future__ import annotations

from meeple.interpreter.boards import polyomino
from meeple.interpreter.effects import actions
from meeple.interpreter.game import KIND
from meeple.interpreter.render import key_label
from meeple.interpreter.sentences import words
from meeple.interpreter.state import component_ids, visible_to

PASS_ID = "pass"  # the id and label of "pass" after `may`


def field_text(name: str, value) -> str:
    """A component's field for people: shapes drawn, lists as words, abilities as calls."""
    if isinstance(value, tuple):
        return polyomino.render(value)
    if isinstance(value, list) and len(value) == 2 and isinstance(value[1], list):
        args = ", ".join(str(a) for a in value[1])
        return f"{name} {value[0]}({args})" if args else f"{name} {value[0]}"
    if isinstance(value, list):
        return f"{name} {' '.join(str(v) for v in value) or 'nothing'}"
    return f"{name} {value}"


def option_label(game, value, pending=None, titled=False) -> str:
    """An option as built from its value; `pending` names the piece of a placement."""
    if value is None:
        return PASS_ID
    if type(value) is dict:
        return actions.title(game, value) if actions.ACT in value else "done"
    if pending is not None and "piece" in pending and isinstance(value, list) and len(value) == 3:
        o, r, c = value
        place = f"row {r}, column {c}, {polyomino.describe_orientation(o)}"
        if titled:  # the question already names the piece
            return place
        return f"{game.labels.get(pending['piece'], pending['piece'])} at {place}"
    return describe(game, value)


def describe(game, value) -> str:
    """A value as an option reads: a component's label (or id, name and fields), a cell, a list."""
    g = game
    if isinstance(value, str) and value in g.labels:
        return g.labels[value]
    if isinstance(value, str) and value in g.components:
        comp = g.components[value]
        parts = [field_text(k, v) for k, v in comp.items() if k not in (KIND, "name") and v is not None]
        head = f"{value} {comp['name']}" if "name" in comp else value
        return f"{head} [{'; '.join(parts)}]" if parts else head
    if (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str)
        and value[0].split("/", 1)[0] in g.grids
    ):
        spec = g.grids[value[0].split("/", 1)[0]]
        r, c = divmod(value[1], spec.geometry.cols)
        return f"{key_label(g, value[0])} row {r + 1}, column {c + 1}"
    if isinstance(value, list) and value and all(is_cell(g, v) for v in value) and len({v[0] for v in value}) == 1:
        return cells_text(g, value)
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        return (
            " + ".join(g.labels.get(v, words(v)) if isinstance(v, str) else str(v) for v in value)
            if value
            else "none of them"
        )
    if isinstance(value, str):  # a name the rules use: `gold_coin` reads "gold coin"
        return words(value)
    return str(value)


def is_cell(game, v) -> bool:
    return (
        isinstance(v, list)
        and len(v) == 2
        and isinstance(v[0], str)
        and type(v[1]) is int
        and v[0].split("/", 1)[0] in game.grids
    )


def cells_text(game, cells: list) -> str:
    """Cells of one grid as people say them: a whole column is "column 2", a whole row "row 3",
    else each cell's row and column."""
    spec = game.grids[cells[0][0].split("/", 1)[0]]
    rows, cols = spec.geometry.rows, spec.geometry.cols
    at = sorted(divmod(i, cols) for _, i in cells)
    where = key_label(game, cells[0][0])
    if len({c for _, c in at}) == 1 and [r for r, _ in at] == list(range(rows)):
        return f"{where} column {at[0][1] + 1}"
    if len({r for r, _ in at}) == 1 and [c for _, c in at] == list(range(cols)):
        return f"{where} row {at[0][0] + 1}"
    return f"{where} " + ", ".join(f"row {r + 1} column {c + 1}" for r, c in at)


def own_label(m, op, value) -> str:
    """The option through the choice's own `label` text, `value` bound to the choice's name
    in the machine's current locals (which are left as they were)."""
    if value is None or type(value) is dict:  # pass, an action at any time, "done": not the choice's items
        return option_label(m.game, value)
    env = m.env
    had, old = op.var in env, env.get(op.var)
    env[op.var] = value
    try:
        return op.label(m)
    finally:
        if had:
            env[op.var] = old
        else:
            env.pop(op.var, None)


def lone_option(m, op, value, extra: dict) -> dict:
    """What an `auto` event says of an option taken alone: its label, the decision's title,
    and `seen_by` when it names a component some players cannot see."""
    if getattr(op, "label", None) is not None:
        label = own_label(m, op, value)
    else:
        label = option_label(m.game, value, extra, getattr(op, "titled", False))
    said: dict[str, object] = {"label": label}
    title = extra.get("prompt") or (op.prompt if type(op.prompt) is str else op.prompt(m))
    if title:
        said["title"] = title
    ids = component_ids(value, m.game)
    if ids:  # like a decision line's `seen_by`: who sees the components it names, judged before
        seats = [p for p in range(m.state["players"]) if visible_to(m.game, m.state, p, ids)]
        if len(seats) < m.state["players"]:
            said["seen_by"] = seats
    return said
