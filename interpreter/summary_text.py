"""What the terminal says of the table: the summary before each decision, the whole table
(`s`), and what changed since a person last decided.

The header speaks as the play table's does: whose turn it is and the start player (labelled
so that it is not read as whose turn), no phase or step. A ruleset with a `layout:` is written
the way it arranges its table (layout_text.py); without one, the generic text: shared things,
then each player's. Before each decision a person reads a few lines (their own area, the
shared running counters, what `summary:` names or what is public and changed) and a short
"Changed since your last decision" line naming each thing that changed, in the log's words.
"""

from __future__ import annotations

from meeple.interpreter.board_text import area_zones, boards_in_use, grid_text, path_board_text
from meeple.interpreter.layout_text import Rows, laid_out_table, named_lines, player_area, shared_areas
from meeple.interpreter.naming import parts_of, spec_of
from meeple.interpreter.render import (
    cell_text,
    event_text,
    is_quiet,
    item_text,
    key_label,
    labelled_flag,
    player_name,
    runs,
    runs_text,
    var_text,
)
from meeple.interpreter.sentences import change_words, set_sentence
from meeple.interpreter.standing import score_so_far_text
from meeple.interpreter.state import HIDDEN
from meeple.interpreter.table_parts import owner_of

WIDTH = 100  # the summary's lines wrap here


def owner(game, key: str):
    """The seat a zone, grid or counter key belongs to (`hand/1` -> 1), None if shared."""
    return owner_of(spec_of(game, key.split("/", 1)[0]), key)


def header(view: dict, seat: int | None) -> str:
    """The first line, as the play table's header says it: who you are, whose turn, and the
    start player (the rules' first player, labelled so that it is not read as whose turn)."""
    who = "watching" if seat is None else f"{player_name(seat)}: your turn"
    return who + (f" · start player: {player_name(view['first'])}" if view["players"] > 1 else "")


def counters_text(game, view: dict, seat: int) -> list[str]:
    """The seat's counters and the shared running ones, one line; a counter kept per
    something more reads as one group (`stock[P1]: red 1, blue 3`; a flag lists
    where it is true: `used[P1]: A, C`). Zeros and false are left out."""
    return counter_lines(
        game, view, lambda mine, spec: mine == seat or (mine is None and not spec.per and spec.kind == "counter")
    )


def counter_lines(game, view: dict, keep) -> list[str]:
    """Counters for which keep(owner, spec) holds, grouped and wrapped as `counters_text` says."""
    single, groups = list[str](), dict[str, list[str]]()
    for key, value in view["vars"].items():
        name = key.split("/", 1)[0]
        spec = game.counters.get(name)
        if spec is None or getattr(spec, "quiet", False) or value in (0, False, None, ""):
            continue
        mine = owner(game, key)
        if not keep(mine, spec):
            continue
        rest = parts_of(game, key)
        if not rest:  # a flag with a `label` reads as its label alone ("last round")
            single.append(
                key_label(game, key)
                if value is True and spec.label
                else f"{key_label(game, key)}={var_text(game, key, value)}"
            )
            continue
        head = key_label(game, key, parts=False)
        word = " ".join(rest)
        groups.setdefault(head, []).append(word if value is True else f"{word} {var_text(game, key, value)}")
    lines: list[str] = []
    for part in single + [f"{head}: {', '.join(words)}" for head, words in groups.items()]:
        if lines and len(lines[-1]) + 2 + len(part) <= WIDTH:
            lines[-1] += "  " + part
        else:
            lines.append("  " + part)
    return lines


def zone_lines(game, view: dict, keep, skip=frozenset(), keys=None) -> list[str]:
    """Zones for which keep(owner) holds (and, given `keys`, only those), each as its cards, with
    face-down ones counted; those in `skip` are said elsewhere (on a board)."""
    lines = []
    for key, items in view["zones"].items():
        if (
            key == "box"
            or not items
            or key in skip
            or not keep(owner(game, key))
            or keys is not None
            and key not in keys
        ):
            continue
        shown = [i for i in items if not i.startswith(HIDDEN)]
        hidden = f"{len(items) - len(shown)} hidden" if len(shown) < len(items) else ""
        # What the backs of face-down cards show is public (the top of a deck, a spread hand):
        # the table shows it, and a person at the terminal reads it too.
        backs = [i[len(HIDDEN) :] for i in items if i.startswith(HIDDEN) and len(i) > len(HIDDEN)]
        if backs:
            hidden += (
                f" (the back{'s' if len(backs) > 1 else ''} {'show' if len(backs) > 1 else 'shows'} "
                f"{runs_text(game, backs)})"
            )
        lines.append(f"  {key_label(game, key)}: {', '.join(filter(None, [runs_text(game, shown), hidden]))}")
    return lines


