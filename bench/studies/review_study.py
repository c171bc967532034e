"""The engine players' own worst decisions, found by reviewing a match's records in batch.

A seeded match ``pimc,rule,rule`` (``--deals`` deals from ``--seed``, each in its three
seatings) writes its records to a directory, as ``lukfu match --records DIR`` does; the records
are reviewed as ``lukfu review --batch DIR --jobs J`` reviews them (the library's
``review_many`` over ``directory_items``, the defaults); then each player's decisions are summed
up (points lost a decision from its own view and with all cards seen, verdicts, luck) and its
worst decisions listed, the largest loss from its own view first, with what a player needs to
look at one again: the record's file, the trick, the view and the command that shows it.

Run: ``python -m bench.studies.review_study [--deals 6] [--seed 2036] [--jobs 2] [--worst 8] [--quick]
[--out FILE]``. Results: ``bench/results/review-study.json``.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.common import base_parser, fmt, make_console, save_json
from lukfu_solver.analysis.review import VERDICTS
from lukfu_solver.analysis.review_work import ReviewSettings, directory_items, review_many
from lukfu_solver.match import run_match
from lukfu_solver.search.compiled import prepare_kernel


def engine(name: str) -> str:
    """The engine of a player label: ``rule#2`` is the rule player."""
    return name.split("#")[0]


def study(reviews: list[dict[str, Any]], worst: int) -> dict[str, Any]:
    """Each engine's decisions summed up, and its worst ones."""
    per: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "decisions": 0,
            "loss": 0.0,
            "cost": 0.0,
            "verdicts": dict.fromkeys(VERDICTS, 0),
            "lucky": 0,
            "unlucky": 0,
            "calls": 0,
            "call_verdicts": 0,
        }  # fmt: skip
    )
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in reviews:
        if "error" in r:
            continue
        players = r["record"]["players"]
        for d in r["decisions"]:
            who = engine(players[d["seat"]])
            p = per[who]
            p["decisions"] += 1
            p["loss"] += d["loss"]
            p["cost"] += d["cost"]
            p["calls"] += d["call"]
            if d["verdict"]:
                p["verdicts"][d["verdict"]] += 1
                p["call_verdicts"] += d["call"]
            if d["luck"]:
                p[d["luck"]] += 1
            if d["verdict"]:
                found[who].append(
                    {
                        "file": Path(r["file"]).name,
                        "seat": d["seat"],
                        "kind": d["kind"],
                        "trick": d["trick"],
                        "played": d["played"],
                        "best": d["best"],
                        "loss": round(d["loss"], 3),
                        "loss_stderr": round(d["loss_stderr"], 3),
                        "verdict": d["verdict"],
                        "cost": d["cost"],
                        "luck": d["luck"],
                        "view": d["view"],
                    }
                )
    out = {}
    for who, p in sorted(per.items()):
        n = max(1, p["decisions"])
        worst_ones = sorted(found[who], key=lambda w: (-w["loss"], w["file"], w["trick"] or 0))[:worst]
        out[who] = {
            **p,
            "loss_per_decision": round(p["loss"] / n, 4),
            "cost_per_decision": round(p["cost"] / n, 4),
            "verdicts_per_100": round(100 * sum(p["verdicts"].values()) / n, 2),
            "worst": worst_ones,
        }
    return out


def main() -> None:
    parser = base_parser(__doc__.splitlines()[0], "review-study.json")
    parser.add_argument("--deals", type=int, default=6, help="deals of the match (3 records each)")
    parser.add_argument("--seed", type=int, default=2036, help="the match's seed")
    parser.add_argument("--jobs", type=int, default=2, help="processes reviewing the records")
    parser.add_argument("--worst", type=int, default=8, help="worst decisions listed for each engine")
    args = parser.parse_args()
    deals = 1 if args.quick else args.deals
    console = make_console()
    prepare_kernel()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "records"
        run_match(["pimc", "rule", "rule"], deals, seed=args.seed, records=folder, keep_games=False)
        items = directory_items(folder)
        t0 = time.perf_counter()
        reviews = list(review_many(items, ReviewSettings(), jobs=args.jobs, total=len(items)))
        wall = time.perf_counter() - t0
    engines = study(reviews, args.worst)
    result = {
        "match": {"players": "pimc,rule,rule", "deals": deals, "seed": args.seed, "records": len(reviews)},
        "settings": ReviewSettings().to_json(),
        "jobs": args.jobs,
        "load_before": [round(x, 2) for x in load],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(wall, 1),
        "cpu_seconds": round(sum(r.get("cpu_seconds", 0.0) for r in reviews), 1),
        "errors": sum("error" in r for r in reviews),
        "engines": engines,
    }
    path = save_json(result, args.out)
    console.print(
        f"{len(reviews)} records reviewed in {result['seconds']} s ({result['cpu_seconds']} s of CPU, "
        f"{args.jobs} jobs, load {load[0]:.1f})"
    )
    for who, e in engines.items():
        v = e["verdicts"]
        console.print(
            f"{who:5} {e['decisions']:4} decisions: lost {fmt(e['loss_per_decision'], digits=3)} a decision "
            f"from its own view, {fmt(e['cost_per_decision'], digits=3)} with all cards seen; "
            f"?! {v['inaccuracy']}  ? {v['mistake']}  ?? {v['blunder']}  lucky {e['lucky']}  unlucky {e['unlucky']}"
        )
        for w in e["worst"][:3]:
            where = "call" if w["trick"] is None else f"trick {w['trick']}"
            console.print(
                f"      {w['file']} {where} seat {w['seat']}: {w['played']} (best {w['best']}) "
                f"-{w['loss']} ± {w['loss_stderr']} {w['verdict']}, cost {w['cost']:g}"
            )
    console.print(f"saved {path}")


if __name__ == "__main__":
    main()
