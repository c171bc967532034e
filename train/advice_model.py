"""Train the learned first answer of call/pass advice (``lukfu_solver.analysis.model``).

Data recipe (every input a pure function of its seed, so the data can be rebuilt):

- deals ``deal_from_seed(TRAIN_FIRST + i)`` for ``i < --deals`` (disjoint from bench/advise.py's
  hands, which start at 1000);
- each deal solved with every seat as the caller (``--max-nodes`` a solve, the exact solver;
  an unfinished solve counts the midpoint of its bounds and is flagged): seat ``s``'s *play*
  label is that value (M1); its *pass* label is minus half the value of the first later seat
  whose hand ``advice.policy_calls`` calls (M2), 0 when none does or at seat 2 (a redeal) — the
  same valuation as ``hidden.calls.call_sample``, on one deal;
- one deal gives three (hand, seat) rows: a single sampled deal per hand is a noisy label, but
  a linear model fitted by least squares averages the noise over the rows.

The fit: ridge least squares (numpy, already installed with numba) of the play and pass labels
on ``model.features``. The error is measured on held-out hands against PIMC: the records of
``bench/results/advise-reference.json`` (the 30 bench hands, many samples each), as the RMSE of
play, of pass and of their difference, with the reference's own sampling variance taken out (the
error the prior's weight needs: ``model_error``); pass over the seat 0 and 1 hands, since at seat 2
it is 0 by the rules. Beside it, one sampled deal's typical variance around its hand's mean, from
the training rows (a label's squared residual is that variance plus the model's squared error):
what the advice shrinks a few samples' variance towards. Written to
``lukfu_solver/data/advice_model.json``.

Run: ``python -m train.advice_model generate [--deals N]`` (appends to
``bench/results/advice-model-data.jsonl``, resumable), then ``python -m train.advice_model fit``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lukfu_solver.analysis.model import FEATURES, MODEL_FILE, features
from lukfu_solver.cards import format_cards, parse_cards
from lukfu_solver.game import deal_from_seed
from lukfu_solver.policy.calling import hand_facts, later_caller
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

TRAIN_FIRST = 500_000
"""Training deal ``i`` is ``deal_from_seed(TRAIN_FIRST + i)``."""
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "results" / "advice-model-data.jsonl"
REFERENCE = ROOT / "bench" / "results" / "advise-reference.json"
OUT = ROOT / "lukfu_solver" / "data" / MODEL_FILE
RIDGE = 1.0


def generate(deals: int, max_nodes: int) -> None:
    """Solve deals ``TRAIN_FIRST + i`` (those not in the data file yet) with every seat calling."""
    done = set()
    if DATA.exists():
        done = {json.loads(line)["deal"] for line in DATA.read_text().splitlines() if line.strip()}
    t0 = time.process_time()
    with DATA.open("a", encoding="utf-8") as out:
        for i in range(deals):
            seed = TRAIN_FIRST + i
            if seed in done:
                continue
            hands = deal_from_seed(seed)
            values, exact = [], []
            for caller in range(3):
                r = make_solver().solve(Position.start(hands, caller), max_nodes=max_nodes)
                values.append(r.value if r.complete and r.value is not None else (r.lower + r.upper) / 2)
                exact.append(bool(r.complete))
            row = {"deal": seed, "hands": [format_cards(h) for h in hands], "values": values, "exact": exact}
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"deal {i}: {values} {exact} ({time.process_time() - t0:.0f} s CPU)", flush=True)


def rows() -> tuple[list[list[float]], list[float], list[float]]:
    """Features, play labels and pass labels of every (hand, seat) of the data file."""
    xs, play, pass_ = [], [], []
    for line in DATA.read_text().splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        hands = [parse_cards(h) for h in d["hands"]]
        for seat in range(3):
            later = later_caller(hands, seat)
            xs.append(features(hand_facts(hands[seat]), seat))
            play.append(float(d["values"][seat]))
            pass_.append(0.0 if later is None else -d["values"][later] / 2)
    return xs, play, pass_


def model_error(errors: list[float], ref_var: list[float]) -> float:
    """The model's error as a prior's standard deviation: the RMSE of ``errors`` (model minus the
    reference's mean) with the reference's own sampling variance (``ref_var``, its squared standard
    errors) taken out, since the mean squared error against a sampled reference is the model's
    squared error plus the reference's variance; never below a tenth of the RMSE."""
    mse = sum(e * e for e in errors) / len(errors)
    return max(mse - sum(ref_var) / len(ref_var), 0.01 * mse) ** 0.5


def fit() -> None:
    """Ridge fit, held-out error against the PIMC reference, the model file."""
    import numpy as np

    xs, play, pass_ = rows()
    x = np.array(xs)
    reg = RIDGE * np.eye(x.shape[1])
    reg[0, 0] = 0.0  # no shrinkage of the bias

    def solve(y: list[float]) -> list[float]:
        return [round(float(w), 5) for w in np.linalg.solve(x.T @ x + reg, x.T @ np.array(y))]

    w_play, w_pass = solve(play), solve(pass_)
    ref = json.loads(REFERENCE.read_text())["records"]
    errs: dict[str, list[float]] = {"play": [], "pass": [], "gap": []}
    ref_var: dict[str, list[float]] = {"play": [], "pass": [], "gap": []}
    agree = 0
    for r in ref:
        f = features(hand_facts(parse_cards(r["hand"])), r["seat"])
        p = float(np.dot(w_play, f))
        q = 0.0 if r["seat"] == 2 else float(np.dot(w_pass, f))
        errs["play"].append(p - r["play"])
        ref_var["play"].append(r["play_se"] ** 2)
        if r["seat"] != 2:  # at seat 2 pass is 0 by the rules, not by the model: no error to measure
            errs["pass"].append(q - r["pass"])
            ref_var["pass"].append(r["pass_se"] ** 2)
        errs["gap"].append((p - q) - (r["play"] - r["pass"]))
        ref_var["gap"].append(r["gap_se"] ** 2)
        agree += (p > q) == (r["play"] > r["pass"])
    rmse = {k: round(model_error(v, ref_var[k]), 3) for k, v in errs.items()}
    raw = {k: round(float(np.sqrt(np.mean(np.square(v)))), 3) for k, v in errs.items()}
    # one deal's variance around its hand's mean, from the training deals (other hands than the bench's):
    # a label's squared residual is that variance plus the model's squared error
    seat2 = x[:, FEATURES.index("seat2")] == 1
    res_play = np.array(play) - x @ np.array(w_play)
    res_pass = (np.array(pass_) - x @ np.array(w_pass))[~seat2]
    res_gap = (np.array(play) - np.array(pass_)) - x @ (np.array(w_play) - np.array(w_pass))
    sample_var = {
        k: round(max(float(np.mean(np.square(r))) - rmse[k] ** 2, 1.0), 2)
        for k, r in (("play", res_play), ("pass", res_pass), ("gap", res_gap))
    }
    model = {
        "features": list(FEATURES),
        "play": w_play,
        "pass": w_pass,
        "error": {**rmse, "hands": len(ref), "agree": int(agree)},
        "error_measured": {
            **raw,
            "what": "RMSE against the reference's means, before its own sampling variance is taken out; pass over "
            "the seat 0 and 1 hands only (at seat 2 pass is 0 by the rules)",
        },
        "sample_var": {
            **sample_var,
            "what": "one sampled deal's variance around its hand's mean: the training rows' mean squared residual "
            "less the error above squared (pass over the seat 0 and 1 rows); the typical variance a few samples' "
            "variance is shrunk towards when they refine the model's answer",
        },
        "trained_on": {"rows": len(xs), "data": str(DATA.relative_to(ROOT)), "ridge": RIDGE, "first_deal": TRAIN_FIRST},
        "recipe": "train/advice_model.py (module docstring)",
    }
    OUT.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(model["error"]), f"rows {len(xs)} -> {OUT.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "fit"))
    parser.add_argument("--deals", type=int, default=150, help="training deals (150)")
    parser.add_argument("--max-nodes", type=int, default=2_000_000, help="nodes a solve (2,000,000)")
    args = parser.parse_args(argv)
    if args.step == "generate":
        generate(args.deals, args.max_nodes)
    else:
        fit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
