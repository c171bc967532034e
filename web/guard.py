"""The server's door: every request is checked here before the app sees it (an ASGI middleware).

- **Headers** that decide who may come in (``Host``, ``Origin``, ``Sec-Fetch-Site``, the token,
  ``Content-Length``, ``Content-Type``) must come once each: two ``Host`` headers are a 400 (RFC
  9112), not a choice between them. A ``Host`` that is no ``host:port`` of ASCII letters, digits,
  dots and hyphens (or a bracketed IPv6 address) is a 400 too.
- **Host** (DNS rebinding): the ``Host`` header must name this server: an IP address literal
  (which no DNS answer can rebind), ``localhost`` or the ``--host`` name, with the server's port.
- **Origin** (cross-origin calls): a request that carries an ``Origin`` must come from this
  server's own origin, and an API call whose ``Sec-Fetch-Site`` is ``cross-site`` or
  ``same-site`` (another port of the same host is the same site) is refused, whatever its case;
  the server sends no CORS headers, so a page elsewhere cannot read an answer either (a link
  from elsewhere may still open the page itself).
- **Token** (as Jupyter's): the random token of the printed URL, given as the ``X-Lukfu-Token``
  header (the page sends it so) or ``?token=``, compared in constant time. No cookie is read or
  set: a cookie reaches every port of a host, so any local web service the browser visits would
  receive it. The page itself, its scripts, styles and icon (``/``, ``/static/…``) hold nothing
  private and are served without the token, so a reloaded tab finds its token again (the page
  keeps it in the tab's ``sessionStorage``); ``/?token=`` with a wrong token is still refused.
- **Bodies** are capped at :data:`~lukfu_solver.inputs.MAX_BODY_BYTES` (``Content-Length`` or
  counted while read), must arrive within :data:`BODY_SECONDS` and must be JSON.

A refusal is a JSON ``{"error": "field: message"}`` with a 4xx status, one line; a browser that
asked for a page gets an HTML page in the reader's language instead (:mod:`.pages`). Every answer
gets headers that keep the page to itself (CSP ``'self'``, no framing, no referrer: the token in
the URL never leaves in a ``Referer``).
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from lukfu_solver.i18n import _, number, using_language
from lukfu_solver.inputs import MAX_BODY_BYTES

from .pages import HTML_TYPE, JSON_TYPE, html_body, json_body, page_language, wants_html

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_HEADER = "x-lukfu-token"
SINGLE = ("host", "origin", "sec-fetch-site", TOKEN_HEADER, "content-length", "content-type", "x-lukfu-client")
"""Headers a request may carry at most once (the ones the door decides by)."""
REFUSED_SITES = ("cross-site", "same-site")
"""``Sec-Fetch-Site`` values refused: a page of another site, or of another port of this host."""
BODY_SECONDS = 10.0
"""The longest a request's body may take to arrive (a client sending a byte now and then is cut off)."""
PUBLIC = re.compile(r"/(static/[A-Za-z0-9_./-]*|favicon\.ico)?")
"""The paths served without the token (GET and HEAD): the page and its files, nothing private."""
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
_HOST = re.compile(r"(?:\[([0-9a-f:.]{2,45})\]|([a-z0-9.-]{1,253}))(?::([0-9]{1,5}))?")


def split_host(value: str) -> tuple[str, int | None] | None:
    """``host:port`` (``[v6]:port``) of a Host header as (host, port), port None when absent; None
    when the value is no host and port at all (a byte outside ASCII letters, digits, ``.-:[]``).

    >>> split_host("127.0.0.1:8000"), split_host("[::1]:9"), split_host("localhost"), split_host("127.0.0.1:\\xb2")
    (('127.0.0.1', 8000), ('::1', 9), ('localhost', None), None)
    """
    m = _HOST.fullmatch(value.strip().lower())
    if m is None:
        return None
    host = m.group(1) or m.group(2)
    return host, int(m.group(3)) if m.group(3) else None


