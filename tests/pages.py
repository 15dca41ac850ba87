"""A test client whose sockets read as a page does: each patch applied to the last picture
(static/patch.js does it in the browser; patch.apply is its reference), so a test reads
`{"type": "table", "table": picture}` after every change, as before patches."""

from __future__ import annotations

import copy

from starlette.testclient import TestClient

from meeple.interpreter.table.patch import apply


class PageSocket:
    """A test socket session that applies patches; everything else is the session's."""

    def __init__(self, session):
        self.session, self.page, self.seq = session, None, 0
        self.sizes = []  # the bytes of each message received, for the tests of patch sizes

    def receive_json(self) -> dict:
        text = self.session.receive_text()
        self.sizes.append(len(text.encode()))
        import json

        message = json.loads(text)
        if message["type"] == "patch":
            assert self.page is not None and message["seq"] == self.seq + 1, (message["seq"], self.seq)
            self.seq = message["seq"]
            self.page = apply(self.page, message["ops"])
            return {"type": "table", "table": copy.deepcopy(self.page)}
        if message["type"] == "table":
            self.page, self.seq = copy.deepcopy(message["table"]), message.get("seq", 0)
        return message

    def __enter__(self):
        self.session.__enter__()
        return self

    def __exit__(self, *exc):
        return self.session.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self.session, name)


class PagesClient(TestClient):
    def websocket_connect(self, *args, **kwargs) -> PageSocket:
        return PageSocket(super().websocket_connect(*args, **kwargs))
