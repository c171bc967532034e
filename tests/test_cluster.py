"""The Dask backend of ``ordered_map`` on real processes: a LocalCluster of two worker processes
(one for the module) gives the results of one process, in order, streamed; the warm-up runs
once a worker; a worker killed mid-task costs a retry, never a lost or doubled result; an
unreachable scheduler is a one-line error before any work; cancelling leaves no task behind.
Then ``--scheduler`` on the command line: ``solve --batch``, ``advise --batch``, ``match`` and
``puzzle generate`` print the local run's output on a LocalCluster and on a ``dask scheduler``
and ``dask worker`` started as separate processes; Ctrl-C exits 130.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

from lukfu_cli.app import app  # noqa: E402
from lukfu_solver import parallel  # noqa: E402
from lukfu_solver.cards import format_cards  # noqa: E402
from lukfu_solver.endgames import full_deal, random_endgame  # noqa: E402
from lukfu_solver.errors import NotationError  # noqa: E402
from lukfu_solver.game import deal_hands  # noqa: E402
from lukfu_solver.parallel import (  # noqa: E402
    ClusterLost,
    SchedulerUnreachable,
    connect,
    ordered_map,
    parse_scheduler,
    using,
)
from lukfu_solver.parallel import cluster as cluster_module  # noqa: E402
from lukfu_solver.parallel.cluster import (  # noqa: E402
    BUFFER_PER_THREAD,
    STREAM_TASK_ITEMS,
    Cluster,
    Progress,
    WarmupPlugin,
    task_size,
)
from lukfu_solver.search import make_solver  # noqa: E402

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this file


def kernel_warmup() -> None:
    """The compiled kernel's warm-up, looked up when run (its module may move within search/)."""
    from lukfu_solver.search.compiled import compile_all

    compile_all()


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with connect("local:2", warmup=kernel_warmup, timeout=30) as c:
        yield c


def solve_endgame(seed: int) -> tuple[int, int | None, str, int]:
    """A deterministic solve: the seed, value, best move and node count."""
    res = make_solver().solve(random_endgame(seed, 8 + seed % 2))
    return seed, res.value, str(res.best), res.nodes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(port: int, proc: subprocess.Popen[bytes], seconds: float) -> None:
    """Wait until ``proc`` accepts connections on 127.0.0.1:``port`` (it must not exit first)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the scheduler exited"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after {seconds} s")


@contextlib.contextmanager
def dask_commands(where: Path, workers: int) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A ``dask scheduler`` and a ``dask worker`` of ``workers`` processes started as separate
    processes on 127.0.0.1, each in its own process group: the scheduler's address and the two
    processes. Both quit by themselves if a test leaks them (idle and death timeouts), and are
    stopped at the end."""
    dask = str(Path(sys.executable).with_name("dask"))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    http = ["--no-dashboard", "--dashboard-address", "127.0.0.1:0"]  # its HTTP server too on loopback
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True, "cwd": where}
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--idle-timeout", "300", *http],
            **quiet,  # type: ignore[call-overload]
        )
    ]
    try:
        _wait_listening(port, procs[0], 60)
        worker = [dask, "worker", address, "--nworkers", str(workers), "--nthreads", "1", "--host", "127.0.0.1"]
        worker += [*http, "--death-timeout", "60", "--local-directory", str(where)]
        procs.append(subprocess.Popen(worker, **quiet))  # type: ignore[call-overload]
        from distributed import Client

        with Client(address, timeout=60) as client:  # every worker process joined, however loaded the machine
            client.wait_for_workers(workers, timeout=120)
        yield address, procs
    finally:
        for proc in reversed(procs):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(procs):
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


