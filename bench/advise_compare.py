"""Call/pass advice at the defaults beside another revision's, hand by hand in the same run.

``bench/advise.py --parts advise,compare`` runs this: every bench hand with each sampling seed is
advised by this tree (in the benchmark's process) and by the revision ``--compare-rev`` (default
:data:`COMPARE_REV`, the build the advice's speed-ups are measured against) in a worker process that imports that
revision's ``lukfu_solver`` (``bench.common.baseline_tree``: extracted once by ``git archive``),
one right after the other, the order alternating from hand to hand, so that both see the same
load on a shared machine. Each answer's wall and CPU seconds are its own process's.

The worker reads ``hand seat seed`` lines on stdin and answers each with one JSON record of the
same fields as ``bench.advise.advice_record`` (those the comparison reads), so the agreement with
the exact reference is computed for both by the same code (``bench.advise.run_agreement``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from bench.common import baseline_tree, summary

COMPARE_REV = "813c82c"
"""The build the advice's speed-ups are measured against: the advice before two-phase sampling for
every seat and the restarts (``docs/pimc.md``)."""

WORKER = r"""
import json, statistics, sys, time
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, advice_budget, make_limits
from lukfu_solver.game import deal_from_seed
from lukfu_solver.analysis.moves import SolveLimits
advise(deal_from_seed(FIRST)[0], 0, samples=1, limits=SolveLimits(1000))  # load (or compile) the kernel first
print("ready", flush=True)
for line in sys.stdin:
    i, seat, seed = (int(x) for x in line.split())
    hand = deal_from_seed(FIRST + i)[seat]
    w, c = time.perf_counter(), time.process_time()
    n, budget = advice_budget(None, None, seat)
    a = advise(hand, seat, n, seed, 1, make_limits(None, None, ADVICE_MAX_NODES), budget=budget)
    w, c = time.perf_counter() - w, time.process_time() - c
    p = min(max(a.p_play_better, 1e-12), 1 - 1e-12)
    print(json.dumps({"hand_index": i, "seat": seat, "seed": seed, "recommendation": a.recommendation,
        "play": round(a.play.mean, 4), "play_se": round(a.play.stderr, 4), "pass": round(a.pass_.mean, 4),
        "pass_se": round(a.pass_.stderr, 4), "gap": round(a.play.mean - a.pass_.mean, 4),
        "gap_se": round(a.gap_stderr, 4), "gap_z": round(statistics.NormalDist().inv_cdf(p), 3),
        "samples": a.samples, "cheap_deals": a.cheap_deals, "stopped": a.stopped, "basis": a.basis,
        "incomplete": a.incomplete, "seconds": round(w, 3), "cpu_seconds": round(c, 3)}), flush=True)
"""


class Worker:
    """The other revision's advice in a process of its own, one answer per request."""

    def __init__(self, rev: str, first_deal: int) -> None:
        env = dict(os.environ, PYTHONPATH=str(baseline_tree(None, rev)))
        script = WORKER.replace("FIRST", str(first_deal))
        self.proc = subprocess.Popen(
            [sys.executable, "-c", script],
            env=env,
            cwd=tempfile.gettempdir(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self._line() != "ready":
            raise RuntimeError(f"the {rev} worker did not start")

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker ended (exit {self.proc.wait()})")
        return line.strip()

    def advise(self, i: int, seat: int, seed: int) -> dict[str, Any]:
        """The other revision's answer for bench hand ``i`` at ``seat`` with ``seed``."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{i} {seat} {seed}\n")
        self.proc.stdin.flush()
        return json.loads(self._line())

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def run_side_by_side(
    hands: list[tuple[int, int, int]],
    seeds: tuple[int, ...],
    mine: Callable[[int, int, int, int], dict[str, Any]],
    rev: str,
    first_deal: int,
    progress: Callable[[list[Any], str], Any],
) -> dict[str, Any]:
    """Every ``(index, hand, seat)`` with every seed by this tree (``mine(i, hand, seat, seed)``, a
    record with ``cpu_seconds``) and by ``rev``, interleaved; both runs' records, by seed."""
    worker = Worker(rev, first_deal)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {"this": {}, "other": {}}
    loads = []
    try:
        for seed in seeds:
            this, other = runs["this"].setdefault(str(seed), []), runs["other"].setdefault(str(seed), [])
            for k, (i, hand, seat) in enumerate(progress(hands, f"side by side with {rev}, seed {seed}")):
                loads.append(os.getloadavg()[0])
                if k % 2:
                    other.append(worker.advise(i, seat, seed))
                    this.append(mine(i, hand, seat, seed))
                else:
                    this.append(mine(i, hand, seat, seed))
                    other.append(worker.advise(i, seat, seed))
    finally:
        worker.close()
    return {"rev": rev, "loadavg_1min": summary(loads, 2), "runs": runs}


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures compared: the median standard error of play (and of pass and the gap), the
    samples, why sampling stopped, wall and CPU seconds."""
    return {
        "answers": len(records),
        "play_se_median": round(statistics.median(r["play_se"] for r in records), 4),
        "pass_se_median": round(statistics.median(r["pass_se"] for r in records), 4),
        "gap_se_median": round(statistics.median(r["gap_se"] for r in records), 4),
        "play_se_by_seat_median": {
            str(s): round(statistics.median(r["play_se"] for r in records if r["seat"] == s), 4)
            for s in range(3)
            if any(r["seat"] == s for r in records)
        },
        "samples": summary([r["samples"] for r in records], 1),
        "cheap_deals": summary([r.get("cheap_deals", 0) for r in records], 1),
        "stopped": {k: sum(r["stopped"] == k for r in records) for k in ("decided", "time", "samples")},
        "seconds": summary([r["seconds"] for r in records]),
        "cpu_seconds": summary([r["cpu_seconds"] for r in records]),
    }


def compare_report(data: dict[str, Any], agreement: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """Both runs' figures and agreement with the reference (``agreement(records by seed)``)."""
    out: dict[str, Any] = {"rev": data["rev"], "loadavg_1min": data["loadavg_1min"]}
    for who, by_seed in data["runs"].items():
        records = [r for recs in by_seed.values() for r in recs]
        out[who] = figures(records) | {"agreement": agreement({"records": by_seed})}
    t, o = out["this"], out["other"]
    out["ratios"] = {
        "play_se_median": round(t["play_se_median"] / o["play_se_median"], 3) if o["play_se_median"] else None,
        "cpu_seconds_total": round(
            sum(r["cpu_seconds"] for recs in data["runs"]["this"].values() for r in recs)
            / max(sum(r["cpu_seconds"] for recs in data["runs"]["other"].values() for r in recs), 1e-9),
            3,
        ),
    }
    out["records"] = data["runs"]
    return out
