"""The table key merges positions that differ only in how the gone cards went (face up or face
down) when that cannot change the game (``reference.tt_key``, ``reference.blocked_cards``).

The cards of completed tricks matter only through Old (R12), and there only through the cards
in hands below each suit's highest face-down discard. Here the merge is proved where it applies:
for seeded positions, every other split of the gone cards into face up and face down is built;
when it leaves the same cards blocked, the key must be the same and so must the value (solved
from scratch, without the reduction); when it does not, the key must differ. The kernel's key is
checked against the reference's on all of them.
"""

from __future__ import annotations

import random

import pytest

from lukfu_solver.cards import SUIT_MASK9
from lukfu_solver.endgames import random_endgame
from lukfu_solver.position import Position
from lukfu_solver.search import Solver, tt_key
from lukfu_solver.search.table_key import blocked_cards


def resplit(pos: Position, down: int) -> Position:
    """``pos`` with the completed tricks' gone cards split anew: ``down`` face down, the rest up."""
    gone = pos.faceup | pos.facedown
    assert down & ~gone == 0
    return Position(pos.hands, pos.to_move, pos.caller, pos.fu, gone & ~down, pos.trick)


def same_blocking_splits(pos: Position, rng: random.Random, count: int) -> list[Position]:
    """Other splits of ``pos``'s gone cards that block the same cards in hands: per suit the
    highest face-down card may move to any gone card between the same two cards in hands, and
    any gone card below it may turn either way."""
    live = pos.hands[0] | pos.hands[1] | pos.hands[2]
    gone = pos.faceup | pos.facedown
    out = []
    for _ in range(count):
        down = 0
        for suit in range(4):
            sh = 9 * suit
            d9 = (pos.facedown >> sh) & SUIT_MASK9
            g9 = (gone >> sh) & SUIT_MASK9
            l9 = (live >> sh) & SUIT_MASK9
            if not d9:
                low = l9 & -l9  # face-down cards below the lowest card in hand block nothing
                d_new = sum(
                    1 << r for r in range(9) if g9 >> r & 1 and (not low or 1 << r < low) and rng.random() < 0.5
                )
                down |= d_new << sh
                continue
            top = 1 << (d9.bit_length() - 1)
            below = l9 & (top - 1)
            above = l9 & ~(top - 1) & ~top
            lo_edge = 1 << (below.bit_length() - 1) if below else 0
            hi_edge = above & -above if above else 1 << 9
            # the new highest face-down card: a gone card strictly between lo_edge and hi_edge
            cands = [1 << r for r in range(9) if g9 >> r & 1 and lo_edge < 1 << r < hi_edge]
            if not below:  # nothing is blocked: any face-down cards below the lowest card in hand
                cands = [1 << r for r in range(9) if g9 >> r & 1 and (1 << r) < hi_edge]
            t = rng.choice(cands)
            rest = sum(1 << r for r in range(9) if g9 >> r & 1 and 1 << r < t and rng.random() < 0.5)
            down |= (t | rest) << sh
        alt = resplit(pos, down)
        if alt.facedown.bit_count() <= pos.facedown.bit_count() + 2:
            out.append(alt)
    return out


def positions() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand with face-down cards among the gone ones."""
    out = []
    for seed in range(400):
        pos = random_endgame(seed, 3 + seed % 3)
        if pos.facedown and pos.faceup:
            out.append(pos)
        if len(out) == 40:
            break
    return out


def test_blocked_cards_are_those_below_a_higher_face_down_card() -> None:
    for pos in positions():
        live = pos.hands[0] | pos.hands[1] | pos.hands[2]
        for c in range(36):
            if live >> c & 1:
                suit, r = divmod(c, 9)
                higher_down = any(pos.facedown >> (9 * suit + q) & 1 for q in range(r + 1, 9))
                assert bool(blocked_cards(pos) >> c & 1) == higher_down


@pytest.mark.slow
def test_splits_that_block_the_same_cards_share_the_key_and_the_value() -> None:
    rng = random.Random(5)
    merged = 0
    for pos in positions():
        value = Solver(reduce=False).solve(pos).value
        for alt in same_blocking_splits(pos, rng, 3):
            assert blocked_cards(alt) == blocked_cards(pos)
            assert tt_key(alt) == tt_key(pos)
            assert Solver(reduce=False).solve(alt).value == value, (str(pos), str(alt))
            merged += alt.faceup != pos.faceup
    assert merged >= 40  # the test saw real merges, not only the same position again


def test_splits_that_block_other_cards_have_other_keys() -> None:
    rng = random.Random(6)
    differ = 0
    for pos in positions():
        gone = pos.faceup | pos.facedown
        for _ in range(6):
            down = sum(1 << c for c in range(36) if gone >> c & 1 and rng.random() < 0.3)
            alt = resplit(pos, down)
            if blocked_cards(alt) != blocked_cards(pos):
                differ += 1
                assert tt_key(alt) != tt_key(pos)
    assert differ >= 20


def test_the_kernel_key_is_the_reference_key_on_every_split() -> None:
    pytest.importorskip("numba")
    import numpy as np

    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import load_row, tables

    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    rng = random.Random(7)
    for pos in positions():
        for alt in [pos, *same_blocking_splits(pos, rng, 2)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)
