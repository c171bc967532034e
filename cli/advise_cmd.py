"""``advise``: call or pass for a freshly dealt hand (PIMC, ``docs/pimc.md``), one hand or, with
``--batch FILE``, one hand a line: the hands spread over ``--jobs`` processes or a Dask cluster
(``--scheduler``, ``docs/cluster.md``), one JSON object a line in input order.

The rendering and the options it shares with ``analyse`` live in :mod:`.analyse_cmd`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, advice_budget, check_options, make_limits, parse_hand
from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _
from lukfu_solver.inputs import check_seed

from .analyse_cmd import (
    AdviseSamplesOpt,
    JobsOpt,
    MaxNodesOpt,
    SeedOpt,
    SolveTimeOpt,
    TimeOpt,
    VerboseOpt,
    hand_table,
    timed_progress,
)
from .analyse_words import advice_lines
from .batch import count_lines, error_object, read_lines
from .options import AgainstOpt, BatchOpt, DealOpt, JsonOpt, SchedulerOpt, one_source
from .options import hand_text as given_or_dealt
from .output import bad_usage, emit_json, stdout_console
from .progress import prepare_solver, with_progress
from .render import legend
from .scheduling import check_scheduler, on_cluster

if TYPE_CHECKING:
    from lukfu_solver.analysis.moves import SolveLimits


def advise_line(
    item: tuple[int, str],
    seat: int | None,
    samples: int | None,
    seed: int,
    budget: float | None,
    limits: SolveLimits,
    evidence: bool,
    against: str = "strong",
) -> dict[str, Any]:
    """Answer one ``advise --batch`` line ``(number, "HAND [SEAT]")`` in this process (``seat``:
    the seat of a line without one): its advice object, or its error object."""
    from lukfu_solver.analysis.advice import advise as run_advice

    n, text = item
    fields = text.split()
    try:
        if len(fields) > 2:
            raise NotationError("line", f"expected HAND or HAND SEAT, got {len(fields)} fields")
        if len(fields) == 2 and not fields[1].isdigit():
            raise NotationError("seat", f"a seat is 0, 1 or 2, got {fields[1]!r}")
        hand, s = parse_hand(fields[0], int(fields[1]) if len(fields) == 2 else seat)
    except NotationError as err:
        return error_object(n, err)
    count, stop = advice_budget(samples, budget, s)
    return run_advice(hand, s, count, seed, 1, limits, budget=stop, against=against).answer_json(limits, evidence)


def run_advise_batch(path: str, seat: int | None, jobs: int, scheduler: str | None, **request: Any) -> None:
    """Advise every hand of ``path``, one JSON object a line in input order: the hands spread over
    ``jobs`` processes or the cluster ``scheduler`` names, each hand's samples in one process
    (the same answers; ``request``: :func:`advise_line`'s ``samples``, ``seed``, ``budget``,
    ``limits``, ``evidence`` and ``against``)."""
    from lukfu_solver.parallel import ordered_map

    lines = read_lines(path)
    total = count_lines(path)
    work = functools.partial(advise_line, seat=seat, **request)
    with on_cluster(scheduler, "advising", total) as cluster:
        results = ordered_map(work, lines, jobs, scheduler=cluster, total=total)
        for obj in results if cluster is not None else with_progress(results, total, "advising"):
            emit_json(obj)


def advise(
    hand_text: Annotated[
        str | None,
        typer.Argument(
            metavar="HAND", help="A dealt hand of 12 cards, e.g. C19S345M2789T189 (or --deal SEED).", show_default=False
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            metavar="SEAT",
            help="Required. 0: the Master, deciding first; 1: the Master passed; 2: both before you passed.",
            show_default=False,
        ),
    ] = None,
    samples: AdviseSamplesOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    json_: JsonOpt = False,
    evidence: Annotated[
        bool,
        typer.Option(
            "--evidence", help="Also estimate over only the samples in which the seats before you would have passed."
        ),
    ] = False,
    budget: TimeOpt = None,
    max_nodes: MaxNodesOpt = None,
    solve_time: SolveTimeOpt = None,
    deal: DealOpt = None,
    against: AgainstOpt = "strong",
    batch: BatchOpt = None,
    scheduler: SchedulerOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Call or pass: the points to expect from playing a freshly dealt hand, and from passing.

    Each sample deals the 24 cards you cannot see to the other seats and plays the deal out
    perfectly with you as the caller (play); for pass, a later seat calls when its Old cards + sets +
    runs reach 5 and you score as a non-caller, or nobody calls and the cards are dealt again (0).
    Points are your net points. It prints both estimates ± standard error, the advice with the
    chance that playing is better, and a short reason; --evidence adds the estimates over only the
    samples in which the seats before you would have passed (seats 1 and 2).

    By default it thinks for 0.8 s (3 s for the Master; --time), stopping sooner once playing or
    passing is clearly better (the gap 3 standard errors from 0, after at least 8 samples), and says
    in a sentence what its numbers rest on: the sampled deals played out (how many estimated), those
    played out quickly and the learned model's first answer (--verbose: in full, with the model's own
    answer and its measured error).
    --samples N fixes the work (exactly N samples, the same output for a seed on any machine and any
    --jobs). Each solve stops after 16,000,000 nodes (--max-nodes; 0: no limit); a solve stopped
    early counts an estimate, the middle of what it had proven, and the output says how many were.
    --jobs gives the same answer sooner; measured times: docs/pimc.md. A progress bar is shown on
    stderr on a terminal. --json: `{"hand", "seat", "old", "sets", "runs", "sure_fu", "call_score",
    "play": {"mean", "stderr", "n"}, "pass", "p_play_better", "recommendation", "reason", "samples",
    "seed", "solves", "incomplete", "limits", "seconds"}` and `"evidence": {"kept", "play", "pass",
    "recommendation"}` with --evidence.

    --batch FILE advises one hand a line (`HAND`, or `HAND SEAT` to override --seat), one --json
    object a line out in the same order (`{"line", "error"}` for a bad line); the hands are spread
    over --jobs processes or, with --scheduler tcp://HOST:PORT or local:N, a Dask cluster
    (docs/cluster.md). With --samples N the lines are the same (`seconds` aside) wherever they ran;
    by default each answer depends on the machine's speed.
    """
    from lukfu_solver.analysis.advice import advise as run_advice
    from lukfu_solver.analysis.calibration import check_against

    check_options(samples, jobs, max_nodes, solve_time, budget)
    against = check_against(against)
    check_seed(seed)
    check_scheduler(scheduler, jobs)
    if batch is not None:
        one_source(hand_text or deal, batch, "HAND")
        limits = make_limits(max_nodes, solve_time, ADVICE_MAX_NODES)
        if scheduler is None:
            prepare_solver()
        request = {
            "samples": samples,
            "seed": seed,
            "budget": budget,
            "limits": limits,
            "evidence": evidence,
            "against": against,
        }
        run_advise_batch(batch, seat, jobs, scheduler, **request)
        return
    if scheduler is not None:
        raise bad_usage("scheduler", _("--scheduler applies to --batch only"))
    hand, s = parse_hand(given_or_dealt(hand_text, deal, seat), seat)
    prepare_solver()  # the one-time compilation announced, never inside the time budget
    limits = make_limits(max_nodes, solve_time, ADVICE_MAX_NODES)
    n, stop = advice_budget(samples, budget, s)
    with timed_progress(stop.seconds if stop else None) as bar:
        adv = run_advice(hand, s, n, seed, jobs, limits, progress=bar(_("call or pass")), budget=stop, against=against)
    if json_:
        emit_json(adv.answer_json(limits, evidence))
        return
    console = stdout_console()
    if s == 0:
        title = _("Call or pass for seat 0 (the Master, deciding first)")
    elif s == 1:
        title = _("Call or pass for seat 1 (the Master passed)")
    else:
        title = _("Call or pass for seat 2 (seats 0 and 1 passed)")
    console.print(Text(title, style="bold"))
    console.print(hand_table(hand, adv.facts.old, _("seat {seat}").format(seat=s)))
    console.print(legend())
    for line in advice_lines(adv, limits, evidence, verbose):
        console.print(line)