@pytest.fixture(scope="module")
def dask_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler with a worker of two processes, as the ``dask`` command starts them."""
    with dask_commands(tmp_path_factory.mktemp("dask"), 2) as (address, _):
        yield address


def test_parse_scheduler() -> None:
    assert str(parse_scheduler("local:2")) == "local:2"
    assert parse_scheduler("local").local_workers == (os.cpu_count() or 1)
    assert parse_scheduler("tcp://127.0.0.1:8786").address == "tcp://127.0.0.1:8786"
    assert parse_scheduler("localhost:8786").address == "tcp://localhost:8786"
    for bad in ("local:x", "local:0", "tcp://127.0.0.1", "127.0.0.1:99999", "", "http://h:1/x"):
        with pytest.raises(NotationError) as err:
            parse_scheduler(bad)
        assert str(err.value).startswith("scheduler: ") and "\n" not in str(err.value)


def test_without_dask_a_one_line_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Dask installed: asking for a scheduler is a one-line error naming the extra."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes ``import distributed`` fail
    monkeypatch.delitem(sys.modules, "lukfu_solver.parallel.cluster")
    with pytest.raises(NotationError) as err:
        connect("local:1")
    assert str(err.value) == "scheduler: Dask is not installed: pip install 'lukfu[dask]'"


def test_task_size() -> None:
    assert task_size(None, 40, 2) == 5  # about four tasks a thread
    assert task_size(None, 3, 2) == 1
    assert task_size(8, 3, 2) == 8 and task_size(1, 400, 2) == 1  # the caller's chunk size wins


@pytest.mark.slow
def test_same_results_as_one_process(cluster: Cluster) -> None:
    seeds = list(range(24))
    local = list(ordered_map(solve_endgame, seeds, jobs=1))
    remote = list(ordered_map(solve_endgame, seeds, scheduler=cluster, cost=lambda s: 3.0 ** (8 + s % 2)))
    assert remote == local
    assert cluster.stats.items == 24 and cluster.stats.tasks == 8  # 3 items a task: several a task
    assert len(cluster.stats.workers) == 2


def test_using_sends_every_map_to_the_cluster(cluster: Cluster) -> None:
    """A library loop inside ``using`` reaches the cluster, and the cluster's own progress."""
    seen: list[Progress] = []
    cluster.progress = seen.append
    try:
        with using(cluster):
            out = list(ordered_map(abs, [-3, 2, -1, 5], jobs=1))
    finally:
        cluster.progress = None
    assert out == [3, 2, 1, 5] and cluster.stats.items == 4
    assert seen and seen[-1].items_total == 4 and seen[-1].workers == 2
    assert seen[-1].line().startswith("tasks ") and "2 workers" in seen[-1].line()


def test_an_endless_input_streams_in_order(cluster: Cluster) -> None:
    """Results come while the input is still unread (puzzle generation maps an endless one),
    and closing the iterator cancels what is pending."""
    stream = ordered_map(abs, (-n for n in itertools.count()), scheduler=cluster)
    assert list(itertools.islice(stream, 30)) == list(range(30))
    stream.close()  # type: ignore[attr-defined]
    assert cluster.stats.tasks <= 30 // STREAM_TASK_ITEMS + 1 + 2 * BUFFER_PER_THREAD  # a bounded window


def slow_square(x: int, seconds: float) -> int:
    time.sleep(seconds)
    return x * x


@pytest.mark.slow
def test_the_hardest_tasks_start_first(cluster: Cluster) -> None:
    """With every task waiting at once, the costliest start first, though submitted last (each
    worker runs two at a time here: start times within a pair may come in either order)."""
    work = functools.partial(_stamped_sleep, seconds=0.2)
    out = list(ordered_map(work, range(8), scheduler=cluster, cost=float))
    assert [x for x, _ in out] == list(range(8))  # input order all the same
    order = [x for x, _ in sorted(out, key=lambda r: r[1])]
    assert set(order[:2]) == {6, 7} and set(order[:4]) == {4, 5, 6, 7}


def _stamped_sleep(x: int, seconds: float) -> tuple[int, float]:
    t = time.time()
    time.sleep(seconds)
    return x, t


def _slow_head(x: int) -> tuple[int, float]:
    return _stamped_sleep(x, 2.0 if x == 0 else 0.05)


@pytest.mark.slow
def test_a_slow_head_does_not_stall_the_others(cluster: Cluster) -> None:
    """Results wait in input order behind a slow first task, but the workers go on with the rest."""
    out = list(ordered_map(_slow_head, range(21), scheduler=cluster, chunksize=1))
    assert [x for x, _ in out] == list(range(21))
    head_end = out[0][1] + 2.0
    assert sum(1 for _, t in out[1:] if t < head_end) >= 15  # not stuck behind a window of 8


def _append_pid(path: str) -> None:
    with open(path, "a") as f:
        f.write(f"{os.getpid()}\n")


