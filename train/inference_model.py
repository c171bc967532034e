"""Opponent-model trainer: a model of the ``pimc`` player fitted on many self-play
records, its held-out log-likelihood, and the likelihood's temperature calibrated by accuracy.

1. **records**: all-``pimc:L`` self-play deals for fitting (``--fit-deals`` from ``--fit-seed``),
   for calibrating (``--cal-deals`` from ``--cal-seed``) and held out for the report
   (``--acc-deals`` from ``--acc-seed``, the deals of ``bench/inference.py``'s accuracy); none
   of them the strength bench's (its match seed is 0);
2. **fit**: the candidate model (one ``eps`` a kind) and the rank model (a weight for each place
   among the candidates) by maximum likelihood on the fitting records; the held-out
   log-likelihood per decision of each, of the shipped model, the rule model and uniform choice;
3. **calibration**: for the views of every seat after 1, 3, 5 and 7 tricks of the calibrating
   records, ``--samples`` exact uniform samples, each with its log-likelihood under every model
   (computed once); for each temperature ``T`` (``w = L ** T``, floored as the player floors),
   the accuracy: the mean log-probability gain per hidden card of its true seat, weighted against
   uniform (counts smoothed by half a sample), over all samples of a view and over groups of the
   level's samples (the player's setting, ``--group``), with the effective sample sizes;
4. **report**: the chosen model and temperature (the best 12-sample accuracy on the calibrating
   records, of the candidate and rank models: the family the player's model of ``pimc`` belongs
   to) against the earlier one (:data:`EARLIER`) and the rule model at its best temperature on the held-out records, with intervals.

Run: ``python -m train.inference_model [--level 2] [--cache DIR]``; results
``bench/results/inference-model.json`` (or ``--out``). ``--cache`` keeps the self-play records
(JSON lines, by level, seed and deals) so a rerun does not replay them; they are deterministic.
"""

from __future__ import annotations

import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from bench.common import base_parser, environment, make_console, save_json, summary
from lukfu_solver.hidden.inference import (
    ESS_SHARE,
    OpponentModel,
    call_terms,
    decisions,
    rule_model,
    temper,
)
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.match import interval, run_match
from lukfu_solver.players.ipimc import IpimcPlayer, opponent_model, pimc_candidates
from lukfu_solver.players.pimc import PimcPlayer
from lukfu_solver.policy.calling import hand_strength
from lukfu_solver.policy.rule import rule_move as rule_policy
from lukfu_solver.record import GameRecord
from train.opponent_fit import fit, record_rows

EARLIER: dict[str, Any] = {
    "slope": 0.944,
    "threshold": 5.402,
    "eps": (0.886, 0.492, 0.417),
    "ranks": None,
    "temperature": 1.0,
}
"""The model shipped before this bench (fitted on 60 deals, seed 1901; no temperature)."""
TEMPERATURES = (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)


def records(level: int, deals: int, seed: int, cache: Path | None) -> list[GameRecord]:
    """The records of ``deals`` all-``pimc:level`` deals from ``seed`` (from ``cache`` if kept)."""
    path = cache / f"pimc{level}-seed{seed}-deals{deals}.jsonl" if cache is not None else None
    if path is not None and path.exists():
        return [GameRecord.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    spec = f"pimc:{level}"
    recs = [g.record for g in run_match([spec, spec, spec], deals, seed=seed).games]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(r.dumps().replace("\n", " ") + "\n" for r in recs), encoding="utf-8")
    return recs


class ViewRows(NamedTuple):
    """One view's samples: for every hidden card which samples put it with its true seat, and
    each sample's log-likelihood of the other seats' calls, of their plays under each model."""

    hits: list[list[float]]
    calls: list[float]
    plays: dict[str, list[float]]


