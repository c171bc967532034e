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
    exactly as ``lukfu play``'s hint computes it, as its JSON data
    (:meth:`~lukfu_solver.analysis.hint.Hint.to_json`): at the call the answer ``lukfu advise HAND
    --seat S --seed N --against A --json`` gives, its values calibrated ``against`` the table's
    opponents and its reasons said in the reader's language; in play the best few moves with
    their points, ± and the chance the caller loses, and one line on the rest."""
    from lukfu_solver.analysis.hint import hint as run_hint
    from lukfu_solver.view import SeatView

    return run_hint(SeatView.parse(view_text), level, seed, infer=infer, progress=progress, against=against).to_json()
