"""Two levers of the advice measured: a control variate and how the exact solves start.

Parts (``--parts``), every input a pure function of its seed:

- **control**: would a *control variate* make the advice's few samples worth more? A cheap value
  of each sampled deal, computed on many deals, with the exact solve on few: estimate =
  ``b * mean(cheap, many) + mean(exact - b * cheap, few)``, unbiased for the exact PIMC mean for
  any fixed coefficient ``b``; it pays when ``Var(exact - b * cheap)`` is well below
  ``Var(exact)``. Measured on the exact reference's own deals (``bench/results/advise-reference.json``,
  96 a hand, hand ``i`` = seat ``i % 3`` of ``deal_from_seed(1000 + i)``, samples from seed
  1000003) for two cheap values: the rule-policy playout with every hand seen
  (``players.rule.rule_playout``) and the midpoint of the static bounds (``solver.bounds``).
  Reported a hand: the within-hand correlation with the exact play, pass and gap values, and the
  variance ratio of the paired gap, with ``b`` fitted on *other* hands: (a) on the training
  deals of ``train/advice_model.py`` (``bench/results/advice-model-data.jsonl``, disjoint from the
  bench hands), by least squares of the exact value on the hand's model features and the cheap
  value (the cheap value's coefficient given the hand); (b) within the other 29 reference hands
  (leave one out). Beside it, the CPU seconds a cheap value costs.
- **descend**: how the advice's exact solves (``ADVICE_MAX_NODES`` each) start: MTD(f) halfway
  (a node-limited solve's own start), descending from the deal's upper bound known without search
  (``Evaluator(descend=True)``, as a solve without a node limit starts), and descending in restarts
  (``Evaluator(restarts=RESTARTS)``: a chain of node-limited solves on one table, each from the
  tightest upper bound proved so far). Each bench hand's first ``--descend-samples`` reference
  deals (``call_sample``: play and, when a later seat calls, pass): total nodes by seat
  (machine-independent) and CPU seconds, values checked equal wherever the solves finished.

Run: ``python -m bench.studies.advise_levers [--parts control,descend] [--descend-samples 2]``.
Result: ``bench/results/advise-levers.json``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from typing import Any

from bench.advise_hands import REF_SEED, bench_hand, sample_seeds
from bench.common import RESULTS_DIR, base_parser, save_json
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, RESTARTS
from lukfu_solver.analysis.model import features
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.calls import CallTask, call_sample
from lukfu_solver.hidden.pimc import Evaluator, SolveLimits
from lukfu_solver.hidden.sampling import deal_others
from lukfu_solver.policy.calling import hand_facts, later_caller, policy_calls
from lukfu_solver.policy.rule import rule_playout
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

TRAINING = RESULTS_DIR / "advice-model-data.jsonl"
REFERENCE = RESULTS_DIR / "advise-reference.json"
CHEAP = ("playout", "bounds")



def cheap_values(hands: list[int], seat: int, solver: Any) -> dict[str, tuple[float, float]]:
    """Each cheap value of the deal as (play, pass) in this seat's points (M1, M2)."""
    caller = later_caller(hands, seat)
    out: dict[str, tuple[float, float]] = {}
    lo, hi = solver.bounds(Position.start(hands, seat))
    mid = (lo + hi) / 2
    play = float(rule_playout(Position.start(hands, seat)))
    if caller is None:
        out["playout"], out["bounds"] = (play, 0.0), (mid, 0.0)
    else:
        lo2, hi2 = solver.bounds(Position.start(hands, caller))
        out["playout"] = (play, -rule_playout(Position.start(hands, caller)) / 2)
        out["bounds"] = (mid, -(lo2 + hi2) / 4)
    return out


def lstsq_last(xs: list[list[float]], ys: list[float]) -> float:
    """The last coefficient of the least-squares fit of ``ys`` on ``xs`` (numpy, as the model's fit)."""
    import numpy as np

    return float(np.linalg.lstsq(np.array(xs), np.array(ys), rcond=None)[0][-1])


