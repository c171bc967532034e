"""Inference benchmark: the opponent model's fit, its accuracy, and ipimc against pimc.

1. **fit**: self-play records of ``pimc:L`` (``--fit-deals`` deals from ``--fit-seed``), the
   candidate model and the rule model fitted by maximum likelihood on them
   (``train.opponent_fit.fit``) beside the parameters the player ships (``players.ipimc``);
2. **accuracy**: on held-out self-play records (``--acc-deals`` deals from ``--acc-seed``), the
   views of every seat after 1, 3, 5 and 7 tricks; ``--acc-samples`` exact uniform samples of
   each, weighted by each model; for every hidden card, the probability the samples give its
   true seat (counts smoothed by half a sample), weighted against uniform: the mean
   log-likelihood gain per hidden card (nats), with the effective sample sizes; and the
   held-out log-likelihood per play decision by kind (candidate model, rule model, uniform);
   ``--acc-models`` chooses among the candidate model, the rule model and the calls alone (the
   shipped player's play-phase weights);
3. **strength and cost**: ``ipimc:L`` (``ipimc:L:P`` with ``--pool``) against two ``pimc:L``,
   ``--deals`` deals × 3 rotations, every game beside its control (``pimc:L`` in ipimc's place,
   the same seeds: common random numbers); the paired difference a deal and the unpaired
   points, each with a t-based 95 % interval, the time of every decision, and where the games
   that differ first differ (the kind of ipimc's decision and the trick) with the points it
   made them worth; ``--evidence`` and ``--weigh-call`` set ipimc's options, ``--arms control``
   plays only the control games into the checkpoint (a later run with ``--arms ipimc``, then
   one with both arms to report, reuses them);
4. **tune** (only with ``--parts tune``): the candidate model's share off the candidates by
   accuracy on tuning records (``--tune-seed``), and the call curve's input (hand strength or
   the advice model) by held-out log-likelihood of the calls.

Run: ``python -m bench.inference [--level 2] [--deals 300] [--jobs 1] [--seed 0] [--quick]
[--checkpoint FILE]``; ``--pool P --skip fit,accuracy`` adds the strength of ``ipimc:L:P`` to
the results (a checkpoint's control games are reused); ``--ipimc SPEC`` plays that ipimc spec
(``ipimc:2:4c``: the carried pool) instead. ``--arms ipimc`` alone is a **timing run**: ipimc's
decision times beside those of the pimc players at its own tables, in one process, no control
games and no points. Results:
``bench/results/inference.json`` (or ``--out``).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import base_parser, make_console, ratio, save_json, summary
from lukfu_solver.analysis.model import predict
from lukfu_solver.cards import CardSet
from lukfu_solver.hidden.calls import call_deals
from lukfu_solver.hidden.inference import call_terms, rule_model, temper, weigh
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.match import GameTask, interval, iter_deal_seeds, play_game, run_match, seatings
from lukfu_solver.parallel import ordered_map
from lukfu_solver.players.ipimc import IpimcPlayer, opponent_model, pimc_candidates
from lukfu_solver.policy.calling import hand_facts, hand_strength, sigmoid
from lukfu_solver.policy.rule import rule_move as rule_policy
from lukfu_solver.policy.rule_fast import keep_order_fast as keep_order
from train.opponent_fit import fit, fit_call, record_rows


def selfplay(level: int, deals: int, seed: int, jobs: int) -> list[Any]:
    """The records of ``deals`` all-``pimc:level`` deals from ``seed``."""
    spec = f"pimc:{level}"
    m = run_match([spec, spec, spec], deals, seed=seed, jobs=jobs)
    return [g.record for g in m.games]


def accuracy(records: list[Any], samples: int, seed: int, model: Any = None, evidence: str = "plays") -> dict[str, Any]:
    """The mean log-likelihood gain per hidden card of the weighted samples over uniform; the
    weights by the other seats' calls and plays (``evidence`` ``plays``) or their calls alone
    (``calls``: the shipped ipimc player's play phase)."""
    model = model or opponent_model()
    gains: list[float] = []
    ess: list[float] = []
    raw: list[float] = []
    tempered = views = 0
    by_trick: dict[int, list[float]] = {}
    t0 = time.perf_counter()
    for k, rec in enumerate(records):
        if rec.caller is None:
            continue
        plays = [p for p in rec.plays if p.kind != 4]  # a final claim is not in a view
        for tricks in (1, 3, 5, 7):
            if 3 * tricks >= len(plays):
                break
            for seat in range(3):
                view = rec.view(seat, 3 * tricks)
                deals = make_sampler(view, seed * 1_000_003 + k * 31 + seat * 7 + tricks, exact=True).samples(samples)
                if evidence == "calls":
                    w = temper([call_terms(model, d.dealt(), view.caller, view.seat) for d in deals])
                else:
                    w = weigh(model, view, deals)
                views += 1
                ess.append(w.ess)
                raw.append(w.raw_ess)
                tempered += w.tempered
                dealt = [d.dealt() for d in deals]
                total = sum(w.weights)
                for c in range(36):
                    if not view.unseen >> c & 1:
                        continue
                    true = next(s for s in range(3) if rec.hands[s] >> c & 1)
                    hits = [1.0 if h[true] >> c & 1 else 0.0 for h in dealt]
                    g = card_gain(hits, w.weights, total)
                    gains.append(g)
                    by_trick.setdefault(tricks, []).append(g)
    m, lo, hi = interval(gains)
    return {
        "records": len(records),
        "views": views,
        "hidden_cards": len(gains),
        "samples_per_view": samples,
        "mean_gain_nats_per_card": round(m, 5),
        "ci95_cards": [round(lo, 5), round(hi, 5)],
        "note": "the interval treats cards as independent (cards of one view are not): a rough guide",
        "by_tricks_played": {str(t): round(statistics.fmean(v), 5) for t, v in sorted(by_trick.items())},
        "ess": summary(ess, 2),
        "raw_ess": summary(raw, 2),
        "tempered_views": tempered,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def card_gain(hits: list[float], weights: list[float], total: float) -> float:
    """The log-probability gain, weighted against uniform, that samples give a card's true seat:
    ``hits`` says which samples put it there; counts smoothed by half a sample."""
    pu = (sum(hits) + 0.5) / (len(hits) + 1)
    pw = (sum(x * y for x, y in zip(hits, weights, strict=True)) / total * len(hits) + 0.5) / (len(hits) + 1)
    return math.log(pw) - math.log(pu)


def call_accuracy(records: list[Any], samples: int, seed: int, model: Any) -> dict[str, Any]:
    """The accuracy of the weighted call (the shipped ipimc player's): at every call of seat 1 or 2
    after the earlier seats passed (passed-out deals too), ``samples`` deals as pimc's call
    valuation draws them, weighted by the likelihood of the earlier passes; for every card not
    in the seat's hand, the log-probability the samples give its true seat, weighted against
    uniform (counts smoothed by half a sample), as in :func:`accuracy`."""
    gains: list[float] = []
    ess: list[float] = []
    by_seat: dict[int, list[float]] = {}
    calls = 0
    for k, rec in enumerate(records):
        deals = [(h, 3) for h in rec.passed_out] + [(rec.hands, len(rec.calls))]
        for j, (hands, made) in enumerate(deals):
            for seat in range(1, made):
                drawn = call_deals(hands[seat], seat, samples, seed * 1_000_003 + k * 31 + j * 7 + seat)
                w = temper([call_terms(model, d, seat, seat) for d in drawn])
                calls += 1
                ess.append(w.ess)
                total = sum(w.weights)
                for c in range(36):
                    if hands[seat] >> c & 1:
                        continue
                    true = next(s for s in range(3) if hands[s] >> c & 1)
                    hits = [1.0 if d[true] >> c & 1 else 0.0 for d in drawn]
                    g = card_gain(hits, w.weights, total)
                    gains.append(g)
                    by_seat.setdefault(seat, []).append(g)
    m, lo, hi = interval(gains)
    return {
        "records": len(records),
        "calls": calls,
        "hidden_cards": len(gains),
        "samples_per_call": samples,
        "mean_gain_nats_per_card": round(m, 5),
        "ci95_cards": [round(lo, 5), round(hi, 5)],
        "by_seat": {str(s): round(statistics.fmean(v), 5) for s, v in sorted(by_seat.items())},
        "ess": summary(ess, 2),
    }


def held_out(records: list[Any], level: int) -> dict[str, Any]:
    """The mean log-likelihood per play decision (nats) of held-out records, by kind, under the
    shipped candidate model, the rule model and uniform choice among the legal moves."""
    cand, rule = opponent_model(level), rule_model()
    rows: dict[str, dict[str, list[float]]] = {}
    for name, m, kw in (("candidates", cand, {"candidates": cand.candidates}), ("rule", rule, {"order": rule.order})):
        _, plays = record_rows(records, rule_policy, hand_strength, **kw)  # type: ignore[arg-type]
        for d in plays:
            by = rows.setdefault(d.kind, {"candidates": [], "rule": [], "uniform": []})
            by[name].append(m.log_decision(d))
            if name == "rule":
                by["uniform"].append(-math.log(d.legal))
    return {
        k: {"decisions": len(v["rule"]), **{n: round(statistics.fmean(x), 4) for n, x in v.items() if x}}
        for k, v in rows.items()
    }


def tune(records: list[Any], fit_records: list[Any], level: int, samples: int, seed: int) -> dict[str, Any]:
    """The candidate model's share off the candidates chosen on tuning records: for each share,
    the model fitted on ``fit_records`` with it, and its accuracy on ``records`` (beside the
    rule model's)."""
    out: dict[str, Any] = {"seed": seed, "records": len(records)}
    acc = accuracy(records, samples, seed, rule_model())
    out["rule_model"] = {"gain": acc["mean_gain_nats_per_card"], "raw_ess_median": acc["raw_ess"]["median"]}
    for off in (0.01, 0.1, 0.3, 0.6):
        m, _ = fit(fit_records, rule_policy, hand_strength, None, pimc_candidates(level), off)
        acc = accuracy(records, samples, seed, m)
        out[f"off_{off}"] = {
            "eps": m.to_json()["eps"],
            "gain": acc["mean_gain_nats_per_card"],
            "raw_ess_median": acc["raw_ess"]["median"],
        }
    return out


def call_models(records: list[Any], fit_records: list[Any]) -> dict[str, Any]:
    """The call curve's input compared on held-out calls: the rule player's hand strength (the
    shipped model) against the learned advice model's expected points of *play* minus *pass*
    for the seat (``analysis.model``), each through a logistic curve fitted by maximum
    likelihood on ``fit_records``; the mean log-likelihood per call (nats), beside the base rate."""

    def rows(recs: list[Any]) -> list[tuple[CardSet, int, bool]]:
        out = [(h[s], s, False) for r in recs for h in r.passed_out for s in range(3)]
        return out + [(r.hands[s], s, c == "play") for r in recs for s, c in enumerate(r.calls)]

    def gap(hand: CardSet, seat: int) -> float:
        m = predict(hand_facts(hand), seat)
        return 0.0 if m is None else m.play - m.pass_

    def strength_of(hand: CardSet, seat: int) -> float:
        return hand_strength(hand)

    train, test = rows(fit_records), rows(records)
    rate = sum(y for *_, y in train) / len(train)
    out: dict[str, Any] = {
        "calls_fit": len(train),
        "calls_held_out": len(test),
        "base_rate": round(statistics.fmean(math.log(rate if y else 1 - rate) for *_, y in test), 4),
    }
    for name, f in (("hand_strength", strength_of), ("advice_gap", gap)):
        slope, threshold = fit_call([(f(h, s), y) for h, s, y in train])
        ll = [
            math.log(max(1e-300, p if y else 1 - p))
            for h, s, y in test
            for p in [sigmoid(slope * (f(h, s) - threshold))]
        ]
        out[name] = {
            "slope": round(slope, 4),
            "threshold": round(threshold, 4),
            "held_out": round(statistics.fmean(ll), 4),
        }
    return out


def strength(
    level: int,
    deals: int,
    seed: int,
    jobs: int,
    pool: int = 1,
    checkpoint: Path | None = None,
    share: float | None = None,
    arms: tuple[str, ...] = ("ipimc", "control"),
    options: dict[str, Any] | None = None,
    part: tuple[int, int] = (0, 1),
    spec: str | None = None,
) -> dict[str, Any] | None:
    """ipimc:L (ipimc:L:P with a pool) against two pimc:L players, 3 rotations a deal, each game
    beside its **control**: the same deal, seating and player seeds with ``pimc:L`` in ipimc's
    place. ipimc draws exactly the samples pimc draws at the same decision (common random
    numbers: the same seed and view give the same sampler seed), so a pair differs only from the
    first decision where the weights change the choice. Reported: ipimc's points a deal (mean of
    its rotations; by the zero sum the difference to the all-pimc table in expectation) and the
    **paired difference** to its control (the same estimand, less noise), each with a t-based 95 %
    interval; the decision times of ipimc, of the pimc players at its tables and of the control
    in its place. ``checkpoint``: a JSON-lines file of the games played, read back on a restart
    (its control games serve any ipimc spec of the same level and seed). ``share``: ipimc's
    effective sample size floor as a share of the samples instead of ``ESS_SHARE`` (one process
    only: it is set on the player class), as are the other ``options`` of ``IpimcPlayer``
    (``evidence``, ``weigh_call``, ``model``: ``"rule"`` for the rule model). ``arms``: the arms
    to play (only ``control``: the control games into the checkpoint, for a later run; nothing is
    reported then). ``part`` ``(k, n)``:
    play only the deals whose index is ``k`` modulo ``n`` (several processes filling one
    checkpoint; the report needs every game, so only ``(0, 1)`` reports). ``spec``: ipimc's player
    spec instead of ``ipimc:L[:P]`` (e.g. ``ipimc:2:4c``, the carried pool: a spec needs no
    options, so it plays the same for any ``jobs``)."""
    t0 = time.perf_counter()
    last = [0.0]
    options = {**({"share": share} if share is not None else {}), **(options or {})}
    if options:
        if jobs != 1:
            raise SystemExit("--share, --evidence, --weigh-call, --model and --carry need --jobs 1")
        player_options = {**options, **({"model": rule_model()} if options.get("model") == "rule" else {})}
        IpimcPlayer.__init__.__kwdefaults__.update(player_options)  # type: ignore[union-attr]
    ip_spec = spec or f"ipimc:{level}" + (f":{pool}" if pool > 1 else "")
    pm_spec = f"pimc:{level}"
    specs = (ip_spec, pm_spec, pm_spec)
    label = [
        ip_spec + "".join(f"@{k}={v:g}" if k == "share" else f"@{k}={v}" for k, v in options.items()),
        pm_spec,
        pm_spec,
    ]
    control = (pm_spec, pm_spec, pm_spec)
    seats = seatings(specs)
    done: dict[tuple[int, int, str], dict[str, Any]] = {}
    if checkpoint is not None and checkpoint.exists():
        for line in checkpoint.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            # a control game is a pure function of its pimc specs, deal and seating: any run's will do
            same = row.get("specs") == label or (row.get("arm") == "control" and row.get("specs")[1] == pm_spec)
            if same and row.get("seed") == seed:
                done[(row["deal"], row["k"], row["arm"])] = row
    reused = sum(1 for key in done if key[2] == "control")
    tasks = [
        (arm, GameTask(sp, d, ds, k, s))
        for d, ds in enumerate(iter_deal_seeds(seed, deals))
        for k, s in enumerate(seats)
        for arm, sp in (("ipimc", specs), ("control", control))
        if arm in arms and (d, k, arm) not in done and d % part[1] == part[0]
    ]
    total = len(arms) * deals * len(seats)
    out = checkpoint.open("a", encoding="utf-8") if checkpoint is not None else None
    try:
        for (arm, task), g in zip(tasks, ordered_map(play_game, [t for _, t in tasks], jobs, chunksize=1), strict=True):
            row = {
                "specs": label if arm == "ipimc" else list(control),
                "seed": seed,
                "deal": task.deal,
                "k": task.seating_index,
                "arm": arm,
                "points": g.points[0],
                "called": g.called[0],
                "calls": list(g.record.calls),
                "plays": [list(p) for p in g.record.plays],
                "seconds": {str(place): s for place, s in g.seconds.items()},
            }
            done[(task.deal, task.seating_index, arm)] = row
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
            now = time.perf_counter()
            if now - last[0] > 30 or len(done) == total:
                last[0] = now
                print(f"  strength: {len(done)}/{total} games, {now - t0:,.0f} s", file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    if "ipimc" not in arms or part != (0, 1):
        return None
    rot = range(len(seats))
    if "control" not in arms:  # a timing run: ipimc's decision times beside the pimc players at its tables
        rows = [done[(d, k, "ipimc")] for d in range(deals) for k in rot]
        ip_s = summary([s for r in rows for s in r["seconds"].get("0", [])], 4)
        pm_s = summary([s for r in rows for p in ("1", "2") for s in r["seconds"].get(p, [])], 4)
        seconds = {"ipimc": ip_s, "pimc": pm_s, "median_ratio": ratio(ip_s["median"], pm_s["median"], 3)}
        seconds |= {"p95_ratio": ratio(ip_s["p95"], pm_s["p95"], 3), "by_decision": by_decision(rows, 30)}
        return {"specs": label, "deals": deals, "games": len(rows), "decision_seconds": seconds}
    treated = [statistics.fmean(done[(d, k, "ipimc")]["points"] for k in rot) for d in range(deals)]
    paired = [
        statistics.fmean(done[(d, k, "ipimc")]["points"] - done[(d, k, "control")]["points"] for k in rot)
        for d in range(deals)
    ]
    changed = sum(done[(d, k, "ipimc")]["plays"] != done[(d, k, "control")]["plays"] for d in range(deals) for k in rot)
    where = first_differences([(done[(d, k, "ipimc")], done[(d, k, "control")]) for d in range(deals) for k in rot])
    mean, lo, hi = interval(treated)
    pm_, plo, phi = interval(paired)
    rows = [done[(d, k, "ipimc")] for d in range(deals) for k in rot]
    ctl = [done[(d, k, "control")] for d in range(deals) for k in rot]
    ip = [s for r in rows for s in r["seconds"].get("0", [])]
    pm = [s for r in rows for p in ("1", "2") for s in r["seconds"].get(p, [])]
    cp = [s for r in ctl for s in r["seconds"].get("0", [])]
    ip_s, pm_s, cp_s = summary(ip, 4), summary(pm, 4), summary(cp, 4)
    return {
        "specs": label,
        "deals": deals,
        "games": len(rows),
        "control_games": len(ctl),
        "control_games_from_checkpoint": reused,
        "ipimc_points_per_deal": round(mean, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "excludes_zero": lo > 0 or hi < 0,
        "paired_difference_per_deal": round(pm_, 4),
        "paired_ci95": [round(plo, 4), round(phi, 4)],
        "paired_excludes_zero": plo > 0 or phi < 0,
        "games_changed": changed,
        "deals_nonzero": sum(1 for d in paired if d),
        "first_difference": where,
        "decision_seconds": {
            "ipimc": ip_s,
            "pimc": pm_s,
            "control_in_ipimc_place": cp_s,
            "median_ratio": ratio(ip_s["median"], pm_s["median"], 3),
            "p95_ratio": ratio(ip_s["p95"], pm_s["p95"], 3),
            "median_ratio_to_control": ratio(ip_s["median"], cp_s["median"], 3),
            "p95_ratio_to_control": ratio(ip_s["p95"], cp_s["p95"], 3),
            **({"note": "control games from an earlier run: the ratios to the control compare runs"} if reused else {}),
            "by_decision": by_decision(rows),
        },
        "seconds": round(time.perf_counter() - t0, 1),
    }


def by_decision(rows: list[dict[str, Any]], least: int = 100) -> dict[str, Any]:
    """The median decision time of ipimc and of the pimc players at its tables by the index of
    the decision in a seat's game (0 its call), where each has at least ``least`` decisions: the
    cost of the likelihood grows with the history it replays."""
    ip: dict[int, list[float]] = {}
    pm: dict[int, list[float]] = {}
    for r in rows:
        for place, times in r["seconds"].items():
            for i, s in enumerate(times):
                (ip if place == "0" else pm).setdefault(i, []).append(s)
    out: dict[str, Any] = {}
    for i in sorted(ip):
        if len(ip[i]) >= least and len(pm.get(i, ())) >= least:
            a, b = statistics.median(ip[i]), statistics.median(pm[i])
            out[str(i)] = {"ipimc": round(a, 4), "pimc": round(b, 4), "ratio": ratio(a, b, 2), "n": len(ip[i])}
    return out


def first_differences(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """Where the games that differ from their controls first differ, and what it was worth: for
    each kind of ipimc's first different decision (``call`` when a call differed; else by the
    play it made: ``lead``, ``follow``, ``discard``, ``claim``) and for each trick of it, the
    games and their points minus the control's (sum and mean)."""
    kinds = {0: "lead", 1: "lead", 2: "lead", 3: "discard", 4: "claim"}  # a follow is told by its place
    by_kind: dict[str, list[float]] = {}
    by_trick: dict[str, list[float]] = {}
    for ip, ct in pairs:
        if ip["plays"] == ct["plays"] and ip.get("calls") == ct.get("calls"):
            continue
        diff = ip["points"] - ct["points"]
        if ip.get("calls") is not None and ct.get("calls") is not None and ip["calls"] != ct["calls"]:
            by_kind.setdefault("call", []).append(diff)
            continue
        pairs_ = zip(ip["plays"], ct["plays"], strict=False)
        i = next((j for j, (a, b) in enumerate(pairs_) if a != b), min(len(ip["plays"]), len(ct["plays"])))
        if i >= len(ip["plays"]):
            continue
        kind = kinds[ip["plays"][i][0]]
        if kind == "lead" and i % 3:
            kind = "follow"
        by_kind.setdefault(kind, []).append(diff)
        by_trick.setdefault(str(i // 3 + 1), []).append(diff)

    def table(groups: dict[str, list[float]]) -> dict[str, Any]:
        return {
            k: {"games": len(v), "points_sum": round(sum(v), 2), "mean": round(statistics.fmean(v), 4)}
            for k, v in sorted(groups.items())
        }

    return {"by_kind": table(by_kind), "by_trick": table(by_trick)}


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "inference.json")
    parser.add_argument("--level", type=int, default=2, help="pimc/ipimc level (default 2)")
    parser.add_argument("--deals", type=int, default=None, help="strength deals (300; quick 4)")
    parser.add_argument("--fit-deals", type=int, default=None, help="self-play deals to fit on (60; quick 3)")
    parser.add_argument("--acc-deals", type=int, default=None, help="held-out self-play deals (20; quick 2)")
    parser.add_argument("--acc-samples", type=int, default=200, help="samples a view for the accuracy (200)")
    parser.add_argument("--fit-seed", type=int, default=1901, help="match seed of the fitting records")
    parser.add_argument("--acc-seed", type=int, default=1903, help="match seed of the held-out records")
    parser.add_argument("--seed", type=int, default=0, help="match seed of the strength run (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--pool", type=int, default=1, help="ipimc's pool P (ipimc:L:P; default 1: weighted)")
    parser.add_argument(
        "--checkpoint", type=Path, default=None, help="JSON-lines file of the strength games (resumable)"
    )
    parser.add_argument("--share", type=float, default=None, help="ipimc's floor share (default ESS_SHARE; jobs 1)")
    parser.add_argument("--evidence", default=None, help="ipimc's play-phase evidence: plays, calls, none (jobs 1)")
    parser.add_argument("--weigh-call", default=None, choices=("yes", "no"), help="ipimc weighs its call (jobs 1)")
    parser.add_argument("--arms", default="ipimc,control", help="strength arms to play (control: only the controls)")
    parser.add_argument("--carry", default=None, choices=("yes", "no"), help="ipimc carries its pool (jobs 1)")
    parser.add_argument("--model", default=None, choices=("rule",), help="ipimc's play model: the rule model (jobs 1)")
    parser.add_argument(
        "--ipimc",
        default=None,
        help="ipimc's spec instead of ipimc:L[:P] (e.g. ipimc:2:4c: the carried pool; any jobs)",
    )
    parser.add_argument("--part", default="0/1", help="K/N: play only the deals K modulo N into the checkpoint")
    parser.add_argument(
        "--acc-models", default="candidates,rule,calls", help="accuracy of: candidates, rule, calls (the calls alone)"
    )
    parser.add_argument("--key", default=None, help="the results key of the strength part (default by the options)")
    parser.add_argument("--parts", default="", help="optional parts to run as well: tune")
    parser.add_argument("--tune-seed", type=int, default=1902, help="match seed of the tuning records")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: fit, accuracy, strength")
    args = parser.parse_args(argv)
    deals = args.deals if args.deals is not None else (4 if args.quick else 300)
    fit_deals = args.fit_deals if args.fit_deals is not None else (3 if args.quick else 60)
    acc_deals = args.acc_deals if args.acc_deals is not None else (2 if args.quick else 20)
    skip = set(filter(None, args.skip.split(",")))
    parts = set(filter(None, args.parts.split(",")))
    tune_deals = 3 if args.quick else 16
    console = make_console()
    data: dict[str, Any] = {"bench": "inference", "quick": args.quick, "level": args.level, "jobs": args.jobs}
    if (skip or parts) and args.out.exists():  # a partial run updates the parts it ran
        old = json.loads(args.out.read_text(encoding="utf-8"))
        earlier = old.pop("environments_of_earlier_parts", [])
        earlier += [e for e in (old.pop("environment_of_earlier_parts", None), old.pop("environment", None)) if e]
        old["environments_of_earlier_parts"] = earlier  # every earlier run's, oldest first
        data = {**old, **data}
    if "fit" not in skip:
        t0 = time.perf_counter()
        recs = selfplay(args.level, fit_deals, args.fit_seed, args.jobs)
        model, info = fit(recs, rule_policy, hand_strength, None, pimc_candidates(args.level))
        rmodel, rinfo = fit(recs, rule_policy, hand_strength, keep_order)
        data["fit"] = {
            "records": len(recs),
            "seed": args.fit_seed,
            "fitted": model.to_json(),
            "shipped": opponent_model(args.level).to_json(),
            "data": info,
            "rule_model": {"fitted": rmodel.to_json(), "shipped": rule_model().to_json(), "data": rinfo},
            "seconds": round(time.perf_counter() - t0, 1),
        }
        console.print(f"fit on {len(recs)} records: {model.to_json()} {info}")
    if "tune" in parts:
        recs = selfplay(args.level, tune_deals, args.tune_seed, args.jobs)
        fit_recs = selfplay(args.level, fit_deals, args.fit_seed, args.jobs)
        data["tune"] = tune(recs, fit_recs, args.level, args.acc_samples, args.tune_seed)
        data["call_models"] = {"seed": args.tune_seed, **call_models(recs, fit_recs)}
        console.print(f"tune: {data['tune']}")
    acc_models = set(args.acc_models.split(","))
    if "accuracy" not in skip:
        recs = selfplay(args.level, acc_deals, args.acc_seed, args.jobs)
        if "candidates" in acc_models:
            acc = accuracy(recs, args.acc_samples, args.acc_seed, opponent_model(args.level))
            data["accuracy"] = {"seed": args.acc_seed, **acc}
            data["held_out_log_likelihood"] = {"seed": args.acc_seed, **held_out(recs, args.level)}
            console.print(f"accuracy: {acc} {data['held_out_log_likelihood']}")
        if "rule" in acc_models:
            data["accuracy_rule_model"] = accuracy(recs, args.acc_samples, args.acc_seed, rule_model())
        if "calls" in acc_models:
            acc = accuracy(recs, args.acc_samples, args.acc_seed, opponent_model(args.level), "calls")
            data["accuracy_calls_only"] = {"seed": args.acc_seed, **acc}
            console.print(f"accuracy, the calls alone: {acc}")
            acc = call_accuracy(recs, args.acc_samples, args.acc_seed, opponent_model(args.level))
            data["accuracy_weighted_call"] = {"seed": args.acc_seed, **acc}
            console.print(f"accuracy of the weighted call: {acc}")
    if "strength" not in skip:
        options: dict[str, Any] = {}
        if args.evidence is not None:
            options["evidence"] = args.evidence
        if args.weigh_call is not None:
            options["weigh_call"] = args.weigh_call == "yes"
        if args.model is not None:
            options["model"] = args.model
        if args.carry is not None:
            options["carry"] = args.carry == "yes"
        arms = tuple(a for a in ("ipimc", "control") if a in args.arms.split(","))
        k, n = (int(x) for x in args.part.split("/"))
        st = strength(
            args.level,
            deals,
            args.seed,
            args.jobs,
            args.pool,
            args.checkpoint,
            args.share,
            arms,
            options,
            (k, n),
            args.ipimc,
        )
        if st is None:
            print("games played into the checkpoint (nothing to report)", file=sys.stderr)
            return 0
        key = "strength" if args.pool == 1 else f"strength_pool{args.pool}"
        key += f"_{args.ipimc.replace(':', '_')}" if args.ipimc else ""
        key += f"_share{args.share:g}" if args.share is not None else ""
        key += "".join(f"_{k}_{v}" for k, v in options.items())
        key = args.key or key
        spec = data.get(key, {}).get("spec") if isinstance(data.get(key), dict) else None
        data[key] = {
            **({"spec": spec} if spec is not None else {}),  # a spec written before the run stays first
            "seed": args.seed,
            "share": args.share,
            **({"ipimc": args.ipimc} if args.ipimc else {}),
            **options,
            **st,
        }
        console.print(f"strength: {st}")
    path = save_json(data, args.out)
    print(f"saved {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
