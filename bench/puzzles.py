"""Benchmark of the puzzle pipeline (``lukfu_solver.puzzles``): how many verified puzzles the
generator finds per minute, by difficulty, and how long re-verifying one puzzle takes, beside a
plain baseline measured in the same run.

- **Generation**: for each tier (easy, medium, hard) and for any tier, the generator's search
  over deals (:func:`lukfu_solver.puzzles.search_deals`, as ``lukfu puzzle generate`` runs it;
  3–6 cards a hand, ``--seed`` 1000 + i) runs for a fixed time budget; the result is
  puzzles per minute and deals tried per puzzle. With ``--jobs 2`` every tier is measured on one
  process and again on two, as ``generate --jobs 2`` runs. The goal: at least 10 verified medium puzzles a minute
  on this 2-core machine.
- **Verification**: every puzzle of the shipped collection (``puzzles/``) re-verified by
  :func:`lukfu_solver.puzzles.check` with a fresh solver: time and nodes per puzzle (median, p95,
  max). The **baseline** verifies the same puzzles with values from ``search.plain_alphabeta``
  (no table, no ordering, no bounds; one search per legal move) capped at ``--plain-cap`` nodes a
  search; puzzles that hit the cap are counted, and results are cross-checked.

Run: ``python -m bench.puzzles [--quick] [--budget S] [--jobs N] [--solver KIND] [--out FILE]``. ``--quick``: 10 s a tier and 20 puzzles. Results go to
``bench/results/puzzles.json``. This is a benchmark, not a test: the numbers depend on the load.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import REPO_DIR, Timer, base_parser, make_console, progress, ratio, save_json, summary
from lukfu_solver import puzzles as P
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.search import SolveResult
from lukfu_solver.search.reference import INF, plain_alphabeta

TIERS = ("easy", "medium", "hard", None)
COLLECTION = REPO_DIR / "puzzles"


class PlainSolver:
    """The baseline behind the solver API: each legal move's value by ``plain_alphabeta`` on the
    child position, capped at ``cap`` nodes a search (then the result is incomplete)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def solve(
        self, pos: Position, all_moves: bool = False, max_nodes: int | None = None, time_limit: float | None = None
    ) -> SolveResult:
        """Every legal move's value by its own plain search (``max_nodes`` and ``time_limit``
        unused: the cap is per search); incomplete when one search hits the cap."""
        maximizing = pos.to_move == pos.caller
        moves: dict[Play, int] = {}
        nodes = 0
        for m in pos.legal_moves():
            child = pos.copy()
            child.push(m)
            if child.outcome is not None:
                moves[m] = child.outcome.points[child.caller]
                continue
            v, n = plain_alphabeta(child, self.cap)
            nodes += n
            if v is None:
                return SolveResult(None, -INF, INF, None, nodes=nodes, complete=False)
            moves[m] = v
        best = (max if maximizing else min)(moves, key=lambda m: moves[m])
        value = moves[best]
        return SolveResult(value, value, value, best, [best], moves if all_moves else {}, nodes=nodes)


# ---------------------------------------------------------------- generation


def generation_rate(tier: str | None, seed: int, budget: float, jobs: int, solver: str) -> dict[str, Any]:
    """Run the generator's search for ``budget`` seconds: puzzles found, deals tried, rate."""
    opts = P.GenOptions(3, 6, difficulty=tier)
    found: list[P.Puzzle] = []
    tried = 0
    t0 = time.perf_counter()
    gen = P.search_deals(opts, seed, solver, jobs)
    try:
        for result in gen:
            tried += 1
            if result is not None:
                found.append(result)
            if time.perf_counter() - t0 >= budget:
                break
    finally:
        gen.close()
    secs = time.perf_counter() - t0
    return {
        "difficulty": tier or "any",
        "seed": seed,
        "jobs": jobs,
        "seconds": round(secs, 2),
        "puzzles": len(found),
        "deals_tried": tried,
        "per_minute": round(len(found) / secs * 60, 2),
        "deals_per_puzzle": ratio(tried, len(found), 1),
        "tiers_found": P.summary_counts(found)["difficulty"],
        "verification_nodes": summary((p.nodes or 0 for p in found), 0),
    }


# ---------------------------------------------------------------- verification


def verify_all(puzzles: list[P.Puzzle], make: Callable[[], str | Any], label: str) -> list[dict[str, Any]]:
    """Check each puzzle with a fresh solver (``make()``: a solver kind, or a new solver): ok,
    nodes, time."""
    out = []
    for p in progress(puzzles, label):
        solver = make()
        with Timer() as t:
            res = P.check(p, solver)
        out.append(
            {
                "id": p.id,
                "ok": res.ok,
                "failures": res.failures,
                "nodes": res.analysis.nodes,
                "ms": round(t.ms, 2),
                "value": res.analysis.value,
            }
        )
    return out


