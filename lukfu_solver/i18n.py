"""The language a player reads: GNU gettext catalogues over the standard library's ``gettext``.

Every word lukfu prints for a player goes through :func:`_` (one message), :func:`ngettext`
(a message with a count: Russian has three plural forms, Hindi and Spanish two) or
:func:`pgettext` (a short word whose sense needs a context, such as *play* the call beside
*play* a card). Strings defined at import time are marked with :func:`N_` and translated where
they are printed. The catalogues are the domain ``lukfu`` in
``lukfu_solver/locale/<lang>/LC_MESSAGES/lukfu.mo``, compiled from the ``.po`` sources beside
them by the build tool ``tools/i18n_catalogues.py``, so translators use their usual tools.

English is the source language and the fallback at every step: an unknown variable in the
environment, a missing or unreadable catalogue, or a message not (yet) in a catalogue gives the
English text, never an error. Only an explicit unknown ``--lang`` code is bad input.

The chosen language is one process-wide setting (:func:`set_language`), as a command line has
one reader; :func:`using_language` sets it for a block (tests, a one-off rendering).

>>> with using_language("es"):
...     _("Coins")
'Monedas'
>>> with using_language("ru"):
...     [ngettext("{n} fu", "{n} fu", n).format(n=n) for n in (1, 3, 5)]
['1 фу', '3 фу', '5 фу']
>>> _("Coins")
'Coins'
"""

from __future__ import annotations

import gettext
import json
import math
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib.resources import files

from .errors import NotationError

