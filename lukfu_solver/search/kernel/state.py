"""The position as a state row: the table key (``tt_key``, the reference's
:func:`~lukfu_solver.search.table_key.tt_key`), the full Zobrist key, the end of the deal and
:func:`push` (``Position.push``), which writes row ``p + 1`` from row ``p``."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ...cards import UNBEATABLE_LEAD
from ...position import HAND_SIZE
from .bounds import end_points, payment_to_caller
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .table import mix, slot_find, slot_put

RANKS4 = 0x8040201  # the rank-1 card of every suit (bits 0, 9, 18, 27): shifted by r, the cards of rank r + 1


@njit(cache=True, _nrt=False, inline="always")
def blocked_by(T, live, down):
    """search.table_key._blocked: the cards of live below the highest card of down of their suit."""
    return live & (
        T[O_BELOW9 + (down & SUIT9)]
        | (T[O_BELOW9 + ((down >> 9) & SUIT9)] << 9)
        | (T[O_BELOW9 + ((down >> 18) & SUIT9)] << 18)
        | (T[O_BELOW9 + ((down >> 27) & SUIT9)] << 27)
    )


@njit(cache=True, _nrt=False, inline="always")
def slide(T, h0, h1, h2, over, movable, key):
    """search.table_key._slide on the hands h0..h2, the key's hand terms updated as cards move;
    returns (h0, h1, h2, over, key). Inlined, and with few branches: the card's hand is picked
    by masks, the walk down over the gone cards is one bit trick (the card stops above the
    highest lower card not in ``over`` or at the bottom of its suit), and a card that cannot
    move moves by nothing (the Zobrist term of an empty mask is 0). The checks of
    search.table_key._free are written out for the card's suit, computed once a card: in a set
    when its hand holds three of its rank (a mask of the rank, no table), in a run by the suit's
    cards; at a place below, the hand with the card moved there (the card leaves another rank of
    the same suit, so a set there needs two more of that rank)."""
    done = 0
    while True:
        cand = movable & (over << 1) & ~RANK1 & ~done
        if cand == 0:
            return h0, h1, h2, over, key
        x = cand & -cand
        done |= (x << 1) - 1
        b = bit_length(x) - 1
        suit = b // 9
        sh = 9 * suit
        r = b - sh
        m0 = -((h0 >> b) & 1)  # all ones when x is in that hand
        m1 = -((h1 >> b) & 1)
        m2 = -((h2 >> b) & 1)
        hand = (h0 & m0) | (h1 & m1) | (h2 & m2)
        m9 = (hand >> sh) & SUIT9
        starts = m9 & (m9 >> 1) & (m9 >> 2)
        if popcount(hand & (RANKS4 << r)) >= 3 or ((starts | (starts << 1) | (starts << 2)) >> r) & 1:
            continue  # not free: in a set or a run
        low = 1 << bit_length((~over | SUIT_TOPS_BELOW_RANK1) & (x - 1))
        while low != x:  # the lowest place that keeps the card free and is not that of C1 or T1
            if (low & UNBEATABLE_LEAD) == 0:
                rl = bit_length(low) - 1 - sh
                if popcount(hand & (RANKS4 << rl)) < 2:
                    n9 = m9 ^ ((x ^ low) >> sh)
                    s9 = n9 & (n9 >> 1) & (n9 >> 2)
                    if ((s9 | (s9 << 1) | (s9 << 2)) >> rl) & 1 == 0:
                        break
            low <<= 1
        d = x ^ low
        key ^= T[O_ZH + ((m1 & 1) + (m2 & 2)) * 2048 + suit * 512 + (d >> sh)]  # XOR-linear
        h0 ^= d & m0
        h1 ^= d & m1
        h2 ^= d & m2
        over ^= d


@njit(cache=True, _nrt=False, inline="always")
def in_no_set(T, hand, cards):
    """search.table_key._in_no_set: no card of cards is in a set (three or more of its rank) of hand."""
    while cards:
        x = cards & -cards
        cards ^= x
        if popcount(hand & T[O_RANK + (bit_length(x) - 1) % 9 + 1]) >= 3:
            return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def slide_runs(T, h0, h1, h2, over, movable, key):
    """search.table_key._slide_runs on the hands h0..h2, the key's hand terms updated as runs
    move; returns (h0, h1, h2, over, key). Inlined, a quick test only: no hand has a run whose
    bottom lies just above a card of ``over`` (nearly every key: ``docs/search.md``, "The
    measurements behind the kernel's choices"), so nothing moves; otherwise :func:`slide_runs_all`."""
    cand = 0
    for h in (h0, h1, h2):
        starts = h & (h >> 1) & (h >> 2) & RUN_STARTS
        runs = starts | (starts << 1) | (starts << 2)
        cand |= runs & ~((h << 1) & ~RANK1) & (over << 1) & ~RANK1 & movable
    if cand == 0:
        return h0, h1, h2, over, key
    return slide_runs_all(T, h0, h1, h2, over, movable, key, cand)


@njit(cache=True, _nrt=False)
def slide_runs_all(T, h0, h1, h2, over, movable, key, cand):
    """The run slides of :func:`slide_runs` once some run may move, in the reference's order,
    over the suits of ``cand`` only (its quick test's run bottoms with a card of ``over`` below):
    a run moves only onto places of ``over`` just below it, which only a move in its own suit
    changes, so a suit without such a bottom has none for the whole call; nor has a hand's suit
    without three cards in a row."""
    for s in range(3):
        hand = h0 if s == 0 else (h1 if s == 1 else h2)
        for suit in range(4):
            shift = 9 * suit
            m9 = (hand >> shift) & SUIT9
            if (cand >> shift) & SUIT9 == 0 or m9 & (m9 >> 1) & (m9 >> 2) == 0:
                continue
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
                block = ((1 << length) - 1) << (lo + shift)
                if length < 3 or (block & ~movable) != 0:
                    continue
                b = lo
                while b > 0 and (over >> (b - 1 + shift)) & 1:
                    b -= 1
                while b < lo:
                    new = ((1 << length) - 1) << (b + shift)
                    moved = hand ^ block ^ new
                    below_ok = b == 0 or (moved >> (b - 1 + shift)) & 1 == 0
                    if (
                        below_ok
                        and (new & UNBEATABLE_LEAD) == 0
                        and in_no_set(T, hand, block)
                        and in_no_set(T, moved, new)
                    ):
                        break
                    b += 1
                if b == lo:
                    continue
                d = block ^ (((1 << length) - 1) << (b + shift))
                key ^= T[O_ZH + s * 2048 + suit * 512 + (d >> shift)]  # XOR-linear in the mask
                hand ^= d
                over ^= d
                m9 = (hand >> shift) & SUIT9
        if s == 0:
            h0 = hand
        elif s == 1:
            h1 = hand
        else:
            h2 = hand
    return h0, h1, h2, over, key


@njit(cache=True, _nrt=False)
def tt_key(T, st, p):
    """search.table_key.tt_key: the Zobrist key of the canonical form (table_key.canonical_hands:
    cards slid down over gone cards, the gone cards split canonically), with the completed
    tricks' face-up cards replaced by the cards in hands that a face-down discard blocks (one
    Zobrist term for both changes: the keys are XOR-linear in the mask)."""
    return canonical_key(T, st[p, F_H0], st[p, F_H0 + 1], st[p, F_H0 + 2], st[p, F_FACEUP], trick_cards(st, p), st[p, F_KEY])


# mixed into last_key's keys (search.table_key.Z_LAST, the same)
Z_LAST = 0x5A3C6E1F0B9D2748


@njit(cache=True, _nrt=False)
def last_key(T, st, p):
    """search.table_key.last_key of row p: at the last player's turn in a trick, the second
    player having discarded and the last unable to beat the lead, tt_key with that discard
    taken as gone face down (0 elsewhere: no key of this kind)."""
    if not last_applies(T, st, p):
        return 0
    return last_key_at(T, st, p)


@njit(cache=True, _nrt=False, inline="always")
def last_applies(T, st, p):
    """Whether row p is a node of last_key: the last player to a trick after the second player's
    discard, unable to beat the lead."""
    if st[p, F_NTRICK] != 2 or m_kind(st[p, F_TR0 + 1]) != DISCARD:
        return False
    return not can_beat(T, st[p, F_H0 + st[p, F_TM]], st[p, F_TR0], True)


@njit(cache=True, _nrt=False)
def last_key_at(T, st, p):
    """last_key of a row where last_applies holds (the search checks that first)."""
    gone = m_cards(st[p, F_TR0 + 1])
    seat = (st[p, F_LEADER] + 1) % 3
    key = st[p, F_KEY] ^ zmask(T, O_ZD + seat * 2048, gone) ^ Z_LAST
    return canonical_key(T, st[p, F_H0], st[p, F_H0 + 1], st[p, F_H0 + 2], st[p, F_FACEUP], m_cards(st[p, F_TR0]), key)


@njit(cache=True, _nrt=False, inline="always")
def canonical_key(T, h0, h1, h2, up, tcards, key):
    """tt_key of a row with these hands, face-up cards, cards in the trick and Zobrist key
    (table_key._canonical_key of table_key._canonical)."""
    live = h0 | h1 | h2
    gone = ALL & ~(live | tcards)
    down = gone & ~up
    blocked = blocked_by(T, live, down)
    if blocked:
        while True:  # singles, then runs, again while a run moved (table_key.canonical_hands)
            h0, h1, h2, gone, key = slide(T, h0, h1, h2, gone, blocked, key)
            h0, h1, h2, after, key = slide_runs(T, h0, h1, h2, gone, blocked, key)
            if after == gone:
                break
            gone = after
            blocked = blocked_by(T, h0 | h1 | h2, down)
        live = h0 | h1 | h2
        blocked = blocked_by(T, live, down)
    cdown = 0  # the canonical split
    for shift in range(0, 36, 9):
        if (down >> shift) & SUIT9 == 0:
            continue
        below = (blocked >> shift) & SUIT9
        above = ((gone >> shift) & SUIT9) & ~((1 << bit_length(below)) - 1)
        cdown |= (above & -above) << shift
    over = gone & ~cdown
    while True:
        h0, h1, h2, over, key = slide(T, h0, h1, h2, over, live & ~blocked, key)
        h0, h1, h2, after, key = slide_runs(T, h0, h1, h2, over, live & ~blocked, key)
        if after == over:
            break
        over = after
        live = h0 | h1 | h2
    return key ^ zmask(T, O_ZF, up ^ blocked_by(T, h0 | h1 | h2, cdown))


@njit(cache=True, _nrt=False, inline="always")
def key_slot(fk):
    """The index in T of the slot of the cache of table keys for the full key fk (slot_find's)."""
    return O_KEYC + ((mix(fk) & (KEY_CACHE_SLOTS - 1)) << 1)


@njit(cache=True, _nrt=False)
def tt_key_cached(T, st, p):
    """tt_key of row p through the cache of table keys (the tail of T, ``O_KEYC``), looked up by
    the row's full Zobrist key: the table key is a function of the position alone, which the full
    key names as the table's keys name theirs (64 bits, checked in full). The search asks for the
    same position's key again and again (MTD(f)'s tests, transpositions): on set c's seed 11
    caller 0, three in four of its 5.7 M keys were asked for before, within 2**16 slots. A slot
    holds (full key ^ table key, table key), so that a slot torn by two threads writing at once
    reads as a miss, as the bounds' cache does (a table key of 0 is never served from it)."""
    fk = st[p, F_KEY]
    i, d = slot_find(T, O_KEYC, KEY_CACHE_SLOTS, fk)
    if d != 0:
        return d
    key = tt_key(T, st, p)
    slot_put(T, i, fk, key)
    return key


@njit(cache=True, _nrt=False)
def full_key(T, st, p):
    """Position._full_key of row p (for checks; the search updates keys incrementally)."""
    to_move = st[p, F_TM]
    k = T[O_ZTM + to_move] ^ T[O_ZC + st[p, F_CALLER]] ^ zmask(T, O_ZF, st[p, F_FACEUP])
    for s in range(3):
        f = st[p, F_FU0 + s]
        if f > HAND_SIZE:
            f = HAND_SIZE
        k ^= zmask(T, O_ZH + s * 2048, st[p, F_H0 + s]) ^ T[O_ZFU + s * (HAND_SIZE + 1) + f]
    leader = st[p, F_LEADER]
    for i in range(st[p, F_NTRICK]):
        m = st[p, F_TR0 + i]
        seat = (leader + i) % 3
        if m_kind(m) == DISCARD:
            k ^= zmask(T, O_ZD + seat * 2048, m_cards(m))
        else:
            k ^= zmask(T, O_ZU + seat * 2048, m_cards(m))
    if st[p, F_ENDED]:
        k ^= T[O_ZE]
    return k


@njit(cache=True, _nrt=False)
def end_value(st, q, last_winner):
    """rules.end_outcome(...).points[caller] for the fu of row q."""
    return end_points(st[q, F_FU0], st[q, F_FU0 + 1], st[q, F_FU0 + 2], last_winner, st[q, F_CALLER])


@njit(cache=True, _nrt=False)
def push(T, st, p, m):
    """Position.push of move m on row p, written to row p + 1."""
    push_to(T, st, p, m, p + 1)


@njit(cache=True, _nrt=False)
def push_to(T, st, p, m, q):
    """Position.push of move m on row p, written to row q."""
    for f in range(NF):
        st[q, f] = st[p, f]
    s = st[q, F_TM]
    kind = m_kind(m)
    cards = m_cards(m)
    if kind == CLAIM:
        hand = st[q, F_H0 + s]
        total = st[q, F_FU0 + s] + popcount(old_cards(T, hand, st[q, F_FACEUP]))
        st[q, F_ENDED] = 1
        st[q, F_OUTV] = payment_to_caller(s, total, st[q, F_CALLER])
        st[q, F_KEY] ^= T[O_ZE]
        return
    k = st[q, F_KEY]
    st[q, F_H0 + s] ^= cards
    k ^= zmask(T, O_ZH + s * 2048, cards)
    nt = st[q, F_NTRICK]
    if kind != DISCARD and nt > 0:  # a follower's face-up play beats the best play
        st[q, F_BESTI] = nt
    nxt = (s + 1) % 3
    if nt < 2:
        k ^= zmask(T, (O_ZD if kind == DISCARD else O_ZU) + s * 2048, cards)
        st[q, F_TR0 + nt] = m
        st[q, F_NTRICK] = nt + 1
        st[q, F_TM] = nxt
        st[q, F_KEY] = k ^ T[O_ZTM + s] ^ T[O_ZTM + nxt]
        return
    # the trick is complete (R10): the first two plays leave the key (the third never enters it)
    leader = st[q, F_LEADER]
    best_i = st[q, F_BESTI]
    winner = (leader + best_i) % 3
    up = cards if kind != DISCARD else 0
    for i in range(2):
        pm = st[q, F_TR0 + i]
        seat = (leader + i) % 3
        pc = m_cards(pm)
        if m_kind(pm) == DISCARD:
            k ^= zmask(T, O_ZD + seat * 2048, pc)
        else:
            k ^= zmask(T, O_ZU + seat * 2048, pc)
            up |= pc
    st[q, F_FACEUP] |= up
    k ^= zmask(T, O_ZF, up)
    bm = st[q, F_TR0 + best_i] if best_i < 2 else m
    old_fu = st[q, F_FU0 + winner]
    new_fu = old_fu + m_size(bm)
    st[q, F_FU0 + winner] = new_fu
    k ^= T[O_ZFU + winner * (HAND_SIZE + 1) + old_fu] ^ T[O_ZFU + winner * (HAND_SIZE + 1) + new_fu]
    k ^= T[O_ZTM + s] ^ T[O_ZTM + winner]
    st[q, F_NTRICK] = 0
    st[q, F_TR0] = 0
    st[q, F_TR0 + 1] = 0
    st[q, F_BESTI] = 0
    st[q, F_TM] = winner
    st[q, F_LEADER] = winner
    if st[q, F_H0 + winner] == 0:  # the hands ran out (R15)
        st[q, F_ENDED] = 1
        st[q, F_OUTV] = end_value(st, q, winner)
        k ^= T[O_ZE]
    st[q, F_KEY] = k
