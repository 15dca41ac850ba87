"""Tables in SQLite: one row per table, one row per applied decision.

A table row holds what is needed to start the game again (ruleset, options,
variants, players, seed, the rules' digest) and its seats (agent names and
secret tokens). Each decision is written, and committed, before anyone is told
about it; undo deletes the decisions it takes back. A write is tried at once on the server's
event loop; when the database is held by another program, it waits in a thread of the hall's own
(hall.py `saving`), so only the writes wait, never the pages: reads go through a second connection,
which SQLite's WAL mode lets read while a write waits. Replaying the decisions
rebuilds the state exactly (see live.py), so killing the server loses nothing.

One server owns one database: the store holds an exclusive lock (flock) on a
sibling file `DB.lock` for as long as it is open. Two servers on one file would
each keep their own tables in memory and write decisions over each other's.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no flock; one server per database is then up to the person running it
    fcntl = None  # type: ignore[assignment]  # a module or None; mypy types the name as the module

SQLITE_MAGIC = b"SQLite format 3\x00"
# How long a write waits for a database another program holds (a backup, the sqlite3 shell)
# before the move is refused with a message; SQLite retries within it.
BUSY_SECONDS = 10.0

SCHEMA = """
create table if not exists tables (
    id text primary key,
    ruleset text not null,
    options text not null,
    variants text not null,
    players integer not null,
    seed integer not null,
    digest text not null,
    seats text not null,          -- [{"agent": "person" | bot name, "token": secret, "name"?, "conceded"?}]
    spectator text not null,      -- the spectator link's token
    seed_chosen integer not null default 0,  -- 1: set in the lobby, so every seat is shown it
    creator text not null default '',  -- the token that gets every seat's link again ('' for none)
    next_table text not null default ''  -- the rematch's table, once one is asked for
);
create table if not exists decisions (
    table_id text not null references tables(id),
    n integer not null,           -- 1, 2, ... in the order they were taken
    choice text not null,         -- the option id
    primary key (table_id, n)
);
"""


class StoreError(Exception):
    """A database the table cannot use (a folder, another kind of file, one in use); one line."""


class StoreBusy(StoreError):
    """A read or write that failed (the database locked past BUSY_SECONDS, the disk full): nothing
    was changed, and the one who asked is told."""


def _guarded(method):
    """The store's method with SQLite's errors as StoreBusy (said to the page, never a 500)."""

    def run(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise StoreBusy(f"the tables' database did not answer ({exc}); nothing was saved, try again") from None

    run.__name__, run.__doc__ = method.__name__, method.__doc__
    return run


def new_token() -> str:
    return secrets.token_urlsafe(12)


class Store:
    """The database behind the tables; safe to use from the server's threads."""

    def __init__(self, path: str = ":memory:"):
        self.path = path
        self.owner = None if path == ":memory:" else self._own(Path(path))
        try:
            self.db = sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None)
            self.db.execute("pragma journal_mode=wal" if path != ":memory:" else "pragma journal_mode=memory")
            # A commit is in the write-ahead log, in the system's file cache, when it returns: a server
            # killed (kill -9, a crash) loses nothing; a power cut may lose the moves since the last
            # checkpoint, never the database. Waiting for the disk (synchronous=full) cost 12 ms a move
            # on a busy machine, on the event loop, the largest cost under load.
            self.db.execute("pragma synchronous=normal")
            self.db.executescript(SCHEMA)
            columns = [r[1] for r in self.db.execute("pragma table_info(tables)")]
            if "seed_chosen" not in columns:  # a database from before the column: its seeds were not chosen
                self.db.execute("alter table tables add column seed_chosen integer not null default 0")
            for column in ("creator", "next_table"):  # from before the lobby kept them: none
                if column not in columns:
                    self.db.execute(f"alter table tables add column {column} text not null default ''")
            # Three connections to a file, each with its lock: `db` writes at once or not at all (no
            # busy wait: it is used on the event loop), `patient` writes waiting up to BUSY_SECONDS
            # (in threads), `reader` reads, never behind a write that waits (WAL mode). One database
            # in memory has one connection: no other program can hold it, so nothing waits.
            memory = path == ":memory:"
            self.reader: sqlite3.Connection = self.db if memory else self._connect(path)
            self.patient: sqlite3.Connection = self.db if memory else self._connect(path)
            if not memory:
                self.db.execute("pragma busy_timeout = 0")
        except sqlite3.Error as exc:
            self._disown()
            raise StoreError(f"cannot use {path} as the tables' database: {exc}") from None
        self.lock = threading.Lock()  # db's
        self.reading = self.lock if memory else threading.Lock()
        self.waiting = self.lock if memory else threading.Lock()  # patient's

    @staticmethod
    def _connect(path: str):
        return sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None)

    @staticmethod
    def _own(path: Path):
        """The open lock file that makes this store the database's only user (StoreError if it is
        not a database file or another server holds it). Checked before SQLite opens the file:
        SQLite would write its journal beside any file it is given."""
        if path.is_dir():
            raise StoreError(f"{path} is a folder; give a database file, such as {path / 'tables.sqlite'}")
        if path.is_file() and path.stat().st_size:
            with path.open("rb") as f:
                if f.read(len(SQLITE_MAGIC)) != SQLITE_MAGIC:
                    raise StoreError(f"{path} is not a SQLite database; give a new file name for the tables")
        try:
            owner = open(f"{path}.lock", "a")
        except OSError as exc:
            raise StoreError(f"cannot use {path} as the tables' database: {exc.strerror or exc}") from None
        if fcntl is not None:
            try:
                fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                owner.close()
                raise StoreError(
                    f"{path} is in use by another `meeple serve` (one server owns one database; "
                    "stop it, or give another --db)"
                ) from None
        return owner

    def _disown(self) -> None:
        if self.owner is not None:
            self.owner.close()  # closing the file releases the flock
            self.owner = None

    @_guarded
    def create(
        self,
        ruleset: str,
        options: dict,
        variants: list,
        players: int,
        seed: int,
        digest: str,
        agents: list[str],
        seed_chosen: bool = False,
        names: list[str] | None = None,
        creator: str | None = None,
    ) -> dict:
        row: dict[str, Any] = {
            "id": secrets.token_hex(4),
            "ruleset": ruleset,
            "options": options,
            "variants": variants,
            "players": players,
            "seed": seed,
            "digest": digest,
            "seats": [{"agent": a, "token": new_token()} for a in agents],
            "spectator": new_token(),
            "seed_chosen": bool(seed_chosen),
            "creator": creator or new_token(),
            "next_table": "",
        }
        for seat, name in zip(row["seats"], names or []):
            if name:
                seat["name"] = name
        with self.writing():
            self.patient.execute(
                "insert into tables (id, ruleset, options, variants, players, seed, digest, seats, "
                "spectator, seed_chosen, creator) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row["id"],
                    ruleset,
                    json.dumps(options),
                    json.dumps(variants),
                    players,
                    seed,
                    digest,
                    json.dumps(row["seats"]),
                    row["spectator"],
                    int(row["seed_chosen"]),
                    row["creator"],
                ),
            )
        return row

    COLUMNS = (
        "id, ruleset, options, variants, players, seed, digest, seats, spectator, seed_chosen, creator, next_table"
    )

    @_guarded
    def tables(self) -> list[dict]:
        with self.reading:
            rows = self.reader.execute(f"select {self.COLUMNS} from tables order by rowid").fetchall()
        return [self._row(r) for r in rows]

    @_guarded
    def table(self, table_id: str) -> dict | None:
        """One table's row, or None."""
        with self.reading:
            r = self.reader.execute(f"select {self.COLUMNS} from tables where id = ?", (table_id,)).fetchone()
        return None if r is None else self._row(r)

    @staticmethod
    def _row(r: tuple) -> dict:
        return {
            "id": r[0],
            "ruleset": r[1],
            "options": json.loads(r[2]),
            "variants": json.loads(r[3]),
            "players": r[4],
            "seed": r[5],
            "digest": r[6],
            "seats": json.loads(r[7]),
            "spectator": r[8],
            "seed_chosen": bool(r[9]),
            "creator": r[10],
            "next_table": r[11],
        }

    @_guarded
    def update(self, table_id: str, seats: list | None = None, next_table: str | None = None) -> None:
        """A table's seats (a name given, a seat conceded) or its rematch written, committed on return."""
        with self.writing():
            if seats is not None:
                self.patient.execute("update tables set seats = ? where id = ?", (json.dumps(seats), table_id))
            if next_table is not None:
                self.patient.execute("update tables set next_table = ? where id = ?", (next_table, table_id))

    @_guarded
    def decision_counts(self) -> dict[str, int]:
        """How many decisions each table has taken (tables with none are left out)."""
        with self.reading:
            rows = self.reader.execute("select table_id, count(*) from decisions group by table_id").fetchall()
        return dict(rows)

    @_guarded
    def choices(self, table_id: str) -> list[str]:
        with self.reading:
            rows = self.reader.execute(
                "select choice from decisions where table_id = ? order by n", (table_id,)
            ).fetchall()
        return [r[0] for r in rows]

    def add_choice(self, table_id: str, n: int, choice: str, wait: bool = True) -> bool:
        """Decision n (1-based) of the table; committed when this returns True. With wait=False
        it is written only if the database answers at once, and False says it would have to wait."""
        return self._write("insert into decisions (table_id, n, choice) values (?, ?, ?)", (table_id, n, choice), wait)

    def keep_choices(self, table_id: str, count: int, wait: bool = True) -> bool:
        """Take back every decision after the first `count` (undo); True and False as add_choice."""
        return self._write("delete from decisions where table_id = ? and n > ?", (table_id, count), wait)

    @_guarded
    def _write(self, sql: str, args: tuple, wait: bool) -> bool:
        if wait:
            with self.writing():
                self.patient.execute(sql, args)
            return True
        # at once or not at all: the usual case costs no thread, and a busy database is left to a
        # writer thread (hall.py `saving`) instead of holding the caller
        with self.lock:
            try:
                self.db.execute(sql, args)
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    return False
                raise
        return True

    @contextlib.contextmanager
    def writing(self):
        """The patient connection, waited for at most BUSY_SECONDS (behind writes that wait for a
        database another program holds), else StoreBusy as for the database itself."""
        if not self.waiting.acquire(timeout=BUSY_SECONDS):
            raise sqlite3.OperationalError("database is locked")
        try:
            yield
        finally:
            self.waiting.release()

    def close(self) -> None:
        with self.lock:
            for connection in {id(c): c for c in (self.reader, self.patient, self.db)}.values():
                connection.close()
        self._disown()
