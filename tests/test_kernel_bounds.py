"""The kernel's cache of the costly bounds (``kernel.bounds.value_bounds`` and
``single_trick_bounds`` through the tail of ``T``, keyed by ``bounds_cache_key``).

A cached pair must be the pair computed: along random playouts (and at the scratch leads the R7
one-trick bound writes to the next row, which the cache serves too) the cached entry points equal
the computation and the reference, on a miss and on the hit that follows; a slot holding another
key, or torn by two writers, reads as a miss. The key is a hash of the row's fields, not its
Zobrist key: the scratch leads keep the row's Zobrist key while their bounds differ, so a cache
keyed by ``F_KEY`` (the deliberately wrong variant) would answer one lead with another's bounds;
the test finds such leads and shows that ``bounds_cache_key`` tells them apart.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from conftest import kernel_playouts  # noqa: E402

from lukfu_solver.plays import SINGLE  # noqa: E402
from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search import value_bounds  # noqa: E402
from lukfu_solver.search.compiled import tables  # noqa: E402
from lukfu_solver.search.kernel import bounds as KB  # noqa: E402


def _slot(T: np.ndarray, key: int) -> int:
    """The word index of key's slot in the bounds' cache (the kernel's own cache_find)."""
    return int(KB.cache_find(T, key)[0])


def _cacheable(st: np.ndarray, p: int) -> bool:
    """Row p's bounds go through the cache: a trick led with a single, or a non-caller's lead."""
    if st[p, K.F_ENDED]:
        return False
    if st[p, K.F_NTRICK] > 0:
        return (int(st[p, K.F_TR0]) >> 36) & 7 == SINGLE
    return st[p, K.F_TM] != st[p, K.F_CALLER]


@pytest.mark.slow
def test_cached_bounds_equal_the_computed_ones_on_a_miss_and_on_the_hit() -> None:
    T = tables()
    hits = 0
    for pos, st, ply in kernel_playouts(range(40)):
        where = str(pos)
        want = value_bounds(pos)
        row = st[ply].copy()
        assert KB.value_bounds_of(T, st, ply) == want, where
        st[ply + 1 :] = 0
        T[K.O_VBC :] = 0  # a miss
        assert K.value_bounds(T, st, ply) == want, where
        assert (st[ply] == row).all(), where
        if _cacheable(st, ply):
            key = int(KB.bounds_cache_key(st, ply))
            i = _slot(T, key)
            assert T[i + 1] != 0 and int(T[i] ^ T[i + 1]) == key, where  # the pair was stored
            hits += 1
        assert K.value_bounds(T, st, ply) == want, where  # a hit (or the same computation)
    assert hits > 500


def test_a_slot_of_another_key_or_torn_reads_as_a_miss() -> None:
    T = tables()
    checked = 0
    for pos, st, ply in kernel_playouts(range(40, 60)):
        if not _cacheable(st, ply):
            continue
        want = value_bounds(pos)
        key = int(KB.bounds_cache_key(st, ply))
        i = _slot(T, key)
        lo, hi = -want[0], 99  # a pair that is not this position's
        d = (lo + 128) | ((hi + 128) << 8) | (1 << 16)
        T[i], T[i + 1] = (key ^ 0x5555) ^ d, d  # another key's entry in the slot
        assert K.value_bounds(T, st, ply) == want, str(pos)
        T[i], T[i + 1] = key ^ d ^ (1 << 20), d  # torn: the first word of another write
        assert K.value_bounds(T, st, ply) == want, str(pos)
        checked += 1
    assert checked > 200


def test_the_zobrist_key_alone_would_confuse_the_scratch_leads() -> None:
    """The R7 one-trick bound writes each lead into the next row with the lead's row's Zobrist
    key; their bounds differ, and only bounds_cache_key tells them apart."""
    T = tables()
    confused = 0
    for pos, st, ply in kernel_playouts(range(60, 160)):
        w = int(st[ply, K.F_TM])
        if st[ply, K.F_ENDED] or st[ply, K.F_NTRICK] or w == st[ply, K.F_CALLER]:
            continue
        if KB.has_set_or_run(st[ply, K.F_H0 + w]) or bin(int(st[ply, K.F_H0])).count("1") < 2:
            continue
        seen: dict[int, tuple[int, int]] = {}  # the wrong variant: keyed by F_KEY
        keys: dict[int, tuple[int, int]] = {}
        hand = int(st[ply, K.F_H0 + w])
        for c in (1 << b for b in range(36) if hand >> b & 1):
            q = ply + 1
            st[q] = st[ply]  # as r7_lead_bounds writes a lead: the key kept
            st[q, K.F_NTRICK] = 1
            st[q, K.F_LEADER] = w
            st[q, K.F_BESTI] = 0
            st[q, K.F_TM] = (w + 1) % 3
            st[q, K.F_H0 + w] = hand & ~c
            st[q, K.F_TR0] = c | SINGLE << 36 | 1 << 40
            got = KB.single_trick_of(T, st, q)
            assert KB.single_trick_bounds(T, st, q) == got, str(pos)
            key = int(KB.bounds_cache_key(st, q))
            assert keys.setdefault(key, got) == got, str(pos)
            if seen.setdefault(int(st[q, K.F_KEY]), got) != got:
                confused += 1
        st[ply + 1 :] = 0
    assert confused > 0
