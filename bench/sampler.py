"""Benchmark of the uniform deal sampler (``lukfu_solver.hidden.sampling.Sampler``) on fixed seat views.

Views (every one a pure function of its seed): deals of three seeded random players (seeds
0..N-1, ``game.play_deal`` with ``RandomPlayer``); for each deal, one seat's view (seat = seed
mod 3) at four stages: the **start** of the deal (before the first lead) and after **3**, **6**
and **9** tricks (when the deal lasted that long). Views of a later stage with at least one
hidden discard are also summarised together as **with discards**, the goal's set.

For each view: the sampler's setup time, draws per second (wall clock, and per CPU second, which
other processes on the machine disturb less), its method (``exact``, ``rejection`` or
``enumeration``), acceptance rate and number of consistent deals when known; beside it, measured
in the same run, the plain baseline: **naive rejection** (deal the hidden cards uniformly at
random into the places by size and keep the deal only if ``Problem.violation`` finds nothing),
run for at most ``--naive-attempts`` attempts or ``--naive-seconds`` per view.

Goal: at least 5,000 consistent deals per second on views with discards.

Run: ``python -m bench.sampler [--quick] [--deals N] [--draws N] [--out FILE]``.
``--quick``: 6 deals, 300 draws a view. Results: ``bench/results/sampler.json`` (or ``--out``).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from bench.common import base_parser, fmt, make_console, progress, ratio, save_json, summary
from lukfu_solver.cards import iter_cards
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.constraints import Problem
from lukfu_solver.hidden.sampling import Sampler
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM
from lukfu_solver.view import SeatView

STAGES = (("start", 0), ("3 tricks", 3), ("6 tricks", 6), ("9 tricks", 9))
GOAL_PER_S = 5000
SEED = 7
"""The sampler's seed on every view."""


def stage_views(deals: int) -> list[tuple[int, str, SeatView]]:
    """``(deal seed, stage, view)`` for every deal and stage the deal reached."""
    out = []
    for seed in range(deals):
        rec = play_deal([RandomPlayer(seed), RandomPlayer(seed + 1), RandomPlayer(seed + 2)], seed)
        plays = len(rec.plays) - (1 if rec.plays and rec.plays[-1].kind == CLAIM else 0)
        for name, tricks in STAGES:
            if 3 * tricks <= plays:
                out.append((seed, name, rec.view(seed % 3, plays=3 * tricks)))
    return out


def naive(problem: Problem, attempts: int, seconds: float, rng: random.Random) -> dict[str, Any]:
    """The plain baseline: uniform fillings by size, kept when consistent; rate and acceptance."""
    cards = list(iter_cards(problem.hidden))
    sizes = [p.size for p in problem.places]
    accepted = tried = 0
    t0 = time.perf_counter()
    while tried < attempts:
        rng.shuffle(cards)
        filled, k = [], 0
        for size in sizes:
            filled.append(sum(1 << c for c in cards[k : k + size]))
            k += size
        tried += 1
        if problem.violation(filled) is None:
            accepted += 1
        if tried % 64 == 0 and time.perf_counter() - t0 >= seconds:
            break
    elapsed = time.perf_counter() - t0
    return {
        "attempts": tried,
        "accepted": accepted,
        "acceptance": ratio(accepted, tried, 6),
        "per_s": round(accepted / elapsed, 1) if elapsed else None,
    }


def measure(seed: int, stage: str, view: SeatView, draws: int, args: Any, rng: random.Random) -> dict[str, Any]:
    """One view: the sampler's setup, rate and acceptance, and the naive baseline's."""
    t0 = time.perf_counter()
    sampler = Sampler(view, SEED)
    setup = time.perf_counter() - t0
    c0, w0 = time.process_time(), time.perf_counter()
    sampler.samples(draws)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    stats = sampler.stats()
    base = naive(sampler.problem, args.naive_attempts, args.naive_seconds, rng)
    return {
        "deal_seed": seed,
        "stage": stage,
        "view": str(view),
        "hidden_cards": sampler.problem.hidden.bit_count(),
        "places": len(sampler.problem.places),
        "constraints": len(sampler.problem.constraints),
        "discards": sum(view.hidden_discards) > 0,
        "method": stats["method"],
        "count": stats["count"],
        "exact_count": stats["exact_count"],
        "acceptance": stats["acceptance"],
        "setup_s": round(setup, 5),
        "draws": draws,
        "per_s": round(draws / wall, 1),
        "per_cpu_s": round(draws / cpu, 1) if cpu else None,
        "naive": base,
    }


