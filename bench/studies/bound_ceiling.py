"""How many nodes a tighter bound could save, by kind of node: the reference search on fixed
full deals, beside the same search given, at every node of one kind, bounds one step (2 points)
tighter than its own there, never past the exact value.

A search decides a node without moves when its bounds answer the zero-window test. To see where
a better bound would pay before building one, this bench hands the reference search, at every
node of one kind (the caller's lead, a non-caller's R7 lead, a follower's discard after an
unbeatable lead, ...), a lower bound ``min(value, lo + step)`` and an upper bound
``max(value, hi - step)``: ``lo`` and ``hi`` are the search's own bounds there (``value_bounds``
and that kind's look-ahead), ``value`` the exact value (the compiled solver's). They cut where
they answer the test, as a bound would. The ratio of the nodes without and with them is the
most a bound that much tighter at that kind of node could save; ``--step 28`` gives the exact
value itself. Values are checked equal. A research instrument: slow (the reference, about
5,000 nodes a second), its figures guide the search's next round (``docs/history/``).

``python -m bench.studies.bound_ceiling [--only b/0:1] [--kinds caller-lead,...] [--step 2] [--cards 12] [--out FILE]``
(``--cards N``: only where the seat to move holds at most N cards, to see at which depth a
tighter bound would pay).
"""

from __future__ import annotations

import sys
from typing import Any

from bench.common import base_parser, progress, save_json
from bench.kernel_profile import chosen_cases, parse_only

KINDS: dict[str, str] = {
    "caller-lead": "the caller to lead (the caller's look-ahead there)",
    "r7-lead": "a non-caller to lead, holding no set and no run (R7's singles and the claim)",
    "set-lead": "a non-caller to lead, holding a set or a run (the coalition's look-ahead there)",
    "caller-follows-single": "the caller to play in a trick led with a single",
    "caller-follows-set": "the caller to play in a trick led with a set or a run",
    "discard-beaters": "a non-caller to play where a seat still to play can beat",
    "discard-caller-wins": "a non-caller to play, nobody can beat, the caller wins the trick",
    "discard-r7-next": "a non-caller to play, nobody can beat, a non-caller with no set or run wins (the discard look-ahead applies)",
    "discard-other": "a non-caller to play, nobody can beat, a non-caller wins holding a set or a run or under three cards",
    "single-non-caller-wins": "a non-caller to play in a trick led with a single that a non-caller wins",
}
"""The kinds of node, each a class of the positions where the search runs one set of bounds."""

DEFAULT_ONLY = "b/0:1"
"""A full deal of 345,511 reference nodes (about a minute a run, a quarter of an hour in all)."""


def node_kind(pos: Any) -> str | None:
    """The kind (a key of :data:`KINDS`) of a position the search is to move in, None at the end."""
    from lukfu_solver.plays import SINGLE
    from lukfu_solver.search.bounds import _has_set_or_run, _still_to_play

    if pos.outcome is not None:
        return None
    trick = pos.trick
    if not trick:
        if pos.to_move == pos.caller:
            return "caller-lead"
        return "set-lead" if _has_set_or_run(pos.hands[pos.to_move]) else "r7-lead"
    if pos.to_move == pos.caller:
        return "caller-follows-single" if trick[0].kind == SINGLE else "caller-follows-set"
    if trick[0].kind == SINGLE and pos.best_seat != pos.caller:
        return "single-non-caller-wins"
    if _still_to_play(pos)[1]:
        return "discard-beaters"
    w = pos.best_seat
    if w == pos.caller:
        return "discard-caller-wins"
    if pos.hands[w].bit_count() < 3 or _has_set_or_run(pos.hands[w]):
        return "discard-other"
    return "discard-r7-next"


def own_bounds(pos: Any, kind: str) -> tuple[int, int]:
    """The search's own bounds at a node of ``kind``: ``value_bounds`` and, where the search runs
    one, the look-ahead of that kind taken in full (no window to stop at)."""
    from lukfu_solver.search import bounds, discards
    from lukfu_solver.search.result import INF

    lo, hi = bounds.value_bounds(pos)
    if kind == "caller-lead":
        lo = max(lo, bounds._caller_lead_bound(pos, INF))
    elif kind == "set-lead":
        hi = min(hi, bounds._coalition_lead_bound(pos, -INF))
    elif kind.startswith("discard-"):
        lo = max(lo, discards.discard_ahead_bound(pos, INF, -INF))
    return lo, hi


