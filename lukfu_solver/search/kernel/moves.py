"""Move generation (``Position.legal_moves``: leads, beats, discards, the claim) and the rank
equivalence reduction (:mod:`lukfu_solver.search.reductions`), into ``mv[p, :]``."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ...cards import UNBEATABLE_LEAD
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)


@njit(cache=True, _nrt=False)
def gen_discards(hand, size, out, p, n, sc):
    """rules.discard_plays: cards in rank-major order, then combinations in lexicographic order."""
    # scratch: sc[0:12] the card bits in rank-major order, sc[16:28] the combination indices
    nc = 0
    for r in range(9):
        for s in range(4):
            b = 1 << (s * 9 + r)
            if hand & b:
                sc[nc] = b
                nc += 1
    if size > nc:
        return n
    # sc[16 + i]: index of the i-th card of the combination; sc[24 + i]: the OR of cards 0..i
    acc = 0
    for i in range(size):
        sc[16 + i] = i
        acc |= sc[i]
        sc[24 + i] = acc
    top = size - 1
    head = enc(DISCARD, 0, size)
    while True:
        out[p, n] = head | sc[24 + top]
        n += 1
        # next combination (itertools.combinations order)
        i = top
        while i >= 0 and sc[16 + i] == i + nc - size:
            i -= 1
        if i < 0:
            break
        j = sc[16 + i] + 1
        acc = sc[24 + i - 1] if i > 0 else 0
        for k in range(i, size):
            sc[16 + k] = j
            acc |= sc[j]
            sc[24 + k] = acc
            j += 1
    return n


@njit(cache=True, _nrt=False)
def gen_beats(T, hand, best, best_led, out, p, n):
    """rules.beating_plays, appended to out[n:]; returns the new count."""
    kind = m_kind(best)
    bcards = m_cards(best)
    if kind == SINGLE:
        if best_led and (bcards & UNBEATABLE_LEAD):
            return n
        top = bit_length(bcards) - 1
        suit_end = (top // 9 + 1) * 9
        higher = hand & ((1 << suit_end) - (1 << (top + 1)))
        while higher:
            low = higher & -higher
            out[p, n] = enc(SINGLE, low, 1)
            n += 1
            higher ^= low
    elif kind == SET:
        k = m_size(best)
        r0 = rank_of_top(bcards)
        r_from = r0 + 1
        if best_led and r0 == 1:
            r_from = 9
        for r in range(r_from, 10):
            m = hand & T[O_RANK + r]
            c = popcount(m)
            if c < k:
                continue
            if c == k:
                out[p, n] = enc(SET, m, k)
                n += 1
            else:
                rest = m
                while rest:
                    low = rest & -rest
                    out[p, n] = enc(SET, m ^ low, 3)
                    n += 1
                    rest ^= low
    elif kind == RUN:
        length = m_size(best)
        top = bit_length(bcards) - 1
        bsuit = top // 9
        btop = top % 9 + 1
        for s in range(bsuit, 4):
            shift = 9 * s
            m9 = (hand >> shift) & SUIT9
            base = O_RUNS + m9 * 32
            for j in range(T[base]):
                run = T[base + 1 + j]
                if popcount(run) != length:
                    continue
                if s == bsuit and bit_length(run) <= btop:
                    continue
                out[p, n] = enc(RUN, run << shift, length)
                n += 1
    return n


@njit(cache=True, _nrt=False)
def gen_moves(T, st, p, out, sc):
    """Position.legal_moves of row p into out[p, :]; returns the count."""
    if st[p, F_ENDED]:
        return 0
    s = st[p, F_TM]
    hand = st[p, F_H0 + s]
    caller = st[p, F_CALLER]
    n = 0
    if st[p, F_NTRICK] == 0:
        faceup = st[p, F_FACEUP]
        old = old_cards(T, hand, faceup)
        if st[p, F_FU0 + s] + popcount(old) >= 6:
            out[p, n] = CLAIM_MOVE
            n += 1
        passed = s == 0 and caller != 0
        # singles (R7)
        if s == caller:
            singles = hand
        else:
            nonold = hand & ~old
            if nonold == 0:
                singles = hand
            else:
                top_suit = (bit_length(nonold) - 1) // 9
                singles = nonold & T[O_SUIT + top_suit]
        while singles:
            low = singles & -singles
            out[p, n] = enc(SINGLE, low, 1)
            n += 1
            singles ^= low
        # sets
        for r in range(1, 10):
            m = hand & T[O_RANK + r]
            c = popcount(m)
            if c < 3:
                continue
            if c == 3:
                out[p, n] = enc(SET, m, 3)
                n += 1
                continue
            rest = m
            while rest:
                low = rest & -rest
                out[p, n] = enc(SET, m ^ low, 3)
                n += 1
                rest ^= low
            if not passed:
                out[p, n] = enc(SET, m, 4)
                n += 1
        # runs
        for su in range(4):
            shift = 9 * su
            m9 = (hand >> shift) & SUIT9
            base = O_RUNS + m9 * 32
            for j in range(T[base]):
                run = T[base + 1 + j]
                size = popcount(run)
                if passed and size >= 4:
                    continue
                out[p, n] = enc(RUN, run << shift, size)
                n += 1
        return n
    best_i = st[p, F_BESTI]
    best = st[p, F_TR0 + best_i]
    n = gen_beats(T, hand, best, best_i == 0, out, p, 0)
    if n == 0:
        n = gen_discards(hand, m_size(st[p, F_TR0]), out, p, 0, sc)
    return n


# ---------------------------------------------------------------- rank equivalence (search.reductions.reduced_moves)


@njit(cache=True, _nrt=False)
def equivalence_classes(T, st, p, sc):
    """search.reductions.equivalence_classes of row p: returns (skip, ndc), skip = every card of a single
    class but its lowest; the ndc discard classes are stored in sc[32:]."""
    s = st[p, F_TM]
    hand = st[p, F_H0 + s]
    busy = 0
    for r in range(1, 10):
        m = hand & T[O_RANK + r]
        if popcount(m) >= 3:
            busy |= m
    up = st[p, F_FACEUP]
    down = ALL & ~(st[p, F_H0] | st[p, F_H0 + 1] | st[p, F_H0 + 2] | up | trick_cards(st, p))
    blocked_below = 0
    for suit in range(4):
        shift = 9 * suit
        m9 = (hand >> shift) & SUIT9
        base = O_RUNS + m9 * 32
        for j in range(T[base]):
            busy |= T[base + 1 + j] << shift
        d9 = (down >> shift) & SUIT9
        if d9:
            blocked_below |= ((1 << (bit_length(d9) - 1)) - 1) << shift
    caller = s == st[p, F_CALLER]
    others = st[p, F_H0 + (s + 1) % 3] | st[p, F_H0 + (s + 2) % 3]
    apart = others | trick_cards(st, p)
    free = hand & ~busy & ~UNBEATABLE_LEAD
    skip = 0
    ndc = 0  # discard classes, stored in sc[32:]
    for suit in range(4):
        shift = 9 * suit
        f = (free >> shift) & SUIT9
        if popcount(f) < 2:
            continue
        apart9 = (apart >> shift) & SUIT9
        kept9 = ((down | hand) >> shift) & SUIT9
        blocked9 = (blocked_below >> shift) & SUIT9
        cls = 0
        prev = -1
        for r in range(9):
            if not (f >> r) & 1:
                continue
            between = ((1 << r) - 1) & ~((1 << (prev + 1)) - 1)
            if prev >= 0 and between & apart9 == 0 and (between & kept9 == 0 or (blocked9 >> r) & 1):
                cls |= 1 << r
            else:
                if popcount(cls) >= 2:
                    c = cls << shift
                    skip |= c & ~(c & -c)
                    if not caller and c & blocked_below == c:
                        sc[32 + ndc] = c
                        ndc += 1
                cls = 1 << r
            prev = r
        if popcount(cls) >= 2:
            c = cls << shift
            skip |= c & ~(c & -c)
            if not caller and c & blocked_below == c:
                sc[32 + ndc] = c
                ndc += 1
        if caller:
            ndc = caller_chains(f, (others >> shift) & SUIT9, shift, sc, ndc)
    return skip, ndc


@njit(cache=True, _nrt=False, inline="always")
def caller_chains(f9, others9, shift, sc, ndc):
    """search.reductions._caller_chains: the caller's discard classes of one suit into sc[32 + ndc:];
    returns the new count."""
    cls = 0
    prev = -1
    for r in range(9):
        if not (f9 >> r) & 1:
            continue
        if prev >= 0 and (((1 << r) - 1) & ~((1 << (prev + 1)) - 1)) & others9 == 0:
            cls |= 1 << r
        else:
            if popcount(cls) >= 2:
                sc[32 + ndc] = cls << shift
                ndc += 1
            cls = 1 << r
        prev = r
    if popcount(cls) >= 2:
        sc[32 + ndc] = cls << shift
        ndc += 1
    return ndc


@njit(cache=True, _nrt=False, inline="always")
def discard_ok(cards, sc, ndc):
    """A discard keeps the lowest cards of each discard class (search.reductions.reduced_moves)."""
    for j in range(ndc):
        c = sc[32 + j]
        d = cards & c
        # d must be the lowest popcount(d) cards of c: every card of c below d's top
        if d and (c & ((1 << bit_length(d)) - 1)) != d:
            return False
    return True


@njit(cache=True, _nrt=False)
def reduce_moves(T, st, p, out, n, sc):
    """search.reductions.reduced_moves: filter out[p, :n] in place (order kept); returns the new count."""
    if n < 2:
        return n
    skip, ndc = equivalence_classes(T, st, p, sc)
    if skip == 0 and ndc == 0:
        return n
    k = 0
    for i in range(n):
        m = out[p, i]
        kind = m_kind(m)
        cards = m_cards(m)
        if kind == SINGLE:
            if cards & skip:
                continue
        elif kind == DISCARD and ndc > 0:
            if not discard_ok(cards, sc, ndc):
                continue
        out[p, k] = m
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def lowest_of_suits(hand, cards):
    """In every suit, cards holds the lowest cards of hand in that suit (none, or a prefix): then
    cards & c is the lowest cards of c for every class c of hand's cards, and discard_ok holds."""
    for shift in range(0, 36, 9):
        d = (cards >> shift) & SUIT9
        if d and ((hand >> shift) & SUIT9) & ((1 << bit_length(d)) - 1) != d:
            return False
    return True


