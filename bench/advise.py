"""Benchmark of call/pass advice (``lukfu_solver.analysis.advice.advise``) and of the view sampler.

Parts (``--parts``), every input a pure function of its seed:

- **advise**: ``--hands`` dealt hands (hand ``i`` is seat ``i % 3`` of ``deal_from_seed(1000 + i)``),
  each advised at the ``lukfu advise`` defaults (anytime: the time budget, the sequential test,
  the learned model refined by the samples; one process) with two sampling seeds (2 and 3: the
  reference, train/advise_reference.py, draws from another seed). Reported: time per advise (median, p95, max) wall and CPU, samples,
  why sampling stopped, the basis, and the seeds' agreement over all hands and over the hands
  whose gap is more than two standard errors.
- **agreement**: each seed's answers against the high-sample reference
  ``bench/results/advise-reference.json`` (``train/advise_reference.py``: exact PIMC, every
  solve exact, a fixed sample count a hand from a seed disjoint from 2 and 3): the
  recommendation wherever the reference's gap exceeds 2 standard errors, and play and pass each
  within 3 combined errors; beside it, how many disagreements the answers' own standard errors
  lead one to expect.
- **compare**: this tree's answers (the advise part's, then not run again) and those of another
  revision (``--compare-rev``, by default 813c82c, the build the advice's speed-ups are measured against) hand by
  hand in the same run, the order alternating, each in its own process
  (``bench/advise_compare.py``): the median standard error of play, pass and the gap, samples,
  why sampling stopped, wall and CPU seconds and the agreement with the reference, for both.
- **baseline**: fbfdd6f's ``advise`` at its defaults (32 samples, 16,000,000 nodes a solve) on the
  first ``--baseline-hands`` hands, in a subprocess importing the old code (``--basepath``), and
  the side-by-side CPU ratio on the same hands (first seed).
- **hand**: ``analyse HAND --seat 0`` at its defaults (advice and first-lead table) on the seat-0 hands.
- **levers**: the warm start (``advise(..., guess=True)``: every solve's first test at the model's
  value) against none, on the same fixed work.
- **reference**: the pure-Python reference solver beside the compiled one on the same small work.
- **stopped**: what a solve the time budget stops should count: on the reference's sampled deals
  whose exact solve took at least 3x ``--stop-nodes``, the *play* solve stopped after
  ``--stop-nodes`` nodes (a node limit, so the figures are the same on any machine), its bounds'
  midpoint, the model's value and the deal's rule playout (every hand seen) clamped to the
  bounds, each against the exact value.
- **sampler**: ``Sampler(view, seed).samples(n)`` on the views of all three seats after 0, 3, 6
  and 9 tricks of random deals, beside a naive rejection sampler given the same time.

Times are wall seconds and CPU seconds of the process: on a shared machine the CPU time is
what an idle machine's wall time would be.

Run: ``python -m bench.advise [--quick] [--hands N] [--parts ...] [--out FILE]``; ``--quick`` runs
6 hands, 1 reference hand and 2 sampler deals. Results go to ``bench/results/advise.json``, with
what was run (options, load average) recorded in it.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.advise_compare import COMPARE_REV, compare_report, run_side_by_side
from bench.advise_hands import FIRST_DEAL, bench_hand, sample_seeds
from bench.advise_hands import TESTED_SEEDS as SEEDS  # the two sampling seeds compared for stability
from bench.common import (
    BASELINE_COMMIT,
    RESULTS_DIR,
    base_parser,
    baseline_tree,
    fmt,
    make_console,
    progress,
    save_json,
    summary,
)
from lukfu_solver.analysis.advice import Advice, advise
from lukfu_solver.analysis.defaults import (
    ADVICE_MAX_NODES,
    ADVISE_SAMPLES,
    DECIDE_Z,
    DEFAULT_MAX_NODES,
    advice_budget,
    make_limits,
)
from lukfu_solver.analysis.hand import analyse_hand
from lukfu_solver.analysis.model import predict
from lukfu_solver.analysis.moves import SolveLimits
from lukfu_solver.cards import format_cards
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.constraints import derive
from lukfu_solver.hidden.sampling import Sampler, deal_others
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.policy.calling import hand_facts
from lukfu_solver.policy.rule import rule_playout
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver
from lukfu_solver.view import SeatView

STAGES = (0, 3, 6, 9)
"""Complete tricks before the sampler's views."""
Z_GAP = 2.0
"""A gap is "clear" when it exceeds this many standard errors of the paired difference."""


