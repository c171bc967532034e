"""Speed of the game review: a whole deal, every seat, at the defaults, within 60 s of
one core.

The set: the records of a seeded match, ``pimc,rule,rule`` (``--deals`` deals from ``--seed``,
each in its three seatings), the deals the engine plays. Each record is reviewed in this process
(one core) at the defaults (``analysis.review_work.ReviewSettings()``: each play weighed at
``work.REVIEW_WORK``, 24 sampled deals of the record's seed, 100,000 positions a solve; the
call's 2,000,000), and the bench prints the median, p95 and max of the wall and CPU seconds a
deal, the decisions a deal and the CPU a decision, with the machine's load before and after (the
machine is shared: CPU seconds are the figure that counts).

Beside it, in the same run, **the previous review** (the build before the one evaluation,
e4ece2e: every legal move of a play on 16 sampled deals of seed 0, each solve's stop counting its
bounds' midpoint) on the first ``--previous-records`` records, in a subprocess importing that
tree; CPU seconds side by side.

Beside it, in the same run, the **baseline**: the same decisions reviewed by hand with the build
at commit 813c82c, which had no review: for each decision ``analyse VIEW --samples 48`` (its
reproducible default, 500,000 positions a solve) and ``solve POSITION``, for the call ``advise
HAND --samples 32`` (16,000,000 positions a solve), on the first ``--baseline-records`` records,
in a subprocess importing the old tree (``common.baseline_tree``); CPU seconds side by side.

How far a verdict is the decision's own: the first ``--second-seed-records`` records are reviewed
again with seed 1 (other sampled deals), and the decisions each seed flags are compared.

Run: ``python -m bench.review [--deals 8] [--seed 36] [--baseline-records 2] [--second-seed-records 6]
[--previous-records 8] [--quick] [--out FILE]``.
Results: ``bench/results/review.json``.
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

from bench.common import base_parser, baseline_tree, fmt, make_console, progress, save_json, summary
from lukfu_solver.analysis.review_work import ReviewSettings, review_record
from lukfu_solver.match import run_match
from lukfu_solver.record import GameRecord
from lukfu_solver.search.compiled import prepare_kernel

REVIEW_BASELINE = "813c82c"
"""The build before the review: a review was then done by hand, decision by decision."""
PREVIOUS = "e4ece2e"
"""The build before the one evaluation of a decision: its review at its own defaults."""

PREVIOUS_REVIEW = r"""
import json, resource, sys, time
from lukfu_solver.record import GameRecord
from lukfu_solver.analysis.review_work import ReviewSettings, review_record
from lukfu_solver.search.compiled import prepare_kernel

prepare_kernel()
out = []
for line in sys.stdin:
    rec = GameRecord.loads(line)
    t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_utime
    review = review_record(rec, ReviewSettings())
    out.append({"seconds": time.perf_counter() - t0,
                "cpu_seconds": resource.getrusage(resource.RUSAGE_SELF).ru_utime - c0,
                "decisions": len(review.decisions)})
print(json.dumps(out))
"""

BY_HAND = r"""
import json, resource, sys, time
from lukfu_solver.record import GameRecord
from lukfu_solver.analysis.moves import analyse
from lukfu_solver.analysis.advice import advise
from lukfu_solver.hidden.pimc import SolveLimits
from lukfu_solver.search import make_solver
try:  # where the baseline's tree keeps it, newest place first
    from lukfu_solver.search.compiled import prepare_kernel
except ImportError:
    from lukfu_solver.search.warmup import prepare_kernel

prepare_kernel()
out = []
for line in sys.stdin:
    rec = GameRecord.loads(line)
    t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_utime
    positions = rec.replay()
    decisions = 0
    for seat in range(len(rec.calls)):
        advise(rec.hands[seat], seat, 32, 0, 1, SolveLimits(16_000_000))
        decisions += 1
    for i, pos in enumerate(positions[:-1]):
        if sum(1 for _ in pos.legal_moves()) < 2:
            continue
        analyse(rec.view(pos.to_move, i), 48, 0, 1, SolveLimits(500_000))
        make_solver().solve(pos)
        decisions += 1
    out.append({"seconds": time.perf_counter() - t0,
                "cpu_seconds": resource.getrusage(resource.RUSAGE_SELF).ru_utime - c0, "decisions": decisions})
