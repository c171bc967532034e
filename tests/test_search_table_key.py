"""The table key slides whole runs down over gone cards (``reference._slide_runs``), the relative
ranks of the bridge solvers extended from single cards to runs.

A maximal run of a hand (three or more consecutive cards of a suit, neither neighbour in the
hand) with only gone cards of completed tricks below it plays as the same run lower down, when
its new bottom is not just above a card of its hand (it would join a longer run), nor the place
of C1 or T1, and none of its cards is in a set of the hand in either place. The merge is proved
here where it applies: on seeded endgames where the key slides a run, the canonical form (built
as a position of its own) has the value of the original, by the alpha-beta of
``tests/oracle.py``; positions one run slide apart share the key and the value; each condition
is needed (a slide that breaks it changes the value of a position built for it, and the key
keeps the two apart); and the kernel's
key is the reference's on all of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from oracle import oracle_ab, random_endgame

from lukfu_solver.cards import ALL_CARDS, RANK_MASK, SUIT_MASK9, UNBEATABLE_LEAD, format_cards, parse_cards
from lukfu_solver.position import Position
from lukfu_solver.search import kernel as K
from lukfu_solver.search import table_key as R
from lukfu_solver.search import tt_key
from lukfu_solver.search.compiled import load_row, tables


def rebuilt(pos: Position, hands: list[int], faceup: int) -> Position:
    """``pos`` with other hands and completed tricks' face-up cards (the trick in progress kept)."""
    return Position(list(hands), pos.to_move, pos.caller, list(pos.fu), faceup, pos.trick)


@contextmanager
def singles_only() -> Iterator[None]:
    """The canonical form without the run slides (the key of the round before them)."""
    saved = R._slide_runs
    R._slide_runs = lambda hands, over, movable: over
    try:
        yield
    finally:
        R._slide_runs = saved


def slides_a_run(pos: Position) -> bool:
    """Whether the canonical form of ``pos`` moves a run (it differs from the singles-only form)."""
    with singles_only():
        singles = R.canonical_hands(pos)
    return R.canonical_hands(pos) != singles


def positions(count: int, first_seed: int) -> list[Position]:
    """Seeded endgames of 4-5 cards a hand (0-2 plays into the trick) whose key slides a run."""
    out = []
    seed = first_seed
    while len(out) < count:
        pos = random_endgame(seed, 4 + seed % 2, plays=seed % 3)
        seed += 1
        if slides_a_run(pos):
            out.append(pos)
    return out


def runs_of(hand: int) -> Iterator[tuple[int, int, int]]:
    """The maximal runs of ``hand``: (the suit's bit shift, the bottom's rank index 0-8, length)."""
    for shift in (0, 9, 18, 27):
        m9 = (hand >> shift) & SUIT_MASK9
        r = 0
        while r < 9:
            if not m9 >> r & 1:
                r += 1
                continue
            top = r
            while top + 1 < 9 and m9 >> (top + 1) & 1:
                top += 1
            if top - r >= 2:
                yield shift, r, top - r + 1
            r = top + 1


def in_a_set(hand: int, cards: int) -> bool:
    """Whether some card of ``cards`` is in a set (three or more of its rank) of ``hand``."""
    return any(cards >> c & 1 and (hand & RANK_MASK[c % 9 + 1]).bit_count() >= 3 for c in range(36))


def moved_up_by_one(pos: Position, s: int, shift: int, lo: int, length: int) -> Position | None:
    """``pos`` with the run of seat ``s`` at (shift, lo, length) moved one place up onto a
    face-up card of a completed trick (which takes the place the run leaves), or None."""
    if lo + length > 8 or not pos.faceup >> (lo + length + shift) & 1:
        return None
    block = ((1 << length) - 1) << (lo + shift)
    hands = list(pos.hands)
    hands[s] ^= block ^ (block << 1)
    return rebuilt(pos, hands, pos.faceup ^ block ^ (block << 1))


def one_run_slide_up(pos: Position) -> list[Position]:
    """The positions a run slide down by one place would bring back to ``pos``: a maximal run
    moved one place up onto a face-up card of a completed trick, still a maximal run there, its
    bottom not in the place of C1 or T1 and its cards in no set in either place."""
    out = []
    for s in range(3):
        for shift, lo, length in runs_of(pos.hands[s]):
            alt = moved_up_by_one(pos, s, shift, lo, length)
            if alt is None:
                continue
            block = ((1 << length) - 1) << (lo + shift)
            top_after = lo + length  # the rank index of the moved run's top
            still_maximal = top_after == 8 or not alt.hands[s] >> (top_after + 1 + shift) & 1
            if (
                still_maximal
                and not block & UNBEATABLE_LEAD
                and not in_a_set(pos.hands[s], block)
                and not in_a_set(alt.hands[s], block << 1)
            ):
                out.append(alt)
    return out


@pytest.mark.slow
def test_a_run_slid_position_has_the_value_of_the_original() -> None:
    for pos in positions(25, first_seed=0):
        hands, down = R.canonical_hands(pos)
        slid = rebuilt(pos, hands, ALL_CARDS & ~(hands[0] | hands[1] | hands[2] | pos.trick_cards | down))
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in pos.hands]
        assert oracle_ab(slid) == oracle_ab(pos), (str(pos), str(slid))


@pytest.mark.slow
def test_positions_one_run_slide_apart_share_the_key_and_the_value() -> None:
    merged = 0
    for pos in positions(40, first_seed=3000):
        canon, down = R.canonical_hands(pos)
        base = rebuilt(pos, canon, ALL_CARDS & ~(canon[0] | canon[1] | canon[2] | pos.trick_cards | down))
        value = oracle_ab(base)
        for alt in one_run_slide_up(base):
            assert tt_key(alt) == tt_key(base), (str(base), str(alt))
            assert oracle_ab(alt) == value, (str(base), str(alt))
            merged += 1
    assert merged >= 10  # the test saw real merges


def built(hands: str, rest: str) -> Position:
    """A position from its hands and the rest of its notation, every gone card face up."""
    live = 0
    for h in hands.split("/"):
        live |= parse_cards(h)
    return Position.parse(f"{hands} {rest.replace('UP', format_cards(ALL_CARDS & ~live))}")


BAD_RUN_SLIDES = {
    # the run's bottom into the place of C1 (always Old): the caller claims at once
    "into C1": ("C234/C9S23/S456", "C123/C9S23/S456", "0 0 5,2,2 UP -"),
    # the run joins the hand's C2 below: the four-card run C2345 nobody can beat
    "joins a card below": ("C2456/C9S789/M789T2", "C2345/C9S789/M789T2", "0 0 2,3,3 UP -"),
    # C6 of the run is in the set C6S6M6: slid to C345 the set is gone
    "in a set": ("C456S6M6/S789T89/M789T67", "C345S6M6/S789T89/M789T67", "0 0 3,2,2 UP -"),
}
"""One slide of a run by one place over a face-up card for each condition it breaks: the
original hands, the slid hands, and the rest of the position."""


def test_each_run_condition_is_needed() -> None:
    for why, (hands, slid_hands, rest) in BAD_RUN_SLIDES.items():
        pos, slid = built(hands, rest), built(slid_hands, rest)
        assert oracle_ab(pos) != oracle_ab(slid), why
        assert tt_key(pos) != tt_key(slid), why


def test_the_kernel_key_is_the_reference_key_where_runs_slide() -> None:
    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    for pos in positions(25, first_seed=6000):
        for alt in [pos, *one_run_slide_up(pos)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)
