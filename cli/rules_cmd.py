"""``rules``: the English rules shipped inside the package."""

from __future__ import annotations

import sys
from importlib.resources import files

from .common import stdout_console


def rules_text() -> str:
    """The text of ``lukfu_solver/data/RULES.md``."""
    return (files("lukfu_solver") / "data" / "RULES.md").read_text(encoding="utf-8")


def rules() -> None:
    """Print the rules this engine implements (R1-R17, M1-M2).

    Rendered as Markdown on a terminal; plain text when piped or redirected.
    """
    text = rules_text()
    if sys.stdout.isatty():
        from rich.markdown import Markdown

        stdout_console().print(Markdown(text))
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