def training_coefficients(solver: Any) -> dict[str, dict[str, float]]:
    """``b`` for play and pass of each cheap value, fitted on the training deals given the hand's features."""
    rows = [json.loads(line) for line in TRAINING.read_text(encoding="utf-8").splitlines() if line.strip()]
    out: dict[str, dict[str, float]] = {}
    for name in CHEAP:
        play_x, play_y, pass_x, pass_y = [], [], [], []
        for r in rows:
            hands = [parse_cards(h) for h in r["hands"]]
            for seat in range(3):
                f = features(hand_facts(hands[seat]), seat)
                c = cheap_values(hands, seat, solver)[name]
                if r["exact"][seat]:
                    play_x.append([*f, c[0]])
                    play_y.append(float(r["values"][seat]))
                caller = later_caller(hands, seat)
                if caller is not None and r["exact"][caller]:
                    pass_x.append([*f, c[1]])
                    pass_y.append(-r["values"][caller] / 2)
        out[name] = {"play": round(lstsq_last(play_x, play_y), 4), "pass": round(lstsq_last(pass_x, pass_y), 4)}
    return out


def corr(a: list[float], b: list[float]) -> float | None:
    """Pearson correlation (None when one side is constant)."""
    try:
        return round(statistics.correlation(a, b), 3)
    except statistics.StatisticsError:
        return None


def variance(values: list[float]) -> float:
    """The n - 1 variance."""
    return statistics.variance(values) if len(values) > 1 else 0.0


def within_coefficient(records: list[dict[str, Any]], cheap: dict[int, dict[str, Any]], name: str, k: int) -> float:
    """``b`` of branch ``k`` (0 play, 1 pass) pooled within the given reference hands (each hand centred)."""
    sxy = sxx = 0.0
    for r in records:
        e = r["sample_play"] if k == 0 else r["sample_pass"]
        c = [v[k] for v in cheap[r["hand_index"]][name]]
        me, mc = sum(e) / len(e), sum(c) / len(c)
        sxy += sum((x - me) * (y - mc) for x, y in zip(e, c, strict=True))
        sxx += sum((y - mc) ** 2 for y in c)
    return sxy / sxx if sxx else 0.0


def run_control() -> dict[str, Any]:
    """The control-variate measurement (module docstring)."""
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    records = reference["records"]
    solver = make_solver()
    cheap: dict[int, dict[str, list[tuple[float, float]]]] = {}
    cpu = time.process_time()
    for r in records:
        hand, seat = bench_hand(r["hand_index"])
        per = {name: [] for name in CHEAP}
        for s in sample_seeds(REF_SEED, len(r["sample_play"])):
            values = cheap_values(deal_others(hand, seat, random.Random(s)), seat, solver)
            for name in CHEAP:
                per[name].append(values[name])
        cheap[r["hand_index"]] = per
    cpu_per_deal = (time.process_time() - cpu) / sum(len(r["sample_play"]) for r in records)
    trained = training_coefficients(solver)
    hands_out = []
    by_seat: dict[str, dict[str, list[float]]] = {}
    for r in records:
        i, seat = r["hand_index"], r["seat"]
        others = [o for o in records if o["hand_index"] != i]
        gap = [p - q for p, q in zip(r["sample_play"], r["sample_pass"], strict=True)]
        row: dict[str, Any] = {"hand_index": i, "seat": seat, "gap_var": round(variance(gap), 3)}
        for name in CHEAP:
            cp = [v[0] for v in cheap[i][name]]
            cq = [v[1] for v in cheap[i][name]]
            fits = {
                "trained": (trained[name]["play"], trained[name]["pass"]),
                "within_others": (
                    within_coefficient(others, cheap, name, 0),
                    within_coefficient([o for o in others if o["seat"] != 2], cheap, name, 1),
                ),
            }
            row[name] = {
                "rho_play": corr(r["sample_play"], cp),
                "rho_pass": corr(r["sample_pass"], cq),
                "rho_gap": corr(gap, [a - b for a, b in zip(cp, cq, strict=True)]),
            }
            for fit, (bp, bq) in fits.items():
                resid = [g - (bp * a - bq * b) for g, a, b in zip(gap, cp, cq, strict=True)]
                ratio = variance(resid) / variance(gap) if variance(gap) > 0 else None
                row[name][f"var_ratio_{fit}"] = None if ratio is None else round(ratio, 3)
                key = f"{name}_{fit}"
                acc = by_seat.setdefault(str(seat), {}).setdefault(key, [0.0, 0.0])
                acc[0] += variance(gap)
                acc[1] += variance(resid)
        hands_out.append(row)
    ratios = {seat: {k: round(v[1] / v[0], 3) for k, v in d.items()} for seat, d in sorted(by_seat.items())}
    return {
        "deals_a_hand": len(records[0]["sample_play"]),
        "cpu_s_per_deal_cheap_values": round(cpu_per_deal, 5),
        "trained_coefficients": trained,
        "gap_variance_ratio_by_seat": ratios,
        "what": "gap_variance_ratio_by_seat: sum over the seat's hands of Var(exact gap - b * cheap gap) over "
        "sum of Var(exact gap); below 1 the control variate would pay (before its cost)",
        "records": hands_out,
    }


