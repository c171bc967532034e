"""Train the cheap value of a sampled deal (``lukfu_solver.analysis.cheap_value``): what two-phase
sampling of the call valuation counts for a deal it does not solve exactly.

Data recipe (every input a pure function of its seed, so the data can be rebuilt):

- training hand ``j`` is seat ``j % 3`` of ``deal_from_seed(DEAL_FIRST + j)`` for ``j < --hands``
  (disjoint from the bench hands, which start at 1000, and from the advice model's deals);
- its ``--samples`` sampled deals are ``hidden.calls.call_deals(hand, seat, samples, j)``, and each
  branch of each deal as ``hidden.calls.call_sample`` values it (*play*: the hand's seat calls;
  *pass*: the first later seat the calling policy calls for);
- per branch: the exact value (no node limit), the bounds known without search, the rule playout
  of the deal (every hand seen), the bounds a fresh solve proves within each node limit of
  :data:`CHEAP_GRID` (MTD(f) from halfway, as a node-limited solve starts), and the nodes of the
  exact solve from halfway, descending from the upper bound, and continued on the cheap solve's
  table from its upper bound after :data:`CONTINUE_AFTER` nodes.

The fit (``fit``): for each cheap node limit, ridge least squares of the exact value on the cheap
features (:func:`features`: the rule playout clamped to the bounds, the two bounds) of the deals
whose cheap solve did not finish, within each (hand, branch) group (each group's means taken out:
only the spread of a hand's deals around their mean matters to two-phase sampling, whose
correction term absorbs any offset). Written to ``lukfu_solver/data/deal_model.json`` with, per
seat, the share of a deal's variance the cheap value leaves and the costs.

Run: ``python -m train.deal_model generate [--hands 60] [--samples 12]`` (appends to
``bench/results/deal-model-data.jsonl``, resumable by hand), then ``python -m train.deal_model fit``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from lukfu_solver.cards import format_cards
from lukfu_solver.game import deal_from_seed
from lukfu_solver.hidden.calls import call_deals
from lukfu_solver.policy.calling import later_caller
from lukfu_solver.policy.rule import rule_playout
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

DEAL_FIRST = 600_000
"""Training hand ``j`` is seat ``j % 3`` of ``deal_from_seed(DEAL_FIRST + j)``."""
CHEAP_GRID = (2_500, 5_000, 10_000, 20_000, 40_000)
"""The cheap solves' node limits measured."""
CONTINUE_AFTER = (10_000, 20_000)
"""Cheap limits after which the exact solve is measured continued on the cheap solve's table."""
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "results" / "deal-model-data.jsonl"
OUT = ROOT / "lukfu_solver" / "data" / "deal_model.json"
RIDGE = 1.0
FOLDS = 5
"""The shares are measured held out: hand ``j``'s cheap values use weights fitted without the
hands of its fold (``j % FOLDS``)."""
OVERHEAD_NODES = 2_000
"""A solve's cost besides its nodes (a fresh solver, the playout), in nodes, in the costs."""


def branch_row(hands: tuple[int, int, int], caller: int) -> dict[str, object]:
    """One branch of a deal measured: exact value, static bounds, playout, cheap bounds, exact costs."""
    pos = Position.start(hands, caller)
    solver = make_solver()
    lo, hi = solver.bounds(pos)
    t = time.process_time()
    playout = rule_playout(pos)
    playout_s = time.process_time() - t
    cheap = {}
    for n in CHEAP_GRID:
        r = make_solver().solve(pos, max_nodes=n)
        cheap[str(n)] = [r.lower, r.upper, r.nodes]
    costs: dict[str, list[float]] = {}
    value = None
    for name, kw in (("half", {"max_nodes": 1 << 40}), ("descend", {})):
        t = time.process_time()
        r = make_solver().solve(pos, **kw)  # type: ignore[arg-type]
        costs[name] = [r.nodes, round(time.process_time() - t, 4)]
        assert r.complete and (value is None or r.value == value)
        value = r.value
    for n in CONTINUE_AFTER:
        s = make_solver()
        t = time.process_time()
        first = s.solve(pos, max_nodes=n)
        nodes = first.nodes
        if not first.complete:
            r = s.solve(pos, guess=first.upper, max_nodes=1 << 40)
            assert r.complete and r.value == value
            nodes += r.nodes
        costs[f"continue_{n}"] = [nodes, round(time.process_time() - t, 4)]
    return {
        "caller": caller,
        "value": value,
        "static": [lo, hi],
        "playout": playout,
        "playout_s": round(playout_s, 6),
        "cheap": cheap,
        "costs": costs,
    }


