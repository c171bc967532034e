"""Benchmark of the exact solver (``lukfu_solver.search.make_solver``) on fixed seeded position sets.

Sets (every position a pure function of its seed, see ``lukfu_solver.endgames``):

- **a**: 200 endgames with 6 cards a hand (seeds 0–199; the caller drawn by the seed);
- **b**: 50 full deals of 12 cards after calling (seeds 0–49; the caller drawn by the seed);
- **c**: the same 50 deals once for each of the three possible callers (150 positions);
- **d**: 50 further full deals (seeds 1000–1049; the caller drawn by the seed).

For each set: median, p95 and max of time, nodes, nodes/s and table hit rate of the solver
(a fresh solver for each position: the MTD(f) driver, a per-position ``--time-limit``), and the same for the plain
baseline ``plain_alphabeta`` (no table, no ordering, no bounds) capped at a node count, measured
in the same run; node and time ratios solver/plain over the positions where plain finished (and
the solver too); the worst cases; on the sets of ``--compare-drivers`` (default a), the other
driver (bisection) measured too and the two compared. Values of
the solver, plain (when it finished) and the other driver are cross-checked.

Run: ``python -m bench.solve [--quick] [--sets a,b,c] [--time-limit S] [--out FILE]``;
``--solver fast`` measures the compiled kernel, ``--threads 2`` with a helper thread (the other
driver's comparison then still runs on one thread).
``--quick``: set a with 40 positions and set b with 5 deals (sets c and d, if asked for, 5 deals).
``--only SEED:CALLER,...`` keeps only those positions of the sets (the worst case on two threads).
``--baseline``: beside every solve, the same position is solved by the solver of git
``fbfdd6f`` (the compiled solver the search's speed-ups are measured against, extracted from git by ``git archive``
into a directory of the system's temporary directory), or of another revision
(``--baseline-rev REV``, e.g. a branch point), or of a
tree on disk (``--baseline-path``), in a subprocess,
one position after the other, so that both see the same machine; values must agree, and the
ratios baseline/solver of total nodes and total CPU time are printed and saved.
Times are wall and CPU (``cpu_ms``, the process's CPU time: both threads with ``--threads 2``).
Results are saved to ``bench/results/solve.json`` (or ``--out``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import (
    BASELINE_COMMIT,
    Case,
    Timer,
    base_parser,
    baseline_tree,
    deal_cases,
    endgame_cases,
    fmt,
    make_console,
    percentile,
    progress,
    ratio,
    save_json,
    summary,
)
from lukfu_solver.search import make_solver, plain_alphabeta

SET_NAMES = ("a", "b", "c", "d")
FULL = {"a": 200, "b": 50, "c": 50, "d": 50}
QUICK = {"a": 40, "b": 5, "c": 5, "d": 5}
PLAIN_CAP = {"a": 200_000, "b": 100_000, "c": 100_000, "d": 100_000}
SET_D_FIRST_SEED = 1000
ENDGAME_CARDS = 6
WORST = 5


def describe(name: str, count: int) -> str:
    """What a set holds, in words."""
    if name == "a":
        return f"{count} endgames, {ENDGAME_CARDS} cards a hand (seeds 0-{count - 1})"
    if name == "b":
        return f"{count} full deals after calling, caller by seed (seeds 0-{count - 1})"
    if name == "d":
        last = SET_D_FIRST_SEED + count - 1
        return f"{count} further full deals after calling, caller by seed (seeds {SET_D_FIRST_SEED}-{last})"
    return f"{count} full deals x 3 callers = {3 * count} positions (seeds 0-{count - 1})"


def build_set(name: str, count: int) -> list[Case]:
    """The fixed positions of set ``name`` with ``count`` seeds."""
    if name == "a":
        return endgame_cases(count, ENDGAME_CARDS)
    if name == "b":
        return deal_cases(count)
    if name == "d":
        return deal_cases(count, first_seed=SET_D_FIRST_SEED)
    return deal_cases(count, callers=(0, 1, 2))


# ---------------------------------------------------------------- measuring one position


def nodes_per_s(nodes: int, ms: float) -> float:
    return nodes / (ms / 1000) if ms > 0 else 0.0


SOLVER_KIND = "reference"
"""Which solver the run measures: ``reference`` (the pure-Python search) or ``fast`` (the
compiled kernel); the names stay those of the recorded results."""

FACTORY_KIND = {"reference": "reference", "fast": "compiled"}
"""The :func:`lukfu_solver.search.make_solver` kind of each ``--solver`` choice."""


def measure_solver(
    case: Case, driver: str, time_limit: float, max_entries: int | None, threads: int = 1
) -> dict[str, Any]:
    """Solve one position with a fresh solver; the record of the result and its statistics."""
    solver = make_solver(FACTORY_KIND[SOLVER_KIND], threads=threads, max_entries=max_entries, driver=driver)
    c0 = time.process_time()
    with Timer() as t:
        res = solver.solve(case.position, time_limit=time_limit)
    cpu_ms = (time.process_time() - c0) * 1000
    return {
        "seed": case.seed,
        "caller": case.caller,
        "value": res.value,
        "lower": res.lower,
        "upper": res.upper,
        "complete": res.complete,
        "nodes": res.nodes,
        "ms": round(t.ms, 3),
        "cpu_ms": round(cpu_ms, 3),
        "nodes_per_s": round(nodes_per_s(res.nodes, t.ms)),
        "hit_rate": round(res.hit_rate, 4),
    }


def measure_plain(case: Case, cap: int) -> dict[str, Any]:
    """Run the plain baseline on one position, capped at ``cap`` nodes."""
    with Timer() as t:
        value, nodes = plain_alphabeta(case.position, cap)
    return {
        "seed": case.seed,
        "caller": case.caller,
        "value": value,
        "finished": value is not None,
        "nodes": nodes,
        "ms": round(t.ms, 3),
        "nodes_per_s": round(nodes_per_s(nodes, t.ms)),
    }


# ---------------------------------------------------------------- the baseline (fbfdd6f)

BASELINE_LABEL = BASELINE_COMMIT
"""How results name the baseline: ``--baseline-rev``, else the ``--baseline-path`` directory's
name, else :data:`BASELINE_COMMIT` (set by :func:`main`)."""

_BASELINE_WORKER = """
import json, sys, time
try:  # the compiled solver's module and class in the baseline's tree, newest names first
    from lukfu_solver.search.compiled import CompiledSolver, compile_all
