"""The process-pool path of ``parallel.ordered_map`` and its ``Workers`` (no cluster): results in
input order for any ``jobs``, an endless input read only as far as the results are taken, errors
reaching the caller, a worker that dies reported instead of waited for, and the workers stopped
when the caller stops reading."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lukfu_solver.parallel import WorkerLost, Workers, ordered_map


def square(x: int) -> int:
    """A task a spawned worker can import."""
    return x * x


def dies_on_three(x: int) -> int:
    """A task whose worker process dies on one item, as one killed by the system would."""
    if x == 3:
        os._exit(3)
    return x


def slow(task: tuple[str, int]) -> int:
    """A task still running when the caller gives up: it leaves a mark in the folder it is given
    only if it runs to its end (30 s later)."""
    folder, x = task
    time.sleep(30)
    Path(folder, f"done-{x}").touch()
    return x


def ctrl_c_ignored(_x: int) -> bool:
    """Whether this worker ignores Ctrl-C."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def fails_on_seven(x: int) -> int:
    """A task that raises on one item."""
    if x == 7:
        raise ValueError("seven")
    return x


@pytest.mark.slow
@pytest.mark.parametrize(("jobs", "chunksize"), [(1, 1), (2, 1), (2, 3)])
def test_results_in_input_order_for_any_jobs(jobs: int, chunksize: int) -> None:
    items = [5, -3, 11, 0, 2, 9, -8, 4, 1, 7, 6]
    assert list(ordered_map(square, items, jobs, chunksize)) == [x * x for x in items]


@pytest.mark.slow
def test_an_endless_input_is_read_only_as_far_as_needed() -> None:
    taken: list[int] = []

    def endless() -> Iterator[int]:
        for i in itertools.count():
            taken.append(i)
            yield i

    stream = ordered_map(square, endless(), 2)
    first = list(itertools.islice(stream, 5))
    stream.close()  # the caller stops reading: the workers are stopped
    assert first == [0, 1, 4, 9, 16]
    assert len(taken) <= 5 + 4 * 2  # the results taken plus one window of chunks in flight


@pytest.mark.slow
def test_workers_serve_several_maps() -> None:
    with Workers(2) as workers:
        assert list(workers.map(square, range(6))) == [0, 1, 4, 9, 16, 25]
        assert list(workers.map(square, [3, 2], 2)) == [9, 4]
    assert workers._pool is None  # closed on leaving the block


@pytest.mark.slow
def test_an_error_in_a_task_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="seven"):
        list(ordered_map(fails_on_seven, range(10), 2))


@pytest.mark.slow
def test_a_dead_worker_is_reported_not_waited_for() -> None:
    # a multiprocessing.Pool would start a new worker and wait for the lost task's result for ever
    # (conftest's hang guard ends such a wait); here the loss is raised in order, after the results
    # before the lost task and none after it
    got: list[int] = []
    with pytest.raises(WorkerLost, match="worker process stopped unexpectedly"):
        for r in ordered_map(dies_on_three, range(10), 2):
            got.append(r)
    assert got == [0, 1, 2][: len(got)]
    assert multiprocessing.active_children() == []


@pytest.mark.slow
def test_ctrl_c_in_the_middle_ends_the_workers_at_once(tmp_path: Path) -> None:
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # as Ctrl-C while the caller waits for a result

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        with pytest.raises(KeyboardInterrupt), Workers(2) as workers:
            next(workers.map(slow, [(str(tmp_path), x) for x in range(4)]))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert multiprocessing.active_children() == []
    assert list(tmp_path.iterdir()) == []  # none of the 30 s tasks ran to its end: not waited for


@pytest.mark.slow
def test_every_worker_starts_with_ctrl_c_ignored() -> None:
    assert all(ordered_map(ctrl_c_ignored, range(8), 2))
