"""Strength benchmark of the engine players: rotated matches with 95% intervals.

1. ``rule`` against two ``random`` players (``rule,random,random``, 3 rotations a deal);
2. ``pimc`` (``--level``, default 3) against two ``rule`` players (``pimc,rule,rule``), with the
   time of every PIMC decision (median, p95, max: the default level should answer in < 3 s);
3. the calibration of PIMC's call advice: for every call decision, the predicted value of
   calling (the PIMC core's mean over its sampled deals, for this seat as caller, before the
   player's calibration ``CALL_CALIBRATION`` is added; the player calls when that plus the
   calibration beats its value of passing, ``call_log[...]["pass"]``) against the points the deal
   really brought that player (0 when all three passed and the cards were dealt again), grouped by prediction, and
   the mean gap over the calls with its standard error; then the same match with the
   uncalibrated player (``pimc:L:0``) on the same deals, and the paired per-deal difference
   (calibrated − uncalibrated) with its 95% interval (``--no-uncalibrated`` skips it);
4. with ``--tune``: the rule player's call threshold swept against random and rule:5 opponents.

Points per deal are each player's net points averaged over a deal's rotations, then the mean
over deals with a t-based 95% interval (:mod:`lukfu_solver.match`). Not a test: slow with pimc.

Run: ``python -m bench.strength [--rule-deals 300] [--pimc-deals 300] [--level 3]
[--jobs 2] [--seed 0] [--tune] [--quick] [--out FILE]``. ``--quick``: 60 rule deals, 4 pimc deals.
Results are saved to ``bench/results/strength.json`` (or ``--out``).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from typing import Any

from bench.common import base_parser, fmt, make_console, save_json, summary
from lukfu_solver.cards import format_cards
from lukfu_solver.match import MatchResult, interval, run_match
from lukfu_solver.players import CALL_CALIBRATION

BINS = (-math.inf, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0, math.inf)
"""Edges of the prediction groups of the calibration table."""
TUNE_THRESHOLDS = (3.0, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 8.0)


def run(specs: list[str], deals: int, seed: int, jobs: int, what: str) -> tuple[MatchResult, float]:
    """Play a match with a progress line on stderr; return it and its wall time."""
    t0 = time.perf_counter()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 5 or done == total:
            last[0] = now
            print(f"  {what}: {done}/{total} games, {now - t0:,.0f} s", file=sys.stderr, flush=True)

    m = run_match(specs, deals, seed=seed, jobs=jobs, progress=progress)
    return m, time.perf_counter() - t0


def print_match(console: Any, title: str, m: MatchResult, secs: float) -> None:
    """A match's summaries as a table."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
    for col in ("player", "points/deal", "95% interval", "calls", "points when calling"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for s in m.summaries():
        cp = "-" if s.call_points is None else f"{s.call_points:+.2f}"
        table.add_row(s.label, f"{s.mean:+.3f}", f"[{s.low:+.3f}, {s.high:+.3f}]", f"{s.calls}/{s.games}", cp)
    console.print(table)
    console.print(f"  {m.deals} deals × {len(m.seatings)} rotations = {len(m.games)} games in {secs:,.0f} s")


def match_data(m: MatchResult, secs: float) -> dict[str, Any]:
    """A match as JSON data, with its wall time."""
    data = m.to_json()
    data["seconds"] = round(secs, 1)
    return data


def call_decisions(m: MatchResult, place: int = 0) -> list[tuple[float, bool, int, bool]]:
    """Every call decision of the player at ``place``: (PIMC's uncalibrated prediction, whether it
    called, the points the deal brought it, whether that deal was played). A decision belongs to
    the deal played when its hand is the hand that seat was dealt there; otherwise its deal was
    passed out by all three (R3) and brought 0."""
    rows = []
    for g in m.games:
        seat = g.seats[place]
        final = format_cards(g.record.hands[seat])
        for e in g.call_logs.get(place, []):
            played = e["hand"] == final and e["seat"] == seat
            rows.append((e["predicted"], e["call"], g.points[place] if played else 0, played))
    return rows


def calibration(m: MatchResult, place: int = 0) -> list[dict[str, Any]]:
    """PIMC's call decisions (the player at ``place``, :func:`call_decisions`) grouped by predicted
    value of calling."""
    rows = call_decisions(m, place)
    out = []
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        group = [r for r in rows if lo <= r[0] < hi]
        if not group:
            continue
        called = [r[2] for r in group if r[1]]
        passed = [r[2] for r in group if not r[1]]
        out.append(
            {
                "predicted_from": None if math.isinf(lo) else lo,
                "predicted_to": None if math.isinf(hi) else hi,
                "decisions": len(group),
                "called": len(called),
                "mean_predicted": round(statistics.fmean(r[0] for r in group), 3),
                "mean_points_when_called": round(statistics.fmean(called), 3) if called else None,
                "mean_points_when_passed": round(statistics.fmean(passed), 3) if passed else None,
            }
        )
    return out


def calibration_gap(m: MatchResult, place: int = 0) -> dict[str, Any]:
    """Over the calls of the player at ``place``: the mean points the deals brought minus PIMC's
    uncalibrated prediction, with its standard error (the figure ``CALL_CALIBRATION`` corrects)."""
    gaps = [points - predicted for predicted, call, points, played in call_decisions(m, place) if call and played]
    n = len(gaps)
    mean = statistics.fmean(gaps) if gaps else None
    se = statistics.stdev(gaps) / math.sqrt(n) if n > 1 else None
    return {
        "calls": n,
        "mean_gap": None if mean is None else round(mean, 3),
        "se": None if se is None else round(se, 3),
    }


def paired(a: MatchResult, b: MatchResult, place: int = 0) -> dict[str, Any]:
    """The per-deal difference of the player at ``place`` between two matches on the same deals."""
    diffs = [x - y for x, y in zip(a.per_deal([place]), b.per_deal([place]), strict=True)]
    m, lo, hi = interval(diffs)
    return {
        "deals": len(diffs),
        "mean": round(m, 4),
        "ci95": [round(lo, 4), round(hi, 4)],
        "deals_differing": sum(1 for d in diffs if d),
    }


def print_calibration(console: Any, rows: list[dict[str, Any]]) -> None:
    from rich import box
    from rich.table import Table

    table = Table(
        box=box.SIMPLE_HEAD,
        title="Calibration of pimc's call advice: predicted value of calling vs points the deal brought",
        title_justify="left",
    )
    for col in ("predicted", "decisions", "called", "mean predicted", "points when called", "points when passed"):
        table.add_column(col, justify="right")
    for r in rows:
        lo, hi = r["predicted_from"], r["predicted_to"]
        rng = f"{'-inf' if lo is None else f'{lo:+g}'} .. {'+inf' if hi is None else f'{hi:+g}'}"
        table.add_row(
            rng,
            str(r["decisions"]),
            str(r["called"]),
            f"{r['mean_predicted']:+.2f}",
            "-" if r["mean_points_when_called"] is None else f"{r['mean_points_when_called']:+.2f}",
            "-" if r["mean_points_when_passed"] is None else f"{r['mean_points_when_passed']:+.2f}",
        )
    console.print(table)


def decision_times(m: MatchResult, place: int = 0) -> dict[str, Any]:
    """Median, p95 and max seconds of the player's decisions (calls included), and how many
    took more than 3 s."""
    secs = [s for g in m.games for s in g.seconds.get(place, [])]
    out = summary(secs, digits=3)
    out["over_3s"] = sum(1 for s in secs if s > 3.0)
    return out


def tune(console: Any, deals: int, seed: int, jobs: int) -> list[dict[str, Any]]:
    """The rule player's call threshold against random and rule:5 opponents."""
    rows = []
    for t in TUNE_THRESHOLDS:
        row: dict[str, Any] = {"threshold": t}
        for opp in ("random", "rule:5"):
            m, _ = run([f"rule:{t:g}", opp, opp], deals, seed, jobs, f"tune rule:{t:g} vs {opp}")
            s = m.summaries()[0]
            row[f"vs_{opp}"] = {"mean": round(s.mean, 4), "ci95": [round(s.low, 4), round(s.high, 4)]}
        rows.append(row)
        console.print(
            f"  rule:{t:g}: vs random {row['vs_random']['mean']:+.3f} {row['vs_random']['ci95']}, "
            f"vs rule:5 {row['vs_rule:5']['mean']:+.3f} {row['vs_rule:5']['ci95']}"
        )
    return rows


def warm_up() -> None:
    """Load (or compile) the compiled solver once, so no decision's time includes it."""
    try:
        from lukfu_solver.search.compiled import compile_all
    except ImportError:
        return
    compile_all()


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "strength.json")
    parser.add_argument("--rule-deals", type=int, default=None, help="deals of rule vs random (300; quick 60)")
    parser.add_argument("--pimc-deals", type=int, default=None, help="deals of pimc vs rule (300; quick 4)")
    parser.add_argument("--level", type=int, default=3, help="pimc level (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--tune", action="store_true", help="also sweep the rule player's call threshold")
    parser.add_argument(
        "--no-uncalibrated", action="store_true", help="skip the match of the uncalibrated pimc (pimc:L:0)"
    )
    parser.add_argument("--tune-deals", type=int, default=1000, help="deals per threshold and opponent (1000)")
    args = parser.parse_args(argv)
    rule_deals = args.rule_deals if args.rule_deals is not None else (60 if args.quick else 300)
    pimc_deals = args.pimc_deals if args.pimc_deals is not None else (4 if args.quick else 300)
    console = make_console()
    data: dict[str, Any] = {"bench": "strength", "quick": args.quick, "seed": args.seed, "jobs": args.jobs}

    if rule_deals > 0:
        m, secs = run(["rule", "random", "random"], rule_deals, args.seed, args.jobs, "rule vs random")
        print_match(console, "rule against two random players", m, secs)
        data["rule_vs_random"] = match_data(m, secs)

    if pimc_deals > 0:
        warm_up()
        spec = "pimc" if args.level == 3 else f"pimc:{args.level}"
        m, secs = run([spec, "rule", "rule"], pimc_deals, args.seed, args.jobs, f"{spec} vs rule")
        print_match(console, f"{spec} (level {args.level}) against two rule players", m, secs)
        times = decision_times(m)
        console.print(
            f"  pimc decision time: median {fmt(times['median'], ' s', 2)}, p95 {fmt(times['p95'], ' s', 2)}, "
            f"max {fmt(times['max'], ' s', 2)} over {times['n']} decisions ({times['over_3s']} over 3 s)"
        )
        cal = calibration(m)
        print_calibration(console, cal)
        gap = calibration_gap(m)
        console.print(
            f"  over {gap['calls']} calls the deals brought {fmt(gap['mean_gap'], '', 2)} ± {fmt(gap['se'], '', 2)} "
            f"points more than PIMC predicted (the player adds CALL_CALIBRATION = {CALL_CALIBRATION:+g})"
        )
        data["pimc_vs_rule"] = match_data(m, secs)
        data["pimc_vs_rule"]["level"] = args.level
        data["pimc_vs_rule"]["decision_seconds"] = times
        data["call_calibration"] = cal
        data["call_calibration_gap"] = {"calibration": CALL_CALIBRATION, **gap}
        if not args.no_uncalibrated:
            raw_spec = f"pimc:{args.level}:0"
            r, rsecs = run([raw_spec, "rule", "rule"], pimc_deals, args.seed, args.jobs, f"{raw_spec} vs rule")
            print_match(console, f"{raw_spec} (uncalibrated calls) against two rule players, same deals", r, rsecs)
            rgap = calibration_gap(r)
            diff = paired(m, r)
            console.print(
                f"  uncalibrated: over {rgap['calls']} calls, gap {fmt(rgap['mean_gap'], '', 2)} ± {fmt(rgap['se'], '', 2)}; "
                f"calibrated − uncalibrated per deal: {diff['mean']:+.3f} {diff['ci95']} "
                f"({diff['deals_differing']} of {diff['deals']} deals differ)"
            )
            data["pimc_uncalibrated_vs_rule"] = match_data(r, rsecs)
            data["pimc_uncalibrated_vs_rule"]["call_calibration_gap"] = rgap
            data["calibrated_minus_uncalibrated"] = diff

    if args.tune:
        console.print("Tuning the rule player's call threshold:")
        data["tune"] = {"deals": args.tune_deals, "rows": tune(console, args.tune_deals, args.seed, args.jobs)}

    path = save_json(data, args.out)
    print(f"saved {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
