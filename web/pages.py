"""The refusals a person reads: an HTML page in the reader's language for a browser that asked
for a page, where an API client (the table's own scripts included) gets the one-line JSON.

A browser's address-bar request says ``Accept: text/html``; the page's ``fetch`` calls do not, so
they keep the JSON they read. Each page says what happened and what to do next (open the address
``lukfu serve`` printed; another address; the games list), and shows the one-line refusal
beneath. The language is ``?lang=``, the ``X-Lukfu-Lang`` header, else the browser's
``Accept-Language``, else English.
"""

from __future__ import annotations

import html
import json

from lukfu_solver.i18n import _, normalize

JSON_TYPE = (b"content-type", b"application/json")
HTML_TYPE = (b"content-type", b"text/html; charset=utf-8")


def wants_html(method: str, accept: str) -> bool:
    """Whether a request is a browser's visit to a page (a GET that accepts HTML)."""
    return method in ("GET", "HEAD") and "text/html" in accept.lower()


def accepted_language(header: str) -> str | None:
    """The first language of an ``Accept-Language`` header lukfu speaks, by its weights.

    >>> accepted_language("de-DE,de;q=0.9,ru;q=0.8,en;q=0.7"), accepted_language("*"), accepted_language("")
    ('ru', None, None)
    """
    ranked = []
    for i, part in enumerate(header.split(",")[:20]):
        code, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:7])
            except ValueError:
                weight = 0.0
        ranked.append((-weight, i, code))
    for weight, _i, code in sorted(ranked):
        found = normalize(code) if code and weight < 0 else None
        if found is not None:
            return found
    return None


def page_language(query_lang: str | None, header_lang: str | None, accept_language: str | None) -> str:
    """The language of a page: ``?lang=``, ``X-Lukfu-Lang``, ``Accept-Language``, English."""
    for given in (query_lang, header_lang):
        if given and normalize(given) is not None:
            return normalize(given) or "en"
    return accepted_language(accept_language or "") or "en"


def json_body(message: str) -> bytes:
    """A refusal as the API's JSON: ``{"error": "field: message"}``, one line, UTF-8 as it is
    (an ellipsis is ``…``, never ``\\u2026``)."""
    return json.dumps({"error": message.replace("\n", " ")}, ensure_ascii=False).encode("utf-8")


def advice(status: int, message: str) -> tuple[str, str]:
    """The page's title and what the reader should do, for a refusal (in the language in use)."""
    field = message.split(":", 1)[0]
    if field == "token" and status == 401:
        return _("Open the address lukfu serve printed"), _(
            "This table answers only to the address lukfu serve printed when it started, the one "
            "that ends in ?token= and a long code. Copy it from the terminal where lukfu serve runs "
            "(it stays the same when the server is restarted) and open it."
        )
    if field == "token":
        return _("This address's token is not this table's"), _(
            "The server was started anew with --new-token, or this address belongs to another "
            "server. Open the address lukfu serve printed in its terminal."
        )
    if field == "host":
        return _("Another address"), _(
            "This server answers only to its own address (the one lukfu serve printed), so that "
            "no other site can reach it under a name of its own. Open the address lukfu serve printed."
        )
    if field == "origin":
        return _("Refused: a request from another site"), _(
            "A page of another site asked this table for something, and the table refuses such "
            "requests. Open the table from the address lukfu serve printed."
        )
    if status == 404:
        return _("No such page"), _(
            "There is nothing at this address. The table is at the address lukfu serve printed; "
            "your games are listed under Games there."
        )
    return _("The table refused this request"), _("The line below says why.")


def html_body(status: int, message: str, lang: str) -> bytes:
    """The HTML page of a refusal (the language already in use is ``lang``'s)."""
    title, what = advice(status, message)
    e = html.escape
    return (
        "<!doctype html>\n"
        f'<html lang="{e(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>Luk Fu — {e(title)}</title>\n"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/css/notice.css">\n</head>\n<body>\n'
        f'<main class="notice">\n<h1>{e(title)}</h1>\n<p>{e(what)}</p>\n'
        f'<p class="detail"><code>{status} · {e(message)}</code></p>\n'
        f'<p><a href="/">{e(_("Back to the table"))}</a></p>\n</main>\n</body>\n</html>\n'
    ).encode()