def verification_stats(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Time and nodes per puzzle (median, p95, max, mean) and how many passed."""
    return {
        "puzzles": len(records),
        "passed": sum(r["ok"] for r in records),
        "time_ms": summary(r["ms"] for r in records),
        "nodes": summary((r["nodes"] for r in records), 0),
        "total_s": round(sum(r["ms"] for r in records) / 1000, 3),
    }


# ---------------------------------------------------------------- main


def main() -> None:
    """Measure generation by tier and verification against the plain baseline; save the JSON."""
    parser = base_parser(__doc__.splitlines()[0], "puzzles.json")
    parser.add_argument("--budget", type=float, default=None, help="seconds of generation a tier (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="also measure generation on N processes")
    parser.add_argument(
        "--solver", default="compiled", choices=P.SOLVER_CHOICES, help="compiled (default) or reference"
    )
    parser.add_argument("--plain-cap", type=int, default=200_000, help="node cap of each baseline search")
    parser.add_argument("--collection", type=Path, default=COLLECTION, help="the puzzles to verify")
    args = parser.parse_args()
    budget = args.budget if args.budget is not None else (10.0 if args.quick else 60.0)
    console = make_console()
    load_start = os.getloadavg()

    gen = []
    for jobs in sorted({1, args.jobs}):
        for i, tier in enumerate(TIERS):
            console.print(f"generating ({tier or 'any tier'}) for {budget:g} s on {jobs} process(es) …")
            gen.append(generation_rate(tier, 1000 + i, budget, jobs, args.solver))

    puzzles = P.load_dir(args.collection)
    if args.quick:
        puzzles = puzzles[:20]
    mine = verify_all(puzzles, lambda: args.solver, f"verify ({args.solver})")
    plain = verify_all(puzzles, lambda: PlainSolver(args.plain_cap), "verify (plain)")
    both = [(a, b) for a, b in zip(mine, plain, strict=True) if b["ok"]]
    capped = sum(1 for r in plain if not r["ok"])
    result: dict[str, Any] = {
        "description": __doc__.split("\n\n")[0],
        "solver": args.solver,
        "load_average": {"start": [round(x, 2) for x in load_start], "end": [round(x, 2) for x in os.getloadavg()]},
        "generation": {
            "min_cards": 3,
            "max_cards": 6,
            "budget_s": budget,
            "runs": gen,
            "medium_per_minute": {g["jobs"]: g["per_minute"] for g in gen if g["difficulty"] == "medium"},
            "goal_medium_per_minute": 10,
        },
        "verification": {
            "collection": str(args.collection.relative_to(REPO_DIR))
            if args.collection.is_relative_to(REPO_DIR)
            else str(args.collection),
            "solver": verification_stats(mine),
            "plain": {"cap_nodes": args.plain_cap, "hit_cap": capped, **verification_stats(plain)},
            "solver_vs_plain": {
                "over": "puzzles the plain baseline verified under its cap",
                "puzzles": len(both),
                "time_ratio": ratio(sum(a["ms"] for a, _ in both), sum(b["ms"] for _, b in both)),
                "node_ratio": ratio(sum(a["nodes"] for a, _ in both), sum(b["nodes"] for _, b in both)),
                "value_mismatches": [a["id"] for a, b in both if a["value"] != b["value"]],
            },
            "records": {"solver": mine, "plain": plain},
        },
    }
    print_report(result)
    path = save_json(result, args.out)
    console.print(f"saved {path}")


def print_report(result: dict[str, Any]) -> None:
    """The tables on stdout."""
    from rich import box
    from rich.table import Table

    console = make_console()
    g = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Generation (3-6 cards a hand)", title_justify="left")
    for col in ("difficulty", "jobs", "seconds", "puzzles", "per minute", "deals/puzzle", "tiers found"):
        g.add_column(col, justify="right" if col not in ("difficulty", "tiers found") else "left")
    for r in result["generation"]["runs"]:
        tiers = ", ".join(f"{k} {v}" for k, v in r["tiers_found"].items())
        g.add_row(
            r["difficulty"],
            str(r["jobs"]),
            f"{r['seconds']:.0f}",
            str(r["puzzles"]),
            f"{r['per_minute']:.1f}",
            str(r["deals_per_puzzle"]),
            tiers,
        )
    console.print(g)
    v = result["verification"]
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="Verification per puzzle", title_justify="left")
    for col in ("", "puzzles", "passed", "median ms", "p95 ms", "max ms", "median nodes", "p95 nodes", "total s"):
        t.add_column(col, justify="right" if col else "left")
    for name in ("solver", "plain"):
        s = v[name]
        label = result["solver"] if name == "solver" else f"plain (cap {v['plain']['cap_nodes']:,})"
        t.add_row(
            label,
            str(s["puzzles"]),
            str(s["passed"]),
            f"{s['time_ms']['median']:.1f}",
            f"{s['time_ms']['p95']:.1f}",
            f"{s['time_ms']['max']:.1f}",
            f"{s['nodes']['median']:,.0f}",
            f"{s['nodes']['p95']:,.0f}",
            f"{s['total_s']:.2f}",
        )
    console.print(t)
    c = v["solver_vs_plain"]
    console.print(
        f"solver/plain over {c['puzzles']} puzzles: time x{c['time_ratio']}, nodes x{c['node_ratio']}; "
        f"value mismatches: {len(c['value_mismatches'])}"
    )


if __name__ == "__main__":
    main()
