"""Process pools for batch work (solve batches, PIMC samples, advice, matches).

One way to spread work over cores: ``spawn`` workers (safe on every platform) that start with
Ctrl-C ignored, so only the parent reacts to it and stops the pool; results come back in input
order, so a seed gives the same output with any number of processes.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.pool import Pool
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's business (it terminates the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(jobs: int) -> Pool:
    """A pool of ``jobs`` spawned workers that ignore Ctrl-C from their very start (an ignored
    signal stays ignored across exec, so a worker still starting up cannot print a traceback)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return ctx.Pool(jobs, initializer=_ignore_sigint)
    finally:
        signal.signal(signal.SIGINT, previous)


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int, chunksize: int = 1) -> Iterator[R]:
    """``map(fn, items)`` over ``jobs`` processes (in this process when ``jobs`` is 1), results in
    input order; on any exception or Ctrl-C the workers are stopped at once."""
    if jobs <= 1:
        yield from map(fn, items)
        return
    pool = worker_pool(jobs)
    try:
        yield from pool.imap(fn, items, chunksize=chunksize)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
