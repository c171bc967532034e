"""The table key suit by suit (issue 13, tenth round): the canonical form of ``state.tt_key_full``
(search.reference.canonical_hands) computed for one suit at a time and remembered in a small
cache (the tail of T at ``O_SKC``), so that a key costs four lookups where its suits were seen
before.

The canonical form is XOR-linear in the key and its slides move cards within a suit, so the key
is the row's full key XOR one term a suit, and a suit's term is a function of that suit's places
(whose hand, gone face up, gone face down, on the table) but for one thing: the set checks
(three of a rank in a hand, ``free_card`` and ``in_no_set``), which count the hand's cards of the
other suits. A suit's term is computed here with those counts as they are in the row (the
*context*: per hand, the ranks where its other suits hold two cards or more, which is exactly what
a check with the suit's own card present asks), and recorded with what it did: per hand, the
ranks whose occupancy its slides changed (*touched*), the ranks its cards ever held (*present*),
and the ranks where a set check answered "a set".

The sequential computation (``tt_key_full``, all suits together, the reference's order) differs
from the suits computed apart only if some check sees another suit's count changed by a slide.
A check at a rank that no slide of that hand touches sees the row's count; at a touched rank,
a check that answered "no set" still does when at most two suits are ever present there (its own
card is one of them), and one that answered "a set" may not. So the sum of the suits' terms is
the key exactly when, for every hand, no touched rank is present in three suits or answered "a
set" (:func:`suits_agree`); otherwise ``tt_key`` computes the key in full. ``tests/test_suit_key.py``
compares the two on playouts and the search's own rows, and catches a wrong check."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

import numpy as np
from numba import njit

from ...cards import UNBEATABLE_LEAD
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .table import mix

TEAR1 = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: the slot's check word
TEAR2 = np.int64(-4417276706812531889)  # 0xC2B2AE3D27D4EB4F as int64
LOW27 = (1 << 27) - 1


@njit(cache=True, inline="always")
def run9(m9, r):
    """Whether rank r (0-8) of the suit's cards m9 of a hand is in a run (three consecutive)."""
    starts = m9 & (m9 >> 1) & (m9 >> 2)
    return ((starts | (starts << 1) | (starts << 2)) >> r) & 1


@njit(cache=True)
def slide9(T, a0, a1, a2, over, movable, unb, o2, zs, key, t, e, ss):
    """state.slide on one suit's places (9-bit masks), the set checks read from the context o2
    (per hand h, bits 9h..9h+8: ranks where its other suits hold two or more); returns (a0, a1, a2,
    over, key, t, e, ss) with the touched (t), entered (e) and "a set" (ss) ranks, per hand."""
    done = 0
    while True:
        cand = movable & (over << 1) & 0x1FE & ~done
        if cand == 0:
            return a0, a1, a2, over, key, t, e, ss
        x = cand & -cand
        done |= (x << 1) - 1
        b = bit_length(x) - 1
        m0 = -((a0 >> b) & 1)
        m1 = -((a1 >> b) & 1)
        m2 = -((a2 >> b) & 1)
        hand = (a0 & m0) | (a1 & m1) | (a2 & m2)
        hi = (m1 & 1) + (m2 & 2)
        c = (o2 >> (9 * hi)) & SUIT9
        if (c >> b) & 1:
            ss |= x << (9 * hi)
            continue
        if run9(hand, b):
            continue
        low = 1 << bit_length(~over & (x - 1))
        while low != x:
            if (low & unb) == 0:
                if c & low:
                    ss |= low << (9 * hi)
                elif run9(hand ^ x ^ low, bit_length(low) - 1) == 0:
                    break
            low <<= 1
        d = x ^ low
        if d:
            key ^= T[zs + hi * 2048 + d]
            t |= d << (9 * hi)
            e |= low << (9 * hi)
            a0 ^= d & m0
            a1 ^= d & m1
            a2 ^= d & m2
            over ^= d


