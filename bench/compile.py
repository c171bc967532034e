"""Benchmark of the kernel's cold compile: what a newcomer's first full-deal solve waits for.

Each run is a fresh interpreter (a subprocess) with an empty ``NUMBA_CACHE_DIR`` calling
``lukfu_solver.search.compiled.compile_all``, as the first command of a fresh environment does. It
records the wall time (measured by this script around the subprocess) and the subprocess's own
user and system CPU time, and, from numba's compile events inside it, per kernel function that
numba compiled: the seconds of its compile with the functions it compiled on the way excluded
(in compile order), and the seconds spent holding the LLVM lock (LLVM's optimization and code
generation) against the rest (numba's front end, typing and lowering).

``--baseline-path`` names another tree (a directory holding a ``lukfu_solver`` package, e.g. a
git worktree of main): its cold compile is measured in the same run, the two alternating
``--runs`` times, so that both see the same machine load; the ratios are the figures (the
machine may be shared, so a single time means little).

Run: ``python -m bench.compile [--baseline-path DIR] [--runs N] [--out FILE]``; results go to
``bench/results/compile.json``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import REPO_DIR, base_parser, make_console, ratio, save_json

CHILD_CODE = r"""
import json, os, time
from numba.core import event

compiles = []  # [name, exclusive s, llvm s], in the order the compiles end
stack = []  # [name, start, nested s, llvm s] of the compiles in progress
llvm = {"depth": 0, "t": 0.0, "total": 0.0}


class Compiles(event.Listener):
    def on_start(self, ev):
        fn = getattr(ev.data["dispatcher"], "py_func", None)
        name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}" if fn else "?"
        stack.append([name, time.perf_counter(), 0.0, 0.0])

    def on_end(self, ev):
        name, t0, nested, spent = stack.pop()
        total = time.perf_counter() - t0
        compiles.append([name, total - nested, spent])
        if stack:
            stack[-1][2] += total


class Llvm(event.Listener):
    def on_start(self, ev):
        llvm["depth"] += 1
        if llvm["depth"] == 1:
            llvm["t"] = time.perf_counter()

    def on_end(self, ev):
        llvm["depth"] -= 1
        if llvm["depth"] == 0:
            d = time.perf_counter() - llvm["t"]
            llvm["total"] += d
            if stack:
                stack[-1][3] += d


event.register("numba:compile", Compiles())
event.register("numba:llvm_lock", Llvm())
t0 = time.perf_counter()
from lukfu_solver.search.compiled import compile_all

compile_all()
wall = time.perf_counter() - t0
ru = os.times()
print(json.dumps({"wall_s": wall, "user_s": ru.user, "sys_s": ru.system, "llvm_s": llvm["total"], "compiles": compiles}))
"""


def cold_compile(tree: Path) -> dict[str, Any]:
    """One cold compile of the kernel of ``tree`` in a fresh interpreter with an empty numba
    cache: wall, user and sys seconds, LLVM seconds, and the functions numba compiled."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache, PYTHONDONTWRITEBYTECODE="1")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", CHILD_CODE], env=env, capture_output=True, text=True, check=True, cwd=cache
        )
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = json.loads(proc.stdout.strip().splitlines()[-1])
    functions: dict[str, dict[str, float]] = {}
    for name, exclusive, spent in child["compiles"]:
        f = functions.setdefault(name, {"count": 0, "s": 0.0, "llvm_s": 0.0})
        f["count"] += 1
        f["s"] = round(f["s"] + exclusive, 2)
        f["llvm_s"] = round(f["llvm_s"] + spent, 2)
    return {
        "wall_s": round(wall, 1),
        "user_s": round(after.ru_utime - before.ru_utime, 1),
        "sys_s": round(after.ru_stime - before.ru_stime, 1),
        "cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
        "compile_all_wall_s": round(child["wall_s"], 1),
        "llvm_s": round(child["llvm_s"], 1),
        "max_rss_mb": round(after.ru_maxrss / 1024),
        "functions": functions,
    }


def median_of(runs: list[dict[str, Any]], key: str) -> float:
    """The median of one figure over the runs."""
    return round(statistics.median(r[key] for r in runs), 1)


def main(argv: list[str] | None = None) -> int:
    """Measure the cold compiles (this tree, then the baseline, ``--runs`` times), print and save them."""
    parser = base_parser(__doc__.splitlines()[0], "compile.json")
    parser.add_argument("--baseline-path", type=Path, default=None, help="a tree to compare with, measured alternately")
    parser.add_argument("--runs", type=int, default=1, help="cold compiles of each tree (1)")
    args = parser.parse_args(argv)
    trees = {"this": REPO_DIR}
    if args.baseline_path is not None:
        trees["baseline"] = args.baseline_path.resolve()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for i in range(args.runs):
        for name, tree in trees.items():
            print(f"cold compile {i + 1}/{args.runs}: {name} ({tree})", file=sys.stderr, flush=True)
            runs[name].append(cold_compile(tree))
    keys = ("wall_s", "user_s", "sys_s", "cpu_s", "llvm_s")
    result: dict[str, Any] = {
        "trees": {name: str(tree) for name, tree in trees.items()},
        "median": {name: {k: median_of(rs, k) for k in keys} for name, rs in runs.items()},
        "runs": runs,
    }
    if "baseline" in runs:
        result["ratio_baseline_over_this"] = {
            k: ratio(result["median"]["baseline"][k], result["median"]["this"][k], 2) for k in keys
        }
    save_json(result, args.out)
    console = make_console()
    for name, med in result["median"].items():
        console.print(
            f"{name}: wall {med['wall_s']} s, user {med['user_s']} s, sys {med['sys_s']} s, "
            f"CPU {med['cpu_s']} s (LLVM {med['llvm_s']} s)"
        )
    if "ratio_baseline_over_this" in result:
        console.print(f"baseline / this: {result['ratio_baseline_over_this']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
