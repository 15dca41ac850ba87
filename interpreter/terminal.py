"""One person's decision at the terminal: the prompt, the options, and what they type.

Short option lists are numbered; long ones show their first lines and can be
filtered (`/word`) or listed whole (`l`). Placing a piece is done on a drawing
of the grid: `ROW COL` puts the top-left corner of the piece's box there, `r`
turns it a quarter clockwise, `f` flips it, and the piece is drawn in CAPITALS
as a preview until Enter places it. When every option is a cell of one grid
(a mark, a move), `ROW COL` picks the cell. `s` shows the whole table as this
person sees it. The answer is an option index, or "undo" / "quit".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from meeple.interpreter.board_text import grid_codes, grid_text
from meeple.interpreter.boards import polyomino
from meeple.interpreter.summary_text import (  # noqa: F401 (what the terminal says of the table; tests read it here)
    counter_lines,
    counters_text,
    since_lines,
    summary,
    table_text,
    whole_table,
)

if TYPE_CHECKING:
    from meeple.interpreter.engine import Option

SHOWN = 25  # a longer list shows this many options and how to see the rest
HELP = """  a number       take that option
  ROW COL        on a grid: put the piece's top-left corner there (or pick that cell)
  r, f           turn the piece a quarter clockwise, flip it (e.g. `3 5 r`)
  Enter          place the piece shown in CAPITALS
  /WORD          only the options whose text has WORD; `l` lists every option
  s              the whole table as you see it
  !              ask for what the rules let you do on request (e.g. `!` Rearrange, `!2` the second)
  u, q           undo your last decision (when the rules allow), quit"""


def ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def listing(options: list, numbers: list[int] | None = None, limit: int | None = SHOWN) -> list[str]:
    """Numbered option lines (numbers from 1, as typed), cut after `limit` with a hint."""
    numbers = list(range(len(options))) if numbers is None else numbers
    cut = numbers if limit is None or len(numbers) <= limit + 5 else numbers[:limit]
    lines = [f"  {i + 1:>3}. {options[i].label}" for i in cut]
    if len(cut) < len(numbers):
        lines.append(f"       ... and {len(numbers) - len(cut)} more: /WORD shows the matching ones, l lists all")
    return lines


class Placing:
    """The piece being placed: where its preview stands and how it is turned."""

    def __init__(self, engine, state: dict, decision):
        pending = state["pending"]
        self.game, self.piece, self.key = engine.game, pending["piece"], pending["grid"]
        self.grid = state["grids"][self.key]
        self.geometry = self.game.grids[self.key.split("/", 1)[0]].geometry
        self.shape = self.game.shapes[self.piece]
        self.index = {tuple(o.value): i for i, o in enumerate(decision.options)}
        self.orientation = decision.options[0].value[0]
        self.at: tuple[int, int] | None = None  # (row, col), 1-based, once the person has said where

    def cells(self) -> tuple:
        """(row, col, content) of the previewed piece, 0-based, some maybe off the grid."""
        assert self.at is not None  # asked only once a place is said
        row, col = self.at
        return tuple((row - 1 + dr, col - 1 + dc, v) for dr, dc, v in polyomino.orient(self.shape, self.orientation))

    def same(self, a: int, b: int) -> bool:
        return polyomino.orient(self.shape, a) == polyomino.orient(self.shape, b)

    def chosen(self) -> int | None:
        if self.at is None:
            return None
        # equal-looking orientations are offered once: find the one that is
        for (o, r, c), i in self.index.items():
            if (r, c) == self.at and self.same(o, self.orientation):
                return i
        return None

    def turn(self, word: str) -> None:
        for ch in word:
            o = self.orientation
            self.orientation = (o % 4 + 1) % 4 + (o & 4) if ch == "r" else o ^ 4

    def move(self, row: int, col: int) -> str | None:
        """Stand at (row, col); keep the turn if it fits there, else the first that does."""
        if not (1 <= row <= self.geometry.rows and 1 <= col <= self.geometry.cols):
            return f"the grid has rows 1-{self.geometry.rows} and columns 1-{self.geometry.cols}"
        self.at = (row, col)
        if self.chosen() is None:
            fitting = [o for (o, r, c) in self.index if (r, c) == (row, col)]
            if fitting:
                self.orientation = fitting[0]
        return None

    def drawing(self) -> list[str]:
        preview, off = dict[int, object](), False
        if self.at is not None:
            for r, c, v in self.cells():
                if 0 <= r < self.geometry.rows and 0 <= c < self.geometry.cols:
                    preview[r * self.geometry.cols + c] = v
                else:
                    off = True
        lines = grid_text(self.game, self.key, self.grid, preview)
        where = (f"at row {self.at[0]}, column {self.at[1]}, " if self.at else "") + polyomino.describe_orientation(
            self.orientation
        )
        lines.append(f"{self.piece} {where}" + (" (in CAPITALS above):" if self.at else ":"))
        lines += self.shape_lines()
        if self.at is None:
            lines.append("Type ROW COL for its top-left corner (r turns, f flips).")
        elif self.chosen() is not None:
            lines.append("Enter places it here; or type another ROW COL, r to turn, f to flip.")
        else:
            turns = [polyomino.describe_orientation(o) for (o, r, c) in self.index if (r, c) == self.at]
            lines.append(
                ("Part of it is off the grid" if off else "It may not go there this way")
                + (
                    f"; there it fits {' or '.join(turns)} (r turns, f flips)"
                    if turns
                    else "; nothing fits with its corner there"
                )
                + ". Or type another ROW COL."
            )
        return lines

    def shape_lines(self) -> list[str]:
        """The piece on its own, in the grid's codes."""
        codes = grid_codes(self.game, self.game.grids[self.key.split("/", 1)[0]])
        cells = polyomino.orient(self.shape, self.orientation)
        rows = [["."] * (max(c for _, c, _ in cells) + 1) for _ in range(max(r for r, _, _ in cells) + 1)]
        for r, c, v in cells:
            rows[r][c] = codes.get(v, v)
        return ["    " + " ".join(code.ljust(2) for code in row).rstrip() for row in rows]