def run_descend(samples: int) -> dict[str, Any]:
    """Every bench hand's first ``samples`` reference deals solved from halfway, descending, and
    descending in restarts, under the advice's node limit (module docstring)."""
    reference = {r["hand_index"]: r for r in json.loads(REFERENCE.read_text(encoding="utf-8"))["records"]}
    limits = SolveLimits(ADVICE_MAX_NODES)
    kinds = {
        "halfway": Evaluator(limits),
        "descend": Evaluator(limits, descend=True),
        "restarts": Evaluator(limits, descend=True, restarts=RESTARTS),
    }
    nodes = {str(s): dict.fromkeys(kinds, 0) for s in range(3)}
    cpu = {str(s): dict.fromkeys(kinds, 0.0) for s in range(3)}
    records, same, stopped = [], True, 0
    for i in sorted(reference):
        hand, seat = bench_hand(i)
        for k, s in enumerate(sample_seeds(REF_SEED, samples)):
            row: dict[str, Any] = {"hand_index": i, "seat": seat, "sample": k}
            values = []
            for name, ev in kinds.items():
                c = time.process_time()
                r = call_sample(CallTask(hand, seat, s, ev, policy_calls, None, None, None))
                cpu[str(seat)][name] += time.process_time() - c
                nodes[str(seat)][name] += r.nodes
                row[f"{name}_nodes"] = r.nodes
                row[f"{name}_incomplete"] = r.incomplete
                values.append((r.play, r.pass_, r.incomplete))
            stopped += any(v[2] for v in values)
            exact = [v[:2] for v in values if v[2] == 0]
            same = same and all(v == exact[0] for v in exact)
            records.append(row)
            print(row, file=sys.stderr, flush=True)
    total = {name: sum(n[name] for n in nodes.values()) for name in kinds}
    return {
        "samples_a_hand": samples,
        "hands": len({r["hand_index"] for r in records}),
        "restarts": list(RESTARTS),
        "total_nodes": total,
        "nodes_by_seat": nodes,
        "cpu_s_by_seat": {s: {k: round(v, 2) for k, v in c.items()} for s, c in cpu.items()},
        "descend_over_halfway_by_seat": {s: round(n["descend"] / n["halfway"], 3) for s, n in nodes.items()},
        "restarts_over_descend_by_seat": {s: round(n["restarts"] / n["descend"], 3) for s, n in nodes.items()},
        "restarts_over_descend": round(total["restarts"] / total["descend"], 3),
        "same_values_where_exact": same,
        "samples_a_node_limit_stopped": stopped,
        "records": records,
    }


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "advise-levers.json")
    parser.add_argument("--parts", default="control,descend", help="parts to run (comma-separated)")
    parser.add_argument("--descend-samples", type=int, default=2, help="reference deals a hand (2)")
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    data: dict[str, Any] = {"bench": "advise-levers", "ran": {"parts": sorted(parts)}}
    if args.out.exists():  # the parts not run are kept, with the run they came from
        old = json.loads(args.out.read_text(encoding="utf-8"))
        kept = {k: v for k, v in old.items() if k in ("control", "descend") and k not in parts}
        if kept:
            data.update(kept)
            data["ran"]["kept_from_earlier_run"] = {"parts": sorted(kept), "environment": old.get("environment")}
    if "control" in parts:
        data["control"] = run_control()
        print(json.dumps(data["control"]["gap_variance_ratio_by_seat"]))
    if "descend" in parts:
        data["descend"] = run_descend(args.descend_samples)
        print(json.dumps({k: v for k, v in data["descend"].items() if k != "records"}))
    print(f"saved {save_json(data, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
