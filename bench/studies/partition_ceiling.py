"""How many nodes partition search could save at most: the reference search on fixed full deals,
beside the same search given an ideal partition table, one that answers a node from an entry of
any other position in its class whenever the exact value allows it.

Partition search (Ginsberg; DDS's relevant ranks) lets the bound proved at one position P serve
every position Q that agrees with P on the cards the proof read. Which cards those are, only a
search that tracks them knows; but no sound partition table can merge more than positions that
agree on each hand's number of cards in each suit, the trick in progress, the fu, the seat to
move and the caller, with every merge keeping Q's value inside P's bound. This bench gives the
reference search such a table: at every node it looks for an entry of another position of the
class (and, with ``--tops N``, the same holders of each suit's N highest cards still in
hands or in the trick, the relative ranks a partition search would keep) whose proven bound
answers the node's zero-window test, checks that bound against the node's exact value (the
compiled solver's), and if it holds takes it. The ratio of the nodes without and with it is the
most any partition search keyed so could save. Values are checked equal. A research instrument:
slow (the reference, about 5,000 nodes a second); its figures guide the search's next round
(``docs/history/``).

``python -m bench.studies.partition_ceiling [--only b/0:1] [--relevance none,played,tops,leaves] [--tops 0]
[--cards 12] [--out FILE]`` (``--relevance``: which cards besides the class an entry's positions
must place alike, :data:`RELEVANCE`; ``--tops N``: the class keeps each suit's N highest live
cards placed; ``--cards N``: the table answers only where the seat to move holds at most N cards).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from bench.common import base_parser, progress, save_json
from bench.kernel_profile import chosen_cases, parse_only
from bench.studies.bound_ceiling import plain

DEFAULT_ONLY = "b/0:1"
"""A full deal of 345,511 reference nodes (about two minutes a run)."""

RELEVANCE = {
    "none": "the class alone",
    "played": "from the lowest card of each suit that the entry's subtree played face up (a lead or a beat) "
    "upwards, every card where the entry's position had it: what the proof's moves read, not its bounds",
    "tops": "as played, and at a node the search decided without a move (a bound or its table) each "
    "suit's cards in hands from the highest down to the first of another holder: bounds that read only "
    "who holds the Old and unbeatable cards",
    "leaves": "as played, and every card in hands at a node the search decided without a move (a bound "
    "or its table): bounds that report reading everything",
}
"""Which cards an entry's positions must place alike, besides the class, for it to serve."""

DEFAULT_RELEVANCE = "none,played,tops,leaves"
"""The relevance of each run (:data:`RELEVANCE`), from the most generous to the least."""


def holders_from_top(hands: list[int], live: int, suit: int) -> Iterator[int]:
    """The seats holding ``suit``'s cards of ``live``, from its highest card down (3 for a card in
    no hand: one in the trick)."""
    m = (live >> (9 * suit)) & 0x1FF
    while m:
        card = 1 << (9 * suit + m.bit_length() - 1)
        yield next((i for i in range(3) if hands[i] & card), 3)
        m &= ~(card >> (9 * suit))


def tops_read(hands: list[int]) -> int:
    """Each suit's cards in ``hands`` from the highest down to the first held by another seat than
    the highest (inclusive): the cards that decide who holds Old cards (R12) and unbeatable ones."""
    live = hands[0] | hands[1] | hands[2]
    read = 0
    for s in range(4):
        m = (live >> (9 * s)) & 0x1FF
        top = None
        for holder in holders_from_top(hands, live, s):
            bit = 1 << (m.bit_length() - 1)
            read |= bit << (9 * s)
            m &= ~bit
            if top is None:
                top = holder
            elif holder != top:
                break
    return read


LEAF_READS = {"tops": tops_read, "leaves": lambda hands: hands[0] | hands[1] | hands[2]}
"""What a node decided without a move reads, by :data:`RELEVANCE` (none and played: nothing)."""


def class_key(pos: Any, top: int) -> tuple[Any, ...]:
    """The class of ``pos`` that an ideal partition table keyed with ``top`` exact cards a suit
    merges: each hand's count in each suit, the holders of each suit's ``top`` highest cards in
    hands or in the trick, the trick, the fu, the seat to move and the caller."""
    hands = pos.hands
    live = hands[0] | hands[1] | hands[2] | pos.trick_cards
    parts: list[Any] = []
    for s in range(4):
        parts.append(tuple(((h >> (9 * s)) & 0x1FF).bit_count() for h in hands))
        parts.append(tuple(islice(holders_from_top(hands, live, s), top)))
    trick = tuple(str(p) for p in pos.trick)
    return (tuple(parts), trick, tuple(pos.fu), pos.to_move, pos.caller)