def test_the_warmup_runs_once_a_worker(cluster: Cluster, tmp_path: Path) -> None:
    log = tmp_path / "warmups"
    warm = functools.partial(_append_pid, str(log))
    for _ in range(3):  # three maps of several tasks each, the warm-up passed every time
        assert list(ordered_map(abs, range(-20, 0), scheduler=cluster, warmup=warm)) == list(range(20, 0, -1))
    cluster.client.register_plugin(WarmupPlugin(warm), name=WarmupPlugin(warm).name)  # as a second client would
    pids = log.read_text().split()
    assert sorted(pids) == sorted(str(p) for p in cluster.worker_pids().values())  # each worker once
    kernel = [w for w in cluster.warmups().values() if any("compile_all" in n or "kernel_warmup" in n for n in w)]
    assert len(kernel) == 2


def test_an_error_in_a_task_reaches_the_caller(cluster: Cluster) -> None:
    with pytest.raises(ZeroDivisionError):
        list(ordered_map(functools.partial(divmod, 1), [3, 2, 0, 1], scheduler=cluster, chunksize=1))
    assert list(ordered_map(abs, [-1], scheduler=cluster)) == [1]  # the cluster goes on


def test_an_interrupt_cancels_every_pending_task(cluster: Cluster) -> None:
    def interrupt(progress: object) -> None:
        raise KeyboardInterrupt

    work = functools.partial(slow_square, seconds=0.3)
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(work, range(16), scheduler=cluster, chunksize=1, progress=interrupt))
    deadline = time.monotonic() + 10
    while cluster.client.run_on_scheduler(_waiting_tasks) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert cluster.client.run_on_scheduler(_waiting_tasks) == []


ABORT_THEN_LOG = """
import logging, sys
from lukfu_solver.parallel import parse_scheduler
from lukfu_solver.parallel.cluster import Cluster
cluster = Cluster(parse_scheduler("local:1"))
print("started", file=sys.stderr, flush=True)
cluster.abort()
try:
    raise OSError("comm closed")
except OSError:  # what distributed.batched logs, at INFO, when the abort closed its comm
    logging.getLogger("distributed.batched").info("Batched Comm Closed", exc_info=True)
    logging.getLogger("distributed.scheduler").error("lost a worker")
"""