def cell_choices(state: dict, decision) -> tuple[str, dict] | None:
    """(grid key, {(row, col): option index}) when every option but a pass is a cell of one grid."""
    cells, key = {}, None
    for i, o in enumerate(decision.options):
        v = o.value
        if v is None:
            continue
        if not (
            isinstance(v, list)
            and len(v) == 2
            and isinstance(v[0], str)
            and type(v[1]) is int
            and v[0] in state["grids"]
        ) or key not in (None, v[0]):
            return None
        key = v[0]
        cells[v[1]] = i
    return (key, cells) if key else None


def choose(
    engine, state: dict, decision, seat: int, out, can_undo: bool, before: dict | None = None
) -> int | str | Option:
    """Ask the person in `seat` until they pick an option (its index), a request (its Option),
    "undo" or "quit"; `before` is the seat's view at its last decision (what changed since)."""
    game = engine.game
    placing = Placing(engine, state, decision) if "piece" in (state["pending"] or {}) else None
    on_cells = None if placing else cell_choices(state, decision)

    def say(lines) -> None:
        print("\n".join(lines), file=out)

    drawn = placing.key if placing else on_cells[0] if on_cells else None
    view = engine.view(state, seat)
    say(summary(engine, view, seat, drawn, before) + since_lines(game, before, view, seat))
    say([decision.prompt])
    if placing:  # the drawing is the way to choose; the numbers stay one `l` away
        say(
            placing.drawing()
            + [f"Or type a number from 1 to {len(decision.options)}: l lists the placements, /WORD filters them."]
        )
    else:
        if on_cells:
            say(grid_text(game, on_cells[0], state["grids"][on_cells[0]]))
        say(listing(decision.options))
    keys = {("!" if len(decision.requests) == 1 else f"!{i + 1}"): o for i, o in enumerate(decision.requests)}
    if keys:  # asked for, not among the numbered options
        say([f"  {k:<4} {o.label}" for k, o in keys.items()])
    while True:
        answer = ask("> (u = undo) " if can_undo else "> ")
        if answer is None:
            return "quit"
        text = answer.strip().lower()
        words = text.replace(",", " ").split()  # `3 5` or `3,5`
        if text in ("q", "quit"):
            return "quit"
        if text == "u":
            if can_undo:
                return "undo"
            print("nothing to undo here", file=out)
        elif text in ("h", "?", "help"):
            say(["Type:", HELP])
        elif text == "s":
            say(whole_table(engine, engine.view(state, seat), seat))
        elif text in keys:
            return keys[text]  # an Option: a request
        elif text == "l":
            say(listing(decision.options, limit=None))
        elif text.startswith("/"):
            word = text[1:].strip()
            found = [i for i, o in enumerate(decision.options) if word in o.label.lower()]
            say(listing(decision.options, found) if found else [f"no option mentions `{word}`"])
        elif text.isdigit():
            if 1 <= int(text) <= len(decision.options):
                return int(text) - 1
            print(f"type a number from 1 to {len(decision.options)}", file=out)
        elif placing and text == "" and (chosen := placing.chosen()) is not None:
            return chosen
        elif placing and words and all(re.fullmatch(r"\d+|[rf]+", w) for w in words):
            numbers = [int(w) for w in words if w.isdigit()]
            if len(numbers) not in (0, 2):
                print("type ROW COL, then r or f if you like (e.g. `3 5 r`)", file=out)
                continue
            problem = placing.move(*numbers) if numbers else None
            placing.turn("".join(w for w in words if not w.isdigit()))
            say([problem] if problem else placing.drawing())
        elif on_cells and len(words) == 2 and all(w.isdigit() for w in words):
            row, col = int(words[0]), int(words[1])
            cols = game.grids[on_cells[0].split("/", 1)[0]].geometry.cols
            index = on_cells[1].get((row - 1) * cols + col - 1) if 1 <= col <= cols else None
            if index is not None:
                return index
            print(f"row {row}, column {col} is not one of the options", file=out)
        else:
            print(
                f"type a number from 1 to {len(decision.options)}"
                + (", ROW COL" if placing or on_cells else "")
                + " (h for help)",
                file=out,
            )
