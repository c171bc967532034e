"""The next leader's look-ahead for a follower's discards, compiled: :func:`discard_ahead_bound`
as :func:`lukfu_solver.search.discards.discard_ahead_bound` computes it. At a non-caller's discard
in a trick whose winner is certain, the winner's look-ahead at its next lead (the caller's
single-trick look-ahead, or a non-caller's R7 look-ahead) is played out once for every discard of
the seats still to play, each holding its hand less as many unknown cards as were led; the search
calls it after the table probe (``kernel.alphabeta.search``, ``switches.DISCARD_AHEAD``)."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ...cards import UNBEATABLE_LEAD
from ..switches import DISCARD_CALLER, R7_AHEAD
from .bounds import (
    has_set_or_run,
    payment_to_caller,
    r7_singles,
    reach_bounds,
    reach_split,
)
from .claims import _sure_claim
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)


@njit(cache=True, _nrt=False)
def discard_ahead_bound(T, st, p, stop, floor):
    """search.discards.discard_ahead_bound of row p: at a non-caller's discard in a trick whose winner
    is certain, the seats still to play each missing as many unknown cards as were led: the best
    lower bound of the caller's look-ahead at its next lead over every single a non-caller can beat
    (disc_first), or a non-caller winner's R7 look-ahead (r7_ahead_bounds); -INF where it does not
    apply. Stops once it reaches stop; exact
    when above floor (the singles that cannot pass it or the best so far given up early), at or
    below floor otherwise."""
    caller = st[p, F_CALLER]
    nt = st[p, F_NTRICK]
    if nt == 0 or st[p, F_TM] == caller:
        return -INF
    leader = st[p, F_LEADER]
    bi = st[p, F_BESTI]
    w = (leader + bi) % 3
    best = st[p, F_TR0 + bi]
    k = m_size(st[p, F_TR0])
    unsure = 0
    for j in range(nt, 3):
        s = (leader + j) % 3
        if can_beat(T, st[p, F_H0 + s], best, bi == 0):
            return -INF
        unsure += k << (4 * s)
    size = m_size(best)
    f0 = st[p, F_FU0] + (size if w == 0 else 0)
    f1 = st[p, F_FU0 + 1] + (size if w == 1 else 0)
    f2 = st[p, F_FU0 + 2] + (size if w == 2 else 0)
    up = st[p, F_FACEUP] | trick_faceup(st, p)
    m0 = st[p, F_H0]
    m1 = st[p, F_H0 + 1]
    m2 = st[p, F_H0 + 2]
    if w != caller:  # the R7 look-ahead at the winner's lead, the seats still to play missing cards
        hw = st[p, F_H0 + w]
        if not R7_AHEAD or popcount(hw) < 3 or has_set_or_run(hw):
            return -INF
        if DISCARD_CALLER and k > 1 and nt == 1 and (leader + 2) % 3 == caller:  # a set or run, the caller last
            return caller_discards_above(
                T, caller, w, m0, m1, m2, f0, f1, f2, up, popcount(hw), unsure & ~(15 << (4 * caller)), stop, floor
            )
        return r7_ahead_above(T, caller, w, m0, m1, m2, f0, f1, f2, up, popcount(hw), unsure, floor)
    hand = st[p, F_H0 + caller]
    left = popcount(hand) - 1  # cards a seat after the played-out trick
    if left < 2:
        return -INF
    others = st[p, F_H0 + (caller + 1) % 3] | st[p, F_H0 + (caller + 2) % 3]
    # a single's playout is the least of its ends (both followers are non-callers), -INF once one
    # is at or below the floor; an end a follower missing cards wins is bounded by reach alone, the
    # same for every single: where such an end is reachable and at or below the floor, the single
    # is given up before its playout (the bound is the same; search.bounds plays it out)
    s1 = (caller + 1) % 3
    s2 = (caller + 2) % 3
    u1 = (unsure >> (4 * s1)) & 15
    u2 = (unsure >> (4 * s2)) & 15
    h1 = st[p, F_H0 + s1]
    h2 = st[p, F_H0 + s2]
    g1 = reach_bounds(
        caller, f0 + left + (1 if s1 == 0 else 0), f1 + left + (1 if s1 == 1 else 0), f2 + left + (1 if s1 == 2 else 0)
    )[0]
    g2 = reach_bounds(
        caller, f0 + left + (1 if s2 == 0 else 0), f1 + left + (1 if s2 == 1 else 0), f2 + left + (1 if s2 == 2 else 0)
    )[0]
    lo = -INF
    cards = hand
    while cards:
        c = cards & -cards
        cards ^= c
        if (c & UNBEATABLE_LEAD) or (others & above_in_suit(c)) == 0:
            continue
        fl = floor if floor > lo else lo
        if (u1 and g1 <= fl) or (u2 and g2 <= fl):
            x1 = h1 & above_in_suit(c)
            if u2 and g2 <= fl:  # the last follower beats: after the first's discard, or its lowest beat
                if popcount(x1) <= u1 and (h2 & above_in_suit(c)):
                    continue
                if x1 and (h2 & above_in_suit(x1 & -x1)):
                    continue
            if u1 and g1 <= fl and x1:  # the first follower beats with its highest, the last discards
                x2 = h2 & above_in_suit(1 << (bit_length(x1) - 1))
                if popcount(x2) <= u2:
                    continue
        n0 = m0 & ~c if caller == 0 else m0
        n1 = m1 & ~c if caller == 1 else m1
        n2 = m2 & ~c if caller == 2 else m2
        l1 = disc_first(T, caller, c, n0, n1, n2, f0, f1, f2, up | c, left, unsure, floor if floor > lo else lo)
        if l1 > lo:
            lo = l1
            if lo >= stop:
                break
    return lo


@njit(cache=True, _nrt=False)
def disc_first(T, caller, c, m0, m1, m2, f0, f1, f2, up, left, unsure, floor):
    """search.discards._disc_play for the first follower of the caller's single c (the lower bound
    when above floor, else -INF): every higher card it holds, highest first, and the discard when
    it may hold none (then one card more missing)."""
    s = (caller + 1) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (c & UNBEATABLE_LEAD) else h & above_in_suit(c)
    lo = INF
    opts = higher
    while opts:
        b = 1 << (bit_length(opts) - 1)
        opts ^= b
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1 = disc_second(T, caller, b, s, False, n0, n1, n2, f0, f1, f2, up | b, left, unsure, floor)
        if l1 == -INF:
            return l1
        if l1 < lo:
            lo = l1
    if popcount(higher) <= ((unsure >> (4 * s)) & 15):
        l1 = disc_second(T, caller, c, caller, True, m0, m1, m2, f0, f1, f2, up, left, unsure + (1 << (4 * s)), floor)
        if l1 == -INF:
            return l1
        if l1 < lo:
            lo = l1
    return lo


@njit(cache=True, _nrt=False)
def disc_second(T, caller, best, bs, led, m0, m1, m2, f0, f1, f2, up, left, unsure, floor):
    """search.discards._disc_play for the last follower of the caller's single, the best card being
    best (by seat bs, led or not): each way the trick ends bounded by disc_end, highest card first;
    a follower missing cards wins with any of them, its end bounded once."""
    s = (caller + 2) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (led and (best & UNBEATABLE_LEAD)) else h & above_in_suit(best)
    miss = (unsure >> (4 * s)) & 15
    lo = INF
    opts = higher
    while opts:
        b = 1 << (bit_length(opts) - 1)
        opts ^= b
        if miss:
            opts = 0  # (any of them: the trick's end is the same)
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1 = disc_end(T, caller, s, n0, n1, n2, f0, f1, f2, up | b, left, unsure, floor)
        if l1 == -INF:
            return l1
        if l1 < lo:
            lo = l1
    if popcount(higher) <= miss:
        l1 = disc_end(T, caller, bs, m0, m1, m2, f0, f1, f2, up, left, unsure + (1 << (4 * s)), floor)
        if l1 == -INF:
            return l1
        if l1 < lo:
            lo = l1
    return lo


@njit(cache=True, _nrt=False)
def disc_end(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure, floor):
    """search.discards._disc_play's end: seat w won the caller's single's trick; the lower bound by
    reach, and, unless w is missing cards, the caller's sure claim or drain against the hands
    m0..m2, or a known non-caller's R7 look-ahead (r7_ahead_bounds, the others missing cards);
    -INF when at or below floor."""
    a0 = f0 + (1 if w == 0 else 0)
    a1 = f1 + (1 if w == 1 else 0)
    a2 = f2 + (1 if w == 2 else 0)
    r0 = a0 + left
    r1 = a1 + left
    r2 = a2 + left
    lo = reach_bounds(caller, r0, r1, r2)[0]
    if ((unsure >> (4 * w)) & 15) == 0:
        hand = m0 if w == 0 else (m1 if w == 1 else m2)
        if w == caller:
            o1 = m0 if (w + 1) % 3 == 0 else (m1 if (w + 1) % 3 == 1 else m2)
            o2 = m0 if (w + 2) % 3 == 0 else (m1 if (w + 2) % 3 == 1 else m2)
            t, drain = _sure_claim(T, w, hand, a0 if w == 0 else (a1 if w == 1 else a2), o1, o2, up, caller)
            r = reach_split(caller, r0, r1, r2)[1] - drain
            b = 2 * (t - 5) if t >= 6 else -INF
            v = -2 * (r - 5) if r >= 6 else 0
            b = b if b > v else v
            if b > lo:
                lo = b
        elif R7_AHEAD and left >= 3 and not has_set_or_run(hand):
            # only above what the end already has and the floor: given up at the first move at or
            # below both (r7_ahead_above; the end's bound is the same)
            alo = r7_ahead_above(T, caller, w, m0, m1, m2, a0, a1, a2, up, left, unsure, lo if lo > floor else floor)
            if alo > lo:
                lo = alo
    return lo if lo > floor else -INF


@njit(cache=True, _nrt=False)
def caller_discards_above(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure, stop, floor):
    """search.discards.caller_discards_above: the best of r7_ahead_above over the caller's discards
    (of as many cards as its hand holds more than left), in the order of discards.discard_subsets
    (index sets of the hand's cards by rank then suit, in increasing order as numbers: Gosper's
    successor), stopping once one reaches stop; exact when above floor."""
    hand = m0 if caller == 0 else (m1 if caller == 1 else m2)
    n = popcount(hand)
    k = n - left
    lo = -INF
    x = (1 << k) - 1
    while x < (1 << n):
        d = 0
        y = x
        r = 0
        while y:  # the cards of the hand by rank, then suit: a bit of x each
            for s in range(4):
                c = (1 << (9 * s + r)) & hand
                if c:
                    if y & 1:
                        d |= c
                    y >>= 1
            r += 1
        n0 = m0 & ~d if caller == 0 else m0
        n1 = m1 & ~d if caller == 1 else m1
        n2 = m2 & ~d if caller == 2 else m2
        v = r7_ahead_above(T, caller, w, n0, n1, n2, f0, f1, f2, up, left, unsure, floor if floor > lo else lo)
        if v > lo:
            lo = v
            if lo >= stop:
                break
        c = x & -x
        t = x + c
        x = (((t ^ x) >> 2) // c) | t
    return lo


@njit(cache=True, _nrt=False)
def r7_ahead_above(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure, floor):
    """search.discards._r7_ahead_above: the lower bound of r7_ahead_bounds when above floor, else
    -INF, given up at the first of the claim and the R7 singles at or below floor."""
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    old = old_cards(T, hand, up)
    lo = INF
    t = (f0 if w == 0 else (f1 if w == 1 else f2)) + popcount(old)
    if t >= 6:
        lo = payment_to_caller(w, t, caller)
        if lo <= floor:
            return -INF
    singles = r7_singles(T, hand, old)
    while singles:
        c = singles & -singles
        singles ^= c
        n0 = m0 & ~c if w == 0 else m0
        n1 = m1 & ~c if w == 1 else m1
        n2 = m2 & ~c if w == 2 else m2
        l1 = ahead_first_lo(T, caller, w, c, n0, n1, n2, f0, f1, f2, up | c, left - 1, unsure)
        if l1 <= floor:
            return -INF
        if l1 < lo:
            lo = l1
    return lo


# The lower bounds alone of bounds.ahead_first, ahead_second and ahead_end (the R7 look-ahead's
# trick), for r7_ahead_above, which needs no upper bound: an end a non-caller wins is then
# bounded by reach alone (its sure claim only lowers the upper bound), so the sure claim is
# computed at the caller's ends only. The values are bounds.ahead_first's lower bounds exactly.


@njit(cache=True, _nrt=False)
def ahead_first_lo(T, caller, leader, c, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """bounds.ahead_first(...)[0]: the first follower of the look-ahead's trick led with single c."""
    s = (leader + 1) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (c & UNBEATABLE_LEAD) else h & above_in_suit(c)
    if higher == 0:
        return ahead_second_lo(T, caller, leader, c, leader, True, m0, m1, m2, f0, f1, f2, up, left, unsure)
    miss = (unsure >> (4 * s)) & 15
    maxi = miss == 0 and s == caller
    lo = -INF if maxi else INF
    opts = higher
    while opts:
        b = opts & -opts
        opts ^= b
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1 = ahead_second_lo(T, caller, leader, b, s, False, n0, n1, n2, f0, f1, f2, up | b, left, unsure)
        if (l1 > lo) if maxi else (l1 < lo):
            lo = l1
    if miss and popcount(higher) <= miss:  # its higher cards may be the ones it discarded
        l1 = ahead_second_lo(T, caller, leader, c, leader, True, m0, m1, m2, f0, f1, f2, up, left, unsure)
        if l1 < lo:
            lo = l1
    return lo