print(json.dumps(out))
"""


def records(deals: int, seed: int) -> list[GameRecord]:
    """The fixed set: a seeded ``pimc,rule,rule`` match's records, deal by deal, seating by seating."""
    match = run_match(["pimc", "rule", "rule"], deals, seed=seed)
    return [g.record for g in match.games]


def review_one(rec: GameRecord) -> dict[str, Any]:
    """Review one record at the defaults in this process: its timings and what it found."""
    t0, c0 = time.perf_counter(), time.process_time()
    review = review_record(rec, ReviewSettings())
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    verdicts = {v: sum(d.verdict == v for d in review.decisions) for v in ("inaccuracy", "mistake", "blunder")}
    return {
        "seed": rec.seed,
        "plays": len(rec.plays),
        "decisions": len(review.decisions),
        "legal_moves": sum(d.legal for d in review.decisions),
        "solves": review.solves,
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "cpu_per_decision": round(cpu / max(1, len(review.decisions)), 4),
        "verdicts": verdicts,
        "lucky": sum(d.luck == "lucky" for d in review.decisions),
        "unlucky": sum(d.luck == "unlucky" for d in review.decisions),
    }


def second_seed(recs: list[GameRecord]) -> dict[str, Any]:
    """How far a verdict is the decision's and not the sampled deals': the records reviewed again
    with seed 1, and the decisions flagged (any verdict) by each seed compared."""
    flagged = {0: set(), 1: set()}  # (record, decision) keys
    both_none = total = 0
    for k, rec in enumerate(recs):
        first = review_record(rec, ReviewSettings(seed=0)).decisions
        second = review_record(rec, ReviewSettings(seed=1)).decisions
        for i, (a, b) in enumerate(zip(first, second, strict=True)):
            total += 1
            if a.verdict:
                flagged[0].add((k, i))
            if b.verdict:
                flagged[1].add((k, i))
            both_none += not a.verdict and not b.verdict
    agree = len(flagged[0] & flagged[1])
    return {
        "records": len(recs),
        "decisions": total,
        "flagged_seed0": len(flagged[0]),
        "flagged_seed1": len(flagged[1]),
        "flagged_both": agree,
        "neither": both_none,
        "confirmed_share": round(agree / max(1, len(flagged[0])), 3),
    }


def by_hand(recs: list[GameRecord], script: str = BY_HAND, build: str = REVIEW_BASELINE) -> list[dict[str, Any]]:
    """The baseline: the same records reviewed by hand with the old build (or by ``script`` with
    ``build``: the previous review), in a subprocess."""
    if not recs:
        return []
    tree = baseline_tree(None, build)
    env = dict(os.environ, PYTHONPATH=str(tree))
    text = "".join(r.dumps() + "\n" for r in recs)
    with tempfile.TemporaryDirectory() as scratch:  # not inside the repository: the old tree only
        done = subprocess.run(
            [sys.executable, "-c", script], input=text, capture_output=True, text=True, env=env, cwd=scratch
        )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout)


def side_by_side(build: str, what: str, theirs: list[dict[str, Any]], ours: list[dict[str, Any]]) -> dict[str, Any]:
    """Another build's review (``theirs``) beside this one's of the same records: CPU seconds a
    record, and ``cpu_ratio``, theirs over ours (how many times less CPU this review takes)."""
    return {
        "build": build,
        "what": what,
        "records": len(theirs),
        "cpu_seconds": summary(t["cpu_seconds"] for t in theirs),
        "review_cpu_seconds_same_records": summary(r["cpu_seconds"] for r in ours),
        "cpu_ratio": round(sum(t["cpu_seconds"] for t in theirs) / sum(r["cpu_seconds"] for r in ours), 2)
        if theirs
        else None,
        "rows": theirs,
    }