except ImportError:
    try:
        from lukfu_solver.search.fast import FastSolver as CompiledSolver, compile_all
    except ImportError:
        from lukfu_solver.fastsearch import FastSolver as CompiledSolver, compile_all
from lukfu_solver.position import Position
compile_all()
print("ready", flush=True)
for line in sys.stdin:
    text, threads, limit = json.loads(line)
    solver = CompiledSolver(threads=threads)
    c0, w0 = time.process_time(), time.perf_counter()
    res = solver.solve(Position.parse(text), time_limit=limit)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"value": res.value, "complete": res.complete, "nodes": res.nodes,
                      "ms": round(wall * 1000, 3), "cpu_ms": round(cpu * 1000, 3)}), flush=True)
"""
"""The baseline's worker: reads (position, threads, time limit) a line, answers with the result."""


class Baseline:
    """The baseline solver in a subprocess: :meth:`solve` one position at a time."""

    def __init__(self, tree: Path) -> None:
        """``tree``: the directory holding the baseline's ``lukfu_solver`` (:func:`main` resolves
        it once with ``common.baseline_tree``)."""
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BASELINE_WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),  # so that the checkout's own lukfu_solver is not imported
        )
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "ready"

    def solve(self, case: Case, threads: int, time_limit: float) -> dict[str, Any]:
        """The baseline's record of one position (value, nodes, wall and CPU ms)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([str(case.position), threads, time_limit]) + "\n")
        self.proc.stdin.flush()
        return {"seed": case.seed, "caller": case.caller, **json.loads(self.proc.stdout.readline())}

    def close(self) -> None:
        """End the subprocess."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def compare_baseline(solver: list[dict[str, Any]], base: list[dict[str, Any]]) -> dict[str, Any]:
    """The solver against the baseline on the same positions: totals and their ratios
    (baseline / solver: above 1 means the solver is better), medians, and any value mismatch."""
    both = [(s, b) for s, b in zip(solver, base, strict=True) if s["complete"] and b["complete"]]
    tot = {
        who: {key: sum(pair[i][key] for pair in both) for key in ("nodes", "ms", "cpu_ms")}
        for i, who in enumerate(("solver", "baseline"))
    }
    base_cpu = summary(b["cpu_ms"] for b in base)
    solver_cpu = summary(s["cpu_ms"] for s in solver)
    return {
        "baseline": BASELINE_LABEL,
        "over": "positions both completed",
        "positions": len(both),
        "totals": tot,
        "node_ratio": ratio(tot["baseline"]["nodes"], tot["solver"]["nodes"]),
        "cpu_ratio": ratio(tot["baseline"]["cpu_ms"], tot["solver"]["cpu_ms"]),
        "wall_ratio": ratio(tot["baseline"]["ms"], tot["solver"]["ms"]),
        "baseline_stats": {
            "cpu_ms": base_cpu,
            "nodes": summary((b["nodes"] for b in base), 1),
        },
        "solver_cpu_ms": solver_cpu,
        "cpu_p95_ratio": ratio(base_cpu["p95"] or 0.0, solver_cpu["p95"] or 0.0),
        "value_mismatches": [
            {"seed": s["seed"], "caller": s["caller"], "solver": s["value"], "baseline": b["value"]}
            for s, b in both
            if s["value"] != b["value"]
        ],
        "incomplete": sum(not s["complete"] or not b["complete"] for s, b in zip(solver, base, strict=True)),
    }