def ceiling_solver(kind: str, step: int, cards: int = 12) -> tuple[Any, dict[str, Any]]:
    """The reference solver (from the one factory) with its nodes of ``kind`` (the seat to move
    holding at most ``cards`` cards) first cut by the tightened bounds, and the record it keeps:
    ``known`` (each such position's tightened bounds) and ``cuts``."""
    from lukfu_solver.position import Position
    from lukfu_solver.search import make_solver

    solver = make_solver("reference")
    exact = make_solver("compiled")  # one table for every value it is asked
    record: dict[str, Any] = {"known": {}, "cuts": 0}
    search = solver._ab  # the class's node; the search recurses through the instance's

    def _ab(alpha: int, beta: int) -> int:
        pos = solver._pos
        if pos.hands[pos.to_move].bit_count() <= cards and node_kind(pos) == kind:
            text = str(pos)
            known = record["known"]
            if text not in known:
                lo, hi = own_bounds(pos, kind)
                value = exact.solve(Position.parse(text)).value
                known[text] = (min(value, lo + step), max(value, hi - step))
            lower, upper = known[text]
            if lower >= beta or upper <= alpha:
                solver.nodes += 1
                record["cuts"] += 1
                return lower if lower >= beta else upper
        return search(alpha, beta)

    solver._ab = _ab
    return solver, record


def plain(position: Any) -> dict[str, Any]:
    """The reference's value and nodes on ``position``, with no help."""
    from lukfu_solver.search import make_solver

    solver = make_solver("reference")
    value = solver.solve(position).value
    return {"value": value, "nodes": solver.nodes}


def measure(position: Any, base: dict[str, Any], kind: str, step: int, cards: int = 12) -> dict[str, Any]:
    """The reference on ``position`` with ``kind``'s tightened bounds, beside ``base`` (:func:`plain`):
    nodes, the ratio, the cuts and the distinct positions of that kind met."""
    solver, record = ceiling_solver(kind, step, cards)
    got = solver.solve(position).value
    if got != base["value"]:
        raise AssertionError(f"{kind}: value {got}, the search's {base['value']}: a bound is unsound")
    return {
        "nodes": solver.nodes,
        "ratio": round(base["nodes"] / solver.nodes, 3),
        "cuts": record["cuts"],
        "positions": len(record["known"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "bound-ceiling.json")
    parser.add_argument(
        "--only", default=DEFAULT_ONLY, help=f"positions as SET/SEED:CALLER,... (default {DEFAULT_ONLY})"
    )
    parser.add_argument("--kinds", default=",".join(KINDS), help="kinds of node, joined by commas (default: all)")
    parser.add_argument("--step", type=int, default=2, help="how much tighter, in points (2: one step; 28: exact)")
    parser.add_argument(
        "--cards", type=int, default=12, help="only where the seat to move holds at most this many cards (12)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.only, args.kinds = "c/3:2", "caller-lead,r7-lead"
    try:
        sets = parse_only(args.only)
    except ValueError as exc:
        parser.error(f"--only: {exc}")
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        parser.error(f"--kinds: {unknown[0] if unknown else 'none'!r} is not a kind of node ({', '.join(KINDS)})")
    if args.step < 2 or args.step % 2:
        parser.error(f"--step: {args.step} is not an even number of points from 2 up")
    if not 1 <= args.cards <= 12:
        parser.error(f"--cards: {args.cards} is not a hand's size (1-12)")
    cases = chosen_cases(sets)
    if not cases:
        print("bound_ceiling: none of the --only positions is in its bench set", file=sys.stderr)
        return 2
    from lukfu_solver.search.compiled import prepare_kernel

    prepare_kernel()
    results: dict[str, Any] = {}
    for case, kind in progress([(c, k) for c in cases for k in [None, *kinds]], "searches"):
        label = f"{case.seed}:{case.caller}"
        if kind is None:
            results[label] = {**plain(case.position), "kinds": {}}
            print(f"{label}: value {results[label]['value']}, {results[label]['nodes']:,} nodes", flush=True)
            continue
        r = results[label]["kinds"][kind] = measure(case.position, results[label], kind, args.step, args.cards)
        print(f"  {kind:24s} {r['nodes']:>9,} nodes  x{r['ratio']:.2f}  ({r['cuts']:,} cuts)", flush=True)
    total = sum(r["nodes"] for r in results.values())
    pooled = {k: round(total / sum(r["kinds"][k]["nodes"] for r in results.values()), 3) for k in kinds}
    print("\nall positions, nodes without / with:")
    for k, v in sorted(pooled.items(), key=lambda kv: -kv[1]):
        print(f"  x{v:5.2f}  {k}: {KINDS[k]}")
    save_json(
        {
            "bench": "bound_ceiling",
            "what": __doc__.splitlines()[0],
            "positions": args.only,
            "step": args.step,
            "cards": args.cards,
            "results": results,
            "pooled_ratio": pooled,
        },
        args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
