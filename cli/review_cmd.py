"""``review``: every decision of a played deal, costed in points (``docs/review.md``).

One record: :func:`lukfu_solver.analysis.review_work.review_record`, rendered by
:mod:`.review_render` (or ``--json``: the review's own JSON object). ``--batch DIR_OR_FILE``:
many records, one JSON object a line in input order, over ``--jobs`` processes or a Dask cluster
(``--scheduler``), through the library's one ordered map. The library is imported inside the
command, so ``lukfu --help`` stays instant.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from lukfu_solver.i18n import _, ngettext
from lukfu_solver.inputs import check_seed

from .analyse_cmd import JobsOpt
from .batch import STDIN, read_lines
from .options import JsonOpt, SchedulerOpt, check_seat, one_source
from .output import bad_usage, emit_json, error_text, note, stdout_console
from .progress import prepare_solver, progress_callbacks, with_progress
from .scheduling import check_scheduler, on_cluster

if TYPE_CHECKING:
    from lukfu_solver.analysis.review_work import RecordItem, ReviewSettings

SamplesOpt = Annotated[
    int | None,
    typer.Option(
        "--samples",
        metavar="N",
        help="Sampled deals of each decision (every move weighed on the same deals). Default: 24 (with --level "
        "the hint's), or with --time as many as it allows, at most 48.",
        show_default=False,
    ),
]
MaxNodesOpt = Annotated[
    int | None,
    typer.Option(
        "--max-nodes",
        metavar="N",
        help="Stop each solve of a play's sampled deals after N positions (0: no limit); a solve stopped "
        "early counts an estimate. Default: 100,000 (the call's: 2,000,000; with --level the hint's).",
        show_default=False,
    ),
]
TimeOpt = Annotated[
    float | None,
    typer.Option(
        "--time",
        metavar="SECONDS",
        help="Think SECONDS about each decision instead of a fixed number of sampled deals (the review then "
        "depends on the machine's speed).",
        show_default=False,
    ),
]


def review(
    record: Annotated[
        str | None,
        typer.Argument(
            metavar="RECORD.json", help="A game record (JSON), as play and match save them.", show_default=False
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", metavar="SEAT", help="Review only this seat's decisions (0, 1 or 2).", show_default=False
        ),
    ] = None,
    json_: JsonOpt = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="SEED",
            help="Seed of the sampled deals: the same seed, the same review. Default: the record's, the seed "
            "the hints of lukfu play used.",
            show_default=False,
        ),
    ] = None,
    level: Annotated[
        int | None,
        typer.Option(
            "--level",
            metavar="LEVEL",
            help="Weigh each decision as the in-game hint at LEVEL (1-5) weighs it: with the record's seed, the "
            "very numbers the hints of lukfu play showed.",
            show_default=False,
        ),
    ] = None,
    samples: SamplesOpt = None,
    max_nodes: MaxNodesOpt = None,
    budget: TimeOpt = None,
    infer: Annotated[
        bool,
        typer.Option(
            "--infer",
            help="Weigh each play's sampled deals by how likely the other seats' calls and plays are in them "
            "(an opponent model; docs/inference.md).",
        ),
    ] = False,
    jobs: JobsOpt = 1,
    batch: Annotated[
        str | None,
        typer.Option(
            "--batch",
            metavar="DIR_OR_FILE",
            help="Review many records: every *.json of a directory (by name), or a file with one record a "
            "line (its JSON, or a path to it; '-' is standard input).",
            show_default=False,
        ),
    ] = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Review a played deal: every decision with more than one choice (the call, every lead,
    beating play, discard and claim), judged from the seat's own view and with all cards seen.

    From the seat's own view: the points to expect from each move weighed (every legal move; at
    a discard the sensible ones and the one played) over sampled deals that fit what it had
    seen, as the hint, `analyse` and `advise` give them, so the points the move played lost
    against the best, ± its error (both valued on the same deals). With all cards seen: the
    caller's result before and after the move (as `solve` gives it), so what the move cost. A
    move is an inaccuracy (?!), a mistake (?) or a blunder (??) only when its loss reaches 1, 2
    or 4 points (for a non-caller, whose share is half the caller's: 0.5, 1 or 2) and is more
    than twice its error; a loss within twice its error is within error of the best, never
    called worse. Unlucky: its own view finds no fault but it cost a mistake's worth with all
    cards seen; lucky the other way round. Where a move cost something with all cards seen, the
    move that does better there is shown with the line that follows it, trick by trick.

    The summary comes first: each seat's points lost a decision, its verdicts, its moves within
    error of the best and its luck, the turning points and a chart of the caller's result after
    each trick. Each decision takes 24 sampled deals (--samples), each solve stopping after
    100,000 positions (--max-nodes; the call's 2,000,000): with the record's seed (the default)
    the deals the hint at level 3 weighs, each solved at least as far; --level LEVEL weighs each
    decision as the hint at LEVEL does, so the review gives the hints' numbers. A seed gives the
    same review on any machine and with any --jobs; --time SECONDS thinks about each decision
    for a set time instead. A progress bar is shown on stderr on a terminal. --json prints one
    object (`{"format", "record", "settings", "thresholds", "decisions", "summary", "solves",
    "seconds", "cpu_seconds"}`; every key in docs/review.md). --batch DIR_OR_FILE reviews many
    records, one such object a line in input order (`{"file"|"line", "error"}` for a bad one),
    over --jobs processes or a Dask cluster (--scheduler).
    """
    from lukfu_solver.analysis.defaults import check_options

    check_options(samples, jobs, max_nodes, None, budget)
    if seed is not None:
        check_seed(seed)
    check_scheduler(scheduler, jobs)
    seats = (0, 1, 2) if seat is None else (check_seat(seat, "seat"),)
    from lukfu_solver.analysis.review_work import ReviewSettings
    from lukfu_solver.analysis.work import hint_work

    if level is not None:
        hint_work(level)  # a bad level: the one-line error
    settings = ReviewSettings(seed, samples, max_nodes, None, budget, infer, seats, level)
    if batch is not None:
        one_source(record, batch, "RECORD.json", "--batch DIR_OR_FILE")
        if scheduler is None:
            prepare_solver()
        run_review_batch(batch, settings, jobs, scheduler)
        return
    if scheduler is not None:
        raise bad_usage("scheduler", _("--scheduler applies to --batch only"))
    if record is None:
        raise bad_usage("RECORD.json", _("give a record file, or --batch DIR_OR_FILE"))
    review_one(record, settings, jobs, json_)


