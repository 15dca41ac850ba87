"""The machine that runs compiled blocks until the next decision.

The state keeps a stack of frames `[block, pc, env]` - pending effects as plain
data - so a game can stop at any decision and be saved, copied, replayed or
searched. Each op is a small object whose `run(machine, frame)` does one step
and returns True when the game now waits for a decision, NEW_FRAME when it
changed the stack of frames, and False otherwise.

Hook order (fixed, and pinned by a trace test): a phase's statements run top to
bottom; a `choose` evaluates its options when reached; with none it runs
`otherwise`, with exactly one it is taken at once (an `auto` event), with more
the machine stops. Falling off the end of a phase ends the game.
"""

from __future__ import annotations

from meeple.dsl.errors import Diagnostic, MeepleError, Span
from meeple.interpreter.game import KIND
from meeple.interpreter.work import WORK_LIMIT, too_much

STEP_LIMIT = 200_000  # ops between two decisions before we call it a loop
NEW_FRAME = 2  # what an op's run() returns when it pushed, replaced or cleared frames
RULE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)
# A `next` runs the next phase's opening op itself, and a fused run the choice after it,
# instead of returning to the machine's loop (see `Goto` and dsl/compile_fused.py); tests
# turn it off to play the same games op by op.
CHAINED = True
# A `do`'s arguments that are the caller's locals copied from its frame, not read through
# their closures (`CallEffect.names`); tests turn it off.
ARGS = True


def _ignore(kind: str, **data) -> None:
    pass


def _recorder(events: list):
    """`emit` for a machine that keeps a trace: a closure over its event list, not a bound
    method (a machine holding its own method is a cycle, left for the cyclic collector)."""

    def record(kind: str, **data) -> None:
        data["e"] = kind
        events.append(data)

    return record


class Machine:
    """Runs ops on one state. `env` is the locals of the frame being run."""

    __slots__ = ("game", "state", "env", "events", "emit", "recording", "kept", "work", "hush", "owned")

    def __init__(self, game, state: dict, quiet: bool = False):
        self.game = game
        self.state = state
        self.kept: dict = {}  # grids' occupancy masks for this run (interpreter/boards/placing.py)
        # The zones whose lists this run copied and may change (effects/zones.py `own`): the
        # others may be shared with the state an apply forked from, or with a kept copy.
        self.owned: set = set()
        self.work = WORK_LIMIT  # what the rules' expressions may still do (interpreter/work.py)
        self.env: dict = {}
        self.events: list = []
        self.hush: list = []  # where each `quietly` block being run began, in `events`
        # Simulations that need no trace skip building events altogether.
        self.emit = _ignore if quiet else _recorder(self.events)
        self.recording = not quiet  # generated code skips building events nobody keeps

    def run(self) -> bool:
        """Run until a decision is pending (True) or the game is over (False)."""
        state = self.state
        stack = state["stack"]
        blocks = self.game.blocks
        budget = STEP_LIMIT
        self.work = WORK_LIMIT
        while stack:
            frame = stack[-1]
            ops = blocks[frame[0]].ops
            end = len(ops)
            self.env = frame[2]
            # Run this frame's ops until it ends, waits, or another frame takes over
            # (an op that pushes or replaces frames returns NEW_FRAME).
            while True:
                pc = frame[1]
                if pc >= end:
                    stack.pop()
                    break
                op = ops[pc]
                try:
                    moved = op.run(self, frame)
                except MeepleError as exc:
                    raise self.locate(exc, op, frame) from None
                except RULE_ERRORS as exc:
                    raise self.rule_error(str(exc) or type(exc).__name__, op, frame) from None
                budget -= 1
                if budget == 0:
                    raise self.rule_error(
                        f"{STEP_LIMIT} steps without a decision: the rules seem to loop forever",
                        op,
                        frame,
                        "check the loop's condition, or the `next` that leads back here",
                    )
                if moved:
                    if moved is True:
                        return True
                    break
        if not state["over"]:
            state["over"] = True
            self.emit("end")
        return False

    def rule_error(self, message: str, op, frame, hint: str = "") -> MeepleError:
        block = self.game.blocks[frame[0]]
        span = getattr(op, "span", None) or Span()
        return MeepleError(
            Diagnostic(f"in {block.name}: {message}", span, hint, "error", self.game.path, self.game.source)
        )

    def locate(self, exc: MeepleError, op, frame) -> MeepleError:
        block = self.game.blocks[frame[0]]
        for d in exc.diagnostics:
            if not d.span.line:
                d.span = getattr(op, "span", None) or Span()
            if not d.message.startswith("in "):
                d.message = f"in {block.name}: {d.message}"
        return exc.located(self.game.path, self.game.source)