@pytest.mark.slow
def test_after_an_abort_dask_prints_nothing() -> None:
    """After Ctrl-C the cluster is aborted; Dask's late reports of the connections that abort
    closed (CI once showed one, with a traceback, after ``interrupted``) must not reach the
    terminal, though a LocalCluster puts its log level back as it closes."""
    run = subprocess.run([sys.executable, "-c", ABORT_THEN_LOG], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr == "started\n"


def _waiting_tasks(dask_scheduler: object) -> list[str]:
    """The tasks the scheduler still means to run (an erred one kept by an old traceback is not)."""
    states = ("released", "waiting", "queued", "no-worker", "processing")
    return [k for k, t in dask_scheduler.tasks.items() if t.state in states]  # type: ignore[attr-defined]


@pytest.mark.slow
def test_an_unreachable_scheduler_fails_at_once_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    t0 = time.monotonic()
    with pytest.raises(SchedulerUnreachable) as err:
        connect(address, timeout=1)
    assert time.monotonic() - t0 < 10
    message = str(err.value)
    assert message == f"scheduler: cannot reach {address} within 1 s"
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(SchedulerUnreachable):  # raised by the call itself, before any iteration
        ordered_map(abs, [1], scheduler=address)


def _logged_sleep(x: int, path: str, slow: int) -> int:
    with open(path, "a") as f:
        f.write(f"{x} {os.getpid()}\n")
    time.sleep(1.5 if x == slow else 0.1)
    return x * x


@pytest.mark.slow
def test_a_killed_worker_costs_its_task_a_retry(cluster: Cluster, tmp_path: Path) -> None:
    """Kill the worker process that is in the middle of item 5: item 5 runs again elsewhere and
    every result comes exactly once, in order (last in the module: a nanny restarts the worker)."""
    log = tmp_path / "starts"
    log.touch()
    work = functools.partial(_logged_sleep, path=str(log), slow=5)
    killed: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            for line in log.read_text().splitlines():
                x, pid = line.split()
                if x == "5":
                    os.kill(int(pid), signal.SIGKILL)
                    killed.append(int(pid))
                    return
            time.sleep(0.02)

    thread = threading.Thread(target=killer)
    thread.start()
    try:
        out = list(ordered_map(work, range(12), scheduler=cluster, chunksize=1))
    finally:
        thread.join()
    assert killed, "item 5 never started"
    assert out == [x * x for x in range(12)]
    runs = [line.split() for line in log.read_text().splitlines()]
    fives = [pid for x, pid in runs if x == "5"]
    assert len(fives) == 2 and fives[0] == str(killed[0]) and fives[1] != fives[0]  # one retry, elsewhere
    cluster.client.wait_for_workers(2, timeout=30)  # the nanny brings the worker back


@pytest.mark.slow
def test_a_scheduler_and_workers_in_separate_processes(dask_processes: str) -> None:
    """The same results through a scheduler and workers started by the ``dask`` command (the
    scheduler unpickles the tasks, so the function is the library's, not this file's)."""
    from lukfu_solver.search.compiled import compile_all

    deal = functools.partial(random_endgame, cards=9)
    seeds = list(range(16))
    with connect(dask_processes, warmup=compile_all, timeout=60) as remote:
        out = list(ordered_map(deal, seeds, scheduler=remote))
        assert len(remote.nthreads()) == 2 and remote.stats.tasks == 8 and len(remote.warmups()) == 2
    assert out == list(ordered_map(deal, seeds, jobs=1))


@pytest.mark.slow
def test_lost_workers_and_a_lost_scheduler_are_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker killed for good (the ``dask worker`` command and its processes): the map gives
    up after NO_WORKER_SECONDS rather than wait forever. Then the scheduler killed while a map
    waits: one line too. The results before came; the function is one the scheduler can import."""
    monkeypatch.setattr(cluster_module, "NO_WORKER_SECONDS", 1.0)
    with (
        dask_commands(tmp_path, 1) as (address, procs),
        connect(address, timeout=5, first_worker=60) as remote,  # a lost connection given up after 5 s
    ):
        got = []
        with pytest.raises(ClusterLost) as err:
            for x in ordered_map(time.sleep, [0.1] * 200, scheduler=remote, chunksize=1):
                got.append(x)
                if len(got) == 3:
                    os.killpg(procs[1].pid, signal.SIGKILL)
        assert str(err.value).startswith(f"scheduler: {address} has had no worker for 1 s, after ")
        assert 3 <= len(got) < 200
        monkeypatch.setattr(cluster_module, "NO_WORKER_SECONDS", 60.0)
        stream = ordered_map(time.sleep, [0.1] * 10, scheduler=remote, chunksize=1)
        threading.Timer(1.0, os.killpg, (procs[0].pid, signal.SIGKILL)).start()
        with pytest.raises(ClusterLost) as err:
            list(stream)
    assert str(err.value) == f"scheduler: lost {address} after 0 results"


# ---------------------------------------------------------------- the command line


LUKFU = str(Path(sys.executable).with_name("lukfu"))
runner = CliRunner()
MS = re.compile(r', "ms": [0-9.]+|, "seconds": [0-9.]+')
"""The timings of a batch line: all that may differ between a local and a cluster run."""


def lukfu(*args: str) -> Any:
    """``lukfu ARGS`` in this process (Typer's runner: stdout and stderr apart)."""
    return runner.invoke(app, list(args))


def solve_batch_file(tmp_path: Path) -> Path:
    """Twelve endgames of 8 and 9 cards with a bad line among them."""
    lines = [str(random_endgame(seed, 8 + seed % 2)) for seed in range(12)]
    lines.insert(5, "not a position")
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.slow
def test_cli_solve_batch_on_a_local_cluster(tmp_path: Path) -> None:
    path = solve_batch_file(tmp_path)
    here = lukfu("solve", "--batch", str(path))
    there = lukfu("solve", "--batch", str(path), "--scheduler", "local:2")
    assert here.exit_code == 0 and there.exit_code == 0, there.stderr
    assert MS.sub("", there.stdout) == MS.sub("", here.stdout) and len(here.stdout.splitlines()) == 13
    first, last = there.stderr.splitlines()
    assert first == "cluster local:2 (2 workers, 2 threads)"
    assert re.fullmatch(r"cluster local:2: 13 items in \d+ tasks on 2 workers in [0-9.]+ s", last)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(LUKFU), reason="the lukfu script is not installed next to python")
def test_cli_solve_batch_on_dask_scheduler_and_worker_processes(dask_processes: str, tmp_path: Path) -> None:
    """``lukfu solve --batch --scheduler tcp://127.0.0.1:PORT`` against a ``dask scheduler`` and a
    ``dask worker`` started as separate processes: the local run's output."""
    path = solve_batch_file(tmp_path)
    here = subprocess.run([LUKFU, "solve", "--batch", str(path)], capture_output=True, text=True, timeout=120)
    there = subprocess.run(
        [LUKFU, "solve", "--batch", str(path), "--scheduler", dask_processes],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert MS.sub("", there.stdout) == MS.sub("", here.stdout)
    assert f"cluster {dask_processes}: 13 items in" in there.stderr and "on 2 workers" in there.stderr


@pytest.mark.slow
def test_cli_advise_batch_on_the_cluster(dask_processes: str, tmp_path: Path) -> None:
    hands = [f"{format_cards(deal_hands(random.Random(seed))[seed % 3])} {seed % 3}" for seed in range(3)]
    path = tmp_path / "hands.txt"
    path.write_text("\n".join([*hands, "C1 0"]) + "\n")
    args = ["advise", "--batch", str(path), "--samples", "2", "--max-nodes", "20000"]
    here, there = lukfu(*args), lukfu(*args, "--scheduler", dask_processes)
    assert here.exit_code == 0 and there.exit_code == 0, there.stderr
    assert MS.sub("", there.stdout) == MS.sub("", here.stdout)
    lines = [json.loads(line) for line in here.stdout.splitlines()]
    assert [o.get("seat") for o in lines[:3]] == [0, 1, 2] and lines[3] == {"line": 4, "error": lines[3]["error"]}


@pytest.mark.slow
def test_cli_match_and_puzzles_on_the_cluster(dask_processes: str) -> None:
    match = ["match", "--players", "random,rule,rule", "--deals", "3", "--seed", "5", "--json"]
    assert lukfu(*match, "--scheduler", dask_processes).stdout == lukfu(*match).stdout
    puzzles = ["puzzle", "generate", "--count", "2", "--max-cards", "4", "--seed", "3"]
    there, here = lukfu(*puzzles, "--scheduler", dask_processes), lukfu(*puzzles)
    assert there.exit_code == 0 and there.stdout == here.stdout and '"puzzles"' in here.stdout


@pytest.mark.slow
def test_cli_an_unreachable_scheduler_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    path = solve_batch_file(tmp_path)
    assert_bad_input(lukfu("solve", "--batch", str(path), "--scheduler", address), "scheduler", "cannot reach")
    assert_bad_input(lukfu("match", "--players", "random,random,random", "--scheduler", address), "scheduler")
    assert_bad_input(lukfu("solve", "--batch", str(path), "--scheduler", "local:0"), "scheduler", "local:N")
    assert_bad_input(lukfu("solve", "--batch", str(path), "--scheduler", "local:2", "--jobs", "2"), "jobs")
    assert_bad_input(lukfu("solve", str(random_endgame(0, 3)), "--scheduler", "local:2"), "scheduler", "--batch")


AS_FROM_A_TERMINAL: dict[str, Any] = {
    "stdout": subprocess.PIPE,
    "stderr": subprocess.PIPE,
    "text": True,
    "start_new_session": True,  # its own process group, to send it Ctrl-C as a terminal would
    "preexec_fn": lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not a shell's ignored SIGINT
}


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(LUKFU), reason="the lukfu script is not installed next to python")
def test_cli_ctrl_c_cancels_and_exits_130(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) during a batch on a
    LocalCluster: exit 130, one line on stderr, no traceback, the deals solved before it printed as
    whole lines, the rest cancelled, the workers gone at once."""
    seeds = ((12, 0), (13, 1), (9, 0), (11, 0), (1006, 0), (1024, 0), (5, 1), (26, 0), (30, 0))
    deals = [full_deal(seed, caller) for seed, caller in seeds]  # about a second each, the hardest known
    (tmp_path / "slow.txt").write_text("".join(f"{p}\n" for p in deals))
    command = [LUKFU, "solve", "--batch", str(tmp_path / "slow.txt"), "--scheduler", "local:2"]
    proc = subprocess.Popen(command, **AS_FROM_A_TERMINAL)  # type: ignore[call-overload]
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "the cluster did not start"
        assert proc.stderr.readline() == "cluster local:2 (2 workers, 2 threads)\n"
        time.sleep(1)  # the workers are solving the deals
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - t0 < 10
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    assert proc.returncode == 130 and err == "interrupted\n"
    answers = [json.loads(line) for line in out.splitlines()]  # the deals solved before Ctrl-C: whole lines
    assert len(answers) < len(deals) and all("value" in a for a in answers)
