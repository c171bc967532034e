"""Batch work spread over processes or a Dask cluster (solve batches, PIMC samples, advice, matches).

One function, :func:`ordered_map`, runs every batch: ``map(fn, items)`` with results in input
order, so a seed gives the same output however the work is spread. It runs

- in this process (``jobs`` 1),
- on a pool of ``jobs`` spawned processes that start with Ctrl-C ignored, so only the parent
  reacts to it and stops the pool (a worker that dies, killed or crashed, raises
  :class:`WorkerLost` in the parent instead of leaving it waiting for ever), or
- on a Dask cluster when a scheduler is given (``scheduler=`` or :func:`using`): an address
  ``tcp://host:port`` of a running scheduler or ``local[:N]`` for a ``LocalCluster`` of N worker
  processes (:mod:`.cluster`, the only module that imports Dask, imported only then).

>>> list(ordered_map(abs, [-3, 2, -1], jobs=1))
[3, 2, 1]
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import functools
import itertools
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from ..errors import NotationError
from ..i18n import SOURCE_LANGUAGE, language, set_language, using_language
from .scheduler import ClusterLost, SchedulerSpec, SchedulerUnreachable, WorkerLost, parse_scheduler

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from .cluster import Cluster, Progress

T = TypeVar("T")
R = TypeVar("R")

DASK_HINT = "Dask is not installed: pip install 'lukfu[dask]'"


_current: contextvars.ContextVar[Cluster | None] = contextvars.ContextVar("lukfu_cluster", default=None)


CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a scheduler (and for its first worker) before giving up."""


def connect(
    scheduler: str | SchedulerSpec,
    warmup: Callable[[], object] | None = None,
    timeout: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    first_worker: float | None = None,
) -> Cluster:
    """Connect to (or start) the cluster ``scheduler`` names, at once: an unreachable scheduler
    raises :class:`SchedulerUnreachable` here, within ``timeout`` (:data:`CONNECT_TIMEOUT`)
    seconds, before any work; no Dask: a NotationError. ``warmup`` runs once on every worker
    (the compiled kernel's warm-up, say); ``progress`` is the default of the cluster's maps;
    ``first_worker`` (default ``timeout``): how long to wait for a first worker."""
    spec = parse_scheduler(scheduler) if isinstance(scheduler, str) else scheduler
    try:
        from .cluster import Cluster
    except ImportError as err:  # the optional extra is missing
        raise NotationError("scheduler", DASK_HINT) from err
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    return Cluster(spec, warmup=warmup, timeout=wait, progress=progress, first_worker=first_worker)


@contextlib.contextmanager
def using(cluster: Cluster | None) -> Iterator[Cluster | None]:
    """Within the block, every :func:`ordered_map` without a ``scheduler`` runs on ``cluster``
    (None: as asked by its ``jobs``), so a caller reaches the cluster without new arguments."""
    token = _current.set(cluster)
    try:
        yield cluster
    finally:
        _current.reset(token)


def current_cluster() -> Cluster | None:
    """The cluster set by the innermost :func:`using` block, if any."""
    return _current.get()


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's business (it terminates the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_worker(code: str) -> None:
    """Worker initializer: Ctrl-C ignored, and the parent's language, so a message made in a
    worker (a bad batch line's error) reads the same for any ``jobs``."""
    _ignore_sigint()
    set_language(code)


def _in_language(code: str, fn: Callable[[T], R], item: T) -> R:
    """``fn(item)`` in the language ``code`` (a task on a cluster's worker speaks the client's)."""
    with using_language(code):
        return fn(item)