# ----------------------------------------------------------------- control ops
class Exec:
    """Run one effect closure, then go on."""

    __slots__ = ("fn", "span")

    def __init__(self, fn, span):
        self.fn, self.span = fn, span

    def run(self, m, frame):
        self.fn(m)
        frame[1] += 1
        return False


class Jump:
    __slots__ = ("target", "span")

    def __init__(self, target=0, span=None):
        self.target, self.span = target, span

    def run(self, m, frame):
        frame[1] = self.target
        return False


class JumpUnless:
    __slots__ = ("cond", "target", "span")

    def __init__(self, cond, target=0, span=None):
        self.cond, self.target, self.span = cond, target, span

    def run(self, m, frame):
        frame[1] = frame[1] + 1 if self.cond(m) else self.target
        return False


class IterStart:
    """Evaluate a loop's list once, keep the items that pass `where` (tested now, not
    as the loop goes), and keep [items, position] in a hidden local."""

    __slots__ = ("source", "slot", "bind", "names", "where", "span")

    def __init__(self, source, slot, span, bind=None, names=(), where=None):
        self.source, self.slot, self.span = source, slot, span
        self.bind, self.names, self.where = bind, names, where

    def run(self, m, frame):
        frame[2][self.slot] = [loop_items(m, frame[2], self.source, self.where, self.bind, self.names), 0]
        frame[1] += 1
        return False


def loop_items(m, env: dict, source, where, bind, names) -> list:
    """A loop's items, those that pass `where` (each bound in `env` to be tested; the names
    are as they were afterwards). Shared by IterStart and loops in fused runs."""
    return kept_items(m, env, listed(m, source(m)), where, bind, names)


def listed(m, items) -> list:
    """What a loop runs over: a list's items (a copy), or 0 .. n-1 for a number n; counted
    as work (interpreter/work.py): a loop of statements inside a fused run is one op."""
    items = list(range(items)) if isinstance(items, int) else list(items)
    m.work -= len(items)  # work.charge written out: this runs for every loop of statements
    if m.work < 0:
        raise too_much()
    return items


def kept_items(m, env: dict, items: list, where, bind, names) -> list:
    if where is not None:
        saved = {n: env[n] for n in names if n in env}
        kept = []
        for item in items:
            bind(env, item)
            if where(m):
                kept.append(item)
        for n in names:
            if n in saved:
                env[n] = saved[n]
            else:
                env.pop(n, None)
        items = kept
    return items


class IterNext:
    """Bind the next item, or leave the loop."""

    __slots__ = ("slot", "bind", "end", "span")

    def __init__(self, slot, bind, end=0, span=None):
        self.slot, self.bind, self.end, self.span = slot, bind, end, span

    def run(self, m, frame):
        env = frame[2]
        loop = env[self.slot]
        if loop[1] < len(loop[0]):
            self.bind(env, loop[0][loop[1]])
            loop[1] += 1
            frame[1] += 1
            return False
        del env[self.slot]
        frame[1] = self.end
        return False


