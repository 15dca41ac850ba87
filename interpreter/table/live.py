"""A table in play: the engine, the state, what happened, and who may do what now.

A `LiveTable` is rebuilt from its SQLite rows by replaying the decisions, so
what it holds in memory is only a cache of the database. Every decision goes
through `commit`: the new state is computed first (a rule error changes
nothing), the choice is written to the store, then the table moves on; the
caller broadcasts afterwards. Undo follows the terminal's rule
(interpreter/play.py `undo_point`): a seat takes back its latest `undoable`
decision while the phase it was made in is still running; at a table, only
if no other person has chosen since (bots' choices after it are taken back too).

A seat may concede: from then on `CONCEDED_BOT` plays it to the end and the others play on
(a game that needs every seat cannot stop for one); the seat's page keeps its view, the log says
so where it happened, and the result places it last (model.py `scores_json`). Players' names (the
lobby's, or given on taking a seat's link) stand in for P1, P2, ... on the pages (model.py).
"""

from __future__ import annotations

from meeple.interpreter.play import undo_point
from meeple.interpreter.printable import neutral
from meeple.interpreter.render import event_text, player_name, shown_event
from meeple.interpreter.runner import choice_seen_by
from meeple.interpreter.state import visible_events
from meeple.interpreter.table.bots import PERSON, SPECTATOR
from meeple.interpreter.table.store import StoreError
from meeple.interpreter.table.thinkers import move_seed, think
from meeple.interpreter.trace import private_pass

RENAMES = 10  # a seat's name changes a table takes (each is a write and a message to every page)
CONCEDED_BOT = "random"  # plays a conceded seat: at once, in the server, seeded like any bot
NOBODY = -1  # a seat no one holds: event_text shows it only what is public (None would show everything)


class TableError(ValueError):
    """Something a page asked for that cannot be done; the message is shown on that page."""


class WrongToken(TableError):
    """A link whose token opens no seat at this table."""


class NoTable(TableError):
    """A link to a table this server does not have."""


class NotSaved(TableError):
    """The database did not take the move (locked too long): nothing changed; try again."""


def viewer_lines(game, events: list, viewer, after: dict) -> list[str]:
    """Events in words as `viewer` (a seat, or None for the public) may read them."""
    seat = NOBODY if viewer is None else viewer
    return [event_text(game, e, seat) for e in visible_events(game, events, seat, after) if shown_event(game, e)]


class Remembering:
    """The game's engine, remembering the decision of the last state asked about: a table asks it
    for the same state many times a move (whose turn, each page's picture, the bots), and each
    answer works out every option. A table's states are never changed in place (a move makes a
    new one), so the same object has the same decision."""

    def __init__(self, engine):
        self.engine, self.last = engine, (None, None)

    def decision(self, state: dict):
        if self.last[0] is not state:
            self.last = (state, self.engine.decision(state))
        return self.last[1]

    def __getattr__(self, name):
        if name == "engine":  # not set yet (a copy being made): not the engine's own
            raise AttributeError(name)
        return getattr(self.engine, name)