def generate(hands: int, samples: int) -> None:
    """Measure training hands ``j < hands`` (those not in the data file yet)."""
    done = set()
    if DATA.exists():
        done = {json.loads(line)["hand_index"] for line in DATA.read_text().splitlines() if line.strip()}
    t0 = time.process_time()
    with DATA.open("a", encoding="utf-8") as out:
        for j in range(hands):
            if j in done:
                continue
            seat = j % 3
            hand = deal_from_seed(DEAL_FIRST + j)[seat]
            for k, deal in enumerate(call_deals(hand, seat, samples, j)):
                callers = [seat]
                later = later_caller(deal, seat)
                if later is not None:
                    callers.append(later)
                for branch, caller in enumerate(callers):
                    row = {"hand_index": j, "seat": seat, "sample": k, "branch": branch}
                    row |= {"hands": [format_cards(h) for h in deal]} | branch_row(deal, caller)
                    out.write(json.dumps(row) + "\n")
            out.flush()
            print(f"hand {j} (seat {seat}): {samples} deals ({time.process_time() - t0:.0f} s CPU)", flush=True)


def data_rows() -> list[dict[str, Any]]:
    """The measured branches of the data file."""
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def features(row: dict[str, Any], limit: str) -> list[float]:
    """The cheap value's inputs after the cheap solve of ``limit`` nodes: the playout clamped to
    the bounds it proved, and the bounds (``analysis.cheap_value.CheapValue``)."""
    lo, hi, _ = row["cheap"][limit]
    return [float(min(max(row["playout"], lo), hi)), float(lo), float(hi)]


def fit_weights(rows: list[dict[str, Any]], limit: str) -> list[float]:
    """Ridge least squares of the exact value on :func:`features` over the branches whose cheap
    solve stopped, each (hand, branch) group's means taken out."""
    import numpy as np

    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for r in rows:
        if r["cheap"][limit][0] != r["cheap"][limit][1]:
            groups.setdefault((r["hand_index"], r["branch"]), []).append(r)
    xs, ys = [], []
    for group in groups.values():
        if len(group) < 2:
            continue
        x = np.array([features(r, limit) for r in group])
        y = np.array([float(r["value"]) for r in group])
        xs.append(x - x.mean(axis=0))
        ys.append(y - y.mean())
    x, y = np.vstack(xs), np.concatenate(ys)
    return [float(w) for w in np.linalg.solve(x.T @ x + RIDGE * np.eye(x.shape[1]), x.T @ y)]


def cheap_of(row: dict[str, Any], limit: str, weights: list[float]) -> float:
    """A branch's cheap value (exact when the cheap solve finished), as ``TwoPhase.cheap_value``."""
    lo, hi, _ = row["cheap"][limit]
    if lo == hi:
        return float(lo)
    return min(max(sum(w * f for w, f in zip(weights, features(row, limit), strict=True)), lo), hi)


