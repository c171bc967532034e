"""The in-game hint in play: its time at a table and whether the review agrees with it.

The set: every play decision with more than one legal move, of every seat, in the records of a
seeded match, ``pimc,rule,rule`` (``--deals`` deals from ``--seed``, each in its three seatings);
each hint with the record's seed, as ``lukfu play`` asks it.

For each decision, in this process and one after the other (the same load):

- **this tree's hint** at ``--level`` (``analysis.hint.hint``: ``moves.weigh_moves`` at the
  level's work, over the decision's candidates);
- **the baseline, the previous hint** (the build before, e4ece2e): the ``pimc`` player's analysis at
  the level, over its own candidates and every sure lead, reproduced here from the player (whose
  analysis this tree leaves as it was);
- **the review at its defaults** (``moves.weigh_moves`` at ``work.REVIEW_WORK``, the same seed),
  with both hints' advised moves valued beside the candidates: whether each hint's advice is
  within error of the review's best (``review.within_error``), and whether the review's best move
  was among the moves the hint weighed.

Printed and saved: the wall seconds of a hint, median and p95, each hint's and their ratio; the
share of decisions whose advice the review counts within error of the best, each hint's; the
decisions where the review's best was a move the hint did not weigh.

Run: ``python -m bench.hint [--deals 4] [--seed 36] [--level 3] [--quick] [--out FILE]``.
Results: ``bench/results/hint.json``.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

from bench.common import base_parser, fmt, make_console, progress, ratio, save_json, summary
from lukfu_solver.analysis.hint import hint, sure_leads
from lukfu_solver.analysis.moves import weigh_moves
from lukfu_solver.analysis.review import within_error
from lukfu_solver.analysis.work import REVIEW_WORK, hint_work
from lukfu_solver.hidden.pimc import paired_difference
from lukfu_solver.match import run_match
from lukfu_solver.players.pimc import PimcDecision, PimcPlayer
from lukfu_solver.plays import Play
from lukfu_solver.search.compiled import prepare_kernel
from lukfu_solver.view import SeatView

PREVIOUS = "e4ece2e"
"""The build before the one evaluation: its hint in play was the pimc player's analysis."""


def decisions(deals: int, seed: int) -> list[tuple[SeatView, int]]:
    """The fixed set: every play decision with more than one legal move of a seeded ``pimc,rule,rule``
    match's records, with the record's seed (the hints' seed)."""
    out = []
    for game in run_match(["pimc", "rule", "rule"], deals, seed=seed).games:
        rec = game.record
        for i, pos in enumerate(rec.replay()[:-1]):
            if sum(1 for _ in pos.legal_moves()) > 1:
                out.append((rec.view(pos.to_move, i), rec.seed or 0))
    return out


def previous_hint(view: SeatView, level: int, seed: int) -> PimcDecision:
    """The previous build's hint in play: the pimc player's analysis at ``level``, its candidates
    and every lead sure of its trick."""
    player = PimcPlayer(level, seed=seed)
    own = player.candidates

    def candidates(v: SeatView) -> list[Play]:
        chosen = own(v)
        return chosen + [m for m in sure_leads(v) if m not in chosen] if len(chosen) > 1 else chosen

    setattr(player, "candidates", candidates)  # noqa: B010 - as the previous hint did
    return player.analyse(view)


