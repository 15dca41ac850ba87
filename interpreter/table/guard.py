"""Which requests the table answers: its own host names only, and changes only from its own pages.

Two attacks from an ordinary web page someone opens while the table runs on their machine:

- Cross-site requests. Any page may POST to http://localhost:8000/api/tables or open a
  WebSocket to it; the browser sends them (it only hides the answer). Every state-changing
  request (anything but GET and HEAD) and every WebSocket handshake that carries an `Origin`
  must come from the table's own origin: the Origin's host and port are the request's `Host`.
  A request without an Origin (curl, a script, the tests) is not a browser acting for a page.
- DNS rebinding. A page's own name is made to resolve to 127.0.0.1; its requests are then
  same-origin, but they carry its name as `Host`. So `Host` must be one of the allowed
  names: localhost, 127.0.0.1, ::1, the address the server listens on, and every
  `--allowed-host` (the name people use behind a reverse proxy).

A refused HTTP request gets 400 (a Host not allowed) or 403 (a foreign Origin) with a JSON
{"error": ...}; a refused WebSocket handshake is closed before it opens (HTTP 403).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.websockets import WebSocketClose

LOOPBACK = ("localhost", "127.0.0.1", "::1")
SAFE_METHODS = ("GET", "HEAD")


def host_name(host: str) -> str:
    """The name in a Host header or an --allowed-host: without the port and IPv6 brackets, lower case."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("["):  # [::1]:8000
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:  # name:port (a bare IPv6 address has more colons)
        return host.split(":", 1)[0]
    return host


def bad_host_name(name: str) -> str | None:
    """Why `name` cannot be an --allowed-host (None: it can)."""
    if not name or any(c in name for c in "/ \t@?#*") or host_name(name) != name.lower().strip("[]"):
        return (
            f"--allowed-host takes a host name or address, such as games.example.org (no scheme, "
            f"port or path), not `{name}`"
        )
    return None


class Guard:
    """ASGI middleware in front of the table's app: Host and Origin checks, as the module says."""

    def __init__(self, app, hosts=()):
        self.app = app
        self.hosts = {host_name(h) for h in (*LOOPBACK, *hosts) if h}

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            problem, status = (
                (
                    f"this server does not answer to the host name `{host[:100]}`; its operator "
                    "can allow it with --allowed-host"
                ),
                400,
            )
        elif self.foreign(scope, headers.get("origin"), host):
            problem, status = "a request from another site's page is refused (its Origin is not this server)", 403
        else:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            return await WebSocketClose(code=1008, reason=problem[:120])(scope, receive, send)
        from meeple.interpreter.table.wire import PageJSON  # the host name is the client's: written out

        return await PageJSON({"error": problem}, status_code=status)(scope, receive, send)

    @staticmethod
    def foreign(scope, origin: str | None, host: str) -> bool:
        """A page of another origin asking for a change (an Origin that names no host, `null`, is one)."""
        if origin is None or (scope["type"] == "http" and scope["method"] in SAFE_METHODS):
            return False
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:
            return True
        return netloc.lower() != host.lower()
