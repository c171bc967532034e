"""The server's connections, bounded: how many may be open, how long a request's headers may take.

uvicorn reads a request's headers for as long as the client cares to send them, and keeps any
number of connections open, so thirty clients that each send half a header (no token needed)
hold thirty connections for ever. :func:`protocol` gives uvicorn its HTTP protocol (httptools')
with two bounds: a connection past ``max_connections`` open ones is answered 429 at once and
closed (with ``Retry-After``); a request whose headers are not all in within ``header_seconds`` of its first byte (or
of the connection, for a client that sends nothing) is answered 408 and closed. Between requests
uvicorn's own keep-alive timeout closes an idle connection.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from lukfu_solver.i18n import _, number, using_language

from .folder import LOG_LANGUAGE

HEADER_SECONDS = 10.0
"""The longest a request's headers may take to arrive."""
MAX_CONNECTIONS = 100
"""The most connections open at once (a browser opens six; the load test twenty-one)."""


def closing_answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP answer with a one-line JSON refusal that closes the connection (a 429 says
    when to try again)."""
    body = json.dumps({"error": message}, ensure_ascii=False).encode("utf-8")
    retry = "retry-after: 2\r\n" if status == 429 else ""
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{retry}connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def protocol(max_connections: int = MAX_CONNECTIONS, header_seconds: float = HEADER_SECONDS) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with the bounds of the module notes."""
    with using_language(LOG_LANGUAGE["code"]):
        too_many = closing_answer(
            429, "Too Many Requests",
            "connections: " + _("{n} connections are open already; try again in a moment").format(n=number(max_connections)),
        )
        too_slow = closing_answer(
            408, "Request Timeout",
            "headers: " + _("not received within {seconds} seconds").format(seconds=number(header_seconds)),
        )

    class BoundedProtocol(HttpToolsProtocol):
        """One connection: refused past the cap, cut off when its headers are too slow."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._refused = False
            self._header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if len(self.connections) >= max_connections:
                self._refused = True
                self.transport = transport
                transport.write(too_many)
                transport.close()
                return
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._refused:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self._refused:
                super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.write(too_slow)
                self.transport.close()

    return BoundedProtocol