@dataclass
class Entry:
    """One position's entry in the ideal table: its proven bounds, the cards its proof is taken to
    have read (:data:`RELEVANCE`) and where its position held them, hand by hand."""

    lower: int
    upper: int
    relevant: int
    placed: tuple[int, int, int]

    def serves(self, hands: list[int]) -> bool:
        """Whether ``hands`` hold the relevant cards where the entry's position did."""
        return all(hands[i] & self.relevant == self.placed[i] for i in range(3))


def ceiling_solver(top: int, cards: int = 12, relevance: str = "none") -> tuple[Any, dict[str, Any]]:
    """The reference solver (from the one factory) with an ideal partition table of ``top``
    exact cards a suit answering where the seat to move holds at most ``cards`` cards, and the
    record it keeps: ``cuts``, ``refused`` (nodes where an entry's bound answered the test but
    not the node's exact value), ``calls`` (nodes entered) and ``values_asked`` (the exact values
    it asked, by position).

    ``relevance`` names which cards an entry's positions must place alike besides its class
    (:data:`RELEVANCE`)."""
    from lukfu_solver.position import Position
    from lukfu_solver.search import make_solver
    from lukfu_solver.search.result import INF
    from lukfu_solver.search.table_key import tt_key

    solver = make_solver("reference")
    exact = make_solver("compiled")  # one table for every value it is asked
    record: dict[str, Any] = {"cuts": 0, "refused": 0, "calls": 0}
    table: dict[tuple[Any, ...], dict[int, Entry]] = {}
    touched = [0]  # the cards played face up in the subtree being searched
    values: dict[str, int] = {}
    search = solver._ab  # the class's node; the search recurses through the instance's

    def value_of(pos: Any) -> int:
        text = str(pos)
        if text not in values:
            values[text] = exact.solve(Position.parse(text)).value
        return values[text]

    def _ab(alpha: int, beta: int) -> int:
        pos = solver._pos
        record["calls"] += 1
        up = pos.faceup | pos.trick_faceup
        touched[0] |= up
        if pos.outcome is not None or pos.hands[pos.to_move].bit_count() > cards:
            return search(alpha, beta)
        ckey = class_key(pos, top)
        me = tt_key(pos)
        entries = table.get(ckey)
        hands = pos.hands
        if entries:
            near = [e for k, e in entries.items() if k != me and (relevance == "none" or e.serves(hands))]
            if any(e.lower >= beta or e.upper <= alpha for e in near):
                v = value_of(pos)
                for e in near:
                    if beta <= e.lower <= v or v <= e.upper <= alpha:  # P's bound answers and holds at Q
                        solver.nodes += 1
                        record["cuts"] += 1
                        touched[0] |= e.relevant
                        return e.lower if beta <= e.lower <= v else e.upper
                record["refused"] += 1
        outer, touched[0] = touched[0], 0
        calls = record["calls"]
        g = search(alpha, beta)
        if record["calls"] == calls and relevance in LEAF_READS:  # decided by a bound or the table
            touched[0] |= LEAF_READS[relevance](hands)
        read = touched[0] & ~up
        touched[0] |= outer
        relevant = 0
        for s in range(4):
            m = (read >> (9 * s)) & 0x1FF
            if m:
                low = m & -m
                relevant |= (0x1FF & ~(low - 1)) << (9 * s)
        entry = table.setdefault(ckey, {}).get(me)
        if entry is None:
            entry = table[ckey][me] = Entry(-INF, INF, 0, (0, 0, 0))
        if relevant & ~entry.relevant:  # a wider proof: the entry keeps the union
            entry.relevant |= relevant
            entry.placed = (hands[0] & entry.relevant, hands[1] & entry.relevant, hands[2] & entry.relevant)
        if g >= beta:
            entry.lower = max(entry.lower, g)
        elif g <= alpha:
            entry.upper = min(entry.upper, g)
        else:
            entry.lower = entry.upper = g
        return g

    solver._ab = _ab
    record["values_asked"] = values
    return solver, record


