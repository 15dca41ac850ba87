"""The hall: the games on offer, the tables being played, and who is watching each.

It owns the store and the compiled games (one Engine per ruleset, options and
variants), opens a table from its rows when a page first asks for it (so a
restarted server resumes every table exactly where it was), has the bot seats'
moves thought in worker processes (thinkers.py), and sends each connected page its own seat's picture after
every change.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path, PurePath

from meeple.dsl.compiler import UsageError, compile_ruleset, find_ruleset, shipped_rulesets
from meeple.dsl.errors import MeepleError
from meeple.dsl.parser import parse_file
from meeple.interpreter.agents import AgentError
from meeple.interpreter.engine import Engine
from meeple.interpreter.table import outbox
from meeple.interpreter.table.bots import PERSON, check_seats
from meeple.interpreter.table.live import SPECTATOR, LiveTable, NoTable, NotSaved, TableError, WrongToken
from meeple.interpreter.table.model import space_positions
from meeple.interpreter.table.outbox import Outbox
from meeple.interpreter.table.pages import seat_page
from meeple.interpreter.table.store import Store, StoreError
from meeple.interpreter.table.thinkers import INLINE, SHARED, BotPool, Overran, Stopped, think

log = logging.getLogger("meeple.table")
# Tables kept in memory with no page open (the most recently left); an older one is read again from
# the database when it is next asked for. Without a bound, every table ever played stays in memory.
IDLE_KEPT = 64
READERS = 8  # tables replayed at once after a restart (threads: they share the cores with the loop)


class Hall:
    def __init__(
        self,
        games: list[str],
        store: Store,
        send_seconds: float = outbox.SECONDS,
        queue_size: int = outbox.QUEUE,
        bots: BotPool = SHARED,
    ):
        self.store, self.bots = store, bots
        self.send_seconds, self.queue_size = send_seconds, queue_size  # per page: see outbox.py
        self.tasks: set = set()  # bots at work; kept so the event loop does not forget them
        self.thinking = asyncio.Semaphore(bots.workers)  # moves wait here, not in the pool's queue
        self.games = {name: find_ruleset(name) for name in games}  # UsageError for an unknown game
        self.engines: dict = {}
        self.tables: dict[str, LiveTable] = {}
        self.locks: dict[str, dict] = {}  # table id -> {event loop: its lock} (see `lock`)
        self.pages: dict[str, set] = {}  # table id -> {(Outbox, seat)}
        self.idle: dict[str, None] = {}  # tables in memory with no page, the longest idle first
        self.compiling = threading.Lock()
        self.writers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="meeple-db")  # they take turns in the store
        # tables read and replayed off the event loop (`open`); several, so that a short table is not
        # queued behind a few long ones
        self.readers = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="meeple-open")
        self.opening: dict[str, Future] = {}  # table id -> the replay under way
        self.opening_lock = threading.Lock()

    # ------------------------------------------------------------- games
    def engine(self, game, options: dict, variants: list, any_game: bool = False, trusted: bool = False) -> Engine:
        """The compiled game. `any_game` also finds the shipped rulesets the lobby does not offer
        (for replays); only `trusted` (a trace the operator named on the command line) may name a
        .rules path: a name from a client is looked up, never opened as a path."""
        if game not in self.games and not (any_game and (trusted or game in shipped_rulesets())):
            raise TableError(f"`{game}` is not offered here; choose one of: {', '.join(self.games)}")
        key = (game, tuple(sorted(options.items())), tuple(variants))
        with self.compiling:  # the parser is not thread-safe; tests drive the hall from their own thread
            return self._engine(key, game, options, variants)

    def _engine(self, key, game, options: dict, variants: list) -> Engine:
        if key not in self.engines:
            try:
                path = self.games[game] if game in self.games else find_ruleset(str(game))
                self.engines[key] = Engine(compile_ruleset(parse_file(path), options, variants))
                # laying out a path board takes seconds: start now, not when the first page asks
                for name in self.engines[key].game.boards:
                    threading.Thread(target=space_positions, args=(self.engines[key].game, name), daemon=True).start()
            except UsageError as exc:
                raise TableError(str(exc)) from None
            except MeepleError as exc:
                raise TableError(exc.diagnostics[0].message if exc.diagnostics else str(exc)) from None
        return self.engines[key]

    def replayable(self, named) -> str:
        """The game an uploaded trace's header names, as a name `engine` knows: an offered game,
        a shipped one, or a path whose file name is one of those (a trace recorded from a copy of
        the rules; the digest check that follows tells whether they are the same rules). The path
        itself is never opened, and the refusal does not repeat it: the same words whether or not
        such a file exists on this machine."""
        shipped = shipped_rulesets()
        if isinstance(named, str):
            if named in self.games or named in shipped:
                return named
            stem = PurePath(named.replace("\\", "/")).stem if named.endswith(".rules") else None
            by_file = {Path(p).stem: name for name, p in self.games.items()}
            if stem in by_file:
                return by_file[stem]
            if stem in shipped:
                return stem
        offered = sorted(set(self.games) | set(shipped))
        raise TableError(
            "the trace's game is not one this server offers or ships; it replays traces of: " + ", ".join(offered)
        )

    def catalogue(self) -> list[dict]:
        """What the lobby offers: each game with its player counts, options and variants."""
        out: list[dict] = []
        for name in self.games:
            try:
                g = self.engine(name, {}, []).game
            except TableError as exc:
                out.append({"name": name, "error": str(exc)})
                continue
            out.append(
                {
                    "name": name,
                    "title": g.title,
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "options": [{"name": k, "values": list(v), "doc": doc} for k, (v, doc) in g.option_choices.items()],
                    "variants": [{"name": k, "title": t} for k, t in g.variant_titles.items()],
                }
            )
        return out

    # ------------------------------------------------------------- tables
    def create(
        self,
        game: str,
        players,
        options: dict,
        variants: list,
        seats: list,
        seed=None,
        names: list | None = None,
        chosen: bool | None = None,
        creator: str | None = None,
    ) -> dict:
        """A new table, stored. `names`: the players' names by seat ("" for none); `chosen`: whether
        the seed was chosen (by default: whether one is given); `creator`: the token that gets the
        links again (a rematch keeps its table's)."""
        if not isinstance(options, dict) or not isinstance(variants, list) or not isinstance(seats, list):
            raise TableError("options must be an object, variants and seats lists")
        names = list(names or [])
        if len(names) > len(seats):
            raise TableError(f"give at most one name per seat: {len(seats)} seats, {len(names)} names")
        given = [n.lower() for n in names if n]
        if len(given) != len(set(given)):
            raise TableError("two seats have the same name; give each player their own")
        engine = self.engine(game, {str(k): str(v) for k, v in options.items()}, [str(v) for v in variants])
        g = engine.game
        if not isinstance(players, int) or not g.min_players <= players <= g.max_players:
            raise TableError(f"{g.title} is for {g.min_players}-{g.max_players} players, not {players}")
        try:
            check_seats([str(s) for s in seats], players)
        except AgentError as exc:
            raise TableError(str(exc)) from None
        if chosen is None:  # a chosen seed lets its chooser foresee the draws: every seat is told
            chosen = isinstance(seed, int)
        seed = seed if isinstance(seed, int) else secrets.randbelow(2**31)
        try:  # a rule error in the setup is said now, before a table that cannot start is stored
            engine.start(players, seed)
        except MeepleError as exc:
            raise TableError(f"the game cannot start: {exc.format()}") from None
        try:
            row = self.store.create(
                game,
                dict(g.options),
                list(g.variants),
                players,
                seed,
                g.digest,
                [str(s) for s in seats],
                seed_chosen=chosen,
                names=names,
                creator=creator,
            )
        except StoreError as exc:
            raise NotSaved(str(exc)) from None
        self.tables[row["id"]] = LiveTable(row, engine, self.store, self.source(game))
        return row

    def source(self, game: str) -> str:
        """The rules file of a game this hall plays (the bots' workers compile it themselves)."""
        return str(self.games[game] if game in self.games else find_ruleset(game))

    def table(self, table_id: str) -> LiveTable:
        """The table, read from the database and replayed here if it is not in memory (tests, and
        code in threads; the server's routes use `open`)."""
        if table_id not in self.tables:
            self._install(self._read(table_id))
        return self.tables[table_id]

    async def open(self, table_id: str) -> LiveTable:
        """The table; one not in memory (after a restart, or idle too long) is read and replayed in a
        thread of the hall's own, never on the event loop: the lobby and every other table answer
        meanwhile, whatever the number of tables being opened. Pages asking for a table being opened
        wait for the same replay (a page that goes away does not stop it for the others)."""
        if table_id in self.tables:
            return self.tables[table_id]
        with self.opening_lock:
            under_way = self.opening.get(table_id)
            replay = under_way or self.readers.submit(self._read, table_id)
            self.opening[table_id] = replay
        if under_way is None:  # not under the lock: a replay already done calls this back at once, here
            replay.add_done_callback(lambda done: self._opened(table_id, done))
        live = await asyncio.shield(asyncio.wrap_future(replay))
        if table_id not in self.tables:
            self._install(live)
        return self.tables[table_id]

    def _opened(self, table_id: str, replay) -> None:
        with self.opening_lock:
            if self.opening.get(table_id) is replay:
                del self.opening[table_id]

    def _stored(self, table_id: str) -> dict:
        """The table's stored row: NoTable if there is none, NotSaved if the database cannot say."""
        try:
            row = self.store.table(table_id)
        except StoreError as exc:
            raise NotSaved(str(exc)) from None
        if row is None:
            raise NoTable(f"There is no table `{table_id}` on this server.")
        return row

    def _read(self, table_id: str) -> LiveTable:
        """The table rebuilt from its rows (its decisions replayed), not yet kept: a TableError if
        there is no such table or it cannot be resumed."""
        row = self._stored(table_id)
        engine = self.engine(row["ruleset"], row["options"], row["variants"])
        if engine.game.digest != row["digest"]:
            raise TableError(f"table {table_id} was started with another version of the rules; it cannot be resumed")
        try:
            live = LiveTable(row, engine, self.store, self.source(row["ruleset"]))
            if row.get("next_table"):  # its rematch, once asked for: every page links to it
                live.next_row = self.row(row["next_table"])
        except StoreError as exc:
            raise NotSaved(str(exc)) from None
        return live

    def _install(self, live: LiveTable) -> None:
        if live.id not in self.tables:
            self.tables[live.id] = live
            self.rest(live.id)

    def rest(self, table_id: str) -> None:
        """The table has no page open: kept, up to IDLE_KEPT such tables; the longest idle go
        (unless a move or a bot is at work there), to be read again from the database if asked for."""
        if self.pages.get(table_id):
            return
        self.idle.pop(table_id, None)
        self.idle[table_id] = None
        for old in list(self.idle)[: max(0, len(self.idle) - IDLE_KEPT)]:
            if not self.pages.get(old) and not any(lock.locked() for lock in self.locks.get(old, {}).values()):
                del self.idle[old]
                self.tables.pop(old, None)
                self.locks.pop(old, None)
                self.pages.pop(old, None)

    def lock(self, table_id: str) -> asyncio.Lock:
        """The table's lock: one change at a time. A server runs one event loop; a test client may
        run each socket on a loop of its own, and an asyncio.Lock waited on from two loops never
        wakes its waiter, so each loop has its own (a test's sockets take turns by themselves)."""
        return self.locks.setdefault(table_id, {}).setdefault(asyncio.get_running_loop(), asyncio.Lock())

    # ------------------------------------------------------------- play
    async def act(self, table_id: str, seat, message: dict) -> None:
        """A page's message (choose or undo); then the bots; every page hears of each step."""
        live = await self.open(table_id)
        async with self.lock(table_id):
            kind = message.get("type")
            if kind == "choose":
                await self.commit(live, live.check_choice(seat, message.get("option"), message.get("step")))
            elif kind == "undo":
                at = live.undo_plan(seat)
                await self.saving(live.undo_save, at, lambda: live.undo_take(at))
            elif kind in ("name", "concede"):
                seats = live.name_seat(seat, message["name"]) if kind == "name" else live.concede_seat(seat)
                await self.stored(lambda: self.store.update(live.id, seats=seats))
                live.seated(seats, seat if kind == "name" else None)
            elif kind == "rematch":
                await self.rematch(live, seat)
            else:
                raise TableError(f"unknown message type `{kind}`")
            await self.broadcast(live)
        # the bots play on in their own task: the page's handler may end (its page dropped)
        # while they think, and that must not stop them
        self.spawn(self.wake(table_id))

    async def stored(self, write) -> None:
        """A write of the table's row, in a thread (the database may make it wait); NotSaved if it failed."""
        try:
            await asyncio.to_thread(write)
        except StoreError as exc:
            raise NotSaved(str(exc)) from None

    async def rematch(self, live: LiveTable, seat) -> None:
        """The same game again, with the same seats, names and creator and the next seed (a chosen seed
        is said again: seed + 1; a random one is drawn anew); every page of this table is offered it."""
        if seat == SPECTATOR:
            raise TableError("a spectator cannot ask for a rematch")
        if live.next_row is not None:
            return  # asked already (by another seat): every page links to it
        if live.decision() is not None and not live.conceded():
            raise TableError("a rematch is offered once the game is over or a seat has conceded")
        r = live.row
        chosen = bool(r.get("seed_chosen"))
        row = await asyncio.to_thread(
            self.create,
            r["ruleset"],
            r["players"],
            r["options"],
            r["variants"],
            [s["agent"] for s in r["seats"]],
            (r["seed"] + 1) % 2**63 if chosen else None,
            [s.get("name", "") for s in r["seats"]],
            chosen,
            r.get("creator") or None,
        )
        await self.stored(lambda: self.store.update(live.id, next_table=row["id"]))
        live.next_row, live.row = row, dict(live.row, next_table=row["id"])
        live.version += 1
        self.rest(row["id"])
        self.spawn(self.wake(row["id"]))

    def row(self, table_id: str) -> dict | None:
        """A table's stored row (None if there is none)."""
        return self.store.table(table_id)

    async def commit(self, live: LiveTable, option_id: str, note: str = "") -> None:
        """A choice worked out, written to the database, then made (live.commit's steps, with the
        write in `saving`)."""
        change = live.plan(option_id, note)
        await self.saving(live.save, change, lambda: live.take(change))

    async def saving(self, save, what, take) -> None:
        """`save(what)`, then `take()`. The write is tried at once; a database that makes it wait
        (another program holds it) gets it in a thread of the hall's own (not the loop's shared
        ones, which uploads use): it waits up to store.BUSY_SECONDS, holding only its own table,
        and the pages keep going. Once the write is under way it is finished and taken even if
        the page that asked goes away meanwhile: the table stays as the database has it."""
        if save(what, False):
            take()
            return

        async def slowly():
            await asyncio.get_running_loop().run_in_executor(self.writers, save, what)
            take()

        task = asyncio.get_running_loop().create_task(slowly())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        await asyncio.shield(task)

    def spawn(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def wake(self, table_id: str) -> None:
        """Let the bots play if it is their turn (a new table, a table resumed after a restart)."""
        live = await self.open(table_id)
        if live.bot_to_move() is not None:
            async with self.lock(table_id):
                await self.run_bots(live)

    async def run_bots(self, live: LiveTable) -> None:
        """The bots move until a person decides or the game ends. A move past the pool's time limit
        (or whose worker died) is a random legal option, said in the log. A bot whose move fails (a
        rule error, an agent's error) stops the table there: every page is told, and the page shows
        it where it said "thinking". It is tried again only after the state changes (an undo): the
        same move would fail the same way, and reconnecting must not buy a client more work."""
        while (seat := live.bot_to_move()) is not None and live.bot_error is None:
            try:
                if live.bots[seat] in INLINE:
                    kind, value = think(live.bot_job(), live.engine)
                else:
                    async with self.thinking:  # at most the pool's workers think at once, whatever the tables
                        try:
                            kind, value = await self.bots.move(live.bot_job())
                        except Overran as exc:
                            kind, value = "fallback", str(exc)
                if kind == "error":
                    raise TableError(value)
                option, note = live.fallback(value) if kind == "fallback" else (live.decision().options[value].id, "")
                await self.commit(live, option, note)
            except Stopped:  # the server is stopping: the bot moves when it is started again
                return
            except NotSaved as exc:  # the database was busy: said, and tried again at the next wake
                for box, _ in list(self.pages.get(live.id, ())):
                    box.send({"type": "error", "message": f"the bot's move was not saved: {exc}"})
                return
            except MeepleError as exc:
                live.bot_error = exc.format()
            except (AgentError, TableError) as exc:
                live.bot_error = str(exc)
            except Exception as exc:  # a bug in the engine or an agent: said on the page, logged in full
                log.exception("a bot's move failed at table %s", live.id)
                live.bot_error = f"{type(exc).__name__}: {exc}"
            if live.bot_error is not None:
                live.version += 1  # pages take it as news
                for box, _ in list(self.pages.get(live.id, ())):
                    box.send({"type": "error", "message": f"the bot cannot move: {live.bot_error}"})
            await self.broadcast(live)
            await asyncio.sleep(0)  # bots that move at once (`random`) let the other tables' pages in between

    async def broadcast(self, live: LiveTable) -> None:
        """Each page's picture put in its outbox; this never waits for a page (see outbox.py)."""
        for box, seat in list(self.pages.get(live.id, ())):
            if not box.send({"type": "table", "table": seat_page(live, seat)}):
                self.pages[live.id].discard((box, seat))  # gone, or dropped for not reading

    def join(self, table_id: str, socket, seat) -> Outbox:
        """A page joins its table; everything sent to it goes through the Outbox returned."""
        box = Outbox(socket, self.queue_size, self.send_seconds)
        self.pages.setdefault(table_id, set()).add((box, seat))
        self.idle.pop(table_id, None)
        box.writer.add_done_callback(lambda _: self.leave(table_id, box, seat))  # dropped, or gone
        return box

    def leave(self, table_id: str, box: Outbox, seat) -> None:
        self.pages.get(table_id, set()).discard((box, seat))
        self.rest(table_id)

    def listing(self) -> list[dict]:
        """The tables on this server, newest first, for the lobby: who sits where and a link to watch.

        Only the spectator's link is listed: it shows what is public, and a seat's private link stays
        with the person it was given to."""
        counts = self.store.decision_counts()
        out = []
        for row in reversed(self.store.tables()):
            live = self.tables.get(row["id"])  # opened since the server started: we know if it is over
            out.append(
                {
                    "id": row["id"],
                    "game": row["ruleset"],
                    "players": row["players"],
                    "seats": [s["agent"] for s in row["seats"]],
                    # each seat's name as given ("" for none): public, the pages say it to everyone
                    "names": [s.get("name") or "" for s in (live.row if live is not None else row)["seats"]],
                    "decisions": counts.get(row["id"], 0),
                    "over": live.decision() is None if live is not None else None,
                    "watch": f"/table/{row['id']}?token={row['spectator']}",
                    "next": row.get("next_table") or None,  # its rematch: a creator's lobby holds it too
                }
            )
        return out

    @staticmethod
    def links(row: dict, base: str = "") -> dict:
        """The private link of each person's seat, and the spectator's."""
        seats = [
            {
                "name": f"P{i + 1}",
                "said": s.get("name") or f"P{i + 1}",
                "agent": s["agent"],
                "link": f"{base}/table/{row['id']}?token={s['token']}" if s["agent"] == PERSON else None,
            }
            for i, s in enumerate(row["seats"])
        ]
        return {
            "id": row["id"],
            "seats": seats,
            "spectator": f"{base}/table/{row['id']}?token={row['spectator']}",
            "creator": row.get("creator", ""),  # GET /api/tables/{id}/links?token=C gives these links again
        }

    def links_again(self, table_id: str, creator) -> dict:
        """The links of a table for its creator's token (WrongToken for any other, a seat's included)."""
        # its row alone: no replay on the event loop for a list of links
        row = self.tables[table_id].row if table_id in self.tables else self._stored(table_id)
        if (
            not row.get("creator")
            or not isinstance(creator, str)
            or not secrets.compare_digest(creator, row["creator"])
        ):
            raise WrongToken("only the table's creator can have its links again (this token is not theirs)")
        return self.links(row)
