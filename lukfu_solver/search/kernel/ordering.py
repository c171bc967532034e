"""Move ordering, as the reference's ``Solver._ordered``: the history table (an open-addressing
hash), the sort keys (table move, claims, killers, history, cheap discards), the lazy
selection of the first moves and the sort of the rest, and the moves of a node ordered."""

# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ...cards import UNBEATABLE_LEAD
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .moves import discard_ok, equivalence_classes, gen_beats, gen_moves, reduce_moves
from .table import mix


@njit(cache=True, _nrt=False, inline="always")
def _hslot(key, mask):
    return mix(key) & mask


@njit(cache=True, _nrt=False)
def hist_get(hk, hv, key):
    k = key + 1
    mask = hk.shape[0] - 1
    i = _hslot(k, mask)
    while True:
        x = hk[i]
        if x == k:
            return hv[i]
        if x == 0:
            return 0
        i = (i + 1) & mask


@njit(cache=True, _nrt=False)
def hist_add(hk, hv, ctr, key, amount):
    """Add amount to the key's entry; returns its slot."""
    k = key + 1
    mask = hk.shape[0] - 1
    i = _hslot(k, mask)
    while True:
        x = hk[i]
        if x == k:
            hv[i] += amount
            return i
        if x == 0:
            hk[i] = k
            hv[i] = amount
            ctr[C_HCOUNT] += 1
            return i
        i = (i + 1) & mask


@njit(cache=True, _nrt=False)
def hist_rehash(hk, hv, nk, nv):
    """Copy every entry of (hk, hv) into the larger empty table (nk, nv)."""
    mask = nk.shape[0] - 1
    for j in range(hk.shape[0]):
        k = hk[j]
        if k != 0:
            i = _hslot(k, mask)
            while nk[i] != 0:
                i = (i + 1) & mask
            nk[i] = k
            nv[i] = hv[j]


# ---------------------------------------------------------------- ordering (search.reference.Solver._ordered)


@njit(cache=True, _nrt=False)
def order_keys(T, st, p, mv, mk, n, ttm, killer, killer2, hk, hv):
    """Sort keys mk[p, i] = score << 10 | i of the moves mv[p, :n] (the sort is then stable)."""
    s = st[p, F_TM]
    hand = st[p, F_H0 + s]
    n1 = st[p, F_H0 + (s + 1) % 3]
    n2 = st[p, F_H0 + (s + 2) % 3]
    n_played = st[p, F_NTRICK]
    old = 0
    if n > 0 and m_kind(mv[p, n - 1]) == DISCARD:
        old = old_cards(T, hand, st[p, F_FACEUP] | trick_faceup(st, p))
    seat_key = s << 36
    for i in range(n):
        m = mv[p, i]
        kind = m_kind(m)
        if m == ttm:
            score = -1000000000
        elif kind == CLAIM:
            score = -100000000
        elif m == killer:
            score = KILLER_SCORE
        elif m == killer2:
            score = KILLER2_SCORE
        else:
            cards = m_cards(m)
            h = hist_get(hk, hv, seat_key | cards)
            if kind == DISCARD:
                low = (
                    T[O_LOW9 + (cards & SUIT9)]
                    + T[O_LOW9 + ((cards >> 9) & SUIT9)]
                    + T[O_LOW9 + ((cards >> 18) & SUIT9)]
                    + T[O_LOW9 + ((cards >> 27) & SUIT9)]
                )
                score = 1000000 - h + low + 20 * popcount(cards & old)
            elif n_played == 0:
                if kind == SINGLE:  # can_beat of a single, for both hands at once, without the call
                    wins = (cards & UNBEATABLE_LEAD) != 0 or ((n1 | n2) & above_in_suit(cards)) == 0
                else:
                    wins = (not can_beat(T, n1, m, True)) and (not can_beat(T, n2, m, True))
                score = (-100000 if wins else 0) - h - 10 * m_size(m)
            elif n_played == 1:
                if kind == SINGLE:
                    wins = (n1 & above_in_suit(cards)) == 0
                else:
                    wins = not can_beat(T, n1, m, False)
                score = (-100000 if wins else 0) - h + rank_of_top(cards)
            else:
                score = -h + rank_of_top(cards)
        mk[p, i] = (score << IDX_BITS) | i


SELECT_FIRST = 6
KILLER_SCORE = -50000000  # after the table's move and claims, before every other move
KILLER2_SCORE = -40000000  # the ply's second killer, next


@njit(cache=True, _nrt=False)
def next_move(mv, mk, p, i, n):
    """The i-th move of row p in sorted order: selection for the first few, then one sort of
    the rest (the keys are distinct, so any sort gives the stable order)."""
    if i < SELECT_FIRST:
        b = i
        bk = mk[p, i]
        for j in range(i + 1, n):
            if mk[p, j] < bk:
                bk = mk[p, j]
                b = j
        if b != i:
            mk[p, b] = mk[p, i]
            mk[p, i] = bk
    elif i == SELECT_FIRST:
        if n - i <= 32:
            for a in range(i + 1, n):  # insertion sort
                x = mk[p, a]
                b = a - 1
                while b >= i and mk[p, b] > x:
                    mk[p, b + 1] = mk[p, b]
                    b -= 1
                mk[p, b + 1] = x
        else:
            heap_sort(mk, p, i, n)  # the keys are distinct: any sort gives the stable order
    return mv[p, mk[p, i] & ((1 << IDX_BITS) - 1)]


