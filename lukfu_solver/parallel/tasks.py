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
- with ``progress=True`` the call gets a ``progress(done, total)`` keyword it may call; the last
  report is :attr:`Task.progress`;
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
import itertools
import multiprocessing
import queue
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


@dataclass(eq=False)
class Task:
    """One queued or running call: its ``future``, its last ``progress`` (done, total) report."""

    id: int
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    priority: int
    want_progress: bool
    lang: str
    future: Future[Any] = field(default_factory=Future)
    progress: tuple[int, int] | None = None
    started: float | None = None
    cancel_requested: bool = False

    @property
    def state(self) -> str:
        """``queued``, ``running``, ``done``, ``failed`` or ``cancelled``."""
        f = self.future
        if not f.done():
            return "running" if self.started is not None else "queued"
        if f.cancelled() or isinstance(f.exception(), TaskCancelled):
            return "cancelled"
        return "failed" if f.exception() is not None else "done"


def _worker_main(conn: Any, lang: str, warmup: Callable[[], object] | None) -> None:
    """A worker's loop: receive a call, run it, send back ``("progress", done, total)`` reports
    and then ``("done", result)`` or ``("error", exception)``; None (or a closed pipe) ends it."""
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
        fn, args, want_progress, task_lang = msg

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
            item = pool.queue.get()
            task = item[2]
            if task is None:
                self.stop_process()
                return
            if task.cancel_requested or not task.future.set_running_or_notify_cancel():
                continue
            if self.process is None or not self.process.is_alive():
                self.start_process()
            with pool.lock:
                self.task = task
                task.started = time.monotonic()
            try:
                self._serve(task)
            finally:
                with pool.lock:
                    self.task = None

    def _serve(self, task: Task) -> None:
        """Hand ``task`` to the worker and wait for its answer, its death or its cancellation."""
        try:
            self.conn.send((task.fn, task.args, task.want_progress, task.lang))
        except (OSError, ValueError, EOFError):
            self.start_process()
            task.future.set_exception(WorkerLost())
            return
        except Exception as exc:  # the call or its arguments do not pickle
            task.future.set_exception(exc)
            return
        while True:
            if task.cancel_requested:
                self.start_process()
                task.future.set_exception(TaskCancelled())
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
                task.progress = (msg[1], msg[2])
                continue
            if task.cancel_requested:
                self.start_process()
                task.future.set_exception(TaskCancelled())
            elif kind == "done":
                task.future.set_result(msg[1])
            elif kind == "error":
                task.future.set_exception(msg[1])
            else:
                self.start_process()
                task.future.set_exception(WorkerLost())
            return


class TaskPool:
    """``workers`` worker processes that run submitted calls one at a time each (see the module
    notes); ``warmup`` (importable, no arguments) runs once in every worker as it starts, so the
    first task does not pay for the imports. Use as a context manager or call :meth:`close`."""

    def __init__(self, workers: int, warmup: Callable[[], object] | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a task pool needs at least 1 worker, got {workers}")
        self.lang = language()
        self.warmup = warmup
        self.queue: queue.PriorityQueue[tuple[int, int, Task | None]] = queue.PriorityQueue()
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        self._order = itertools.count()
        self.closed = False
        self.slots = [_Slot(self, i) for i in range(workers)]
        for slot in self.slots:
            slot.start_process()
            slot.thread.start()

    def submit(
        self, fn: Callable[..., Any], args: tuple[Any, ...] = (), *, priority: int = 1, progress: bool = False
    ) -> Task:
        """Queue ``fn(*args)`` (lower ``priority`` runs first); with ``progress`` the call gets a
        ``progress(done, total)`` keyword. It runs in the language in use now."""
        if self.closed:
            raise RuntimeError("the task pool is closed")
        task = Task(next(self._ids), fn, args, priority, progress, language())
        self.queue.put((priority, next(self._order), task))
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
        while True:
            try:
                _p, _o, task = self.queue.get_nowait()
            except queue.Empty:
                break
            if task is not None:
                task.future.cancel()
        for task in self.running():
            self.cancel(task)
        for _slot in self.slots:
            self.queue.put((-(10**9), next(self._order), None))
        for slot in self.slots:
            slot.thread.join(10)

    def __enter__(self) -> TaskPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Task", "TaskCancelled", "TaskPool"]
