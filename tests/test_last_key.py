"""The table key of the last player to a trick after a discard (``reference.last_key``, issue 13,
twelfth round): where the second player discarded and the last one cannot beat the lead, the
position is keyed as if that discard were already gone face down.

The merge is proved here where it applies. On seeded endgames, every discard of the second player
is played; the positions that share a ``last_key`` all have one value by the plain minimax of
``tests/oracle.py``, and some do share one. A key that forgets that the discard blocks the cards
below it (its cards taken as face up instead) merges positions of different values, so that
condition is not idle. The kernel's key is the reference's integer along discard-rich playouts.
"""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest
from oracle import oracle_value, random_endgame

from lukfu_solver.endgames import full_deal
from lukfu_solver.plays import CLAIM, DISCARD
from lukfu_solver.position import Z_TRICK_DOWN, Position, zmask
from lukfu_solver.rules import can_beat
from lukfu_solver.search import kernel as K
from lukfu_solver.search.compiled import load_row, tables
from lukfu_solver.search.table_key import Z_LAST, _canonical, _canonical_key, last_key


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
def test_positions_sharing_the_key_share_the_value() -> None:
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


def test_the_kernel_key_is_the_references() -> None:
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
