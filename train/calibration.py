"""Fit the calibration of the call's values (``lukfu_solver.analysis.calibration``).

``generate``: at every decision to call of the tester against each opponent strength on the
fitting seeds (:data:`FIT_PLAN`, apart from ``bench/calibration.py``'s), the advice's own values
and the points of calling and of passing, each played out, exactly as the benchmark gets them
(``bench.calibration.decisions``), one JSON line a decision, to
``bench/results/calibration-data.jsonl`` (a seed already there is not played again).

``fit``: for each opponent strength and branch, one least-squares line of the points the deals
brought against the advice's uncorrected value, with its own intercept at each seat and one slope
shared by the seats (:func:`seat_lines`): calling at seats 0, 1 and 2, passing at seats 0 and 1
(at seat 2 a pass is a redeal, 0 by the rules). The seats differ in what PIMC forgets (that the
seats before passed), which moves a line up or down; how much a point of PIMC's value is worth
at the table is one thing, and one slope fitted on three seats' decisions wanders less than three.
Written to ``lukfu_solver/data/calibration.json`` with the data's counts and each line's residual
error.

``crossval``: the shared slope against a line fitted at each seat alone, out of sample on the
same data (:func:`crossval`), to ``bench/results/calibration-crossval.json``.

Run: ``python -m train.calibration generate``, then ``python -m train.calibration fit``
(``python -m train.calibration crossval`` to compare the forms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from bench.calibration import collect
from bench.common import REPO_DIR, RESULTS_DIR, save_json
from lukfu_solver.analysis.calibration import AGAINST, CALIBRATION_FILE

FIT_PLAN = {
    "easy": ((5101, 150), (5201, 900)),
    "medium": ((5102, 100), (5202, 900)),
    "strong": ((5103, 50), (5203, 250)),
}
"""The fitting matches of each opponent strength: ``(match seed, deals)`` (the benchmark's seeds
are ``bench.calibration.EVAL_SEEDS``)."""
DATA = RESULTS_DIR / "calibration-data.jsonl"
OUT = REPO_DIR / "lukfu_solver" / "data" / CALIBRATION_FILE
CROSSVAL = RESULTS_DIR / "calibration-crossval.json"
RIDGE = 10.0
"""Pseudo-decisions pulling each shared slope towards 1 (a few dozen decisions must not tilt it
much; over a thousand, it hardly counts)."""


def generate(plan: dict[str, tuple[tuple[int, int], ...]] = FIT_PLAN, path: Path = DATA) -> None:
    """The fitting decisions of every match of ``plan`` not yet in ``path``, appended."""
    have = set()
    if path.exists():
        have = {(r["against"], r["seed"]) for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "deal" in r}
    for against in AGAINST:
        for seed, deals in plan[against]:
            if (against, seed) in have:
                continue
            rows, secs = collect(against, deals, seed)
            with path.open("a", encoding="utf-8") as f:
                for r in rows:
                    f.write(json.dumps({**r, "seed": seed}) + "\n")
            print(f"against {against}, seed {seed}: {len(rows)} decisions in {secs:,.0f} s", file=sys.stderr, flush=True)


def seat_lines(
    points: dict[int, list[tuple[float, float]]], ridge: float = RIDGE
) -> tuple[dict[int, float], float, dict[int, float]]:
    """``(a, b, rmse)``: the least-squares lines ``y = a[seat] + b x`` over each seat's ``(x, y)``
    points, one intercept a seat and one slope ``b`` shared, shrunk towards 1 by ``ridge``
    pseudo-points of the data's spread within the seats; ``rmse`` each seat's residual error.

    >>> a, b, _ = seat_lines({0: [(0.0, 1.0), (2.0, 3.0)], 1: [(0.0, -1.0), (1.0, 0.0)]}, 0.0)
    >>> {s: round(v, 6) for s, v in a.items()}, round(b, 6)
    ({0: 1.0, 1: -1.0}, 1.0)
    """
    means = {s: (statistics.fmean(x for x, _ in p), statistics.fmean(y for _, y in p)) for s, p in points.items()}
    sxx = sum((x - means[s][0]) ** 2 for s, p in points.items() for x, _ in p)
    sxy = sum((x - means[s][0]) * (y - means[s][1]) for s, p in points.items() for x, y in p)
    n = sum(len(p) for p in points.values())
    lam = ridge * sxx / n
    b = (sxy + lam) / (sxx + lam)
    a = {s: my - b * mx for s, (mx, my) in means.items()}
    rmse = {s: (sum((y - a[s] - b * x) ** 2 for x, y in p) / len(p)) ** 0.5 for s, p in points.items()}
    return a, b, rmse


def fit(path: Path = DATA, out: Path = OUT) -> dict[str, Any]:
    """The corrections from the rows in ``path``, written to ``out``."""
    rows = [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "deal" in r]
    result: dict[str, Any] = {"against": {}, "fitted_on": {}}
    for against in AGAINST:
        mine = [r for r in rows if r["against"] == against]
        play = seat_lines({s: [(r["raw_play"], r["real_play"]) for r in mine if r["seat"] == s] for s in range(3)})
        pass_ = seat_lines({s: [(r["raw_pass"], r["real_pass"]) for r in mine if r["seat"] == s] for s in range(2)})
        result["against"][against] = {
            str(s): {
                "play": [round(play[0][s], 4), round(play[1], 4)],
                "pass": [round(pass_[0][s], 4), round(pass_[1], 4)] if s != 2 else [0.0, 1.0],
            }
            for s in range(3)
        }
        result["fitted_on"][against] = {
            "seeds": [seed for seed, _ in FIT_PLAN[against]],
            **{
                str(s): {
                    "decisions": sum(r["seat"] == s for r in mine),
                    "rmse": {"play": round(play[2][s], 3), "pass": round(pass_[2][s], 3) if s != 2 else 0.0},
                }
                for s in range(3)
            },
        }
    result["what"] = (
        "realized = a + b * predicted by opponent strength, seat and branch (b shared by the seats of a "
        "strength and branch); predicted the advice's uncorrected value, realized the points the deal "
        "brought the strong engine, played out both ways"
    )
    result["ridge"] = RIDGE
    result["data"] = "bench/results/calibration-data.jsonl"
    result["recipe"] = "train/calibration.py (module docstring)"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


def line_forms(rows: list[dict[str, Any]], shared: bool) -> dict[tuple[str, int], tuple[float, float, float, float]]:
    """``(a_play, b_play, a_pass, b_pass)`` by opponent strength and seat: the shared-slope lines of
    :func:`seat_lines`, or (``shared`` False) a line fitted at each seat alone."""
    out = {}
    for against in AGAINST:
        mine = [r for r in rows if r["against"] == against]
        for seats in [(0, 1, 2)] if shared else [(0,), (1,), (2,)]:
            play = seat_lines({s: [(r["raw_play"], r["real_play"]) for r in mine if r["seat"] == s] for s in seats})
            passing = [s for s in seats if s != 2]
            passes = seat_lines({s: [(r["raw_pass"], r["real_pass"]) for r in mine if r["seat"] == s] for s in passing}) if passing else None
            for seat in seats:
                qa, qb = (passes[0][seat], passes[1]) if passes is not None and seat != 2 else (0.0, 1.0)
                out[(against, seat)] = (play[0][seat], play[1], qa, qb)
    return out


def crossval(path: Path = DATA, folds: int = 5, shuffles: int = 10) -> dict[str, Any]:
    """The two line forms compared out of sample on the fitting data: ``folds`` folds by deal, each
    fold's decisions corrected by lines fitted on the others, over ``shuffles`` shufflings of the
    deals; for each form and opponent strength, over the calls the corrected values make, the mean
    of realized minus predicted, its standard error, the worst decile of 50 calls or more and the
    deciles' chi-square (10 degrees of freedom: about 10 when the deciles' biases are noise)."""
    import random

    from bench.calibration import bias, deciles

    rows = [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "deal" in r]
    deals = sorted({(r["against"], r["seed"], r["deal"]) for r in rows})
    result: dict[str, Any] = {"folds": folds, "shuffles": shuffles, "decisions": len(rows), "forms": {}}
    for form in ("shared slope", "a line a seat"):
        runs: dict[str, list[tuple[float, float, float, float, int]]] = {a: [] for a in AGAINST}
        for shuffle in range(shuffles):
            order = list(deals)
            random.Random(shuffle).shuffle(order)
            fold = {d: i % folds for i, d in enumerate(order)}
            corrected = []
            for f in range(folds):
                lines = line_forms([r for r in rows if fold[(r["against"], r["seed"], r["deal"])] != f], form == "shared slope")
                for r in rows:
                    if fold[(r["against"], r["seed"], r["deal"])] == f:
                        pa, pb, qa, qb = lines[(r["against"], r["seat"])]
                        corrected.append((r, pa + pb * r["raw_play"], qa + qb * r["raw_pass"] if r["seat"] != 2 else 0.0))
            for against in AGAINST:
                calls = [(play, r["real_play"]) for r, play, pass_ in corrected if r["against"] == against and play > pass_]
                overall, table = bias(calls), deciles(calls)
                worst = max((abs(d["bias"]) for d in table if d["n"] >= 50), default=0.0)
                chi2 = sum((d["bias"] / d["se"]) ** 2 for d in table if d["se"])
                runs[against].append((overall["bias"], overall["se"], worst, chi2, overall["n"]))
        result["forms"][form] = {
            against: {
                "calls": round(statistics.fmean(x[4] for x in v)),
                "bias": round(statistics.fmean(x[0] for x in v), 3),
                "se": round(statistics.fmean(x[1] for x in v), 3),
                "worst_decile": round(statistics.fmean(x[2] for x in v), 2),
                "deciles_chi2": round(statistics.fmean(x[3] for x in v), 1),
            }
            for against, v in runs.items()
        }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "fit", "crossval"))
    args = parser.parse_args(argv)
    if args.step == "generate":
        generate()
        return 0
    if args.step == "crossval":
        result = crossval()
        save_json({"bench": "calibration crossval", **result}, CROSSVAL)
        for form, by_against in result["forms"].items():
            for against, r in by_against.items():
                print(f"{form}, against {against}: {r}")
        return 0
    result = fit()
    for against, by_seat in result["against"].items():
        for seat, f in by_seat.items():
            n = result["fitted_on"][against][seat]["decisions"]
            print(f"{against} seat {seat}: play {f['play']}, pass {f['pass']} ({n} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
