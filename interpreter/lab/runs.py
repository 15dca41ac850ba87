"""Playing many games, a row at a time: in this process, in worker processes, or on a Dask cluster.

`play_all(tasks)` yields each game's row as soon as that game ends, in the
order games finish, so a caller can write it to disk at once: a run that is
stopped keeps every game it finished. Worker processes come from pebble's
process pool, which gives each game its own time limit and tells a game whose
process died apart from the others:

- a game that runs past `timeout` seconds is stopped (its process is killed
  and replaced) and becomes an error row; the run goes on;
- a game whose worker process dies (out of memory, a crash in a plug-in agent,
  `os._exit`) becomes an error row naming the exit code; the run goes on;
- Ctrl-C (KeyboardInterrupt) or closing the generator stops every worker at
  once, and workers whose parent is killed stop within a second by themselves.

Within one process (`jobs=1`) games run one after the other; the engine's step
limit and the agents' decision limit (interpreter/agents) still bound them.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import Future, as_completed
from concurrent.futures import TimeoutError as FutureTimeout

from meeple.interpreter.lab.rows import in_task_order
from meeple.interpreter.lab.simulate import blank_row, check_scheduler, play_row

GAME_SECONDS = 1800.0  # a game longer than this is stopped: far past any shipped game with the lab's agents


def error_row(task, message: str) -> dict:
    """The row of a game its worker lost (stopped, died): an error, marked `lost` so that
    `--resume` plays it again (a rules error, by contrast, would only happen again)."""
    side, seed = task
    return {**blank_row(side, seed), "error": message, "lost": True}


def _play(task):
    return play_row(*task)


def run_rows(tasks: list, jobs: int = 1, scheduler: str | None = None) -> list[dict]:
    """Play every (side, seed) task; rows sorted by side order, then seed."""
    return in_task_order(play_all(tasks, jobs=jobs, scheduler=scheduler), tasks)


def play_all(tasks: list, jobs: int = 1, scheduler: str | None = None, timeout: float = GAME_SECONDS):
    """Each task's row, as each game ends (a generator; close it to stop the run)."""
    if scheduler:
        yield from _on_dask(tasks, scheduler)
    elif jobs <= 1:
        for task in tasks:
            yield _play(task)
    else:
        yield from _in_processes(tasks, jobs, timeout)


def _in_processes(tasks: list, jobs: int, timeout: float):
    from pebble import ProcessExpired, ProcessPool

    pool = ProcessPool(max_workers=jobs, initializer=_watch_parent, initargs=(os.getpid(),))
    try:
        futures: dict[Future, tuple] = {pool.schedule(_play, args=(task,), timeout=timeout): task for task in tasks}
        for future in as_completed(futures):
            task = futures[future]
            try:
                yield future.result()
            except FutureTimeout:
                yield error_row(task, f"the game did not end within {timeout:g} s and was stopped")
            except ProcessExpired as exc:
                yield error_row(task, f"the worker process playing this game died (exit code {exc.exitcode})")
            except Exception as exc:  # play_row turns every game's own error into a row; this is the pool's
                yield error_row(task, f"{type(exc).__name__}: {exc}".splitlines()[0])
    finally:
        pool.stop()  # on Ctrl-C or an early close: every worker goes now, not after its game
        pool.join()


def _watch_parent(parent: int) -> None:
    """In each worker: end this process when the run's own process is gone (killed, not stopped)."""

    def watch():
        while True:
            if os.getppid() != parent:
                os._exit(1)
            threading.Event().wait(1.0)

    threading.Thread(target=watch, daemon=True).start()


def _on_dask(tasks: list, scheduler: str):
    from dask.distributed import Client
    from dask.distributed import as_completed as dask_completed

    check_scheduler(scheduler)
    with Client(scheduler, timeout="20s") as client:
        futures = client.map(_play, tasks, pure=False)
        task_of = {future.key: task for future, task in zip(futures, tasks)}
        try:
            for future in dask_completed(futures):
                try:
                    yield future.result()
                except Exception as exc:  # a worker lost with its game (Dask's KilledWorker)
                    yield error_row(task_of[future.key], f"{type(exc).__name__}: {exc}".splitlines()[0])
        finally:
            client.cancel(futures)  # a stopped run leaves no games behind on the cluster


class Progress:
    """Games done, rate and time left, on stderr: a bar redrawn on a terminal, otherwise a line
    every `every` seconds (a run in the background or under a scheduler still says how it goes)."""

    def __init__(self, total: int, what: str = "games", stream=None, every: float = 30.0):
        self.total, self.what, self.every = total, what, every
        self.stream = stream if stream is not None else sys.stderr
        self.started = self.shown = time.perf_counter()
        self.tty = getattr(self.stream, "isatty", lambda: False)()

    def __call__(self, done: int) -> None:
        now = time.perf_counter()
        # a terminal also sees the last count; a log gets a line every `every` seconds, none for a short run
        if now - self.shown < (0.2 if self.tty else self.every) and not (self.tty and done >= self.total):
            return
        self.shown = now
        rate = done / max(now - self.started, 1e-9)
        left = (self.total - done) / rate if rate else 0
        figures = f"{done}/{self.total} {self.what}, {rate:.2f}/s, {_duration(left)} left"
        if self.tty:
            filled = int(30 * done / max(self.total, 1))
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {figures} ")
            if done >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"progress: {figures}\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"