# ---------------------------------------------------------------- advise


def gap_z(adv: Advice) -> float:
    """The play-pass gap in standard errors of the paired difference (from ``p_play_better``)."""
    p = min(max(adv.p_play_better, 1e-12), 1 - 1e-12)
    return statistics.NormalDist().inv_cdf(p)


def advice_record(i: int, adv: Advice) -> dict[str, Any]:
    """One advise run as a row of the results: the advice's one schema
    (:meth:`~lukfu_solver.analysis.advice.Advice.to_json`, as ``advise --json`` writes it)
    flattened and rounded, with the bench's own figures (the gap, its z, the budget's stops)."""
    a = adv.to_json()
    play, pass_ = a["play"], a["pass"]
    return {
        "hand_index": i,
        "hand": format_cards(adv.hand),
        "seat": adv.seat,
        "seed": a["seed"],
        "recommendation": a["recommendation"],
        "play": round(play["mean"], 4),
        "play_se": round(play["stderr"], 4),
        "pass": round(pass_["mean"], 4),
        "pass_se": round(pass_["stderr"], 4),
        "gap": round(play["mean"] - pass_["mean"], 4),
        "gap_se": round(a["gap_stderr"], 4),
        "p_play_better": round(a["p_play_better"], 6),
        "gap_z": round(gap_z(adv), 3),
        "samples": a["samples"],
        "cheap_deals": adv.cheap_deals,
        "stopped": a["stopped"],
        "basis": a["basis"],
        "cut": a["cut"],
        "budget_stopped": adv.budget_stopped,
        "solves": a["solves"],
        "incomplete": a["incomplete"],
        "seconds": a["seconds"],
    }


def default_advise(hand: int, seat: int, seed: int, guess: bool = False) -> Advice:
    """``lukfu advise`` at its defaults (anytime: the budget and the sequential test), one process."""
    samples, budget = advice_budget(None, None, seat)
    return advise(hand, seat, samples, seed, 1, make_limits(None, None, ADVICE_MAX_NODES), budget=budget, guess=guess)


def timed_advise(i: int, hand: int, seat: int, seed: int) -> dict[str, Any]:
    """Bench hand ``i`` at the defaults with ``seed``: its record with the CPU seconds it took."""
    cpu = time.process_time()
    rec = advice_record(i, default_advise(hand, seat, seed))
    rec["cpu_seconds"] = round(time.process_time() - cpu, 3)
    return rec