def measure(position: Any, base: dict[str, Any], top: int, cards: int = 12, relevance: str = "none") -> dict[str, Any]:
    """The reference on ``position`` with the ideal partition table of ``top`` exact cards a suit
    and ``relevance``, beside ``base`` (:func:`plain`): nodes, the ratio, the cuts, the candidate
    entries the exact value refused, and how many exact values it asked."""
    solver, record = ceiling_solver(top, cards, relevance)
    got = solver.solve(position).value
    if got != base["value"]:
        raise AssertionError(f"{relevance}/{top}: value {got}, the search's {base['value']}: the table is unsound")
    return {
        "nodes": solver.nodes,
        "ratio": round(base["nodes"] / solver.nodes, 3),
        "cuts": record["cuts"],
        "refused": record["refused"],
        "values_asked": len(record["values_asked"]),
    }


def parse_list(text: str, option: str, allowed: Any) -> list[str]:
    """``a,b`` -> ["a", "b"], each in ``allowed``; ValueError naming ``option`` and the fault."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise ValueError(f"{option}: {bad[0] if bad else text!r} is not one of {', '.join(map(str, allowed))}")
    return items


def main(argv: list[str] | None = None) -> int:
    parser = base_parser(__doc__.splitlines()[0], "partition-ceiling.json")
    parser.add_argument(
        "--only", default=DEFAULT_ONLY, help=f"positions as SET/SEED:CALLER,... (default {DEFAULT_ONLY})"
    )
    parser.add_argument(
        "--relevance",
        default=DEFAULT_RELEVANCE,
        help=f"which cards an entry's positions must place alike, one run each: {', '.join(RELEVANCE)} "
        f"(default {DEFAULT_RELEVANCE}; see the module's help)",
    )
    parser.add_argument(
        "--tops", default="0", help="exact highest live cards a suit in the class, one run each (default 0)"
    )
    parser.add_argument(
        "--cards", type=int, default=12, help="only where the seat to move holds at most this many cards (12)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.only = "c/3:2"
    try:
        sets = parse_only(args.only)
    except ValueError as exc:
        parser.error(f"--only: {exc}")
    try:
        kinds = parse_list(args.relevance, "--relevance", RELEVANCE)
        tops = [int(t) for t in parse_list(args.tops, "--tops", [str(n) for n in range(10)])]
    except ValueError as exc:
        parser.error(str(exc))
    if not 1 <= args.cards <= 12:
        parser.error(f"--cards: {args.cards} is not a hand's size (1-12)")
    cases = [(f"{name}/{c.seed}:{c.caller}", c) for name in sets for c in chosen_cases({name: sets[name]})]
    if not cases:
        print("partition_ceiling: none of the --only positions is in its bench set", file=sys.stderr)
        return 2
    from lukfu_solver.search.compiled import prepare_kernel

    prepare_kernel()
    runs = [f"{k}/{t}" for k in kinds for t in tops]
    results: dict[str, Any] = {}
    for (label, case), run in progress([(c, r) for c in cases for r in [None, *runs]], "searches"):
        if run is None:
            results[label] = {**plain(case.position), "runs": {}}
            print(f"{label}: value {results[label]['value']}, {results[label]['nodes']:,} nodes", flush=True)
            continue
        kind, top = run.split("/")
        r = results[label]["runs"][run] = measure(case.position, results[label], int(top), args.cards, kind)
        print(
            f"  {run:10s} {r['nodes']:>9,} nodes  x{r['ratio']:.2f}  "
            f"({r['cuts']:,} cuts, {r['refused']:,} refused by the value)",
            flush=True,
        )
    total = sum(r["nodes"] for r in results.values())
    pooled = {run: round(total / sum(r["runs"][run]["nodes"] for r in results.values()), 3) for run in runs}
    print("\nall positions, nodes without / with (relevance/exact highest cards a suit):")
    for run, v in pooled.items():
        print(f"  x{v:5.2f}  {run}: {RELEVANCE[run.split('/')[0]]}")
    save_json(
        {
            "bench": "partition_ceiling",
            "what": __doc__.splitlines()[0],
            "positions": args.only,
            "cards": args.cards,
            "relevance": RELEVANCE,
            "results": results,
            "pooled_ratio": pooled,
        },
        args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