# ---------------------------------------------------------------- summaries


def stats(records: list[dict[str, Any]], hit_rate: bool = True) -> dict[str, Any]:
    """Median, p95, max (and mean) of time, nodes, nodes/s and (solver) table hit rate."""
    out = {
        "time_ms": summary(r["ms"] for r in records),
        "nodes": summary((r["nodes"] for r in records), 1),
        "nodes_per_s": summary((r["nodes_per_s"] for r in records), 0),
    }
    if hit_rate:
        out["hit_rate"] = summary(r["hit_rate"] for r in records)
    return out


def compare(solver: list[dict[str, Any]], plain: list[dict[str, Any]]) -> dict[str, Any]:
    """Solver vs plain over the positions where plain finished and the solver completed."""
    pairs = [(s, p) for s, p in zip(solver, plain, strict=True) if p["finished"] and s["complete"]]
    s_nodes = sum(s["nodes"] for s, _ in pairs)
    p_nodes = sum(p["nodes"] for _, p in pairs)
    s_ms = sum(s["ms"] for s, _ in pairs)
    p_ms = sum(p["ms"] for _, p in pairs)
    mismatches = [
        {"seed": s["seed"], "caller": s["caller"], "solver": s["value"], "plain": p["value"]}
        for s, p in pairs
        if s["value"] != p["value"]
    ]
    return {
        "over": "positions where plain finished under its cap and the solver completed",
        "positions": len(pairs),
        "node_ratio": ratio(s_nodes, p_nodes),
        "time_ratio": ratio(s_ms, p_ms),
        "node_ratio_per_position": summary((s["nodes"] / p["nodes"] for s, p in pairs if p["nodes"]), 4),
        "time_ratio_per_position": summary((s["ms"] / p["ms"] for s, p in pairs if p["ms"]), 4),
        "value_mismatches": mismatches,
    }


def compare_drivers(bisect: list[dict[str, Any]], mtdf: list[dict[str, Any]]) -> dict[str, Any]:
    """Bisect vs MTD(f): medians of nodes and time, and any disagreement in value."""
    both = [(b, m) for b, m in zip(bisect, mtdf, strict=True) if b["complete"] and m["complete"]]
    out: dict[str, Any] = {}
    for name, recs in (("bisect", bisect), ("mtdf", mtdf)):
        out[name] = {
            "nodes": summary((r["nodes"] for r in recs), 1),
            "time_ms": summary(r["ms"] for r in recs),
            "time_limit_hits": sum(not r["complete"] for r in recs),
        }
    out["mtdf_vs_bisect"] = {
        "over": "positions both drivers completed",
        "positions": len(both),
        "node_ratio": ratio(sum(m["nodes"] for _, m in both), sum(b["nodes"] for b, _ in both)),
        "time_ratio": ratio(sum(m["ms"] for _, m in both), sum(b["ms"] for b, _ in both)),
    }
    out["value_mismatches"] = [
        {"seed": b["seed"], "caller": b["caller"], "bisect": b["value"], "mtdf": m["value"]}
        for b, m in both
        if b["value"] != m["value"]
    ]
    return out


