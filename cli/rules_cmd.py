"""``rules``: the rules shipped inside the package, in English or in a seed language.

``lukfu_solver/data/RULES.md`` is the reference; ``RULES.ru.md``, ``RULES.hi.md`` and
``RULES.es.md`` are its translations, rule for rule (R1–R17, M1–M2). A language without its own
file reads the English text.
"""

from __future__ import annotations

import sys
from importlib.resources import files

from lukfu_solver.i18n import SOURCE_LANGUAGE, language

from .output import stdout_console


def rules_text(lang: str | None = None) -> str:
    """The rules in ``lang`` (default: the language in use), English when there is no translation."""
    code = language() if lang is None else lang
    data = files("lukfu_solver") / "data"
    if code != SOURCE_LANGUAGE:
        translated = data / f"RULES.{code}.md"
        if translated.is_file():
            return translated.read_text(encoding="utf-8")
    return (data / "RULES.md").read_text(encoding="utf-8")


def rules() -> None:
    """Print the rules this engine implements (R1-R17, and the scoring M1-M2), in English, Russian, Hindi or Spanish.

    The language is lukfu's (``--lang``, else LANGUAGE/LC_ALL/LANG). Rendered as Markdown on a
    terminal; plain text when piped or redirected.
    """
    text = rules_text()
    if sys.stdout.isatty():
        from rich.markdown import Markdown

        stdout_console().print(Markdown(text))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