def _ready() -> None:
    """A task that does nothing: sent once a worker so that every worker starts at once."""


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """A pool of ``jobs`` spawned workers, all started at once with Ctrl-C ignored from their very
    start (an ignored signal stays ignored across exec, so a worker still starting up cannot print
    a traceback). A ``ProcessPoolExecutor`` and not a ``multiprocessing.Pool``: when a worker dies
    the executor fails the pending work (:class:`WorkerLost`), where a ``Pool`` silently starts a
    new worker and leaves the lost task's result pending for ever."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start_worker, initargs=(language(),))
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if in_main else None
    try:
        for _i in range(jobs):  # a spawn-context executor starts a worker on each submit until ``jobs``
            pool.submit(_ready)
    finally:
        if in_main:
            signal.signal(signal.SIGINT, previous)
    return pool


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    jobs: int = 1,
    chunksize: int | None = None,
    *,
    scheduler: str | SchedulerSpec | Cluster | None = None,
    cost: Callable[[T], float] | None = None,
    total: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    warmup: Callable[[], object] | None = None,
) -> Iterator[R]:
    """``map(fn, items)`` with results in input order, streamed as each next one is ready; on any
    exception, Ctrl-C or close the work is stopped at once.

    Without a cluster (no ``scheduler`` and no :func:`using` block): in this process when
    ``jobs`` is 1, else over ``jobs`` processes, ``chunksize`` (None: 1) items a task. On a cluster
    (``scheduler``: an address or ``local[:N]``, connected at once, so an unreachable one raises
    :class:`SchedulerUnreachable` before any work; or an open :class:`~.cluster.Cluster`)
    ``jobs`` is ignored and :meth:`~.cluster.Cluster.map` takes ``chunksize`` (items a task;
    None lets it choose), ``cost`` (the guessed cost of an item: harder tasks start first),
    ``total`` (the count of items, when ``items`` cannot tell), ``progress`` and ``warmup``
    (run once a worker).
    """
    target = scheduler if scheduler is not None else _current.get()
    if target is None:
        return _pool_map(fn, items, jobs, chunksize or 1)
    if language() != SOURCE_LANGUAGE:
        fn = functools.partial(_in_language, language(), fn)
    if isinstance(target, (str, SchedulerSpec)):
        cluster = connect(target, warmup=warmup)
        return cluster.map(fn, items, chunksize, cost=cost, total=total, progress=progress, close=True)
    return target.map(fn, items, chunksize, cost=cost, total=total, progress=progress, warmup=warmup)


def _pool_map(fn: Callable[[T], R], items: Iterable[T], jobs: int, chunksize: int) -> Iterator[R]:
    """The process-pool map of :func:`ordered_map` (this process when ``jobs`` is 1)."""
    with Workers(jobs) as workers:
        yield from workers.map(fn, items, chunksize)


def _run_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    """``fn`` over one chunk of items, in a worker."""
    return [fn(item) for item in chunk]


class Workers:
    """The process pool behind :func:`ordered_map`, kept open across several maps when a caller
    runs batch after batch (an analysis adds samples until its question is answered): in this
    process when ``jobs`` is 1, else ``jobs`` spawned workers (:func:`worker_pool`). Leaving the
    ``with`` block stops them, at once on an exception or Ctrl-C."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = worker_pool(jobs) if jobs > 1 else None

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """``map(fn, items)`` in input order, streamed; at most ``4 * jobs`` chunks of
        ``chunksize`` items are in flight, so an endless ``items`` is read only as far as the
        results are taken (``Executor.map`` would drain it ahead of the workers). A worker that
        dies raises :class:`WorkerLost`."""
        if self._pool is None:
            yield from map(fn, items)
            return
        from concurrent.futures.process import BrokenProcessPool

        it = iter(items)
        window: collections.deque[Future[list[R]]] = collections.deque()

        def submit() -> bool:
            chunk = list(itertools.islice(it, chunksize))
            if chunk:
                assert self._pool is not None
                try:
                    window.append(self._pool.submit(_run_chunk, fn, chunk))
                except BrokenProcessPool:
                    raise WorkerLost() from None
            return bool(chunk)

        while len(window) < 4 * self.jobs and submit():
            pass
        while window:
            try:
                results = window.popleft().result()
            except BrokenProcessPool:
                raise WorkerLost() from None
            submit()
            yield from results

    def close(self, finished: bool) -> None:
        """Stop the workers: let them exit when the work ``finished``, else cancel what is queued
        and terminate them at once."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if finished:
            pool.shutdown(wait=True)
            return
        _terminate(pool)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close(exc_type is None)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool``'s workers now, in the middle of their tasks (Ctrl-C, an error, a caller that
    stopped reading), then let the executor's own thread reap them, so no worker outlives the
    call. The executor's table of processes is the handle on them (``terminate_workers``, public
    from Python 3.14, does not wait for them to end)."""
    processes = getattr(pool, "_processes", None)
    if processes is None and hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
        return
    for process in list((processes or {}).values()):
        if process.exitcode is None:
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


__all__ = [
    "CONNECT_TIMEOUT",
    "ClusterLost",
    "DASK_HINT",
    "SchedulerSpec",
    "SchedulerUnreachable",
    "WorkerLost",
    "Workers",
    "connect",
    "current_cluster",
    "ordered_map",
    "parse_scheduler",
    "using",
    "worker_pool",
]
