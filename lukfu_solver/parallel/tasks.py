"""A pool of worker processes for a server: one task a worker, progress reported, each task cancellable.

:func:`~lukfu_solver.parallel.ordered_map` runs a batch and stops it whole; a server runs many
small unrelated tasks (an engine's move, a hint, an advice) for many players at once and must be
able to stop one of them, show how far each has got, and survive a worker that dies. A
``ProcessPoolExecutor`` cannot: a running task cannot be stopped, and one lost worker fails
every pending task of the pool. :class:`TaskPool` keeps one process per slot instead, started
like the batch workers (spawned, Ctrl-C ignored, the parent's language: ``_start_worker``):

- :meth:`TaskPool.submit` queues a call ``fn(*args)`` (``fn`` importable, arguments picklable)
  with a priority (lower first; ties in order) and returns a :class:`Task` whose ``future`` is a
  ``concurrent.futures.Future`` (``asyncio.wrap_future`` awaits it);
- the first ``reserved`` workers run only urgent tasks (priority at most ``urgent``), so urgent
  work never waits for long work to end: a server keeps one worker for a person's engine move
  while reviews fill the others. Urgent work goes to an idle reserved worker first, and other
  work runs at ``background_nice`` (a niceness, where the system has one; its worker is replaced
  once it is done, so urgent work never runs nice), so long work also yields the CPU to it;
- every task's state is a :class:`Status`, the one state machine of queued work (``queued``,
  ``running``, then ``done``, ``failed`` or ``cancelled``, an end being final); a caller that
  does more after the call (applies a move, saves a file) passes its own Status, which the pool
  moves to ``running`` and leaves for the caller to end;
- with ``progress=True`` the call gets a ``progress(done, total)`` keyword it may call; the last
  report is :attr:`Status.progress`;
- :meth:`TaskPool.cancel` drops a queued task, or terminates the worker running it and starts a
  fresh one in its place: the other slots' tasks go on;
- a worker that dies (killed, out of memory) fails only its own task, with :class:`WorkerLost`,
  and is replaced.

>>> with TaskPool(1) as pool:
...     pool.submit(pow, (2, 10)).future.result(timeout=60)
1024
"""

from __future__ import annotations

import contextlib
import enum
import heapq
import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from ..i18n import language, using_language
from . import WorkerLost, _start_worker


class TaskCancelled(Exception):
    """The task was cancelled before it finished (its worker was stopped)."""


class State(str, enum.Enum):
    """Where a piece of queued work stands."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


ENDED = frozenset({State.DONE, State.FAILED, State.CANCELLED})
"""The final states: nothing moves out of them."""


class Status:
    """The state of one piece of work, the one state machine a pool and its callers share.

    ``queued`` → ``running`` → ``done``/``failed``/``cancelled``; ``running`` → ``queued`` again
    when the work is handed out anew (its worker was lost); ``queued`` may end at once (dropped,
    or answered from work made before). An end is final: :meth:`move` out of it is refused
    (returns False), so of a cancel and a finish racing each other the first one stands.
    Thread-safe; ``progress`` is the last (done, total) report of the work.

    >>> s = Status(); s.move(State.RUNNING), s.move(State.DONE), s.move(State.CANCELLED), s.state.value
    (True, True, False, 'done')
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.state = State.QUEUED
        self.progress: tuple[int, int] | None = None
        self.started: float | None = None

    @property
    def finished(self) -> bool:
        """Whether the work has ended (done, failed or cancelled)."""
        return self.state in ENDED

    def move(self, new: State) -> bool:
        """Move to ``new``; False (and no change) from an end, or to the state it is in."""
        with self._lock:
            if self.state in ENDED or new == self.state:
                return False
            if new == State.QUEUED:
                self.progress = None
            elif new == State.RUNNING:
                self.started = time.monotonic()
            self.state = new
            return True


@dataclass(eq=False)
class Task:
    """One queued or running call: its ``future`` and its :class:`Status` (see the module notes)."""

    id: int
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    priority: int
    want_progress: bool
    lang: str
    status: Status = field(default_factory=Status)
    owns_status: bool = True
    """Whether the pool ends ``status`` itself (False: the caller that passed it ends it)."""
    future: Future[Any] = field(default_factory=Future)
    cancel_requested: bool = False
    nice: int = 0
    """The niceness its worker takes on for it (long work yields the CPU to urgent work)."""

    @property
    def state(self) -> str:
        """``queued``, ``running``, ``done``, ``failed`` or ``cancelled`` (the status's)."""
        return self.status.state.value

    @property
    def progress(self) -> tuple[int, int] | None:
        """The last (done, total) report of the call."""
        return self.status.progress

    @property
    def started(self) -> float | None:
        """When the call last started in a worker (``time.monotonic``), None while queued."""
        return self.status.started

    def end(self, result: Any = None, error: BaseException | None = None) -> None:
        """Resolve the future (the status first, when the pool owns it: whoever sees the future
        done sees the state ended)."""
        if self.owns_status:
            if error is None:
                self.status.move(State.DONE)
            else:
                self.status.move(State.CANCELLED if isinstance(error, TaskCancelled) else State.FAILED)
        if error is None:
            self.future.set_result(result)
        else:
            self.future.set_exception(error)


