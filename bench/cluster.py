"""Benchmark of batch work on a Dask cluster (``ordered_map`` with ``scheduler=``) beside the
process pool (``jobs``), on one machine.

Three parts, every input a pure function of its seed:

- **throughput**: two batches, the work of ``lukfu solve --batch``: ``--positions`` endgames of
  8 and 9 cards a hand (seeds 0 …; milliseconds each, so the overheads show) and ``--deals``
  full 12-card deals (caller by seed, seeds 0 …; about a second each, so the scaling shows),
  each solved four ways: ``jobs`` 1 (this process), ``jobs`` 2 (a pool of two spawned
  processes), and a ``LocalCluster`` of 1 and of 2 worker processes. For the cluster the start
  (cluster up, kernel warmed on every worker) is timed apart, once for both batches; for the
  pool the start is inside each batch's time, as ``--jobs 2`` pays it. Every way must give the
  same results (checked).
- **overhead**: ``--tasks`` tasks of one trivial item each on the 1- and 2-worker clusters: wall
  seconds a task (submit, schedule, run, fetch, in order), the cost that a task's work must
  dwarf; tasks of several items divide it.
- **estimate**: 100,000 full deals on N machines of 2 cores, from the mean seconds of a full-deal
  solve recorded in ``solve-fast.json`` (set c: 150 positions, one process; this run's own
  full-deal mean beside it) and the overhead a task (``docs/cluster.md``).

The machine is shared (2 cores): the load average before and after is recorded, with the CPU
seconds of this process (the in-process run's work) and, on the cluster, the CPU seconds the
tasks took on the workers: wall seconds far above them mean the cores were busy elsewhere.

Run: ``python -m bench.cluster [--quick] [--positions N] [--deals N] [--tasks N] [--out FILE]``;
results go to ``bench/results/cluster.json``.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from bench.common import RESULTS_DIR, base_parser, fmt, make_console, save_json
from lukfu_solver.endgames import full_deal, random_endgame
from lukfu_solver.parallel import connect, ordered_map
from lukfu_solver.parallel.cluster import Cluster
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver


def solve_text(text: str) -> dict[str, Any]:
    """One line of a solve batch: parse, solve with a fresh compiled solver, the result's data
    (timing apart, so that runs compare equal)."""
    pos = Position.parse(text)
    res = make_solver().solve(pos)
    return {
        "position": text,
        "value": res.value,
        "best": str(res.best),
        "pv": [str(m) for m in res.pv],
        "nodes": res.nodes,
    }


def noop(x: int) -> int:
    """A task with no work: what is left of it is the cluster's overhead."""
    return x


def kernel_warmup() -> None:
    """Compile or load the kernel (looked up when run: the module may move within search/)."""
    from lukfu_solver.search.compiled import compile_all

    compile_all()


def cost(text: str) -> float:
    """The guessed cost of a position line: the search grows about threefold a card a hand."""
    return 3.0 ** Position.parse(text).cards_per_hand()


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, its wall seconds and this process's CPU seconds."""
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w0, time.process_time() - c0


def timed_map(fn: Callable[[Any], Any], items: Any, **kw: Any) -> tuple[list[Any], float, float]:
    """``list(ordered_map(fn, items, **kw))``, its wall seconds and this process's CPU seconds."""
    return timed(lambda: list(ordered_map(fn, items, **kw)))


def run_way(name: str, batches: dict[str, list[str]], **kw: Any) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """Solve every batch one way (``ordered_map`` keywords): the results and the row of figures."""
    row: dict[str, Any] = {"way": name}
    results: dict[str, list[Any]] = {}
    for label, lines in batches.items():
        results[label], wall, cpu = timed_map(solve_text, lines, **kw)
        row[label] = {
            "positions": len(lines),
            "wall_s": round(wall, 3),
            "positions_per_s": round(len(lines) / wall, 2),
            "cpu_s_this_process": round(cpu, 3),
        }
        if isinstance(kw.get("scheduler"), Cluster):
            stats = kw["scheduler"].stats
            row[label].update(
                tasks=stats.tasks, workers_used=len(stats.workers), worker_cpu_s=round(stats.cpu_seconds, 3)
            )
    return results, row


def same(out: dict[str, list[Any]], reference: dict[str, list[Any]], way: str) -> bool:
    """Whether a way gave the results of ``jobs 1``; if not, the first difference on stderr (a
    kernel edited on disk between the runs shows so: worker processes load the file anew)."""
    for label, results in out.items():
        for i, (a, b) in enumerate(zip(results, reference[label], strict=True)):
            if a != b:
                print(f"{way} differs from jobs 1 on {label} {i}: {a} != {b}", file=sys.stderr)
                return False
    return True


def recorded_deals() -> tuple[float, float] | None:
    """The mean and max seconds of a full-deal solve recorded in ``solve-fast.json`` (set c:
    150 positions, one process), if that file has them."""
    try:
        data = json.loads((RESULTS_DIR / "solve-fast.json").read_text(encoding="utf-8"))
        ms = data["sets"]["c"]["solver"]["time_ms"]
        return ms["mean"] / 1000, ms["max"] / 1000
    except (OSError, KeyError, ValueError):
        return None


