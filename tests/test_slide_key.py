"""The table key slides cards down over the face-up cards below them (``reference.canonical_hands``):
the relative ranks of the bridge solvers, kept exact for sets, runs, C1 and T1.

A card of a hand with only face-up cards of completed tricks below it (down to the next card
of its suit still in play or face down) plays as the lowest of those places would, when it is
in no set and no run of its hand in either place and the place is not that of C1 or T1. The
merge is proved here where it applies: on seeded endgames where the key slides a card, the slid
position (built as a position of its own) has the value of the original, by the plain minimax
of ``tests/oracle.py``; positions one slide apart share the key and the value; and a slide that
breaks one of the conditions (into the place of C1 or T1, or of a card in a run) changes the
value on some seeded position, so the conditions are not idle. The kernel's key is the
reference's on all of them.
"""

from __future__ import annotations

import pytest
from oracle import oracle_value, random_endgame

from lukfu_solver.cards import ALL_CARDS, UNBEATABLE_LEAD
from lukfu_solver.position import Position
from lukfu_solver.search import tt_key
from lukfu_solver.search.table_key import RANK1, _free, canonical_hands


def rebuilt(pos: Position, hands: list[int], faceup: int) -> Position:
    """``pos`` with other hands and completed tricks' face-up cards (the trick in progress kept)."""
    return Position(list(hands), pos.to_move, pos.caller, list(pos.fu), faceup, pos.trick)


def positions(count: int, first_seed: int = 0) -> list[Position]:
    """Seeded endgames of 3-4 cards a hand (0-2 plays into the trick) where the key slides a card."""
    out = []
    seed = first_seed
    while len(out) < count:
        pos = random_endgame(seed, 3 + seed % 2, plays=seed % 3)
        seed += 1
        if canonical_hands(pos)[0] != pos.hands:
            out.append(pos)
    return out


def one_slide_up(pos: Position) -> list[Position]:
    """The positions a slide down would bring back to ``pos``: a free card of a hand moved one
    place up onto a face-up card of a completed trick, still free there."""
    out = []
    for s in range(3):
        hand = pos.hands[s]
        for c in range(36):
            x = 1 << c
            y = x << 1
            if not hand & x or c % 9 == 8 or not pos.faceup & y or x & UNBEATABLE_LEAD:
                continue
            moved = hand ^ x ^ y
            if _free(hand, x) and _free(moved, y):
                hands = list(pos.hands)
                hands[s] = moved
                out.append(rebuilt(pos, hands, pos.faceup ^ x ^ y))
    return out


@pytest.mark.slow
def test_a_slid_position_has_the_value_of_the_original() -> None:
    for pos in positions(40):
        hands, down = canonical_hands(pos)
        assert hands != pos.hands
        slid = rebuilt(pos, hands, ALL_CARDS & ~(hands[0] | hands[1] | hands[2] | pos.trick_cards | down))
        assert sorted(bin(h).count("1") for h in hands) == sorted(bin(h).count("1") for h in pos.hands)
        assert oracle_value(slid) == oracle_value(pos), (str(pos), str(slid))


@pytest.mark.slow
def test_positions_one_slide_apart_share_the_key_and_the_value() -> None:
    merged = 0
    for pos in positions(40, first_seed=1000):
        value = oracle_value(pos)
        for alt in one_slide_up(pos):
            assert tt_key(alt) == tt_key(pos), (str(pos), str(alt))
            assert oracle_value(alt) == value, (str(pos), str(alt))
            merged += 1
    assert merged >= 20  # the test saw real merges


def _bad_slides(pos: Position) -> list[Position]:
    """Slides down by one place that break a condition: into the place of C1 or T1, or of a card
    that is in a run of its hand (before or after)."""
    out = []
    for s in range(3):
        hand = pos.hands[s]
        for c in range(36):
            x = 1 << c
            low = x >> 1
            if not hand & x or x & RANK1 or not pos.faceup & low:
                continue
            moved = hand ^ x ^ low
            into_c1_t1 = bool(low & UNBEATABLE_LEAD)
            if into_c1_t1 or not _free(hand, x) or not _free(moved, low):
                hands = list(pos.hands)
                hands[s] = moved
                out.append(rebuilt(pos, hands, pos.faceup ^ x ^ low))
    return out


@pytest.mark.slow
def test_the_conditions_are_needed() -> None:
    changed = 0
    seed = 0
    while changed < 3 and seed < 3000:
        pos = random_endgame(seed, 3 + seed % 2)
        seed += 1
        bad = _bad_slides(pos)
        if bad:
            value = oracle_value(pos)
            changed += any(oracle_value(b) != value for b in bad)
    assert changed >= 3


def test_the_kernel_key_is_the_reference_key() -> None:
    pytest.importorskip("numba")
    import numpy as np

    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import load_row, tables

    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    for pos in positions(40, first_seed=2000):
        for alt in [pos, *one_slide_up(pos)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)
