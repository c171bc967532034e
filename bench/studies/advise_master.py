"""Levers for the Master's call/pass advice, measured on the exact reference's own deals before building them.

A Master's sample solves two whole deals (play: the Master calls; pass: the first later seat that
the policy calls for), so within the 5.5 s budget the Master's answer rests on a few samples. Each
part asks whether a lever would make those samples worth more, using the exact per-sample values
of ``bench/results/advise-reference.json`` (96 deals a hand from seed 1000003; hand ``i`` is seat
``i % 3`` of ``deal_from_seed(1000 + i)``), which every deal here is regenerated from:

- **strata**: stratified sampling pays by the share of the within-hand variance that lies
  *between* strata. For strata of cheap, exactly known deal properties (the seat that calls after
  a pass, ``later_caller``; which hidden seat holds each suit's highest unseen card,
  ``top_cards``; the next seat's count of the hand's shortest suit, ``short_suit``) the share of
  play's, pass's and the gap's variance between them, raw and less what chance alone gives ``k``
  strata of ``n`` deals, ``(k - 1) / (n - 1)`` (``adjusted``); pooled by seat. Beside it a free
  **control variate**, the opponents' hands (call score, Old cards, sets and runs of each), its
  coefficients fitted on the training deals of ``train/advice_model.py`` (with the hand's own
  model features, ridge 1, by seat): ``Var(gap - cv) / Var(gap)``.
- **allocate**: solving the pass branch on fewer samples than play (Neyman allocation) pays when
  pass is dear and varies little. The two branches' nodes of the seat-0 deals (the first
  ``--split-samples`` deals of each seat-0 hand whose pass branch has a solve, both branches
  solved here, exact, with the current solver: machine-independent node counts), then a
  simulation on the reference's values: bootstrap draws of a hand's 96 deals, each costing its
  branches' nodes (the reference's sample nodes split by the hand's measured share), within a
  node budget (a sample starts while the mean cost so far says it fits), the model's prior
  (``hidden.pimc.refine``), the sequential test after 8 samples; *paired* (every sample both
  branches, as ``advise``) against *allocated* (after 2 paired samples, pass on a share
  ``sqrt(var_pass * cost_play / (var_play * cost_pass))`` of the samples, at least 5 %, the
  estimate ``mean(play) - mean(pass)`` over their own samples); and paired with the prior's
  weights before this measurement (``paired_prior_before``: the raw RMSEs, pass's over all 30
  hands, one typical variance 12 for every branch). Reported: agreement with the reference's
  sign, samples drawn, and the expected misses over the clear hands (gap > 2 SE).

Also **twophase** (the cheap covariate of two-phase sampling on every reference deal: a
node-limited solve's bounds at ``CHEAP_LIMITS``, their midpoint or the rule playout clamped to
them, against the exact values: ``Var(exact - cheap) / Var(exact)`` and the cost in nodes),
**prior** (the prior's weights in a held-out simulation on the training deals: :func:`run_prior`)
and **agreement** (the Master's answers at the defaults with and without two phases, in turn).

Run: ``python -m bench.studies.advise_master [--parts strata,allocate,twophase,prior,agreement] [--split-samples 6]
[--draws 400]``.
Result: ``bench/results/advise-master.json``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.advise_hands import REF_SEED, bench_hand, sample_seeds
from bench.common import RESULTS_DIR, base_parser, save_json
from lukfu_solver.analysis.defaults import DECIDE_MIN, DECIDE_Z
from lukfu_solver.analysis.model import ModelAnswer, features, predict
from lukfu_solver.cards import SUIT_MASK9, CardSet, old_cards, parse_cards
from lukfu_solver.hidden.pimc import Evaluator, SolveLimits, refine
from lukfu_solver.hidden.sampling import deal_others
from lukfu_solver.policy.calling import hand_facts, later_caller
from lukfu_solver.position import Position

REFERENCE = RESULTS_DIR / "advise-reference.json"
TRAINING = RESULTS_DIR / "advice-model-data.jsonl"
PILOT = 2
"""Paired samples before the allocation starts (both branches' variances and costs seen)."""
MIN_SHARE = 0.05
"""The least share of samples whose pass branch is solved."""
OVERHEAD_NODES = 3000
KEPT = ("strata", "allocate", "twophase", "prior", "agreement", "environment_twophase")
"""A sample's cost besides its solves (dealing, the policy, a fresh solver), in nodes."""


def reference_records() -> list[dict[str, Any]]:
    """The exact reference's hands, in hand order."""
    return sorted(json.loads(REFERENCE.read_text(encoding="utf-8"))["records"], key=lambda r: r["hand_index"])


def deals(r: dict[str, Any]) -> list[list[CardSet]]:
    """The reference's sampled deals of hand ``r`` (the same seeds ``call_values`` drew)."""
    hand, seat = bench_hand(r["hand_index"])
    return [deal_others(hand, seat, random.Random(s)) for s in sample_seeds(REF_SEED, len(r["sample_play"]))]



# ---------------------------------------------------------------- strata


def strata_keys(hands: Sequence[CardSet], seat: int) -> dict[str, object]:
    """Each candidate stratum of one deal (exactly known properties, no solve)."""
    hand, nxt = hands[seat], hands[(seat + 1) % 3]
    unseen = [c for c in range(36) if not hand >> c & 1]
    tops = [max(c for c in unseen if c // 9 == s) for s in range(4) if any(c // 9 == s for c in unseen)]
    lengths = [((hand >> (9 * s)) & SUIT_MASK9).bit_count() for s in range(4)]
    short = min(range(4), key=lambda s: lengths[s])
    return {
        "later_caller": later_caller(hands, seat),
        "top_cards": tuple(nxt >> c & 1 for c in tops),
        "short_suit": ((nxt >> (9 * short)) & SUIT_MASK9).bit_count(),
    }


def between_share(values: Sequence[float], keys: Sequence[object]) -> tuple[float, float, float, int]:
    """The between-strata sum of squares, the total, the chance share ``(k - 1) / (n - 1)`` and ``k``."""
    n = len(values)
    m = sum(values) / n
    groups: dict[object, list[float]] = {}
    for v, k in zip(values, keys, strict=True):
        groups.setdefault(k, []).append(v)
    ssb = sum(len(g) * (sum(g) / len(g) - m) ** 2 for g in groups.values())
    sst = sum((v - m) ** 2 for v in values)
    return ssb, sst, (len(groups) - 1) / (n - 1), len(groups)


def opponent_features(hands: Sequence[CardSet], seat: int) -> list[float]:
    """The control variate's inputs: call score, Old cards, sets and runs of the next seat, then the other."""
    out: list[float] = []
    for s in ((seat + 1) % 3, (seat + 2) % 3):
        f = hand_facts(hands[s])
        out += [float(f.call_score), float(old_cards(hands[s], 0).bit_count()), float(len(f.sets)), float(len(f.runs))]
    return out


def opponent_coefficients() -> dict[int, list[float]]:
    """The opponents' features' coefficients for the gap label, by seat, fitted on the training deals."""
    import numpy as np

    xs: dict[int, list[list[float]]] = {0: [], 1: [], 2: []}
    ys: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for line in TRAINING.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        hands = [parse_cards(h) for h in d["hands"]]
        for seat in range(3):
            later = later_caller(hands, seat)
            if not d["exact"][seat] or (later is not None and not d["exact"][later]):
                continue
            q = 0.0 if later is None else -d["values"][later] / 2
            xs[seat].append(features(hand_facts(hands[seat]), seat) + opponent_features(hands, seat))
            ys[seat].append(d["values"][seat] - q)
    out = {}
    for seat in range(3):
        x = np.array(xs[seat])
        keep = [j for j in range(x.shape[1]) if j == 0 or x[:, j].std() > 0]
        x = x[:, keep]
        reg = np.eye(x.shape[1])
        reg[0, 0] = 0.0
        w = np.linalg.solve(x.T @ x + reg, x.T @ np.array(ys[seat]))
        out[seat] = [round(float(v), 4) for v in w[-8:]]
    return out


def run_strata() -> dict[str, Any]:
    """Between-strata shares and the opponents' control variate (module docstring)."""
    coef = opponent_coefficients()
    pooled: dict[str, dict[str, list[float]]] = {}
    rows = []
    cpu = time.process_time()
    n_deals = 0
    for r in reference_records():
        seat = r["seat"]
        ds = deals(r)
        n_deals += len(ds)
        keys = [strata_keys(h, seat) for h in ds]
        play, pas = r["sample_play"], r["sample_pass"]
        gap = [p - q for p, q in zip(play, pas, strict=True)]
        row: dict[str, Any] = {"hand_index": r["hand_index"], "seat": seat}
        for name in keys[0]:
            ks = [k[name] for k in keys]
            entry: dict[str, Any] = {}
            for branch, vals in (("play", play), ("pass", pas), ("gap", gap)):
                ssb, sst, chance, k = between_share(vals, ks)
                entry["strata"] = k
                entry[branch] = None if sst == 0 else round(ssb / sst, 3)
                entry[f"{branch}_adjusted"] = None if sst == 0 else round(ssb / sst - chance, 3)
                acc = pooled.setdefault(str(seat), {}).setdefault(f"{name}_{branch}", [0.0, 0.0])
                acc[0] += ssb - chance * sst
                acc[1] += sst
            row[name] = entry
        cv = [sum(w * x for w, x in zip(coef[seat], opponent_features(h, seat), strict=True)) for h in ds]
        resid = [g - c for g, c in zip(gap, cv, strict=True)]
        var_g, var_r = _var(gap), _var(resid)
        row["control_opponents_gap_var_ratio"] = round(var_r / var_g, 3) if var_g else None
        acc = pooled.setdefault(str(seat), {}).setdefault("control_opponents_gap", [0.0, 0.0])
        acc[0] += var_g - var_r
        acc[1] += var_g
        rows.append(row)
    return {
        "cpu_s_per_deal_strata_and_covariate": round((time.process_time() - cpu) / n_deals, 6),
        "opponent_coefficients_by_seat": coef,
        "between_share_adjusted_by_seat": {
            seat: {k: round(v[0] / v[1], 3) if v[1] else None for k, v in sorted(d.items())}
            for seat, d in sorted(pooled.items())
        },
        "what": "between_share_adjusted_by_seat: over the seat's hands, the sum of (between-strata sum of squares "
        "less the chance share of the total) over the sum of the totals: the share of the variance stratified "
        "sampling with proportional strata would remove; control_opponents_gap: 1 - Var(gap - cv) / Var(gap) pooled",
        "records": rows,
    }


def _var(values: Sequence[float]) -> float:
    n = len(values)
    m = sum(values) / n
    return sum((v - m) ** 2 for v in values) / (n - 1)


# ---------------------------------------------------------------- allocation


def branch_nodes(split_samples: int) -> list[dict[str, Any]]:
    """Both branches of the first ``split_samples`` two-solve deals of each seat-0 hand, solved exactly."""
    ev = Evaluator(SolveLimits())
    out = []
    for r in reference_records():
        if r["seat"] != 0:
            continue
        ds = deals(r)
        for i in [k for k, s in enumerate(r["sample_solves"]) if s == 2][:split_samples]:
            hands = ds[i]
            caller = later_caller(hands, 0)
            assert caller is not None
            cpu = time.process_time()
            play = ev.value(Position.start(hands, 0), ev.solver())
            pas = ev.value(Position.start(hands, caller), ev.solver())
            cpu = time.process_time() - cpu
            if not (play.exact and pas.exact) or (play.value, -pas.value / 2) != (
                r["sample_play"][i],
                r["sample_pass"][i],
            ):
                raise SystemExit(f"hand {r['hand_index']} deal {i}: not the reference's values")
            out.append(
                {
                    "hand_index": r["hand_index"],
                    "sample": i,
                    "play_nodes": play.nodes,
                    "pass_nodes": pas.nodes,
                    "cpu_s": round(cpu, 3),
                }
            )
            print(out[-1], file=sys.stderr, flush=True)
    return out


def simulate(
    r: dict[str, Any],
    cost: list[tuple[float, float]],
    model: ModelAnswer,
    allocate: bool,
    budget: float,
    rng: random.Random,
) -> tuple[float, int, int]:
    """One budgeted answer on bootstrap draws of the reference's deals: (refined gap, samples, pass samples)."""
    n_ref = len(r["sample_play"])
    plays: list[float] = []
    passes: list[float] = []
    pairs: list[tuple[float, float]] = []
    spent = cost_play = cost_pass = 0.0
    while not plays or (spent < budget and spent + spent / len(plays) <= budget):
        i = rng.randrange(n_ref)
        with_pass = True
        if allocate and len(plays) >= PILOT:
            vp, vq = _shrunk(plays, model.play_var), _shrunk(passes, model.pass_var)
            share = math.sqrt(vq * (cost_play / len(plays)) / (vp * max(cost_pass / len(passes), 1.0)))
            with_pass = len(passes) < min(1.0, max(MIN_SHARE, share)) * (len(plays) + 1)
        plays.append(r["sample_play"][i])
        cost_play += cost[i][0] + OVERHEAD_NODES
        if with_pass:
            passes.append(r["sample_pass"][i])
            pairs.append((r["sample_play"][i], r["sample_pass"][i]))
            cost_pass += cost[i][1]
        spent = cost_play + cost_pass
        if len(plays) >= DECIDE_MIN:
            m, se = _gap_posterior(plays, passes, pairs, model)
            if abs(m) > DECIDE_Z * se:
                break
    pm, _ = refine(model.play, model.play_error, plays, typical=model.play_var)
    qm, _ = refine(model.pass_, model.pass_error, passes, typical=model.pass_var)
    return pm - qm, len(plays), len(passes)


def _shrunk(values: Sequence[float], typical: float) -> float:
    """A few samples' variance shrunk towards the ``typical`` one (one pseudo-sample)."""
    m = sum(values) / len(values)
    return (sum((v - m) ** 2 for v in values) + typical) / len(values)


def _gap_posterior(
    plays: Sequence[float], passes: Sequence[float], pairs: Sequence[tuple[float, float]], model: ModelAnswer
) -> tuple[float, float]:
    """The refined gap of the sequential test: paired as ``advise`` when every sample has both branches,
    else the difference of the two means with ``Var = vp / n + vq / m - 2 cov / n`` (pass a subset)."""
    prior, prior_error = model.play - model.pass_, model.gap_error
    n, m = len(plays), len(passes)
    if n == m:
        return refine(prior, prior_error, [p - q for p, q in pairs], typical=model.gap_var)
    mp, mq = sum(plays) / n, sum(passes) / m
    vp = (sum((x - mp) ** 2 for x in plays) + model.play_var) / (n + 1)
    vq = (sum((x - mq) ** 2 for x in passes) + model.pass_var) / (m + 1)
    ma = sum(p for p, _ in pairs) / m
    cov = sum((p - ma) * (q - mq) for p, q in pairs) / (m + 1)
    var = max(vp / n + vq / m - 2 * cov / n, 1e-9)
    precision = 1 / prior_error**2 + 1 / var
    return (prior / prior_error**2 + (mp - mq) / var) / precision, math.sqrt(1 / precision)


def before(model: ModelAnswer) -> ModelAnswer:
    """The model's answer with the prior's weights before this measurement: the raw RMSEs (pass's over
    all 30 hands, seat 2's exact zeros included) and one typical variance, 12, for every branch."""
    return dataclasses.replace(
        model, play_error=2.109, pass_error=0.521, gap_error=2.102, play_var=12.0, pass_var=12.0, gap_var=12.0
    )


def run_allocate(split_samples: int, draws: int) -> dict[str, Any]:
    """Branch nodes of the Master's deals, then paired against allocated sampling (module docstring)."""
    split = branch_nodes(split_samples)
    nodes = sum(s["play_nodes"] + s["pass_nodes"] for s in split)
    cpu = sum(s["cpu_s"] for s in split)
    refs = {r["hand_index"]: r for r in reference_records()}
    ref_nodes = sum(refs[s["hand_index"]]["sample_nodes"][s["sample"]] for s in split)
    per_second = nodes / cpu  # the current solver's nodes a CPU second
    budgets = {"5.5 s": 5.5 * per_second * ref_nodes / nodes, "11 s": 11 * per_second * ref_nodes / nodes}
    hands_out = []
    expected: dict[str, dict[str, float]] = {
        b: {"paired": 0.0, "allocated": 0.0, "paired_prior_before": 0.0} for b in budgets
    }
    for i, r in sorted(refs.items()):
        if r["seat"] != 0:
            continue
        mine = [s for s in split if s["hand_index"] == i]
        share = (
            sum(s["play_nodes"] for s in mine) / sum(s["play_nodes"] + s["pass_nodes"] for s in mine) if mine else 1.0
        )
        cost = [
            (float(n), 0.0) if k == 1 else (n * share, n * (1 - share))
            for n, k in zip(r["sample_nodes"], r["sample_solves"], strict=True)
        ]
        now = predict(hand_facts(bench_hand(i)[0]), 0)
        assert now is not None
        models = {"paired": now, "allocated": now, "paired_prior_before": before(now)}
        clear = abs(r["gap"]) > 2 * r["gap_se"]
        row: dict[str, Any] = {"hand_index": i, "ref_gap": r["gap"], "clear": clear, "play_node_share": round(share, 3)}
        for bname, budget in budgets.items():
            for kind, model in models.items():
                rng = random.Random(7)
                runs = [simulate(r, cost, model, kind == "allocated", budget, rng) for _ in range(draws)]
                agree = sum((g > 0) == (r["gap"] > 0) for g, _, _ in runs) / draws
                row[f"{kind}_{bname}"] = {
                    "agree": round(agree, 3),
                    "samples": round(sum(n for _, n, _ in runs) / draws, 1),
                    "pass_samples": round(sum(m for _, _, m in runs) / draws, 1),
                }
                if clear:
                    expected[bname][kind] += 1 - agree
        hands_out.append(row)
        print(row, file=sys.stderr, flush=True)
    return {
        "split_samples_a_hand": split_samples,
        "branch_nodes": split,
        "current_over_reference_nodes": round(nodes / ref_nodes, 3),
        "nodes_per_cpu_s": round(per_second),
        "budgets_in_reference_nodes": {k: round(v) for k, v in budgets.items()},
        "draws_a_hand": draws,
        "expected_misses_on_clear_master_hands": {
            b: {k: round(v, 2) for k, v in d.items()} for b, d in expected.items()
        },
        "records": hands_out,
    }


# ---------------------------------------------------------------- two-phase sampling


CHEAP_LIMITS = (500, 2000, 10000, 40000)
"""Node limits of the cheap per-deal covariate: a node-limited solve's proven bounds."""


def cheap_values(pos: Position, limits: Sequence[int]) -> dict[str, Any]:
    """The cheap covariates of one branch's solve: for each node limit the proven bounds and nodes
    (a fresh solver each), the static bounds and the rule playout (every hand seen)."""
    from lukfu_solver.policy.rule import rule_playout
    from lukfu_solver.search import make_solver

    solver = make_solver("compiled")
    out: dict[str, Any] = {"static": list(solver.bounds(pos)), "playout": float(rule_playout(pos))}
    for k in limits:
        solver = make_solver("compiled")
        cpu = time.process_time()
        r = solver.solve(pos, max_nodes=k)
        out[str(k)] = {"lo": r.lower, "hi": r.upper, "nodes": r.nodes, "cpu_s": time.process_time() - cpu}
    return out


def covariate(c: dict[str, Any], kind: str, limit: str) -> float:
    """One covariate of a branch's cheap values: ``mid`` (the bounds' midpoint) or ``clamp`` (the rule
    playout clamped to the bounds); ``limit`` a node limit or ``static`` (the bounds known without search)."""
    lo, hi = c["static"] if limit == "static" else (c[limit]["lo"], c[limit]["hi"])
    return (lo + hi) / 2 if kind == "mid" else min(max(c["playout"], lo), hi)


def _cov(a: Sequence[float], b: Sequence[float]) -> float:
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    return sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)) / (n - 1)


def run_twophase(limits: Sequence[int], hands: Sequence[int] | None) -> dict[str, Any]:
    """The cheap covariate of every reference deal, against its exact values (module docstring)."""
    keys = [("static", "mid"), ("static", "clamp")] + [(str(k), m) for k in limits for m in ("mid", "clamp")]
    rows = []
    pooled: dict[str, dict[str, list[float]]] = {}
    for r in reference_records():
        if hands is not None and r["hand_index"] not in hands:
            continue
        seat = r["seat"]
        cpu0 = time.process_time()
        evals: list[dict[str, Any]] = []
        for hs in deals(r):
            later = later_caller(hs, seat)
            e: dict[str, Any] = {"play": cheap_values(Position.start(hs, seat), limits)}
            if later is not None:
                e["pass"] = cheap_values(Position.start(hs, later), limits)
            evals.append(e)
        cpu = time.process_time() - cpu0
        row: dict[str, Any] = {"hand_index": r["hand_index"], "seat": seat, "cpu_s_cheap_all": round(cpu, 2)}
        exact_nodes = sum(r["sample_nodes"]) / len(r["sample_nodes"])
        row["exact_nodes_a_sample"] = round(exact_nodes)
        for lim, kind in keys:
            name = f"{kind}_{lim}"
            cp = [covariate(e["play"], kind, lim) for e in evals]
            cq = [(-covariate(e["pass"], kind, lim) / 2 if "pass" in e else 0.0) for e in evals]
            entry: dict[str, Any] = {}
            for branch, ex, ch in (
                ("play", r["sample_play"], cp),
                ("pass", r["sample_pass"], cq),
                (
                    "gap",
                    [p - q for p, q in zip(r["sample_play"], r["sample_pass"], strict=True)],
                    [p - q for p, q in zip(cp, cq, strict=True)],
                ),
            ):
                ve = _var(ex)
                d = [x - y for x, y in zip(ex, ch, strict=True)]
                vd, vc = _var(d), _var(ch)
                corr = _cov(ex, ch) / math.sqrt(ve * vc) if ve > 0 and vc > 0 else None
                entry[branch] = {
                    "var_exact": round(ve, 3),
                    "var_diff": round(vd, 3),
                    "ratio": round(vd / ve, 3) if ve > 0 else None,
                    "corr": None if corr is None else round(corr, 3),
                    "ratio_best_b": None if corr is None else round(1 - corr * corr, 3),
                }
                acc = pooled.setdefault(str(seat), {}).setdefault(f"{name}_{branch}", [0.0, 0.0, 0.0])
                acc[0] += vd
                acc[1] += ve
                acc[2] += ve * (1 - corr * corr) if corr is not None else ve
            if lim != "static":
                nodes = sum(e["play"][lim]["nodes"] + (e["pass"][lim]["nodes"] if "pass" in e else 0) for e in evals)
                entry["cheap_nodes_a_sample"] = round(nodes / len(evals))
                entry["cost_ratio_nodes"] = round(
                    (nodes / len(evals) + OVERHEAD_NODES) / (exact_nodes + OVERHEAD_NODES), 4
                )
                entry["cheap_cpu_s_a_sample"] = round(
                    sum(e["play"][lim]["cpu_s"] + (e["pass"][lim]["cpu_s"] if "pass" in e else 0) for e in evals)
                    / len(evals),
                    5,
                )
                acc = pooled[str(seat)].setdefault(f"{name}_cost", [0.0, 0.0, 0.0])
                acc[0] += nodes / len(evals) + OVERHEAD_NODES
                acc[1] += exact_nodes + OVERHEAD_NODES
            row[name] = entry
        rows.append(row)
        best = min((k for k in row if k.startswith(("mid_", "clamp_"))), key=lambda k: row[k]["gap"]["ratio"] or 9)
        print(
            f"hand {r['hand_index']} seat {seat}: cheap {cpu:.1f} s; best gap ratio {best} {row[best]['gap']}",
            file=sys.stderr,
            flush=True,
        )
    return {
        "limits": list(limits),
        "what": "per reference deal a cheap covariate of each branch (mid: the proven bounds' midpoint of a "
        "node-limited solve, fresh solver; clamp: the deal's rule playout clamped to those bounds; static: the "
        "bounds known without search), against the exact values: ratio = Var(exact - cheap) / Var(exact) within "
        "the hand (b = 1, nothing fitted), corr = their correlation; cost_ratio_nodes = (cheap nodes + "
        f"{OVERHEAD_NODES}) / (exact nodes + {OVERHEAD_NODES}) a sample, both branches",
        "pooled_by_seat": {
            seat: {k: round(v[0] / v[1], 4) if v[1] else None for k, v in sorted(d.items())}
            for seat, d in sorted(pooled.items())
        },
        "pooled_by_seat_best_b": {
            seat: {k: round(v[2] / v[1], 4) for k, v in sorted(d.items()) if v[1] and not k.endswith("_cost")}
            for seat, d in sorted(pooled.items())
        },
        "records": rows,
    }


# ---------------------------------------------------------------- the prior's weights


def run_prior(draws: int, counts: Sequence[int]) -> dict[str, Any]:
    """The prior's weights, per branch (the model file's) against the shrink-to-12 ones before
    (:func:`before`), simulated on the training deals of ``train/advice_model.py``, held out by
    5-fold cross-validation over the deals (the bench hands are not used; module docstring)."""
    import numpy as np

    from train.advice_model import RIDGE, rows

    xs, play, pas = rows()
    x, yp, yq = np.array(xs), np.array(play), np.array(pas)
    seat = [int(np.argmax(r[1:4])) for r in xs]
    deal = [i // 3 for i in range(len(xs))]
    folds = 5
    any_model = predict(hand_facts(bench_hand(0)[0]), 0)
    assert any_model is not None
    rng = random.Random(11)
    nrng = np.random.default_rng(11)
    out: dict[str, dict[str, list[float]]] = {}
    for f in range(folds):
        train = [i for i in range(len(xs)) if deal[i] % folds != f]
        test = [i for i in range(len(xs)) if deal[i] % folds == f]
        reg = RIDGE * np.eye(x.shape[1])
        reg[0, 0] = 0.0
        xt = x[train]
        wp = np.linalg.solve(xt.T @ xt + reg, xt.T @ yp[train])
        wq = np.linalg.solve(xt.T @ xt + reg, xt.T @ yq[train])
        pool: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        for i in train:
            pool[seat[i]].append((float(yp[i] - x[i] @ wp), 0.0 if seat[i] == 2 else float(yq[i] - x[i] @ wq)))
        for s in range(3):  # centred, and scaled so that a draw's variance is the file's sample_var
            ps, qs = [a for a, _ in pool[s]], [b for _, b in pool[s]]
            mp, mq = sum(ps) / len(ps), sum(qs) / len(qs)
            vp, vq = _var(ps), _var(qs) if s != 2 else 1.0
            fp = math.sqrt(any_model.play_var / vp)
            fq = math.sqrt(any_model.pass_var / vq) if s != 2 else 0.0
            pool[s] = [((a - mp) * fp, (b - mq) * fq) for a, b in pool[s]]
        for i in test:
            s = seat[i]
            now = ModelAnswer(
                float(x[i] @ wp),
                0.0 if s == 2 else float(x[i] @ wq),
                any_model.play_error,
                0.0 if s == 2 else any_model.pass_error,
                any_model.gap_error,
                30,
                any_model.play_var,
                any_model.pass_var,
                any_model.gap_var,
            )
            old = before(now)
            if s == 2:
                old = dataclasses.replace(old, pass_error=0.0)
            for _ in range(draws):
                mu_p = now.play + float(nrng.normal(0, now.play_error))
                mu_q = 0.0 if s == 2 else now.pass_ + float(nrng.normal(0, now.pass_error))
                gap = mu_p - mu_q
                clear = abs(gap) > 2 * math.sqrt(now.gap_var / 96)
                for n in counts:
                    draw = [rng.choice(pool[s]) for _ in range(n)]
                    ps = [mu_p + a for a, _ in draw]
                    qs = [mu_q + b for _, b in draw]
                    for name, m in (("per_branch", now), ("before", old)):
                        pm, _ = refine(m.play, m.play_error, ps, typical=m.play_var)
                        qm = 0.0 if s == 2 else refine(m.pass_, m.pass_error, qs, typical=m.pass_var)[0]
                        acc = out.setdefault(f"seat{s}_n{n}_{name}", [0.0, 0.0])
                        if clear:
                            acc[0] += (pm - qm > 0) != (gap > 0)
                            acc[1] += 1
    return {
        "what": "held-out simulation on the training deals of train/advice_model.py (5-fold by deal: the model "
        "refitted on 4 folds gives the prior of the fifth's hands): a hand's true play and pass means are the "
        "prior plus the model's own error (normal), its sampled deals add the training folds' residual pairs of "
        "the seat (bootstrap, centred, scaled to the file's sample_var); n samples refined with the per-branch "
        "weights (the model file's) or those before (pass error 0.521, one typical variance 12); miss rate: "
        "the recommendation against the true gap's sign over the clear hands (|gap| > 2 SE of 96 samples)",
        "draws_a_hand": draws,
        "miss_rate_on_clear_hands": {k: round(v[0] / v[1], 4) for k, v in sorted(out.items())},
        "clear_draws": {k: int(v[1]) for k, v in sorted(out.items())},
    }


# ---------------------------------------------------------------- the Master's answers, two phases or one


def run_agreement(seeds: Sequence[int]) -> dict[str, Any]:
    """The Master's anytime answers at the defaults with two-phase sampling and without it, one
    after the other on each hand and seed (the same load), against the exact reference's sign."""
    from lukfu_solver.analysis.advice import advise
    from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, advice_budget, make_limits

    rows = []
    tally: dict[str, list[float]] = {}
    for r in reference_records():
        if r["seat"] != 0:
            continue
        hand, _ = bench_hand(r["hand_index"])
        clear = abs(r["gap"]) > 2 * r["gap_se"]
        for seed in seeds:
            for kind in ("two_phase", "one_phase"):
                n, budget = advice_budget(None, None, 0)
                limits = make_limits(None, None, ADVICE_MAX_NODES)
                cpu = time.process_time()
                adv = advise(hand, 0, n, seed, 1, limits, budget=budget, two_phase=kind == "two_phase")
                cpu = time.process_time() - cpu
                gap = adv.play.mean - adv.pass_.mean
                agree = (gap > 0) == (r["gap"] > 0)
                row = {
                    "hand_index": r["hand_index"],
                    "seed": seed,
                    "kind": kind,
                    "ref_gap": r["gap"],
                    "clear": clear,
                    "gap": round(gap, 3),
                    "gap_se": round(adv.gap_stderr, 3),
                    "agree": agree,
                    "exact_deals": adv.samples,
                    "cheap_deals": adv.cheap_deals,
                    "cpu_s": round(cpu, 2),
                    "seconds": round(adv.seconds, 2),
                }
                rows.append(row)
                acc = tally.setdefault(kind, [0.0, 0.0, 0.0])
                if clear:
                    acc[0] += agree
                    acc[1] += 1
                    acc[2] += _p_wrong(gap, adv.gap_stderr)
                print(row, file=sys.stderr, flush=True)
    return {
        "seeds": list(seeds),
        "what": "the Master's answers (seat-0 bench hands) at the defaults, with and without two-phase sampling, "
        "in turn on each hand and seed; agree: the recommendation's sign against the exact reference's gap, over "
        "the clear hands (gap > 2 SE)",
        "agree_on_clear": {k: f"{v[0]:.0f} of {v[1]:.0f}" for k, v in tally.items()},
        "misses_expected_by_own_error": {k: round(v[2], 2) for k, v in tally.items()},
        "exact_deals_median": {k: statistics.median(x["exact_deals"] for x in rows if x["kind"] == k) for k in tally},
        "records": rows,
    }


def _p_wrong(gap: float, se: float) -> float:
    """The answer's own chance of the wrong sign (normal)."""
    return 0.5 * (1 - math.erf(abs(gap) / se / math.sqrt(2))) if se > 0 else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "advise-master.json")
    parser.add_argument("--parts", default="strata,allocate", help="parts to run (comma-separated)")
    parser.add_argument("--split-samples", type=int, default=6, help="two-solve deals a Master hand solved (6)")
    parser.add_argument("--draws", type=int, default=400, help="simulated answers a hand and budget (400)")
    parser.add_argument("--hands", default=None, help="comma-separated hand indices of the twophase part (all)")
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    data: dict[str, Any] = {"bench": "advise-master", "ran": {"parts": sorted(parts)}}
    if args.out.exists():  # keep the parts not run this time
        old = json.loads(args.out.read_text(encoding="utf-8"))
        data.update({k: v for k, v in old.items() if k in KEPT and k not in parts})
    if "strata" in parts:
        data["strata"] = run_strata()
        print(json.dumps(data["strata"]["between_share_adjusted_by_seat"]))
    if "allocate" in parts:
        data["allocate"] = run_allocate(args.split_samples, args.draws)
        print(json.dumps(data["allocate"]["expected_misses_on_clear_master_hands"]))
    if "twophase" in parts:
        only = None if args.hands is None else [int(x) for x in args.hands.split(",")]
        data["twophase"] = run_twophase(CHEAP_LIMITS, only)
        print(json.dumps(data["twophase"]["pooled_by_seat"]))
    if "agreement" in parts:
        data["agreement"] = run_agreement((2, 3))
        print(json.dumps(data["agreement"]["agree_on_clear"]))
    if "prior" in parts:
        data["prior"] = run_prior(args.draws, (2, 4, 8, 16))
        print(json.dumps(data["prior"]["miss_rate_on_clear_hands"]))
    print(f"saved {save_json(data, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
