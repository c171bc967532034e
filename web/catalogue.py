"""The page's messages in one language, from the same gettext catalogues as the command line.

The page marks its words as the Python code does (``_("…")``, ``ngettext``, ``pgettext`` in the
``.js`` files); ``python -m tools.i18n_catalogues extract`` collects them into
``lukfu.pot`` with the rest and translators translate them in the same ``.po`` files. Here the
compiled ``.mo`` of a language is read and the messages the page's files mark are served, with
the language's plural rule as a table (the form for n = 0…199; from 100 on, the rules the
catalogues use depend on n % 100 only, so the page reads ``n < 200 ? t[n] : t[100 + n % 100]``).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from lukfu_solver.i18n import GLOSSARY, NUMBER_MARKS, PERCENT_FORMS, SOURCE_LANGUAGE, js_messages, translations

CONTEXT_SEPARATOR = "\x04"
"""gettext's separator of a context and its message in a catalogue key."""


def page_messages() -> list[tuple[str, dict[str, str]]]:
    """Every message the page's JavaScript files mark, (function, its roles' values), and the
    glossary's terms (the page's ``term(word)`` looks them up by a word it is given)."""
    folder = files("lukfu_web") / "static" / "js"
    out = [("pgettext", {"msgctxt": "term", "msgid": word}) for word in GLOSSARY]
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".js"):
            out += [(name, values) for name, values, _line in js_messages(item.read_text(encoding="utf-8"))]
    return out


@cache
def catalogue(code: str) -> dict[str, Any]:
    """``{"lang", "plural", "number", "messages"}`` for ``code``: each message the page uses,
    translated (a context's as ``context\\x04message``, a counted one as the list of its forms;
    English and messages without a translation are left out: the page shows the English), and
    how the language writes numbers (``i18n.NUMBER_MARKS``: grouping mark, decimal mark, fewest
    digits grouped, and ``percent``: how a percentage is written, ``i18n.PERCENT_FORMS``; the page's
    ``number()`` and ``percent()`` write them as ``i18n.number`` and ``i18n.percent`` do)."""
    tr = translations(code)
    group, point, fewest = NUMBER_MARKS.get(code, NUMBER_MARKS[SOURCE_LANGUAGE])
    form = PERCENT_FORMS.get(code, PERCENT_FORMS[SOURCE_LANGUAGE])
    number = {"group": group, "point": point, "fewest": fewest, "indian": code == "hi", "percent": form}
    if code == SOURCE_LANGUAGE:
        return {"lang": code, "plural": [0 if n == 1 else 1 for n in range(200)], "number": number, "messages": {}}
    catalog: dict[Any, str] = getattr(tr, "_catalog", {})
    plural = getattr(tr, "plural", lambda n: int(n != 1))
    out: dict[str, Any] = {}
    for _name, values in page_messages():
        msgid = values["msgid"]
        key = msgid if "msgctxt" not in values else values["msgctxt"] + CONTEXT_SEPARATOR + msgid
        if "msgid_plural" in values:
            forms = []
            i = 0
            while (key, i) in catalog:
                forms.append(catalog[(key, i)])
                i += 1
            if forms and all(forms):
                out[key] = forms
        elif catalog.get(key):
            out[key] = catalog[key]
    return {"lang": code, "plural": [int(plural(n)) for n in range(200)], "number": number, "messages": out}