def worst_cases(records: list[dict[str, Any]], k: int = WORST) -> list[dict[str, Any]]:
    """The ``k`` slowest positions: seed, caller, time, nodes, whether complete."""
    slow = sorted(records, key=lambda r: r["ms"], reverse=True)[:k]
    keys = ("seed", "caller", "ms", "cpu_ms", "nodes", "complete", "value")
    return [{key: r[key] for key in keys if key in r} for r in slow]


# ---------------------------------------------------------------- one set


def run_set(name: str, cases: list[Case], args: Any) -> dict[str, Any]:
    """Measure the solver, plain and (set a) the other driver on every case of a set."""
    cap = PLAIN_CAP[name] if args.plain_cap is None else args.plain_cap
    drivers = name in args.driver_sets and not args.no_drivers
    solver, plain, other, base = [], [], [], []
    for case in progress(cases, f"set {name}"):
        solver.append(measure_solver(case, "mtdf", args.time_limit, args.max_entries, args.threads))
        if args.baseline_solver is not None:
            base.append(args.baseline_solver.solve(case, args.threads, args.time_limit))
        if not args.no_plain:
            plain.append(measure_plain(case, cap))
        if drivers:
            other.append(measure_solver(case, "bisect", args.time_limit, args.max_entries))
    result: dict[str, Any] = {
        "description": describe(name, args.counts[name]),
        "positions": len(cases),
        "time_limit_s": args.time_limit,
        "solver": {
            "driver": "mtdf",
            "threads": args.threads,
            **stats(solver),
            "time_limit_hits": sum(not r["complete"] for r in solver),
        },
        "worst": worst_cases(solver),
    }
    if plain:
        result["plain"] = {
            "cap_nodes": cap,
            "hit_cap": sum(not r["finished"] for r in plain),
            "all": stats(plain, hit_rate=False),
            "finished": stats([r for r in plain if r["finished"]], hit_rate=False),
        }
        result["solver_vs_plain"] = compare(solver, plain)
    if other:
        result["drivers"] = compare_drivers(other, solver)
    if base:
        result["vs_baseline"] = compare_baseline(solver, base)
    result["records"] = {"solver": solver, "plain": plain, "bisect": other, "baseline": base}
    return result


# ---------------------------------------------------------------- printing


def print_set(name: str, res: dict[str, Any]) -> None:
    """The detailed report of one set on stdout."""
    from rich import box
    from rich.table import Table

    console = make_console()
    threads = res["solver"].get("threads", 1)
    on = f" (solver on {threads} threads)" if threads != 1 else ""
    console.print(f"\n[bold]Set {name}[/bold]: {res['description']}{on}")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("")
    for col in ("median", "p95", "max"):
        table.add_column(col, justify="right")
    rows = [
        ("solver time (ms)", res["solver"]["time_ms"], ""),
        ("solver nodes", res["solver"]["nodes"], ""),
        ("solver nodes/s", res["solver"]["nodes_per_s"], ""),
        ("solver hit rate", res["solver"]["hit_rate"], "%"),
    ]
    if "plain" in res:
        fin = res["plain"]["all"]
        rows += [
            ("plain time (ms)", fin["time_ms"], ""),
            ("plain nodes", fin["nodes"], ""),
            ("plain nodes/s", fin["nodes_per_s"], ""),
        ]
    for label, s, unit in rows:
        if unit == "%":
            cells = [fmt(None if s[c] is None else 100 * s[c], "%") for c in ("median", "p95", "max")]
        else:
            cells = [fmt(s[c]) for c in ("median", "p95", "max")]
        table.add_row(label, *cells)
    console.print(table)
    hits = res["solver"]["time_limit_hits"]
    console.print(f"solver time limit {res['time_limit_s']:g} s: {hits} of {res['positions']} positions hit it")
    if "plain" in res:
        p = res["plain"]
        console.print(
            f"plain capped at {p['cap_nodes']:,} nodes: {p['hit_cap']} of {res['positions']} hit the cap "
            "(plain rows above count capped positions at the cap)"
        )
        c = res["solver_vs_plain"]
        if not c["positions"]:
            console.print("solver/plain: no position where plain finished under its cap (and the solver completed)")
        else:
            console.print(
                f"solver/plain over the {c['positions']} positions where plain finished (and the solver completed): "
                f"nodes x{fmt(c['node_ratio'], digits=4)}, time x{fmt(c['time_ratio'], digits=4)} "
                f"(per position, median: nodes x{fmt(c['node_ratio_per_position']['median'], digits=4)}, "
                f"time x{fmt(c['time_ratio_per_position']['median'], digits=4)})"
            )
        if c["value_mismatches"]:
            console.print(f"[bold red]VALUE MISMATCH solver vs plain: {c['value_mismatches']}[/bold red]")
    if "drivers" in res:
        d = res["drivers"]
        b, m = d["bisect"], d["mtdf"]
        console.print(
            f"drivers, medians: bisect {fmt(b['nodes']['median'])} nodes {fmt(b['time_ms']['median'])} ms; "
            f"mtdf {fmt(m['nodes']['median'])} nodes {fmt(m['time_ms']['median'])} ms "
            f"(totals mtdf/bisect: nodes x{fmt(d['mtdf_vs_bisect']['node_ratio'], digits=3)}, "
            f"time x{fmt(d['mtdf_vs_bisect']['time_ratio'], digits=3)})"
        )
        if d["value_mismatches"]:
            console.print(f"[bold red]VALUE MISMATCH bisect vs mtdf: {d['value_mismatches']}[/bold red]")
    if "vs_baseline" in res:
        console.print(baseline_line(res["vs_baseline"]))
    worst = "; ".join(
        f"seed {w['seed']} caller {w['caller']}: {fmt(w['ms'])} ms, {w['nodes']:,} nodes"
        + ("" if w["complete"] else " (time limit)")
        for w in res["worst"]
    )
    console.print(f"worst: {worst}")


