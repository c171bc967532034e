"""The kernel's sure claims (search.bounds.sure_claim and _sure_claim): what the seat about to
lead can force by cashing sets, runs and singles nobody can beat, and the cards the others must
discard meanwhile. One job apart from the rest of the bounds, which call it at every certain lead."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)


@njit(cache=True, _nrt=False)
def sure_claim(T, st, p):
    """search.bounds.sure_claim of row p: the claim total the seat about to lead can force, or 0
    (cashing unbeatable sets, then runs, then singles)."""
    s = st[p, F_TM]
    return _sure_claim(
        T,
        s,
        st[p, F_H0 + s],
        st[p, F_FU0 + s],
        st[p, F_H0 + (s + 1) % 3],
        st[p, F_H0 + (s + 2) % 3],
        st[p, F_FACEUP],
        st[p, F_CALLER],
    )[0]


@njit(cache=True, _nrt=False, inline="always")
def _sure_claim(T, s, hand, fu, o1, o2, faceup, caller):
    """search.bounds._sure_claim: seat s leading with hand and fu against hands o1 and o2; returns
    (the claim total or 0, the drain)."""
    old = old_cards(T, hand, faceup)
    passed_master = s == 0 and caller != 0
    cashed = 0
    drain = 0
    # the ranks of three or four cards, as a 9-bit mask (bit r - 1: rank r), from the four suits'
    # masks: at least three of a, b, c, d hold the rank; sets are cashed by rank, each on its own
    # cards, so visiting only those ranks finds what the loop over all nine did
    a = hand & SUIT9
    b = (hand >> 9) & SUIT9
    c = (hand >> 18) & SUIT9
    d = (hand >> 27) & SUIT9
    sets = (a & b & (c | d)) | (c & d & (a | b))
    if passed_master:
        sets &= ~(a & b & c & d)  # R6: no four-card set
    while sets:
        low = sets & -sets
        sets ^= low
        m = hand & T[O_RANK + bit_length(low)]
        k = popcount(m)
        play = enc(SET, m, k)
        if not can_beat(T, o1, play, True) and not can_beat(T, o2, play, True):
            cashed += popcount(m & ~old)
            drain += k
            hand &= ~m
    for suit in range(4):  # runs nobody can beat: the longest in each stretch of the suit
        shift = 9 * suit
        m9 = (hand >> shift) & SUIT9
        starts = m9 & (m9 >> 1) & (m9 >> 2)  # the lowest ranks of three in a row
        m9 = starts | (starts << 1) | (starts << 2)  # the cards in stretches of three or more
        while m9:  # search.bounds._maximal_runs, lowest stretch first
            low = m9 & -m9
            stretch = m9 & ~(m9 + low)  # the lowest stretch: its bits up to the first gap
            m9 ^= stretch
            run = stretch
            while passed_master and popcount(run) > 3:
                run &= run - 1  # R6 allows three: keep the top three
            cards = run << shift
            play = enc(RUN, cards, popcount(run))
            if not can_beat(T, o1, play, True) and not can_beat(T, o2, play, True):
                cashed += popcount(cards & ~old)
                drain += popcount(run)
                hand &= ~cards
    others = o1 | o2
    sure = 0
    for suit in range(4):
        shift = 9 * suit
        o9 = (others >> shift) & SUIT9
        h9 = (hand >> shift) & SUIT9
        sure |= (h9 & ~((1 << bit_length(o9)) - 1)) << shift
    sure &= ~old
    if s == caller:
        cashed += popcount(sure)
        drain += popcount(sure | (hand & old))
    else:
        singles = 0
        nonold = hand & ~old
        while nonold:
            top_suit = (bit_length(nonold) - 1) // 9
            in_suit = nonold & T[O_SUIT + top_suit]
            can = in_suit & sure
            if not can:
                break
            singles += popcount(can)
            if can != in_suit:
                break
            nonold &= ~in_suit
        cashed += singles
        drain += singles
        if nonold == 0:
            drain += popcount(hand & old)
    total = fu + popcount(old) + cashed
    return (total if total >= 6 else 0), drain
