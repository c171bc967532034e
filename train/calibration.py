"""Fit the calibration of the call's values (``lukfu_solver.analysis.calibration``).

``generate``: at every decision to call of the tester against each opponent strength on the
fitting seeds (:data:`FIT_SEEDS`, apart from ``bench/calibration.py``'s), the advice's own values
and the points of calling and of passing, each played out, exactly as the benchmark gets them
(``bench.calibration.decisions``), one JSON line a decision, to
``bench/results/calibration-data.jsonl`` (an opponent strength already there is not played again).

``fit``: for each opponent strength and seat, two least-squares lines on the advice's uncorrected
values over every decision: the points of calling against the value of calling, and at seats 0
and 1 the points of passing against the value of passing (at seat 2 a pass is a redeal, 0 by the
rules). Written to ``lukfu_solver/data/calibration.json`` with the data's counts and each line's
residual error.

Run: ``python -m train.calibration generate [--deals 300,300,150]``, then ``python -m
train.calibration fit``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from bench.calibration import collect
from bench.common import REPO_DIR, RESULTS_DIR
from lukfu_solver.analysis.calibration import AGAINST, CALIBRATION_FILE

FIT_SEEDS = {"easy": 5101, "medium": 5102, "strong": 5103}
"""The fitting matches' seeds (the benchmark's are ``bench.calibration.EVAL_SEEDS``)."""
FIT_DEALS = {"easy": 300, "medium": 300, "strong": 150}
DATA = RESULTS_DIR / "calibration-data.jsonl"
OUT = REPO_DIR / "lukfu_solver" / "data" / CALIBRATION_FILE
RIDGE = 10.0
"""Pseudo-decisions pulling each line's slope towards 1 (a few dozen decisions at a seat must
not tilt it much)."""


def generate(deals: dict[str, int], path: Path = DATA) -> None:
    """The fitting decisions of every opponent strength not yet in ``path``, appended."""
    have = set()
    if path.exists():
        have = {json.loads(line)["against"] for line in path.read_text(encoding="utf-8").splitlines() if line}
    for against in AGAINST:
        if against in have:
            continue
        rows, secs = collect(against, deals[against], FIT_SEEDS[against])
        with path.open("a", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps({**r, "seed": FIT_SEEDS[against]}) + "\n")
        print(f"against {against}: {len(rows)} decisions in {secs:,.0f} s", file=sys.stderr, flush=True)


def line_fit(xs: list[float], ys: list[float], ridge: float = RIDGE) -> tuple[float, float, float]:
    """``(a, b, rmse)`` of ``y = a + b x`` by least squares, ``b`` shrunk towards 1 by ``ridge``
    pseudo-points of the data's spread.

    >>> a, b, _ = line_fit([0.0, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0], 0.0); round(a, 6), round(b, 6)
    (1.0, 1.0)
    """
    n = len(xs)
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    lam = ridge * sxx / n
    b = (sxy + lam) / (sxx + lam)
    a = my - b * mx
    rmse = (sum((y - a - b * x) ** 2 for x, y in zip(xs, ys, strict=True)) / n) ** 0.5
    return a, b, rmse


def fit(path: Path = DATA, out: Path = OUT) -> dict[str, Any]:
    """The corrections from the rows in ``path``, written to ``out``."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    result: dict[str, Any] = {"against": {}, "fitted_on": {}}
    for against in AGAINST:
        result["against"][against] = {}
        result["fitted_on"][against] = {"seed": FIT_SEEDS[against]}
        for seat in range(3):
            mine = [r for r in rows if r["against"] == against and r["seat"] == seat]
            pa, pb, prmse = line_fit([r["raw_play"] for r in mine], [r["real_play"] for r in mine])
            qa, qb, qrmse = (0.0, 1.0, 0.0)
            if seat != 2:
                qa, qb, qrmse = line_fit([r["raw_pass"] for r in mine], [r["real_pass"] for r in mine])
            result["against"][against][str(seat)] = {
                "play": [round(pa, 4), round(pb, 4)],
                "pass": [round(qa, 4), round(qb, 4)],
            }
            result["fitted_on"][against][str(seat)] = {
                "decisions": len(mine),
                "rmse": {"play": round(prmse, 3), "pass": round(qrmse, 3)},
            }
    result["what"] = (
        "realized = a + b * predicted by opponent strength, seat and branch; predicted the advice's "
        "uncorrected value, realized the points the deal brought the strong engine, played out both ways"
    )
    result["ridge"] = RIDGE
    result["data"] = "bench/results/calibration-data.jsonl"
    result["recipe"] = "train/calibration.py (module docstring)"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "fit"))
    parser.add_argument("--deals", default=None, help="deals against easy, medium, strong (300,300,150)")
    args = parser.parse_args(argv)
    if args.step == "generate":
        counts = [int(x) for x in args.deals.split(",")] if args.deals else [FIT_DEALS[a] for a in AGAINST]
        generate(dict(zip(AGAINST, counts, strict=True)))
        return 0
    result = fit()
    for against, by_seat in result["against"].items():
        for seat, f in by_seat.items():
            n = result["fitted_on"][against][seat]["decisions"]
            print(f"{against} seat {seat}: play {f['play']}, pass {f['pass']} ({n} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