def one(view: SeatView, seed: int, level: int) -> dict[str, Any]:
    """Both hints of one decision, timed, and the review's judgement of their advice."""
    t0 = time.perf_counter()
    new = hint(view, level, seed)
    new_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    old = previous_hint(view, level, seed)
    old_seconds = time.perf_counter() - t0
    assert new.analysis is not None
    new_best, old_best = new.analysis.moves[0].move, old.moves[0].move
    review = weigh_moves(view, REVIEW_WORK, seed, extra=[new_best, old_best])  # type: ignore[list-item]
    best = review.moves[0]
    by_move = {e.move: e for e in review.moves}

    def agrees(move: object) -> bool:
        return within_error(*paired_difference(best, by_move[move]))

    return {
        "view": str(view),
        "seed": seed,
        "legal": sum(1 for _ in view.legal_moves()),
        "hint_seconds": round(new_seconds, 4),
        "previous_seconds": round(old_seconds, 4),
        "hint_weighed": len(new.analysis.moves),
        "previous_weighed": len(old.moves),
        "hint_within_error": agrees(new_best),
        "previous_within_error": agrees(old_best),
        "review_best_weighed_by_hint": best.move in {e.move for e in new.analysis.moves},
        "review_best_weighed_by_previous": best.move in {e.move for e in old.moves},
    }


def main() -> None:
    parser = base_parser(__doc__.splitlines()[0], "hint.json")
    parser.add_argument("--deals", type=int, default=4, help="deals of the match (3 records each)")
    parser.add_argument("--seed", type=int, default=36, help="the match's seed")
    parser.add_argument("--level", type=int, default=3, help="the hints' level")
    args = parser.parse_args()
    deals = 1 if args.quick else args.deals
    console = make_console()
    prepare_kernel()
    cases = decisions(deals, args.seed)
    random.Random(args.seed).shuffle(cases)  # hard and easy decisions spread over the load's changes
    load_before = os.getloadavg()
    rows = [one(view, seed, args.level) for view, seed in progress(cases, "hints")]
    load_after = os.getloadavg()
    n = len(rows)
    new_t, old_t = [r["hint_seconds"] for r in rows], [r["previous_seconds"] for r in rows]
    result: dict[str, Any] = {
        "set": {"players": "pimc,rule,rule", "deals": deals, "seed": args.seed, "decisions": n},
        "level": args.level,
        "work": hint_work(args.level).to_json(),
        "review_work": REVIEW_WORK.to_json(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "hint_seconds": summary(new_t, 4),
        "previous": {"build": PREVIOUS, "what": "the pimc player's analysis and every sure lead", "seconds": summary(old_t, 4)},
        "median_ratio": ratio(summary(new_t, 6)["median"] or 0.0, summary(old_t, 6)["median"] or 0.0, 2),
        "p95_ratio": ratio(summary(new_t, 6)["p95"] or 0.0, summary(old_t, 6)["p95"] or 0.0, 2),
        "within_error_of_the_review": {
            "hint": sum(r["hint_within_error"] for r in rows),
            "previous": sum(r["previous_within_error"] for r in rows),
            "decisions": n,
        },
        "review_best_not_weighed": {
            "hint": sum(not r["review_best_weighed_by_hint"] for r in rows),
            "previous": sum(not r["review_best_weighed_by_previous"] for r in rows),
        },
        "rows": rows,
    }
    path = save_json(result, args.out)
    h, p = result["hint_seconds"], result["previous"]["seconds"]
    w, nw = result["within_error_of_the_review"], result["review_best_not_weighed"]
    console.print(f"{n} play decisions, level {args.level}, load {load_before[0]:.1f} -> {load_after[0]:.1f}")
    console.print(f"  hint      median {fmt(h['median'], ' s', 3)}  p95 {fmt(h['p95'], ' s', 3)}  max {fmt(h['max'], ' s', 3)}")
    console.print(f"  previous  median {fmt(p['median'], ' s', 3)}  p95 {fmt(p['p95'], ' s', 3)}  max {fmt(p['max'], ' s', 3)}")
    console.print(f"  ratio: median x{result['median_ratio']}, p95 x{result['p95_ratio']}")
    console.print(f"  advice within error of the review's best: hint {w['hint']} of {n}, previous {w['previous']} of {n}")
    console.print(f"  the review's best not weighed: hint {nw['hint']}, previous {nw['previous']}")
    console.print(f"saved {Path(path)}")


if __name__ == "__main__":
    main()