@njit(cache=True, _nrt=False)
def ahead_second_lo(T, caller, leader, best, bs, led, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """bounds.ahead_second(...)[0]: the last follower of the look-ahead's trick."""
    s = (leader + 2) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (led and (best & UNBEATABLE_LEAD)) else h & above_in_suit(best)
    if higher == 0:
        return ahead_end_lo(T, caller, bs, m0, m1, m2, f0, f1, f2, up, left, unsure)
    miss = (unsure >> (4 * s)) & 15
    maxi = miss == 0 and s == caller
    lo = -INF if maxi else INF
    opts = higher
    while opts:
        b = opts & -opts
        opts ^= b
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1 = ahead_end_lo(T, caller, s, n0, n1, n2, f0, f1, f2, up | b, left, unsure)
        if (l1 > lo) if maxi else (l1 < lo):
            lo = l1
    if miss and popcount(higher) <= miss:  # its higher cards may be the ones it discarded
        l1 = ahead_end_lo(T, caller, bs, m0, m1, m2, f0, f1, f2, up, left, unsure)
        if l1 < lo:
            lo = l1
    return lo


@njit(cache=True, _nrt=False)
def ahead_end_lo(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """bounds.ahead_end(...)[0]: reach, and the caller's sure claim or drain where it won (and
    is not missing cards, which it never is)."""
    a0 = f0 + (1 if w == 0 else 0)
    a1 = f1 + (1 if w == 1 else 0)
    a2 = f2 + (1 if w == 2 else 0)
    r0 = a0 + left
    r1 = a1 + left
    r2 = a2 + left
    lo = reach_bounds(caller, r0, r1, r2)[0]
    if w != caller or (unsure >> (4 * w)) & 15:
        return lo
    o1 = m0 if (w + 1) % 3 == 0 else (m1 if (w + 1) % 3 == 1 else m2)
    o2 = m0 if (w + 2) % 3 == 0 else (m1 if (w + 2) % 3 == 1 else m2)
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    t, drain = _sure_claim(T, w, hand, a0 if w == 0 else (a1 if w == 1 else a2), o1, o2, up, caller)
    r = reach_split(caller, r0, r1, r2)[1] - drain
    b = 2 * (t - 5) if t >= 6 else -INF
    v = -2 * (r - 5) if r >= 6 else 0
    b = b if b > v else v
    return b if b > lo else lo