def main() -> None:
    parser = base_parser(__doc__.splitlines()[0], "review.json")
    parser.add_argument("--deals", type=int, default=8, help="deals of the match (3 records each)")
    parser.add_argument("--seed", type=int, default=36, help="the match's seed")
    parser.add_argument("--baseline-records", type=int, default=2, help="records reviewed by hand at 813c82c")
    parser.add_argument("--second-seed-records", type=int, default=6, help="records reviewed again with seed 1")
    parser.add_argument("--previous-records", type=int, default=8, help="records reviewed by the previous build")
    args = parser.parse_args()
    deals = 2 if args.quick else args.deals
    console = make_console()
    prepare_kernel()
    load_before = os.getloadavg()
    recs = records(deals, args.seed)
    rows = [review_one(r) for r in progress(recs, "reviewing")]
    load_after = os.getloadavg()
    stability = second_seed(recs[: 1 if args.quick else args.second_seed_records])
    base_recs = recs[: 0 if args.quick else args.baseline_records]
    base = by_hand(base_recs)
    ours = rows[: len(base)]
    previous = by_hand(recs[: 1 if args.quick else args.previous_records], PREVIOUS_REVIEW, PREVIOUS)
    mine = rows[: len(previous)]
    result: dict[str, Any] = {
        "set": {"players": "pimc,rule,rule", "deals": deals, "seed": args.seed, "records": len(recs)},
        "settings": ReviewSettings().to_json(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "review": {
            "seconds": summary(r["seconds"] for r in rows),
            "cpu_seconds": summary(r["cpu_seconds"] for r in rows),
            "decisions": summary((r["decisions"] for r in rows), 1),
            "cpu_per_decision": summary(r["cpu_per_decision"] for r in rows),
            "within_60_cpu_seconds": sum(r["cpu_seconds"] <= 60 for r in rows),
        },
        "baseline": side_by_side(
            REVIEW_BASELINE,
            "by hand: analyse VIEW --samples 48, solve POSITION a decision; advise HAND --samples 32 a call",
            base,
            ours,
        ),
        "previous": side_by_side(
            PREVIOUS, "the review at its defaults: every legal move of a play on 16 sampled deals of seed 0", previous, mine
        ),
        "second_seed": stability,
        "rows": rows,
    }
    path = save_json(result, args.out)
    r = result["review"]
    console.print(
        f"review of {len(rows)} records ({deals} deals x 3 seatings), load {load_before[0]:.1f} -> {load_after[0]:.1f}"
    )
    for key in ("seconds", "cpu_seconds", "cpu_per_decision"):
        s = r[key]
        console.print(f"  {key:18} median {fmt(s['median'])}  p95 {fmt(s['p95'])}  max {fmt(s['max'])}")
    console.print(
        f"  decisions a deal: median {fmt(r['decisions']['median'])}; within 60 s of CPU: "
        f"{r['within_60_cpu_seconds']} of {len(rows)}"
    )
    st = result["second_seed"]
    console.print(
        f"  verdicts of seed 0 that seed 1 confirms: {st['flagged_both']} of {st['flagged_seed0']} "
        f"(seed 1 flags {st['flagged_seed1']}; {st['decisions']} decisions of {st['records']} records)"
    )
    if base:
        b = result["baseline"]
        console.print(
            f"  baseline {REVIEW_BASELINE} by hand on {len(base)} records: CPU {fmt(b['cpu_seconds']['median'])} s "
            f"median against {fmt(b['review_cpu_seconds_same_records']['median'])} s: x{b['cpu_ratio']}"
        )
    if previous:
        pr = result["previous"]
        console.print(
            f"  previous review ({PREVIOUS}) on {len(previous)} records: CPU {fmt(pr['cpu_seconds']['median'])} s "
            f"median against {fmt(pr['review_cpu_seconds_same_records']['median'])} s: x{pr['cpu_ratio']}"
        )
    console.print(f"saved {Path(path)}")


if __name__ == "__main__":
    main()