def shares_and_costs(rows: list[dict[str, Any]], limit: str, weights_of: dict[int, list[float]]) -> dict[str, Any]:
    """By seat: the share of a deal's variance around its hand's mean that exact - cheap leaves
    (play, pass, the gap; each hand's weights from the fold that left it out), the nodes of a
    deal's cheap solves and of its exact solves (halfway, descending), and the best ``every`` for
    the gap with the information a node it buys over plain sampling descending."""
    deals: dict[tuple[int, int], dict[int, dict[str, Any]]] = {}
    for r in rows:
        deals.setdefault((r["hand_index"], r["sample"]), {})[r["branch"]] = r
    out: dict[str, Any] = {}
    for seat in range(3):
        by_hand: dict[int, list[tuple[float, ...]]] = {}
        cheap = exact = half = 0.0
        n = 0
        for (h, _k), d in deals.items():
            if h % 3 != seat:
                continue
            w = weights_of[h % FOLDS]
            e_play, c_play = float(d[0]["value"]), cheap_of(d[0], limit, w)
            e_pass = -d[1]["value"] / 2 if 1 in d else 0.0
            c_pass = -cheap_of(d[1], limit, w) / 2 if 1 in d else 0.0
            by_hand.setdefault(h, []).append((e_play, c_play, e_pass, c_pass))
            for r in d.values():
                lo, hi, nodes = r["cheap"][limit]
                cheap += nodes + OVERHEAD_NODES
                exact += r["costs"]["descend"][0] + OVERHEAD_NODES
                half += r["costs"]["half"][0] + OVERHEAD_NODES
            n += 1

        def share(of: Any, by_hand: dict[int, list[tuple[float, ...]]] = by_hand) -> float:
            left = total = 0.0
            for values in by_hand.values():
                e = [of(v[0], v[2]) for v in values]
                d = [of(v[0], v[2]) - of(v[1], v[3]) for v in values]
                me, md = sum(e) / len(e), sum(d) / len(d)
                total += sum((x - me) ** 2 for x in e)
                left += sum((x - md) ** 2 for x in d)
            return left / total if total else 0.0

        shares = {"play": share(lambda p, q: p), "pass": share(lambda p, q: q), "gap": share(lambda p, q: p - q)}
        c, x = cheap / n, exact / n
        r = shares["gap"]
        best = min(range(1, 17), key=lambda k: ((1 - r) + r * k) * (c + x / k))
        gain = x / (((1 - r) + r * best) * (c + x / best))
        out[str(seat)] = {
            "share_left": {k: round(v, 3) for k, v in shares.items()},
            "deals": n,
            "cheap_nodes_per_deal": round(c),
            "exact_nodes_per_deal_descending": round(x),
            "exact_nodes_per_deal_halfway": round(half / n),
            "best_every_for_the_gap": best,
            "information_per_node_over_plain_descending": round(gain, 2),
        }
    return out


def fit() -> None:
    """Weights for every cheap limit, the shares they leave (held out by hand) and the costs."""
    rows = data_rows()
    limits: dict[str, Any] = {}
    for limit in (str(n) for n in CHEAP_GRID):
        folds = {f: fit_weights([r for r in rows if r["hand_index"] % FOLDS != f], limit) for f in range(FOLDS)}
        weights = [round(w, 4) for w in fit_weights(rows, limit)]
        limits[limit] = {"weights": weights, "by_seat": shares_and_costs(rows, limit, folds)}
        print(limit, weights, json.dumps(limits[limit]["by_seat"]), flush=True)
    model = {
        "features": ["playout clamped to the bounds", "lower bound", "upper bound"],
        "limits": limits,
        "trained_on": {
            "branches": len(rows),
            "hands": len({r["hand_index"] for r in rows}),
            "data": str(DATA.relative_to(ROOT)),
            "ridge": RIDGE,
            "first_deal": DEAL_FIRST,
            "held_out": f"shares: each hand's weights fitted without its fold ({FOLDS} folds by hand index)",
            "overhead_nodes": OVERHEAD_NODES,
        },
        "recipe": "train/deal_model.py (module docstring)",
    }
    OUT.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} branches -> {OUT.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("generate", "fit"))
    parser.add_argument("--hands", type=int, default=60, help="training hands (60)")
    parser.add_argument("--samples", type=int, default=12, help="sampled deals a hand (12)")
    args = parser.parse_args(argv)
    if args.step == "generate":
        generate(args.hands, args.samples)
    else:
        fit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