class LiveTable:
    def __init__(self, row: dict, engine, store=None, path: str = ""):
        engine = Remembering(engine)
        self.row, self.engine, self.store, self.path = row, engine, store, path  # path: the rules, for workers
        self.id, self.players = row["id"], row["players"]
        self.agents = [s["agent"] for s in row["seats"]]
        self.bots = {seat: a for seat, a in enumerate(self.agents) if a != PERSON}  # seat -> agent name
        self.bots.update({seat: CONCEDED_BOT for seat in self.conceded()})
        self.next_row: dict | None = None  # the rematch's table row, once asked for (hall.py)
        self.renamed: dict[int, int] = {}  # seat -> names given on its page since the table was opened
        self.state, events = engine.start(self.players, row["seed"])
        self.setup = self._texts(events, self.state)
        self.history: list[tuple] = []  # (state before, actor, undoable, choices before) per decision
        self.choices: list[str] = []  # option ids, in order
        self.entries: list[dict] = []  # per decision: {"actor", "label" per viewer, "lines" per viewer}
        self.version = 0  # bumped on every change; pages ignore older updates
        self.bot_error: str | None = None  # why the bot to move cannot (a rule error); cleared by any change
        self.built: dict = {}  # seat -> (what it was built from, its page): pages.seat_page
        self.looked: dict = {}  # seat -> (the state before its last decision, its view of it): pages.since_words
        for n, choice in enumerate(store.choices(self.id) if store else [], 1):
            try:
                self.commit(choice, record=False)
            except TableError:
                raise TableError(
                    f"table {self.id}: stored decision {n} (`{choice}`) is not possible; "
                    "the rules changed or the database is damaged"
                ) from None

    # ------------------------------------------------------------- who is who
    def seat_of(self, token: str):
        """The seat a token opens (0-based), SPECTATOR, or a TableError."""
        for seat, s in enumerate(self.row["seats"]):
            if token == s["token"] and s["agent"] == PERSON:
                return seat
        if token == self.row["spectator"]:
            return SPECTATOR
        raise WrongToken("this link does not open a seat at this table (wrong or old token)")

    def decision(self):
        return self.engine.decision(self.state)

    def names(self) -> list[str]:
        """Each seat's name as the pages say it: the one given, else P1, P2, ..."""
        return [s.get("name") or player_name(p) for p, s in enumerate(self.row["seats"])]

    def conceded(self) -> dict[int, int]:
        """{seat: how many decisions the table had taken when it conceded}."""
        return {p: s["conceded"] for p, s in enumerate(self.row["seats"]) if "conceded" in s}

    def name_seat(self, seat, name: str) -> list:
        """The seats with `seat` named `name` ("" for P1, P2, ...), checked; the row is changed by `seated`."""
        if seat == SPECTATOR:
            raise TableError("a spectator has no seat to name")
        if self.renamed.get(seat, 0) >= RENAMES:
            raise TableError(f"a seat's name changes at most {RENAMES} times; keep this one")
        taken = {n.lower() for p, n in enumerate(self.names()) if p != seat}
        if name.lower() in taken:
            raise TableError(f"another seat is already called {name}; choose another name")
        seats = [dict(s) for s in self.row["seats"]]
        seats[seat].pop("name", None)
        if name:
            seats[seat]["name"] = name
        return seats

    def concede_seat(self, seat) -> list:
        """The seats with `seat` conceded now, checked; the row is changed by `seated`."""
        if seat == SPECTATOR:
            raise TableError("a spectator has no seat to concede")
        if seat in self.conceded():
            raise TableError("you have already conceded")
        if self.decision() is None:
            raise TableError("the game is over")
        seats = [dict(s) for s in self.row["seats"]]
        seats[seat]["conceded"] = len(self.choices)
        return seats

    def seated(self, seats: list, renamed=None) -> None:
        """The seats as stored (names, concessions) taken, `renamed` the seat that named itself; the
        pages take it as news."""
        if renamed is not None:
            self.renamed[renamed] = self.renamed.get(renamed, 0) + 1
        self.row = dict(self.row, seats=seats)
        self.bots.update({seat: CONCEDED_BOT for seat in self.conceded()})
        self.version += 1
        self.bot_error = None

    # ------------------------------------------------------------- moves
    def choose(self, seat, option_id, step) -> None:
        """A person's choice, checked: their turn, the step they saw, one of their options."""
        self.commit(self.check_choice(seat, option_id, step))

    def check_choice(self, seat, option_id, step) -> str:
        """The option's id, or a TableError. Pages see ids as wire.py writes them (a character
        that reorders or hides text written out), and may send them back so."""
        d = self.decision()
        if d is None:
            raise TableError("the game is over")
        if seat == SPECTATOR:
            raise TableError("spectators cannot choose")
        if seat in self.conceded():
            raise TableError("you have conceded: a bot plays your seat to the end")
        if d.actor != seat:
            raise TableError(f"it is not your turn: waiting for {player_name(d.actor)}")
        if step != self.state["step"]:
            raise TableError("that option is from an earlier moment of the game; the page now shows the current one")
        ids = {neutral(o.id): o.id for o in d.options + d.requests}
        if not isinstance(option_id, str) or option_id not in ids:
            raise TableError("that is not one of your options")
        return ids[option_id]

    def commit(self, option_id: str, record: bool = True, note: str = "") -> None:
        """plan, save, take: in this thread (the hall saves in a thread of its own, hall.commit)."""
        change = self.plan(option_id, note)
        if record:
            self.save(change)
        self.take(change)

    def plan(self, option_id: str, note: str = "") -> dict:
        """The change a choice makes, worked out and kept aside: nothing changes yet (a rule error
        changes nothing). `note` goes under it in every page's log."""
        d = self.decision()
        if d is None:
            raise TableError("the game is over")
        asked = next((o for o in d.requests if o.id == option_id), None)  # asked for: public, no index
        try:
            index = None if asked else d.index_of(option_id)
        except KeyError:
            raise TableError(f"`{option_id}` is not one of the options") from None
        who = None if index is None else choice_seen_by(self.engine.game, self.state, d, index, self.players)
        state, events = self.engine.apply(self.state, option_id if asked else index)
        label = asked.label if asked else d.options[index].label
        entry = {
            "actor": d.actor,
            "step": state["step"],
            "title": "" if asked else d.prompt,
            "private": index is not None and private_pass(d, index),  # the others never hear of it
            "label": {v: label if who is None or v in who else "something hidden" for v in self.viewers()},
            "lines": self._texts(events, state, note),
            "told": self._told(events, state),
        }
        return {
            "n": len(self.choices) + 1,
            "option": option_id,
            "before": self.state,
            "state": state,
            "history": (self.state, d.actor, d.undoable, len(self.choices)),
            "entry": entry,
        }

    def save(self, change: dict, wait: bool = True) -> bool:
        """The choice written to the store (any thread): stored before anyone hears of it; not stored,
        it did not happen (NotSaved). wait=False: False if the database cannot take it at once."""
        if self.store is None:
            return True
        try:
            return self.store.add_choice(self.id, change["n"], change["option"], wait)
        except StoreError as exc:
            raise NotSaved(str(exc)) from None

    def take(self, change: dict) -> None:
        """The planned change made (on the table's thread, after `save`)."""
        if change["before"] is not self.state:
            raise TableError("the table moved on while this choice was being saved")  # the lock prevents it
        self.history.append(change["history"])
        self.choices.append(change["option"])
        self.entries.append(change["entry"])
        self.state = change["state"]
        self.version += 1
        self.bot_error = None

    def bot_to_move(self):
        """The bot seat that decides now, or None (a person's turn, or the end)."""
        d = self.decision()
        return d.actor if d is not None and d.actor in self.bots else None

    def bot_job(self) -> dict:
        """What a worker needs to think the move of the bot to move (thinkers.think)."""
        actor = self.bot_to_move()
        return {
            "path": self.path,
            "options": self.row["options"],
            "variants": self.row["variants"],
            "digest": self.engine.game.digest,
            "agent": self.bots[actor],
            "seed": move_seed(self.row["seed"], len(self.choices) + 1),
            "state": self.state,
        }

    def bot_move(self) -> None:
        """The bot's move thought and saved here, in this thread (tests)."""
        kind, value = think(self.bot_job(), self.engine)
        if kind != "ok":
            raise TableError(value)
        self.commit(self.decision().options[value].id)

    def fallback(self, why: str) -> tuple[str, str]:
        """(option id, note) for a bot whose move could not be thought (`why`): a random legal
        option, seeded like its move, and a note for every page's log under it."""
        from random import Random

        d = self.decision()
        index = Random(move_seed(self.row["seed"], len(self.choices) + 1)).randrange(len(d.options))
        return d.options[index].id, (
            f"{player_name(d.actor)}'s bot ({self.bots[d.actor]}) {why}: a random option was played for it"
        )

    def can_undo(self, seat) -> bool:
        return self._undo_point(seat)[0] is not None

    def _undo_point(self, seat) -> tuple:
        """(where in history an undo by `seat` goes back to, or None; why not). As at the terminal,
        and only over the seat's own decisions and the bots': never another person's later choice."""
        at = undo_point(self.history, seat, self.state) if seat != SPECTATOR and seat not in self.conceded() else None
        if at is None:
            return None, "nothing to undo: the rules allow undoing your own placement while its phase runs"
        gave_up = self.conceded()  # a conceded seat's decisions since it conceded are its bot's
        others = sorted(
            {
                h[1]
                for h in self.history[at:]
                if h[1] != seat and self.agents[h[1]] == PERSON and not (h[1] in gave_up and h[3] >= gave_up[h[1]])
            }
        )
        if others:
            return None, (
                f"{player_name(others[0])} has chosen since; undo takes back only your own "
                "decisions made since anyone else last chose"
            )
        return at, ""

    def undo(self, seat) -> None:
        at = self.undo_plan(seat)
        self.undo_save(at)
        self.undo_take(at)

    def undo_plan(self, seat) -> int:
        """Where an undo by `seat` goes back to in history, or a TableError saying why not."""
        at, why = self._undo_point(seat)
        if at is None:
            raise TableError(why)
        return at

    def undo_save(self, at: int, wait: bool = True) -> bool:
        if self.store is None:
            return True
        try:
            return self.store.keep_choices(self.id, self.history[at][3], wait)
        except StoreError as exc:
            raise NotSaved(str(exc)) from None

    def undo_take(self, at: int) -> None:
        keep = self.history[at][3]
        self.state = self.history[at][0]
        del self.history[at:], self.choices[keep:], self.entries[keep:]
        self.version += 1
        self.bot_error = None

    # ------------------------------------------------------------- words
    def viewers(self) -> list:
        return list(range(self.players)) + [None]

    def _told(self, events: list, after: dict) -> dict:
        """The rules' own sentences among the events (`log`), per viewer: the summary of what
        changed says them first (pages.since_words)."""
        game = self.engine.game
        return {
            v: [
                event_text(game, e, NOBODY if v is None else v)
                for e in visible_events(game, events, v, after)
                if e["e"] == "log"
            ]
            for v in self.viewers()
        }

    def _texts(self, events: list, after: dict, note: str = "") -> dict:
        return {v: viewer_lines(self.engine.game, events, v, after) + ([note] if note else []) for v in self.viewers()}
