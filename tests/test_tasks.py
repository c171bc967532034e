"""The server's task pool (lukfu_solver/parallel/tasks.py): results, progress, priorities,
cancelling one task without touching the others, and a killed worker failing only its own task."""

from __future__ import annotations

import os
import signal
import time

import pytest

from lukfu_solver.i18n import _, using_language
from lukfu_solver.parallel import WorkerLost
from lukfu_solver.parallel.tasks import TaskCancelled, TaskPool


def slow(seconds: float, progress=None) -> str:  # type: ignore[no-untyped-def]
    """Sleep in steps, reporting progress; returns the language it ran in ("Coins" translated)."""
    steps = 10
    for i in range(steps):
        if progress is not None:
            progress(i, steps)
        time.sleep(seconds / steps)
    return _("Coins")


def die() -> None:
    """The worker dies as if killed."""
    os.kill(os.getpid(), signal.SIGKILL)


def fail() -> None:
    raise ValueError("bad input: field x")


@pytest.fixture(scope="module")
def pool():  # type: ignore[no-untyped-def]
    with TaskPool(2) as p:
        yield p


def test_results_errors_and_the_language_of_the_submitter(pool: TaskPool) -> None:
    assert pool.submit(pow, (3, 4)).future.result(60) == 81
    with pytest.raises(ValueError, match="field x"):
        pool.submit(fail).future.result(60)
    with using_language("es"):
        task = pool.submit(slow, (0.01,))
    assert task.future.result(60) == "Monedas"


@pytest.mark.slow
def test_progress_is_reported(pool: TaskPool) -> None:
    task = pool.submit(slow, (1.0,), progress=True)
    deadline = time.monotonic() + 60
    while task.progress is None or task.progress[0] < 3:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert task.state == "running" and task.progress[1] == 10
    assert task.future.result(60) == "Coins" and task.state == "done"


@pytest.mark.slow
def test_cancelling_one_task_leaves_the_others_running(pool: TaskPool) -> None:
    long = pool.submit(slow, (30.0,), progress=True)
    other = pool.submit(slow, (1.5,))
    while long.progress is None:
        time.sleep(0.02)
    before = set(pool.pids())
    assert pool.cancel(long)
    with pytest.raises(TaskCancelled):
        long.future.result(30)
    assert long.state == "cancelled"
    assert other.future.result(60) == "Coins"  # untouched
    assert set(pool.pids()) != before  # the cancelled task's worker was replaced
    assert pool.submit(pow, (2, 5)).future.result(60) == 32  # and the pool still works


@pytest.mark.slow
def test_a_queued_task_is_dropped_and_priorities_order_the_queue(pool: TaskPool) -> None:
    blockers = [pool.submit(slow, (1.0,)) for _ in range(2)]
    time.sleep(0.2)
    late = pool.submit(slow, (0.01,), priority=5)
    dropped = pool.submit(slow, (0.01,), priority=5)
    early = pool.submit(slow, (0.01,), priority=0)
    assert pool.cancel(dropped) and dropped.state == "cancelled"
    early.future.result(60)
    assert not late.future.done() or late.started >= early.started  # type: ignore[operator]
    late.future.result(60)
    for b in blockers:
        b.future.result(60)


@pytest.mark.slow
def test_a_killed_worker_fails_only_its_own_task(pool: TaskPool) -> None:
    other = pool.submit(slow, (1.0,))
    with pytest.raises(WorkerLost):
        pool.submit(die).future.result(60)
    assert other.future.result(60) == "Coins"
    assert pool.submit(pow, (2, 3)).future.result(60) == 8


def test_a_reserved_worker_runs_urgent_tasks_only() -> None:
    """Long work fills the other workers, never the reserved one: an urgent task starts at once."""
    with TaskPool(2, reserved=1, urgent=0) as pool:
        long = [pool.submit(slow, (4.0,), priority=2) for _ in range(2)]
        deadline = time.monotonic() + 60
        while not any(t.state == "running" for t in long):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.3)
        assert sorted(t.state for t in long) == ["queued", "running"]  # the reserved worker left it
        urgent = pool.submit(slow, (0.01,), priority=0)
        assert urgent.future.result(3) == "Coins"
        assert sorted(t.state for t in long) == ["queued", "running"]
        for t in long:
            pool.cancel(t)


def test_the_status_is_one_state_machine_the_caller_may_own(pool: TaskPool) -> None:
    """The pool moves a status it was given to running and leaves its end to the caller; an end
    is final, so of a cancel and a finish the first stands."""
    from lukfu_solver.parallel.tasks import State, Status

    status = Status()
    task = pool.submit(slow, (0.2,), status=status, progress=True)
    assert task.status is status and task.future.result(60) == "Coins"
    assert status.state == State.RUNNING and status.progress is not None
    assert status.move(State.DONE) and not status.move(State.CANCELLED) and task.state == "done"
    again = Status()
    assert again.move(State.RUNNING) and again.move(State.QUEUED)  # handed out anew
    assert again.state == State.QUEUED and not again.move(State.QUEUED)
    own = pool.submit(slow, (0.01,))
    own.future.result(60)
    assert own.state == "done"  # a status the pool made, the pool ends


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "nice"), reason="no niceness on this system")
def test_urgent_tasks_go_to_the_idle_reserved_worker_and_only_long_work_runs_nice() -> None:
    with TaskPool(2, reserved=1, urgent=0, background_nice=5) as pool:
        kept = pool.slots[0].process.pid
        assert [pool.submit(os.getpid, priority=0).future.result(60) for _ in range(5)] == [kept] * 5
        base = os.nice(0)
        assert pool.submit(os.nice, (0,), priority=0).future.result(60) == base
        other = pool.slots[1].process.pid
        assert pool.submit(os.nice, (0,), priority=3).future.result(60) == min(19, base + 5)
        deadline = time.monotonic() + 30
        while pool.slots[1].process is None or pool.slots[1].process.pid == other:
            assert time.monotonic() < deadline  # the nice worker is replaced once its long work is done
            time.sleep(0.02)
        busy = pool.submit(slow, (2.0,), priority=0)  # the kept worker is busy: urgent work goes to the other
        while busy.state != "running":
            time.sleep(0.02)
        assert pool.submit(os.nice, (0,), priority=0).future.result(60) == base  # at full priority
        busy.future.result(60)
