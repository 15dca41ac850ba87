"""Bot moves at the table, thought in a bounded pool of worker processes with a hard time limit.

A bot's move is a pure function of a small job (`think`): the rules file, options and variants,
the rules' digest, the agent's name, a seed, and the state. A worker process compiles each
ruleset once and keeps it (`_ENGINES`), builds the agent afresh for the move, seeded from the
table's seed and the decision's number (so a table resumed after a restart plays its bots as it
would have), and answers the option's index.

The pool (`BotPool`) is pebble's process pool, as the lab's runs use (interpreter/lab/runs.py):

- at most `workers` moves think at once, whatever the number of tables;
- a move past `seconds` is stopped: its process is killed and replaced, and the table's hall
  plays a random legal option for that seat, saying so in every page's log (the game goes on);
- a worker process that dies is treated the same way;
- stopping the pool (the server's shutdown, Ctrl-C) kills every worker at once, and a worker
  whose server is killed ends within a second by itself.

Workers are forked from a clean "forkserver" process, never from the server with its threads
(a fork copies locks other threads may hold). `random` picks without looking ahead, so it plays
in the server process: a job to a worker would cost more than its move.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import CancelledError as FutureCancelled
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

MOVE_SECONDS = 20.0  # the hard limit: the table's caps (agents/caps.py) keep a move within about 5 s
WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))  # the cores are shared with the pages' event loop
INLINE = frozenset({"random"})  # agents that think in the server process: they do not look ahead
ENGINES_KEPT = 16  # compiled rulesets one worker keeps (a ruleset with other options is another)

PRELOAD = ["meeple.dsl.compiler", "meeple.interpreter.engine", "meeple.interpreter.agents"]

_ENGINES: dict = {}


class Overran(Exception):
    """The move was stopped (past the time limit, or its worker process died); the message says which."""


class Stopped(Exception):
    """The pool was stopped under the move (the server is stopping): no move is made."""


def move_seed(table_seed: int, n: int) -> int:
    """The seed of a bot's agent for the table's decision number `n` (1-based)."""
    return table_seed * 100_003 + n


def _engine(path: str, options: dict, variants: list):
    from meeple.dsl.compiler import compile_ruleset
    from meeple.dsl.parser import parse_file
    from meeple.interpreter.engine import Engine

    key = (path, tuple(sorted(options.items())), tuple(variants))
    if key not in _ENGINES:
        if len(_ENGINES) >= ENGINES_KEPT:
            _ENGINES.pop(next(iter(_ENGINES)))  # the oldest
        _ENGINES[key] = Engine(compile_ruleset(parse_file(path), dict(options), list(variants)))
    return _ENGINES[key]


def think(job: dict, engine=None) -> tuple[str, Any]:
    """("ok", option index) or ("error", one line): never raises, so nothing but plain data crosses
    back from a worker. `engine` is the server's own (a move thought in the server process)."""
    from meeple.dsl.errors import MeepleError
    from meeple.interpreter.agents import AgentError, choose, make_agent

    here = engine is not None  # in the server: no alarm (its signals are the server's); only `random`
    try:
        if not here:
            engine = _engine(job["path"], job["options"], job["variants"])
            if engine.game.digest != job["digest"]:
                return "error", "the rules file changed since this table started; the bot cannot play it"
        state = job["state"]
        d = engine.decision(state)
        bot = make_agent(engine, job["agent"], d.actor, job["seed"])
        return "ok", (
            choose(bot, engine.view(state, d.actor), d, 0) if here else choose(bot, engine.view(state, d.actor), d)
        )
    except MeepleError as exc:
        return "error", exc.format()
    except AgentError as exc:
        return "error", str(exc)
    except Exception as exc:  # a bug in the engine or an agent: said on the page
        return "error", f"{type(exc).__name__}: {exc}"


def _watch_server(server: int) -> None:
    """In each worker: end this process when the server is gone (killed, not stopped)."""

    def watch():
        while True:
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # the pid now belongs to another user's process: the server is gone
                os._exit(1)
            threading.Event().wait(1.0)

    threading.Thread(target=watch, daemon=True).start()


class BotPool:
    """The worker processes that think the bots' moves; started at the first move."""

    def __init__(self, workers: int = WORKERS, seconds: float = MOVE_SECONDS):
        self.workers, self.seconds = workers, seconds
        self.pool = None
        self.starting = threading.Lock()

    def _pool(self):
        with self.starting:
            if self.pool is None:
                from pebble import ProcessPool

                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)  # once imported, not in every worker
                self.pool = ProcessPool(
                    max_workers=self.workers, initializer=_watch_server, initargs=(os.getpid(),), context=context
                )
            return self.pool

    async def move(self, job: dict) -> tuple[str, Any]:
        """`think(job)` in a worker: ("ok", index) or ("error", why); Overran past the limit."""
        from pebble import ProcessExpired

        pool = self._pool()
        future = pool.schedule(think, args=(job,), timeout=self.seconds)
        try:
            return await asyncio.wrap_future(future)
        except FutureTimeout:
            raise Overran(f"did not decide within {self.seconds:g} s") from None
        except ProcessExpired as exc:
            if pool is not self.pool:
                raise Stopped() from None
            how = f"killed by signal {-exc.exitcode}" if (exc.exitcode or 0) < 0 else f"exit code {exc.exitcode}"
            raise Overran(f"lost its worker process ({how})") from None
        except (FutureCancelled, OSError, BrokenProcessPool):
            if pool is not self.pool:  # stopped under it: the pool's pipes close as it goes
                raise Stopped() from None
            raise

    def stop(self) -> None:
        """Kill every worker now (a move in progress is dropped); a later move starts a new pool."""
        with self.starting:
            pool, self.pool = self.pool, None
        if pool is not None:
            pool.stop()
            pool.join()


SHARED = BotPool()  # one pool per server process, whatever the number of apps (tests make many)