def baseline_line(c: dict[str, Any]) -> str:
    """One line: the solver against the baseline (totals, ratios, medians, mismatches)."""
    tot = c["totals"]
    line = (
        f"vs {c['baseline']} over {c['positions']} positions: nodes {tot['baseline']['nodes']:,} -> "
        f"{tot['solver']['nodes']:,} (x{fmt(c['node_ratio'], digits=2)} fewer), CPU "
        f"{fmt(tot['baseline']['cpu_ms'] / 1000)} s -> {fmt(tot['solver']['cpu_ms'] / 1000)} s "
        f"(x{fmt(c['cpu_ratio'], digits=2)} less); CPU median {fmt(c['baseline_stats']['cpu_ms']['median'])} -> "
        f"{fmt(c['solver_cpu_ms']['median'])} ms, p95 {fmt(c['baseline_stats']['cpu_ms']['p95'])} -> "
        f"{fmt(c['solver_cpu_ms']['p95'])} ms, max {fmt(c['baseline_stats']['cpu_ms']['max'])} -> "
        f"{fmt(c['solver_cpu_ms']['max'])} ms"
    )
    if c["value_mismatches"]:
        line += f"\n[bold red]VALUE MISMATCH solver vs baseline: {c['value_mismatches']}[/bold red]"
    return line


BENCH_MACHINE_P95_MS = 2200.0
"""The bench machine of the search's p95 goal: the wall-time p95 of fbfdd6f's search, one thread,
over sets b and c together (its node counts, measured at fa0b4ac in ``bench/results/solve-fast.json``).
The goal is a p95 under :data:`P95_GOAL_MS` there; this run's machine may be faster or slower, so the
goal is judged by the p95 ratio against the baseline measured in the same run."""

P95_GOAL_MS = 500.0
"""The search's goal for the p95 of sets b and c on the bench machine, one thread (``docs/search.md``, "Figures")."""


def p95_goal(solver: list[dict[str, Any]], base: list[dict[str, Any]]) -> dict[str, Any]:
    """The search's p95 goal on these records (sets b and c, one thread): the wall-time p95 of both
    solvers in this run, their ratio, the ratio the goal needs (:data:`BENCH_MACHINE_P95_MS` over
    :data:`P95_GOAL_MS`), and the solver's p95 carried over to the bench machine by this run's
    baseline (its p95 times bench machine / this run)."""
    s95 = percentile([s["ms"] for s in solver], 95)
    b95 = percentile([b["ms"] for b in base], 95)
    on_bench = s95 * BENCH_MACHINE_P95_MS / b95
    return {
        "positions": len(solver),
        "solver_p95_ms": round(s95, 3),
        "baseline_p95_ms": round(b95, 3),
        "p95_ratio": ratio(b95, s95),
        "ratio_needed": ratio(BENCH_MACHINE_P95_MS, P95_GOAL_MS),
        "bench_machine_p95_ms": round(on_bench, 1),
        "met": on_bench < P95_GOAL_MS,
    }