def review_one(path: str, settings: ReviewSettings, jobs: int, json_: bool) -> None:
    """Review one record file and print it (words, or ``--json``)."""
    from lukfu_solver.analysis.review_work import review_record
    from lukfu_solver.record import GameRecord

    rec = GameRecord.load(path)
    rec.replay()  # the record reader's one-line error before any work
    prepare_solver()
    with progress_callbacks() as bar:
        result = review_record(rec, settings, jobs, progress=bar(_("reviewing")))
    if json_:
        emit_json(result.to_json())
        return
    from .review_render import review_renderables

    console = stdout_console()
    for part in review_renderables(result):
        console.print(part)


def batch_items(path: str) -> Iterator[RecordItem]:
    """The records of ``--batch``: a directory's ``*.json`` by name, or a file's lines (a record's
    JSON, or a path to a record file)."""
    from lukfu_solver.analysis.review_work import directory_items, load_item, parse_item

    if path != STDIN and os.path.isdir(path):
        yield from directory_items(path)
        return
    for n, text in read_lines(path):
        line = text.strip()
        if line.startswith("{"):
            yield parse_item({"line": n}, line)
        else:
            yield load_item({"line": n, "file": line}, line)


def run_review_batch(path: str, settings: ReviewSettings, jobs: int, scheduler: str | None) -> None:
    """Review every record of ``path``, one JSON object a line in input order."""
    from lukfu_solver.analysis.review_work import review_many

    items = list(batch_items(path))
    reviewed = errors = 0
    with on_cluster(scheduler, "reviewing", len(items)) as cluster:
        results = review_many(items, settings, jobs, scheduler=cluster, total=len(items))
        shown = results if cluster is not None else with_progress(results, len(items), _("reviewing"))
        for obj in shown:
            if "error" in obj:
                obj["error"] = error_text(obj["error"])
                errors += 1
            else:
                reviewed += 1
            emit_json(obj)
    if sys.stderr.isatty():
        words = ngettext(
            "{n} record reviewed, {errors} with errors", "{n} records reviewed, {errors} with errors", reviewed
        )
        note(words.format(n=reviewed, errors=errors))