def group(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Summary of a group of views: rates, setup, acceptance, methods, the naive baseline."""
    acc = [r["acceptance"] for r in rows if r["acceptance"] is not None]
    naive_rates = [r["naive"]["per_s"] for r in rows if r["naive"]["per_s"] is not None]
    return {
        "views": len(rows),
        "per_s": summary([r["per_s"] for r in rows], 1),
        "per_cpu_s": summary([r["per_cpu_s"] for r in rows if r["per_cpu_s"]], 1),
        "setup_s": summary([r["setup_s"] for r in rows], 5),
        "acceptance": summary(acc, 4) if acc else None,
        "min_acceptance": min(acc) if acc else None,
        "methods": {m: sum(r["method"] == m for r in rows) for m in sorted({r["method"] for r in rows})},
        "naive_per_s": summary(naive_rates, 1),
        "naive_acceptance": summary([r["naive"]["acceptance"] or 0.0 for r in rows], 6),
        "naive_found_none": sum(r["naive"]["accepted"] == 0 for r in rows),
        "min_per_s": min((r["per_s"] for r in rows), default=None),
    }


def print_table(groups: dict[str, dict[str, Any]]) -> None:
    """One row per group: views, draws/s (median, min), acceptance, setup, naive baseline."""
    from rich.table import Table

    table = Table(title="Sampler: consistent deals per second (wall clock)")
    for col in (
        "group",
        "views",
        "median /s",
        "min /s",
        "median /CPU s",
        "min acc.",
        "setup p95",
        "naive /s",
        "naive none",
    ):
        table.add_column(col, justify="left" if col == "group" else "right")
    for name, g in groups.items():
        if not g["views"]:
            continue
        table.add_row(
            name,
            str(g["views"]),
            fmt(g["per_s"]["median"]),
            fmt(g["min_per_s"]),
            fmt(g["per_cpu_s"]["median"]),
            fmt(g["min_acceptance"], digits=3),
            fmt(None if g["setup_s"]["p95"] is None else g["setup_s"]["p95"] * 1000, " ms"),
            fmt(g["naive_per_s"]["median"]),
            f"{g['naive_found_none']}/{g['views']}",
        )
    make_console().print(table)


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "sampler.json")
    parser.add_argument("--deals", type=int, default=None, help="deals (seeds 0..N-1; default 30, quick 6)")
    parser.add_argument("--draws", type=int, default=None, help="samples drawn per view (default 2000, quick 300)")
    parser.add_argument("--naive-attempts", type=int, default=20_000, help="naive baseline cap per view (20000)")
    parser.add_argument("--naive-seconds", type=float, default=1.0, help="naive baseline time cap per view, s (1)")
    args = parser.parse_args(argv)
    deals = args.deals or (6 if args.quick else 30)
    draws = args.draws or (300 if args.quick else 2000)
    if deals < 1 or draws < 1:
        parser.error("--deals and --draws must be at least 1")
    views = stage_views(deals)
    rng = random.Random(0)
    rows = [measure(seed, stage, view, draws, args, rng) for seed, stage, view in progress(views, "sampler views")]
    groups = {name: group([r for r in rows if r["stage"] == name]) for name, _ in STAGES}
    with_discards = [r for r in rows if r["discards"]]
    groups["with discards"] = group(with_discards)
    groups["all"] = group(rows)
    print_table(groups)
    g = groups["with discards"]
    met = bool(with_discards) and g["per_s"]["median"] >= GOAL_PER_S
    print(
        f"goal {GOAL_PER_S:,}/s on views with discards: median {fmt(g['per_s']['median'])}/s, "
        f"min {fmt(g['min_per_s'])}/s ({fmt(g['per_cpu_s']['median'])} per CPU s) -> {'met' if met else 'NOT met'}"
    )
    worst = sorted(rows, key=lambda r: r["per_s"])[:5]
    data = {
        "bench": "sampler",
        "quick": args.quick,
        "deals": deals,
        "draws": draws,
        "seed": SEED,
        "naive_caps": {"attempts": args.naive_attempts, "seconds": args.naive_seconds},
        "goal_per_s": GOAL_PER_S,
        "goal_met_median_with_discards": met,
        "groups": groups,
        "slowest": [{k: r[k] for k in ("view", "method", "acceptance", "per_s", "per_cpu_s")} for r in worst],
        "views": rows,
    }
    path = save_json(data, args.out)
    print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