def p95_goal_line(g: dict[str, Any]) -> str:
    """One line: the search's p95 goal as this run measures it."""
    verdict = "met" if g["met"] else "not met"
    return (
        f"sets b + c, the search's p95 goal ({fmt(P95_GOAL_MS)} ms on the bench machine, where fbfdd6f took "
        f"{fmt(BENCH_MACHINE_P95_MS)} ms): p95 {fmt(g['baseline_p95_ms'])} -> {fmt(g['solver_p95_ms'])} ms, "
        f"x{fmt(g['p95_ratio'], digits=2)} (x{fmt(g['ratio_needed'], digits=2)} needed), "
        f"{fmt(g['bench_machine_p95_ms'])} ms on the bench machine: {verdict}"
    )


def pooled(results: dict[str, dict[str, Any]], names: list[str], who: str) -> list[dict[str, Any]]:
    """The records of ``who`` (``solver`` or ``baseline``) over the sets ``names``, in order."""
    return [r for n in names for r in results[n]["records"][who]]


def bc_goal(results: dict[str, dict[str, Any]], threads: int) -> dict[str, Any] | None:
    """:func:`p95_goal` over sets b and c when both ran in full beside the baseline on one thread."""
    if threads != 1 or any(n not in results for n in ("b", "c")):
        return None
    solver = pooled(results, ["b", "c"], "solver")
    base = pooled(results, ["b", "c"], "baseline")
    if len(solver) != FULL["b"] + 3 * FULL["c"] or len(base) != len(solver):
        return None
    return p95_goal(solver, base)