def view_rows(recs: Sequence[GameRecord], samples: int, seed: int, models: dict[str, OpponentModel]) -> list[ViewRows]:
    """The samples of every seat's view after 1, 3, 5 and 7 tricks of ``recs`` (the sampler seeds
    of ``bench/inference.py``'s accuracy), with their log-likelihoods under ``models``."""
    out: list[ViewRows] = []
    call_model = next(iter(models.values()))
    for k, rec in enumerate(recs):
        if rec.caller is None:
            continue
        plays = [p for p in rec.plays if p.kind != 4]  # a final claim is not in a view
        for tricks in (1, 3, 5, 7):
            if 3 * tricks >= len(plays):
                break
            for seat in range(3):
                view = rec.view(seat, 3 * tricks)
                deals = make_sampler(view, seed * 1_000_003 + k * 31 + seat * 7 + tricks, exact=True).samples(samples)
                dealt = [d.dealt() for d in deals]
                hits = []
                for c in range(36):
                    if view.unseen >> c & 1:
                        true = next(s for s in range(3) if rec.hands[s] >> c & 1)
                        hits.append([1.0 if h[true] >> c & 1 else 0.0 for h in dealt])
                assert view.caller is not None
                calls = [call_terms(call_model, h, view.caller, seat) for h in dealt]
                logs: dict[str, list[float]] = {name: [] for name in models}
                for d, h in zip(deals, dealt, strict=True):
                    seq = [p for tr in d.tricks() for p in tr]
                    replays: dict[tuple[Any, Any], list[Any]] = {}  # models of one replay share it
                    for name, m in models.items():
                        key = (m.order, m.candidates)
                        if key not in replays:
                            replays[key] = list(decisions(m.policy, h, view.caller, seq, seat, m.order, m.candidates))
                        logs[name].append(sum(m.log_decision(x) for x in replays[key]))
                out.append(ViewRows(hits, calls, logs))
    return out


def gains(rows: Sequence[ViewRows], logs: Callable[[ViewRows], list[float]], temperature: float, group: int) -> dict:
    """The accuracy of the weights ``L ** temperature`` (floored as the player floors them,
    :data:`ESS_SHARE` of the samples) over groups of ``group`` samples of each view (0: all)."""
    g: list[float] = []
    ess: list[float] = []
    floored = 0
    for r in rows:
        ls = logs(r)
        n = len(ls)
        size = group or n
        for a in range(0, n - size + 1, size):
            w = temper(ls[a : a + size], ESS_SHARE, temperature)
            ess.append(w.ess)
            floored += w.tempered
            total = sum(w.weights)
            for hits in r.hits:
                h = hits[a : a + size]
                pu = (sum(h) + 0.5) / (size + 1)
                pw = (sum(x * y for x, y in zip(h, w.weights, strict=True)) / total * size + 0.5) / (size + 1)
                g.append(math.log(pw) - math.log(pu))
    m, lo, hi = interval(g)
    return {
        "gain": round(m, 5),
        "ci95": [round(lo, 5), round(hi, 5)],
        "cards": len(g),
        "ess": summary(ess, 2),
        "floored": round(floored / max(1, len(ess)), 3),
    }


def resampled_gains(
    rows: Sequence[ViewRows], logs: Callable[[ViewRows], list[float]], temperature: float, group: int, pool: int
) -> dict:
    """The accuracy of sampling-importance-resampling: for each pool of ``pool * group`` samples
    of a view, weights ``L ** temperature`` (floored as the player floors them), ``group``
    samples drawn from the pool by weight (systematic resampling, a fixed offset per pool), each
    counting 1; the gain against the pool's first ``group`` samples, the ones ``pimc`` values."""
    g: list[float] = []
    distinct: list[float] = []
    size = pool * group
    for v, r in enumerate(rows):
        ls = logs(r)
        for a in range(0, len(ls) - size + 1, size):
            w = temper(ls[a : a + size], ESS_SHARE, temperature)
            step = sum(w.weights) / group
            u, acc, picked = step * ((v * 0.618034 + a * 0.414214) % 1.0), 0.0, []
            for i, x in enumerate(w.weights):
                acc += x
                while u < acc and len(picked) < group:
                    picked.append(a + i)
                    u += step
            picked += [a + size - 1] * (group - len(picked))
            distinct.append(len(set(picked)))
            for hits in r.hits:
                k_res = sum(hits[i] for i in picked)
                k_uni = sum(hits[a : a + group])
                g.append(math.log((k_res + 0.5) / (group + 1)) - math.log((k_uni + 0.5) / (group + 1)))
    m, lo, hi = interval(g)
    return {
        "gain": round(m, 5),
        "ci95": [round(lo, 5), round(hi, 5)],
        "cards": len(g),
        "distinct": summary(distinct, 2),
    }


