"""Benchmark of call/pass advice (``lukfu_solver.analysis.advice.advise``) and of the view sampler.

Three parts, every input a pure function of its seed:

- **advise**: ``--hands`` dealt hands (hand ``i`` is seat ``i % 3`` of ``deal_from_seed(1000 + i)``),
  each advised at the ``lukfu advise`` defaults (samples, per-solve node limit, one process) with
  two sampling seeds. Reported: time per advise (median, p95, max) of the first seed, and the
  decision stability: how often the two seeds recommend the same, over all hands and over the
  hands whose expected-value gap is more than two standard errors (of the paired difference,
  from the first seed's ``p_play_better``; also over the hands where both seeds say so).
- **reference**: the plain baseline, measured in the same run: ``advise`` with the reference
  pure-Python :class:`~lukfu_solver.search.reference.Solver` instead of the fastest available, on the first
  ``--ref-hands`` hands with ``--ref-samples`` samples and ``--ref-max-nodes`` nodes a solve (the
  view default, 500,000: at the advice's limit one reference solve can take minutes), beside the
  fast solver on the same work (time ratio; the two give the same numbers, which is checked).
- **sampler**: ``Sampler(view, seed).samples(n)`` on fixed views of every stage: the views of all
  three seats after 0, 3, 6 and 9 complete tricks of random deals (seeded ``RandomPlayer``s; the
  first ``--sampler-deals`` deals lasting 10 tricks or more), draws per second with the setup
  apart, grouped by stage and by whether the view shows hidden discards; beside a naive sampler
  (deal the hidden cards into their places uniformly, keep the deal if
  ``Problem.violation`` finds nothing) given the same time.

Times are wall seconds and, beside them, CPU seconds of the process (everything runs in one
process): on a shared machine the CPU time is what an idle machine's wall time would be.

Goals (the issue's): advise median under 20 s; sampler ≥ 5,000 consistent deals/s on views with
discards; two seeds agree on ≥ 95 % of the hands whose gap is more than 2 SE.

Run: ``/work/venv/bin/python bench/advise.py [--quick] [--hands N] [--out FILE]``; ``--quick`` runs
6 hands, 1 reference hand and 2 sampler deals. Results go to ``bench/results/advise.json``, with
what was run (options, defaults, load average) recorded in it.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from typing import Any

from common import base_parser, fmt, make_console, progress, save_json, summary

from lukfu_solver.analysis.advice import Advice, advise
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, ADVISE_SAMPLES, DEFAULT_MAX_NODES
from lukfu_solver.analysis.moves import SolveLimits
from lukfu_solver.cards import format_cards
from lukfu_solver.game import RandomPlayer, deal_from_seed, play_deal
from lukfu_solver.hidden.constraints import derive
from lukfu_solver.hidden.sampling import Sampler
from lukfu_solver.search import make_solver
from lukfu_solver.view import SeatView

FIRST_DEAL = 1000
"""Hand ``i`` comes from ``deal_from_seed(FIRST_DEAL + i)``."""
SEEDS = (0, 1)
"""The two sampling seeds compared for stability."""
STAGES = (0, 3, 6, 9)
"""Complete tricks before the sampler's views."""
Z_GAP = 2.0
"""A gap is "clear" when it exceeds this many standard errors of the paired difference."""


# ---------------------------------------------------------------- advise


def bench_hand(i: int) -> tuple[int, int]:
    """``(hand, seat)`` of bench hand ``i``."""
    seat = i % 3
    return deal_from_seed(FIRST_DEAL + i)[seat], seat


def gap_z(adv: Advice) -> float:
    """The play-pass gap in standard errors of the paired difference (from ``p_play_better``)."""
    p = min(max(adv.p_play_better, 1e-12), 1 - 1e-12)
    return statistics.NormalDist().inv_cdf(p)


def advice_record(i: int, adv: Advice) -> dict[str, Any]:
    """One advise run as JSON data."""
    return {
        "hand_index": i,
        "hand": format_cards(adv.hand),
        "seat": adv.seat,
        "seed": adv.seed,
        "recommendation": adv.recommendation,
        "play": round(adv.play.mean, 4),
        "play_se": round(adv.play.stderr, 4),
        "pass": round(adv.pass_.mean, 4),
        "pass_se": round(adv.pass_.stderr, 4),
        "p_play_better": round(adv.p_play_better, 6),
        "gap_z": round(gap_z(adv), 3),
        "incomplete": adv.incomplete,
        "seconds": round(adv.seconds, 3),
    }


