"""Fit the calibration of the call's values (``lukfu_solver.analysis.calibration``).

``generate``: at every decision to call of the tester against each opponent strength on the
fitting seeds (:data:`FIT_PLAN`, apart from ``bench/calibration.py``'s), the advice's own values
and the points of calling and of passing, each played out, exactly as the benchmark gets them
(``bench.calibration.decisions``), one JSON line a decision, to
``bench/results/calibration-data.jsonl`` (a seed already there is not played again).

``fit``: for each opponent strength and branch, one least-squares curve of the points the deals
brought against the advice's uncorrected value, with its own intercept at each seat and the rest
shared by the seats (:func:`seat_curves`, :func:`fit_strength`): calling at seats 0, 1 and 2 with
a bend (``c * predicted**2``: the strongest hands bring more than a line says, the middling ones
less), passing at seats 0 and 1 a line (at seat 2 a pass is a redeal, 0 by the rules). The seats
differ in what PIMC forgets (that the seats before passed), which moves a curve up or down; how
much a point of PIMC's value is worth at the table is one thing, and one shape fitted on three
seats' decisions wanders less than three. Written to ``lukfu_solver/data/calibration.json`` with
the span of values the bend was fitted on (the library's tangent beyond it), the data's counts and
each curve's residual error.

``crossval``: the shipped form against the shared line and against a line fitted at each seat
alone, out of sample on the same data (:func:`crossval`), to
``bench/results/calibration-crossval.json``.

Run: ``python -m train.calibration generate``, then ``python -m train.calibration fit``
(``python -m train.calibration crossval`` to compare the forms).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

from bench.calibration import collect
from bench.common import REPO_DIR, RESULTS_DIR, save_json
from lukfu_solver.analysis.calibration import AGAINST, CALIBRATION_FILE, Correction

FIT_PLAN = {
    "easy": ((5101, 150), (5201, 900), (5301, 760)),
    "medium": ((5102, 100), (5202, 900), (5302, 1000)),
    "strong": ((5103, 50), (5203, 250), (5303, 330)),
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


def seat_curves(
    points: dict[int, list[tuple[float, float]]], ridge: float = RIDGE, bend: bool = False
) -> tuple[dict[int, float], float, float, dict[int, float]]:
    """``(a, b, c, rmse)``: the least-squares curves ``y = a[seat] + b x + c x**2`` over each
    seat's ``(x, y)`` points, one intercept a seat and ``b``, ``c`` shared (``c`` 0 unless
    ``bend``), the slope ``b`` shrunk towards 1 by ``ridge`` pseudo-points of the data's spread
    within the seats; ``rmse`` each seat's residual error.

    >>> a, b, c, _ = seat_curves({0: [(0.0, 1.0), (2.0, 3.0)], 1: [(0.0, -1.0), (1.0, 0.0)]}, 0.0)
    >>> {s: round(v, 6) for s, v in a.items()}, round(b, 6), c
    ({0: 1.0, 1: -1.0}, 1.0, 0.0)
    """
    mean = {
        s: (statistics.fmean(x for x, _ in p), statistics.fmean(x * x for x, _ in p), statistics.fmean(y for _, y in p))
        for s, p in points.items()
    }
    centred = [(x - mean[s][0], x * x - mean[s][1], y - mean[s][2]) for s, p in points.items() for x, y in p]
    sxx = sum(x * x for x, _, _ in centred)
    sxy = sum(x * y for x, _, y in centred)
    lam = ridge * sxx / len(centred)
    b, c = (sxy + lam) / (sxx + lam), 0.0
    if bend:  # the 2x2 normal equations of (b, c), the ridge on b alone
        sxq = sum(x * q for x, q, _ in centred)
        sqq = sum(q * q for _, q, _ in centred)
        sqy = sum(q * y for _, q, y in centred)
        det = (sxx + lam) * sqq - sxq * sxq
        b = ((sxy + lam) * sqq - sxq * sqy) / det
        c = ((sxx + lam) * sqy - sxq * (sxy + lam)) / det
    a = {s: my - b * mx - c * mq for s, (mx, mq, my) in mean.items()}
    rmse = {s: (sum((y - a[s] - b * x - c * x * x) ** 2 for x, y in p) / len(p)) ** 0.5 for s, p in points.items()}
    return a, b, c, rmse


SPAN = (0.01, 0.99)
"""The quantiles of the predicted values of calling between which a bend is trusted: beyond them
a curve goes on as its tangent (``calibration.Correction.span``)."""


def fit_strength(rows: list[dict[str, Any]], form: str = "bend", seats: tuple[int, ...] = (0, 1, 2)) -> dict[int, dict[str, Any]]:
    """One strength's corrections at ``seats`` from its ``rows``, in the file's form (``play``,
    ``pass``: ``[a, b, c]``, ``span``, ``rmse``): ``form`` is ``"bend"`` (the shipped one: calling
    bent, passing a line, both shared by the seats), ``"line"`` (both lines) or, with one seat, a
    line fitted at that seat alone."""
    plays = sorted(r["raw_play"] for r in rows)
    span = [round(plays[int(q * (len(plays) - 1))], 4) for q in SPAN] if form == "bend" else None
    play = seat_curves({s: [(r["raw_play"], r["real_play"]) for r in rows if r["seat"] == s] for s in seats}, bend=form == "bend")
    passing = [s for s in seats if s != 2]
    pass_ = seat_curves({s: [(r["raw_pass"], r["real_pass"]) for r in rows if r["seat"] == s] for s in passing}) if passing else None
    out = {}
    for s in seats:
        out[s] = {
            "play": [round(play[0][s], 4), round(play[1], 4), round(play[2], 5)],
            "pass": [round(pass_[0][s], 4), round(pass_[1], 4), 0.0] if pass_ is not None and s != 2 else [0.0, 1.0, 0.0],
            "rmse": {"play": round(play[3][s], 3), "pass": round(pass_[3][s], 3) if pass_ is not None and s != 2 else 0.0},
        }
        if span is not None:
            out[s]["span"] = span
    return out


def fit(path: Path = DATA, out: Path = OUT) -> dict[str, Any]:
    """The corrections from the rows in ``path``, written to ``out``."""
    rows = [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "deal" in r]
    result: dict[str, Any] = {"against": {}, "fitted_on": {}}
    for against in AGAINST:
        mine = [r for r in rows if r["against"] == against]
        fitted = fit_strength(mine)
        result["against"][against] = {str(s): {k: v for k, v in f.items() if k != "rmse"} for s, f in fitted.items()}
        result["fitted_on"][against] = {
            "seeds": [seed for seed, _ in FIT_PLAN[against]],
            **{str(s): {"decisions": sum(r["seat"] == s for r in mine), "rmse": f["rmse"]} for s, f in fitted.items()},
        }
    result["what"] = (
        "realized = a + b * predicted + c * predicted**2 by opponent strength, seat and branch (b and c "
        "shared by the seats of a strength and branch, c 0 for passing), the tangent beyond span; predicted "
        "the advice's uncorrected value, realized the points the deal brought the strong engine, played "
        "out both ways"
    )
    result["ridge"] = RIDGE
    result["data"] = "bench/results/calibration-data.jsonl"
    result["recipe"] = "train/calibration.py (module docstring)"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


FORMS = ("bend", "line", "a line a seat")
"""The forms :func:`crossval` compares (:func:`fit_strength`): the shipped one first."""


def corrections(rows: list[dict[str, Any]], form: str) -> dict[tuple[str, int], Correction]:
    """The library's corrections by opponent strength and seat, fitted on ``rows`` in ``form``."""
    out = {}
    for against in AGAINST:
        mine = [r for r in rows if r["against"] == against]
        for seats in [(0,), (1,), (2,)] if form == "a line a seat" else [(0, 1, 2)]:
            for seat, f in fit_strength(mine, "line" if form == "a line a seat" else form, seats).items():
                span = (f["span"][0], f["span"][1]) if "span" in f else (-math.inf, math.inf)
                out[(against, seat)] = Correction(against, seat, tuple(f["play"]), tuple(f["pass"]), span)  # type: ignore[arg-type]
    return out


