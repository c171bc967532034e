"""Where the search leaves out the follower's discard bound (issue 13, tenth round, "The discard
bound where it can decide"): in a trick led with a single that a non-caller is certain to win,
``search.discards.discard_ahead_bound`` is the winner's R7 look-ahead with the seats still to play
missing one card each, which is what ``value_bounds``' single-trick playout already gives at its
only end (everybody still to play discards; a discarding seat keeps its whole hand there, one card
unknown). So the bound never passes the node's lower bound there and both searches skip the call,
the tree unchanged (``tests/test_node_counts.py`` holds the counts). Checked on many seeded
mid-trick endgames of every kind; the same skip for a set or run led, or for a trick the caller
wins, would lose cuts, and the cases show it.
"""

from __future__ import annotations

import pytest
from oracle import random_endgame

from lukfu_solver.plays import SINGLE  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import discards as D  # noqa: E402


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
        if pos.trick and pos.to_move != pos.caller and D.discard_ahead_bound(pos, B.INF) > -B.INF:
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
            assert D.discard_ahead_bound(pos, B.INF) <= B.value_bounds(pos)[0], str(pos)
            n += 1
    assert n >= 20, n


def test_elsewhere_it_raises_the_lower_bound() -> None:
    """A wider skip is caught: with a set or run led (a non-caller winning), and in a single's trick
    the caller wins, the bound passes value_bounds' lower bound on some cases."""
    raised: dict[tuple[bool, bool], int] = {}
    for pos in CASES:
        k = _kind(pos)
        raised[k] = raised.get(k, 0) + (D.discard_ahead_bound(pos, B.INF) > B.value_bounds(pos)[0])
    assert raised.get((False, False), 0) > 0, raised
    assert raised.get((True, True), 0) > 0, raised


@pytest.mark.slow
def test_kernel_bound_equals_the_reference_on_every_kind() -> None:
    """The compiled bound (its R7 look-ahead at an end given up at the end's reach and the floor,
    and played out for its lower bound alone) equals the reference's on every case, for the stops
    and floors the search can pass."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = CompiledSolver(max_entries=1024)
    for pos in CASES[::2]:
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        for stop in (hi0, B.INF, 0, 4):
            for floor in (-B.INF, lo0, -2, 2):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == D.discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)


def test_the_lower_bound_alone_of_the_r7_trick() -> None:
    """``discards.ahead_first_lo`` is ``bounds.ahead_first``'s lower bound, for every single of a
    leader's hand and every way the others may be missing cards, on seeded positions at a lead."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB
    from lukfu_solver.search.kernel import discards as KD
    from lukfu_solver.search.kernel.layout import F_FACEUP, F_FU0, F_H0

    solver = CompiledSolver(max_entries=1024)
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
            for unsure in (
                0,
                1 << 4 * ((w + 1) % 3),
                1 << 4 * ((w + 2) % 3),
                2 << 4 * ((w + 1) % 3) | 1 << 4 * ((w + 2) % 3),
            ):
                args = (solver.T, pos.caller, w, c, *n, *f, up | c, left - 1, unsure)
                assert KD.ahead_first_lo(*args) == KB.ahead_first(*args)[0], (str(pos), c, unsure)
                checked += 1
    assert checked >= 1000, checked


def _pretest_cases() -> list[tuple]:
    """Each caller's single of the cases the caller wins, as ``kernel.discards.discard_ahead_bound``
    plays it out: (caller, c, up, hands after c, fu, left, unsure)."""
    from lukfu_solver.cards import UNBEATABLE_LEAD

    out = []
    for pos in CASES:
        if pos.best_seat != pos.caller:
            continue
        caller = pos.caller
        rest, _ = B._still_to_play(pos)
        unsure = sum(pos.trick[0].size << 4 * s for s in rest)
        fu = list(pos.fu)
        fu[caller] += pos.best.size
        up = pos.faceup | pos.trick_faceup
        hand = pos.hands[caller]
        others = pos.hands[(caller + 1) % 3] | pos.hands[(caller + 2) % 3]
        for c in B._bits(hand):
            if c & UNBEATABLE_LEAD or not others & B._above_in_suit(c):
                continue
            rem = B._with(list(pos.hands), caller, hand & ~c)
            out.append((caller, c, up | c, rem, fu, hand.bit_count() - 1, unsure))
    return out


def _given_up(case: tuple, fl: int, exact: bool = True) -> bool:
    """The kernel's test before a single's playout (``discard_ahead_bound``), in Python; with
    ``exact`` False, a wrong variant that forgets to check that the follower can win the trick."""
    caller, c, _, rem, fu, left, unsure = case
    s1, s2 = (caller + 1) % 3, (caller + 2) % 3
    u1, u2 = unsure >> 4 * s1 & 15, unsure >> 4 * s2 & 15
    g = [B._reach_bounds([fu[x] + left + (x == s) for x in range(3)], caller)[0] for s in range(3)]
    h1, h2 = rem[s1], rem[s2]
    x1 = h1 & B._above_in_suit(c)
    if u2 and g[s2] <= fl:
        if not exact:
            return True
        if x1.bit_count() <= u1 and h2 & B._above_in_suit(c):
            return True
        if x1 and h2 & B._above_in_suit(x1 & -x1):
            return True
    if u1 and g[s1] <= fl and (x1 or not exact):
        if not exact:
            return True
        return (h2 & B._above_in_suit(1 << x1.bit_length() - 1)).bit_count() <= u2
    return False


@pytest.mark.slow
def test_the_test_before_a_singles_playout() -> None:
    """Where the kernel gives a caller's single up before its playout, the reference's playout
    (``discards._disc_play``) is at or below the floor too, for every floor; it gives up many; the
    wrong variant (a reachable end not checked) gives up singles whose playout is above the floor."""
    fired = wrong = 0
    for case in _pretest_cases():
        caller, c, up, rem, fu, left, unsure = case
        for fl in range(-12, 13, 2):
            v = D._disc_play(caller, 1, c, caller, True, up, rem, fu, left, unsure, fl)
            if _given_up(case, fl):
                assert v == -B.INF, (case, fl, v)
                fired += 1
            elif _given_up(case, fl, exact=False):
                wrong += v > -B.INF
    assert fired >= 200, fired
    assert wrong >= 5, wrong
