"""Engine benchmark: random full-deal playouts from fixed seeds.

Prints playouts per second and legal-move generations per second (median over runs) for the
raw position loop (``legal_moves`` + ``push``), beside the player-driven table loop
(``game.play_deal`` with ``RandomPlayer``s, a seat view built for every decision) measured in
the same run, and saves the figures as JSON under ``bench/results/engine.json``.

Run: ``python -m bench.engine [--deals 2000] [--runs 5] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from lukfu_solver.game import deal_hands, play_deal
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.position import Position


def raw_playouts(deals: int, seed: int) -> tuple[float, int, int]:
    """Play ``deals`` random deals on the position type; returns (seconds, plays, generations)."""
    rng = random.Random(seed)
    gens = plays = 0
    t0 = time.perf_counter()
    for _ in range(deals):
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        while pos.outcome is None:
            moves = list(pos.legal_moves())
            gens += 1
            pos.push(moves[rng.randrange(len(moves))])
            plays += 1
    return time.perf_counter() - t0, plays, gens


def table_playouts(deals: int, seed: int) -> float:
    """Play ``deals`` deals through ``play_deal`` with three random players; returns seconds."""
    t0 = time.perf_counter()
    for i in range(deals):
        play_deal(
            [RandomPlayer(seed + 3 * i), RandomPlayer(seed + 3 * i + 1), RandomPlayer(seed + 3 * i + 2)], seed + i
        )
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals per run (raw loop)")
    ap.add_argument("--runs", type=int, default=5, help="runs; the median is reported")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "engine.json"))
    args = ap.parse_args()

    raw_rate, gen_rate, table_rate = [], [], []
    for run in range(args.runs):
        secs, plays, gens = raw_playouts(args.deals, seed=1000 + run)
        raw_rate.append(args.deals / secs)
        gen_rate.append(gens / secs)
        tdeals = max(1, args.deals // 4)
        table_rate.append(tdeals / table_playouts(tdeals, seed=5000 + run * 10_000))
        print(
            f"run {run + 1}: {raw_rate[-1]:,.0f} playouts/s raw, {table_rate[-1]:,.0f} deals/s via play_deal",
            file=sys.stderr,
        )

    result = {
        "benchmark": "engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "deals_per_run": args.deals,
        "runs": args.runs,
        "raw_playouts_per_s": {"median": statistics.median(raw_rate), "runs": raw_rate},
        "legal_generations_per_s": {"median": statistics.median(gen_rate), "runs": gen_rate},
        "play_deal_deals_per_s": {"median": statistics.median(table_rate), "runs": table_rate},
        "goal_playouts_per_s": 1000,
    }
    print(f"raw playouts/s (median of {args.runs}):      {result['raw_playouts_per_s']['median']:,.0f}  (goal 1,000)")
    print(f"legal-move generations/s (median):        {result['legal_generations_per_s']['median']:,.0f}")
    print(f"play_deal deals/s with views (baseline):  {result['play_deal_deals_per_s']['median']:,.0f}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"saved {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
