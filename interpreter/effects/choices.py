"""Decision ops: `choose x from ...`, `choose one`, and `place piece on grid`.

Players act only through these. When one is reached it enumerates its options
(each distinct value once):
none runs `otherwise` ("must if possible"), one is taken at once, more stop the
machine with `state["pending"]` set. `apply` later calls `take` with the
chosen option's value. `may` adds a "pass" option (value None).
"""

from __future__ import annotations

from meeple.dsl.errors import MeepleError
from meeple.interpreter.boards import placing, polyomino
from meeple.interpreter.boards.placing import placement_table, placements_for
from meeple.interpreter.effects import actions, zones
from meeple.interpreter.labels import PASS_ID, lone_option
from meeple.interpreter.state import SECRET_LOCALS
from meeple.interpreter.work import too_much


def distinct(options: list) -> list:
    """Each value once, first come first: equal values are the same choice."""
    seen, out = set(), []
    for o in options:
        try:  # fast paths: a scalar, a cell [grid, index], a list of cells (a row, a column)
            if type(o) is not list:
                key: tuple = (type(o), o)
            elif o and type(o[0]) is list:
                key = tuple(tuple(x) if type(x) is list else x for x in o)
            else:
                key = tuple(o)
            fresh = key not in seen
        except TypeError:  # deeper nesting
            key = _hashable(o)
            fresh = key not in seen
        if fresh:
            seen.add(key)
            out.append(o)
    return out


def _hashable(value):
    if isinstance(value, list):
        return ("list",) + tuple(_hashable(v) for v in value)
    return (type(value).__name__, value)


def no_options(m, what: str) -> MeepleError:
    """The rules error for a choice reached with nothing to offer and no `otherwise`: located at
    the choice by the machine (`in phase ...: ...`, its line and a caret), with what to do."""
    hint = "add `otherwise:` to say what happens when there is nothing to choose"
    if m.game.actions:
        hint += (
            ", or make sure there is something: an action at any time taken between a check and this "
            "choice can spend what was checked (put both in `together:`)"
        )
    return MeepleError(f"{what} and no `otherwise`", hint=hint)


def the_player(m):
    """Who decides when the rules do not say: the `player` local."""
    return m.env["player"]


def suspend(m, frame, op, actor, options, **extra) -> bool:
    """Take a lone option at once; otherwise record the pending decision and stop.

    In a game with actions at any time, another player may be asked first
    (interpreter/effects/actions.py), and the actor's actions join the options."""
    if m.game.actions:
        line = op.span.line if op.span else 0
        mine = actions.offer(m, actor, line)
        if mine is None:  # someone else is asked first
            return True
        if mine:
            pending = {"actor": actor, "options": options + mine, "line": line}
            if type(op.prompt) is not str:  # a title with `{...}` parts, read where it is asked
                pending["prompt"] = op.prompt(m)
            pending.update(extra)
            m.state["pending"] = pending
            return True
    if len(options) == 1 and (not op.may or options[0] is None):
        if options[0] is not None and m.recording:  # a pass with nothing else to choose is not news
            said = lone_option(m, op, options[0], extra)
            if getattr(op, "secret", False):
                said["secret"] = True
            m.emit("auto", player=actor, choice=option_id(m.game, options[0]), **said)
        op.take(m, frame, options[0])
        return False
    pending = {"actor": actor, "options": options, "line": op.span.line if op.span else 0}
    if type(op.prompt) is not str:  # a title with `{...}` parts, read where it is asked
        pending["prompt"] = op.prompt(m)
    if extra:
        pending.update(extra)
    m.state["pending"] = pending
    return True


