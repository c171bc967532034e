"""The review of a finished deal for the table: the one place the web app meets the library's
game review (``lukfu review``, ``lukfu_solver.analysis.review_work``), so the screen depends on
this small interface only.

:func:`review_data` runs in a worker: it reviews the person's decisions
(``review_record(record, ReviewSettings(seats=(seat,)), progress=…)``, the same numbers as
``lukfu review RECORD --seat S``) and hands the screen :func:`table_review` of the review's JSON:

``{"seat": S, "decisions": [{"index", "call", "seat", "played", "best", "loss", "error",
"verdict", "luck", "exact_before", "exact_after", "cost", "better"}], "graph": [{"label",
"trick", "view", "exact"}], "summary": {…}}``

``index`` is the play's place in the record's ``plays`` (None for the call), ``loss`` the points
the move lost against the best from the seat's view (``error`` its standard error), ``verdict``
``inaccuracy``, ``mistake``, ``blunder`` or null, ``luck`` ``lucky``/``unlucky`` or null;
``graph`` the caller's expected result through the deal from the seat's view and with every card
seen. Where this lukfu has no review yet, :func:`available` is False and the table says so.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

REVIEW_MODULE = "lukfu_solver.analysis.review_work"


def available() -> bool:
    """Whether this lukfu has the game review."""
    try:
        return importlib.util.find_spec(REVIEW_MODULE) is not None
    except (ImportError, ValueError):
        return False


def review_data(record_text: str, seat: int, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The review of ``seat``'s decisions in the finished deal ``record_text``, as the screen's JSON."""
    if not available():
        raise NotationError("review", _("the game review is not part of this version of lukfu yet"))
    from lukfu_solver.record import GameRecord

    work = importlib.import_module(REVIEW_MODULE)
    record = GameRecord.loads(record_text)
    review = work.review_record(record, work.ReviewSettings(seats=(seat,)), 1, progress)
    return table_review(review.to_json(), seat)


def table_review(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The screen's JSON (see the module notes) from a review's ``to_json()``: the seat's
    decisions, and the chart's points as a graph."""
    decisions = []
    for d in data.get("decisions", []):
        if d.get("seat") != seat:
            continue
        decisions.append(
            {
                "index": d.get("index"),
                "call": bool(d.get("call")),
                "seat": d["seat"],
                "played": d.get("played"),
                "best": d.get("best"),
                "loss": d.get("loss"),
                "error": d.get("loss_stderr"),
                "verdict": d.get("verdict"),
                "luck": d.get("luck"),
                "exact_before": d.get("exact_before"),
                "exact_after": d.get("exact_after"),
                "cost": d.get("cost"),
                "better": d.get("better"),
            }
        )
    summary = data.get("summary", {})
    points = summary.get("chart", {}).get("points", [])
    graph = [{"label": p.get("label"), "trick": p.get("trick"), "view": p.get("seat_view"), "exact": p.get("exact")} for p in points]
    return {"seat": seat, "decisions": decisions, "graph": graph, "summary": {"seats": summary.get("seats", [])}}
