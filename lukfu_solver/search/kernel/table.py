"""The transposition table: buckets of four two-word slots (one cache line), probing, storing
with the replacement rule, and growing in place (see :mod:`lukfu_solver.search.kernel`)."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)


@njit(cache=True, _nrt=False, inline="always")
def mix(key):
    """A non-linear mix of a 64-bit key (xorshift-multiply). Zobrist keys are XOR-linear in
    the cards, so related positions collide in any fixed set of key bits far more often than
    chance; the bucket index takes bits of the mixed key instead."""
    x = np.uint64(key)
    x ^= x >> np.uint64(31)
    x *= np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(29)
    return np.int64(x)


@njit(cache=True, _nrt=False)
def slot_find(T, base, slots, key):
    """A direct-mapped cache in the tail of T at ``base`` (``slots`` slots of two words, a power of
    two), each slot (key ^ data, data) with data never 0: key's slot (its first word's index) and
    its data word, 0 on a miss (an empty slot, another key's, or one torn by two writers). The
    bounds' cache (kernel.bounds.cache_find) and the cache of table keys (kernel.state.tt_key_cached)
    are both kept so."""
    i = base + ((mix(key) & (slots - 1)) << 1)
    d = T[i + 1]
    return i, (d if d != 0 and T[i] ^ d == key else 0)


@njit(cache=True, _nrt=False)
def slot_put(T, i, key, d):
    """Store data d for key in the slot at i (slot_find's), beside key ^ d."""
    T[i] = key ^ d
    T[i + 1] = d


@njit(cache=True, _nrt=False, inline="always")
def tt_bucket(nbm, key):
    """Word index of the bucket of key (nbm = buckets in use − 1): four slots of (key, data),
    64 bytes, one cache line."""
    return (mix(key) & nbm) << 3


@njit(cache=True, _nrt=False, inline="always")
def tt_find(tt, nbm, key):
    """Word index of key's slot (its data is the next word), or -1."""
    base = tt_bucket(nbm, key)
    for i in range(base, base + 8, 2):
        if tt[i + 1] != 0 and tt[i] ^ tt[i + 1] == key:
            return i
    return -1


@njit(cache=True, _nrt=False)
def tt_grow(tt, ctr):
    """Double the buckets in use, in place: an entry of bucket b moves to b + B when its mixed
    key has the bit B (the new half of the array is still zero). Returns the new buckets − 1."""
    nb = ctr[C_TTB]
    for b in range(nb):
        base = b << 3
        k = (b + nb) << 3
        for i in range(base, base + 8, 2):
            if tt[i + 1] != 0 and (mix(tt[i] ^ tt[i + 1]) & nb) != 0:
                tt[k] = tt[i]
                tt[k + 1] = tt[i + 1]
                k += 2
                tt[i] = 0
                tt[i + 1] = 0
    ctr[C_TTB] = 2 * nb
    return 2 * nb - 1


MOVE_FIELD = (1 << 44) - 1
"""The move's bits of a table entry's data word; all ones when the entry holds no move."""


@njit(cache=True, _nrt=False, inline="always")
def tt_pack(move, lo, hi, ncards):
    return (move & MOVE_FIELD) | ((lo + 16) << 44) | ((hi + 16) << 49) | (ncards << 54)


@njit(cache=True, _nrt=False, inline="always")
def tt_lo(d):
    return ((d >> 44) & 31) - 16


@njit(cache=True, _nrt=False, inline="always")
def tt_hi(d):
    return ((d >> 49) & 31) - 16


@njit(cache=True, _nrt=False, inline="always")
def tt_move(d):
    m = d & MOVE_FIELD
    return NO_MOVE if m == MOVE_FIELD else m  # all ones: no move stored


@njit(cache=True, _nrt=False, inline="always")
def tt_store(tt, ctr, nbm, key, had, elo, ehi, lo, hi, g, a0, b0, best, ncards):
    """The table update at the end of Solver._ab. Returns False, storing nothing, when the key's
    bucket is full and the table should grow first (fewer than ctr[C_EXACT_B] buckets in use and
    room in the array); else True."""
    base = tt_bucket(nbm, key)
    slot = -1
    for i in range(base, base + 8, 2):
        if tt[i + 1] != 0 and tt[i] ^ tt[i + 1] == key:
            slot = i
            break
    if slot >= 0:
        d = tt[slot + 1]
        elo = tt_lo(d)
        ehi = tt_hi(d)
        if best == NO_MOVE:
            best = tt_move(d)
    else:
        if not had:
            elo = lo
            ehi = hi
        victim = -1
        vn = 1000
        for i in range(base, base + 8, 2):
            d = tt[i + 1]
            if d == 0:
                victim = i
                break
            nc = (d >> 54) & 15
            if nc < vn:
                vn = nc
                victim = i
        slot = victim
        if tt[slot + 1] != 0:
            nb = nbm + 1
            if nb < ctr[C_EXACT_B] and nb * 16 <= tt.shape[0]:
                return False
            ctr[C_REPLACED] += 1
        else:
            ctr[C_ENTRIES] += 1
        ctr[C_STORES] += 1
    if g <= a0:
        if g < ehi:
            ehi = g
    elif g >= b0:
        if g > elo:
            elo = g
    else:
        elo = g
        ehi = g
    d = tt_pack(best, elo, ehi, ncards)
    tt[slot] = key ^ d
    tt[slot + 1] = d
    return True


@njit(cache=True, _nrt=False)
def tt_bounds(tt, ctr, key):
    """The bounds (lower, upper) stored for key, or (-INF, INF)."""
    i = tt_find(tt, ctr[C_TTB] - 1, key)
    if i < 0:
        return -INF, INF
    return tt_lo(tt[i + 1]), tt_hi(tt[i + 1])


@njit(cache=True, _nrt=False)
def tt_lookup_move(tt, ctr, key):
    """The best move stored for key, or NO_MOVE."""
    i = tt_find(tt, ctr[C_TTB] - 1, key)
    if i < 0:
        return NO_MOVE
    return tt_move(tt[i + 1])