DOMAIN = "lukfu"
"""The gettext domain: the catalogues are ``lukfu.po`` / ``lukfu.mo``."""
SOURCE_LANGUAGE = "en"
"""The language the messages are written in, and the fallback."""
LANGUAGES: tuple[str, ...] = ("en", "ru", "hi", "es")
"""The languages lukfu speaks: English and the languages of the seed rule texts."""
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "hi": "हिन्दी", "es": "Español"}
"""Each language's name in itself (for menus and help)."""
ENV_VARIABLES: tuple[str, ...] = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The standard variables, in the order gettext consults them."""

_state: dict[str, object] = {"code": SOURCE_LANGUAGE, "tr": gettext.NullTranslations()}


def normalize(code: str) -> str | None:
    """The language of a locale name (``ru_RU.UTF-8`` → ``ru``, ``es-ES`` → ``es``), or None.

    >>> normalize("ru_RU.UTF-8"), normalize("ES"), normalize("hi-IN"), normalize("C"), normalize("de_DE")
    ('ru', 'es', 'hi', None, None)
    """
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the standard variables ask for, English when none names one lukfu speaks.

    ``LANGUAGE`` is a colon-separated list of preferences (the first one spoken wins); then the
    first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides, as in the C library
    (``LC_ALL=C`` means English even when ``LANG`` names another language). As in GNU gettext,
    ``LANGUAGE`` is ignored when the locale is exactly ``C`` or ``POSIX`` (not
    ``C.UTF-8``, the usual locale of containers).

    >>> language_from_env({"LANG": "ru_RU.UTF-8"}), language_from_env({"LANGUAGE": "de:es", "LANG": "de_DE"})
    ('ru', 'es')
    >>> language_from_env({"LC_ALL": "C", "LANG": "hi_IN"}), language_from_env({})
    ('en', 'en')
    """
    env = os.environ if environ is None else environ
    locale_name = next((env[v] for v in ENV_VARIABLES[1:] if env.get(v)), "")
    if locale_name not in ("C", "POSIX"):
        for item in env.get("LANGUAGE", "").split(":"):
            found = normalize(item) if item else None
            if found:
                return found
    return normalize(locale_name) or SOURCE_LANGUAGE


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalogue of ``code``; the identity (English) when it is English, missing or unreadable."""
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    try:
        path = files("lukfu_solver") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        with path.open("rb") as fp:
            return gettext.GNUTranslations(fp)
    except (OSError, ValueError, LookupError, TypeError, ModuleNotFoundError):
        # A missing or damaged catalogue is never fatal: the player reads English.
        return gettext.NullTranslations()


def set_language(code: str | None) -> str:
    """Make ``code`` the language of every message; None means the environment's. Returns it.

    An explicit code must be one lukfu speaks (``en``, ``ru``, ``hi``, ``es``; a locale name such
    as ``ru_RU.UTF-8`` is accepted); anything else is a NotationError naming ``lang``.
    """
    if code is None:
        chosen = language_from_env()
    else:
        found = normalize(code)
        if found is None:
            raise NotationError(
                "lang", _("unknown language {code!r}: one of {choices}").format(code=code, choices=", ".join(LANGUAGES))
            )
        chosen = found
    _state["code"] = chosen
    _state["tr"] = translations(chosen)
    return chosen


def language() -> str:
    """The code of the language in use."""
    return str(_state["code"])


@contextmanager
def using_language(code: str | None) -> Iterator[str]:
    """Set the language for a block and restore the previous one after it."""
    saved = language()
    try:
        yield set_language(code)
    finally:
        set_language(saved)


def _tr() -> gettext.NullTranslations:
    tr = _state["tr"]
    assert isinstance(tr, gettext.NullTranslations)
    return tr


def _(message: str) -> str:
    """``message`` in the language in use (itself when English or not yet translated)."""
    return _tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n``, by the language's plural rule."""
    return _tr().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` translated in ``context`` (one English word, two senses)."""
    return _tr().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (constants defined at import)."""
    return message


def NP_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for extraction without translating it now."""
    return message


SUIT_NAMES: tuple[str, ...] = (N_("Coins"), N_("Strings"), N_("Myriads"), N_("Tens"))
"""The suits in order C, S, M, T (R1), marked for translation (the notation's letters stay)."""

GLOSSARY: tuple[str, ...] = (
    NP_("term", "Old card"),
    NP_("term", "fu"),
    NP_("term", "caller"),
    NP_("term", "non-caller"),
    NP_("term", "Master"),
    NP_("term", "seat"),
    NP_("term", "claim"),
    NP_("term", "trick"),
    NP_("term", "lead"),
    NP_("term", "discard"),
    NP_("term", "single"),
    NP_("term", "set"),
    NP_("term", "run"),
    NP_("term", "pass"),
    NP_("term", "play"),
    NP_("term", "deal"),
    NP_("term", "void"),
    NP_("term", "points"),
)
"""The game's words, translated once in the context ``term`` (docs/glossary.<lang>.md lists
them); messages use the same words."""


def suit_name(suit: int) -> str:
    """The name of suit ``suit`` (0 Coins … 3 Tens) in the language in use.

    >>> with using_language("ru"):
    ...     suit_name(2)
    'Мириады'
    """
    return _(SUIT_NAMES[suit])


def term(word: str) -> str:
    """A glossary word (``"caller"``, ``"Old card"`` …) in the language in use."""
    return pgettext("term", word)


COUNTED = {
    "fu": lambda n: ngettext("{n} fu", "{n} fu", n),
    "Old card": lambda n: ngettext("{n} Old card", "{n} Old cards", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "trick": lambda n: ngettext("{n} trick", "{n} tricks", n),
    "sampled deal": lambda n: ngettext("{n} sampled deal", "{n} sampled deals", n),
    "deal": lambda n: ngettext("{n} deal", "{n} deals", n),
}
"""The counted words, each with the plural forms of the language in use (a template of ``{n}``)."""


def counted(n: int, word: str) -> str:
    """``n`` and one of the :data:`COUNTED` words in the language in use (Russian: 1 старая
    карта, 2 старые карты, 5 старых карт).

    >>> with using_language("ru"):
    ...     [counted(n, "Old card") for n in (1, 2, 5, 21)]
    ['1 старая карта', '2 старые карты', '5 старых карт', '21 старая карта']
    """
    return COUNTED[word](n).format(n=n)


NUMBER_MARKS: dict[str, tuple[str, str, int]] = {
    "en": (",", ".", 4),
    "ru": ("\u00a0", ",", 4),
    "hi": (",", ".", 4),
    "es": (".", ",", 5),
}
"""Each language's digit grouping mark, decimal mark and the fewest digits grouped (CLDR): 20,000
and 0.62; 20 000 and 0,62 (a no-break space, so a number never wraps); Spanish 20.000, 0,62 and
4000 ungrouped. Hindi groups in the Indian way: 1,00,000."""


def number(x: float, decimals: int = 0, sign: bool = False, code: str | None = None) -> str:
    """``x`` as the language in use (or ``code``) writes it, with ``decimals`` places (a ``+``
    before a positive number with ``sign``; never ``-0``). A number is rounded once, half away
    from zero on its exact value, as the page's JavaScript rounds (``toFixed``), so the terminal
    and the browser write the same digits (0.625 is 0.63 in both).

    >>> number(20000), number(-1.375, 2), number(0.5, 1, sign=True), number(0.625, 2)
    ('20,000', '-1.38', '+0.5', '0.63')
    >>> with using_language("ru"):
    ...     number(20000), number(-1.375, 2)
    ('20\xa0000', '-1,38')
    >>> with using_language("es"):
    ...     number(4000), number(20000), number(0.62, 2)
    ('4000', '20.000', '0,62')
    >>> with using_language("hi"):
    ...     number(1234567)
    '12,34,567'
    """
    code = language() if code is None else code  # another language's way: a reason said in English for --json
    group, point, fewest = NUMBER_MARKS.get(code, NUMBER_MARKS[SOURCE_LANGUAGE])
    text = rounded_text(abs(x), decimals)
    whole, _dot, part = text.partition(".")
    if len(whole) >= fewest:
        if code == "hi":  # the last three digits, then pairs
            head, tail = whole[:-3], whole[-3:]
            pairs = [head[max(0, i - 2) : i] for i in range(len(head), 0, -2)][::-1]
            whole = group.join([*pairs, tail])
        else:
            whole = f"{int(whole):,}".replace(",", group)
    out = whole + (point + part if part else "")
    if float(text) == 0:
        return ("+" if sign else "") + out
    return ("-" if x < 0 else "+" if sign else "") + out


def rounded_text(x: float, decimals: int) -> str:
    """``x`` (not negative) with ``decimals`` places, rounded half up on the float's exact
    value: the rule of JavaScript's ``toFixed``, which the page uses (Python's own formatting
    rounds a tie to even: 0.625 would be 0.62 here and 0.63 in the browser).

    >>> rounded_text(0.625, 2), rounded_text(2.5, 0), rounded_text(0.605, 2), rounded_text(1e21, 0)
    ('0.63', '3', '0.60', '1000000000000000000000')
    """
    if not math.isfinite(x):
        return f"{x}"
    return f"{Decimal(x).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP):f}"


PERCENT_FORMS: dict[str, str] = {"en": "{n}%", "ru": "{n}\u00a0%", "hi": "{n}%", "es": "{n}\u00a0%"}
"""How each language writes a percentage (CLDR): 87%; 87 % in Russian and Spanish (a no-break
space, so it never wraps)."""


def percent(p: float, code: str | None = None) -> str:
    """A probability or a share of sampled deals as a whole percentage in the language in use
    (or ``code``), never a certainty the samples cannot prove: what rounds to 0% or 100% reads
    ``<1%`` or ``>99%``. Rounded once, as :func:`number` rounds ``p * 100``, so the page's
    ``percent()`` writes the same text.

    >>> percent(0.237), percent(0.0), percent(0.004), percent(0.996), percent(1.0), percent(0.125)
    ('24%', '<1%', '<1%', '>99%', '>99%', '13%')
    >>> with using_language("ru"):
    ...     percent(0.5), percent(1.0)
    ('50\xa0%', '>99\xa0%')
    """
    code = language() if code is None else code
    form = PERCENT_FORMS.get(code, PERCENT_FORMS[SOURCE_LANGUAGE])
    whole = int(rounded_text(max(0.0, min(1.0, p)) * 100, 0))
    if whole < 1:
        return "<" + form.format(n=1)
    if whole > 99:
        return ">" + form.format(n=99)
    return form.format(n=whole)


def rate(share: float, decimals: int = 1, code: str | None = None) -> str:
    """A counted rate (a table's hit rate, a sampler's acceptance) as a percentage with
    ``decimals`` places in the language in use (or ``code``). Unlike :func:`percent` it is a
    measured fraction, not a probability estimated from samples, so 100% is printed as it is.

    >>> rate(0.349), rate(1.0, 0)
    ('34.9%', '100%')
    >>> with using_language("ru"):
    ...     rate(0.349)
    '34,9\xa0%'
    """
    code = language() if code is None else code
    form = PERCENT_FORMS.get(code, PERCENT_FORMS[SOURCE_LANGUAGE])
    return form.format(n=number(share * 100, decimals, code=code))


def seconds(x: float) -> str:
    """A duration in seconds with one decimal, in the language's words (``0.4 s``, ``0,4 с``)."""
    return _("{seconds} s").format(seconds=number(x, 1))


def take_lang_option(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without their ``--lang CODE`` / ``--lang=CODE`` (anywhere before ``--``), and the code.

    The command line accepts ``--lang`` after any command (``lukfu play --lang ru``) as well as
    before it, so the option is taken out of the arguments once, before they are parsed. A
    ``--lang`` without a value is a NotationError naming ``lang``; the last one given wins.

    >>> take_lang_option(["play", "--seed", "7", "--lang", "ru"])
    (['play', '--seed', '7'], 'ru')
    >>> take_lang_option(["--lang=es", "rules", "--", "--lang"])
    (['rules', '--', '--lang'], 'es')
    """
    rest: list[str] = []
    code: str | None = None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        if arg == "--lang":
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                raise NotationError(
                    "lang", _("--lang needs a value: one of {choices}").format(choices=", ".join(LANGUAGES))
                )
            code = args[i + 1]
            i += 2
            continue
        if arg.startswith("--lang="):
            code = arg.split("=", 1)[1]
        else:
            rest.append(arg)
        i += 1
    return rest, code


# ---------------------------------------------------------------- the marks in the page's JavaScript

KEYWORDS: dict[str, tuple[str, ...]] = {
    "_": ("msgid",),
    "N_": ("msgid",),
    "ngettext": ("msgid", "msgid_plural"),
    "pgettext": ("msgctxt", "msgid"),
    "NP_": ("msgctxt", "msgid"),
}
"""The marking functions above and what their leading arguments are, in Python and in the web
table's JavaScript alike."""
_JS_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_JS_CALL = re.compile(
    r"(?<![\w$.])(_|N_|ngettext|pgettext|NP_)\(\s*" + _JS_STRING + r"(?:\s*,\s*" + _JS_STRING + r")?"
)


def js_messages(text: str) -> list[tuple[str, dict[str, str], int]]:
    """The messages marked in JavaScript source ``text`` (double-quoted literal arguments): (function,
    its roles' values, line); lines that are comments (``//``, ``*``) are not read. The server reads
    the page's messages with it (``lukfu_web.catalogue``), the catalogues' build tool extracts them.

    >>> js_messages('t = _("Hint"); n = ngettext("{n} card", "{n} cards", k);')
    [('_', {'msgid': 'Hint'}, 1), ('ngettext', {'msgid': '{n} card', 'msgid_plural': '{n} cards'}, 1)]
    """
    found = []
    for m in _JS_CALL.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start : m.start()].lstrip().startswith(("//", "*", "/*")):
            continue
        name, first, second = m.group(1), m.group(2), m.group(3)
        roles = KEYWORDS[name]
        values = [json.loads(f'"{v}"') for v in (first, second) if v is not None]
        if len(values) < len(roles):
            continue
        found.append((name, dict(zip(roles, values[: len(roles)], strict=True)), text.count("\n", 0, m.start()) + 1))
    return found