@njit(cache=True, _nrt=False)
def heap_sort(mk, p, lo, hi):
    """Sort mk[p, lo:hi] ascending in place (numpy's sort needs numba's runtime, which the kernel
    does without: no array is allocated in it)."""
    n = hi - lo
    for start in range(n // 2 - 1, -1, -1):
        sift_down(mk, p, lo, start, n)
    for end in range(n - 1, 0, -1):
        x = mk[p, lo]
        mk[p, lo] = mk[p, lo + end]
        mk[p, lo + end] = x
        sift_down(mk, p, lo, 0, end)


@njit(cache=True, _nrt=False, inline="always")
def sift_down(mk, p, lo, root, n):
    """Heap sort's sift-down of the element at root in the max-heap mk[p, lo:lo + n]."""
    while True:
        child = 2 * root + 1
        if child >= n:
            return
        if child + 1 < n and mk[p, lo + child + 1] > mk[p, lo + child]:
            child += 1
        if mk[p, lo + root] >= mk[p, lo + child]:
            return
        x = mk[p, lo + root]
        mk[p, lo + root] = mk[p, lo + child]
        mk[p, lo + child] = x
        root = child


# ---------------------------------------------------------------- the moves of a node, ordered


@njit(cache=True, _nrt=False)
def discards_ordered(T, st, p, mv, mk, sc, size, ttm, killer, killer2, hk, hv, reduce):
    """The discards of row p, reduced (when ``reduce``) and with their sort keys, in one pass:
    gen_discards + reduce_moves + order_keys for a follower who cannot beat. Returns the count.

    Scratch: sc[0:12] the cards in rank-major order, sc[16:22] the combination, sc[24:30] the OR
    of its first cards, sc[32:48] the discard classes, sc[48:60] each card's cost (rank − 1, +20
    when Old), sc[64:70] the cost of the combination's first cards."""
    s = st[p, F_TM]
    hand = st[p, F_H0 + s]
    ndc = 0
    if reduce:
        _, ndc = equivalence_classes(T, st, p, sc)
    old = old_cards(T, hand, st[p, F_FACEUP] | trick_faceup(st, p))
    nc = 0
    for r in range(9):
        for su in range(4):
            b = 1 << (su * 9 + r)
            if hand & b:
                sc[nc] = b
                sc[48 + nc] = r + (20 if old & b else 0)
                nc += 1
    if size > nc:
        return 0
    if nc == size:  # one discard: nothing to reduce
        ndc = 0
    seat_key = s << 36
    head = enc(DISCARD, 0, size)
    acc = 0
    cost = 0
    for i in range(size):
        sc[16 + i] = i
        acc |= sc[i]
        cost += sc[48 + i]
        sc[24 + i] = acc
        sc[64 + i] = cost
    top = size - 1
    n = 0
    while True:
        cards = sc[24 + top]
        if ndc == 0 or discard_ok(cards, sc, ndc):
            m = head | cards
            if m == ttm:
                score = -1000000000
            elif m == killer:
                score = KILLER_SCORE
            elif m == killer2:
                score = KILLER2_SCORE
            else:
                score = 1000000 - hist_get(hk, hv, seat_key | cards) + sc[64 + top]
            mv[p, n] = m
            mk[p, n] = (score << IDX_BITS) | n
            n += 1
        # next combination (itertools.combinations order)
        i = top
        while i >= 0 and sc[16 + i] == i + nc - size:
            i -= 1
        if i < 0:
            break
        j = sc[16 + i] + 1
        acc = sc[24 + i - 1] if i > 0 else 0
        cost = sc[64 + i - 1] if i > 0 else 0
        for k in range(i, size):
            sc[16 + k] = j
            acc |= sc[j]
            cost += sc[48 + j]
            sc[24 + k] = acc
            sc[64 + k] = cost
            j += 1
    return n


@njit(cache=True, _nrt=False)
def node_moves(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce):
    """The moves of row p (search.reductions.reduced_moves when ``reduce``, else every legal move) with
    the sort keys of Solver._ordered; returns the count. Discards take the one-pass route."""
    return moves_keyed(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce, True)


@njit(cache=True, _nrt=False)
def search_moves(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce):
    """node_moves for the search: a lone move gets the key 0 (its index) without its score,
    since one move has no order to find (the history is not read)."""
    return moves_keyed(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce, False)


@njit(cache=True, _nrt=False, inline="always")
def moves_keyed(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce, score_one):
    """node_moves; ``score_one`` False: a lone move is not scored."""
    if st[p, F_NTRICK] > 0:
        best_i = st[p, F_BESTI]
        hand = st[p, F_H0 + st[p, F_TM]]
        n = gen_beats(T, hand, st[p, F_TR0 + best_i], best_i == 0, mv, p, 0)
        if n == 0:
            return discards_ordered(T, st, p, mv, mk, sc, m_size(st[p, F_TR0]), ttm, killer, killer2, hk, hv, reduce)
    else:
        n = gen_moves(T, st, p, mv, sc)
    if reduce:
        n = reduce_moves(T, st, p, mv, n, sc)
    if n == 1 and not score_one:
        mk[p, 0] = 0
        return 1
    order_keys(T, st, p, mv, mk, n, ttm, killer, killer2, hk, hv)
    return n


@njit(cache=True, _nrt=False)
def node_moves_generic(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce):
    """node_moves by the plain route (gen_moves, reduce_moves, order_keys), for checks."""
    n = gen_moves(T, st, p, mv, sc)
    if reduce:
        n = reduce_moves(T, st, p, mv, n, sc)
    order_keys(T, st, p, mv, mk, n, ttm, killer, killer2, hk, hv)
    return n