def run_advise(hands: int, samples: int, limits: SolveLimits) -> dict[str, Any]:
    """Every hand with both seeds; timings, agreement and the records."""
    runs: dict[int, list[dict[str, Any]]] = {s: [] for s in SEEDS}
    for seed in SEEDS:
        for i in progress(list(range(hands)), f"advise, seed {seed}"):
            hand, seat = bench_hand(i)
            cpu = time.process_time()
            rec = advice_record(i, advise(hand, seat, samples, seed, 1, limits))
            rec["cpu_seconds"] = round(time.process_time() - cpu, 3)
            runs[seed].append(rec)
    a, b = runs[SEEDS[0]], runs[SEEDS[1]]
    agree = [x["recommendation"] == y["recommendation"] for x, y in zip(a, b, strict=True)]
    clear = [abs(x["gap_z"]) > Z_GAP for x in a]
    both = [abs(x["gap_z"]) > Z_GAP and abs(y["gap_z"]) > Z_GAP for x, y in zip(a, b, strict=True)]
    secs = [x["seconds"] for x in a] + [x["seconds"] for x in b]

    def share(mask: list[bool]) -> dict[str, Any]:
        kept = [g for g, m in zip(agree, mask, strict=True) if m]
        return {"hands": len(kept), "agree": sum(kept), "rate": round(sum(kept) / len(kept), 4) if kept else None}

    return {
        "hands": hands,
        "samples": samples,
        "limits": {"max_nodes": limits.max_nodes, "time": limits.time_limit},
        "jobs": 1,
        "seconds_first_seed": summary([x["seconds"] for x in a]),
        "cpu_seconds_first_seed": summary([x["cpu_seconds"] for x in a]),
        "seconds_both_seeds": summary(secs),
        "by_seat_median_s": {
            str(s): round(statistics.median([x["seconds"] for x in a if x["seat"] == s]), 3)
            for s in range(3)
            if any(x["seat"] == s for x in a)
        },
        "incomplete_per_advise": summary([x["incomplete"] for x in a]),
        "play_share": round(sum(x["recommendation"] == "play" for x in a) / hands, 4),
        "stability": {
            "all": share([True] * hands),
            "gap_over_2se_first_seed": share(clear),
            "gap_over_2se_both_seeds": share(both),
        },
        "records": {str(s): runs[s] for s in SEEDS},
    }


# ---------------------------------------------------------------- reference baseline


def run_reference(hands: int, samples: int, limits: SolveLimits) -> dict[str, Any]:
    """advise with the reference Solver and with the fastest, on the same work."""
    rows = []
    fast_kind = type(make_solver()).__name__
    for i in progress(list(range(hands)), "reference solver"):
        hand, seat = bench_hand(i)
        cpu = time.process_time()
        fast = advise(hand, seat, samples, SEEDS[0], 1, limits)
        fast_cpu = time.process_time() - cpu
        cpu = time.process_time()
        ref = advise(hand, seat, samples, SEEDS[0], 1, limits, solver="reference")
        ref_cpu = time.process_time() - cpu
        same = (fast.play, fast.pass_, fast.incomplete) == (ref.play, ref.pass_, ref.incomplete)
        rows.append(
            {
                "hand_index": i,
                "seat": seat,
                "fast_s": round(fast.seconds, 3),
                "reference_s": round(ref.seconds, 3),
                "fast_cpu_s": round(fast_cpu, 3),
                "reference_cpu_s": round(ref_cpu, 3),
                "same_estimates": same,
            }
        )
    fast_total = sum(r["fast_cpu_s"] for r in rows)
    ref_total = sum(r["reference_cpu_s"] for r in rows)
    return {
        "hands": hands,
        "samples": samples,
        "limits": {"max_nodes": limits.max_nodes, "time": limits.time_limit},
        "fast_solver": fast_kind,
        "reference_solver": "Solver",
        "fast_s": summary([r["fast_s"] for r in rows]),
        "reference_s": summary([r["reference_s"] for r in rows]),
        "fast_cpu_s": summary([r["fast_cpu_s"] for r in rows]),
        "reference_cpu_s": summary([r["reference_cpu_s"] for r in rows]),
        "speedup_cpu": round(ref_total / fast_total, 2) if fast_total else None,
        "all_same_estimates": all(r["same_estimates"] for r in rows),
        "records": rows,
    }


# ---------------------------------------------------------------- sampler


def sampler_views(deals: int) -> list[tuple[int, int, SeatView]]:
    """``(deal seed, stage, view)``: every seat's view after each stage of the first ``deals``
    random deals that last 10 complete tricks or more."""
    out: list[tuple[int, int, SeatView]] = []
    seed = 0
    found = 0
    while found < deals:
        rec = play_deal([RandomPlayer(i) for i in (1, 2, 3)], seed)
        tricks = list(rec.tricks())
        if sum(1 for t in tricks if t.winner is not None) >= 10:
            found += 1
            for stage in STAGES:
                plays = sum(len(t.plays) for t in tricks[:stage])
                out.extend((seed, stage, rec.view(s, plays=plays)) for s in range(3))
        seed += 1
    return out


