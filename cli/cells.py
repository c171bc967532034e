"""Terminal cells as terminals count them, for Rich's tables and wrapping.

Rich counts a spacing combining mark (Unicode category Mc: the Devanagari vowel signs ा ि ी ो …)
as no cell at all, but terminals draw it in one (glibc's ``wcwidth``, which tmux, VTE and xterm
follow, gives it 1). Every Hindi word with such a sign then measured a cell short, so a Hindi
table's columns drifted by one cell per sign. :func:`measure_like_terminals` makes Rich count
them as terminals do; non-spacing marks (Mn: virama, nukta, ``े``) stay at 0, as in ``wcwidth``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


def terminal_width(character: str) -> int:
    """The cells a terminal gives one character, as glibc's ``wcwidth`` does: 0 for a mark that
    does not space (Mn, Me) or a format character (Cf), 2 for a wide East Asian one, else 1."""
    if unicodedata.category(character) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def measure_like_terminals() -> None:
    """Make Rich measure a spacing combining mark (Mc) as one cell, as terminals draw it (once a
    process; Rich's other measures are kept)."""
    import rich.cells as cells

    if getattr(cells, "_lukfu_terminal_cells", False):
        return
    rich_size = cells.get_character_cell_size

    @lru_cache(maxsize=4096)
    def size(character: str, unicode_version: str = "auto") -> int:
        width = rich_size(character, unicode_version)
        return 1 if width == 0 and unicodedata.category(character) == "Mc" else width

    cells.get_character_cell_size = size  # type: ignore[assignment]  # the functions of rich.cells look it up by name
    cells.cached_cell_len.cache_clear()
    cells._lukfu_terminal_cells = True  # type: ignore[attr-defined]