def estimate(
    per_deal_s: float, tail_s: float, overhead_s: float, deals: int = 100_000, cores: int = 2, per_task: int = 8
) -> list[dict[str, Any]]:
    """Hours for ``deals`` full deals on N machines of ``cores`` cores, one worker a core,
    ``per_task`` deals a task: the longer of the workers' share of the work and the client's
    serial handling of the tasks (``overhead_s`` each), plus the slowest deal as the tail (the
    last worker still busy when the others are done)."""
    rows = []
    tasks = deals / per_task
    for machines in (1, 10, 100, 1000):
        workers = machines * cores
        work_s = (deals * per_deal_s + tasks * overhead_s) / workers
        client_s = tasks * overhead_s
        hours = (max(work_s, client_s) + tail_s) / 3600
        rows.append(
            {
                "machines": machines,
                "workers": workers,
                "hours": round(hours, 3),
                "bound": "workers" if work_s >= client_s else "client",
            }
        )
    return rows


def main() -> int:
    parser = base_parser(__doc__.splitlines()[0], "cluster.json")
    parser.add_argument("--positions", type=int, default=40, help="endgames in the first batch")
    parser.add_argument("--deals", type=int, default=8, help="full deals in the second batch")
    parser.add_argument("--tasks", type=int, default=200, help="trivial tasks for the overhead")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.deals, args.tasks = 12, 2, 40
    console = make_console()
    load_before = list(os.getloadavg())
    batches = {
        "endgames": [str(random_endgame(seed, 8 + seed % 2)) for seed in range(args.positions)],
        "full_deals": [str(full_deal(seed)) for seed in range(args.deals)],
    }
    kernel_warmup()  # so that the in-process run does not include the compile

    reference, row = run_way("jobs 1", batches, jobs=1)
    ways = [row]
    out, row = run_way("jobs 2", batches, jobs=2)
    row["same_as_jobs_1"] = same(out, reference, "jobs 2")
    ways.append(row)
    overhead: list[dict[str, Any]] = []
    for workers in (1, 2):
        cluster, start_s, _ = timed(functools.partial(connect, f"local:{workers}", warmup=kernel_warmup, timeout=60))
        with cluster:
            out, row = run_way(f"cluster local:{workers}", batches, scheduler=cluster, cost=cost)
            row["same_as_jobs_1"] = same(out, reference, f"local:{workers}")
            row["start_s"] = round(start_s, 3)
            ways.append(row)
            _, wall, _ = timed_map(noop, range(args.tasks), scheduler=cluster, chunksize=1)
            overhead.append({"workers": workers, "tasks": args.tasks, "wall_s": round(wall, 3)})
            overhead[-1]["ms_per_task"] = round(1000 * wall / args.tasks, 2)

    deal_s = ways[0]["full_deals"]["wall_s"] / max(1, args.deals)
    recorded = recorded_deals()
    per_deal_s, tail_s = recorded if recorded is not None else (deal_s, 25.0)
    overhead_s = overhead[0]["ms_per_task"] / 1000
    data = {
        "bench": "cluster",
        "quick": args.quick,
        "batches": {
            "endgames": f"{args.positions} endgames, 8 and 9 cards a hand (seeds 0-{args.positions - 1})",
            "full_deals": f"{args.deals} full deals, caller by seed (seeds 0-{args.deals - 1})",
        },
        "throughput": ways,
        "overhead": overhead,
        "estimate": {
            "deals": 100_000,
            "per_deal_s": round(per_deal_s, 3),
            "per_deal_from": "solve-fast.json set c mean" if recorded is not None else "this run's full deals",
            "this_run_per_deal_s": round(deal_s, 3),
            "tail_s": round(tail_s, 3),
            "overhead_s_per_task": overhead_s,
            "deals_per_task": 8,
            "machines_of_2_cores": estimate(per_deal_s, tail_s, overhead_s),
        },
        "ran": {"loadavg_before": load_before, "loadavg_after": list(os.getloadavg())},
    }
    for w in ways:
        cells = [
            f"{label} {fmt(w[label]['positions_per_s'], '/s', 2)} ({fmt(w[label]['wall_s'], ' s', 2)})"
            for label in batches
        ]
        start = f"  start {fmt(w['start_s'], ' s', 2)}" if "start_s" in w else ""
        console.print(f"{w['way']:<16} " + "  ".join(cells) + start)
    for o in overhead:
        console.print(
            f"overhead, {o['workers']} worker(s): {fmt(o['ms_per_task'], ' ms', 2)} a task ({o['tasks']} tasks)"
        )
    for e in data["estimate"]["machines_of_2_cores"]:
        console.print(f"100,000 deals on {e['machines']} machine(s) of 2 cores: {e['hours']} h ({e['bound']}-bound)")
    path = save_json(data, args.out)
    console.print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