def naive_rate(view: SeatView, seconds: float, rng: random.Random) -> tuple[float, int, int]:
    """The naive sampler: uniform placements of the hidden cards, kept when consistent.
    Returns (accepted deals per second, accepted, attempts) over ``seconds``."""
    problem = derive(view)
    cards = [c for c in range(36) if problem.hidden >> c & 1]
    sizes = [p.size for p in problem.places]
    accepted = attempts = 0
    t0 = time.perf_counter()
    while True:
        rng.shuffle(cards)
        placed = []
        k = 0
        for size in sizes:
            placed.append(sum(1 << c for c in cards[k : k + size]))
            k += size
        attempts += 1
        if problem.violation(placed) is None:
            accepted += 1
        if attempts % 64 == 0 and time.perf_counter() - t0 >= seconds:
            break
    return accepted / (time.perf_counter() - t0), accepted, attempts


def run_sampler(deals: int, draws: int, naive_seconds: float) -> dict[str, Any]:
    """Draws per second of the Sampler (and of the naive one) on every view."""
    rows = []
    rng = random.Random(0)
    for seed, stage, view in progress(sampler_views(deals), "sampler views"):
        t0 = time.perf_counter()
        sampler = Sampler(view, 7)
        setup = time.perf_counter() - t0
        t1 = time.perf_counter()
        sampler.samples(draws)
        draw_s = time.perf_counter() - t1
        nrate, nacc, natt = naive_rate(view, naive_seconds, rng)
        stats = sampler.stats()
        rows.append(
            {
                "deal_seed": seed,
                "stage": stage,
                "view": str(view),
                "discards": sum(view.hidden_discards) > 0,
                "method": stats["method"],
                "acceptance": stats["acceptance"],
                "setup_s": round(setup, 4),
                "draws": draws,
                "per_s": round(draws / draw_s, 1),
                "per_s_with_setup": round(draws / (draw_s + setup), 1),
                "naive_per_s": round(nrate, 1),
                "naive_accepted": nacc,
                "naive_attempts": natt,
            }
        )

    def group(sel: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "views": len(sel),
            "per_s": summary([r["per_s"] for r in sel], 1),
            "per_s_with_setup": summary([r["per_s_with_setup"] for r in sel], 1),
            "setup_s": summary([r["setup_s"] for r in sel], 4),
            "naive_per_s": summary([r["naive_per_s"] for r in sel], 1),
            "methods": {m: sum(r["method"] == m for r in sel) for m in sorted({r["method"] for r in sel})},
        }

    with_discards = [r for r in rows if r["discards"]]
    return {
        "deals": deals,
        "draws_per_view": draws,
        "naive_seconds_per_view": naive_seconds,
        "by_stage": {str(st): group([r for r in rows if r["stage"] == st]) for st in STAGES},
        "with_discards": group(with_discards),
        "without_discards": group([r for r in rows if not r["discards"]]),
        "min_per_s_with_discards": min((r["per_s"] for r in with_discards), default=None),
        "records": rows,
    }


# ---------------------------------------------------------------- report


def print_report(data: dict[str, Any]) -> None:
    """The figures and the goals on stdout."""
    console = make_console()
    adv = data.get("advise")
    goals = data["goals"]
    if adv:
        s = adv["seconds_first_seed"]
        st = adv["stability"]
        c = adv["cpu_seconds_first_seed"]
        console.print(
            f"advise ({adv['hands']} hands, {adv['samples']} samples, {adv['limits']['max_nodes']:,} nodes/solve): "
            f"median {fmt(s['median'])} s, p95 {fmt(s['p95'])} s, max {fmt(s['max'])} s wall; "
            f"CPU median {fmt(c['median'])} s, p95 {fmt(c['p95'])} s"
        )
        for key, words in (
            ("all", "all hands"),
            ("gap_over_2se_first_seed", "gap > 2 SE"),
            ("gap_over_2se_both_seeds", "gap > 2 SE, both"),
        ):
            g = st[key]
            console.print(f"  seeds agree, {words}: {g['agree']}/{g['hands']} ({fmt(g['rate'], digits=3)})")
    ref = data.get("reference")
    if ref:
        console.print(
            f"reference Solver vs {ref['fast_solver']} ({ref['hands']} hands, {ref['samples']} samples): "
            f"{ref['speedup_cpu']}x faster (CPU time), same estimates: {ref['all_same_estimates']}"
        )
    smp = data.get("sampler")
    if smp:
        for st, g in smp["by_stage"].items():
            console.print(
                f"sampler after {st} tricks ({g['views']} views): median {fmt(g['per_s']['median'])} deals/s "
                f"(naive {fmt(g['naive_per_s']['median'])}), setup {fmt(g['setup_s']['median'], digits=4)} s"
            )
        w = smp["with_discards"]
        console.print(
            f"sampler, views with discards ({w['views']}): median {fmt(w['per_s']['median'])}, "
            f"min {fmt(smp['min_per_s_with_discards'])} deals/s"
        )
    for name, g in goals.items():
        console.print(f"goal {name}: {g['target']} → {g['value']} ({'met' if g['met'] else 'NOT met'})")