def _worker_main(conn: Any, lang: str, warmup: Callable[[], object] | None) -> None:
    """A worker's loop: receive a call, run it, send back ``("progress", done, total)`` reports
    and then ``("done", result)`` or ``("error", exception)``; None (or a closed pipe) ends it.
    A call sent with a niceness first adds it to the worker's (where the system has one)."""
    _start_worker(lang)
    if warmup is not None:
        with contextlib.suppress(Exception):
            warmup()
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        fn, args, want_progress, task_lang, nice = msg
        if nice and hasattr(os, "nice"):
            with contextlib.suppress(OSError):
                os.nice(nice)

        def report(done: int, total: int) -> None:
            conn.send(("progress", int(done), int(total)))

        try:
            with using_language(task_lang):
                result = fn(*args, progress=report) if want_progress else fn(*args)
            conn.send(("done", result))
        except Exception as exc:  # sent to the parent, which raises it from the task's future
            try:
                conn.send(("error", exc))
            except Exception:  # an exception that does not pickle: its text
                conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Slot:
    """One worker process and the thread that feeds it tasks from the pool's queue."""

    def __init__(self, pool: TaskPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: Any = None
        self.conn: Any = None
        self.task: Task | None = None
        self.thread = threading.Thread(target=self._run, name=f"lukfu-task-slot-{index}", daemon=True)

    def start_process(self) -> None:
        """A fresh worker process (the old one, if any, is stopped first)."""
        self.stop_process()
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe(duplex=True)
        proc = ctx.Process(target=_worker_main, args=(child, self.pool.lang, self.pool.warmup), daemon=True)
        proc.start()
        child.close()
        self.process, self.conn = proc, parent

    def stop_process(self) -> None:
        """Terminate the worker process now and reap it."""
        proc, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()
        if proc is not None and proc.is_alive():
            proc.terminate()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)
        elif proc is not None:
            proc.join(1)

    def _run(self) -> None:
        pool = self.pool
        while True:
            task = pool._next(self.index < pool.reserved)
            if task is None:
                self.stop_process()
                return
            if task.cancel_requested or not task.future.set_running_or_notify_cancel():
                continue
            if self.process is None or not self.process.is_alive():
                self.start_process()
            with pool.lock:
                self.task = task
                task.status.move(State.RUNNING)
            niced = self.process if task.nice else None
            try:
                self._serve(task)
            finally:
                with pool.lock:
                    self.task = None
            if niced is not None and self.process is niced:
                self.start_process()  # a fresh worker: the next call, maybe urgent, runs at full priority

    def _serve(self, task: Task) -> None:
        """Hand ``task`` to the worker and wait for its answer, its death or its cancellation."""
        try:
            self.conn.send((task.fn, task.args, task.want_progress, task.lang, task.nice))
        except (OSError, ValueError, EOFError):
            self.start_process()
            task.end(error=WorkerLost())
            return
        except Exception as exc:  # the call or its arguments do not pickle
            task.end(error=exc)
            return
        while True:
            if task.cancel_requested:
                self.start_process()
                task.end(error=TaskCancelled())
                return
            try:
                ready = self.conn.poll(0.05)
                msg = self.conn.recv() if ready else None
            except (EOFError, OSError):
                msg = ("lost",)
            if msg is None:
                if not self.process.is_alive() and not self.conn.poll(0):
                    msg = ("lost",)
                else:
                    continue
            kind = msg[0]
            if kind == "progress":
                task.status.progress = (msg[1], msg[2])
                continue
            if task.cancel_requested:
                self.start_process()
                task.end(error=TaskCancelled())
            elif kind == "done":
                task.end(msg[1])
            elif kind == "error":
                task.end(error=msg[1])
            else:
                self.start_process()
                task.end(error=WorkerLost())
            return


