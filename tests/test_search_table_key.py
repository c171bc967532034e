"""The table's keys (``search/table_key.py``): each merge of positions the key makes is proved
where it applies, each condition shown to be needed, and the kernel's key is the reference's.

- **Blocked cards** (``tt_key``, ``blocked_cards``): the key merges positions that differ only in
  how the gone cards went (face up or face down) when that cannot change the game. The cards of
  completed tricks matter only through Old (R12), and there only through the cards in hands
  below each suit's highest face-down discard. For seeded positions every other split of the
  gone cards into face up and face down is built; when it leaves the same cards blocked, the key
  must be the same and so must the value (solved from scratch, without the reduction); when it
  does not, the key must differ.
- **Slides of single cards** (``canonical_hands``): a card of a hand with only face-up cards of
  completed tricks below it (down to the next card of its suit still in play or face down) plays
  as the lowest of those places would, when it is in no set and no run of its hand in either
  place and the place is not that of C1 or T1 (the relative ranks of the bridge solvers, kept
  exact for sets, runs, C1 and T1). On seeded endgames where the key slides a card, the slid
  position (built as a position of its own) has the value of the original by the plain minimax
  of ``tests/oracle.py``; positions one slide apart share the key and the value; and a slide that
  breaks one of the conditions changes the value on some seeded position.
- **Slides of runs** (``_slide_runs``): a maximal run of a hand (three or more consecutive cards
  of a suit, neither neighbour in the hand) with only gone cards of completed tricks below it
  plays as the same run lower down, when its new bottom is not just above a card of its hand (it
  would join a longer run), nor the place of C1 or T1, and none of its cards is in a set of the
  hand in either place. The canonical form has the value of the original by the alpha-beta of
  ``tests/oracle.py``; positions one run slide apart share the key and the value; each condition
  is needed (a slide that breaks it changes the value of a position built for it, and the key
  keeps the two apart).
- **The last player's key** (``last_key``): where the second player of a trick discarded and the
  last one cannot beat the lead, the position is keyed as if that discard were already gone face
  down. On seeded endgames every discard of the second player is played; the positions that
  share a ``last_key`` all have one value by the plain minimax, and some do share one. A key that
  forgets that the discard blocks the cards below it (its cards taken as face up instead) merges
  positions of different values, so that condition is not idle. The kernel's key is the
  reference's integer along discard-rich playouts.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from oracle import oracle_ab, oracle_value, random_endgame

from lukfu_solver import endgames
from lukfu_solver.cards import ALL_CARDS, RANK_MASK, SUIT_MASK9, UNBEATABLE_LEAD, format_cards, parse_cards
from lukfu_solver.endgames import full_deal
from lukfu_solver.plays import CLAIM, DISCARD
from lukfu_solver.position import Z_TRICK_DOWN, Position, zmask
from lukfu_solver.rules import can_beat
from lukfu_solver.search import Solver, tt_key
from lukfu_solver.search import kernel as K
from lukfu_solver.search import table_key as R
from lukfu_solver.search.compiled import load_row, tables
from lukfu_solver.search.table_key import (
    RANK1,
    Z_LAST,
    _canonical,
    _canonical_key,
    _free,
    blocked_cards,
    canonical_hands,
    last_key,
)

# ---------------------------------------------------------------- blocked cards


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


def split_positions() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand with face-down cards among the gone ones."""
    out = []
    for seed in range(400):
        pos = endgames.random_endgame(seed, 3 + seed % 3)
        if pos.facedown and pos.faceup:
            out.append(pos)
        if len(out) == 40:
            break
    return out


def test_blocked_cards_are_those_below_a_higher_face_down_card() -> None:
    for pos in split_positions():
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
    for pos in split_positions():
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
    for pos in split_positions():
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
    for pos in split_positions():
        for alt in [pos, *same_blocking_splits(pos, rng, 2)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)


# ---------------------------------------------------------------- slides of single cards


def rebuilt(pos: Position, hands: list[int], faceup: int) -> Position:
    """``pos`` with other hands and completed tricks' face-up cards (the trick in progress kept)."""
    return Position(list(hands), pos.to_move, pos.caller, list(pos.fu), faceup, pos.trick)


def slide_positions(count: int, first_seed: int = 0) -> list[Position]:
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
    for pos in slide_positions(40):
        hands, down = canonical_hands(pos)
        assert hands != pos.hands
        slid = rebuilt(pos, hands, ALL_CARDS & ~(hands[0] | hands[1] | hands[2] | pos.trick_cards | down))
        assert sorted(bin(h).count("1") for h in hands) == sorted(bin(h).count("1") for h in pos.hands)
        assert oracle_value(slid) == oracle_value(pos), (str(pos), str(slid))


@pytest.mark.slow
def test_positions_one_slide_apart_share_the_key_and_the_value() -> None:
    merged = 0
    for pos in slide_positions(40, first_seed=1000):
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