@njit(cache=True)
def runs9(T, a0, a1, a2, over, movable, unb, o2, zs, key, t, e, ss):
    """state.slide_runs (and slide_runs_all) on one suit's places, as :func:`slide9`."""
    cand = 0
    for h in (a0, a1, a2):
        starts = h & (h >> 1) & (h >> 2) & 0x7F
        runs = starts | (starts << 1) | (starts << 2)
        cand |= runs & ~((h << 1) & 0x1FE) & (over << 1) & 0x1FE & movable
    if cand == 0:
        return a0, a1, a2, over, key, t, e, ss
    for s in range(3):
        m9 = a0 if s == 0 else (a1 if s == 1 else a2)
        c = (o2 >> (9 * s)) & SUIT9
        r = 0
        while r < 9:
            if (m9 >> r) & 1 == 0:
                r += 1
                continue
            top = r
            while top + 1 < 9 and (m9 >> (top + 1)) & 1:
                top += 1
            lo = r
            length = top - r + 1
            r = top + 1
            block = ((1 << length) - 1) << lo
            if length < 3 or (block & ~movable) != 0:
                continue
            b = lo
            while b > 0 and (over >> (b - 1)) & 1:
                b -= 1
            while b < lo:
                new = ((1 << length) - 1) << b
                moved = m9 ^ block ^ new
                below_ok = b == 0 or (moved >> (b - 1)) & 1 == 0
                if below_ok and (new & unb) == 0:
                    if block & c:  # in_no_set(hand, block): the first card of block in a set
                        ss |= (block & c & -(block & c)) << (9 * s)
                    elif new & c:  # in_no_set(moved, new)
                        ss |= (new & c & -(new & c)) << (9 * s)
                    else:
                        break
                b += 1
            if b == lo:
                continue
            new = ((1 << length) - 1) << b
            d = block ^ new
            key ^= T[zs + s * 2048 + d]
            t |= d << (9 * s)
            e |= new << (9 * s)
            m9 ^= d
            over ^= d
        if s == 0:
            a0 = m9
        elif s == 1:
            a1 = m9
        else:
            a2 = m9
    return a0, a1, a2, over, key, t, e, ss


@njit(cache=True)
def suit_term(T, s, a0, a1, a2, gone, down, o2):
    """One suit's term of the table key (state.tt_key_full's steps on that suit's places, the set
    checks from the context o2): (term, touched | present << 27, "a set"), per hand in 9-bit
    fields."""
    zs = O_ZH + s * 512
    unb = (UNBEATABLE_LEAD >> (9 * s)) & SUIT9
    up = gone & ~down
    present = a0 | (a1 << 9) | (a2 << 18)
    key = 0
    t = 0
    e = 0
    ss = 0
    live = a0 | a1 | a2
    blocked = live & T[O_BELOW9 + down]
    if blocked:
        while True:
            a0, a1, a2, gone, key, t, e, ss = slide9(T, a0, a1, a2, gone, blocked, unb, o2, zs, key, t, e, ss)
            a0, a1, a2, after, key, t, e, ss = runs9(T, a0, a1, a2, gone, blocked, unb, o2, zs, key, t, e, ss)
            if after == gone:
                break
            gone = after
            blocked = (a0 | a1 | a2) & T[O_BELOW9 + down]
        live = a0 | a1 | a2
        blocked = live & T[O_BELOW9 + down]
    cdown = 0
    if down:
        above = gone & ~((1 << bit_length(blocked)) - 1)
        cdown = above & -above
    over = gone & ~cdown
    while True:
        a0, a1, a2, over, key, t, e, ss = slide9(T, a0, a1, a2, over, live & ~blocked, unb, o2, zs, key, t, e, ss)
        a0, a1, a2, after, key, t, e, ss = runs9(T, a0, a1, a2, over, live & ~blocked, unb, o2, zs, key, t, e, ss)
        if after == over:
            break
        over = after
        live = a0 | a1 | a2
    key ^= T[O_ZF + s * 512 + (up ^ ((a0 | a1 | a2) & T[O_BELOW9 + cdown]))]
    return key, t | ((present | e) << 27), ss