def crossval(path: Path = DATA, folds: int = 5, shuffles: int = 10) -> dict[str, Any]:
    """The forms (:data:`FORMS`) compared out of sample on the fitting data: ``folds`` folds by
    deal, each fold's decisions corrected by the library's corrections fitted on the others, over
    ``shuffles`` shufflings of the deals; for each form and opponent strength, over the calls the
    corrected values make, the mean of realized minus predicted, its standard error, the worst
    decile of 50 calls or more and the deciles' chi-square (10 degrees of freedom: about 10 when
    the deciles' biases are noise), and over every decision the mean squared error of calling's
    value (the lower, the closer the values to what the deals brought) with its excess over the
    first form's, decision by decision, and that excess's standard error. A value the samples prove
    certain, which the library keeps, is too rare at a call to matter here, so the curves alone."""
    import random

    from bench.calibration import bias, deciles

    rows = [r for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if "deal" in r]
    deals = sorted({(r["against"], r["seed"], r["deal"]) for r in rows})
    result: dict[str, Any] = {"folds": folds, "shuffles": shuffles, "decisions": len(rows), "forms": {}}
    errors: dict[str, list[list[float]]] = {}  # each form's squared errors of calling, a shuffle each, row by row
    index = {a: [i for i, r in enumerate(rows) if r["against"] == a] for a in AGAINST}
    for form in FORMS:
        runs: dict[str, list[tuple[float, float, float, float, int, float]]] = {a: [] for a in AGAINST}
        for shuffle in range(shuffles):
            order = list(deals)
            random.Random(shuffle).shuffle(order)
            fold = {d: i % folds for i, d in enumerate(order)}
            corrected = []
            errors.setdefault(form, []).append([0.0] * len(rows))
            for f in range(folds):
                fitted = corrections([r for r in rows if fold[(r["against"], r["seed"], r["deal"])] != f], form)
                for i, r in enumerate(rows):
                    if fold[(r["against"], r["seed"], r["deal"])] == f:
                        c = fitted[(r["against"], r["seat"])]
                        play = c.play(r["raw_play"])
                        corrected.append((r, play, c.pass_(r["raw_pass"])))
                        errors[form][-1][i] = (r["real_play"] - play) ** 2
            for against in AGAINST:
                calls = [(play, r["real_play"]) for r, play, pass_ in corrected if r["against"] == against and play > pass_]
                overall, table = bias(calls), deciles(calls)
                worst = max((abs(d["bias"]) for d in table if d["n"] >= 50), default=0.0)
                chi2 = sum((d["bias"] / d["se"]) ** 2 for d in table if d["se"])
                mse = statistics.fmean(errors[form][-1][i] for i in index[against])
                runs[against].append((overall["bias"], overall["se"], worst, chi2, overall["n"], mse))
        result["forms"][form] = {
            against: {
                "calls": round(statistics.fmean(x[4] for x in v)),
                "bias": round(statistics.fmean(x[0] for x in v), 3),
                "se": round(statistics.fmean(x[1] for x in v), 3),
                "worst_decile": round(statistics.fmean(x[2] for x in v), 2),
                "deciles_chi2": round(statistics.fmean(x[3] for x in v), 1),
                "play_mse": round(statistics.fmean(x[5] for x in v), 3),
            }
            for against, v in runs.items()
        }
        for against in AGAINST:  # paired against the shipped form, decision by decision
            diffs = [[run[i] - first[i] for i in index[against]] for run, first in zip(errors[form], errors[FORMS[0]], strict=True)]
            result["forms"][form][against]["play_mse_minus_first"] = round(statistics.fmean(statistics.fmean(d) for d in diffs), 3)
            result["forms"][form][against]["its_se"] = round(statistics.fmean(statistics.stdev(d) / len(d) ** 0.5 for d in diffs), 3)
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