@njit(cache=True, _nrt=False)
def move_ok(T, st, p, m, sc, reduce):
    """m is among the moves of row p (reduce_moves' when ``reduce``, else every legal move), without
    generating them: the table's move of a merged position may name cards this one does not hold
    or a card its reduction skips. Stores the discard classes in sc[32:] as equivalence_classes."""
    if m == NO_MOVE or st[p, F_ENDED]:
        return False
    s = st[p, F_TM]
    hand = st[p, F_H0 + s]
    kind = m_kind(m)
    cards = m_cards(m)
    size = m_size(m)
    if st[p, F_NTRICK] == 0:
        if kind == CLAIM:
            return m == CLAIM_MOVE and st[p, F_FU0 + s] + popcount(old_cards(T, hand, st[p, F_FACEUP])) >= 6
        if cards & ~hand or kind == DISCARD or cards == 0:
            return False
        if kind == SET:
            return size == 3 or not (s == 0 and st[p, F_CALLER] != 0)  # no four of a kind once passed
        if kind == RUN:
            return size < 4 or not (s == 0 and st[p, F_CALLER] != 0)
        if s != st[p, F_CALLER]:  # R7: a non-caller leads a single of its top suit of non-Old cards
            nonold = hand & ~old_cards(T, hand, st[p, F_FACEUP])
            if nonold and cards & nonold & T[O_SUIT + (bit_length(nonold) - 1) // 9] == 0:
                return False
    else:
        if kind == CLAIM or cards & ~hand or cards == 0:
            return False
        best_i = st[p, F_BESTI]
        best = st[p, F_TR0 + best_i]
        if kind == DISCARD:
            if size != m_size(st[p, F_TR0]) or can_beat(T, hand, best, best_i == 0):
                return False
            if not reduce or popcount(hand) == size:  # one discard: nothing to reduce
                return True
            if lowest_of_suits(hand, cards):  # the lowest cards of each suit it touches: never skipped
                return True
            _, ndc = equivalence_classes(T, st, p, sc)
            return ndc == 0 or discard_ok(cards, sc, ndc)
        if kind != m_kind(best) or size != m_size(best):
            return False
        bcards = m_cards(best)
        if kind == SINGLE:
            if best_i == 0 and bcards & UNBEATABLE_LEAD:
                return False
            top = bit_length(bcards) - 1
            if cards <= bcards or (cards >> 9 * (top // 9)) > SUIT9:  # higher, of the same suit
                return False
        elif kind == SET:
            r0 = rank_of_top(bcards)
            r = rank_of_top(cards)
            if r <= r0 or (best_i == 0 and r0 == 1 and r != 9):
                return False
        else:
            top = bit_length(bcards) - 1
            ctop = bit_length(cards) - 1
            if ctop // 9 < top // 9 or (ctop // 9 == top // 9 and ctop <= top):
                return False
    if kind == SINGLE and reduce:
        if cards & UNBEATABLE_LEAD or (cards - 1) & hand & T[O_SUIT + (bit_length(cards) - 1) // 9] == 0:
            return True  # no lower card of its suit in the hand: the lowest of its class, if any
        skip, _ = equivalence_classes(T, st, p, sc)
        return cards & skip == 0
    return True
