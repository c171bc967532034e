"""The high-sample reference of call/pass advice: exact PIMC on bench/advise.py's 30 hands.

For each bench hand (hand ``i`` is seat ``i % 3`` of ``deal_from_seed(1000 + i)``,
``bench/advise_hands.py``) this computes what ``advise`` computes with a fixed sample count and no
time budget (``hidden.calls.call_values``: *play* and *pass* on the same sampled deals, the later
seats by the calling policy), with **no node or time limit on any solve**: every value is an
exact solve, and the run stops with an error if one is not (``incomplete`` must be 0).

The sampling seed (:data:`REF_SEED`) is not one of the seeds bench/advise.py tests (2 and 3), and
the run checks that none of its sample seeds occurs among theirs. Every finished hand is appended
to a checkpoint (``advise-reference.jsonl`` beside the result) with its per-sample values and
nodes; a run resumes from it (same samples and seed) and redoes nothing finished. The records are
a pure function of the options, so they are byte-identical for any ``--jobs``; only ``cost``
(wall seconds, CPU seconds of this process) depends on the machine.

Run: ``python -m train.advise_reference [--samples 96] [--hands 30] [--jobs 1] [--out FILE]``.
Result: ``bench/results/advise-reference.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.advise_hands import REF_SEED, TESTED_SAMPLES, TESTED_SEEDS, bench_hand, sample_seeds
from bench.common import RESULTS_DIR, save_json, summary
from lukfu_solver.analysis.defaults import make_limits
from lukfu_solver.cards import format_cards
from lukfu_solver.hidden.calls import CallValuation, call_values
from lukfu_solver.hidden.pimc import Evaluator
from lukfu_solver.policy.calling import policy_calls


def check_disjoint(samples: int) -> None:
    """Fail unless the reference's sample seeds differ from every sample seed of the tested seeds."""
    tested = {s for seed in TESTED_SEEDS for s in sample_seeds(seed, TESTED_SAMPLES)}
    shared = tested & set(sample_seeds(REF_SEED, samples))
    if REF_SEED in TESTED_SEEDS or shared:
        raise SystemExit(f"reference seed {REF_SEED} shares {len(shared)} sample seeds with {TESTED_SEEDS}")


