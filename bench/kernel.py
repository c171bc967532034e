"""Benchmark of the compiled solver against the pure-Python reference on fixed seeded positions
(both from ``lukfu_solver.search.make_solver``: ``"compiled"`` and ``"reference"``).

- **compile**: the kernel's compile time, cold (an empty numba cache, in a subprocess) and warm
  (loaded from the cache, in another subprocess);
- **e6**, **e8**: 30 endgames each with 6 and with 8 cards a hand (seeds 0-29 of
  ``lukfu_solver.endgames.random_endgame``), each solved by both solvers (fresh ones), with a
  check that values *and* node counts agree (they must, unless a table lost entries);
- **full**: 10 full 12-card deals after calling (seeds 0-9 of ``full_deal``, caller by seed),
  the compiled solver only, with a time limit per deal.
- **keys** (``--keys``, alone): the kernel's ``tt_key`` and ``value_bounds`` called in a compiled
  loop over the positions of seeded random playouts of ``full_deal(0..59)`` (``random.Random(1)``, no claims),
  ns per call, best of 5 runs of 50 passes, process CPU time (the cost of a node's table key);
  ``value_bounds_ns`` with the bounds' cache emptied before each pass (a row still finds the
  leads an earlier row of its playout played out; the emptying, one 256 KB fill a pass, adds
  about 5-10 ns a row), ``value_bounds_cached_ns`` with the cache kept (every cacheable row a
  hit after the first pass);
  with ``--parts`` also the moves with their sort keys, their generation alone, ``push``, a table
  probe and a history lookup on the same positions (the other parts of a node's cost).

For each: median, p95 and max of time, nodes and nodes/s. Times are wall-clock on a machine that
may be shared (``environment.cpus``); the CPU time of each solve is recorded as well.

Run: ``python -m bench.kernel [--quick] [--keys [--parts]] [--time-limit S] [--out FILE]``.
``--quick``: 10 endgames of each size, 3 deals, no cold compile. Results go to
``bench/results/kernel.json``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench.common import Case, base_parser, deal_cases, endgame_cases, fmt, make_console, progress, save_json, summary
from lukfu_solver.search import make_solver

COMPILE_CODE = (
    "import time; t = time.perf_counter(); c = time.process_time()\n"
    "from lukfu_solver.search.compiled import compile_all\n"
    "compile_all()\n"
    "print(time.perf_counter() - t, time.process_time() - c)\n"
)


def compile_times(cold: bool) -> dict[str, Any]:
    """Import + compile (or cache load) of the kernel in a fresh interpreter: wall and CPU s."""
    out: dict[str, Any] = {}
    runs = [("cold", True), ("warm", False)] if cold else [("warm", False)]
    with tempfile.TemporaryDirectory() as tmp:
        for name, fresh in runs:
            env = dict(os.environ)
            if fresh:
                env["NUMBA_CACHE_DIR"] = tmp  # empty: everything is compiled
            elif cold:
                env["NUMBA_CACHE_DIR"] = tmp  # filled by the cold run
            line = subprocess.run(
                [sys.executable, "-c", COMPILE_CODE], env=env, capture_output=True, text=True, check=True
            ).stdout.split()
            out[name] = {"wall_s": round(float(line[0]), 3), "cpu_s": round(float(line[1]), 3)}
    return out


def solve(solver: Any, case: Case, time_limit: float) -> dict[str, Any]:
    t0, c0 = time.perf_counter(), time.process_time()
    res = solver.solve(case.position, time_limit=time_limit)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "seed": case.seed,
        "caller": case.caller,
        "value": res.value,
        "complete": res.complete,
        "nodes": res.nodes,
        "ms": round(wall * 1000, 3),
        "cpu_ms": round(cpu * 1000, 3),
        "nodes_per_s": round(res.nodes / wall) if wall > 0 else 0,
        "nodes_per_cpu_s": round(res.nodes / cpu) if cpu > 0 else 0,
        "replaced": getattr(solver, "tt_replaced", None),
    }


def stats(records: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "time_ms": summary(r["ms"] for r in records),
        "cpu_ms": summary(r["cpu_ms"] for r in records),
        "nodes": summary((r["nodes"] for r in records), 1),
        "nodes_per_s": summary((r["nodes_per_s"] for r in records), 0),
        "nodes_per_cpu_s": summary((r["nodes_per_cpu_s"] for r in records), 0),
        "incomplete": sum(not r["complete"] for r in records),
    }


def run_endgames(cards: int, count: int, time_limit: float) -> dict[str, Any]:
    """Each endgame solved by a fresh reference and a fresh compiled solver; both agree."""
    ref, fast = [], []
    for case in progress(endgame_cases(count, cards), f"{cards}-card endgames"):
        ref.append(solve(make_solver("reference"), case, time_limit))
        fast.append(solve(make_solver("compiled"), case, time_limit))
    both = [(r, f) for r, f in zip(ref, fast, strict=True) if r["complete"] and f["complete"]]
    return {
        "description": f"{count} endgames, {cards} cards a hand (seeds 0-{count - 1}), fresh solvers",
        "reference": stats(ref),
        "fast": stats(fast),
        "speedup_total_time": round(sum(r["ms"] for r, _ in both) / max(sum(f["ms"] for _, f in both), 1e-9), 1),
        "speedup_median_time": round(sorted(r["ms"] / f["ms"] for r, f in both if f["ms"] > 0)[len(both) // 2], 1)
        if both
        else None,
        "value_mismatches": [r["seed"] for r, f in both if r["value"] != f["value"]],
        "node_mismatches": [r["seed"] for r, f in both if r["nodes"] != f["nodes"] and not f["replaced"]],
        "records": {"reference": ref, "fast": fast},
    }


def run_deals(count: int, time_limit: float) -> dict[str, Any]:
    """Full deals, compiled solver only (the reference would take hours)."""
    recs = [solve(make_solver("compiled"), case, time_limit) for case in progress(deal_cases(count), "full deals")]
    return {
        "description": f"{count} full deals after calling (seeds 0-{count - 1}, caller by seed), compiled solver",
        "time_limit_s": time_limit,
        "fast": stats(recs),
        "records": recs,
    }


def playout_rows() -> Any:
    """The state rows of the positions along seeded random playouts of full_deal(0..59), claims left out."""
    import random

    import numpy as np

    from lukfu_solver.endgames import full_deal
    from lukfu_solver.plays import CLAIM
    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import load_row

    rng = random.Random(1)
    positions = []
    for seed in range(60):
        pos = full_deal(seed)
        while pos.outcome is None:
            positions.append(pos.copy())
            moves = [m for m in pos.legal_moves() if m.kind != CLAIM] or list(pos.legal_moves())
            pos.push(rng.choice(moves))
    st = np.zeros((len(positions), K.NF), dtype=np.int64)
    for i, pos in enumerate(positions):
        load_row(st, i, pos)
    return st


def key_costs(runs: int = 5, passes: int = 50) -> dict[str, Any]:
    """ns per call of the kernel's tt_key and value_bounds over the playout rows (best of runs)."""
    from numba import njit

    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import tables

    @njit
    def loop_key(T, st, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            for p in range(st.shape[0]):
                acc ^= K.tt_key(T, st, p)
        return acc

    @njit
    def loop_bounds(T, st, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            T[K.O_VBC :] = 0  # the bounds' cache emptied: hits only within the pass
            for p in range(st.shape[0]):
                lo, hi = K.value_bounds(T, st, p)
                acc += lo - hi
        return acc

    @njit
    def loop_cached(T, st, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            for p in range(st.shape[0]):
                lo, hi = K.value_bounds(T, st, p)
                acc += lo - hi
        return acc

    T, st = tables(), playout_rows()
    out: dict[str, Any] = {"positions": int(st.shape[0]), "runs": runs, "passes": passes}
    loops = (("tt_key_ns", loop_key), ("value_bounds_ns", loop_bounds), ("value_bounds_cached_ns", loop_cached))
    for name, fn in loops:
        fn(T, st, 1)
        best = float("inf")
        for _ in range(runs):
            c0 = time.process_time()
            fn(T, st, passes)
            best = min(best, time.process_time() - c0)
        out[name] = round(best / (passes * st.shape[0]) * 1e9, 1)
    return out


def part_costs(runs: int = 5, passes: int = 30) -> dict[str, Any]:
    """ns per call of the other parts of a node over the playout rows (best of runs): the moves
    with their sort keys (``node_moves``, empty history), their generation alone, ``push`` of the
    first legal move, a table probe that misses (full tables of 64 K, 1 M and 4 M slots) and a
    history lookup. Each row is first copied to row 0 (the copy's cost is subtracted)."""
    import numpy as np
    from numba import njit

    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import tables
    from lukfu_solver.search.kernel.ordering import hist_get
    from lukfu_solver.search.kernel.table import tt_find

    @njit
    def loop_rows(T, st, st2, mv, mk, sc, hk, hv, first, what, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            for i in range(st.shape[0]):
                for f in range(K.NF):
                    st2[0, f] = st[i, f]
                if what == 1:
                    acc += K.node_moves(T, st2, 0, mv, mk, sc, K.NO_MOVE, K.NO_MOVE, K.NO_MOVE, hk, hv, True)
                elif what == 2:
                    acc += K.legal_moves(T, st2, 0, mv, sc, mv[1])
                elif what == 3:
                    K.push(T, st2, 0, first[i])
                    acc += st2[1, K.F_KEY]
                else:
                    acc += st2[0, 0]
        return acc

    @njit
    def loop_find(tt, nbm, keys, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            for i in range(keys.shape[0]):
                acc += tt_find(tt, nbm, keys[i])
        return acc

    @njit
    def loop_hist(hk, hv, keys, passes):  # type: ignore[no-untyped-def]
        acc = 0
        for _ in range(passes):
            for i in range(keys.shape[0]):
                acc += hist_get(hk, hv, keys[i])
        return acc

    def best(fn: Any, args: tuple[Any, ...], count: int) -> float:
        fn(*args, 1)
        b = float("inf")
        for _ in range(runs):
            c0 = time.process_time()
            fn(*args, passes)
            b = min(b, time.process_time() - c0)
        return b / (passes * count) * 1e9

    T, st = tables(), playout_rows()
    n = st.shape[0]
    st2 = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
    mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    mk = np.zeros_like(mv)
    sc = np.zeros(K.SC_SIZE, dtype=np.int64)
    hk, hv = np.zeros(1 << 12, dtype=np.int64), np.zeros(1 << 12, dtype=np.int64)
    first = np.zeros(n, dtype=np.int64)
    for i in range(n):
        st2[0] = st[i]
        K.legal_moves(T, st2, 0, mv, sc, mv[1])
        first[i] = mv[1, 0]
    rng = np.random.default_rng(0)
    out: dict[str, Any] = {"positions": int(n), "runs": runs, "passes": passes}
    rows = (T, st, st2, mv, mk, sc, hk, hv, first)
    copy = best(loop_rows, (*rows, 0), n)
    out["row_copy_ns"] = round(copy, 1)
    for what, name in ((1, "node_moves_ns"), (2, "legal_moves_ns"), (3, "push_ns")):
        out[name] = round(best(loop_rows, (*rows, what), n) - copy, 1)
    keys = rng.integers(-(1 << 62), 1 << 62, size=4096)
    for slots in (1 << 16, 1 << 20, 1 << 22):
        tt = np.zeros(2 * slots, dtype=np.int64)
        tt[1::2] = rng.integers(1, 1 << 60, size=slots)  # every slot full: the probe misses
        out[f"tt_find_miss_{slots}_slots_ns"] = round(best(loop_find, (tt, slots // 4 - 1, keys), 4096), 1)
    hkeys = (rng.integers(0, 3, size=4096) << 36) | rng.integers(1, 1 << 36, size=4096)
    ctr = np.zeros(K.NCTR, dtype=np.int64)
    for k in hkeys[:1500].tolist():
        K.hist_add(hk, hv, ctr, k, 5)
    out["hist_get_ns"] = round(best(loop_hist, (hk, hv, hkeys), 4096), 1)
    return out


def print_results(data: dict[str, Any]) -> None:
    from rich import box
    from rich.table import Table

    console = make_console()
    if "compile" in data:
        c = data["compile"]
        console.print(
            "compile: "
            + ", ".join(
                f"{k} {v['wall_s']:.1f} s wall / {v['cpu_s']:.1f} s CPU (import included)" for k, v in c.items()
            )
        )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for col in (
        "set",
        "solver",
        "n",
        "ms med",
        "ms p95",
        "ms max",
        "nodes med",
        "Mnodes/s med",
        "Mn/CPU-s med",
        "limit",
    ):
        table.add_column(col, justify="left" if col in ("set", "solver") else "right")
    for name, res in data["sets"].items():
        for solver in ("reference", "fast"):
            if solver not in res:
                continue
            s = res[solver]
            table.add_row(
                name,
                solver,
                str(s["time_ms"]["n"]),
                fmt(s["time_ms"]["median"]),
                fmt(s["time_ms"]["p95"]),
                fmt(s["time_ms"]["max"]),
                fmt(s["nodes"]["median"]),
                fmt(s["nodes_per_s"]["median"] / 1e6, digits=2),
                fmt(s["nodes_per_cpu_s"]["median"] / 1e6, digits=2),
                str(s["incomplete"]),
            )
    console.print(table)
    for name, res in data["sets"].items():
        if "speedup_total_time" in res:
            console.print(
                f"{name}: fast/reference speed-up x{res['speedup_total_time']} (total time), "
                f"x{res['speedup_median_time']} (median per position); "
                f"value mismatches {res['value_mismatches'] or 'none'}, node mismatches {res['node_mismatches'] or 'none'}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "kernel.json")
    parser.add_argument("--time-limit", type=float, default=60.0, help="time limit per position, s (60)")
    parser.add_argument("--keys", action="store_true", help="only the ns per call of tt_key and value_bounds")
    parser.add_argument("--parts", action="store_true", help="with --keys: the ns per call of a node's other parts too")
    args = parser.parse_args(argv)
    if args.keys:
        costs = key_costs()
        if args.parts:
            costs.update(part_costs())
        print(costs)
        if args.out != parser.get_default("out"):
            print(f"saved {save_json({'bench': 'kernel-keys', 'keys': costs}, args.out)}")
        return 0
    n_end, n_deal = (10, 3) if args.quick else (30, 10)
    data: dict[str, Any] = {"bench": "kernel", "quick": args.quick, "time_limit_s": args.time_limit}
    data["compile"] = compile_times(cold=not args.quick)
    from lukfu_solver.search.compiled import compile_all

    compile_all()
    data["sets"] = {
        "e6": run_endgames(6, n_end, args.time_limit),
        "e8": run_endgames(8, n_end, args.time_limit),
        "full": run_deals(n_deal, args.time_limit),
    }
    print_results(data)
    path = save_json(data, args.out)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