def run_advise(hands: int, records: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, Any]:
    """Every hand at the defaults with both seeds (or their ``records`` of the side-by-side run,
    by seed); timings, how sampling stopped, the standard errors, seeds' agreement."""
    runs: dict[int, list[dict[str, Any]]] = {s: [] for s in SEEDS}
    for seed in SEEDS:
        if records is not None:
            runs[seed] = records[str(seed)]
            continue
        for i in progress(list(range(hands)), f"advise, seed {seed}"):
            hand, seat = bench_hand(i)
            runs[seed].append(timed_advise(i, hand, seat, seed))
    a, b = runs[SEEDS[0]], runs[SEEDS[1]]
    agree = [x["recommendation"] == y["recommendation"] for x, y in zip(a, b, strict=True)]
    clear = [abs(x["gap_z"]) > Z_GAP for x in a]
    both = [abs(x["gap_z"]) > Z_GAP and abs(y["gap_z"]) > Z_GAP for x, y in zip(a, b, strict=True)]

    def share(mask: list[bool]) -> dict[str, Any]:
        kept = [g for g, m in zip(agree, mask, strict=True) if m]
        return {"hands": len(kept), "agree": sum(kept), "rate": round(sum(kept) / len(kept), 4) if kept else None}

    budgets = {s: advice_budget(None, None, s)[1] for s in range(3)}
    both_runs = a + b
    return {
        "hands": hands,
        "seeds": list(SEEDS),
        "defaults": {
            "max_samples": advice_budget(None, None)[0],
            "budget_s_by_seat": {str(s): b.seconds if b else None for s, b in budgets.items()},
            "z": DECIDE_Z,
        },
        "jobs": 1,
        "seconds_first_seed": summary([x["seconds"] for x in a]),
        "cpu_seconds_first_seed": summary([x["cpu_seconds"] for x in a]),
        "seconds_both_seeds": summary([x["seconds"] for x in both_runs]),
        "cpu_seconds_both_seeds": summary([x["cpu_seconds"] for x in both_runs]),
        "samples_both_seeds": summary([x["samples"] for x in both_runs]),
        "play_se_median_both_seeds": round(statistics.median(x["play_se"] for x in both_runs), 4),
        "gap_se_median_both_seeds": round(statistics.median(x["gap_se"] for x in both_runs), 4),
        "stopped_both_seeds": {k: sum(x["stopped"] == k for x in both_runs) for k in ("decided", "time", "samples")},
        "basis_both_seeds": {
            k: sum(x["basis"] == k for x in both_runs) for k in sorted({x["basis"] for x in both_runs})
        },
        "by_seat_median_s": {
            str(s): round(statistics.median([x["seconds"] for x in a if x["seat"] == s]), 3)
            for s in range(3)
            if any(x["seat"] == s for x in a)
        },
        "incomplete_per_advise": summary([x["incomplete"] for x in both_runs]),
        "budget_stopped_solves_both_seeds": sum(x["budget_stopped"] for x in both_runs),
        "play_share": round(sum(x["recommendation"] == "play" for x in a) / hands, 4),
        "stability": {
            "all": share([True] * hands),
            "gap_over_2se_first_seed": share(clear),
            "gap_over_2se_both_seeds": share(both),
        },
        "records": {str(s): runs[s] for s in SEEDS},
    }


# ---------------------------------------------------------------- fbfdd6f side by side

BASELINE_SCRIPT = """
import json, sys, time
from lukfu_solver.advice import advise
from lukfu_solver.analysis import SolveLimits
from lukfu_solver.game import deal_from_seed
advise(deal_from_seed(FIRST)[0], 0, 1, 0, 1, SolveLimits(1000))  # load (or compile) the kernel first
for i in json.loads(sys.argv[1]):
    seat = i % 3
    hand = deal_from_seed(FIRST + i)[seat]
    w, c = time.perf_counter(), time.process_time()
    a = advise(hand, seat, SAMPLES, SEED, 1, SolveLimits(NODES))
    print(json.dumps({"hand_index": i, "seat": seat, "recommendation": a.recommendation, "play": a.play.mean,
        "pass": a.pass_.mean, "incomplete": a.incomplete, "seconds": round(time.perf_counter() - w, 3),
        "cpu_seconds": round(time.process_time() - c, 3)}), flush=True)
"""