def hand_record(i: int, samples: int, jobs: int) -> dict[str, Any]:
    """One hand's exact reference: estimates, per-sample values and nodes, and the cost."""
    hand, seat = bench_hand(i)
    evaluator = Evaluator(make_limits(0, None))  # max_nodes 0: no node limit; no time limit
    assert evaluator.limits.max_nodes is None and evaluator.limits.time_limit is None
    wall, cpu = time.perf_counter(), time.process_time()
    val: CallValuation = call_values(hand, seat, samples, REF_SEED, evaluator, policy_calls, jobs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if val.incomplete or val.stopped != "samples" or len(val.samples) != samples:
        raise SystemExit(f"hand {i}: {val.incomplete} solves not exact, stopped {val.stopped!r}")
    gap, gap_se = val.gap
    return {
        "hand_index": i,
        "hand": format_cards(hand),
        "seat": seat,
        "seed": REF_SEED,
        "samples": samples,
        "play": round(val.play.mean, 4),
        "play_se": round(val.play.stderr, 4),
        "pass": round(val.pass_.mean, 4),
        "pass_se": round(val.pass_.stderr, 4),
        "gap": round(gap, 4),
        "gap_se": round(gap_se, 4),
        "gap_z": round(gap / gap_se, 3) if gap_se else None,
        "recommendation": "play" if val.play.mean > val.pass_.mean else "pass",
        "solves": val.solves,
        "incomplete": val.incomplete,
        "nodes": val.nodes,
        "sample_play": [s.play for s in val.samples],
        "sample_pass": [s.pass_ for s in val.samples],
        "sample_solves": [s.solves for s in val.samples],
        "sample_nodes": [s.nodes for s in val.samples],
        "cost": {"wall_s": round(wall, 2), "cpu_s_this_process": round(cpu, 2), "jobs": jobs},
    }


def load_checkpoint(path: Path, samples: int) -> dict[int, dict[str, Any]]:
    """Finished hands of an earlier run with the same samples and seed (others are ignored)."""
    done: dict[int, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                if rec["samples"] == samples and rec["seed"] == REF_SEED:
                    done[rec["hand_index"]] = rec
    return done


def result(records: list[dict[str, Any]], samples: int, wanted: int) -> dict[str, Any]:
    """The reference file's content: what it is, the deterministic records, and the cost apart
    (``records`` may be fewer than the ``wanted`` hands when the run was stopped: it says so)."""
    deterministic = [{k: v for k, v in r.items() if k != "cost"} for r in records]
    missing = sorted(set(range(wanted)) - {r["hand_index"] for r in records})
    partial = (
        f" PARTIAL: {len(records)} of the {wanted} hands are done (missing {missing}); the checkpoint resumes the "
        f"rest (python -m train.advise_reference --samples {samples})."
        if missing
        else ""
    )
    cpu = [r["cost"]["cpu_s_this_process"] for r in records if r["cost"]["jobs"] == 1]
    clear = sum(abs(r["gap"]) > 2 * r["gap_se"] for r in records)
    return {
        "bench": "advise-reference",
        "what": (
            f"High-sample reference of the {len(records)} bench hands of bench/advise.py (hand i = seat i % 3 of "
            f"deal_from_seed(1000 + i)): call_values as advise computes it with a fixed sample count and no time "
            f"budget, {samples} samples a hand drawn from seed {REF_SEED} (none of its sample seeds is one of seeds "
            f"2 or 3's), every solve exact (no node or time limit; incomplete 0 on every hand, checked). "
            f"play/pass: mean and standard error of this seat's points; gap/gap_se: the paired play - pass "
            f"difference. Per-sample values and nodes are kept. Made by train/advise_reference.py.{partial}"
        ),
        "samples": samples,
        "seed": REF_SEED,
        "hands": len(records),
        "hands_wanted": wanted,
        "missing_hands": missing,
        "all_solves_exact": all(r["incomplete"] == 0 for r in records),
        "clear_hands_gap_over_2se": clear,
        "cost": {
            "solves": sum(r["solves"] for r in records),
            "nodes": sum(r["nodes"] for r in records),
            "nodes_per_sample": summary([n for r in records for n in r["sample_nodes"]]),
            "wall_s_total": round(sum(r["cost"]["wall_s"] for r in records), 1),
            "cpu_s_per_hand_jobs1": summary(cpu) if cpu else None,
            "note": "times depend on the machine and its load (shared 2-core machine); nodes do not",
        },
        "records": deterministic,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=96, help="samples a hand (at least 96 for the issue)")
    parser.add_argument("--hands", type=int, default=30, help="bench hands 0 .. N-1 (30)")
    parser.add_argument("--only", type=str, default=None, help="comma-separated hand indices (timing a few)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the samples of a hand (1)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "advise-reference.json")
    parser.add_argument(
        "--write", action="store_true", help="solve nothing: write the result from the checkpoint's finished hands"
    )
    args = parser.parse_args(argv)
    check_disjoint(args.samples)
    checkpoint = args.out.with_suffix(".jsonl")
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    done = load_checkpoint(checkpoint, args.samples)
    wanted = [int(x) for x in args.only.split(",")] if args.only else list(range(args.hands))
    for i in wanted:
        if i in done or args.write:
            continue
        rec = hand_record(i, args.samples, args.jobs)
        with checkpoint.open("a", encoding="utf-8") as f:
            f.write(json.dumps(rec, sort_keys=True) + "\n")
        done[i] = rec
        c = rec["cost"]
        print(
            f"hand {i} seat {rec['seat']}: play {rec['play']:+.2f} ± {rec['play_se']:.2f}, pass {rec['pass']:+.2f} "
            f"± {rec['pass_se']:.2f}, gap z {rec['gap_z']}; {rec['solves']} solves, {rec['nodes']:,} nodes, "
            f"{c['wall_s']} s wall, {c['cpu_s_this_process']} s CPU",
            file=sys.stderr,
            flush=True,
        )
    if args.only:
        return 0
    records = [done[i] for i in range(args.hands) if i in done]
    path = save_json(result(records, args.samples, args.hands), args.out)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
