"""What the table's worker processes run: an engine's move, the hint (at the call: the advice),
the review. Each is a plain function of picklable arguments returning JSON data, run by
:class:`~lukfu_solver.parallel.tasks.TaskPool` in the language of the request that asked (so
the words it returns are already the reader's). Nothing here imports the web stack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lukfu_solver.session import EngineTask, engine_answer

Progress = Callable[[int, int], None] | None


def warm() -> None:
    """Run once in every worker as it starts: import the players and the solver, so the first
    engine move or hint does not wait for the imports (a compiled kernel is loaded from its cache)."""
    import lukfu_solver.analysis.hint  # noqa: F401
    from lukfu_solver.search.compiled import prepare_kernel
    from lukfu_solver.search.warmup import kernel_ready

    if kernel_ready():
        prepare_kernel()


def engine_move(task: EngineTask) -> str:
    """The engine's answer to ``task`` (:func:`lukfu_solver.session.engine_answer`)."""
    return engine_answer(task)


def hint(
    view_text: str, level: int, seed: int, infer: bool = False, against: str = "strong", progress: Progress = None
) -> dict[str, Any]:
    """The one hint (:func:`lukfu_solver.analysis.hint.hint`) for the seat view ``view_text``,
    exactly as ``lukfu play``'s hint computes it, as JSON data: at the call the advice (the answer
    ``lukfu advise HAND --seat S --seed N`` gives: play and pass, the recommendation, its reasons,
    the chart of calling's outcomes; its values calibrated ``against`` the table's opponents); in play the best few moves (:meth:`Hint.top`) with their
    points, ± and the chance the caller loses, and one line on the rest (:meth:`Hint.untold`)."""
    from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES
    from lukfu_solver.analysis.hint import hint as run_hint
    from lukfu_solver.view import SeatView

    view = SeatView.parse(view_text)
    h = run_hint(view, level, seed, infer=infer, progress=progress, against=against)
    if h.advice is not None:
        return {"kind": "call", **advice_data(h.advice, ADVICE_MAX_NODES)}
    a = h.decision
    assert a is not None
    moves = [
        {
            "move": str(m.move),
            "points": round(m.value, 3),
            "stderr": round(m.stderr, 3),
            "caller_loses": round(m.p_caller_loses, 3) if m.values else None,
        }
        for m in h.top()
    ]
    return {
        "kind": "play",
        "level": level,
        "seed": seed,
        "samples": a.samples,
        "best": str(a.best),
        "moves": moves,
        "untold": h.untold(),
        "weighed": len(a.moves),
        "seconds": round(h.seconds, 2),
        "you_are_caller": view.seat == view.caller,
    }


def advice_data(adv: Any, max_nodes: int) -> dict[str, Any]:
    """An :class:`~lukfu_solver.analysis.advice.Advice` as JSON data, its reasons said in the
    language in use; ``command`` is the ``lukfu advise`` line that gives the same answer (with
    its own default budget, as the hint thinks)."""
    from lukfu_solver.analysis.defaults import advice_budget
    from lukfu_solver.analysis.reasons import said
    from lukfu_solver.cards import format_cards

    _n, budget = advice_budget(None, None, adv.seat)

    return {
        "hand": format_cards(adv.hand),
        "seat": adv.seat,
        "play": {"mean": round(adv.play.mean, 3), "stderr": round(adv.play.stderr, 3)},
        "pass": {"mean": round(adv.pass_.mean, 3), "stderr": round(adv.pass_.stderr, 3)},
        "p_play_better": round(adv.p_play_better, 3),
        "recommendation": adv.recommendation,
        "reason": said(adv.reason),
        "reasons": [said(r) for r in adv.reasons],
        "outcomes": [[points, count] for points, count in sorted(adv.outcomes.items())],
        "p_caller_loses": round(adv.p_caller_loses, 3),
        "samples": adv.samples,
        "solves": adv.solves,
        "incomplete": adv.incomplete,
        "seed": adv.seed,
        "seconds": round(adv.seconds, 2),
        "max_nodes": max_nodes,
        "budget_seconds": budget.seconds if budget is not None else None,
        "against": adv.against,
        "uncalibrated": None
        if adv.uncalibrated is None
        else {"play": round(adv.uncalibrated[0], 3), "pass": round(adv.uncalibrated[1], 3)},
        "command": f"lukfu advise {format_cards(adv.hand)} --seat {adv.seat} --seed {adv.seed}"
        + (f" --against {adv.against}" if adv.against not in (None, "strong") else ""),
    }