def decision_cost(
    recs: Sequence[GameRecord], level: int, pools: Sequence[int], views: int, rule_pools: Sequence[int] = ()
) -> dict[str, Any]:
    """The decision time of ``ipimc:L`` (the plays' evidence, each pool; with ``rule_pools`` the
    rule model's too) beside ``pimc:L`` in one process, on the views of up to ``views`` play
    decisions with a choice of ``recs`` (every fourth play of seat 0, alternating the order of the
    players so neither warms the other's caches): the medians, p95s and their ratios."""
    players = (
        {"pimc": PimcPlayer(level)}
        | {f"ipimc_pool{p}": IpimcPlayer(level, pool=p, evidence="plays") for p in pools}
        | {f"ipimc_rule_pool{p}": IpimcPlayer(level, pool=p, evidence="plays", model=rule_model()) for p in rule_pools}
    )
    times: dict[str, list[float]] = {k: [] for k in players}
    n = 0
    for rec in recs:
        if rec.caller is None:
            continue
        for i in range(0, len([p for p in rec.plays if p.kind != 4]), 4):
            view = rec.view(0, i)
            if view.to_move != 0 or len(list(view.legal_moves())) < 2 or n >= views:
                continue
            n += 1
            order = list(players.items())
            for name, player in order if n % 2 else order[::-1]:
                t0 = time.perf_counter()
                player.analyse(view)
                times[name].append(time.perf_counter() - t0)
    out: dict[str, Any] = {"decisions": n, **{k: summary(v, 4) for k, v in times.items()}}
    base = out["pimc"]
    for k in players:
        if k != "pimc":
            out[k]["median_ratio"] = round(out[k]["median"] / base["median"], 3)
            out[k]["p95_ratio"] = round(out[k]["p95"] / base["p95"], 3)
    return out


RESAMPLED = (("rule", 1.0), ("rule", 0.3), ("ranks", 0.2), ("ranks", 0.05))
"""The resampling settings scored on the held-out records: the rule model at its own likelihood
(the best of the calibration's grid) and at 0.3, the shipped rank model at its best resampled
temperature (0.2) and at its shipped one (0.05)."""


def held_out_resampled(recs: Sequence[GameRecord], level: int, seed: int, samples: int, group: int) -> dict[str, Any]:
    """The accuracy of resampling (:func:`resampled_gains`, pools of 2 and 4 groups) on held-out
    records (``seed`` their sampler seeds, as in the report), for the settings of
    :data:`RESAMPLED`, with the shipped models (the rule model's call curve for every setting's
    calls)."""
    models = {"rule": rule_model(), "ranks": opponent_model(level)}
    rows = view_rows(recs, samples, seed, models)
    out: dict[str, Any] = {"views": len(rows), "samples": samples}
    for name, t in RESAMPLED:
        for pool in (2, 4):
            out[f"{name}@{t:g}/pool{pool}"] = resampled_gains(
                rows, lambda r, n=name: [a + b for a, b in zip(r.calls, r.plays[n], strict=True)], t, group, pool
            )
    return out


