"""The review of a finished deal for the table: the library's game review
(:func:`lukfu_solver.analysis.review_work.review_record`, what ``lukfu review`` prints) of the
person's decisions, shaped for the screen.

:func:`review_data` runs in a worker (with progress, cancellable like any job): it reviews the
person's seat (``ReviewSettings(seats=(seat,))``, the same numbers as ``lukfu review RECORD --seat
S`` with the same options) and hands the screen :func:`table_review` of the review's ``to_json()``:

``{"seat": S, "caller", "decisions": [{"index", "call", "seat", "kind", "played", "best", "loss",
"error", "within_error", "verdict", "luck", "trick", "samples", "mean", "exact_before",
"exact_after", "exact", "exact_best", "cost", "better"}], "graph": [{"label", "trick", "view",
"exact"}], "caller", "summary": {"seats", "turning_points"}, "hint_words", "command", "seconds"}``

``index`` is the play's place in the record's ``plays`` (None for the call), ``loss`` the points
the move lost against the best from the seat's view (``error`` its standard error,
``within_error`` whether the loss is within it: never worded as worse; ``mean`` the played move's
expected points over ``samples`` sampled deals), ``verdict``
``inaccuracy``, ``mistake``, ``blunder`` or null, ``luck`` ``lucky``/``unlucky`` or null;
``graph`` the seat's own expected points through the deal (the caller's result for the caller, a
defender's share, minus half of it, for a defender: the library's convention for a defender's
points), from the seat's view and with every card seen; ``turning_points`` index into
``decisions``. ``better``, where the move cost something with all cards seen, is the move that
does better with all cards seen and its line, also laid out by trick (:func:`line_tricks`), as
the terminal tells it: ``better["tricks"]`` in the game state's trick shape, each with its
``number``, the ``claim`` that ends it if any, and ``before``, the plays of its first trick made
before the move. ``hint_words`` says how the review's work compares with the hints' at the
table's level (``Review.hint_words``), in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

OPTIONS = ("samples", "max_nodes", "time")
"""What a review request may set, as ``lukfu review``'s ``--samples``, ``--max-nodes`` and ``--time``."""


def review_options(body: dict[str, Any]) -> dict[str, Any]:
    """The review options of a request body, checked with the bounds ``lukfu review`` checks its
    options with (``docs/limits.md``; a NotationError naming the field): ``samples`` (1 to
    :data:`~lukfu_solver.inputs.MAX_SAMPLES`), ``max_nodes`` (0: no limit, to
    :data:`~lukfu_solver.inputs.MAX_NODES`), ``time`` (seconds a decision, more than 0, to
    :data:`~lukfu_solver.inputs.MAX_SECONDS`)."""
    from lukfu_solver.inputs import MAX_NODES, MAX_SAMPLES, check_int, check_seconds

    unknown = sorted(set(body) - set(OPTIONS))
    if unknown:
        raise NotationError("body", _("unknown key {key}").format(key=repr(unknown[0])[:40]))
    samples = body.get("samples")
    max_nodes = body.get("max_nodes")
    seconds = body.get("time")
    if samples is not None:
        samples = check_int(samples, "samples", 1, MAX_SAMPLES)
    if max_nodes is not None:
        max_nodes = check_int(max_nodes, "max_nodes", 0, MAX_NODES)
    if seconds is not None:
        seconds = check_seconds(seconds, "time")
    return {"samples": samples, "max_nodes": max_nodes, "time": seconds}


def command_line(seat: int, options: dict[str, Any]) -> str:
    """The ``lukfu review`` line that gives the same review of the downloaded record."""
    line = f"lukfu review RECORD.json --seat {seat}"
    for key, flag in (("samples", "--samples"), ("max_nodes", "--max-nodes"), ("time", "--time")):
        if options.get(key) is not None:
            line += f" {flag} {options[key]}"
    return line


