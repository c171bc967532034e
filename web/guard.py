"""The server's door: every request is checked here before the app sees it (an ASGI middleware).

- **Host** (DNS rebinding): the ``Host`` header must name this server: an IP address literal
  (which no DNS answer can rebind), ``localhost`` or the ``--host`` name, with the server's port.
- **Origin** (cross-origin calls): a request that carries an ``Origin`` must come from this
  server's own origin, and a browser's ``Sec-Fetch-Site: cross-site`` is refused outright; the
  server sends no CORS headers, so a page elsewhere cannot read an answer either.
- **Token** (as Jupyter's): the random token of the printed URL, given as ``?token=``, the
  ``X-Lukfu-Token`` header or the cookie the page sets (``HttpOnly``, ``SameSite=Strict``, named
  for the port, since cookies ignore ports); compared in constant time.
- **Bodies** are capped (``Content-Length`` or counted while read) and a body must be JSON.

A refusal is a JSON ``{"error": "field: message"}`` with a 4xx status, one line. Every answer gets
headers that keep the page to itself (CSP ``'self'``, no framing, no referrer: the token in the
URL never leaves in a ``Referer``).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from lukfu_solver.i18n import _, normalize, number, using_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_HEADER = "x-lukfu-token"
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port`` (cookies are shared between ports)."""
    return f"lukfu_token_{port}"


def split_host(value: str) -> tuple[str, int | None]:
    """``host:port`` (``[v6]:port``) of a Host header as (host, port); port None when absent."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = value.rpartition(":") if value.count(":") == 1 else (value, "", "")
    return host, int(port) if port.isdigit() and len(port) <= 5 else None


def is_ip(host: str) -> bool:
    """Whether ``host`` is an IP address literal (v4 or v6)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Guard:
    """The checks of the module notes around ``app``; ``names`` are the host names (besides IP
    literals and ``localhost``) this server answers to."""

    def __init__(self, app: ASGIApp, token: str, port: int, names: tuple[str, ...] = (), max_body: int = 1 << 20) -> None:
        self.app = app
        self.token = token
        self.port = port
        self.names = {"localhost", *(n.lower() for n in names)}
        self.max_body = max_body
        self.cookie = cookie_name(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        lang = normalize(headers.get("x-lukfu-lang") or (query.get("lang") or ["en"])[0]) or "en"
        with using_language(lang):
            fault = self._fault(scope, headers)
        if fault is not None:
            status, message = fault
            await _refuse(send, status, message)
            return
        from_query = self.token in query.get("token", [])
        if scope["method"] in ("POST", "PUT", "DELETE", "PATCH"):
            body = await self._body(receive, headers)
            if isinstance(body, tuple):
                with using_language(lang):
                    status, message = body[0], _body_fault(body[1], self.max_body)
                await _refuse(send, status, message)
                return
            receive = _replay(body, receive)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(SECURITY_HEADERS)
                if from_query:
                    cookie = f"{self.cookie}={self.token}; HttpOnly; SameSite=Strict; Path=/"
                    extra.append((b"set-cookie", cookie.encode("latin-1")))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _fault(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why the request is refused (status, message), or None."""
        host, port = split_host(headers.get("host", ""))
        if port != self.port or not (is_ip(host) or host in self.names):
            return 403, "host: " + _("this server answers only to its own address (a DNS rebinding attempt?)")
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self._origins(headers["host"]):
            return 403, "origin: " + _("cross-origin requests are refused")
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "origin: " + _("cross-origin requests are refused")
        given = self._token(scope, headers)
        if given is None:
            return 401, "token: " + _("missing; open the URL lukfu serve printed (it carries ?token=…)")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8")):
            return 403, "token: " + _("wrong token; open the URL lukfu serve printed")
        return None

    def _origins(self, host_header: str) -> set[str]:
        return {f"http://{host_header.lower()}"}

    def _token(self, scope: Scope, headers: dict[str, str]) -> str | None:
        """The token the request carries: header, query or cookie (None when none)."""
        if TOKEN_HEADER in headers:
            return headers[TOKEN_HEADER]
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if query.get("token"):
            return query["token"][0]
        if "cookie" in headers:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers["cookie"])
            except Exception:  # a malformed cookie header is no token
                return None
            if self.cookie in jar:
                return jar[self.cookie].value
        return None

    async def _body(self, receive: Receive, headers: dict[str, str]) -> bytes | tuple[int, str]:
        """The whole body, at most ``max_body`` bytes; (status, message) when refused."""
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, "size"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return 413, "size"
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if size and kind != "application/json":
            return 415, "type"
        return b"".join(chunks)


def _body_fault(what: str, most: int) -> str:
    """The message of a refused body: too large (``size``) or not JSON (``type``)."""
    if what == "size":
        return "body: " + _("larger than {most} bytes").format(most=number(most))
    return "body: " + _("must be JSON (Content-Type: application/json)")


def _replay(body: bytes, original: Receive) -> Receive:
    """A ``receive`` that gives the body already read once, then the client's own messages
    (its disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await original()

    return receive


async def _refuse(send: Send, status: int, message: str) -> None:
    """A one-line JSON error with the security headers."""
    body = json.dumps({"error": message}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})
