"""The slides of the table key suit by suit through a cache (issue 13, tenth round).

``state.slide`` takes the movable cards in the order of their bits, so suit after suit, and a
card's slide looks at nothing outside its suit but the set checks (three of a rank in its hand,
``state.free_card``), which count its hand's cards of the other suits as they are at that moment;
the other suits do not change while one suit's cards slide. So one suit's part of a ``slide``
call is a function of that suit's places (whose hand, movable or not, among the cards slid over,
or neither) and, per hand, of the ranks where its other suits hold two cards or more at that
moment (the only thing a set check with the suit's own card present asks). :func:`slide_cached`
names that exactly in 56 bits and keeps the suit's result (its places after the slides and
their key term) in a direct-mapped cache in the tail of T (``O_SLC``), so that a suit seen
before costs one lookup instead of a walk over its cards. The result is ``slide``'s, exactly,
in every case (no fallback): ``tests/test_slide_cache.py`` compares them, and the keys, on
playouts and on the search's rows, and checks that a slot torn by two writers reads as a miss.
"""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import UNBEATABLE_LEAD
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .table import mix

TEAR = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: the slot's check word
PREFETCH_SLOTS = True


@njit(cache=True, inline="always")
def in_run9(m9, r):
    """Whether rank r (0-8) of a hand's cards m9 of one suit is in a run (three consecutive)."""
    starts = m9 & (m9 >> 1) & (m9 >> 2)
    return ((starts | (starts << 1) | (starts << 2)) >> r) & 1


@njit(cache=True)
def slide_suit(T, s, a0, a1, a2, over, movable, o2):
    """state.slide on suit s alone (9-bit masks: the hands' cards a0..a2, over, movable), the set
    checks read from o2 (per hand h, bits 9h..9h+8: the ranks where its other suits hold two or
    more); returns (a0, a1, a2, over, term) with the key's hand terms of the moves."""
    unb = (UNBEATABLE_LEAD >> (9 * s)) & SUIT9
    zs = O_ZH + s * 512
    term = 0
    done = 0
    while True:
        cand = movable & (over << 1) & 0x1FE & ~done
        if cand == 0:
            return a0, a1, a2, over, term
        x = cand & -cand
        done |= (x << 1) - 1
        b = bit_length(x) - 1
        m0 = -((a0 >> b) & 1)
        m1 = -((a1 >> b) & 1)
        m2 = -((a2 >> b) & 1)
        hand = (a0 & m0) | (a1 & m1) | (a2 & m2)
        hi = (m1 & 1) + (m2 & 2)
        c = (o2 >> (9 * hi)) & SUIT9
        if (c >> b) & 1 or in_run9(hand, b):  # free_card: a set, then a run
            continue
        low = 1 << bit_length(~over & (x - 1))  # above the highest lower card not slid over
        while low != x and ((low & unb) != 0 or (c & low) != 0 or in_run9(hand ^ x ^ low, bit_length(low) - 1)):
            low <<= 1
        d = x ^ low
        term ^= T[zs + hi * 2048 + d]  # XOR-linear: the empty mask's term is 0
        a0 ^= d & m0
        a1 ^= d & m1
        a2 ^= d & m2
        over ^= d


@njit(cache=True, inline="always")
def two_of_three(w, x, y):
    """The ranks held in two or more of three suits' masks."""
    return (w & x) | (w & y) | (x & y)


@njit(cache=True, inline="always")
def pairs_elsewhere(h, s, below):
    """The ranks where hand h holds two or more cards of the suits other than s, kept to the ranks
    of ``below`` and lower (a 9-bit mask; the set checks of s's cards ask only those)."""
    m0 = h & SUIT9
    m1 = (h >> 9) & SUIT9
    m2 = (h >> 18) & SUIT9
    m3 = (h >> 27) & SUIT9
    if s == 0:
        o = two_of_three(m1, m2, m3)
    elif s == 1:
        o = two_of_three(m0, m2, m3)
    elif s == 2:
        o = two_of_three(m0, m1, m3)
    else:
        o = two_of_three(m0, m1, m2)
    return o & ((1 << bit_length(below)) - 1)


@njit(cache=True, inline="always")
def suit_name(h0, h1, h2, over, movable, s):
    """The exact name (56 bits) of suit s's part of a slide call, 0 if none of its cards has one
    to slide over below it."""
    shift = 9 * s
    ov = (over >> shift) & SUIT9
    a0 = (h0 >> shift) & SUIT9
    a1 = (h1 >> shift) & SUIT9
    a2 = (h2 >> shift) & SUIT9
    mov = (movable >> shift) & SUIT9 & (a0 | a1 | a2)
    if mov & (ov << 1) & 0x1FE == 0:
        return 0
    o2 = (
        pairs_elsewhere(h0, s, a0 & mov)
        | (pairs_elsewhere(h1, s, a1 & mov) << 9)
        | (pairs_elsewhere(h2, s, a2 & mov) << 18)
    )
    return (ov | mov) | ((a0 | a2) << 9) | ((a1 | a2) << 18) | (o2 << 27) | (np.int64(s) << 54) | (np.int64(1) << 56)


@njit(cache=True, inline="always")
def name_slot(name):
    """The index in T of a suit name's slot."""
    return O_SLC + ((mix(name) & (SL_SLOTS - 1)) << 2)


@njit(cache=True)
def slide_cached(T, h0, h1, h2, over, movable, key):
    """state.slide through the cache of suits' slides: returns (h0, h1, h2, over, key) as slide
    does. A slot is four words (the suit's name XOR a mix of the two data words, its key term,
    its places after the slides, unused), so that a slot torn by two writers reads as a miss.
    The four suits' slots are first fetched by their names as the call finds them (a suit's
    name depends on the suits before it only through its set context, which seldom changes), so
    that the memory waits overlap; each name is then taken again from the hands as they are."""
    if PREFETCH_SLOTS:
        base = T.ctypes.data
        for s in range(4):
            n = suit_name(h0, h1, h2, over, movable, s)
            if n != 0:
                prefetch(base + 8 * name_slot(n))
    for s in range(4):
        name = suit_name(h0, h1, h2, over, movable, s)
        if name == 0:  # no card of the suit has a card to slide over below it
            continue
        shift = 9 * s
        ov = (over >> shift) & SUIT9
        a0 = (h0 >> shift) & SUIT9
        a1 = (h1 >> shift) & SUIT9
        a2 = (h2 >> shift) & SUIT9
        mov = (movable >> shift) & SUIT9 & (a0 | a1 | a2)
        o2 = (name >> 27) & ((1 << 27) - 1)
        i = name_slot(name)
        term = T[i + 1]
        out = T[i + 2]
        if T[i] ^ mix(term ^ out * TEAR) != name:
            b0, b1, b2, nov, term = slide_suit(T, s, a0, a1, a2, ov, mov, o2)
            out = b0 | (b1 << 9) | (b2 << 18) | (nov << 27)
            T[i + 1] = term
            T[i + 2] = out
            T[i] = name ^ mix(term ^ out * TEAR)
        key ^= term
        h0 ^= (a0 ^ (out & SUIT9)) << shift
        h1 ^= (a1 ^ ((out >> 9) & SUIT9)) << shift
        h2 ^= (a2 ^ ((out >> 18) & SUIT9)) << shift
        over ^= (ov ^ ((out >> 27) & SUIT9)) << shift
    return h0, h1, h2, over, key