def run_baseline(hands: list[int], basepath: str | None, seed: int) -> dict[str, Any]:
    """fbfdd6f's ``advise`` at its defaults (32 samples, 16,000,000 nodes a solve, one process)
    on ``hands``, in a subprocess importing the old code from ``basepath`` (None: the tree
    :func:`common.baseline_tree` extracts from git)."""
    script = (
        BASELINE_SCRIPT.replace("FIRST", str(FIRST_DEAL))
        .replace("SAMPLES", str(ADVISE_SAMPLES))
        .replace("SEED", str(seed))
        .replace("NODES", str(ADVICE_MAX_NODES))
    )
    env = dict(os.environ, PYTHONPATH=str(baseline_tree(Path(basepath) if basepath else None)))
    cmd = [sys.executable, "-c", script, json.dumps(hands)]
    out = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, check=False)
    if out.returncode:
        raise RuntimeError(f"baseline failed: {out.stderr[-2000:]}")
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    return {
        "commit": BASELINE_COMMIT,
        "hands": len(rows),
        "seed": seed,
        "samples": ADVISE_SAMPLES,
        "max_nodes": ADVICE_MAX_NODES,
        "seconds": summary([r["seconds"] for r in rows]),
        "cpu_seconds": summary([r["cpu_seconds"] for r in rows]),
        "records": rows,
    }


