"""The engine ladder: every engine rated on one scale, its points a deal against two ``rule`` players.

Each engine of :data:`LADDER` plays ``ENGINE,rule,rule`` on the same deals (one match seed, each
deal in its 3 rotations, so every engine holds every hand in every seat against the same two
opponents): its mean net points a deal with a t-based 95 % interval (:mod:`lukfu_solver.match`),
its calls, and the median and p95 of its decision times. ``rule`` is the common opponent, 0 by
construction. The plain strengths are rated by the engines they name (``players.STRENGTHS``):
``easy``, ``medium`` and ``strong`` are the same players, with the same seeds, as ``rule``,
``pimc:1`` and ``ipimc``, so their games would be the same games, and they are reported from
those rows.

``--pairs`` plays the matches the strength names are held to instead: each name against two of
the name below it (``strong,medium,medium`` and ``medium,easy,easy``), ``--pair-deals`` deals
each (400: 1,200 games).

Every run's engines, match seed and deals are written to the result file before its first game
(``plan``), and the file is rewritten after each engine, so a long run can be read as it goes.
One process (``--jobs``: 1 by default; the results are the same for any).

Run: ``python -m bench.ladder [--deals 400] [--seed 4801] [--engines random,rule,...] [--pairs]
[--pair-deals 400] [--pair-seed 4902] [--jobs 1] [--out FILE]``. Results: ``bench/results/ladder.json``
(``--pairs``: ``bench/results/strength-names.json``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.common import RESULTS_DIR, base_parser, save_json, summary
from bench.strength import run
from lukfu_solver.match import MatchResult
from lukfu_solver.players import STRENGTHS

LADDER = ("random", "pimc:1", "pimc:2", "pimc:3", "pimc:4", "pimc:5", "ipimc")
"""The engines rated against two ``rule`` players (``rule`` itself is the scale's 0)."""
ALIASES = dict(STRENGTHS)
"""The plain strengths, rated by the rows of the engines they are (the same players, the same
games)."""
PAIRS = (("strong", "medium"), ("medium", "easy"))
"""The strength names' matches: each name against two of the one below it."""
COMMON = "rule"


def match_row(m: MatchResult, seconds: float) -> dict[str, Any]:
    """One engine's result: its summary (place 0), its decision times and the match's wall time."""
    secs = [x for g in m.games for x in g.seconds.get(0, [])]
    return {
        **m.summaries()[0].to_json(),
        "opponents": list(m.specs[1:]),
        "seed": m.seed,
        "decision_seconds": summary(secs, digits=3) if secs else None,
        "wall_seconds": round(seconds, 1),
        "per_deal": [round(x, 4) for x in m.per_deal([0])],
    }


def play_rows(
    matches: dict[str, list[str]],
    rows: dict[str, Any],
    data: dict[str, Any],
    deals: int,
    seed: int,
    jobs: int,
    out: Path,
) -> None:
    """Play each match of ``matches`` (a row's key: its three specs) not yet in ``rows``, saving
    ``data`` (which holds ``rows``) to ``out`` after each."""
    for key, specs in matches.items():
        if key in rows:
            continue
        m, secs = run(specs, deals, seed, jobs, key)
        rows[key] = match_row(m, secs)
        save_json(data, out)
        r = rows[key]
        print(f"{key}: {r['mean']:+.3f} {r['ci95']} ({secs:,.0f} s)", file=sys.stderr, flush=True)


def load(path: Path) -> dict[str, Any]:
    """The rows of an earlier run of the same plan (to go on where it stopped), else nothing."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def run_ladder(engines: list[str], deals: int, seed: int, jobs: int, out: Path) -> dict[str, Any]:
    """Every engine against two ``rule`` players on the same deals; the rows of an earlier run on
    the same deals in ``out`` are kept (an engine among them is not played again)."""
    old = load(out)
    plan = {"common_opponent": COMMON, "deals": deals, "seed": seed, "rotations": 3}
    same = {k: v for k, v in old.get("plan", {}).items() if k != "engines"} == plan
    rows: dict[str, Any] = old.get("rows", {}) if same else {}
    plan["engines"] = list(dict.fromkeys([*rows, *engines]))  # the rows kept and those to play, fixed now
    data: dict[str, Any] = {"bench": "ladder", "plan": plan, "aliases": ALIASES, "rows": rows}
    save_json(data, out)
    play_rows({spec: [spec, COMMON, COMMON] for spec in engines}, rows, data, deals, seed, jobs, out)
    data["table"] = ladder_table(rows)
    save_json(data, out)
    return data


def ladder_table(rows: dict[str, Any]) -> list[dict[str, Any]]:
    """The scale, strongest first: each engine's points a deal against two ``rule`` players (the
    strength names beside the engines they are)."""
    table = [{"engine": COMMON, "mean": 0.0, "ci95": [0.0, 0.0], "decision_median_s": None, "same_as": None}]
    for spec, r in rows.items():
        times = r.get("decision_seconds") or {}
        table.append(
            {
                "engine": spec,
                "mean": r["mean"],
                "ci95": r["ci95"],
                "decision_median_s": times.get("median"),
                "decision_p95_s": times.get("p95"),
                "same_as": None,
            }
        )
    for name, spec in ALIASES.items():
        found = next((t for t in table if t["engine"] == spec), None)
        if found is not None:
            table.append({**found, "engine": name, "same_as": spec})
    return sorted(table, key=lambda t: -t["mean"])


def run_pairs(deals: int, seed: int, jobs: int, out: Path) -> dict[str, Any]:
    """Each strength name against two of the one below it, on the same deals."""
    plan = {"pairs": [list(p) for p in PAIRS], "specs": dict(STRENGTHS), "deals": deals, "seed": seed}
    old = load(out)
    rows: dict[str, Any] = old.get("rows", {}) if old.get("plan") == plan else {}
    data: dict[str, Any] = {"bench": "strength names", "plan": plan, "rows": rows}
    save_json(data, out)
    play_rows(
        {f"{upper} vs {lower}": [upper, lower, lower] for upper, lower in PAIRS}, rows, data, deals, seed, jobs, out
    )
    data["goal"] = {
        key: {"mean": r["mean"], "ci95": r["ci95"], "met": r["mean"] >= 0.2 and r["ci95"][0] > 0}
        for key, r in rows.items()
    }
    save_json(data, out)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "ladder.json")
    parser.add_argument("--deals", type=int, default=400, help="deals each engine plays (400; quick 4)")
    parser.add_argument("--seed", type=int, default=4801, help="the ladder's match seed (4801)")
    parser.add_argument("--engines", default=",".join(LADDER), help="engines to rate (comma-separated)")
    parser.add_argument("--pairs", action="store_true", help="play the strength names' matches instead")
    parser.add_argument("--pair-deals", type=int, default=400, help="deals of each pair match (400)")
    parser.add_argument("--pair-seed", type=int, default=4902, help="the pair matches' seed (4902)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (1)")
    args = parser.parse_args(argv)
    if args.pairs:
        out = args.out if args.out != RESULTS_DIR / "ladder.json" else RESULTS_DIR / "strength-names.json"
        run_pairs(4 if args.quick else args.pair_deals, args.pair_seed, args.jobs, out)
        print(f"saved {out}", file=sys.stderr)
        return 0
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    data = run_ladder(engines, 4 if args.quick else args.deals, args.seed, args.jobs, args.out)
    for t in data["table"]:
        same = f" (= {t['same_as']})" if t["same_as"] else ""
        print(f"{t['engine']:>8}{same}: {t['mean']:+.3f} [{t['ci95'][0]:+.3f}, {t['ci95'][1]:+.3f}]")
    print(f"saved {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