def overall_baseline(results: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The baseline comparison over every full-deal set run (b, c, d) together."""
    full_deals = [n for n in results if n != "a"]
    solver = pooled(results, full_deals, "solver")
    base = pooled(results, full_deals, "baseline")
    if not base or len(base) != len(solver):
        return None
    return compare_baseline(solver, base)


def print_summary(results: dict[str, dict[str, Any]]) -> None:
    """The compact summary table of every set run."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Summary", title_justify="left")
    for col in (
        "set",
        "n",
        "ms med",
        "ms p95",
        "ms max",
        "nodes med",
        "knodes/s",
        "hit",
        "limit",
        "plain cap",
        "node x",
        "time x",
    ):
        table.add_column(col, justify="left" if col == "set" else "right")
    for name, res in results.items():
        s = res["solver"]
        c = res.get("solver_vs_plain")
        p = res.get("plain")
        table.add_row(
            name,
            str(res["positions"]),
            fmt(s["time_ms"]["median"]),
            fmt(s["time_ms"]["p95"]),
            fmt(s["time_ms"]["max"]),
            fmt(s["nodes"]["median"]),
            fmt(None if s["nodes_per_s"]["median"] is None else s["nodes_per_s"]["median"] / 1000),
            fmt(None if s["hit_rate"]["median"] is None else 100 * s["hit_rate"]["median"], "%"),
            str(s["time_limit_hits"]),
            "-" if p is None else f"{p['hit_cap']}/{res['positions']}",
            "-" if c is None else fmt(c["node_ratio"], digits=4),
            "-" if c is None else fmt(c["time_ratio"], digits=4),
        )
    console = make_console()
    console.print()
    console.print(table)
    console.print(
        "ms/nodes/knodes/s/hit: solver medians; limit: positions that hit the solver time limit; plain cap: "
        "positions where plain hit its node cap; node x / time x: solver/plain totals over the positions "
        "where plain finished."
    )


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "solve.json")
    parser.add_argument("--sets", default=None, help="comma-separated sets among a,b,c,d (default: a,b,c; quick: a,b)")
    parser.add_argument("--only", default=None, help="keep only these positions: SEED:CALLER,... (e.g. 11:0)")
    parser.add_argument(
        "--baseline", action="store_true", help=f"solve every position with the solver of {BASELINE_COMMIT} too"
    )
    parser.add_argument(
        "--baseline-rev",
        default=None,
        help=f"the git revision whose solver is the baseline, extracted by git archive ({BASELINE_COMMIT})",
    )
    parser.add_argument(
        "--baseline-path", type=Path, default=None, help="a directory holding that solver's lukfu_solver package"
    )
    parser.add_argument("--time-limit", type=float, default=60.0, help="solver time limit per position, s (60)")
    parser.add_argument("--plain-cap", type=int, default=None, help="plain node cap (default 200k for a, 100k b/c)")
    parser.add_argument("--max-entries", type=int, default=None, help="table size in entries (default: the solver's)")
    parser.add_argument("--no-plain", action="store_true", help="skip the plain baseline")
    parser.add_argument("--no-drivers", action="store_true", help="skip the driver comparison")
    parser.add_argument(
        "--compare-drivers", default="a", help="sets on which bisection is measured against MTD(f) too (a)"
    )
    parser.add_argument(
        "--solver",
        choices=("reference", "fast"),
        default="reference",
        help="the pure-Python reference search or the compiled kernel",
    )
    parser.add_argument(
        "--threads",
        type=int,
        choices=(1, 2),
        default=1,
        help="threads per position (2: a helper thread shares the table; --solver fast only)",
    )
    args = parser.parse_args(argv)
    global BASELINE_LABEL
    BASELINE_LABEL = args.baseline_rev or (args.baseline_path.name if args.baseline_path else BASELINE_COMMIT)
    if args.baseline:
        try:  # the baseline's tree first: a revision git does not know is an error before any work
            args.baseline_path = baseline_tree(args.baseline_path, args.baseline_rev or BASELINE_COMMIT)
        except ValueError as exc:
            parser.error(f"--baseline-rev: {exc}")
    if args.threads != 1 and args.solver != "fast":
        parser.error("--threads 2 needs --solver fast")
    global SOLVER_KIND
    SOLVER_KIND = args.solver
    if SOLVER_KIND == "fast":
        from lukfu_solver.search.compiled import compile_all

        compile_all()  # load (or compile) the kernel first, so no measured solve includes it
    default_sets = "a,b" if args.quick else "a,b,c"
    names = [s.strip() for s in (args.sets or default_sets).split(",") if s.strip()]
    bad = [s for s in names if s not in SET_NAMES]
    if bad or not names:
        parser.error(f"--sets: unknown set(s) {','.join(bad) or '(none)'}; choose among a,b,c,d")
    if not args.time_limit > 0:
        parser.error("--time-limit must be more than 0")
    args.counts = QUICK if args.quick else FULL
    args.driver_sets = {x.strip() for x in args.compare_drivers.split(",") if x.strip()}
    only = None
    if args.only:
        only = {tuple(int(x) for x in item.split(":")) for item in args.only.split(",") if item.strip()}
    if args.baseline and SOLVER_KIND != "fast":
        parser.error("--baseline needs --solver fast")
    args.baseline_solver = Baseline(args.baseline_path) if args.baseline else None
    results: dict[str, dict[str, Any]] = {}
    try:
        for name in names:
            cases = build_set(name, args.counts[name])
            if only is not None:
                cases = [c for c in cases if (c.seed, c.caller) in only]
            results[name] = run_set(name, cases, args)
            print_set(name, results[name])
    finally:
        if args.baseline_solver is not None:
            args.baseline_solver.close()
    print_summary(results)
    overall = overall_baseline(results)
    if overall is not None:
        make_console().print("\n[bold]All full-deal sets together[/bold]: " + baseline_line(overall))
    goal = bc_goal(results, args.threads)
    if goal is not None:
        make_console().print(p95_goal_line(goal))
    data = {
        "bench": "solve",
        "solver": args.solver,
        "threads": args.threads,
        "quick": args.quick,
        "time_limit_s": args.time_limit,
        "plain_cap": {n: PLAIN_CAP[n] if args.plain_cap is None else args.plain_cap for n in names},
        "sets": results,
    }
    if overall is not None:
        data["vs_baseline"] = overall
    if goal is not None:
        data["p95_goal"] = goal
    path = save_json(data, args.out)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