class ChooseFrom:
    __slots__ = (
        "may",
        "var",
        "source",
        "where",
        "by",
        "otherwise",
        "end",
        "span",
        "prompt",
        "unique",
        "cell_test",
        "secret",
        "label",
        "filter",
        "fresh",
    )

    def __init__(self, may, var, source, where, by, prompt, span, unique=False, cell_test=None, secret=False):
        self.may, self.var, self.source, self.where, self.by = may, var, source, where, by
        self.otherwise, self.end, self.span, self.prompt = None, 0, span, prompt
        self.unique = unique  # the source's items are distinct by construction
        self.cell_test = cell_test  # `where` as a direct read of cells (dsl/compile_cells.py)
        self.secret = secret  # `secret choose`: only the chooser learns which option was taken
        self.label = None  # fn(machine) -> str with the option in `var`: how each option reads
        self.filter = None  # fn(machine, items) -> the items `where` keeps, generated (dsl/compile_source.py)
        self.fresh = False  # `source` makes a new list each time (not a zone's own list): no copy needed

    def run(self, m, frame):
        options = self.options(m, frame)
        if not options:
            if self.otherwise is None:
                raise no_options(m, f"nothing to choose for `{self.var}`")
            frame[1] = self.otherwise
            return False
        if len(options) > 1 and type(self.prompt) is str and not m.game.actions:
            # The usual case, what `suspend` would do, without its call: a plain decision.
            m.state["pending"] = {
                "actor": m.env["player"] if self.by is the_player else self.by(m),
                "options": options,
                "line": self.span.line if self.span else 0,
            }
            return True
        return suspend(m, frame, self, self.by(m), options)

    def options(self, m, frame) -> list:
        """The values offered now (each once), with None for "pass" after `may`."""
        items = self.source(m)
        if isinstance(items, int):
            items = list(range(items))
        if self.where is not None:  # each item tested: counted as work (work.charge, written out)
            m.work -= len(items)
            if m.work < 0:
                raise too_much(self.span)
        if self.cell_test is not None:
            test, grids = self.cell_test, m.state["grids"]
            options = [c for c in items if test(grids, c)]
        elif self.filter is not None:
            options = self.filter(m, items)
        elif self.where is not None:
            options = self.keep(m, items)
        elif self.fresh:  # a list made for this choice alone
            options = items
        else:
            options = list(items)
        if len(options) > 1 and not self.unique:
            options = distinct(options)
        if self.may:
            options.append(None)
        return options

    def keep(self, m, items) -> list:
        """The items `where` keeps, each bound to the choice's name in turn."""
        env = m.env
        had, old = self.var in env, env.get(self.var)
        options = []
        for item in items:
            env[self.var] = item
            if self.where(m):
                options.append(item)
        if had:
            env[self.var] = old
        else:
            env.pop(self.var, None)
        return options

    def take(self, m, frame, value):
        if value is None:
            frame[1] = self.otherwise if self.otherwise is not None else self.end
            return
        env = frame[2]
        env[self.var] = value
        if self.secret:
            # Views show this local to its chooser only (interpreter/state.py).
            earlier = [pair for pair in env.get(SECRET_LOCALS, []) if pair[0] != self.var]
            env[SECRET_LOCALS] = earlier + [[self.var, self.by(m)]]
        frame[1] += 1


class Menu:
    __slots__ = ("may", "by", "entries", "end", "span", "prompt", "listed")

    def __init__(self, may, by, entries, prompt, span):
        # entries: [label, guard or None, target]
        self.may, self.by, self.entries, self.end, self.span, self.prompt = may, by, entries, 0, span, prompt
        self.listed = None  # fn(machine) -> the labels whose guard holds, generated (dsl/compile_source.py)

    otherwise = None

    def run(self, m, frame):
        options = self.options(m, frame)
        if not options:
            frame[1] = self.end
            return False
        return suspend(m, frame, self, self.by(m), options)

    def options(self, m, frame) -> list:
        options = self.listed(m) if self.listed is not None else self.tested(m)
        if self.may:
            options.append(None)
        return options

    def tested(self, m) -> list:
        """The labels of the entries whose guard holds, each guard asked in turn."""
        return [e[0] for e in self.entries if e[1] is None or e[1](m)]

    def take(self, m, frame, value):
        if value is None:
            frame[1] = self.end
            return
        frame[1] = next(e[2] for e in self.entries if e[0] == value)


class Place:
    """Choose where a piece goes (orientation and cell), then put it there."""

    __slots__ = ("piece", "grid", "by", "bind", "undoable", "span", "prompt", "titled")
    may = False

    def __init__(self, piece, grid, by, bind, undoable, prompt, span, titled=False):
        self.piece, self.grid, self.by, self.bind, self.undoable = piece, grid, by, bind, undoable
        self.prompt, self.span = prompt, span
        self.titled = titled  # the rules' own title (which names the piece): options say only the place

    def run(self, m, frame):
        piece, key = self.piece(m), self.grid(m)
        options = placements_for(m, piece, key)
        if not options:
            raise ValueError(f"`{piece}` does not fit on `{key}` (check with `fits` first)")
        return suspend(m, frame, self, self.by(m), options, piece=piece, grid=key, undoable=self.undoable)

    def take(self, m, frame, value):
        piece, key = self.piece(m), self.grid(m)
        put(m, piece, key, value)
        if self.bind:
            covered = m.state["grids"][key]["pieces"][-1][4]
            frame[2][self.bind] = [[key, i] for i in covered]
        m.state["pending"] = None
        frame[1] += 1


