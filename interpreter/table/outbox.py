"""Each page's own queue of messages, so that one page that stops reading never holds up a table.

Sending on a WebSocket waits while the page's connection is full (a tab in the background, a
phone in a tunnel, a client that never reads). When the hall sent to every page in turn, one such
page held up every broadcast of its table, and with it the table's lock: nobody could play. Now
the hall only puts messages in each page's `Outbox`; a writer task per page sends them, in order.
A page whose queue fills up (it is that far behind) or whose send takes longer than `seconds` is
dropped: its socket is closed (code 1013, "try again later"; the page reconnects and gets the
table as it is then) and the table plays on.

The writer also keeps the last picture of the table it sent: the first goes whole
(`{"type": "table", "seq": 0, "table": ...}`), each later one as what changed
(`{"type": "patch", "seq": n, "ops": ...}`, patch.py), numbered so that a page that missed one
knows it and reconnects for the whole picture.
Every message goes out as text through wire.dumps (no string that reorders or hides text).
"""

from __future__ import annotations

import asyncio
import contextlib

from meeple.interpreter.table import patch, wire

QUEUE = 32  # messages waiting for one page
SECONDS = 10.0  # one send; a page on a slow link takes far less for a page of JSON
TRY_AGAIN_LATER = 1013


class Outbox:
    """The messages waiting for one socket, and the task that sends them."""

    def __init__(self, socket, size: int = QUEUE, seconds: float = SECONDS):
        self.socket, self.seconds = socket, seconds
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=size)
        self.dropped = False
        self.last, self.seq = None, 0  # the last picture sent, and how many patches after it
        self.loop = asyncio.get_running_loop()
        self.writer = self.loop.create_task(self._write())

    @property
    def open(self) -> bool:
        return not self.writer.done()

    def send(self, message: dict) -> bool:
        """Queue a message without waiting; False when the page is gone or dropped for lagging.

        The queue belongs to the writer's event loop: a message from another loop or thread (a
        test client runs each socket on a loop of its own) is handed over through that loop, or
        the writer would never wake for it."""
        if not self.open:
            return False
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is not self.loop:
            self.loop.call_soon_threadsafe(self._put, message)
            return True
        return self._put(message)

    def _put(self, message: dict) -> bool:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            self.writer.cancel()  # the writer closes the socket as it stops
            return False
        return True

    async def _write(self) -> None:
        try:
            while True:
                message = self._patched(await self.queue.get())
                await asyncio.wait_for(self.socket.send_text(wire.dumps(message)), self.seconds)
        except TimeoutError:
            self.dropped = True
        except asyncio.CancelledError:
            pass  # dropped for a full queue, or the page's handler finished
        except Exception:  # the page went away while a message was on its way; its handler cleans up
            return
        if self.dropped:
            # closing also writes to the socket: bounded too, or a stuck page would hold this task
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(self.socket.close(code=TRY_AGAIN_LATER), self.seconds)

    def _patched(self, message: dict) -> dict:
        """A table's picture as what changed since the last one sent (perhaps nothing: a page
        asked for the picture again, after an error, and hears that it has it)."""
        if message.get("type") != "table":
            return message
        page, last = message["table"], self.last
        self.last = page
        if last is None:
            return {**message, "seq": 0}
        self.seq += 1
        return {"type": "patch", "seq": self.seq, "ops": patch.diff(last, page)}

    async def close(self) -> None:
        """Stop sending (the page's handler is finishing)."""
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