def table_text(game, view: dict, seat: int) -> list[str]:
    """`s`: the whole table as this seat sees it, the shared things first, then each player's
    own counters, cards and boards, yours marked. Zeros, false and empty zones are left out."""
    lines = [header(view, seat).replace(": your turn", " (you)", 1), "On the table:"]
    lines += counter_lines(game, view, lambda mine, spec: mine is None)
    boards = boards_in_use(game, view) if game.boards else []
    on_boards = {k for keys in area_zones(game, view["zones"], boards).values() for k in keys} if boards else ()
    lines += zone_lines(game, view, lambda mine: mine is None, skip=on_boards)
    lines += [
        "  " + line
        for key, grid in view["grids"].items()
        if owner(game, key) is None
        for line in grid_text(game, key, grid)
    ]
    for name in boards:
        lines += ["  " + line for line in path_board_text(game, view, name)]
    for p in range(view["players"]):
        lines.append(f"{player_name(p)}{' (you)' if p == seat else ''}:")
        lines += counter_lines(game, view, lambda mine, spec, p=p: mine == p)
        lines += zone_lines(game, view, lambda mine, p=p: mine == p)
        lines += [
            "  " + line
            for key, grid in view["grids"].items()
            if owner(game, key) == p
            for line in grid_text(game, key, grid)
        ]
    return lines


def whole_table(engine, view: dict, seat: int) -> list[str]:
    """`s`: the whole table as this seat sees it, as the ruleset's layout arranges it (or the
    generic text without one)."""
    if engine.game.page is None:
        return table_text(engine.game, view, seat)
    start = [f"start player: {player_name(view['first'])}"] if view["players"] > 1 else []
    return start + laid_out_table(engine, view, seat)


def summary(engine, view: dict, seat: int, drawn: str | None = None, before: dict | None = None) -> list[str]:
    """A few lines before a decision: whose turn, the running counters, what is yours,
    and your boards (the shared ones too). Besides: what the ruleset's `summary:` names,
    every player's; without one, what is public and changed since `before` (this seat's
    view at its last decision): the others' counters, small shared piles (a trick, the
    item up for auction). Quiet counters and empty things are left out; `s` shows everything.
    With a layout, your area reads as its `player:` rows and the table's counters and grids
    under their areas' titles; what changed is left to `since_lines`."""
    game = engine.game
    lines = [header(view, seat)]
    named = set(game.summary or ())
    if game.page is not None:
        rows = Rows(engine, view, skip={drawn} if drawn else ())
        lines += ["  " + x for x in shared_areas(rows, kinds=("counter", "grid"), short=True)]
        lines += ["  " + x for x in player_area(rows, seat, True, others=False)]
        # what `summary:` names; without it, what changed is said by "Changed since your last
        # decision" in the log's words, not a second time here
        return lines + ["  " + x for x in named_lines(rows, seat, named)]
    if game.summary is not None:
        lines += counter_lines(
            game,
            view,
            lambda mine, spec: (
                mine == seat or spec.name in named or (mine is None and not spec.per and spec.kind == "counter")
            ),
        )
    else:
        lines += counters_text(game, view, seat)
        lines += changed_counters(game, view, seat, before)
    if sofar := score_so_far_text(engine, view):
        lines.append("  " + sofar)
    lines += zone_lines(game, view, lambda mine: mine == seat)  # your own deck is face down too
    lines += zone_lines(game, view, lambda mine: mine != seat, keys=_summed_zones(game, view, named, before))
    for key, grid in view["grids"].items():
        if key != drawn and owner(game, key) in (seat, None):
            lines += ["  " + line for line in grid_text(game, key, grid)]
    return lines


def counter_change(game, key: str, was, value, seat: int) -> str:
    """A counter's change as the log says it: its `says` sentence, a labelled flag's label, else
    its label and `{change}` in words; a number from what it was to what it is (`8 → 4`: a signed
    `-4` beside a counter whose name says an amount left reads as that amount)."""
    event = {"e": "set", "var": key, "value": value, "was": was}
    if labelled_flag(game, key):
        return event_text(game, event, seat)

    def shown(v) -> str:
        return var_text(game, key, v)

    said = set_sentence(game, event, shown)
    if said:
        return said
    spec = game.counters.get(key.split("/", 1)[0])
    seats = spec is not None and spec.player  # a counter holding a seat: its values are not amounts
    if type(value) is int and type(was) is int and not seats:
        return f"{key_label(game, key)}: {was} → {value}"
    return f"{key_label(game, key)}: {change_words(was, value, shown, numbers=not seats)}"