def put(m, piece: str, key: str, value) -> None:
    """Write a piece's cells onto a grid and take the piece out of its zone."""
    orientation, row, col = value
    grid = m.state["grids"][key]
    cells = grid["cells"]
    known = placement_table(m, piece, key).by_option.get((orientation, row, col))
    if known is not None and (
        not known.mask & placing.occupied(m, key) if placing.KEEP else all(cells[i] is None for i, _ in known.cells)
    ):
        # A placement that fits (the usual case): its cells are known already.
        covered = []
        for i, v in known.cells:
            cells[i] = v
            covered.append(i)
        if placing.KEEP:
            placing.placed(m, key, cells, known.mask)
    else:
        covered = put_checked(m, piece, key, value)
    src = zones.locate(m.state, piece)
    if src is not None:
        zones.own(m, src).remove(piece)
    grid["pieces"].append([piece, orientation, row, col, covered])
    if m.recording:
        m.emit("place", piece=piece, grid=key, at=[orientation, row, col], src=src)


def put_checked(m, piece: str, key: str, value) -> list:
    """Write a piece's cells one by one, stopping at the first that leaves the grid or is taken."""
    orientation, row, col = value
    spec = m.game.grids[key.split("/", 1)[0]]
    shape = polyomino.orient(m.game.shapes[piece], orientation)
    grid = m.state["grids"][key]
    cols = spec.geometry.cols
    placing.forget(m, key)  # it may stop half-way, some cells written
    covered = []
    for dr, dc, v in shape:
        r, c = row - 1 + dr, col - 1 + dc
        if not (0 <= r < spec.geometry.rows and 0 <= c < cols):
            raise ValueError(f"`{piece}` would leave the grid at row {r + 1}, column {c + 1}")
        i = r * cols + c
        if grid["cells"][i] is not None:
            raise ValueError(f"row {r + 1}, column {c + 1} of `{key}` is not empty")
        grid["cells"][i] = v
        covered.append(i)
    return covered


# ----------------------------------------------------------------- ids and labels
def option_id(game, value) -> str:
    """A stable id for an option value: the same value always gets the same id."""
    if value is None:
        return PASS_ID
    if type(value) is dict:  # an action at any time, or "done" closing a set
        return f"{actions.ACT}:{value[actions.ACT]}" if actions.ACT in value else "done"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return f"r{value[1]}c{value[2]}o{value[0]}"
    if isinstance(value, list):
        if (
            len(value) == 2
            and type(value[1]) is int
            and isinstance(value[0], str)
            and value[0].split("/", 1)[0] in game.grids
        ):
            return f"{value[0]}@{value[1]}"  # a cell
        # A list of things (a set of cards, a row of cells): their ids joined, `none` if empty.
        return "+".join(option_id(game, v) for v in value) if value else "none"
    return repr(value)


class WindowChoice:
    """One player's turn in a reaction window: run one reaction that applies, or pass.

    The loop over players is ordinary ops around this one; the player is in
    local `who`, the moment in local `moment`. With no reaction that applies,
    nothing is asked and nothing is recorded."""

    __slots__ = ("who", "moment", "span", "prompt", "titled")
    may = True

    def __init__(self, who: str, moment: str, span, title=""):
        self.who, self.moment, self.span = who, moment, span
        self.prompt = title or "React now?"
        self.titled = bool(title)  # the `window` has its own title; else "React at ...?"

    def applicable(self, m, frame) -> list:
        player, moment = frame[2][self.who], frame[2][self.moment]
        out = []
        saved = m.env
        try:
            for r in m.game.reactions:
                m.env = {r.params[0]: player, r.params[1]: moment}
                if r.guard is None or r.guard(m):
                    out.append(r.title)
        finally:
            m.env = saved
        return out

    def run(self, m, frame):
        options = self.applicable(m, frame)
        if not options:
            frame[1] += 1
            return False
        moment = frame[2][self.moment]
        # A moment may carry its context as a list (`window ["hit", target]`): show it as words.
        shown = " ".join(str(x) for x in moment) if isinstance(moment, list) else moment
        if self.titled:
            return suspend(m, frame, self, frame[2][self.who], options + [None])
        prompt = f'React at "{shown}"?'  # kept in the state, not on this shared op
        return suspend(m, frame, self, frame[2][self.who], options + [None], prompt=prompt)

    def take(self, m, frame, value):
        frame[1] += 1
        if value is None:
            return
        r = next(r for r in m.game.reactions if r.title == value)
        m.emit("react", player=frame[2][self.who], reaction=r.name, moment=frame[2][self.moment])
        m.state["stack"].append([r.block, 0, {r.params[0]: frame[2][self.who], r.params[1]: frame[2][self.moment]}])
