"""``--scheduler``: a command's batch on a Dask cluster (``docs/cluster.md``).

:func:`on_cluster` connects (or starts a ``LocalCluster``) before any work, so an unreachable
scheduler is one line and exit 2 (:class:`~lukfu_solver.parallel.SchedulerUnreachable` is a
NotationError); inside it every ``ordered_map`` of the command runs on the cluster, the compiled
kernel warmed once a worker. Progress (tasks done, workers, time left) is a bar on stderr when
it is a terminal; at the end one line on stderr says what ran. Ctrl-C cancels the pending tasks
(and stops a LocalCluster's workers); the command group exits 130.

Dask is imported only here, and only when the option is given.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from lukfu_solver.i18n import _

from .output import bad_usage, note
from .progress import progress_bar

if TYPE_CHECKING:
    from lukfu_solver.parallel.cluster import Cluster, Progress


def kernel_warmup() -> None:
    """Load (or compile) the compiled kernel: run once in each worker process, never a task."""
    from lukfu_solver.search.compiled import prepare_kernel

    prepare_kernel()


def check_scheduler(scheduler: str | None, jobs: int = 1) -> None:
    """Reject a malformed ``--scheduler`` and its use beside ``--jobs`` (one line, exit 2)."""
    if scheduler is None:
        return
    from lukfu_solver.parallel import parse_scheduler

    parse_scheduler(scheduler)
    if jobs != 1:
        raise bad_usage("jobs", "--jobs and --scheduler exclude each other (the cluster's workers do the work)")


def progress_words(p: Progress) -> str:
    """The bar's text: ``tasks 3/8 · 2 workers · 4 s left``."""
    left = "" if p.remaining is None else f" · {p.remaining:.0f} s left"
    return f"tasks {p.tasks_done}/{p.tasks_submitted} · {p.workers} worker{'s' if p.workers != 1 else ''}{left}"


@contextlib.contextmanager
def on_cluster(
    scheduler: str | None, description: str, total: int | None = None, warm: bool = True, bar: bool = True
) -> Iterator[Cluster | None]:
    """Run the block's batch work on the cluster ``scheduler`` names (None: as before, yield
    None). ``description`` and ``total`` label the progress bar (``bar`` false: the command has
    its own); ``warm``: warm the compiled kernel on every worker first."""
    if scheduler is None:
        yield None
        return
    from lukfu_solver.parallel import connect, using

    cluster = connect(scheduler, warmup=kernel_warmup if warm else None)
    note(_("cluster {cluster}").format(cluster=cluster))
    with contextlib.ExitStack() as stack:
        stack.enter_context(cluster)  # closes it; after an exception, aborts it
        stack.enter_context(using(cluster))
        shown = progress_bar("{task.fields[words]}") if bar else None
        if shown is not None:
            stack.enter_context(shown)
            task = shown.add_task(description, total=total, words="")

            def update(p: Progress) -> None:
                shown.update(task, completed=p.items_done, total=p.items_total, words=progress_words(p))

            cluster.progress = update
        yield cluster
    note(_("cluster {spec}: {summary}").format(spec=cluster.spec, summary=cluster.stats.summary()))
