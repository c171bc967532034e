"""The kernel's sure claim (``kernel.claims._sure_claim``) against the reference's
(``search.bounds._sure_claim``) on hands rich in sets and runs.

The kernel finds the ranks holding a set with one mask of the four suits and the stretches of
three or more with one bit trick, where the reference walks every rank and grows every stretch
card by card. The playouts of ``tests/test_kernel.py`` compare whole
bounds, but random deals seldom hold a four-card set, a passed Master's long run or two runs in
one suit; here the hands are built to hold them, and the claim total and the drain must be equal
on every one. Shuffling which cards are unbeatable (the other hands are dealt from what is left)
makes each branch of the cashing loops count.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search.compiled import tables  # noqa: E402
from lukfu_solver.search.kernel import claims as KB  # noqa: E402


def _rich_hand(rng: random.Random, size: int) -> int:
    """A hand of ``size`` cards (ranks 1-9 of four suits, bit ``9 * suit + rank - 1``) that often
    holds sets (three or four of a rank) and runs (stretches of one suit), topped up at random."""
    hand = 0
    for _ in range(rng.randint(0, 2)):  # sets
        rank = rng.randrange(9)
        suits = rng.sample(range(4), rng.choice((3, 3, 4)))
        for s in suits:
            hand |= 1 << (9 * s + rank)
    for _ in range(rng.randint(0, 3)):  # stretches of one suit, some of them two in one suit
        suit = rng.randrange(4)
        start = rng.randrange(7)
        for r in range(start, min(9, start + rng.randint(2, 6))):
            hand |= 1 << (9 * suit + r)
    cards = [c for c in range(36) if hand >> c & 1]
    rng.shuffle(cards)
    hand = sum(1 << c for c in cards[:size])
    rest = [c for c in range(36) if not hand >> c & 1]
    rng.shuffle(rest)
    while hand.bit_count() < size:
        hand |= 1 << rest.pop()
    return hand


def _cases(count: int) -> list[tuple[int, int, int, int, int, int, int]]:
    """Seeded (seat, hand, fu, o1, o2, face-up, caller) cases: a rich hand for the seat, the other
    two hands dealt from the rest (as many cards each, or fewer), some of the rest face up."""
    rng = random.Random(1313)
    out = []
    for _ in range(count):
        size = rng.randint(3, 12)
        hand = _rich_hand(rng, size)
        rest = [c for c in range(36) if not hand >> c & 1]
        rng.shuffle(rest)
        k = rng.randint(0, min(size, len(rest) // 2))
        o1 = sum(1 << c for c in rest[:k])
        o2 = sum(1 << c for c in rest[k : 2 * k])
        up = sum(1 << c for c in rest[2 * k :] if rng.random() < 0.6)
        out.append((rng.randrange(3), hand, rng.randint(0, 12 - size), o1, o2, up, rng.randrange(3)))
    return out


@pytest.mark.slow
def test_sure_claim_equals_reference_on_hands_with_sets_and_runs() -> None:
    """Claim total and drain are the reference's on 20,000 rich hands, for every seat and caller
    (a passed Master, seat 0 when another seat called, cashes no four-card set and runs of three)."""
    T = tables()
    cases = _cases(20_000)
    sets = runs = passed = 0
    for s, hand, fu, o1, o2, up, caller in cases:
        want = B._sure_claim(s, hand, fu, o1, o2, up, caller)
        got = KB._sure_claim(T, s, hand, fu, o1, o2, up, caller)
        assert (int(got[0]), int(got[1])) == want, (s, hand, fu, o1, o2, up, caller)
        suits = [(hand >> (9 * i)) & 0x1FF for i in range(4)]
        sets += any(sum(m >> r & 1 for m in suits) >= 3 for r in range(9))
        runs += any(m & (m >> 1) & (m >> 2) for m in suits)
        passed += s == 0 and caller != 0
    # the cases exercise what the kernel computes differently: sets, runs, the passed Master
    assert sets > 5_000 and runs > 5_000 and passed > 3_000


def test_sure_claim_cashes_what_is_unbeatable() -> None:
    """Hand-made cases with known answers: a four-card set the passed Master may not lead, two
    runs in one suit, a run beaten by a higher suit's run."""
    T = tables()

    def card(suit: int, rank: int) -> int:
        return 1 << (9 * suit + rank - 1)

    fours = card(0, 5) | card(1, 5) | card(2, 5) | card(3, 5)
    other = card(0, 2) | card(1, 3) | card(2, 4) | card(3, 6)
    # seat 1 (the caller) leads four 5s nobody can beat: four cards drained, four non-Old cashed
    assert KB._sure_claim(T, 1, fours, 2, other, 0, 0, 1) == B._sure_claim(1, fours, 2, other, 0, 0, 1)
    assert KB._sure_claim(T, 1, fours, 2, other, 0, 0, 1)[1] == 4
    # seat 0 as a passed Master may not lead them (R6): nothing drained by the set
    assert KB._sure_claim(T, 0, fours, 2, other, 0, 0, 1)[1] == B._sure_claim(0, fours, 2, other, 0, 0, 1)[1]
    two_runs = card(1, 1) | card(1, 2) | card(1, 3) | card(1, 5) | card(1, 6) | card(1, 7)
    for o1 in (0, card(2, 1) | card(2, 2) | card(2, 3)):  # no run against them, or a Myriads run
        want = B._sure_claim(2, two_runs, 0, o1, 0, 0, 2)
        assert KB._sure_claim(T, 2, two_runs, 0, o1, 0, 0, 2) == want
    assert KB._sure_claim(T, 2, two_runs, 0, 0, 0, 0, 2)[1] == 6
