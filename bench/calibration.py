"""Calibration of the call's values: what the deals brought against what the advice predicted.

At every decision to call or pass of a seat (the tester, sitting in each place of each deal in
turn) against two opponents of one strength (``easy``, ``medium``, ``strong``:
``players.STRENGTHS``, each engine seeded from the deal), the advice is asked for the tester's
hand (:data:`ADVICE`: ``advise``'s own stopping rule, a node limit on every solve, its sampled
deals capped instead of timed, so the benchmark is the same on any machine), and the deal is then
played out twice from that decision: with the tester calling, and with it passing (the later
seats decide by their engines; nobody calling is a redeal: 0, R3). The tester plays as the
``strong`` engine. A decision where an earlier seat called is not one (the tester is never
asked): nothing is counted.

Reported for each opponent strength: over the **calls** (the decisions where the calibrated
advice says play, what a player following it calls) the mean of realized minus predicted points,
with its standard error, calibrated (what ``advise --against A`` shows: the library's own
``calibrated``, which keeps a value the sampled deals prove certain: each row keeps their range)
and uncorrected; a
reliability table by decile of the calibrated prediction over the calls, with a chi-square of the
deciles' biases in units of their standard errors (with about 100 calls a decile one standard
error is about 0.4 points, so a decile's bias says little alone); what following the calibrated
advice brings over PIMC's own on the same decisions; how often values with no bias at all would
meet the goal with as many calls; and the same means over every decision for play and, at seats 0
and 1, for pass. The goal: |bias| at most 0.2 points (0.3 against ``strong``) and at most 0.5 in
every decile with 50 calls or more.

The match seeds here are apart from those the correction was fitted on (``train/calibration.py``,
``FIT_PLAN``); :func:`decisions` is shared with the trainer, so both see the same kind of deals.

Run: ``python -m bench.calibration [--against easy,medium,strong] [--deals 4000,4000,400]
[--rows FILE] [--out FILE]``. With ``--rows``, every row is appended to a JSON-lines file as it
comes, and a rerun goes on where the file stops; ``--report-only`` plays nothing and reports the
whole deals in ``--rows`` (one process an opponent strength side by side, each with its own rows
file, then one report of the files joined). Results: ``bench/results/calibration.json``.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import base_parser, save_json
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.calibration import AGAINST, calibrated, correction
from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, DECIDE_MIN, DECIDE_SE, DECIDE_Z
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.calls import Budget
from lukfu_solver.hidden.pimc import ChoiceEstimate, SolveLimits
from lukfu_solver.match import iter_deal_seeds
from lukfu_solver.players import Player, make_player
from lukfu_solver.plays import Play
from lukfu_solver.view import SeatView

EVAL_SEEDS = {"easy": 5401, "medium": 5402, "strong": 5403}
"""The match seeds of the evaluation (none is a seed the correction was fitted on)."""
DEALS = {"easy": 4000, "medium": 4000, "strong": 400}
"""Deals a run, fixed before it (each with the tester in its 3 places, about two decisions a deal):
against ``strong`` 300 calls or more; against ``easy`` and ``medium`` the 4,800 or so calls a
decile test needs to pass nine times in ten when the values are right, some 6 core-hours each,
gathered in pieces (``--rows``) and reported at any whole deal (``--report-only``)."""
ADVICE = (64, Budget(None, DECIDE_Z, DECIDE_MIN, precision=DECIDE_SE), SolveLimits(ADVICE_MAX_NODES))
"""The advice asked at each decision: at most 64 sampled deals, ``advise``'s sequential test and
precision, 16,000,000 nodes a solve (its default limit)."""
TESTER = "strong"
GOAL_BIAS = {"easy": 0.2, "medium": 0.2, "strong": 0.3}
GOAL_DECILE = 0.5
DECILE_MIN = 50


class Stop(Exception):
    """A game of the benchmark ends here: ``why`` is ``asked`` (the tester's decision came),
    ``not asked`` (an earlier seat called), or ``redeal`` (all three passed)."""

    def __init__(self, why: str, view: SeatView | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.view = view


class Table:
    """The three players of one game of the benchmark, each wrapped: the tester answers the call
    as ``force`` says (None: stop there, with its view), and the game stops where it no longer
    tells anything (an earlier seat called; a redeal)."""

    def __init__(self, players: list[Player], tester: int, force: str | None) -> None:
        self.players, self.tester, self.force = players, tester, force
        self.asked = False
        self.deals = 0

    def seat(self, person: int) -> Player:
        table = self

        class Wrapped:
            name = "tester" if person == table.tester else f"p{person}"

            def __call__(self, view: SeatView) -> Play | str:
                if view.caller is None:
                    if view.seat == 0 and not view.calls:
                        table.deals += 1
                        if table.deals > 1:
                            raise Stop("redeal")
                    if person == table.tester:
                        table.asked = True
                        if table.force is None:
                            raise Stop("asked", view)
                        return table.force
                elif not table.asked:
                    raise Stop("not asked")
                return table.players[person](view)

        return Wrapped()


def players_for(deal_seed: int, tester: int, against: str) -> list[Player]:
    """The players of a game, seeded from the deal and the tester's place."""
    out = []
    for person in range(3):
        seed = random.Random(f"calibration|{deal_seed}|{tester}|{person}").getrandbits(32)
        spec = TESTER if person == tester else against
        out.append(make_player(spec, seed))
    return out


def realized(deal_seed: int, tester: int, against: str, force: str) -> int:
    """The tester's points when it answers ``force`` (a redeal: 0)."""
    table = Table(players_for(deal_seed, tester, against), tester, force)
    try:
        rec = play_deal([table.seat(p) for p in range(3)], deal_seed)
    except Stop as stop:
        assert stop.why == "redeal", stop.why
        return 0
    assert rec.players is not None and rec.outcome is not None
    return rec.outcome.points[rec.players.index("tester")]


def decisions(against: str, deals: int, seed: int, start: int = 0) -> Iterator[dict[str, Any]]:
    """Every decision of the tester against ``against`` over deals ``start`` to ``deals - 1`` of
    the match seed ``seed`` (each deal with the tester in each place), with the advice's values,
    the range its sampled deals span (whether they prove the value certain:
    :func:`~lukfu_solver.analysis.calibration.kept_if_certain`) and the points of calling and of
    passing."""
    samples, budget, limits = ADVICE
    for d, deal_seed in enumerate(iter_deal_seeds(seed, deals)):
        if d < start:
            continue
        for tester in range(3):
            table = Table(players_for(deal_seed, tester, against), tester, None)
            try:
                play_deal([table.seat(p) for p in range(3)], deal_seed)
                raise AssertionError("a game of the benchmark always stops")
            except Stop as stop:
                if stop.why != "asked":
                    continue
                view = stop.view
            assert view is not None
            adv = advise(view.hand, view.seat, samples, deal_seed, 1, limits, budget=budget, against=None)
            yield {
                "against": against,
                "deal": d,
                "deal_seed": deal_seed,
                "tester": tester,
                "seat": view.seat,
                "raw_play": round(adv.play.mean, 4),
                "raw_pass": round(adv.pass_.mean, 4),
                "play_se": round(adv.play.stderr, 4),
                "pass_se": round(adv.pass_.stderr, 4),
                "play_range": _span(adv.play),
                "pass_range": _span(adv.pass_),
                "real_play": realized(deal_seed, tester, against, "play"),
                "real_pass": realized(deal_seed, tester, against, "pass"),
            }


def _span(estimate: ChoiceEstimate) -> list[float] | None:
    """``[low, high]``: the estimate's sample values and its mean (None: no values)."""
    if not estimate.values:
        return None
    return [round(min(*estimate.values, estimate.mean), 4), round(max(*estimate.values, estimate.mean), 4)]


def collect(against: str, deals: int, seed: int, stream: Path | None = None) -> tuple[list[dict[str, Any]], float]:
    """:func:`decisions` as a list, with a progress line a minute on stderr, and the wall time.

    With ``stream`` (a JSON-lines file), each row is also appended there as it comes, and the rows
    of every whole deal already there are kept and not played again: a run stopped at any time
    goes on where it stopped."""
    t0 = last = time.perf_counter()
    rows: list[dict[str, Any]] = []
    start = 0
    if stream is not None:
        rows, start = _resume(stream, against, seed)
    out = stream.open("a", encoding="utf-8") if stream is not None else None
    for row in decisions(against, deals, seed, start):
        rows.append(row)
        if out is not None:
            out.write(json.dumps({**row, "seed": seed}) + "\n")
            out.flush()
        now = time.perf_counter()
        if now - last > 60:
            last = now
            print(f"  against {against}: deal {row['deal']}/{deals}, {len(rows)} decisions, {now - t0:,.0f} s", file=sys.stderr, flush=True)
    if out is not None:
        out.write(json.dumps({"against": against, "seed": seed, "done": deals}) + "\n")
        out.close()
    return rows, time.perf_counter() - t0


def _read_stream(stream: Path, against: str, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """Every line of ``stream``; the rows of ``against`` and ``seed`` in it (without their seed);
    the deal counts of the runs of them that finished."""
    lines = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines() if line.strip()]
    mine = [r for r in lines if r.get("against") == against and r.get("seed") == seed]
    rows = [{k: v for k, v in r.items() if k != "seed"} for r in mine if "deal" in r]
    return lines, rows, [r["done"] for r in mine if "done" in r]


def _resume(stream: Path, against: str, seed: int) -> tuple[list[dict[str, Any]], int]:
    """The rows of ``against`` and ``seed`` in ``stream`` up to its last whole deal, and the deal to
    start from: after a finished run, the deals it finished; else the last deal seen, which may be
    cut short: it is played again, its rows dropped, and the file rewritten without them."""
    if not stream.exists():
        return [], 0
    lines, rows, finished = _read_stream(stream, against, seed)
    if finished and not any(r["deal"] >= finished[-1] for r in rows):
        return rows, finished[-1]
    if not rows:
        return [], 0
    last = max(r["deal"] for r in rows)
    keep = [r for r in lines if not (r.get("against") == against and r.get("seed") == seed and r.get("deal") == last)]
    stream.write_text("".join(json.dumps(r) + "\n" for r in keep), encoding="utf-8")
    return [r for r in rows if r["deal"] != last], last


def bias(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """Mean of realized - predicted over ``(predicted, realized)`` pairs, its standard error, n."""
    gaps = [r - p for p, r in pairs]
    n = len(gaps)
    return {
        "n": n,
        "mean_predicted": round(statistics.fmean(p for p, _ in pairs), 3) if n else None,
        "mean_realized": round(statistics.fmean(r for _, r in pairs), 3) if n else None,
        "bias": round(statistics.fmean(gaps), 3) if n else None,
        "se": round(statistics.stdev(gaps) / math.sqrt(n), 3) if n > 1 else None,
    }


def chi2_sf(x: float, df: int) -> float:
    """The chance that a chi-square of ``df`` degrees of freedom exceeds ``x`` (Wilson and
    Hilferty's normal approximation): whether the deciles' biases, each in units of its standard
    error, are more than noise.

    >>> round(chi2_sf(10.0, 10), 2)
    0.44
    """
    if df <= 0:
        return 1.0
    k = 2 / (9 * df)
    z = ((x / df) ** (1 / 3) - (1 - k)) / math.sqrt(k)
    return 0.5 * math.erfc(z / math.sqrt(2))


def deciles(pairs: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """The reliability table: the pairs in ten groups by decile of the prediction, each group's
    range, mean prediction, mean realized, bias and its standard error."""
    ranked = sorted(pairs)
    n = len(ranked)
    out = []
    for k in range(10):
        group = ranked[k * n // 10 : (k + 1) * n // 10]
        if not group:
            continue
        row = bias(group)
        row["from"], row["to"] = round(group[0][0], 3), round(group[-1][0], 3)
        out.append({"decile": k + 1, **row})
    return out


def with_calibration(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with the calibrated values of the shipped correction (``play``, ``pass``) and the
    calibrated advice's answer (``call``): what ``advise --against`` shows, by the library's own
    :func:`~lukfu_solver.analysis.calibration.calibrated`, a certain value kept (a row that keeps
    no range of its sampled deals gets the fitted curves alone)."""
    out = []
    for r in rows:
        if r.get("play_range") and r.get("pass_range"):
            play_e = ChoiceEstimate("play", r["raw_play"], r["play_se"], tuple(r["play_range"]))
            pass_e = ChoiceEstimate("pass", r["raw_pass"], r["pass_se"], tuple(r["pass_range"]))
            play_c, pass_c, _ = calibrated(play_e, pass_e, 0.0, r["seat"], r["against"])
            play, pass_ = play_c.mean, pass_c.mean
        else:
            c = correction(r["against"], r["seat"])
            play, pass_ = c.play(r["raw_play"]), c.pass_(r["raw_pass"])
        out.append({**r, "play": play, "pass": pass_, "call": play > pass_})
    return out


def report(against: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The calibration against one opponent strength: the calls (calibrated and uncorrected),
    their deciles, every decision's play and pass, and whether the goal is met."""
    rows = with_calibration(rows)
    calls = [r for r in rows if r["call"]]
    calibrated = [(r["play"], r["real_play"]) for r in calls]
    table = deciles(calibrated)
    overall = bias(calibrated)
    worst = max((abs(d["bias"]) for d in table if d["n"] >= DECILE_MIN), default=None)
    z = [d["bias"] / d["se"] for d in table if d["se"]]
    chance = chance_if_calibrated(overall, table, GOAL_BIAS[against])
    met = (
        overall["bias"] is not None
        and abs(overall["bias"]) <= GOAL_BIAS[against]
        and (worst is None or worst <= GOAL_DECILE)
    )
    passes = [r for r in rows if r["seat"] != 2]
    by_seat = {
        str(s): {
            "play": bias([(r["play"], r["real_play"]) for r in rows if r["seat"] == s]),
            "pass": bias([(r["pass"], r["real_pass"]) for r in rows if r["seat"] == s]) if s != 2 else None,
        }
        for s in range(3)
    }
    return {
        "against": against,
        "decisions": len(rows),
        "calls": overall,
        "calls_uncorrected": bias([(r["raw_play"], r["real_play"]) for r in calls]),
        "deciles": table,
        "play": bias([(r["play"], r["real_play"]) for r in rows]),
        "play_uncorrected": bias([(r["raw_play"], r["real_play"]) for r in rows]),
        "play_deciles": deciles([(r["play"], r["real_play"]) for r in rows]),
        "pass": bias([(r["pass"], r["real_pass"]) for r in passes]),
        "pass_uncorrected": bias([(r["raw_pass"], r["real_pass"]) for r in passes]),
        "by_seat": by_seat,
        "decisions_gain": gain(rows),
        "goal": {
            "bias_at_most": GOAL_BIAS[against],
            "decile_bias_at_most": GOAL_DECILE,
            "deciles_counted": f"{DECILE_MIN} calls or more",
            "worst_decile": worst,
            "met": met,
            "deciles_chi2": round(sum(x * x for x in z), 2),
            "deciles_chi2_p": round(chi2_sf(sum(x * x for x in z), len(z)), 3) if z else None,
            "chance_if_calibrated": chance,
        },
    }


def gain(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What following the calibrated advice brings over following PIMC's own values, in points a
    decision: over every decision, the points of the calibrated answer minus those of PIMC's own
    (the deal was played out both ways), with its standard error."""
    diffs = [
        (r["real_play"] if r["call"] else r["real_pass"]) - (r["real_play"] if r["raw_play"] > r["raw_pass"] else r["real_pass"])
        for r in rows
    ]
    if len(diffs) < 2:
        return {"n": len(diffs), "mean": None, "se": None}
    return {"n": len(diffs), "mean": round(statistics.fmean(diffs), 3), "se": round(statistics.stdev(diffs) / math.sqrt(len(diffs)), 3)}


def chance_if_calibrated(overall: dict[str, Any], table: list[dict[str, Any]], goal_bias: float) -> dict[str, Any]:
    """How often predictions with no bias at all would meet the goal with these many calls, from
    the calls' own spread (each mean normal with its standard error, the deciles independent):
    ``bias`` for the overall bound, ``deciles`` for every decile of :data:`DECILE_MIN` calls or more
    within :data:`GOAL_DECILE`, and the calls a decile test would need to pass nine times in ten
    (``calls_for_deciles``). A goal the check cannot meet even when the values are right says
    nothing against them.

    >>> c = chance_if_calibrated({"n": 100, "se": 0.1}, [{"n": 100, "se": 0.25}] * 10, 0.2)
    >>> c["bias"], c["deciles"], c["calls_for_deciles"]
    (0.954, 0.628, 1700)
    """

    def within(bound: float, se: float) -> float:
        return math.erf(bound / se / math.sqrt(2)) if se > 0 else 1.0

    out: dict[str, Any] = {"bias": None, "deciles": None, "calls_for_deciles": None}
    if overall.get("se"):
        out["bias"] = round(within(goal_bias, overall["se"]), 3)
    spreads = [d["se"] * math.sqrt(d["n"]) for d in table if d.get("se")]
    if spreads:
        out["deciles"] = round(math.prod(within(GOAL_DECILE, d["se"]) for d in table if d.get("se") and d["n"] >= DECILE_MIN), 3)
        for calls in range(100, 100_001, 100):
            k = calls // len(spreads)
            if k >= DECILE_MIN and math.prod(within(GOAL_DECILE, sd / math.sqrt(k)) for sd in spreads) >= 0.9:
                out["calls_for_deciles"] = calls
                break
    return out


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "calibration.json")
    parser.add_argument("--against", default=",".join(AGAINST), help="opponent strengths (comma-separated)")
    parser.add_argument("--deals", default=None, help="deals for each, comma-separated (4000,4000,400; quick 2)")
    parser.add_argument("--rows", type=Path, default=None, help="a JSON-lines file the rows are appended to as they come (a rerun goes on from it)")
    parser.add_argument(
        "--report-only", action="store_true", help="play nothing: report the whole deals already in --rows (a run stopped early)"
    )
    args = parser.parse_args(argv)
    names = [a.strip() for a in args.against.split(",") if a.strip()]
    counts = [int(x) for x in args.deals.split(",")] if args.deals else [2 if args.quick else DEALS[a] for a in names]
    if args.report_only:
        if args.rows is None:
            parser.error("--report-only needs --rows")
        return report_rows(names, args.rows, args.out)
    plan = {
        a: {"tester": TESTER, "opponents": a, "seed": EVAL_SEEDS[a], "deals": d, "advice": advice_plan()}
        for a, d in zip(names, counts, strict=True)
    }
    old = _load(args.out)
    kept = old.get("rows", {})
    done: dict[str, Any] = {a: kept[a] for a in names if a in kept and old.get("plan", {}).get(a) == plan[a]}
    data: dict[str, Any] = {"bench": "calibration", "plan": plan, "rows": done, "reports": {}}
    save_json(data, args.out)
    for a in names:
        if a not in done:
            rows, secs = collect(a, plan[a]["deals"], plan[a]["seed"], args.rows)
            done[a] = rows
            data.setdefault("seconds", {})[a] = round(secs, 1)
        data["reports"][a] = report(a, done[a])
        save_json(data, args.out)
        print(said(data["reports"][a]), flush=True)
    print(f"saved {args.out}", file=sys.stderr)
    return 0


def said(r: dict[str, Any]) -> str:
    """One line of a report: the calls' bias, PIMC's own, the worst decile and the goal."""
    if not r["calls"]["n"]:
        return f"against {r['against']}: no calls"
    se = r["calls"]["se"]
    chance = r["goal"]["chance_if_calibrated"]
    return (
        f"against {r['against']}: {r['calls']['n']} calls, realized - predicted {r['calls']['bias']:+.3f}"
        f" ± {se if se is not None else '?'} (uncorrected {r['calls_uncorrected']['bias']:+.3f}); worst decile"
        f" {r['goal']['worst_decile']}; goal met: {r['goal']['met']} (unbiased values would meet it"
        f" {chance['bias']} x {chance['deciles']} of the time)"
    )


def report_rows(names: list[str], rows_file: Path, out: Path) -> int:
    """The reports of the whole deals in ``rows_file`` (a run that was stopped: its plan is the
    deals it reached), saved to ``out`` with the rows."""
    plan: dict[str, Any] = {}
    done: dict[str, Any] = {}
    for a in names:
        rows, deals = _resume_read(rows_file, a, EVAL_SEEDS[a])
        plan[a] = {"tester": TESTER, "opponents": a, "seed": EVAL_SEEDS[a], "deals": deals, "advice": advice_plan()}
        done[a] = rows
    data: dict[str, Any] = {"bench": "calibration", "plan": plan, "rows": done, "reports": {}}
    for a in names:
        data["reports"][a] = report(a, done[a])
        print(f"{plan[a]['deals']} deals: " + said(data["reports"][a]), flush=True)
    save_json(data, out)
    print(f"saved {out}", file=sys.stderr)
    return 0


def _resume_read(stream: Path, against: str, seed: int) -> tuple[list[dict[str, Any]], int]:
    """The rows of ``against`` and ``seed`` in ``stream`` over its whole deals, and how many deals
    that is (all of them when the run finished, else up to the last deal seen, which may be cut)."""
    _, rows, finished = _read_stream(stream, against, seed)
    if finished:
        return rows, finished[-1]
    last = max((r["deal"] for r in rows), default=0)
    return [r for r in rows if r["deal"] < last], last


def advice_plan() -> dict[str, Any]:
    """:data:`ADVICE` as data, for the record."""
    samples, budget, limits = ADVICE
    return {"samples": samples, "z": budget.z, "min": budget.min_samples, "precision": budget.precision, "max_nodes": limits.max_nodes}


def _load(path: Path) -> dict[str, Any]:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


if __name__ == "__main__":
    sys.exit(main())