def side_by_side(baseline: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """CPU and wall time of fbfdd6f and of today's defaults on the same hands (first seed)."""
    mine = {r["hand_index"]: r for r in new["records"][str(SEEDS[0])]}
    pairs = [(b, mine[b["hand_index"]]) for b in baseline["records"] if b["hand_index"] in mine]
    old_cpu, new_cpu = sum(b["cpu_seconds"] for b, _ in pairs), sum(n["cpu_seconds"] for _, n in pairs)
    budgets = sum(advice_budget(None, None, n["seat"])[1].seconds or 0.0 for _, n in pairs)  # type: ignore[union-attr]
    return {
        "hands": len(pairs),
        "fbfdd6f_cpu_total_s": round(old_cpu, 2),
        "new_cpu_total_s": round(new_cpu, 2),
        "cpu_ratio": round(old_cpu / new_cpu, 2) if new_cpu else None,
        "new_budget_total_s": round(budgets, 2),
        "cpu_ratio_lower_bound": round(old_cpu / budgets, 2) if budgets else None,
        "lower_bound_why": "an answer's CPU time is at most its wall-time budget: on a loaded machine the new code gets "
        "less CPU within the same budget, so cpu_ratio grows with the load; fbfdd6f's fixed work does not",
        "fbfdd6f_seconds": summary([b["seconds"] for b, _ in pairs]),
        "new_seconds": summary([n["seconds"] for _, n in pairs]),
        "same_recommendation": sum(b["recommendation"] == n["recommendation"] for b, n in pairs),
    }


# ---------------------------------------------------------------- agreement with a high-sample reference


def run_agreement(new: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    """Each seed's answers against the reference: the recommendation wherever the reference's gap
    exceeds 2 standard errors, and play and pass each within 3 combined standard errors. Beside
    them, the disagreements to expect by chance: over the clear hands, the probability that an
    unbiased answer with the answer's own gap error falls on the other side of 0 than the
    reference's gap (a sum of normal tails); and whether the answers that disagree said they were a
    close call (their gap under 2 of its standard errors, as ``lukfu advise`` prints it), with the
    agreement on the clear hands whose answer is not one."""
    ref = {r["hand_index"]: r for r in reference["records"]}
    out: dict[str, Any] = {
        "reference_samples": statistics.median(r["samples"] for r in ref.values()),
        "reference_exact": all(r["incomplete"] == 0 for r in ref.values()),
        "reference_hands": len(ref),
    }
    normal = statistics.NormalDist()
    for seed, recs in new["records"].items():
        clear = agree = within = total = sure = sure_agree = 0
        expected = 0.0
        misses, outside = [], []
        for r in recs:
            x = ref.get(r["hand_index"])
            if x is None:
                continue
            total += 1
            if abs(x["gap"]) > Z_GAP * x["gap_se"]:
                clear += 1
                ok = (x["gap"] > 0) == (r["recommendation"] == "play")
                agree += ok
                said_close = not abs(r["gap"]) >= Z_GAP * r["gap_se"] if r["gap_se"] > 0 else r["gap"] == 0
                sure += not said_close
                sure_agree += ok and not said_close
                expected += normal.cdf(-abs(x["gap"]) / r["gap_se"]) if r["gap_se"] > 0 else 0.0
                if not ok:
                    misses.append(
                        {
                            "hand_index": r["hand_index"],
                            "seat": r["seat"],
                            "reference_gap": x["gap"],
                            "reference_gap_se": x["gap_se"],
                            "gap": r["gap"],
                            "gap_se": r["gap_se"],
                            "samples": r["samples"],
                            "basis": r["basis"],
                            "said_close_call": said_close,
                        }
                    )
            close = all(abs(r[k] - x[k]) <= 3 * math.hypot(r[f"{k}_se"], x[f"{k}_se"]) + 1e-9 for k in ("play", "pass"))
            within += close
            if not close:
                outside.append(r["hand_index"])
        out[seed] = {
            "hands": total,
            "clear_in_reference": clear,
            "recommendation_agrees": agree,
            "disagreements_expected_by_chance": round(expected, 2),
            "disagree": misses,
            "disagreements_said_close_call": sum(m["said_close_call"] for m in misses),
            "clear_in_reference_answer_not_close": sure,
            "of_those_recommendation_agrees": sure_agree,
            "estimates_within_3_combined_se": within,
            "outside_3_combined_se": outside,
        }
    return out


# ---------------------------------------------------------------- analyse HAND --seat 0


def run_hand(hands: int) -> dict[str, Any]:
    """``analyse HAND --seat 0`` at its defaults (advice and first-lead table) on the seat-0 hands."""
    rows = []
    for i in progress([i for i in range(hands) if i % 3 == 0], "analyse HAND --seat 0"):
        hand, seat = bench_hand(i)
        w, c = time.perf_counter(), time.process_time()
        h = analyse_hand(hand, seat, seed=SEEDS[0])
        assert h.leads is not None
        rows.append(
            {
                "hand_index": i,
                "seconds": round(time.perf_counter() - w, 3),
                "cpu_seconds": round(time.process_time() - c, 3),
                "advice_samples": h.advice.samples,
                "lead_samples": h.leads.samples,
                "best_lead": str(h.leads.best.move) if h.leads.best else None,
            }
        )
    return {"hands": len(rows), "seconds": summary([r["seconds"] for r in rows]), "records": rows}


# ---------------------------------------------------------------- levers


def run_levers(hands: int, samples: int) -> dict[str, Any]:
    """The warm start on fixed work: the same ``samples`` of the first ``hands`` hands with and
    without the model's guess (the values are the same; nodes and CPU time compared)."""
    rows = []
    limits = make_limits(None, None, ADVICE_MAX_NODES)
    for i in progress(list(range(hands)), "warm start"):
        hand, seat = bench_hand(i)
        row: dict[str, Any] = {"hand_index": i}
        for guess in (False, True):
            c = time.process_time()
            a = advise(hand, seat, samples, SEEDS[0], 1, limits, guess=guess)
            key = "guess" if guess else "plain"
            row[f"{key}_cpu_s"] = round(time.process_time() - c, 3)
            row[f"{key}_play"] = a.play.mean
            row[f"{key}_incomplete"] = a.incomplete
        rows.append(row)
    plain, warm = sum(r["plain_cpu_s"] for r in rows), sum(r["guess_cpu_s"] for r in rows)
    return {
        "warm_start": {
            "hands": hands,
            "samples": samples,
            "plain_cpu_total_s": round(plain, 2),
            "guess_cpu_total_s": round(warm, 2),
            "speedup": round(plain / warm, 3) if warm else None,
            "records": rows,
        }
    }


# ---------------------------------------------------------------- the value of a stopped solve


def run_stopped(reference: dict[str, Any], stop_nodes: int, per_hand: int) -> dict[str, Any]:
    """The midpoint, the clamped model value and the clamped rule playout of the deal of solves
    stopped after ``stop_nodes`` nodes, against the exact values, on up to ``per_hand`` reference deals a hand that need 3x as many."""
    rows = []
    for r in progress(reference["records"], "stopped solves"):
        hand, seat = bench_hand(r["hand_index"])
        model = predict(hand_facts(hand), seat)
        prior = 0.0 if model is None else model.play  # what the budget's stopped solves counted before
        seeds = sample_seeds(r["seed"], r["samples"])
        kept = 0
        for k, nodes in enumerate(r["sample_nodes"]):
            if kept >= per_hand or nodes < 3 * stop_nodes:
                continue
            pos = Position.start(deal_others(hand, seat, random.Random(seeds[k])), seat)
            res = make_solver().solve(pos, max_nodes=stop_nodes)
            if res.complete:
                continue
            kept += 1
            exact = r["sample_play"][k]
            mid, clamped = (res.lower + res.upper) / 2, min(max(prior, res.lower), res.upper)
            playout = min(max(rule_playout(pos), res.lower), res.upper)  # the deal's own cheap value
            row = {"hand_index": r["hand_index"], "exact": exact, "mid": mid, "model_clamped": clamped}
            rows.append(row | {"playout_clamped": playout})

    def errors(key: str) -> dict[str, float | None]:
        diffs = [x[key] - x["exact"] for x in rows]
        if not diffs:
            return {"bias": None, "mean_abs": None}
        return {"bias": round(statistics.fmean(diffs), 3), "mean_abs": round(statistics.fmean(map(abs, diffs)), 3)}

    return {
        "stop_nodes": stop_nodes,
        "solves": len(rows),
        "hands": len({x["hand_index"] for x in rows}),
        "midpoint": errors("mid"),
        "model_clamped": errors("model_clamped"),
        "playout_clamped": errors("playout_clamped"),
        "records": rows,
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
    if adv:
        s, c = adv["seconds_both_seeds"], adv["cpu_seconds_both_seeds"]
        console.print(
            f"advise at the defaults ({adv['hands']} hands x seeds {adv['seeds']}, budget {adv['defaults']['budget_s_by_seat']} s): "
            f"median {fmt(s['median'])} s, p95 {fmt(s['p95'])} s, max {fmt(s['max'])} s wall; "
            f"CPU median {fmt(c['median'])} s; samples median {fmt(adv['samples_both_seeds']['median'])}; "
            f"stopped {adv['stopped_both_seeds']}; basis {adv['basis_both_seeds']}"
        )
        for key, words in (("all", "all hands"), ("gap_over_2se_first_seed", "gap > 2 SE")):
            g = adv["stability"][key]
            console.print(f"  seeds agree, {words}: {g['agree']}/{g['hands']} ({fmt(g['rate'], digits=3)})")
    cmp_ = data.get("compare")
    if cmp_:
        for who in ("this", "other"):
            f = cmp_[who]
            agr = " ".join(
                f"seed {k}: {v['recommendation_agrees']}/{v['clear_in_reference']}"
                for k, v in f["agreement"].items()
                if isinstance(v, dict)
            )
            console.print(
                f"{who if who == 'this' else cmp_['rev']}: play SE median {f['play_se_median']} (gap {f['gap_se_median']}), "
                f"samples median {fmt(f['samples']['median'])}, wall median {fmt(f['seconds']['median'], digits=2)} s, "
                f"CPU median {fmt(f['cpu_seconds']['median'], digits=2)} s; stopped {f['stopped']}; agrees {agr}"
            )
    for key in ("side_by_side", "agreement", "hand", "levers", "stopped"):
        if key in data:
            part = {k: v for k, v in data[key].items() if k != "records"}
            console.print(f"{key}: {json.dumps(part, default=str)[:600]}")
    ref = data.get("reference")
    if ref:
        console.print(
            f"reference Solver vs {ref['fast_solver']} ({ref['hands']} hands, {ref['samples']} samples): "
            f"{ref['speedup_cpu']}x faster (CPU time), same estimates: {ref['all_same_estimates']}"
        )
    smp = data.get("sampler")
    if smp:
        w = smp["with_discards"]
        console.print(
            f"sampler, views with discards ({w['views']}): median {fmt(w['per_s']['median'])}, "
            f"min {fmt(smp['min_per_s_with_discards'])} deals/s"
        )
    for name, g in data["goals"].items():
        console.print(f"goal {name}: {g['target']} → {g['value']} ({'met' if g['met'] else 'NOT met'})")


def goals(data: dict[str, Any]) -> dict[str, Any]:
    """The issue's goals with the measured values."""
    out: dict[str, Any] = {}

    def goal(name: str, target: str, value: Any, met: bool) -> None:
        out[name] = {"target": target, "value": value, "met": bool(met)}

    adv = data.get("advise")
    if adv:
        s = adv["seconds_both_seeds"]
        goal("advise_median", "<= 2 s", s["median"], s["median"] is not None and s["median"] <= 2)
        goal("advise_p95", "<= 6 s", s["p95"], s["p95"] is not None and s["p95"] <= 6)
        rate = adv["stability"]["gap_over_2se_first_seed"]["rate"]
        goal("seeds_agree_gap_over_2se", ">= 0.95", rate, rate is not None and rate >= 0.95)
    sbs = data.get("side_by_side")
    if sbs:
        goal("cpu_ratio_vs_fbfdd6f", ">= 10", sbs["cpu_ratio"], (sbs["cpu_ratio"] or 0) >= 10)
        low = sbs.get("cpu_ratio_lower_bound")
        goal("cpu_ratio_vs_fbfdd6f_lower_bound", ">= 10", low, (low or 0) >= 10)
    agr = data.get("agreement")
    if agr:
        for seed in SEEDS:
            a = agr.get(str(seed))
            if a:
                rec = f"{a['recommendation_agrees']}/{a['clear_in_reference']}"
                goal(
                    f"agrees_with_reference_seed{seed}",
                    "all clear hands",
                    rec,
                    a["recommendation_agrees"] == a["clear_in_reference"],
                )
                said = a.get("disagreements_said_close_call")
                if said is not None:  # not an issue goal: the answers that miss say they are close calls
                    n = len(a["disagree"])
                    goal(f"misses_said_close_call_seed{seed}", "every miss", f"{said}/{n}", said == n)
                est = f"{a['estimates_within_3_combined_se']}/{a['hands']}"
                goal(f"within_3se_seed{seed}", "all hands", est, a["estimates_within_3_combined_se"] == a["hands"])
    hand = data.get("hand")
    if hand:
        med = hand["seconds"]["median"]
        goal("analyse_hand_seat0_median", "<= 5 s", med, med is not None and med <= 5)
    smp = data.get("sampler")
    if smp:
        low = smp["min_per_s_with_discards"]
        goal("sampler_with_discards", ">= 5000 deals/s", low, low is not None and low >= 5000)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "advise.json")
    parser.add_argument("--hands", type=int, default=None, help="advise hands (default 30; quick 6)")
    parser.add_argument("--baseline-hands", type=int, default=None, help="fbfdd6f hands (default all; quick 6)")
    parser.add_argument(
        "--basepath", default=None, help="where fbfdd6f's lukfu_solver imports from (default: extracted from git)"
    )
    parser.add_argument("--lever-hands", type=int, default=4, help="warm-start comparison hands (4)")
    parser.add_argument("--lever-samples", type=int, default=4, help="warm-start comparison samples (4)")
    parser.add_argument(
        "--ref-max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        help="per-solve nodes of the reference-Solver comparison (the reference is ~100x slower: the view default)",
    )
    parser.add_argument("--ref-hands", type=int, default=None, help="reference-Solver hands (default 3; quick 1)")
    parser.add_argument("--ref-samples", type=int, default=2, help="samples of the reference comparison (2)")
    parser.add_argument("--sampler-deals", type=int, default=None, help="deals for sampler views (default 5; quick 2)")
    parser.add_argument("--draws", type=int, default=2000, help="sampler draws per view (2000)")
    parser.add_argument("--naive-seconds", type=float, default=0.5, help="naive sampler time per view (0.5)")
    parser.add_argument("--stop-nodes", type=int, default=300_000, help="nodes of the stopped solves (300,000)")
    parser.add_argument("--stop-per-hand", type=int, default=4, help="stopped solves a reference hand (4)")
    parser.add_argument(
        "--compare-rev", default=COMPARE_REV, help=f"the revision the compare part runs beside (default {COMPARE_REV})"
    )
    parser.add_argument("--keep", action="store_true", help="keep the parts not run from the --out file")
    parser.add_argument(
        "--parts",
        default="advise,baseline,agreement,hand,levers,reference,sampler,stopped",
        help="parts to run (comma-separated)",
    )
    args = parser.parse_args(argv)
    hands = args.hands if args.hands is not None else (6 if args.quick else 30)
    base_hands = args.baseline_hands if args.baseline_hands is not None else hands
    ref_hands = args.ref_hands if args.ref_hands is not None else (1 if args.quick else 3)
    deals = args.sampler_deals if args.sampler_deals is not None else (2 if args.quick else 5)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    advise(*bench_hand(0), samples=1, limits=SolveLimits(1000))  # load (or compile) the kernel first
    data: dict[str, Any] = {
        "bench": "advise",
        "ran": {
            "quick": args.quick,
            "hands": hands,
            "baseline_hands": base_hands,
            "ref_max_nodes": args.ref_max_nodes,
            "ref_hands": ref_hands,
            "ref_samples": args.ref_samples,
            "sampler_deals": deals,
            "parts": sorted(parts),
            "loadavg_before": list(os.getloadavg()),
        },
    }
    if args.keep and args.out.exists():
        old = json.loads(args.out.read_text(encoding="utf-8"))
        fresh_advice = "advise" in parts or "compare" in parts
        rerun = parts | ({"advise"} if fresh_advice else set())
        rerun |= {"side_by_side"} if fresh_advice and "baseline" in old else set()
        fresh = ("bench", "ran", "goals", "environment")  # this run's own, never kept
        data.update({k: v for k, v in old.items() if k not in rerun and k not in fresh})
        data["ran"]["kept_from_earlier_run"] = sorted(k for k in old if k not in rerun and k not in fresh)
        data["ran"]["earlier_environment"] = old.get("environment")
        data["ran"]["earlier_run"] = old.get("ran")  # what the kept parts came from (a chain of runs)
    t0 = time.perf_counter()
    if "sampler" in parts:
        data["sampler"] = run_sampler(deals, args.draws, args.naive_seconds)
    reference = json.loads((RESULTS_DIR / "advise-reference.json").read_text(encoding="utf-8"))
    if "compare" in parts:  # this tree and --compare-rev hand by hand; this tree's answers are the advise part's
        chosen = [(i, *bench_hand(i)) for i in range(hands)]
        both = run_side_by_side(chosen, SEEDS, timed_advise, args.compare_rev, FIRST_DEAL, progress)
        data["compare"] = compare_report(both, lambda new: run_agreement(new, reference))
        data["advise"] = run_advise(hands, both["runs"]["this"])
    elif "advise" in parts:
        data["advise"] = run_advise(hands)
    if "agreement" in parts and "advise" in data:  # fresh, or kept (--keep) to re-measure against a new reference
        data["agreement"] = run_agreement(data["advise"], reference)
    if "baseline" in parts and "advise" in data:
        data["baseline"] = run_baseline(list(range(base_hands)), args.basepath, SEEDS[0])
    if "baseline" in data and "advise" in data:
        data["side_by_side"] = side_by_side(data["baseline"], data["advise"])
    if "stopped" in parts:
        data["stopped"] = run_stopped(reference, args.stop_nodes, args.stop_per_hand)
    if "hand" in parts:
        data["hand"] = run_hand(hands)
    if "levers" in parts:
        data["levers"] = run_levers(args.lever_hands, args.lever_samples)
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