def goals(data: dict[str, Any]) -> dict[str, Any]:
    """The issue's goals with the measured values."""
    out: dict[str, Any] = {}
    adv = data.get("advise")
    if adv:
        med = adv["seconds_first_seed"]["median"]
        out["advise_median"] = {"target": "< 20 s", "value": med, "met": med is not None and med < 20}
        cpu = adv["cpu_seconds_first_seed"]["median"]
        out["advise_median_cpu"] = {"target": "< 20 s", "value": cpu, "met": cpu is not None and cpu < 20}
        rate = adv["stability"]["gap_over_2se_first_seed"]["rate"]
        out["stability_gap_over_2se"] = {"target": ">= 0.95", "value": rate, "met": rate is not None and rate >= 0.95}
    smp = data.get("sampler")
    if smp:
        med = smp["with_discards"]["per_s"]["median"]
        low = smp["min_per_s_with_discards"]
        out["sampler_with_discards"] = {
            "target": ">= 5000 deals/s",
            "value": {"median": med, "min": low},
            "met": low is not None and low >= 5000,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "advise.json")
    parser.add_argument("--hands", type=int, default=None, help="advise hands (default 30; quick 6)")
    parser.add_argument("--samples", type=int, default=ADVISE_SAMPLES, help="advise samples (the CLI default)")
    parser.add_argument("--max-nodes", type=int, default=ADVICE_MAX_NODES, help="per-solve nodes (the CLI default)")
    parser.add_argument(
        "--ref-max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help="per-solve nodes of the reference comparison (the reference is ~100x slower: the view default)",
    )
    parser.add_argument("--ref-hands", type=int, default=None, help="reference-Solver hands (default 3; quick 1)")
    parser.add_argument("--ref-samples", type=int, default=2, help="samples of the reference comparison (2)")
    parser.add_argument("--sampler-deals", type=int, default=None, help="deals for sampler views (default 5; quick 2)")
    parser.add_argument("--draws", type=int, default=2000, help="sampler draws per view (2000)")
    parser.add_argument("--naive-seconds", type=float, default=0.5, help="naive sampler time per view (0.5)")
    parser.add_argument("--parts", default="advise,reference,sampler", help="parts to run (comma-separated)")
    args = parser.parse_args(argv)
    hands = args.hands if args.hands is not None else (6 if args.quick else 30)
    ref_hands = args.ref_hands if args.ref_hands is not None else (1 if args.quick else 3)
    deals = args.sampler_deals if args.sampler_deals is not None else (2 if args.quick else 5)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    limits = SolveLimits(args.max_nodes or None)
    advise(*bench_hand(0), samples=1, limits=SolveLimits(1000))  # load (or compile) the kernel first
    data: dict[str, Any] = {
        "bench": "advise",
        "ran": {
            "quick": args.quick,
            "hands": hands,
            "samples": args.samples,
            "max_nodes": args.max_nodes,
            "ref_max_nodes": args.ref_max_nodes,
            "ref_hands": ref_hands,
            "ref_samples": args.ref_samples,
            "sampler_deals": deals,
            "draws": args.draws,
            "naive_seconds": args.naive_seconds,
            "parts": sorted(parts),
            "loadavg_before": list(os.getloadavg()),
        },
    }
    t0 = time.perf_counter()
    if "sampler" in parts:
        data["sampler"] = run_sampler(deals, args.draws, args.naive_seconds)
    if "advise" in parts:
        data["advise"] = run_advise(hands, args.samples, limits)
    if "reference" in parts:
        data["reference"] = run_reference(ref_hands, args.ref_samples, SolveLimits(args.ref_max_nodes or None))
    data["ran"]["loadavg_after"] = list(os.getloadavg())
    data["ran"]["seconds"] = round(time.perf_counter() - t0, 1)
    data["goals"] = goals(data)
    print_report(data)
    path = save_json(data, args.out)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
