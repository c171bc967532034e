"""The words a player types at an interactive table (``play``, ``puzzle play``): each command in
English and in the language in use (``hint`` and ``подсказка`` both ask for a hint), a yes or a no,
and the command meant when a word is mistyped (``hlep`` → ``help``), as ``lukfu advice`` suggests
``advise``: only a command that does something at that moment (``clear`` is not answered
``claim`` when no claim is possible). The card notation stays as NOTATION.md writes it in every
language, but the one word of the notation, ``claim``, may be typed in the language's own word too."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from lukfu_solver.cards import typed_text
from lukfu_solver.i18n import NP_, _, language, pgettext

COMMAND_WORDS: dict[str, str] = {
    "hint": NP_("command", "hint"),
    "undo": NP_("command", "undo"),
    "tricks": NP_("command", "tricks"),
    "moves": NP_("command", "moves"),
    "help": NP_("command", "help"),
    "quit": NP_("command", "quit"),
    "hand": NP_("command", "hand"),
    "show": NP_("command", "show"),
    "skip": NP_("command", "skip"),
    "claim": NP_("command", "claim"),
    "play": NP_("command", "play"),
    "pass": NP_("command", "pass"),
    "yes": NP_("command", "yes"),
    "no": NP_("command", "no"),
}
"""Every word typed at a table, by its English name; each is translated in the context
``command`` (a word the player types: ``подсказка``, ``संकेत``, ``pista``)."""
ALIASES: dict[str, tuple[str, ...]] = {
    "help": ("?", "h"),
    "quit": ("q", "exit"),
    "show": ("board",),
    "yes": ("y",),
    "no": ("n",),
}
"""Short forms accepted in every language."""
LOCAL_ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "ru": {"yes": ("д",), "no": ("н",)},
    "es": {"yes": ("s", "si"), "no": ()},
    "hi": {"yes": ("हां", "हा"), "no": ()},
}
"""Short forms of one language (``д`` for ``да``; ``si`` typed without its accent)."""


def typed(name: str) -> str:
    """The word for command ``name`` in the language in use (``hint`` in English)."""
    return pgettext("command", COMMAND_WORDS[name])


def shown(name: str) -> str:
    """How a command is named in help: ``hint`` in English, ``подсказка (hint)`` in Russian."""
    word = typed(name)
    return name if word == name else f"{word} ({name})"


def words(names: Iterable[str]) -> dict[str, str]:
    """Every word that names one of ``names`` in the language in use, lower case, mapped to its
    English name: the English word, its short forms and the translation."""
    found: dict[str, str] = {}
    local = LOCAL_ALIASES.get(language(), {})
    for name in names:
        for word in (name, *ALIASES.get(name, ()), typed(name), *local.get(name, ())):
            found.setdefault(word.lower(), name)
    return found


def command_of(text: str, names: Iterable[str]) -> str | None:
    """The English name of the command ``text`` types (any case, either language), or None."""
    return words(names).get(text.strip().lower())


def is_word(text: str) -> bool:
    """Whether ``text`` is a word (``show``, ``рука``, ``हाथ``): letters only, in any script, and
    not only the notation's letters (``CS`` or ``x`` is a move begun, answered as one). A word is
    never a move, since every card has a digit, so it is answered as a word, not as a card with
    a bad character.

    >>> [is_word(w) for w in ("show", "हाथ", "C", "хС", "C7")]
    [True, True, False, False, False]
    """
    letters = text.replace(" ", "")
    if not letters or not all(unicodedata.category(ch)[0] in "LM" for ch in letters):  # a vowel sign is a mark
        return False
    return not set(typed_text(letters).upper()) <= set("CSMTX")


def meant(text: str, names: Iterable[str]) -> str:
    """`` Did you mean 'help'?`` when ``text`` looks like a mistyped one of ``names`` (the
    commands that do something now), else nothing."""
    word = suggestion(text, names)
    return " " + _("Did you mean '{word}'?").format(word=word) if word else ""


def suggestion(text: str, names: Iterable[str]) -> str | None:
    """The command a mistyped word most likely meant (``hlep`` → ``help``, ``cliam`` → ``claim``),
    in the word the player would type; None when nothing is close. Short forms are not offered."""
    word = text.strip().lower()
    if len(word) < 3:
        return None
    table = {w: n for w, n in words(names).items() if len(w) >= 3}
    close = difflib.get_close_matches(word, list(table), n=1, cutoff=0.6)
    return close[0] if close else None  # in the script the player typed in: hlep → help, подскзка → подсказка
