"""The value bounds known without search, compiled: :func:`value_bounds` and its parts, as
:mod:`lukfu_solver.search.bounds` computes them (reach, the single-trick playout, the last
trick, the sure claim of the next leader, the R7 one-trick bound and the R7 look-ahead at the
playout's ends), and the look-aheads the search calls after the table probe. The sure claim
itself is in :mod:`.claims`.

The sure claim and the calls on the way to it from a trick's end (``trick_end_bounds``,
``lead_bound``) are inlined into their callers, each at one call site: numba types every inlined
copy anew, and inlined copies of ``trick_leaf`` would make most of the kernel's cold compile.
``trick_leaf`` itself and the playout's own steps are ordinary calls (one compile each, no
slower)."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ...cards import UNBEATABLE_LEAD
from ..switches import CALLER_AHEAD_SKIP, COALITION_AHEAD_SKIP, R7_AHEAD, R7_AT_LEAD
from .claims import _sure_claim
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .table import slot_find, slot_put


@njit(cache=True, _nrt=False, inline="always")
def payment_to_caller(winner, total, caller):
    """rules.payments(winner, total, caller)[caller]."""
    p = total - 5
    if winner == caller:
        return 2 * p
    return -2 * p


@njit(cache=True, _nrt=False, inline="always")
def reach_split(caller, r0, r1, r2):
    """search.bounds._reach_split: (the caller's reach, the most either non-caller can reach)."""
    if caller == 0:
        return r0, max(r1, r2)
    if caller == 1:
        return r1, max(r0, r2)
    return r2, max(r0, r1)


@njit(cache=True, _nrt=False, inline="always")
def reach_bounds(caller, r0, r1, r2):
    """search.bounds._reach_bounds: (lower, upper)."""
    best_c, best_nc = reach_split(caller, r0, r1, r2)
    return (-2 * (best_nc - 5) if best_nc >= 6 else 0), (2 * (best_c - 5) if best_c >= 6 else 0)


@njit(cache=True, _nrt=False, inline="always")
def end_points(f0, f1, f2, last_winner, caller):
    """rules.end_outcome(fu, last_winner, caller).points[caller] (R15), fu being f0..f2."""
    count = 0
    w = -1
    if f0 >= 6:
        count += 1
        w = 0
    if f1 >= 6:
        count += 1
        w = 1
    if f2 >= 6:
        count += 1
        w = 2
    if count == 0:
        return 0
    if count > 1:
        w = last_winner
    return payment_to_caller(w, f0 if w == 0 else (f1 if w == 1 else f2), caller)


@njit(cache=True, _nrt=False)
def value_bounds(T, st, p):
    """search.bounds.value_bounds of row p: (lower, upper), :func:`value_bounds_of`; a
    non-caller's lead (the R7 one-trick bound) through the bounds' cache, as a trick led with a
    single is in :func:`single_trick_bounds` (see :func:`bounds_cache_key`)."""
    if st[p, F_NTRICK] == 0 and not st[p, F_ENDED] and st[p, F_TM] != st[p, F_CALLER]:
        key = bounds_cache_key(st, p)
        i, d = cache_find(T, key)
        if d:
            return cache_pair(d)
        lo, hi = value_bounds_of(T, st, p)
        cache_put(T, i, key, lo, hi)
        return lo, hi
    return value_bounds_of(T, st, p)


# odd multipliers of the bounds' cache key (bounds_cache_key), one a field
VBC_K = (
    0x5851F42D4C957F2D,
    0x2545F4914F6CDD1D,
    0x1B873593CC9E2D51,
    0x4CF5AD432745937F,
    0x61C8864680B583EB,
    0x165667B19E3779F9,
    0x27D4EB2F165667C5,
)


@njit(cache=True, _nrt=False, inline="always")
def bounds_cache_key(st, p):
    """The key of row p in the bounds' cache: a 64-bit hash of what the
    bounds read (the hands, the fu, the face-up cards, the trick, the seats), not the row's
    Zobrist key, which the scratch leads the bounds write to the next row do not keep.

    Only the costly bounds are cached: a trick led with a single (the single-trick playout, in
    :func:`single_trick_bounds`, whoever asks: ``value_bounds``, the R7 one-trick bound at the lead
    before it, the caller's look-ahead) and a non-caller's lead (``value_bounds``): about half of
    a search's nodes, and the dearest of them. A large share are positions whose bounds were
    computed already (``docs/search.md``, "The measurements behind the kernel's choices"): MTD(f)'s
    tests visit the same positions again, and the R7 one-trick bound and the caller's look-ahead
    play out the very tricks the search then enters. The bounds are a
    function of the position alone, so a cached pair is the pair computed, and the tree is
    unchanged.

    The cache is the tail of T (``O_VBC``, ``VB_CACHE_SLOTS`` slots of two words, shared by
    every solver and thread of the process): a slot holds (key ^ data, data), data = lo + 128 |
    (hi + 128) << 8 | 1 << 16, read as the table's are, so that a slot torn by two threads
    writing at once reads as a miss, and a key is checked in full (64 bits)."""
    return cache_key(
        st[p, F_H0],
        st[p, F_H0 + 1],
        st[p, F_H0 + 2],
        st[p, F_FACEUP],
        st[p, F_TR0],
        st[p, F_TR0 + 1],
        st[p, F_FU0] | (st[p, F_FU0 + 1] << 8) | (st[p, F_FU0 + 2] << 16),
        st[p, F_NTRICK],
        st[p, F_LEADER],
        st[p, F_BESTI],
        st[p, F_TM],
        st[p, F_CALLER],
    )


@njit(cache=True, _nrt=False, inline="always")
def cache_key(h0, h1, h2, faceup, tr0, tr1, fus, nt, leader, besti, tm, caller):
    """bounds_cache_key of a row holding these fields (fus: the three fu, 8 bits each)."""
    seats = fus | (nt << 24) | (leader << 28) | (besti << 32) | (tm << 36) | (caller << 40)
    return (
        (h0 * VBC_K[0])
        ^ (h1 * VBC_K[1])
        ^ (h2 * VBC_K[2])
        ^ (faceup * VBC_K[3])
        ^ (tr0 * VBC_K[4])
        ^ (tr1 * VBC_K[5])
        ^ (seats * VBC_K[6])
    )


@njit(cache=True, _nrt=False)
def cache_find(T, key):
    """Key's slot in the bounds' cache (its first word's index) and the slot's data word, which is
    0 on a miss: an empty slot, another key's, or one torn by two writers (see bounds_cache_key)."""
    return slot_find(T, O_VBC, VB_CACHE_SLOTS, key)


@njit(cache=True, _nrt=False, inline="always")
def cache_pair(d):
    """The (lower, upper) bounds of a cache data word (cache_put's packing)."""
    return (d & 255) - 128, ((d >> 8) & 255) - 128


@njit(cache=True, _nrt=False)
def cache_put(T, i, key, lo, hi):
    """Store (lo, hi) for key in the slot at i: data lo + 128 | (hi + 128) << 8 | 1 << 16 (never 0),
    beside key ^ data."""
    slot_put(T, i, key, (lo + 128) | ((hi + 128) << 8) | (1 << 16))


@njit(cache=True, _nrt=False)
def value_bounds_of(T, st, p):
    """search.bounds.value_bounds of row p: (lower, upper), with search.bounds.reach and search.bounds.trick_claim
    computed inline (the can_beat of the seats still to play serves both)."""
    if st[p, F_ENDED]:
        v = st[p, F_OUTV]
        return v, v
    if st[p, F_NTRICK] > 0 and m_kind(st[p, F_TR0]) == SINGLE:
        return single_trick_bounds(T, st, p)
    caller = st[p, F_CALLER]
    if st[p, F_NTRICK] == 0 and popcount(st[p, F_H0]) == 1:  # search.bounds._last_trick_value
        v = last_trick_value(
            T,
            st[p, F_TM],
            st[p, F_H0],
            st[p, F_H0 + 1],
            st[p, F_H0 + 2],
            st[p, F_FU0],
            st[p, F_FU0 + 1],
            st[p, F_FU0 + 2],
            st[p, F_FACEUP],
            caller,
        )
        return v, v
    r0 = st[p, F_FU0] + popcount(st[p, F_H0])
    r1 = st[p, F_FU0 + 1] + popcount(st[p, F_H0 + 1])
    r2 = st[p, F_FU0 + 2] + popcount(st[p, F_H0 + 2])
    nt = st[p, F_NTRICK]
    certain = True
    w = -1
    best = 0
    leader = 0
    if nt > 0:
        bi = st[p, F_BESTI]
        best = st[p, F_TR0 + bi]
        best_led = bi == 0
        leader = st[p, F_LEADER]
        w = (leader + bi) % 3
        k = m_size(st[p, F_TR0])
        for j in range(nt, 3):
            s = (leader + j) % 3
            if can_beat(T, st[p, F_H0 + s], best, best_led):
                certain = False
            elif s == 0:
                r0 -= k
            elif s == 1:
                r1 -= k
            else:
                r2 -= k
        if certain:
            size = m_size(best)
            if w == 0:
                r0 += size
            elif w == 1:
                r1 += size
            else:
                r2 += size
    lower, upper = reach_bounds(caller, r0, r1, r2)
    # search.bounds._next_leader and search.bounds._lead_bound (tricks led with a single returned above, so a
    # trick here is a set or a run: its winner is certain only when nobody can beat)
    # one call of the inlined lead_bound for both cases (each inlined copy costs compile time)
    if nt == 0:
        w = st[p, F_TM]
        hand = st[p, F_H0 + w]
        fu = st[p, F_FU0 + w]
        up = st[p, F_FACEUP]
    elif certain:
        hand = st[p, F_H0 + w]
        if hand == 0:
            return lower, upper
        fu = st[p, F_FU0 + w] + m_size(best)
        up = st[p, F_FACEUP] | trick_faceup(st, p)
    else:
        return lower, upper
    b = lead_bound(T, st, p, w, hand, fu, up, r0, r1, r2)
    if w == caller:
        if b > lower:
            lower = b
    elif b < upper:
        upper = b
    if R7_AT_LEAD and nt == 0 and w != caller and not has_set_or_run(st[p, F_H0 + w]):
        lo1, hi1 = r7_lead_bounds(T, st, p, w)
        if lo1 > lower:
            lower = lo1
        if hi1 < upper:
            upper = hi1
    return lower, upper


@njit(cache=True, _nrt=False, inline="always")
def has_set_or_run(hand):
    """search.bounds._has_set_or_run: three cards of a rank, or three in a row of a suit."""
    a = hand & SUIT9
    b = (hand >> 9) & SUIT9
    c = (hand >> 18) & SUIT9
    d = (hand >> 27) & SUIT9
    if (a & b & (c | d)) | (c & d & (a | b)):
        return True
    return (
        (a & (a >> 1) & (a >> 2)) | (b & (b >> 1) & (b >> 2)) | (c & (c >> 1) & (c >> 2)) | (d & (d >> 1) & (d >> 2))
    ) != 0


@njit(cache=True, _nrt=False)
def lead_row(st, p, w):
    """Row p + 1 as row p with seat w about to lead a single into an empty trick (the lead itself
    is written by the caller): the scratch row of the one-trick bound and the look-aheads."""
    q = p + 1
    for f in range(NF):
        st[q, f] = st[p, f]
    st[q, F_NTRICK] = 1
    st[q, F_LEADER] = w
    st[q, F_BESTI] = 0
    st[q, F_TM] = (w + 1) % 3
    return q


@njit(cache=True, _nrt=False)
def r7_singles(T, hand, old):
    """The singles R7 lets a non-caller lead from hand (old: its Old cards): the non-Old cards of
    its highest suit holding one, or any card when all are Old."""
    nonold = hand & ~old
    return nonold & T[O_SUIT + (bit_length(nonold) - 1) // 9] if nonold else hand


@njit(cache=True, _nrt=False)
def r7_lead_bounds(T, st, p, w):
    """search.bounds._r7_lead_bounds at the lead of non-caller w in row p, holding no set and no
    run: the least of the claim's value (when it may claim, R14) and of the single-trick bounds
    after each single R7 lets it lead (non-Old cards of its highest suit holding one; any card
    when all are Old). Each lead is written to row p + 1 (the search's next row, free while row p
    is being evaluated), without its key, which the single-trick bounds never read."""
    caller = st[p, F_CALLER]
    hand = st[p, F_H0 + w]
    old = old_cards(T, hand, st[p, F_FACEUP])
    lo = INF
    hi = INF
    t = st[p, F_FU0 + w] + popcount(old)
    if t >= 6:
        lo = hi = payment_to_caller(w, t, caller)
    singles = r7_singles(T, hand, old)
    q = lead_row(st, p, w)
    while singles:
        c = singles & -singles
        singles ^= c
        st[q, F_H0 + w] = hand & ~c
        st[q, F_TR0] = enc(SINGLE, c, 1)
        l1, h1 = single_trick_bounds(T, st, q)
        if l1 < lo:
            lo = l1
        if h1 < hi:
            hi = h1
    return lo, hi


@njit(cache=True, _nrt=False, inline="always")
def trick_end_bounds(T, st, p, w, hand, up, left):
    """search.bounds._single_trick_bounds' ``ended``: bounds once seat w has won the trick in progress
    and holds hand, with up face up and left cards a seat."""
    caller = st[p, F_CALLER]
    a0 = st[p, F_FU0] + (1 if w == 0 else 0)
    a1 = st[p, F_FU0 + 1] + (1 if w == 1 else 0)
    a2 = st[p, F_FU0 + 2] + (1 if w == 2 else 0)
    if left == 0:
        v = end_points(a0, a1, a2, w, caller)
        return v, v
    r0 = a0 + left
    r1 = a1 + left
    r2 = a2 + left
    lo, hi = reach_bounds(caller, r0, r1, r2)
    fw = a0 if w == 0 else (a1 if w == 1 else a2)
    b = lead_bound(T, st, p, w, hand, fw, up, r0, r1, r2)
    if w == caller:
        if b > lo:
            lo = b
    elif b < hi:
        hi = b
    return lo, hi


@njit(cache=True, _nrt=False)
def last_trick_value(T, w, c0, c1, c2, f0, f1, f2, up, caller):
    """search.bounds._last_trick_value: each seat holds one card (c0, c1, c2), seat w to lead, fu f0..f2."""
    cw = c0 if w == 0 else (c1 if w == 1 else c2)
    best = cw
    bs = w
    led = True
    for j in range(1, 3):
        s = (w + j) % 3
        c = c0 if s == 0 else (c1 if s == 1 else c2)
        if not (led and (best & UNBEATABLE_LEAD)) and (c & above_in_suit(best)):
            best = c
            bs = s
            led = False
    v = end_points(f0 + (1 if bs == 0 else 0), f1 + (1 if bs == 1 else 0), f2 + (1 if bs == 2 else 0), bs, caller)
    t = (f0 if w == 0 else (f1 if w == 1 else f2)) + popcount(old_cards(T, cw, up))
    if t >= 6:
        claim = payment_to_caller(w, t, caller)
        if w == caller:
            if claim > v:
                v = claim
        elif claim < v:
            v = claim
    return v


@njit(cache=True, _nrt=False)
def trick_leaf(T, st, p, w, m0, m1, m2, up, left):
    """search.bounds._single_trick_bounds' ``ended``: seat w won the trick; m0..m2 the hands then."""
    if left == 1:
        f0 = st[p, F_FU0] + (1 if w == 0 else 0)
        f1 = st[p, F_FU0 + 1] + (1 if w == 1 else 0)
        f2 = st[p, F_FU0 + 2] + (1 if w == 2 else 0)
        v = last_trick_value(T, w, m0, m1, m2, f0, f1, f2, up, st[p, F_CALLER])
        return v, v
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    lo, hi = trick_end_bounds(T, st, p, w, hand, up, left)
    if R7_AHEAD and left >= 3 and lo < hi and w != st[p, F_CALLER] and not has_set_or_run(hand):
        alo, ahi = trick_r7_ahead(T, st, p, w, m0, m1, m2, up, left)
        if alo > lo:
            lo = alo
        if ahi < hi:
            hi = ahi
    return lo, hi


@njit(cache=True, _nrt=False)
def trick_r7_ahead(T, st, p, w, m0, m1, m2, up, left):
    """search.bounds._single_trick_bounds' ``ended`` calling _r7_ahead_bounds: non-caller w won the
    trick of row p and leads next; m0..m2 the hands then. The seats still to play whose hand is
    unchanged discarded an unknown card (``unsure``: four bits a seat, how many cards it misses)."""
    nt = st[p, F_NTRICK]
    leader = st[p, F_LEADER]
    unsure = 0
    for j in range(nt, 3):
        s = (leader + j) % 3
        if (m0 if s == 0 else (m1 if s == 1 else m2)) == st[p, F_H0 + s]:
            unsure |= 1 << (4 * s)
    f0 = st[p, F_FU0] + (1 if w == 0 else 0)
    f1 = st[p, F_FU0 + 1] + (1 if w == 1 else 0)
    f2 = st[p, F_FU0 + 2] + (1 if w == 2 else 0)
    return r7_ahead_bounds(T, st[p, F_CALLER], w, m0, m1, m2, f0, f1, f2, up, left, unsure)


@njit(cache=True, _nrt=False)
def r7_ahead_bounds(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """search.bounds._r7_ahead_bounds: non-caller w (no set, no run) to lead with hands m0..m2,
    fu f0..f2 and left cards a hand: the least of the claim's value and of each R7 single's
    trick played out (ahead_first, ahead_second)."""
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    old = old_cards(T, hand, up)
    lo = INF
    hi = INF
    t = (f0 if w == 0 else (f1 if w == 1 else f2)) + popcount(old)
    if t >= 6:
        lo = hi = payment_to_caller(w, t, caller)
    singles = r7_singles(T, hand, old)
    while singles:
        c = singles & -singles
        singles ^= c
        n0 = m0 & ~c if w == 0 else m0
        n1 = m1 & ~c if w == 1 else m1
        n2 = m2 & ~c if w == 2 else m2
        l1, h1 = ahead_first(T, caller, w, c, n0, n1, n2, f0, f1, f2, up | c, left - 1, unsure)
        if l1 < lo:
            lo = l1
        if h1 < hi:
            hi = h1
    return lo, hi


@njit(cache=True, _nrt=False, inline="always")
def fold_unsure(mode, lo, hi, olo, ohi):
    """One option joined to a choice: the caller's best (mode 0), a non-caller's (1), or, for a
    seat missing unknown cards, the envelope of all (2)."""
    if mode == 0:
        return max(lo, olo), max(hi, ohi)
    if mode == 1:
        return min(lo, olo), min(hi, ohi)
    return min(lo, olo), max(hi, ohi)


@njit(cache=True, _nrt=False)
def ahead_first(T, caller, leader, c, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """search.bounds._ahead_play for the first follower of the look-ahead's trick, led with the
    single c by leader (c already out of its hand and in up)."""
    s = (leader + 1) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (c & UNBEATABLE_LEAD) else h & above_in_suit(c)
    if higher == 0:
        return ahead_second(T, caller, leader, c, leader, True, m0, m1, m2, f0, f1, f2, up, left, unsure)
    miss = (unsure >> (4 * s)) & 15
    mode = 2 if miss else (0 if s == caller else 1)
    lo = INF if mode != 0 else -INF
    hi = -INF if mode != 1 else INF
    opts = higher
    while opts:
        b = opts & -opts
        opts ^= b
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1, h1 = ahead_second(T, caller, leader, b, s, False, n0, n1, n2, f0, f1, f2, up | b, left, unsure)
        lo, hi = fold_unsure(mode, lo, hi, l1, h1)
    if mode == 2 and popcount(higher) <= miss:  # its higher cards may be the ones it discarded
        l1, h1 = ahead_second(T, caller, leader, c, leader, True, m0, m1, m2, f0, f1, f2, up, left, unsure)
        lo, hi = fold_unsure(mode, lo, hi, l1, h1)
    return lo, hi


@njit(cache=True, _nrt=False)
def ahead_second(T, caller, leader, best, bs, led, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """search.bounds._ahead_play for the last follower of the look-ahead's trick, the best card
    being best (by seat bs, led or not); each way the trick ends is bounded by ahead_end."""
    s = (leader + 2) % 3
    h = m0 if s == 0 else (m1 if s == 1 else m2)
    higher = 0 if (led and (best & UNBEATABLE_LEAD)) else h & above_in_suit(best)
    if higher == 0:
        return ahead_end(T, caller, bs, m0, m1, m2, f0, f1, f2, up, left, unsure)
    miss = (unsure >> (4 * s)) & 15
    mode = 2 if miss else (0 if s == caller else 1)
    lo = INF if mode != 0 else -INF
    hi = -INF if mode != 1 else INF
    opts = higher
    while opts:
        b = opts & -opts
        opts ^= b
        n0 = m0 & ~b if s == 0 else m0
        n1 = m1 & ~b if s == 1 else m1
        n2 = m2 & ~b if s == 2 else m2
        l1, h1 = ahead_end(T, caller, s, n0, n1, n2, f0, f1, f2, up | b, left, unsure)
        lo, hi = fold_unsure(mode, lo, hi, l1, h1)
    if mode == 2 and popcount(higher) <= miss:  # its higher cards may be the ones it discarded
        l1, h1 = ahead_end(T, caller, bs, m0, m1, m2, f0, f1, f2, up, left, unsure)
        lo, hi = fold_unsure(mode, lo, hi, l1, h1)
    return lo, hi


@njit(cache=True, _nrt=False)
def ahead_end(T, caller, w, m0, m1, m2, f0, f1, f2, up, left, unsure):
    """search.bounds._ahead_play's end: seat w won the look-ahead's trick; bounded by reach and,
    unless w is missing unknown cards, by its lead bound against the hands m0..m2."""
    a0 = f0 + (1 if w == 0 else 0)
    a1 = f1 + (1 if w == 1 else 0)
    a2 = f2 + (1 if w == 2 else 0)
    r0 = a0 + left
    r1 = a1 + left
    r2 = a2 + left
    lo, hi = reach_bounds(caller, r0, r1, r2)
    if (unsure >> (4 * w)) & 15:
        return lo, hi
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    o1 = m0 if (w + 1) % 3 == 0 else (m1 if (w + 1) % 3 == 1 else m2)
    o2 = m0 if (w + 2) % 3 == 0 else (m1 if (w + 2) % 3 == 1 else m2)
    fw = a0 if w == 0 else (a1 if w == 1 else a2)
    t, drain = _sure_claim(T, w, hand, fw, o1, o2, up, caller)
    best_c, best_nc = reach_split(caller, r0, r1, r2)
    if w == caller:
        r = best_nc - drain
        b = 2 * (t - 5) if t >= 6 else -INF
        v = -2 * (r - 5) if r >= 6 else 0
        b = b if b > v else v
        return (b if b > lo else lo), hi
    r = best_c - drain
    b = -2 * (t - 5) if t >= 6 else INF
    v = 2 * (r - 5) if r >= 6 else 0
    b = b if b < v else v
    return lo, (b if b < hi else hi)


@njit(cache=True, _nrt=False, inline="always")
def fold_bounds(maxi, lo, hi, olo, ohi):
    """(lo, hi) joined with one option's bounds (olo, ohi): the best option for the seat
    choosing (max for the caller, min for a non-caller) bounds the choice on both sides."""
    if maxi:
        return max(lo, olo), max(hi, ohi)
    return min(lo, olo), min(hi, ohi)


@njit(cache=True, _nrt=False)
def last_follower_bounds(T, st, p, s2, s1, r1, card, bs, led, up, left):
    """search.bounds._single_trick_bounds' ``play`` for the last seat s2 to play, the best card being
    card (by seat bs, led or not); s1 is the seat that followed before it (or -1), holding r1."""
    caller = st[p, F_CALLER]
    m0 = st[p, F_H0]
    m1 = st[p, F_H0 + 1]
    m2 = st[p, F_H0 + 2]
    if s1 == 0:
        m0 = r1
    elif s1 == 1:
        m1 = r1
    elif s1 == 2:
        m2 = r1
    h2 = st[p, F_H0 + s2]
    higher = 0 if (led and (card & UNBEATABLE_LEAD)) else h2 & above_in_suit(card)
    # one call of the inlined trick_leaf for every case (each inlined copy costs compile time):
    # when s2 cannot beat and keeps its cards, one pass with the hands as they are, whose fold
    # is that option's own bounds
    alone = higher == 0 and left != 1
    maxi = s2 == caller
    lo = -INF if maxi else INF
    hi = -INF if maxi else INF
    opts = 1 if alone else (higher if higher else h2)  # beating cards, or (one card each left) the card kept
    while opts:
        c = opts & -opts
        opts ^= c
        rem = h2
        w = bs
        u = up
        if alone:
            pass
        elif higher:
            rem = h2 & ~c
            w = s2
            u = up | c
        else:
            rem = c
        l2, h2b = trick_leaf(
            T, st, p, w, rem if s2 == 0 else m0, rem if s2 == 1 else m1, rem if s2 == 2 else m2, u, left
        )
        lo, hi = fold_bounds(maxi, lo, hi, l2, h2b)
    return lo, hi


@njit(cache=True, _nrt=False)
def single_trick_bounds(T, st, p):
    """search.bounds._single_trick_bounds of row p (a trick led with a single is in progress),
    :func:`single_trick_of` through the bounds' cache (:func:`bounds_cache_key`)."""
    key = bounds_cache_key(st, p)
    i, d = cache_find(T, key)
    if d:
        return cache_pair(d)
    lo, hi = single_trick_of(T, st, p)
    cache_put(T, i, key, lo, hi)
    return lo, hi


@njit(cache=True, _nrt=False)
def single_trick_of(T, st, p):
    """search.bounds._single_trick_bounds of row p, computed."""
    caller = st[p, F_CALLER]
    nt = st[p, F_NTRICK]
    leader = st[p, F_LEADER]
    bi = st[p, F_BESTI]
    card = m_cards(st[p, F_TR0 + bi])
    led = bi == 0
    bs = (leader + bi) % 3
    up = st[p, F_FACEUP] | trick_faceup(st, p)
    left = popcount(st[p, F_H0]) - 1
    if (0 - leader) % 3 < nt:
        left += 1
    s1 = (leader + nt) % 3
    if nt == 2:
        return last_follower_bounds(T, st, p, s1, -1, 0, card, bs, led, up, left)
    s2 = (leader + 2) % 3
    h1 = st[p, F_H0 + s1]
    higher = 0 if (led and (card & UNBEATABLE_LEAD)) else h1 & above_in_suit(card)
    if higher == 0 and left != 1:
        return last_follower_bounds(T, st, p, s2, s1, h1, card, bs, led, up, left)
    maxi = s1 == caller
    lo = -INF if maxi else INF
    hi = -INF if maxi else INF
    opts = higher if higher else h1  # beating cards, or (one card each left) the card kept
    while opts:
        c = opts & -opts
        opts ^= c
        if higher:
            l1, h1b = last_follower_bounds(T, st, p, s2, s1, h1 & ~c, c, s1, False, up | c, left)
        else:
            l1, h1b = last_follower_bounds(T, st, p, s2, s1, c, card, bs, led, up, left)
        lo, hi = fold_bounds(maxi, lo, hi, l1, h1b)
    return lo, hi


@njit(cache=True, _nrt=False, inline="always")
def lead_bound(T, st, p, w, hand, fu, up, r0, r1, r2):
    """search.bounds._lead_bound: seat w leading with hand and fu; r0..r2 are search.bounds.reach."""
    caller = st[p, F_CALLER]
    t, drain = _sure_claim(T, w, hand, fu, st[p, F_H0 + (w + 1) % 3], st[p, F_H0 + (w + 2) % 3], up, caller)
    best_c, best_nc = reach_split(caller, r0, r1, r2)
    if w == caller:
        r = best_nc - drain
        b = 2 * (t - 5) if t >= 6 else -INF
        v = -2 * (r - 5) if r >= 6 else 0
        return b if b > v else v
    r = best_c - drain
    b = -2 * (t - 5) if t >= 6 else INF
    v = 2 * (r - 5) if r >= 6 else 0
    return b if b < v else v


@njit(cache=True, _nrt=False)
def caller_lead_bound(T, st, p, stop):
    """search.bounds._caller_lead_bound at the caller's lead in row p: the best single-trick lower
    bound after each single it may lead that a non-caller can beat (-INF when none; with
    CALLER_AHEAD_SKIP not those whose every beater keeps a set or a run), stopping once one
    reaches stop. Each lead is written to row p + 1, as r7_lead_bounds does."""
    caller = st[p, F_CALLER]
    hand = st[p, F_H0 + caller]
    o1 = st[p, F_H0 + (caller + 1) % 3]
    o2 = st[p, F_H0 + (caller + 2) % 3]
    others = o1 | o2
    q = lead_row(st, p, caller)
    lo = -INF
    cards = hand
    while cards:
        c = cards & -cards
        cards ^= c
        above = above_in_suit(c)
        if (c & UNBEATABLE_LEAD) or (others & above) == 0:
            continue
        if CALLER_AHEAD_SKIP:
            useful = False
            for h in (o1, o2):  # one inlined copy of has_set_or_run
                if (h & above) and not has_set_or_run(h & ~above):
                    useful = True
            if not useful:
                continue
        st[q, F_H0 + caller] = hand & ~c
        st[q, F_TR0] = enc(SINGLE, c, 1)
        l1 = single_trick_bounds(T, st, q)[0]
        if l1 > lo:
            lo = l1
            if lo >= stop:
                break
    return lo


@njit(cache=True, _nrt=False)
def coalition_lead_bound(T, st, p, stop):
    """search.bounds._coalition_lead_bound at a non-caller's lead in row p: the least single-trick
    upper bound after each single R7 lets it lead (INF when none is played out: at the caller's
    lead, mid-trick, or, with R7_AT_LEAD, when it holds no set and no run; with
    COALITION_AHEAD_SKIP not the singles the caller can beat with a card the partner cannot beat,
    while three cards a hand or more are left), stopping once one is at or below stop. Each lead
    is written to row p + 1, as r7_lead_bounds does."""
    caller = st[p, F_CALLER]
    w = st[p, F_TM]
    hand = st[p, F_H0 + w]
    hi = INF
    if w == caller or st[p, F_NTRICK] != 0 or (R7_AT_LEAD and not has_set_or_run(hand)):
        return hi
    ch = st[p, F_H0 + caller]
    partner = st[p, F_H0 + 3 - caller - w]
    skip = COALITION_AHEAD_SKIP and popcount(st[p, F_H0]) >= 3
    old = old_cards(T, hand, st[p, F_FACEUP])
    singles = r7_singles(T, hand, old)
    q = lead_row(st, p, w)
    while singles:
        c = singles & -singles
        singles ^= c
        if skip and not (c & UNBEATABLE_LEAD):
            beat = ch & above_in_suit(c)
            if beat and not (partner & above_in_suit(1 << (bit_length(beat) - 1))):
                continue
        st[q, F_H0 + w] = hand & ~c
        st[q, F_TR0] = enc(SINGLE, c, 1)
        h1 = single_trick_bounds(T, st, q)[1]
        if h1 < hi:
            hi = h1
            if hi <= stop:
                break
    return hi

