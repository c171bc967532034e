"""Puzzle words in the reader's language: themes, goals and the generated titles.

A collection file stores its titles and themes in English (the file format is
language-neutral, like the notation); they are translated when shown. A generated title is
``"<Theme>: <goal>"`` (:func:`.format.default_title`); a title written by hand is shown as it is.

>>> from lukfu_solver.i18n import using_language
>>> with using_language("es"):
...     title_text("Discard choice: caller to win"), theme_text("claim timing")
('Elección del descarte: gana el llamador', 'momento de reclamar')
>>> title_text("My own title")
'My own title'
"""

from __future__ import annotations

from ..i18n import N_, _

THEME_WORDS: dict[str, str] = {
    "squeeze of Old cards": N_("squeeze of Old cards"),
    "run versus set": N_("run versus set"),
    "discard choice": N_("discard choice"),
    "claim timing": N_("claim timing"),
    "playing on for more points": N_("playing on for more points"),
}
"""Every theme of :data:`.rating.THEMES`, marked for translation."""
GOAL_WORDS: dict[str, str] = {
    "caller to win": N_("caller to win"),
    "stop the caller": N_("stop the caller"),
    "the most points": N_("the most points"),
}
"""The goal half of a generated title."""
TIER_WORDS: dict[str, str] = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
"""The difficulty tiers of :data:`.rating.TIERS` (stored in English, shown translated)."""
GOAL_NAMES: dict[str, str] = {"win": "caller to win", "stop": "stop the caller", "most": "the most points"}
"""Each goal of :data:`.goals.GOALS` in the words of a generated title (a column of ``puzzle show``)."""
ONLY_MOVE = N_("Only move")
"""The head of a generated title without a theme."""


def theme_text(theme: str) -> str:
    """A theme in the language in use (an unknown one as it is)."""
    return _(THEME_WORDS[theme]) if theme in THEME_WORDS else theme


def tier_text(tier: str) -> str:
    """A difficulty tier in the language in use (an unknown one as it is)."""
    return _(TIER_WORDS[tier]) if tier in TIER_WORDS else tier


def goal_word(goal: str) -> str:
    """A goal in words, in the language in use (``caller to win``; an unknown one as it is)."""
    return _(GOAL_WORDS[GOAL_NAMES[goal]]) if goal in GOAL_NAMES else goal


def is_generated_title(title: str) -> bool:
    """True when ``title`` is a generated one (``<Theme>: <goal>``): it says nothing the themes
    and the goal do not, so a listing can leave it out."""
    head, sep, tail = title.partition(": ")
    return bool(sep) and tail in GOAL_WORDS and (head == ONLY_MOVE or head.lower() in {t.lower() for t in THEME_WORDS})


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def title_text(title: str) -> str:
    """A puzzle title in the language in use: generated titles are translated part by part."""
    if not is_generated_title(title):
        return title
    head, _sep, tail = title.partition(": ")
    heads = {t.lower(): t for t in THEME_WORDS}
    first = _(ONLY_MOVE) if head == ONLY_MOVE else _capital(theme_text(heads[head.lower()]))
    return f"{first}: {_(GOAL_WORDS[tail])}"