class CallEffect:
    """`do name(args)`: push a frame for the effect with its parameters bound.

    `names` holds, for each argument that is the caller's local (`do f(p)`), the local's
    name: it is copied from the caller's frame without calling its closure, which runs only
    when the local is absent (to raise its error)."""

    __slots__ = ("block", "params", "args", "span", "names")

    def __init__(self, block, params, args, span, names=None):
        self.block, self.params, self.args, self.span = block, params, args, span
        self.names = tuple(zip(params, names, args)) if ARGS and names and any(names) else None

    def run(self, m, frame):
        env = {}  # a loop, not a comprehension: one call frame less on every effect called
        names = self.names
        if names is None:
            for p, a in zip(self.params, self.args):
                env[p] = a(m)
        else:
            caller = m.env
            for p, n, a in names:
                if n is not None and n in caller:
                    env[p] = caller[n]
                else:
                    env[p] = a(m)
        frame[1] += 1
        stack = m.state["stack"]
        if len(stack) > 64:
            raise ValueError("effects call each other more than 64 deep")
        stack.append([self.block, 0, env])
        return NEW_FRAME


class CallField:
    """`do card.field(args)`: run the effect a component's `effect` field names.

    The caller's arguments come first, then the ones written in the data."""

    __slots__ = ("obj", "field", "args", "span")

    def __init__(self, obj, field, args, span):
        self.obj, self.field, self.args, self.span = obj, field, args, span

    def run(self, m, frame):
        comp_id = self.obj(m)
        comp = m.game.components.get(comp_id) if isinstance(comp_id, str) else None
        if comp is None:
            raise ValueError(f"{comp_id!r} is not a component, so it has no `{self.field}` to run")
        if self.field not in comp:
            raise ValueError(f"{comp[KIND]} `{comp_id}` has no field `{self.field}`")
        frame[1] += 1
        ability = comp[self.field]
        if ability is None:
            return False  # no ability written for this component
        name, data_args = ability
        block, params = m.game.effects[name]
        values = [a(m) for a in self.args] + list(data_args)
        if len(values) != len(params):
            raise ValueError(
                f"`{comp_id}.{self.field}` runs `{name}` with {len(values)} argument(s); "
                f"it takes {len(params)} ({', '.join(params)})"
            )
        stack = m.state["stack"]
        if len(stack) > 64:
            raise ValueError("effects call each other more than 64 deep")
        stack.append([block, 0, dict(zip(params, values))])
        return NEW_FRAME


class Goto:
    """`next phase`: the current phase and everything pending in it are finished.

    `first` is the next phase's opening op when it can be run from here (a choice, or
    a fused run that leads into one without leaving the phase): one pass through the
    machine's loop less per phase, and never a chain longer than those two ops."""

    __slots__ = ("block", "name", "span", "first")

    def __init__(self, block, name, span):
        self.block, self.name, self.span = block, name, span
        self.first = None  # set by chain_phases once every block is compiled

    def run(self, m, frame):
        state = m.state
        stack = state["stack"]
        stack.clear()
        new = [self.block, 0, {}]
        stack.append(new)
        state["phase"] = self.name
        state["seq"] += 1
        if m.recording:
            m.emit("phase", phase=self.name)
        first = self.first
        if first is None:
            return NEW_FRAME
        m.env = new[2]
        try:
            moved = first.run(m, new)
        except MeepleError as exc:
            raise m.locate(exc, first, new) from None
        except RULE_ERRORS as exc:
            raise m.rule_error(str(exc) or type(exc).__name__, first, new) from None
        return True if moved is True else NEW_FRAME


def chain_phases(game, gotos: list) -> None:
    """Let each `next` run its phase's opening op (see Goto) when that op cannot lead
    further: a choice, or a fused run chained to a choice with no `next` of its own."""
    if not CHAINED:
        return
    for goto in gotos:
        ops = game.blocks[goto.block].ops
        first = ops[0] if ops else None
        name = type(first).__name__
        if (
            name == "ChooseFrom"
            or name == "Fused"
            and first is not None
            and first.then is not None
            and not first.leaves
        ):
            goto.first = first


class EndGame:
    __slots__ = ("span",)

    def __init__(self, span):
        self.span = span

    def run(self, m, frame):
        m.state["stack"].clear()
        return NEW_FRAME