@njit(cache=True, inline="always")
def others2(w, x, y):
    """The ranks held in two or more of three suits' masks."""
    return (w & x) | (w & y) | (x & y)


@njit(cache=True, inline="always")
def context(h, s, a):
    """The set context of hand h's cards of suit s (a: those cards): the ranks where its other
    suits hold two or more, kept to the ranks at or below its highest card of s (the only ranks
    its checks in s ever ask: cards only slide down)."""
    m0 = h & SUIT9
    m1 = (h >> 9) & SUIT9
    m2 = (h >> 18) & SUIT9
    m3 = (h >> 27) & SUIT9
    if s == 0:
        o = others2(m1, m2, m3)
    elif s == 1:
        o = others2(m0, m2, m3)
    elif s == 2:
        o = others2(m0, m1, m3)
    else:
        o = others2(m0, m1, m2)
    return o & ((1 << bit_length(a)) - 1)


@njit(cache=True)
def suit_lookup(T, s, h0, h1, h2, gone, down):
    """Suit s's (term, touched | present << 27, "a set") through the cache at O_SKC: a slot of four
    words (check, term, tp, ss) for the exact 57-bit name of the suit's places and context; the
    check word is the name XOR a mix of the other three, so that a slot torn by two writers reads
    as a miss."""
    shift = 9 * s
    a0 = (h0 >> shift) & SUIT9
    a1 = (h1 >> shift) & SUIT9
    a2 = (h2 >> shift) & SUIT9
    g = (gone >> shift) & SUIT9
    dn = (down >> shift) & SUIT9
    o2 = context(h0, s, a0) | (context(h1, s, a1) << 9) | (context(h2, s, a2) << 18)
    name = (
        (a0 | a2 | (g & ~dn))
        | ((a1 | a2) << 9)
        | (g << 18)
        | (o2 << 27)
        | (np.int64(s) << 54)
        | (np.int64(1) << 56)
    )
    i = O_SKC + ((mix(name) & (SK_SLOTS - 1)) << 2)
    term = T[i + 1]
    tp = T[i + 2]
    ss = T[i + 3]
    if T[i] ^ mix(term ^ tp * TEAR1 ^ ss * TEAR2) == name:
        return term, tp, ss
    term, tp, ss = suit_term(T, s, a0, a1, a2, g, dn, o2)
    T[i + 1] = term
    T[i + 2] = tp
    T[i + 3] = ss
    T[i] = name ^ mix(term ^ tp * TEAR1 ^ ss * TEAR2)
    return term, tp, ss


@njit(cache=True, inline="always")
def three_of_four(w, x, y, z):
    """The bits set in three or more of four masks."""
    return (w & x & (y | z)) | (y & z & (w | x))


@njit(cache=True)
def suits_key(T, h0, h1, h2, gone, down):
    """The XOR of the four suits' terms and whether they agree with the sequential computation
    (module docstring): (terms, ok)."""
    key = 0
    touched = 0
    sets = 0
    p0 = p1 = p2 = p3 = 0
    for s in range(4):
        shift = 9 * s
        if (gone >> shift) & SUIT9 == 0:  # nothing gone in the suit: nothing slides, no term
            pres = ((h0 >> shift) & SUIT9) | (((h1 >> shift) & SUIT9) << 9) | (((h2 >> shift) & SUIT9) << 18)
        else:
            term, tp, ss = suit_lookup(T, s, h0, h1, h2, gone, down)
            key ^= term
            touched |= tp & LOW27
            sets |= ss
            pres = tp >> 27
        if s == 0:
            p0 = pres
        elif s == 1:
            p1 = pres
        elif s == 2:
            p2 = pres
        else:
            p3 = pres
    ok = touched == 0 or (touched & (three_of_four(p0, p1, p2, p3) | sets)) == 0
    return key, ok