def review_data(
    record_text: str,
    seat: int,
    options: dict[str, Any],
    level: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in the finished deal ``record_text``, as the screen's
    JSON; ``options`` as :func:`review_options` gives them; ``level``: the table's, whose hints
    the review's words compare its work with (None: the default level)."""
    from lukfu_solver.analysis.review_work import ReviewSettings, review_record
    from lukfu_solver.record import GameRecord

    record = GameRecord.loads(record_text)
    settings = ReviewSettings(
        samples=options.get("samples"),
        max_nodes=options.get("max_nodes"),
        budget=options.get("time"),
        seats=(seat,),
        hints=level,
    )
    review = review_record(record, settings, 1, progress)
    data = table_review(review.to_json(), seat)
    data["command"] = command_line(seat, options)
    data["seconds"] = round(review.seconds, 1)
    return data


def table_review(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The screen's JSON (see the module notes) from a review's ``to_json()``: the seat's
    decisions, and the chart's points as a graph."""
    decisions = []
    kept: dict[int, int] = {}  # the review's decision index -> the screen's
    for i, d in enumerate(data.get("decisions", [])):
        if d.get("seat") != seat:
            continue
        kept[i] = len(decisions)
        decisions.append(
            {
                "index": d.get("index"),
                "call": bool(d.get("call")),
                "seat": d["seat"],
                "kind": d.get("kind"),
                "played": d.get("played"),
                "best": d.get("best"),
                "loss": d.get("loss"),
                "error": d.get("loss_stderr"),
                "within_error": d.get("within_error", True),
                "verdict": d.get("verdict"),
                "luck": d.get("luck"),
                "trick": d.get("trick"),
                "samples": d.get("samples"),
                "mean": next((m.get("mean") for m in d.get("moves", []) if m.get("move") == d.get("played")), None),
                "exact_before": d.get("exact_before"),
                "exact_after": d.get("exact_after"),
                "exact": d.get("exact"),
                "exact_best": d.get("exact_best"),
                "cost": d.get("cost"),
                "better": _better(d.get("better"), 1 if d.get("call") else d.get("trick") or 1),
            }
        )
    summary = data.get("summary", {})
    points = summary.get("chart", {}).get("points", [])
    caller = data.get("record", {}).get("caller")
    own = (lambda v: v) if caller == seat else (lambda v: -v / 2)  # a defender's share of the caller's result
    graph = [
        {
            "label": p.get("label"),
            "trick": p.get("trick"),
            "view": None if p.get("seat_view") is None else own(p["seat_view"]),
            "exact": None if p.get("exact") is None else own(p["exact"]),
        }
        for p in points
    ]
    turning = [kept[i] for i in summary.get("turning_points", []) if i in kept]
    return {
        "seat": seat,
        "caller": caller,
        "decisions": decisions,
        "graph": graph,
        "summary": {"seats": summary.get("seats", []), "turning_points": turning},
    }


def _better(better: dict[str, Any] | None, first: int) -> dict[str, Any] | None:
    """The review's better move and line, with the line laid out by trick (:func:`line_tricks`)."""
    if not better:
        return better
    out = dict(better)
    if better.get("start") and better.get("line"):
        out.update(line_tricks(better["start"], better["line"], first))
    return out


def line_tricks(start: str, line: list[str], first: int) -> dict[str, Any]:
    """A line of play from the position ``start``, trick by trick as the rules play it out:
    ``tricks`` (the game state's trick shape, :meth:`~lukfu_solver.history.Trick.table_json`, with
    its ``number`` counted from ``first``), the ``claim`` that ends it (``seat``, ``fu``, ``old``,
    ``total``) or None, and ``before``: how many plays of the first trick came before the line."""
    from lukfu_solver.history import Claim, Trick
    from lukfu_solver.plays import CLAIM, Play
    from lukfu_solver.position import Position

    pos = Position.parse(start)
    before = len(pos.trick)
    leader, plays = pos.leader, list(pos.trick)
    tricks: list[dict[str, Any]] = []
    claim = None
    for text in line:
        move = Play.parse(text)
        if move.kind == CLAIM:
            s = pos.to_move
            claim = Claim(s, pos.fu[s], pos.old_cards(s), pos.claim_total()).to_json(pos.caller)
            break
        pos.push(move)
        plays.append(move)
        if not pos.trick:  # complete (R10): the winner leads next
            trick = Trick.of(leader, plays)
            tricks.append({"number": first + len(tricks), **trick.table_json()})
            leader, plays = pos.leader, []
    if plays:
        tricks.append({"number": first + len(tricks), **Trick.of(leader, plays).table_json()})
    return {"tricks": tricks, "claim": claim, "before": before}
