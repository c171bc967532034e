"""The Dask backend of :func:`~lukfu_solver.parallel.ordered_map`: batch work on a Dask cluster.

The only module that imports Dask (the optional extra ``lukfu[dask]``); the package imports it
only when a scheduler is asked for. A :class:`Cluster` is a client of a running scheduler
(``tcp://host:port``) or of a ``LocalCluster`` of N worker processes that it starts on
127.0.0.1. :meth:`Cluster.map` keeps the promises of ``ordered_map``:

- results in input order, streamed as soon as the next one is ready: items go out in tasks of
  several consecutive items (a task costs its round trips: see ``docs/cluster.md``),
  a few tasks a worker thread running, finished ones held while a slow task before them runs
  (the workers go on) up to a bound, so an endless input is fine; the harder tasks start first
  where the caller can guess an item's cost (Dask priorities);
- a worker that dies mid-task costs that task a retry on another worker (Dask recomputes lost
  tasks), and since each task's result is taken from its own future once, no line is lost or
  doubled;
- a warm-up (the compiled kernel's) runs once on every worker process, as a worker plugin, also
  on workers that join or restart later, never once a task;
- a scheduler lost mid-batch, or a cluster left without workers for a minute, is
  :class:`~lukfu_solver.parallel.ClusterLost` (one line) instead of a hang or a traceback;
- Ctrl-C, an exception or closing the iterator cancels every future still pending.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import signal
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from typing import Any, TypeVar

import cloudpickle
import distributed
from distributed import Client, Future, LocalCluster
from distributed.diagnostics.plugin import WorkerPlugin

from .scheduler import ClusterLost, SchedulerSpec, SchedulerUnreachable

T = TypeVar("T")
R = TypeVar("R")

TASKS_PER_THREAD = 4
"""Tasks submitted and not yet ended, per worker thread: enough to keep every worker busy and to
start the hardest of them first, few enough that a stop wastes little."""
BUFFER_PER_THREAD = 32
"""Tasks submitted and not yet yielded, per worker thread: the finished ones wait here for a
slow task before them (results go out in input order) while the workers go on; it bounds
memory on an endless input."""
MAX_TASK_ITEMS = 16
"""Items a task at most when the map chooses (a batch of known size: about 4 tasks a thread)."""
STREAM_TASK_ITEMS = 4
"""Items a task when the size of the input is unknown (standard input, an endless generator)."""
LOCAL_LOG_LEVEL = logging.ERROR
"""The least Dask log level printed while a LocalCluster this module started runs, and after
it closed (its INFO and WARNING lines are about its own start and stop)."""
POLL_SECONDS = 0.5
"""How often a wait for the next result reports progress."""
NO_WORKER_SECONDS = 60.0
"""How long a map waits on a cluster left without any worker before it gives up (a nanny
restarts a killed worker within seconds; a cluster whose workers all died stays empty)."""


@dataclass(frozen=True)
class Progress:
    """Where a cluster map stands: tasks and items done (finished on a worker, in any order),
    the live worker count and the time, with the time remaining when the total is known."""

    tasks_done: int
    tasks_submitted: int
    items_done: int
    items_total: int | None
    workers: int
    elapsed: float

    @property
    def remaining(self) -> float | None:
        """Seconds left at the rate so far (None until an item is done or without a total)."""
        if self.items_total is None or self.items_done == 0:
            return None
        return self.elapsed * max(0, self.items_total - self.items_done) / self.items_done

    def line(self) -> str:
        """One line for standard error: ``tasks 3/8 done · items 15/40 · 2 workers · 4 s left``."""
        total = "?" if self.items_total is None else str(self.items_total)
        left = self.remaining
        eta = "" if left is None else f" · {left:.0f} s left"
        return (
            f"tasks {self.tasks_done}/{self.tasks_submitted} done · items {self.items_done}/{total} · "
            f"{self.workers} worker{'s' if self.workers != 1 else ''} · {self.elapsed:.0f} s{eta}"
        )


@dataclass
class MapStats:
    """What the last map ran: items, tasks, the workers that returned results, the wall seconds
    and the CPU seconds the tasks took on the workers (their sum)."""

    items: int = 0
    tasks: int = 0
    workers: set[str] = field(default_factory=set)
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def summary(self) -> str:
        """``40 items in 8 tasks on 2 workers in 3.1 s``."""
        n = len(self.workers)
        return f"{self.items} items in {self.tasks} tasks on {n} worker{'s' if n != 1 else ''} in {self.seconds:.1f} s"


@dataclass(frozen=True)
class ChunkResult:
    """A task's answer: the worker and process that computed it, the results in order and the
    task's CPU seconds (its thread's)."""

    worker: str
    pid: int
    results: list[Any]
    cpu_seconds: float = 0.0


def run_chunk(fn: Callable[[T], R], chunk: list[T]) -> ChunkResult:
    """The task run on a worker: ``fn`` over ``chunk``, in order, tagged with the worker."""
    try:
        address = distributed.get_worker().address
    except ValueError:  # not on a worker (a direct call)
        address = "local"
    t0 = time.thread_time()
    results = [fn(item) for item in chunk]
    return ChunkResult(address, os.getpid(), results, time.thread_time() - t0)


def task_size(chunksize: int | None, total: int | None, threads: int) -> int:
    """Items a task: ``chunksize`` when the caller set one, else about
    :data:`TASKS_PER_THREAD` tasks a thread (1 to :data:`MAX_TASK_ITEMS` items), or
    :data:`STREAM_TASK_ITEMS` when the total is unknown.

    >>> task_size(None, 40, 2), task_size(None, 10_000, 2), task_size(None, None, 2), task_size(1, 40, 2)
    (5, 16, 4, 1)
    """
    if chunksize is not None:
        return max(1, chunksize)
    if total is None:
        return STREAM_TASK_ITEMS
    return max(1, min(MAX_TASK_ITEMS, total // (TASKS_PER_THREAD * max(1, threads))))


def warmup_name(warmup: Callable[[], object]) -> str:
    """The plugin name of a warm-up: its module and qualified name (so one warm-up a worker)."""
    return f"lukfu-warmup:{getattr(warmup, '__module__', '?')}.{getattr(warmup, '__qualname__', repr(warmup))}"


def _timed(fn: Callable[[], object]) -> float:
    """Run ``fn`` and return the seconds it took."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


