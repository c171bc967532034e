"""The pace of ``lukfu advise`` as a player meets it: the whole process, one job, beside another build.

Hand ``i`` is seat ``i % 3`` of ``deal_from_seed(FIRST_DEAL + i)`` (:data:`FIRST_DEAL`: none of the
bench sets' or trainers' deals). Each hand is advised at the command's defaults by this tree's
``lukfu advise HAND --seat S --seed SEED --json`` and by the other build's, one right after the
other, the order alternating from hand to hand, so both see the same load on a shared machine.
Each answer's wall time is its process's from start to exit (imports, the kernel's load, the
thinking and the output), its CPU time the process's user + system time; its play error is the
standard error of the play value it prints (this tree's is the calibrated value's, PIMC's error
times the calibration line's slope; the error before it is reported beside). Reported for each build: the median and p95 of wall
and CPU time, overall and by seat, and the median play error. The goal: a median wall time of at
most 2 s with a median play error of at most 0.55.

The other build is a ``lukfu`` command installed from another revision, by default 813c82c:
``git worktree add --detach /tmp/lukfu-813c82c 813c82c``, a venv there and ``pip install -e .``,
then ``--other /tmp/lukfu-813c82c/.venv/bin/lukfu``. Its kernel is compiled before the first hand.

Run: ``python -m bench.advise_pace --other PATH [--hands 60] [--seed 11] [--out FILE]``. Results:
``bench/results/advise-pace.json``.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import base_parser, save_json, summary
from lukfu_solver.analysis.calibration import correction
from lukfu_solver.cards import format_cards
from lukfu_solver.game import deal_from_seed

FIRST_DEAL = 700_000
"""Hand ``i`` is seat ``i % 3`` of ``deal_from_seed(FIRST_DEAL + i)``: apart from the bench hands
(1000 on), the advice model's (500000 on) and the cheap value's (600000 on)."""
OTHER_REV = "813c82c"
GOAL_WALL = 2.0
GOAL_PLAY_ERROR = 0.55


def hand(i: int) -> tuple[str, int]:
    """Hand ``i`` as text, and its seat."""
    seat = i % 3
    return format_cards(deal_from_seed(FIRST_DEAL + i)[seat]), seat


def run_one(lukfu: str, text: str, seat: int, seed: int) -> dict[str, Any]:
    """One ``lukfu advise --json`` process: its wall and CPU seconds, the play value and error."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [lukfu, "advise", text, "--seat", str(seat), "--seed", str(seed), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        check=False,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{lukfu} advise {text} --seat {seat}: exit {done.returncode}: {done.stderr.strip()}")
    data = json.loads(done.stdout)
    error = data["play"]["stderr"]
    against = data.get("against")
    slope = abs(correction(against, seat).play_slope(data["uncalibrated"]["play"])) if against else 1.0
    return {
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "play": data["play"]["mean"],
        "play_error": error,
        "play_error_uncalibrated": round(error / slope, 4) if slope else None,
        "recommendation": data["recommendation"],
        "samples": data.get("samples"),
        "against": data.get("against"),
    }


def report(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians and p95 of one build's answers, overall and by seat."""

    def part(rows: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "hands": len(rows),
            "wall_s": summary([r["wall_s"] for r in rows]),
            "cpu_s": summary([r["cpu_s"] for r in rows]),
            "play_error_median": round(statistics.median(r["play_error"] for r in rows), 3),
            "play_error_uncalibrated_median": round(statistics.median(r["play_error_uncalibrated"] for r in rows), 3),
        }

    out = part(records)
    out["by_seat"] = {
        str(s): part([r for r in records if r["seat"] == s]) for s in range(3) if any(r["seat"] == s for r in records)
    }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "advise-pace.json")
    parser.add_argument("--other", required=True, help=f"the other build's lukfu command (e.g. {OTHER_REV}'s)")
    parser.add_argument(
        "--other-rev", default=OTHER_REV, help=f"the other build's revision, for the record ({OTHER_REV})"
    )
    parser.add_argument("--this", default=str(Path(sys.executable).with_name("lukfu")), help="this tree's lukfu")
    parser.add_argument("--hands", type=int, default=60, help="hands (60; quick 6)")
    parser.add_argument("--seed", type=int, default=11, help="the sampling seed of every answer (11)")
    args = parser.parse_args(argv)
    n = 6 if args.quick else args.hands
    warm = hand(n)  # compile or load each build's kernel before the first timed answer
    for lukfu in (args.this, args.other):
        subprocess.run(
            [lukfu, "advise", warm[0], "--seat", str(warm[1]), "--samples", "1", "--json"],
            capture_output=True,
            check=True,
        )
    builds: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
    load_start = os.getloadavg()
    for i in range(n):
        text, seat = hand(i)
        order = ("this", "other") if i % 2 == 0 else ("other", "this")
        for name in order:
            lukfu = args.this if name == "this" else args.other
            r = run_one(lukfu, text, seat, args.seed)
            builds[name].append({"hand_index": i, "hand": text, "seat": seat, **r})
        a, b = builds["this"][-1], builds["other"][-1]
        print(
            f"hand {i} seat {seat}: this {a['wall_s']:.2f} s ±{a['play_error']:.2f}, other {b['wall_s']:.2f} s ±{b['play_error']:.2f}",
            file=sys.stderr,
            flush=True,
        )
    this, other = report(builds["this"]), report(builds["other"])
    data = {
        "bench": "advise pace",
        "hands": {"first_deal": FIRST_DEAL, "count": n, "seat": "i % 3", "seed": args.seed},
        "other_rev": args.other_rev,
        "load_at_start": [round(x, 2) for x in load_start],
        "load_at_end": [round(x, 2) for x in os.getloadavg()],
        "this": this,
        "other": other,
        "ratio_wall_median": round(this["wall_s"]["median"] / other["wall_s"]["median"], 3),
        "goal": {
            "wall_median_at_most": GOAL_WALL,
            "play_error_median_at_most": GOAL_PLAY_ERROR,
            "met": this["wall_s"]["median"] <= GOAL_WALL and this["play_error_median"] <= GOAL_PLAY_ERROR,
        },
        "records": builds,
    }
    path = save_json(data, args.out)
    print(
        f"this: wall median {this['wall_s']['median']} s, play error {this['play_error_median']}; "
        f"{args.other_rev}: {other['wall_s']['median']} s, {other['play_error_median']}"
    )
    print(f"saved {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
