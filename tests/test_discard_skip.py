"""Where the search leaves out the follower's discard bound (issue 13, tenth round, "The discard
bound where it can decide"): in a trick led with a single that a non-caller is certain to win,
``search.bounds._discard_ahead_bound`` is the winner's R7 look-ahead with the seats still to play
missing one card each, which is what ``value_bounds``' single-trick playout already gives at its
only end (everybody still to play discards; a discarding seat keeps its whole hand there, one card
unknown). So the bound never passes the node's lower bound there and both searches skip the call,
the tree unchanged (``tests/test_node_counts.py`` holds the counts). Checked on many seeded
mid-trick endgames of every kind; the same skip for a set or run led, or for a trick the caller
wins, would lose cuts, and the cases show it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from oracle import random_endgame  # noqa: E402

from lukfu_solver.plays import SINGLE  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402


def _cases() -> list[Position]:
    """Seeded mid-trick positions of 4 to 8 cards a hand at a non-caller's discard where the bound
    applies (a certain winner), singles and sets or runs led, either follower."""
    out = []
    for seed in range(4000):
        n = 4 + seed % 5
        try:
            pos = random_endgame(61_000 + seed, n, 1 + (seed // 5) % 2, multi=seed % 3 == 0)
        except LookupError:
            continue
        if pos.trick and pos.to_move != pos.caller and B._discard_ahead_bound(pos, B.INF) > -B.INF:
            out.append(pos)
    return out


CASES = _cases()


def _kind(pos: Position) -> tuple[bool, bool]:
    return pos.trick[0].kind == SINGLE, pos.best_seat == pos.caller


def test_the_cases_are_many_and_varied() -> None:
    kinds = [_kind(p) for p in CASES]
    for k in ((True, False), (True, True), (False, False), (False, True)):
        assert kinds.count(k) >= 20, (k, kinds.count(k))
    assert {len(p.trick) for p in CASES} == {1, 2}


def test_a_non_callers_single_trick_adds_nothing() -> None:
    """In a trick led with a single that a non-caller wins, the bound (no stop, no floor) never
    passes value_bounds' lower bound: the search's call there could neither cut nor raise."""
    n = 0
    for pos in CASES:
        if _kind(pos) == (True, False):
            assert B._discard_ahead_bound(pos, B.INF) <= B.value_bounds(pos)[0], str(pos)
            n += 1
    assert n >= 20, n


def test_elsewhere_it_raises_the_lower_bound() -> None:
    """A wider skip is caught: with a set or run led (a non-caller winning), and in a single's trick
    the caller wins, the bound passes value_bounds' lower bound on some cases."""
    raised: dict[tuple[bool, bool], int] = {}
    for pos in CASES:
        k = _kind(pos)
        raised[k] = raised.get(k, 0) + (B._discard_ahead_bound(pos, B.INF) > B.value_bounds(pos)[0])
    assert raised.get((False, False), 0) > 0, raised
    assert raised.get((True, True), 0) > 0, raised


def test_kernel_bound_equals_the_reference_on_every_kind() -> None:
    """The compiled bound (its R7 look-ahead at an end given up at the end's reach and the floor,
    and played out for its lower bound alone) equals the reference's on every case, for the stops
    and floors the search can pass."""
    from lukfu_solver.search.fast import FastSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = FastSolver(max_entries=1024)
    for pos in CASES[::2]:
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        for stop in (hi0, B.INF, 0, 4):
            for floor in (-B.INF, lo0, -2, 2):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == B._discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)


def test_the_lower_bound_alone_of_the_r7_trick() -> None:
    """``discards.ahead_first_lo`` is ``bounds.ahead_first``'s lower bound, for every single of a
    leader's hand and every way the others may be missing cards, on seeded positions at a lead."""
    from lukfu_solver.search.fast import FastSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB
    from lukfu_solver.search.kernel import discards as KD
    from lukfu_solver.search.kernel.layout import F_FACEUP, F_FU0, F_H0

    solver = FastSolver(max_entries=1024)
    checked = 0
    for seed in range(300):
        pos = random_endgame(67_000 + seed, 4 + seed % 5)
        load_row(solver.st, 0, pos)
        r = solver.st[0]
        m, f, up = [int(r[F_H0 + s]) for s in range(3)], [int(r[F_FU0 + s]) for s in range(3)], int(r[F_FACEUP])
        w = pos.to_move
        left = pos.cards_per_hand()
        for c in (1 << i for i in range(64) if m[w] >> i & 1):
            n = [h & ~c if s == w else h for s, h in enumerate(m)]
            for unsure in (0, 1 << 4 * ((w + 1) % 3), 1 << 4 * ((w + 2) % 3), 2 << 4 * ((w + 1) % 3) | 1 << 4 * ((w + 2) % 3)):
                args = (solver.T, pos.caller, w, c, *n, *f, up | c, left - 1, unsure)
                assert KD.ahead_first_lo(*args) == KB.ahead_first(*args)[0], (str(pos), c, unsure)
                checked += 1
    assert checked >= 1000, checked