def test_the_kernel_key_is_the_reference_key_where_cards_slide() -> None:
    pytest.importorskip("numba")
    import numpy as np

    from lukfu_solver.search import kernel as K
    from lukfu_solver.search.compiled import load_row, tables

    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    for pos in slide_positions(40, first_seed=2000):
        for alt in [pos, *one_slide_up(pos)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)


# ---------------------------------------------------------------- slides of runs


@contextmanager
def singles_only() -> Iterator[None]:
    """The canonical form without the run slides (single cards slide alone)."""
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


def run_slide_positions(count: int, first_seed: int) -> list[Position]:
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
    for pos in run_slide_positions(25, first_seed=0):
        hands, down = R.canonical_hands(pos)
        slid = rebuilt(pos, hands, ALL_CARDS & ~(hands[0] | hands[1] | hands[2] | pos.trick_cards | down))
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in pos.hands]
        assert oracle_ab(slid) == oracle_ab(pos), (str(pos), str(slid))


@pytest.mark.slow
def test_positions_one_run_slide_apart_share_the_key_and_the_value() -> None:
    merged = 0
    for pos in run_slide_positions(40, first_seed=3000):
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
    for pos in run_slide_positions(25, first_seed=6000):
        for alt in [pos, *one_run_slide_up(pos)]:
            load_row(st, 0, alt)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(alt)


# ---------------------------------------------------------------- the last player's key


def discard_children(count: int, first_seed: int = 0) -> list[list[Position]]:
    """For seeded endgames of 3-4 cards a hand whose second player cannot beat the lead: the
    positions after each of its discards where the last player cannot beat either."""
    out = []
    seed = first_seed
    while len(out) < count:
        pos = random_endgame(seed, 3 + seed % 2, plays=1)
        seed += 1
        if pos.outcome is not None or len(pos.trick) != 1:
            continue
        kids = []
        for m in list(pos.legal_moves()):
            if m.kind != DISCARD:
                break  # it can beat: R9 leaves it no discard
            child = pos.copy()
            child.push(m)
            if not can_beat(child.hands[child.to_move], child.trick[0], True):
                kids.append(child)
        if len(kids) >= 2:
            out.append(kids)
    return out


def groups(key, families: list[list[Position]]) -> list[list[Position]]:
    """The positions of each family grouped by ``key`` (groups of two or more only)."""
    out = []
    for kids in families:
        by = defaultdict(list)
        for child in kids:
            k = key(child)
            assert k is not None, str(child)
            by[k].append(child)
        out.extend(g for g in by.values() if len(g) >= 2)
    return out


@pytest.mark.slow
def test_positions_sharing_the_last_key_share_the_value() -> None:
    merged = 0
    for group in groups(last_key, discard_children(60)):
        values = {oracle_value(p) for p in group}
        assert len(values) == 1, [str(p) for p in group]
        merged += len(group) - 1
    assert merged >= 20  # the test saw real merges


def face_up_key(pos: Position) -> int:
    """An unsound variant: the discard's cards taken as face up, so they block nothing."""
    gone = pos.trick[1].cards
    hands, down = _canonical(list(pos.hands), pos.facedown, pos.trick_cards & ~gone)
    key = pos.key ^ zmask(Z_TRICK_DOWN[(pos.leader + 1) % 3], gone) ^ Z_LAST
    return _canonical_key(pos, key, hands, down)


@pytest.mark.slow
def test_a_key_that_forgets_the_blocking_merges_other_values() -> None:
    wrong = 0
    for group in groups(face_up_key, discard_children(150, first_seed=5000)):
        wrong += len({oracle_value(p) for p in group}) > 1
    assert wrong > 0


def test_no_key_where_the_last_player_can_beat_or_nobody_discarded() -> None:
    seen = {"applies": 0, "beats": 0, "no discard": 0}
    for seed in range(300):
        pos = random_endgame(seed, 3 + seed % 2, plays=2)
        if pos.outcome is not None or len(pos.trick) != 2:
            continue
        if pos.trick[1].kind != DISCARD:
            assert last_key(pos) is None
            seen["no discard"] += 1
        elif can_beat(pos.hands[pos.to_move], pos.trick[0], True):
            assert last_key(pos) is None
            seen["beats"] += 1
        else:
            assert last_key(pos) is not None
            seen["applies"] += 1
    assert min(seen.values()) > 0, seen


def test_the_kernel_last_key_is_the_references() -> None:
    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    applied = 0
    for seed in range(40):
        rng = random.Random(700 + seed)
        pos = full_deal(seed)
        while pos.outcome is None:
            load_row(st, 0, pos)
            ref = last_key(pos)
            assert K.to_unsigned(K.last_key(T, st, 0)) == (ref or 0), f"seed {seed}: {pos}"
            applied += ref is not None
            legal = [m for m in pos.legal_moves() if m.kind != CLAIM]
            discards = [m for m in legal if m.kind == DISCARD]
            pos.push(rng.choice(discards if discards and rng.random() < 0.8 else legal or list(pos.legal_moves())))
    assert applied > 100, applied