def is_ip(host: str) -> bool:
    """Whether ``host`` is an IP address literal (v4 or v6)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Refusal(Exception):
    """A request refused at the door: its status and one-line message ``field: …``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Guard:
    """The checks of the module notes around ``app``; ``names`` are the host names (besides IP
    literals and ``localhost``) this server answers to."""

    def __init__(
        self, app: ASGIApp, token: str, port: int, names: tuple[str, ...] = (), max_body: int = MAX_BODY_BYTES
    ) -> None:
        self.app = app
        self.token = token
        self.port = port
        self.names = {"localhost", *(n.lower() for n in names)}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets
        raw = [(k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in scope.get("headers", [])]
        headers = dict(raw)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        lang = page_language((query.get("lang") or [None])[0], headers.get("x-lukfu-lang"), headers.get("accept-language"))
        html = wants_html(scope["method"], headers.get("accept", ""))
        try:
            with using_language(lang):
                self._check(scope, raw, headers, query)
            if scope["method"] in ("POST", "PUT", "DELETE", "PATCH"):
                body = await self._body(receive, headers, lang)
                receive = _replay(body, receive)
        except Refusal as refused:
            with using_language(lang):
                await refuse(send, refused.status, refused.message, lang if html else None)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _check(self, scope: Scope, raw: list[tuple[str, str]], headers: dict[str, str], query: dict[str, list[str]]) -> None:
        """Refuse the request (:class:`Refusal`) unless it passes every check of the module notes."""
        for name in SINGLE:
            if sum(1 for k, _v in raw if k == name) > 1:
                raise Refusal(400, "headers: " + _("the {name} header is given more than once").format(name=name.title()))
        if "host" not in headers:
            raise Refusal(400, "host: " + _("missing (HTTP/1.1 requires it)"))
        parsed = split_host(headers["host"])
        if parsed is None:
            raise Refusal(400, "host: " + _("not a host name or address with a port"))
        host, port = parsed
        if port != self.port or not (is_ip(host) or host in self.names):
            raise Refusal(403, "host: " + _("this server answers only to its own address (a DNS rebinding attempt?)"))
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower() != f"http://{headers['host'].strip().lower()}":
            raise Refusal(403, "origin: " + _("cross-origin requests are refused"))
        public = scope["method"] in ("GET", "HEAD") and PUBLIC.fullmatch(scope.get("path", "")) is not None
        if not public and headers.get("sec-fetch-site", "").strip().lower() in REFUSED_SITES:
            raise Refusal(403, "origin: " + _("cross-origin requests are refused"))
        given = headers.get(TOKEN_HEADER)
        if given is None and query.get("token"):
            given = query["token"][0]
        if given is None and public:
            return
        if given is None:
            raise Refusal(401, "token: " + _("missing; open the URL lukfu serve printed (it carries ?token=…)"))
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8")):
            raise Refusal(403, "token: " + _("wrong token; open the URL lukfu serve printed"))

    async def _body(self, receive: Receive, headers: dict[str, str], lang: str) -> bytes:
        """The whole body, at most ``max_body`` bytes, in at most :data:`BODY_SECONDS`."""
        with using_language(lang):
            too_large = Refusal(413, "body: " + _("larger than {most} bytes").format(most=number(self.max_body)))
            too_slow = Refusal(408, "body: " + _("not received within {seconds} seconds").format(seconds=number(BODY_SECONDS)))
            not_json = Refusal(415, "body: " + _("must be JSON (Content-Type: application/json)"))
        length = headers.get("content-length")
        if length is not None and (not length.isascii() or not length.isdigit() or int(length) > self.max_body):
            raise too_large
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + BODY_SECONDS
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                raise too_slow from None
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if size and kind != "application/json":
            raise not_json
        return b"".join(chunks)


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


async def refuse(send: Send, status: int, message: str, html_lang: str | None = None) -> None:
    """A refusal: one-line JSON, or with ``html_lang`` the HTML page in that language (already in
    use), with the security headers."""
    body = html_body(status, message, html_lang) if html_lang else json_body(message)
    headers = [HTML_TYPE if html_lang else JSON_TYPE, (b"content-length", str(len(body)).encode())]
    if status == 429:
        headers.append((b"retry-after", b"2"))
    await send({"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})
