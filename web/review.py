"""The review of a finished deal for the table: the one place the web app meets the library's
game review (``lukfu review``), so the screen depends on this small interface only.

:func:`review_data` runs in a worker and returns the JSON the review screen draws:

``{"seat": S, "decisions": [{"index", "seat", "played", "best", "loss", "error", "verdict",
"exact_before", "exact_after"}], "graph": [{"index", "trick", "view", "exact"}], "summary": {…}}``

``index`` is the play's place in the record's ``plays`` (``-1`` for the call), ``loss`` the
points the move lost against the best from the seat's view (``error`` its standard error),
``verdict`` one of ``inaccuracy``, ``mistake``, ``blunder``, ``lucky``, ``unlucky`` or null;
``graph`` the caller's expected result after each trick from the seat's view and with every card
seen. When the library has no review yet, :func:`available` is False and the table says so.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

REVIEW_MODULE = "lukfu_solver.analysis.review"


def available() -> bool:
    """Whether this lukfu has the game review."""
    try:
        return importlib.util.find_spec(REVIEW_MODULE) is not None
    except (ImportError, ValueError):
        return False


def review_data(record_text: str, seat: int, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The review of the finished deal ``record_text`` for ``seat``, as the screen's JSON."""
    if not available():
        raise NotationError("review", _("the game review is not part of this version of lukfu yet"))
    module = importlib.import_module(REVIEW_MODULE)
    adapt = getattr(module, "review_for_table", None)
    if adapt is None:
        raise NotationError("review", _("the game review is not part of this version of lukfu yet"))
    return dict(adapt(record_text, seat, progress=progress))