def grid_changes(game, key: str, was: dict | None, grid: dict) -> list[str]:
    """A grid's changes: each piece placed (`+ T3 at row 2, column 4`), else each cell marked
    (`board row 1, column 1: x`) when there are few, else how many cells changed."""
    had = [tuple(p[:4]) for p in (was or {}).get("pieces", [])]
    placed = [p for p in grid["pieces"] if tuple(p[:4]) not in had]
    if placed:
        return [f"{key_label(game, key)}: + {item_text(game, p[0])} at row {p[2]}, column {p[3]}" for p in placed]
    cells = (was or {}).get("cells", [])
    changed = [k for k, v in enumerate(grid["cells"]) if k >= len(cells) or cells[k] != v]
    if 0 < len(changed) <= 2:
        return [f"{cell_text(game, key, k)}: {var_text(game, '', grid['cells'][k])}" for k in changed]
    return [f"{key_label(game, key)}: {len(changed)} cells changed"] if changed else []


SINCE = 8  # the things "Changed since your last decision" names; the rest are counted


def since_lines(game, before: dict | None, view: dict, seat: int) -> list[str]:
    """ "Changed since your last decision:" and what `since_parts` names, wrapped; nothing before
    a seat's first decision."""
    said = since_parts(game, before, view, seat) if before is not None else []
    if not said:
        return []
    parts = said[:SINCE] + ([f"and {len(said) - SINCE} more (s shows the table)"] if len(said) > SINCE else [])
    lines = ["Changed since your last decision:"]
    for part in parts:
        if len(lines) > 1 and len(lines[-1]) + 3 + len(part) <= WIDTH:
            lines[-1] += " · " + part
        else:
            lines.append("  " + part)
    return lines


def since_parts(game, before: dict, view: dict, seat: int) -> list[str]:
    """What changed on the table since `before` (a view of this seat's), one entry per thing in
    the log's words: a counter's change by its `says` sentence, a number from what it was to what
    it is (`P2's VP: 3 → 5`), else as `{change}` reads (`P2's pawn: from space 2 to space 5`),
    the cards that came into and left a zone, a face-down pile's count, a grid's pieces or cells.
    The counters' own sentences (`says`) come first, then the seat's own things, the shared ones,
    the other players', and the face-down piles' counts last."""
    said: list[tuple[int, str]] = []  # (-1 a `says`, 0 yours, 1 shared, 2 another's, 3 a count; the words)

    def whose(key: str) -> int:
        mine = owner(game, key)
        return 1 if mine is None else 0 if mine == seat else 2

    for key, value in view["vars"].items():
        was = before["vars"].get(key)
        if was == value or is_quiet(game, key) or key not in before["vars"]:
            continue
        if not labelled_flag(game, key) or value is True:  # a labelled flag reads as its label while true
            spec = game.counters.get(key.split("/", 1)[0])
            first = -1 if spec is not None and spec.says else whose(key)  # the rules' own sentence leads
            said.append((first, counter_change(game, key, was, value, seat)))
    for key, items in view["zones"].items():
        was = before["zones"].get(key, [])
        if key == "box" or items == was:
            continue
        if any(i.startswith(HIDDEN) for i in items + was):
            if len(items) != len(was):
                said.append((3, f"{key_label(game, key)}: {len(items)} face down (was {len(was)})"))  # said last
            continue
        came, went = list(items), list(was)
        for i in was:
            if i in came:
                came.remove(i)
                went.remove(i)
        moves = [f"+ {run}" for run in runs(game, came)] + [f"- {run}" for run in runs(game, went)]
        said.append((whose(key), f"{key_label(game, key)}: {', '.join(moves) or 'in a new order'}"))
    for key, grid in view["grids"].items():
        said += [(whose(key), x) for x in grid_changes(game, key, before["grids"].get(key), grid)]
    return [words for _, words in sorted(said, key=lambda x: x[0])]  # stable: the view's order within each


SMALL = 4  # a shared pile of at most this many reads in the summary when it changed (a trick, a lot)


def changed_counters(game, view: dict, seat: int, before: dict | None) -> list[str]:
    """The other players' public counters that changed since `before` (none without it)."""
    if before is None:
        return []
    was = before["vars"]
    return counter_lines(
        game,
        view,
        lambda mine, spec: (
            mine is not None
            and mine != seat
            and not spec.secret
            and any(
                view["vars"][k] != was.get(k)
                for k in view["vars"]
                if k.split("/", 1)[0] == spec.name and owner(game, k) == mine
            )
        ),
    )


def _summed_zones(game, view: dict, named: set, before: dict | None) -> set:
    """The zones besides the seat's own that the summary shows: those `summary:` names, or (without
    one) small shared public piles that changed since `before`."""
    if game.summary is not None:
        return {k for k in view["zones"] if k.split("/", 1)[0] in named}
    if before is None:
        return set()
    return {
        k
        for k, items in view["zones"].items()
        if k != "box"
        and owner(game, k) is None
        and 0 < len(items) <= SMALL
        and not any(i.startswith(HIDDEN) for i in items)
        and items != before["zones"].get(k)
    }