def held_out(recs: Sequence[GameRecord], models: dict[str, OpponentModel]) -> dict[str, Any]:
    """The mean log-likelihood per play decision of ``recs`` (nats) by kind under each model and
    uniform choice among the legal moves."""
    out: dict[str, dict[str, Any]] = {}
    for name, m in models.items():
        _, rows = record_rows(recs, m.policy, m.strength, m.order, m.candidates)
        for d in rows:
            by = out.setdefault(d.kind, {"decisions": 0, "uniform": []})
            by.setdefault(name, []).append(m.log_decision(d))
            if name == next(iter(models)):
                by["decisions"] += 1
                by["uniform"].append(-math.log(d.legal))
    return {
        k: {n: v if n == "decisions" else round(statistics.fmean(v), 4) for n, v in by.items()} for k, by in out.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "inference-model.json")
    parser.add_argument("--level", type=int, default=2, help="the pimc level modelled (default 2)")
    parser.add_argument("--fit-deals", type=int, default=None, help="self-play deals to fit on (300; quick 6)")
    parser.add_argument("--cal-deals", type=int, default=None, help="deals to calibrate on (40; quick 3)")
    parser.add_argument("--acc-deals", type=int, default=None, help="held-out deals of the report (20; quick 2)")
    parser.add_argument("--fit-seed", type=int, default=1911, help="match seed of the fitting records")
    parser.add_argument("--cal-seed", type=int, default=1912, help="match seed of the calibrating records")
    parser.add_argument("--acc-seed", type=int, default=1903, help="match seed of the held-out records")
    parser.add_argument("--samples", type=int, default=192, help="samples a view (192: 16 groups of 12)")
    parser.add_argument("--group", type=int, default=12, help="the player's samples a decision (12 at level 2)")
    parser.add_argument("--cost-views", type=int, default=60, help="views timed for the decision cost (60; 0: none)")
    parser.add_argument("--cache", type=Path, default=None, help="directory keeping the self-play records")
    parser.add_argument("--only-cost", action="store_true", help="only the decision cost (pools 1, 2, 4), into --out")
    parser.add_argument(
        "--only-resampled", action="store_true", help="only the held-out accuracy of resampling, into --out"
    )
    args = parser.parse_args(argv)
    if args.only_resampled:
        old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        recs = records(args.level, 2 if args.quick else 20, args.acc_seed, args.cache)
        old["held_out_resampled"] = {
            "environment": environment(),
            "seed": args.acc_seed,
            **held_out_resampled(recs, args.level, args.acc_seed, args.samples, args.group),
        }
        print(f"held-out resampled: {old['held_out_resampled']}", file=sys.stderr)
        print(f"saved {save_json(old, args.out)}", file=sys.stderr)
        return 0
    if args.only_cost:  # the held-out records, the cost of the pools the calibration scored
        old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else {}
        old.pop("environment", None)
        recs = records(args.level, 2 if args.quick else 20, args.acc_seed, args.cache)
        cost = decision_cost(recs, args.level, (1, 2, 4), args.cost_views, (4,))
        old["decision_cost_pools"] = {"seed": args.acc_seed, **cost}
        print(f"cost: {cost}", file=sys.stderr)
        print(f"saved {save_json(old, args.out)}", file=sys.stderr)
        return 0
    q = args.quick
    fit_deals = args.fit_deals if args.fit_deals is not None else (6 if q else 300)
    cal_deals = args.cal_deals if args.cal_deals is not None else (3 if q else 40)
    acc_deals = args.acc_deals if args.acc_deals is not None else (2 if q else 20)
    console = make_console()
    t0 = time.perf_counter()
    fit_recs = records(args.level, fit_deals, args.fit_seed, args.cache)
    cal_recs = records(args.level, cal_deals, args.cal_seed, args.cache)
    acc_recs = records(args.level, acc_deals, args.acc_seed, args.cache)
    cands = pimc_candidates(args.level)
    cand, cinfo = fit(fit_recs, rule_policy, hand_strength, None, cands)
    ranked, _ = fit(fit_recs, rule_policy, hand_strength, None, cands, ranks=True)
    earlier = dataclasses.replace(opponent_model(args.level, **EARLIER), candidates=cands)
    models = {"earlier": earlier, "candidates": cand, "ranks": ranked, "rule": rule_model()}
    data: dict[str, Any] = {
        "bench": "inference-model",
        "quick": q,
        "level": args.level,
        "records": {
            "fit": [args.fit_seed, len(fit_recs)],
            "calibrate": [args.cal_seed, len(cal_recs)],
            "held_out": [args.acc_seed, len(acc_recs)],
        },
        "fitted": {"candidates": cand.to_json(), "ranks": ranked.to_json(), "data": cinfo},
        "earlier": earlier.to_json(),
        "shipped": opponent_model(args.level).to_json(),
        "held_out_log_likelihood": {"seed": args.acc_seed, **held_out(acc_recs, models)},
    }
    console.print(f"fitted: {data['fitted']}\nheld out: {data['held_out_log_likelihood']}")
    cal = view_rows(cal_recs, args.samples, args.cal_seed, models)
    table: dict[str, Any] = {}
    for name in models:
        for t in TEMPERATURES:
            row = {}
            for label, grp in (("all", 0), (f"groups_of_{args.group}", args.group)):
                row[label] = gains(
                    cal, lambda r, n=name: [a + b for a, b in zip(r.calls, r.plays[n], strict=True)], t, grp
                )
            table[f"{name}@{t:g}"] = row
            console.print(
                f"  {name} T={t:g}: all {row['all']['gain']:+.5f}, groups {row[f'groups_of_{args.group}']['gain']:+.5f}"
            )
    data["calibration"] = {"seed": args.cal_seed, "views": len(cal), "samples": args.samples, "table": table}
    resample: dict[str, Any] = {}
    for name in ("ranks", "rule"):
        for pool in (2, 4):
            for t in (0.1, 0.2, 0.3, 0.5, 1.0):
                r = resampled_gains(
                    cal,
                    lambda r, n=name: [a + b for a, b in zip(r.calls, r.plays[n], strict=True)],
                    t,
                    args.group,
                    pool,
                )
                resample[f"{name}@{t:g}/pool{pool}"] = r
                console.print(f"  resampled {name} T={t:g} pool {pool}: {r['gain']:+.5f} {r['ci95']}")
    data["calibration"]["resampled"] = resample

    def best_of(family: str) -> str:
        keys = [k for k in table if k.split("@")[0] == family]
        return max(keys, key=lambda k: table[k][f"groups_of_{args.group}"]["gain"])

    # the player's model of pimc opponents is of the candidate family (the rule model is reported beside)
    best = max((best_of("candidates"), best_of("ranks")), key=lambda k: table[k][f"groups_of_{args.group}"]["gain"])
    data["calibration"]["best"] = best
    acc = view_rows(acc_recs, args.samples, args.acc_seed, models)
    name, t = best.split("@")
    report = {}
    rule_t = float(best_of("rule").split("@")[1])
    rows = (("earlier", "earlier", 1.0), ("best", name, float(t)), ("best_at_1", name, 1.0), ("rule", "rule", rule_t))
    for label, n, temp in rows:
        report[label] = {
            "model": n,
            "temperature": temp,
            **{
                lab: gains(acc, lambda r, n=n: [a + b for a, b in zip(r.calls, r.plays[n], strict=True)], temp, grp)
                for lab, grp in (("all", 0), (f"groups_of_{args.group}", args.group))
            },
        }
    data["held_out_accuracy"] = {"seed": args.acc_seed, "views": len(acc), "samples": args.samples, **report}
    if args.cost_views:
        data["decision_cost"] = {"seed": args.acc_seed, **decision_cost(acc_recs, args.level, (1, 2), args.cost_views)}
        console.print(f"cost: {data['decision_cost']}")
    data["seconds"] = round(time.perf_counter() - t0, 1)
    console.print(f"held-out accuracy: {report}")
    path = save_json(data, args.out)
    print(f"saved {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
