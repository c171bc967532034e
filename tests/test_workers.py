"""The process-pool path of ``parallel.ordered_map`` and its ``Workers`` (no cluster): results in
input order for any ``jobs``, an endless input read only as far as the results are taken, errors
reaching the caller, and the workers stopped when the caller stops reading."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from lukfu_solver.parallel import Workers, ordered_map


def square(x: int) -> int:
    """A task a spawned worker can import."""
    return x * x


def fails_on_seven(x: int) -> int:
    """A task that raises on one item."""
    if x == 7:
        raise ValueError("seven")
    return x


@pytest.mark.parametrize(("jobs", "chunksize"), [(1, 1), (2, 1), (2, 3)])
def test_results_in_input_order_for_any_jobs(jobs: int, chunksize: int) -> None:
    items = [5, -3, 11, 0, 2, 9, -8, 4, 1, 7, 6]
    assert list(ordered_map(square, items, jobs, chunksize)) == [x * x for x in items]


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


def test_workers_serve_several_maps() -> None:
    with Workers(2) as workers:
        assert list(workers.map(square, range(6))) == [0, 1, 4, 9, 16, 25]
        assert list(workers.map(square, [3, 2], 2)) == [9, 4]
    assert workers._pool is None  # closed on leaving the block


def test_an_error_in_a_task_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="seven"):
        list(ordered_map(fails_on_seven, range(10), 2))