class TaskPool:
    """``workers`` worker processes that run submitted calls one at a time each (see the module
    notes); the first ``reserved`` of them run only calls of priority at most ``urgent``.
    ``warmup`` (importable, no arguments) runs once in every worker as it starts, so the first
    task does not pay for the imports. Use as a context manager or call :meth:`close`."""

    def __init__(
        self,
        workers: int,
        warmup: Callable[[], object] | None = None,
        reserved: int = 0,
        urgent: int = 0,
        background_nice: int = 0,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a task pool needs at least 1 worker, got {workers}")
        if not 0 <= reserved < workers:
            raise ValueError(f"a pool of {workers} workers can reserve 0 to {workers - 1} of them, not {reserved}")
        self.lang = language()
        self.warmup = warmup
        self.reserved = reserved
        self.urgent = urgent
        self.background_nice = background_nice
        self._urgent: list[tuple[int, int, Task]] = []
        self._rest: list[tuple[int, int, Task]] = []
        self._idle_reserved = 0
        self._stopping = False
        self._ready = threading.Condition()
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        self._order = itertools.count()
        self.closed = False
        self.slots = [_Slot(self, i) for i in range(workers)]
        for slot in self.slots:
            slot.start_process()
            slot.thread.start()

    def _put(self, priority: int, task: Task) -> None:
        with self._ready:
            heap = self._urgent if priority <= self.urgent else self._rest
            heapq.heappush(heap, (priority, next(self._order), task))
            self._ready.notify_all()

    def _next(self, reserved: bool) -> Task | None:
        """The next task a worker takes (waiting for one); None tells the worker to stop. A
        reserved worker takes only urgent tasks; another takes an urgent task only when no
        reserved worker is idle (one is then about to take it), else the first of the rest."""
        with self._ready:
            while True:
                heap = None
                if self._stopping:
                    return None
                if self._urgent and (reserved or not self._idle_reserved):
                    heap = self._urgent
                elif not reserved and self._rest:
                    heap = self._rest
                if heap is not None:
                    task = heapq.heappop(heap)[2]
                    self._ready.notify_all()  # the others look again (an urgent task may be theirs now)
                    return task
                if reserved:
                    self._idle_reserved += 1
                try:
                    self._ready.wait()
                finally:
                    if reserved:
                        self._idle_reserved -= 1

    def submit(
        self,
        fn: Callable[..., Any],
        args: tuple[Any, ...] = (),
        *,
        priority: int = 1,
        progress: bool = False,
        status: Status | None = None,
    ) -> Task:
        """Queue ``fn(*args)`` (lower ``priority`` runs first); with ``progress`` the call gets a
        ``progress(done, total)`` keyword. It runs in the language in use now. A ``status`` given
        is moved to ``running`` when the call starts and left for the caller to end."""
        if self.closed:
            raise RuntimeError("the task pool is closed")
        own = status is None
        task = Task(next(self._ids), fn, args, priority, progress, language(), status or Status(), own)
        task.nice = self.background_nice if priority > self.urgent else 0
        if own:
            task.future.add_done_callback(_ended_if_cancelled(task))
        self._put(priority, task)
        return task

    def cancel(self, task: Task) -> bool:
        """Stop ``task``: a queued one is dropped, a running one's worker is terminated and
        replaced. False when it had already finished."""
        if task.future.done():
            return False
        task.cancel_requested = True
        if task.future.cancel():  # still queued
            return True
        with self.lock:
            slot = next((s for s in self.slots if s.task is task), None)
        if slot is not None and slot.process is not None:
            with contextlib.suppress(Exception):
                slot.process.terminate()
        return True

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and monitoring)."""
        return [s.process.pid for s in self.slots if s.process is not None]

    def running(self) -> list[Task]:
        """The tasks running now."""
        with self.lock:
            return [s.task for s in self.slots if s.task is not None]

    def close(self) -> None:
        """Cancel what runs, drop what waits and stop every worker."""
        if self.closed:
            return
        self.closed = True
        with self._ready:
            waiting = [task for _p, _o, task in self._urgent + self._rest]
            self._urgent.clear()
            self._rest.clear()
        for task in waiting:
            task.future.cancel()
        for task in self.running():
            self.cancel(task)
        with self._ready:
            self._stopping = True
            self._ready.notify_all()
        for slot in self.slots:
            slot.thread.join(10)

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ended_if_cancelled(task: Task) -> Callable[[Future[Any]], None]:
    """A future's callback that ends the pool's own status of a task dropped while queued."""

    def done(future: Future[Any]) -> None:
        if future.cancelled():
            task.status.move(State.CANCELLED)

    return done


__all__ = ["ENDED", "State", "Status", "Task", "TaskCancelled", "TaskPool"]
