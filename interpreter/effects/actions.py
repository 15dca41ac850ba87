"""Actions at any time: `action NAME(p) "Title" when TEST[, interrupting]:`.

A declared action is offered at every decision point while its test holds, not
only at fixed windows:

- with `, on request`, never among the options: the decision lists it apart
  (`Decision.requests`), the terminal and the table offer it as one key or
  button, and bots, which choose among the options, do not see it;

- on the player's own decisions, as extra options after the normal ones (so a
  decision that would be taken at once because it has one option is asked);
- with `, interrupting`, also on other players' decisions: just before someone
  decides, each other player (in turn order) whose test *newly* holds - it did
  not hold at the previous decision point - is asked once "act now?" with their
  actions and "pass". That keeps prompts, traces and bots sane: a test that
  holds all game long interrupts once, not at every step.

While an action's frame is on the stack no action is offered (its own
decisions are not interrupted and do not nest another action). Nor inside a
`together:` block: its frame holds the local `#together` while the block runs,
so the block and every effect it runs are one step of the rules (a check and
the payment it allows cannot be split by an action in between).

Choosing an action pushes a frame for its block on top of the interrupted
decision. The decision's op has not moved, so when the action's frame is done
the machine runs the op again and the options are recomputed. Nothing else is
kept: the interrupt is a frame, the "held last time" marks are plain vars
(`#held/ACTION/P`). A game that declares no action pays one list test per decision.
"""

from __future__ import annotations

from operator import attrgetter

ACT = "act"  # an option value {"act": name}: take the action `name`
HELD = "#held/"  # = state.HELD_PREFIX (views hide other players' marks)
MOMENT = "#moment"  # the name of what happens now, set by `moment NAME` (read by `moment()`)
TOGETHER = "#together"  # a frame's local while its `together:` block runs (see Together)
# `offer` reads the game's actions sorted once (their blocks, the interrupting ones, the
# offered ones) and, in a game with no interrupting action, only asks the actor's tests;
# tests turn it off to play the same games through the general path.
PLAN = True
# The "held" marks' keys worked out once per player count: `moment` clears them by name
# instead of testing every var's name for the prefix, and `offer` reads and writes them
# without building a key and a list of held actions per player (tests turn it off).
MARKS = True
# With one interrupting action, each player's test and "held" mark read without lists of
# tests and marks per player (`_lone`); tests turn it off.
LONE = True


def running(m) -> bool:
    """Is an action being run, or a `together:` block? Their decisions offer no actions (no
    action inside an action, none inside one step of the rules)."""
    blocks = m.game.cache.get("action blocks")
    if blocks is None:
        blocks = m.game.cache["action blocks"] = frozenset(a.block for a in m.game.actions)
    return any(f[0] in blocks or TOGETHER in f[2] for f in m.state["stack"])


def actions_for(m, player, among=None) -> list:
    """The actions (of `among`, else all) whose test holds for `player` now, in file order."""
    out = []
    saved = m.env
    try:
        for a in m.game.actions if among is None else among:
            m.env = {a.param: player}
            if a.guard is None or a.guard(m):
                out.append(a)
    finally:
        m.env = saved
    return out


def _actions_where(game, key: str, keep) -> list:
    """The game's actions for which keep(action) holds, worked out once per game."""
    found = game.cache.get(key)
    if found is None:
        found = game.cache[key] = [a for a in game.actions if keep(a)]
    return found


_is_interrupting = attrgetter("interrupting")
_is_requested = attrgetter("on_request")


def _is_offered(a) -> bool:
    return not a.on_request


def _interrupting(game) -> list:
    return _actions_where(game, "interrupting actions", _is_interrupting)


def interrupt(m, actor, line: int) -> bool:
    """Before `actor` decides: ask the first other player whose interrupting test newly holds.

    `actor` is None at a `moment`: nobody is deciding, so everyone may be asked."""
    return offer(m, actor, line) is None


def _plan(game) -> tuple:
    """(the actions' blocks, the interrupting actions, the offered ones), worked out once."""
    plan = game.cache["action plan"] = (frozenset(a.block for a in game.actions), _interrupting(game), _offered(game))
    return plan


def offer(m, actor, line: int):
    """Before `actor` decides: None if another player was asked to act first (the pending
    decision is theirs), else the actor's own actions that hold, as extra option values.

    Each test is evaluated once per decision point: the actor's interrupting ones serve
    both for their "held" marks and for their own options."""
    if PLAN:  # what follows, for a game whose actions never interrupt, with less to look up
        game = m.game
        plan = game.cache.get("action plan") or _plan(game)
        blocks = plan[0]
        for f in m.state["stack"]:
            if f[0] in blocks or TOGETHER in f[2]:  # an action is running, or one step of the rules
                return []
        if not plan[1]:
            if actor is None:
                return []
            out = []
            saved = m.env
            try:
                for a in plan[2]:
                    m.env = {a.param: actor}
                    if a.guard is None or a.guard(m):
                        out.append({ACT: a.name})
            finally:
                m.env = saved
            return out
    elif running(m):
        return []
    return _offer(m, actor, line)


def marks(game, players: int) -> list:
    """The keys of the "held" marks, [player][i] for the i-th interrupting action."""
    found = game.cache.get(("held marks", players))
    if found is None:
        found = game.cache[("held marks", players)] = [
            [f"{HELD}{a.name}/{q}" for a in _interrupting(game)] for q in range(players)
        ]
    return found