class WarmupPlugin(WorkerPlugin):
    """Runs a warm-up once in every worker process before it takes tasks (numba compiles or
    loads the kernel from its on-disk cache once a process, not once a task).

    Dask sets a registered plugin up on every worker, and on every worker that joins or restarts
    later. Registering it again (a second run on the same cluster) finds the warm-up already done
    in ``worker.lukfu_warmups`` (name -> seconds) and does not repeat it. The warm-up runs in a
    thread, so the worker's event loop keeps answering the scheduler during a long compile.
    """

    def __init__(self, warmup: Callable[[], object]) -> None:
        self.warmup = cloudpickle.dumps(warmup)  # as Dask sends tasks (by value where registered so)
        self.name = warmup_name(warmup)

    async def setup(self, worker: Any) -> None:
        done: dict[str, float] = worker.__dict__.setdefault("lukfu_warmups", {})
        if self.name in done:
            return
        warmup = cloudpickle.loads(self.warmup)
        done[self.name] = await asyncio.get_running_loop().run_in_executor(None, _timed, warmup)


class IgnoreInterrupt(WorkerPlugin):
    """For the worker processes of a LocalCluster (in this terminal's process group): Ctrl-C is
    the client's business (it cancels and shuts the cluster down), so a worker, even one that a
    nanny restarted, ignores SIGINT rather than printing a traceback."""

    name = "lukfu-ignore-sigint"

    def setup(self, worker: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _one_line(err: BaseException) -> str:
    """An exception's message on one line (Dask's connection errors span several)."""
    text = " ".join(str(err).split())
    return text or type(err).__name__


def start_local(workers: int) -> LocalCluster:
    """A LocalCluster of ``workers`` processes, one thread each, on 127.0.0.1, no dashboard,
    its workers started with Ctrl-C ignored (an ignored signal stays ignored across exec)."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # the scheduler serves HTTP (health, metrics) even without a dashboard, by default on
            # port 8787: any free port of 127.0.0.1 instead, so that two runs never collide
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=LOCAL_LOG_LEVEL,
        )
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


class _LogFloor(logging.Filter):
    """Drops the log records below :attr:`level`: put on Dask's terminal handlers, where a
    LocalCluster's close cannot undo it as it undoes a handler's level."""

    def __init__(self) -> None:
        super().__init__()
        self.level = logging.NOTSET

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.level


_LOG_FLOOR = _LogFloor()


def _silence_dask_log(level: int = logging.CRITICAL + 1) -> None:
    """Print, for the rest of the process, only Dask log records of ``level`` or above to a
    terminal (on the handlers its configuration puts on the ``distributed`` logger, to which all
    its loggers report; the default prints none; a floor is never lowered). A LocalCluster
    silences them only while it runs and puts their level back as it closes, while its reports
    of the connections closed by that very close (with tracebacks) are still to come."""
    _LOG_FLOOR.level = max(_LOG_FLOOR.level, level)
    for handler in logging.getLogger("distributed").handlers:
        if isinstance(handler, logging.StreamHandler) and _LOG_FLOOR not in handler.filters:
            handler.addFilter(_LOG_FLOOR)


class _Tally:
    """Tasks that ended on the cluster and the tasks and items among them that finished, counted
    by the futures' callbacks (in another thread), which also wake the map's wait."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Event()
        self.ended = 0
        self.tasks = 0
        self.items = 0

    def add(self, items: int | None) -> None:
        """Count an ended task: finished with ``items`` items, or failed/cancelled (None)."""
        with self.lock:
            self.ended += 1
            if items is not None:
                self.tasks += 1
                self.items += items
        self.changed.set()


class Cluster:
    """A client of a Dask cluster for batch work: connected at once (an unreachable scheduler,
    or one without workers, raises :class:`SchedulerUnreachable` within ``timeout`` seconds, or
    ``first_worker`` for the first worker; a lost connection is given up after ``timeout`` too),
    the ``warmup`` run once on every worker, ``progress`` the default of its maps; close it (or
    use it as a context manager) to disconnect, and to shut down the LocalCluster it started."""

    def __init__(
        self,
        spec: SchedulerSpec,
        warmup: Callable[[], object] | None = None,
        timeout: float = 5.0,
        progress: Callable[[Progress], None] | None = None,
        first_worker: float | None = None,
    ) -> None:
        self.spec = spec
        self.local: LocalCluster | None = None
        self.stats = MapStats()
        self.progress = progress
        """The progress callback of a map not given one (a command's display, for the maps that
        library functions run inside :func:`~lukfu_solver.parallel.using`)."""
        self._warmups: set[str] = set()
        try:
            if spec.local_workers is not None:
                self.local = start_local(spec.local_workers)
            address = self.local.scheduler_address if self.local is not None else spec.address
            self.client = Client(address, timeout=timeout, set_as_default=False)
        except OSError as err:  # TimeoutError and refused connections alike
            self._close_local()
            why = "" if str(err).startswith("Timed out") else f" ({_one_line(err)})"
            raise SchedulerUnreachable(f"cannot reach {spec} within {timeout:g} s{why}") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout if first_worker is None else first_worker)
        except TimeoutError:
            self.close()
            waited = timeout if first_worker is None else first_worker
            raise SchedulerUnreachable(f"{spec} has no workers (waited {waited:g} s)") from None
        if self.local is not None:
            self.client.register_plugin(IgnoreInterrupt(), name=IgnoreInterrupt.name)
        if warmup is not None:
            self.add_warmup(warmup)

    # ------------------------------------------------------------ the cluster

    def add_warmup(self, warmup: Callable[[], object]) -> None:
        """Run ``warmup`` once on every worker, now and on any worker that joins later."""
        name = warmup_name(warmup)
        if name not in self._warmups:
            self.client.register_plugin(WarmupPlugin(warmup), name=name)
            self._warmups.add(name)

    def nthreads(self) -> dict[str, int]:
        """Worker address -> threads, as the scheduler knows them now."""
        return dict(self.client.nthreads())

    def warmups(self) -> dict[str, dict[str, float]]:
        """Worker address -> the warm-ups done in that worker process (name -> seconds)."""
        return self.client.run(_worker_warmups)

    def worker_pids(self) -> dict[str, int]:
        """Worker address -> its process id (the fault tests kill one)."""
        return self.client.run(os.getpid)

    def __str__(self) -> str:
        threads = self.nthreads()
        return f"{self.spec} ({len(threads)} workers, {sum(threads.values())} threads)"

    def close(self) -> None:
        """Disconnect, and shut down the LocalCluster this object started."""
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        self._close_local()

    def _close_local(self) -> None:
        if self.local is not None:
            self.local.close()
            self.local = None
            _silence_dask_log(LOCAL_LOG_LEVEL)

    def abort(self) -> None:
        """Stop at once (after Ctrl-C or an error): a LocalCluster's workers are terminated
        rather than left to finish the task they are running (a solve cannot be interrupted, and
        a graceful close waits 4 s for it); a remote cluster's pending work was cancelled.
        Dask's own log stays silent from here on: the connections it loses are the abort's doing,
        and its reports of them (with tracebacks) would reach the user's terminal."""
        _silence_dask_log()
        if self.local is not None:
            for nanny in list(self.local.workers.values()):
                pid = getattr(nanny, "pid", None)
                if pid:
                    nanny.close_gracefully()  # no restart of the worker it is about to lose
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGTERM)
        self.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        """Close; after an exception (Ctrl-C included), abort: see :meth:`abort`."""
        if kind is None:
            self.close()
        else:
            self.abort()

    # ------------------------------------------------------------ the map

    def map(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        chunksize: int | None = None,
        *,
        cost: Callable[[T], float] | None = None,
        total: int | None = None,
        progress: Callable[[Progress], None] | None = None,
        warmup: Callable[[], object] | None = None,
        close: bool = False,
    ) -> Iterator[R]:
        """``map(fn, items)`` on the cluster, results in input order, as an iterator (see the
        module's promises); :attr:`stats` tells what ran. ``chunksize`` items a task (None: the
        map chooses, :func:`task_size`); ``cost(item)`` guesses an item's cost (a task's priority is
        its items' sum); ``total`` the item count when ``items`` has no length; ``progress`` is
        called every :data:`POLL_SECONDS` or so while the map runs;
        ``close``: close the cluster when the map ends."""
        if warmup is not None:
            self.add_warmup(warmup)
        progress = progress if progress is not None else self.progress
        if total is None and hasattr(items, "__len__"):
            total = len(items)  # type: ignore[arg-type]
        return self._map(fn, iter(items), chunksize, cost, total, progress, close)

    def _map(
        self,
        fn: Callable[[T], R],
        items: Iterator[T],
        chunksize: int | None,
        cost: Callable[[T], float] | None,
        total: int | None,
        progress: Callable[[Progress], None] | None,
        close: bool,
    ) -> Iterator[R]:
        threads = max(1, sum(self.nthreads().values()))
        size = task_size(chunksize, total, threads)
        running, held = TASKS_PER_THREAD * threads, BUFFER_PER_THREAD * threads
        run = uuid.uuid4().hex[:12]
        tally = _Tally()
        stats = self.stats = MapStats()
        pending: deque[Future] = deque()  # submitted, not yet yielded, in input order
        start = time.monotonic()
        numbers = itertools.count()
        last_report = -POLL_SECONDS
        idle_since: float | None = None  # since when the cluster has had no worker

        def report(now: float) -> None:
            nonlocal last_report
            if progress is not None and now - last_report >= POLL_SECONDS:
                last_report = now
                workers = len(self._live_threads(stats.items))
                progress(Progress(tally.tasks, stats.tasks, tally.items, total, workers, now - start))

        try:
            exhausted = False
            while True:
                tally.changed.clear()  # before looking, so a task finishing meanwhile wakes the wait
                fresh: list[tuple[int, list[T]]] = []
                while (
                    not exhausted
                    and stats.tasks + len(fresh) - tally.ended < running
                    and len(pending) + len(fresh) < held
                ):
                    chunk = list(itertools.islice(items, size))
                    if not chunk:
                        exhausted = True
                        break
                    fresh.append((next(numbers), chunk))
                pending.extend(self._submit_all(fn, fresh, cost, run, tally))
                stats.tasks += len(fresh)
                if not pending:
                    break
                if not pending[0].done():
                    if not tally.changed.wait(POLL_SECONDS):  # a quiet half second: any workers left?
                        idle_since = self._check_workers(idle_since, stats.items)
                    report(time.monotonic())
                    continue
                ready = list(itertools.takewhile(Future.done, pending))  # one fetch for every ready head
                try:
                    results: list[ChunkResult] = self.client.gather(ready)
                except CancelledError:  # not by this map: the scheduler is gone
                    raise ClusterLost(f"lost {self.spec} after {stats.items} results") from None
                for _ in ready:
                    pending.popleft()
                for result in results:
                    stats.workers.add(result.worker)
                    stats.items += len(result.results)
                    stats.cpu_seconds += result.cpu_seconds
                stats.seconds = time.monotonic() - start
                report(time.monotonic())
                for result in results:
                    yield from result.results
        except BaseException:  # Ctrl-C, an error, or the consumer closed the iterator
            self.client.cancel(list(pending))
            pending.clear()
            if close:
                self.abort()
            raise
        finally:
            stats.seconds = time.monotonic() - start
        if close:
            self.close()

    def _live_threads(self, done: int) -> dict[str, int]:
        """:meth:`nthreads` in the middle of a map: a lost connection is :class:`ClusterLost`."""
        try:
            return self.nthreads()
        except OSError:  # CommClosedError and the like: the scheduler is gone
            raise ClusterLost(f"lost {self.spec} after {done} results") from None

    def _check_workers(self, idle_since: float | None, done: int) -> float | None:
        """Since when the cluster has had no worker (None: it has some); :class:`ClusterLost`
        once that lasts :data:`NO_WORKER_SECONDS` (Dask would wait for one forever)."""
        if self._live_threads(done):
            return None
        now = time.monotonic()
        if idle_since is None:
            return now
        if now - idle_since >= NO_WORKER_SECONDS:
            raise ClusterLost(f"{self.spec} has had no worker for {NO_WORKER_SECONDS:g} s, after {done} results")
        return idle_since

    def _submit_all(
        self,
        fn: Callable[[T], R],
        chunks: list[tuple[int, list[T]]],
        cost: Callable[[T], float] | None,
        run: str,
        tally: _Tally,
    ) -> list[Future]:
        """Send tasks, the costliest first (a worker takes a task or two as soon as it arrives,
        before later priorities are seen); each task's priority is its items' guessed cost
        (higher runs first). The futures in input order."""
        priced = [(sum(cost(x) for x in chunk) if cost is not None else 0.0, n, chunk) for n, chunk in chunks]
        futures: dict[int, Future] = {}
        for priority, n, chunk in sorted(priced, key=lambda c: -c[0]):
            future = self.client.submit(run_chunk, fn, chunk, key=f"lukfu-{run}-{n}", priority=priority, pure=False)
            future.add_done_callback(functools.partial(_count_done, tally, len(chunk)))
            futures[n] = future
        return [futures[n] for _, n, _ in priced]


def _count_done(tally: _Tally, items: int, future: Future) -> None:
    """A future's done callback: count a task that ended (finished, failed or cancelled)."""
    tally.add(items if future.status == "finished" else None)


def _worker_warmups(dask_worker: Any) -> dict[str, float]:
    """Run on a worker by :meth:`Cluster.warmups`: its warm-ups done (name -> seconds)."""
    return dict(getattr(dask_worker, "lukfu_warmups", {}))