def _offer(m, actor, line: int):
    game, state = m.game, m.state
    inter = _interrupting(game)
    mine = None
    if LONE and MARKS and len(inter) == 1:
        asked, mine = _lone(m, inter[0], actor, line)
        if asked:
            return None
    elif inter and MARKS:
        vars_ = state["vars"]
        players = state["players"]
        first = state["first"]
        keys = marks(game, players)
        saved = m.env
        for i in range(players):
            q = (first + i) % players
            # Every test first, then the marks (as actions_for, then the loop below).
            try:
                now = []
                for a in inter:
                    m.env = {a.param: q}
                    now.append(a.guard is None or bool(a.guard(m)))
            finally:
                m.env = saved
            fresh = False
            for key, held in zip(keys[q], now):
                if held and not vars_.get(key, False):
                    fresh = True
                vars_[key] = held
            if q == actor:
                mine = [a for a, held in zip(inter, now) if held]
            elif fresh:
                prompt = (
                    f"Act now, before P{actor + 1} decides?" if actor is not None else f"Act now ({vars_.get(MOMENT)})?"
                )
                state["pending"] = {
                    "actor": q,
                    "options": [{ACT: a.name} for a, held in zip(inter, now) if held] + [None],
                    "interrupt": True,
                    "secret": False,
                    "line": line,
                    "prompt": prompt,
                }
                return None
    elif inter:
        vars_ = state["vars"]
        players = state["players"]
        first = state["first"]
        for i in range(players):
            q = (first + i) % players
            able = actions_for(m, q, inter)
            fresh = False
            for a in inter:
                key = f"{HELD}{a.name}/{q}"
                can = a in able
                if can and not vars_.get(key, False):
                    fresh = True
                vars_[key] = can
            if q == actor:
                mine = able
            elif fresh:
                prompt = (
                    f"Act now, before P{actor + 1} decides?" if actor is not None else f"Act now ({vars_.get(MOMENT)})?"
                )
                state["pending"] = {
                    "actor": q,
                    "options": [{ACT: a.name} for a in able] + [None],
                    "interrupt": True,
                    "secret": False,
                    "line": line,
                    "prompt": prompt,
                }
                return None
    if actor is None:
        return []
    offered = _offered(game)
    if mine is None or len(inter) < len(offered):  # the actor's tests not evaluated yet
        mine = actions_for(m, actor, offered)
    return [{ACT: a.name} for a in mine]


def _lone(m, a, actor, line: int):
    """`_offer`'s marks for a game with one interrupting action `a`: each player's test and
    mark without a list of tests and marks per player. (True, None) if a player was asked
    (as `_offer`), else (False, the actor's actions that hold: `[a]`, none, or None if the
    actor is no player, as `_offer` leaves it)."""
    state = m.state
    vars_ = state["vars"]
    players = state["players"]
    first = state["first"]
    keys = marks(m.game, players)
    param, guard = a.param, a.guard
    mine = None
    saved = m.env
    try:
        for i in range(players):
            q = (first + i) % players
            m.env = {param: q}
            held = guard is None or bool(guard(m))
            key = keys[q][0]
            fresh = held and not vars_.get(key, False)
            vars_[key] = held
            if q == actor:
                mine = [a] if held else []
            elif fresh:
                prompt = (
                    f"Act now, before P{actor + 1} decides?" if actor is not None else f"Act now ({vars_.get(MOMENT)})?"
                )
                state["pending"] = {
                    "actor": q,
                    "options": [{ACT: a.name}, None],
                    "interrupt": True,
                    "secret": False,
                    "line": line,
                    "prompt": prompt,
                }
                return True, None
    finally:
        m.env = saved
    return False, mine


def _offered(game) -> list:
    """The actions that join a decision's options (not those taken on request)."""
    return _actions_where(game, "offered actions", _is_offered)


def request_actions(game) -> list:
    return _actions_where(game, "request actions", _is_requested)


def requests(m, actor) -> list:
    """The actor's `on request` actions that hold now: asked for, never among the options."""
    asked = request_actions(m.game)
    if not asked or running(m):
        return []
    return actions_for(m, actor, asked)


def take(m, pending: dict, value) -> None:
    """An action chosen (or an interrupt passed): run its block above the interrupted decision."""
    if value is None:
        return  # passed: the interrupted decision is asked again
    name = value[ACT]
    a = next(a for a in m.game.actions if a.name == name)
    actor = pending["actor"]
    m.emit("act", player=actor, action=name)
    m.state["stack"].append([a.block, 0, {a.param: actor}])


def title(game, value: dict) -> str:
    return next((a.title for a in game.actions if a.name == value[ACT]), value[ACT])


def begin_moment(m, name) -> None:
    """`moment NAME`: what happens now changes, so every interrupting test counts as new again."""
    vars_ = m.state["vars"]
    vars_[MOMENT] = name
    if MARKS:  # the only "held" marks there are (written by `_offer` alone)
        for row in marks(m.game, m.state["players"]):
            for key in row:
                if key in vars_:
                    vars_[key] = False
        return
    for key in [k for k in vars_ if k.startswith(HELD)]:
        vars_[key] = False


class Together:
    """The start (`on`) or the end of a `together:` block: the frame's `#together` local is set
    or removed. A frame's locals go with it, so a `next` or `end game` inside the block (which
    drops the frames) leaves nothing behind; blocks nested in one frame compile to one pair."""

    __slots__ = ("on", "span")

    def __init__(self, on: bool, span):
        self.on, self.span = on, span

    def run(self, m, frame):
        if self.on:
            frame[2][TOGETHER] = True
        else:
            frame[2].pop(TOGETHER, None)
        frame[1] += 1
        return False


class MomentPoint:
    """After `moment NAME`: each player whose interrupting action holds is asked, in turn
    order, before the flow goes on. The op stays put while someone is asked, so after
    their action (or pass) it runs again and asks the next one."""

    __slots__ = ("span",)

    def __init__(self, span):
        self.span = span

    def run(self, m, frame):
        if interrupt(m, None, self.span.line if self.span else 0):
            return True
        frame[1] += 1
        return False
