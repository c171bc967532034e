"""The compiled search kernel (numba): the rules engine and the alpha-beta search of
:mod:`lukfu_solver.search.reference`, move for move, on flat int64 arrays.

This module imports numba; nothing else in ``lukfu_solver`` imports it (use it through
:class:`lukfu_solver.search.fast.FastSolver`). Every function is ``@njit(cache=True)``: the first
run in a fresh environment compiles and caches them (about 10-15 s of CPU; see
``fastsearch.compile_all``), later runs load them in well under a second.

Representation (all int64):

- a card set is a mask below 2**36 (card index = suit × 9 + rank − 1, as in :mod:`.cards`);
- a move is ``cards | kind << 36 | size << 40`` (kinds as in :mod:`.plays`; the claim is
  ``CLAIM << 36``);
- a position is one row of the state array ``st[ply, :]`` (fields ``F_*`` below); ``push`` writes
  row ``ply + 1`` from row ``ply``, so taking a move back is ``ply − 1``;
- Zobrist keys are the 64-bit keys of :mod:`.position` viewed as signed int64 (XOR is the
  same bit operation either way); ``build_tables`` copies them, with the suit tables of
  :mod:`.cards`, into one flat constant array ``T`` (offsets ``O_*``);
- the moves of the node at ply p are in ``mv[p, :n]`` in generation order, with sort keys
  ``mk[p, i] = score << 10 | i`` (the score of ``Solver._ordered``; the index makes the order
  that of Python's stable sort); ``next_move`` selects the first few lazily, then sorts the rest;
- the transposition table ``tt`` holds buckets of four slots, each slot two words (the full
  key, then the data), so a bucket is one 64-byte cache line: data = best move |
  (lower + 16) << 44 | (upper + 16) << 49 | cards a hand << 54; 0 marks an empty slot.
  Only the first ``ctr[C_TTB]`` buckets are in use: the table starts small and doubles in
  place (``tt_grow``) when half full and, below ``ctr[C_EXACT_B]`` buckets, whenever a bucket
  is full, so that small searches never lose an entry. At full size, a full bucket gives up
  its entry with the fewest cards a hand (the cheapest to recompute). A small table stays in
  the caches: the search runs faster the fewer cache lines the table spans;
- the history table is an open-addressing hash ``hk``/``hv`` keyed by ``seat << 36 | cards``
  (+1; 0 marks empty), grown by the caller between searches so that it never fills.

The search (``search``) is iterative (an explicit stack of frames ``fr[ply, :]``) so that it can
pause every 4096 nodes and hand control back to Python to check the clock, then resume.

Speed notes (measured on the 2-core benchmark machine): passing numpy arrays between compiled
functions costs an atomic reference count per array per call, so ``search`` first makes views
without one (``raw1``/``raw2``); a table probe is a cache miss more often than not, so the
bucket is prefetched as soon as the key is known and the node's moves are generated before the
probe (the table's move is marked afterwards); a follower's discards are generated, reduced and
scored in one pass (``discards_ordered``).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit
from numba.core import types
from numba.extending import intrinsic

from ..cards import ALWAYS_OLD, OLD_RANKS9, RANK_MASK, RUNS9, SUIT_MASK, UNBEATABLE_LEAD
from ..position import HAND_SIZE, Z_CALLER, Z_ENDED, Z_FACEUP, Z_FU, Z_HAND, Z_TO_MOVE, Z_TRICK_DOWN, Z_TRICK_UP

# ---------------------------------------------------------------- bit intrinsics


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def _voidptr(typingctx, addr):
    """An integer address as a void pointer (for numba.carray)."""
    sig = types.voidptr(types.uintp)

    def codegen(context, builder, signature, args):
        from numba.core import cgutils

        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@intrinsic
def prefetch(typingctx, addr):
    """Ask for the cache line at an address (llvm.prefetch: read, high locality)."""
    sig = types.void(types.uintp)

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils

        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        ptr = builder.inttoptr(args[0], i8p)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def raw1(a):
    """A view of the 1-D int64 array a without a reference count (meminfo NULL): passing it to
    other compiled functions then costs no atomic reference counting. a must outlive it."""
    return carray(_voidptr(a.ctypes.data), a.shape[0], np.int64)


@njit(cache=True, inline="always")
def raw2(a):
    """raw1 for a 2-D C-contiguous int64 array."""
    return carray(_voidptr(a.ctypes.data), (a.shape[0], a.shape[1]), np.int64)


@njit(cache=True, inline="always")
def bit_length(x):
    """Python's int.bit_length for 0 <= x < 2**63."""
    return 64 - _ctlz(x)


# ---------------------------------------------------------------- constants

SINGLE, SET, RUN, DISCARD, CLAIM = 0, 1, 2, 3, 4
ALL = (1 << 36) - 1
CARD_MASK = ALL
CLAIM_MOVE = CLAIM << 36
INF = 100
NO_MOVE = -1

MAX_PLY = 48
MAX_MOVES = 1024
SC_SIZE = 128  # scratch words (see discards_ordered)
IDX_BITS = 10  # sort keys are score << 10 | index in the move list

# state row fields
F_H0 = 0
F_TM = 3
F_CALLER = 4
F_FU0 = 5
F_FACEUP = 8
F_NTRICK = 9
F_LEADER = 10
F_BESTI = 11
F_TR0 = 12
F_ENDED = 14
F_OUTV = 15
F_KEY = 16
NF = 17

# frame fields
R_ALPHA = 0
R_BETA = 1
R_A0 = 2
R_B0 = 3
R_LO = 4
R_HI = 5
R_G = 6
R_BEST = 7
R_IDX = 8
R_NM = 9
R_KEY = 10
R_HAD = 11
R_ELO = 12
R_EHI = 13
R_MAX = 14
R_NCARDS = 15
R_KILLER = 16  # + seat: the last move of that seat that cut off at this ply (kept across nodes and tests)
R_KILLER2 = 19  # + seat: the one before it
NFR = 22

# counters
C_NODES = 0
C_PROBES = 1
C_HITS = 2
C_LIMIT = 3  # node limit (0: none)
C_PAUSE = 4  # nonzero: pause when the node count passes a multiple of C_PAUSE + 1 (a power of two)
C_PLY = 5  # saved ply when paused
C_ROOT = 6  # root ply of the running search
C_RESULT = 7  # value found
C_HCOUNT = 8  # entries in the history table
C_REDUCE = 9  # 1: search reduced_moves, 0: every legal move
C_STORES = 10  # table entries written (new)
C_REPLACED = 11  # table entries overwritten by another key
C_NEXT = 12  # node count of the next limit check (Solver._next_check)
C_EXPANDED = 13  # nodes whose moves were generated
C_GENERATED = 14  # moves generated (after the reduction)
C_TTB = 16  # buckets of the table in use (a power of two; the array may hold more)
C_ENTRIES = 17  # occupied slots
C_EXACT_B = 18  # below this many buckets a full bucket doubles the table instead of replacing
NCTR = 24

DONE, ABORTED, PAUSED = 0, 1, 2

# table offsets in the flat constant array T
O_ZH = 0  # Z_HAND[seat][suit][m9]: (seat * 4 + suit) * 512 + m9
O_ZF = O_ZH + 3 * 2048  # Z_FACEUP[suit][m9]
O_ZU = O_ZF + 2048  # Z_TRICK_UP
O_ZD = O_ZU + 3 * 2048  # Z_TRICK_DOWN
O_ZFU = O_ZD + 3 * 2048  # Z_FU[seat][fu]: seat * 13 + fu
O_ZTM = O_ZFU + 3 * (HAND_SIZE + 1)
O_ZC = O_ZTM + 3
O_ZE = O_ZC + 3
O_OLD9 = O_ZE + 1  # OLD_RANKS9[m9]
O_REL9 = O_OLD9 + 512  # RELEVANT9[m9] (search.tt_key)
O_RUNS = O_REL9 + 512  # per m9: count at m9 * 32, runs (9-bit masks) after it
O_MAXTOP = O_RUNS + 512 * 32  # per m9 and length L: highest top rank of a run of length L
O_RANK = O_MAXTOP + 512 * 10  # RANK_MASK[r], r = 0..9
O_SUIT = O_RANK + 10  # SUIT_MASK[s]
O_LOW9 = O_SUIT + 4  # per m9: the sum of rank − 1 over its cards (search._low_score of one suit)
T_SIZE = O_LOW9 + 512

SUIT9 = 0x1FF


def _signed(x: int) -> int:
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def to_unsigned(x: int) -> int:
    """The Python (unsigned 64-bit) form of an int64 key."""
    return int(x) & ((1 << 64) - 1)


def build_tables() -> np.ndarray:
    """The flat constant array T: Zobrist keys of :mod:`.position`, suit tables of :mod:`.cards`."""
    from .reference import RELEVANT9

    t = np.zeros(T_SIZE, dtype=np.int64)

    def put(off: int, values) -> None:
        t[off : off + len(values)] = [_signed(v) for v in values]

    for s in range(3):
        for suit in range(4):
            put(O_ZH + (s * 4 + suit) * 512, Z_HAND[s][suit])
            put(O_ZU + (s * 4 + suit) * 512, Z_TRICK_UP[s][suit])
            put(O_ZD + (s * 4 + suit) * 512, Z_TRICK_DOWN[s][suit])
        put(O_ZFU + s * (HAND_SIZE + 1), Z_FU[s])
    for suit in range(4):
        put(O_ZF + suit * 512, Z_FACEUP[suit])
    put(O_ZTM, Z_TO_MOVE)
    put(O_ZC, Z_CALLER)
    put(O_ZE, [Z_ENDED])
    put(O_OLD9, OLD_RANKS9)
    put(O_REL9, RELEVANT9)
    for m in range(512):
        runs = RUNS9[m]
        t[O_RUNS + m * 32] = len(runs)
        for i, r in enumerate(runs):
            t[O_RUNS + m * 32 + 1 + i] = r
        for length in range(3, 10):
            top = 0
            for hi in range(length, 10):  # hi = top rank
                w = ((1 << length) - 1) << (hi - length)
                if m & w == w:
                    top = hi
            t[O_MAXTOP + m * 10 + length] = top
    put(O_RANK, RANK_MASK)
    put(O_SUIT, SUIT_MASK)
    put(O_LOW9, [sum(r for r in range(9) if m >> r & 1) for m in range(512)])
    return t


# ---------------------------------------------------------------- small helpers


@njit(cache=True, inline="always")
def enc(kind, cards, size):
    return cards | (kind << 36) | (size << 40)


@njit(cache=True, inline="always")
def m_kind(m):
    return (m >> 36) & 7


@njit(cache=True, inline="always")
def m_cards(m):
    return m & CARD_MASK


@njit(cache=True, inline="always")
def m_size(m):
    return (m >> 40) & 15


@njit(cache=True, inline="always")
def rank_of_top(cards):
    """Rank of the highest card (Play.rank)."""
    return (bit_length(cards) - 1) % 9 + 1


@njit(cache=True, inline="always")
def zmask(T, off, mask):
    return (
        T[off + (mask & SUIT9)]
        ^ T[off + 512 + ((mask >> 9) & SUIT9)]
        ^ T[off + 1024 + ((mask >> 18) & SUIT9)]
        ^ T[off + 1536 + ((mask >> 27) & SUIT9)]
    )


@njit(cache=True, inline="always")
def old_cards(T, hand, faceup):
    """cards.old_cards: the Old cards of hand for its holder (R11-R13)."""
    known = hand | faceup
    old = ALWAYS_OLD
    old |= T[O_OLD9 + (known & SUIT9)]
    old |= T[O_OLD9 + ((known >> 9) & SUIT9)] << 9
    old |= T[O_OLD9 + ((known >> 18) & SUIT9)] << 18
    old |= T[O_OLD9 + ((known >> 27) & SUIT9)] << 27
    return hand & old


@njit(cache=True, inline="always")
def trick_faceup(st, p):
    up = 0
    for i in range(st[p, F_NTRICK]):
        m = st[p, F_TR0 + i]
        if m_kind(m) != DISCARD:
            up |= m_cards(m)
    return up


@njit(cache=True, inline="always")
def trick_cards(st, p):
    c = 0
    for i in range(st[p, F_NTRICK]):
        c |= m_cards(st[p, F_TR0 + i])
    return c


@njit(cache=True)
def can_beat(T, hand, best, best_led):
    """rules.can_beat: hand holds a play that beats the move ``best`` (R8)."""
    kind = m_kind(best)
    cards = m_cards(best)
    if kind == SINGLE:
        if best_led and (cards & UNBEATABLE_LEAD):
            return False
        top = bit_length(cards) - 1
        suit_end = (top // 9 + 1) * 9
        return (hand & ((1 << suit_end) - (1 << (top + 1)))) != 0
    if kind == SET:
        k = m_size(best)
        r0 = rank_of_top(cards)
        if best_led and r0 == 1:
            return popcount(hand & T[O_RANK + 9]) >= k
        for r in range(r0 + 1, 10):
            if popcount(hand & T[O_RANK + r]) >= k:
                return True
        return False
    if kind == RUN:
        length = m_size(best)
        top = bit_length(cards) - 1
        bsuit = top // 9
        btop = top % 9 + 1
        if T[O_MAXTOP + ((hand >> (9 * bsuit)) & SUIT9) * 10 + length] > btop:
            return True
        for s in range(bsuit + 1, 4):
            if T[O_MAXTOP + ((hand >> (9 * s)) & SUIT9) * 10 + length] > 0:
                return True
        return False
    return False


# ---------------------------------------------------------------- position: outcome, bounds, keys


@njit(cache=True, inline="always")
def payment_to_caller(winner, total, caller):
    """rules.payments(winner, total, caller)[caller]."""
    p = total - 5
    if winner == caller:
        return 2 * p
    return -2 * p


@njit(cache=True, inline="always")
def reach_split(caller, r0, r1, r2):
    """search._reach_split: (the caller's reach, the most either non-caller can reach)."""
    if caller == 0:
        return r0, max(r1, r2)
    if caller == 1:
        return r1, max(r0, r2)
    return r2, max(r0, r1)


@njit(cache=True, inline="always")
def reach_bounds(caller, r0, r1, r2):
    """search._reach_bounds: (lower, upper)."""
    best_c, best_nc = reach_split(caller, r0, r1, r2)
    return (-2 * (best_nc - 5) if best_nc >= 6 else 0), (2 * (best_c - 5) if best_c >= 6 else 0)


@njit(cache=True, inline="always")
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


@njit(cache=True)
def value_bounds(T, st, p):
    """search.value_bounds of row p: (lower, upper), with search.reach and search.trick_claim
    computed inline (the can_beat of the seats still to play serves both)."""
    if st[p, F_ENDED]:
        v = st[p, F_OUTV]
        return v, v
    if st[p, F_NTRICK] > 0 and m_kind(st[p, F_TR0]) == SINGLE:
        return single_trick_bounds(T, st, p)
    caller = st[p, F_CALLER]
    if st[p, F_NTRICK] == 0 and popcount(st[p, F_H0]) == 1:  # search._last_trick_value
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
    # search._next_leader and search._lead_bound (tricks led with a single returned above, so a
    # trick here is a set or a run: its winner is certain only when nobody can beat)
    if nt == 0:
        w = st[p, F_TM]
        b = lead_bound(T, st, p, w, st[p, F_H0 + w], st[p, F_FU0 + w], st[p, F_FACEUP], r0, r1, r2)
    elif certain:
        hand = st[p, F_H0 + w]
        if hand == 0:
            return lower, upper
        up = st[p, F_FACEUP] | trick_faceup(st, p)
        b = lead_bound(T, st, p, w, hand, st[p, F_FU0 + w] + m_size(best), up, r0, r1, r2)
    else:
        return lower, upper
    if w == caller:
        if b > lower:
            lower = b
    elif b < upper:
        upper = b
    return lower, upper


@njit(cache=True, inline="always")
def above_in_suit(card):
    """search._above_in_suit."""
    top = bit_length(card) - 1
    return (1 << ((top // 9 + 1) * 9)) - (1 << (top + 1))


@njit(cache=True)
def trick_end_bounds(T, st, p, w, hand, up, left):
    """search._single_trick_bounds' ``ended``: bounds once seat w has won the trick in progress
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


@njit(cache=True)
def last_trick_value(T, w, c0, c1, c2, f0, f1, f2, up, caller):
    """search._last_trick_value: each seat holds one card (c0, c1, c2), seat w to lead, fu f0..f2."""
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


@njit(cache=True)
def trick_leaf(T, st, p, w, m0, m1, m2, up, left):
    """search._single_trick_bounds' ``ended``: seat w won the trick; m0..m2 the hands then."""
    if left == 1:
        f0 = st[p, F_FU0] + (1 if w == 0 else 0)
        f1 = st[p, F_FU0 + 1] + (1 if w == 1 else 0)
        f2 = st[p, F_FU0 + 2] + (1 if w == 2 else 0)
        v = last_trick_value(T, w, m0, m1, m2, f0, f1, f2, up, st[p, F_CALLER])
        return v, v
    hand = m0 if w == 0 else (m1 if w == 1 else m2)
    return trick_end_bounds(T, st, p, w, hand, up, left)


@njit(cache=True, inline="always")
def fold_bounds(maxi, lo, hi, olo, ohi):
    """(lo, hi) joined with one option's bounds (olo, ohi): the best option for the seat
    choosing (max for the caller, min for a non-caller) bounds the choice on both sides."""
    if maxi:
        return max(lo, olo), max(hi, ohi)
    return min(lo, olo), min(hi, ohi)


@njit(cache=True)
def last_follower_bounds(T, st, p, s2, s1, r1, card, bs, led, up, left):
    """search._single_trick_bounds' ``play`` for the last seat s2 to play, the best card being
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
    if higher == 0 and left != 1:
        return trick_leaf(T, st, p, bs, m0, m1, m2, up, left)
    maxi = s2 == caller
    lo = -INF if maxi else INF
    hi = -INF if maxi else INF
    opts = higher if higher else h2  # beating cards, or (one card each left) the card kept
    while opts:
        c = opts & -opts
        opts ^= c
        if higher:
            rem = h2 & ~c
            w = s2
            u = up | c
        else:
            rem = c
            w = bs
            u = up
        if s2 == 0:
            l2, h2b = trick_leaf(T, st, p, w, rem, m1, m2, u, left)
        elif s2 == 1:
            l2, h2b = trick_leaf(T, st, p, w, m0, rem, m2, u, left)
        else:
            l2, h2b = trick_leaf(T, st, p, w, m0, m1, rem, u, left)
        lo, hi = fold_bounds(maxi, lo, hi, l2, h2b)
    return lo, hi


@njit(cache=True)
def single_trick_bounds(T, st, p):
    """search._single_trick_bounds of row p (a trick led with a single is in progress)."""
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


@njit(cache=True)
def lead_bound(T, st, p, w, hand, fu, up, r0, r1, r2):
    """search._lead_bound: seat w leading with hand and fu; r0..r2 are search.reach."""
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


@njit(cache=True)
def sure_claim(T, st, p):
    """search.sure_claim of row p: the claim total the seat about to lead can force, or 0
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


@njit(cache=True)
def _sure_claim(T, s, hand, fu, o1, o2, faceup, caller):
    """search._sure_claim: seat s leading with hand and fu against hands o1 and o2; returns
    (the claim total or 0, the drain)."""
    old = old_cards(T, hand, faceup)
    passed_master = s == 0 and caller != 0
    cashed = 0
    drain = 0
    for r in range(1, 10):  # sets nobody can beat
        m = hand & T[O_RANK + r]
        k = popcount(m)
        if k < 3 or (k == 4 and passed_master):
            continue
        play = enc(SET, m, k)
        if not can_beat(T, o1, play, True) and not can_beat(T, o2, play, True):
            cashed += popcount(m & ~old)
            drain += k
            hand &= ~m
    for suit in range(4):  # runs nobody can beat: the longest in each stretch of the suit
        shift = 9 * suit
        m9 = (hand >> shift) & SUIT9
        while m9:  # search._maximal_runs, lowest stretch first
            stretch = m9 & -m9
            while m9 & (stretch << 1) & ~stretch:
                stretch |= (stretch << 1) & m9
            m9 &= ~stretch
            if popcount(stretch) < 3:
                continue
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


@njit(cache=True)
def tt_key(T, st, p):
    """search.tt_key: the Zobrist key with face-up cards that can no longer matter taken out."""
    live = st[p, F_H0] | st[p, F_H0 + 1] | st[p, F_H0 + 2]
    up = st[p, F_FACEUP]
    rel = (
        T[O_REL9 + (live & SUIT9)]
        | (T[O_REL9 + ((live >> 9) & SUIT9)] << 9)
        | (T[O_REL9 + ((live >> 18) & SUIT9)] << 18)
        | (T[O_REL9 + ((live >> 27) & SUIT9)] << 27)
    )
    irrelevant = up & ~rel
    if irrelevant:
        return st[p, F_KEY] ^ zmask(T, O_ZF, irrelevant)
    return st[p, F_KEY]


@njit(cache=True)
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


@njit(cache=True)
def end_value(st, q, last_winner):
    """rules.end_outcome(...).points[caller] for the fu of row q."""
    return end_points(st[q, F_FU0], st[q, F_FU0 + 1], st[q, F_FU0 + 2], last_winner, st[q, F_CALLER])


@njit(cache=True)
def push(T, st, p, m):
    """Position.push of move m on row p, written to row p + 1."""
    push_to(T, st, p, m, p + 1)


@njit(cache=True)
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


# ---------------------------------------------------------------- move generation


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


# ---------------------------------------------------------------- rank equivalence (search.reduced_moves)


@njit(cache=True)
def equivalence_classes(T, st, p, sc):
    """search.equivalence_classes of row p: returns (skip, ndc), skip = every card of a single
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
    if s == st[p, F_CALLER]:
        blocked_below = ALL  # the caller: keeping the higher card dominates
    free = hand & ~busy & ~UNBEATABLE_LEAD
    skip = 0
    ndc = 0  # discard classes, stored in sc[32:]
    for suit in range(4):
        shift = 9 * suit
        f = (free >> shift) & SUIT9
        if popcount(f) < 2:
            continue
        up9 = (up >> shift) & SUIT9
        cls = 0
        prev = -1
        for r in range(9):
            if not (f >> r) & 1:
                continue
            if prev >= 0 and ((((1 << r) - 1) & ~((1 << (prev + 1)) - 1)) & ~up9) == 0:
                cls |= 1 << r
            else:
                if popcount(cls) >= 2:
                    c = cls << shift
                    skip |= c & ~(c & -c)
                    if c & blocked_below == c:
                        sc[32 + ndc] = c
                        ndc += 1
                cls = 1 << r
            prev = r
        if popcount(cls) >= 2:
            c = cls << shift
            skip |= c & ~(c & -c)
            if c & blocked_below == c:
                sc[32 + ndc] = c
                ndc += 1
    return skip, ndc


@njit(cache=True, inline="always")
def discard_ok(cards, sc, ndc):
    """A discard keeps the lowest cards of each discard class (search.reduced_moves)."""
    for j in range(ndc):
        c = sc[32 + j]
        d = cards & c
        # d must be the lowest popcount(d) cards of c: every card of c below d's top
        if d and (c & ((1 << bit_length(d)) - 1)) != d:
            return False
    return True


@njit(cache=True)
def reduce_moves(T, st, p, out, n, sc):
    """search.reduced_moves: filter out[p, :n] in place (order kept); returns the new count."""
    if n < 2:
        return n
    skip, ndc = equivalence_classes(T, st, p, sc)
    if skip == 0:
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


# ---------------------------------------------------------------- history table


@njit(cache=True, inline="always")
def _hslot(key, mask):
    return mix(key) & mask


@njit(cache=True)
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


@njit(cache=True)
def hist_add(hk, hv, ctr, key, amount):
    k = key + 1
    mask = hk.shape[0] - 1
    i = _hslot(k, mask)
    while True:
        x = hk[i]
        if x == k:
            hv[i] += amount
            return
        if x == 0:
            hk[i] = k
            hv[i] = amount
            ctr[C_HCOUNT] += 1
            return
        i = (i + 1) & mask


@njit(cache=True)
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


# ---------------------------------------------------------------- ordering (search.Solver._ordered)


@njit(cache=True)
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
                wins = (not can_beat(T, n1, m, True)) and (not can_beat(T, n2, m, True))
                score = (-100000 if wins else 0) - h - 10 * m_size(m)
            elif n_played == 1:
                wins = not can_beat(T, n1, m, False)
                score = (-100000 if wins else 0) - h + rank_of_top(cards)
            else:
                score = -h + rank_of_top(cards)
        mk[p, i] = (score << IDX_BITS) | i


SELECT_FIRST = 6
KILLER_SCORE = -50000000  # after the table's move and claims, before every other move
KILLER2_SCORE = -40000000  # the ply's second killer, next


@njit(cache=True)
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
            heap_sort(mk, p, i, n)
    return mv[p, mk[p, i] & ((1 << IDX_BITS) - 1)]


@njit(cache=True)
def _sift(mk, p, base, root, end):
    x = mk[p, base + root]
    while True:
        child = 2 * root + 1
        if child >= end:
            break
        if child + 1 < end and mk[p, base + child + 1] > mk[p, base + child]:
            child += 1
        if mk[p, base + child] <= x:
            break
        mk[p, base + root] = mk[p, base + child]
        root = child
    mk[p, base + root] = x


@njit(cache=True)
def heap_sort(mk, p, lo, hi):
    """Sort mk[p, lo:hi] ascending in place."""
    n = hi - lo
    for r in range(n // 2 - 1, -1, -1):
        _sift(mk, p, lo, r, n)
    for end in range(n - 1, 0, -1):
        x = mk[p, lo]
        mk[p, lo] = mk[p, lo + end]
        mk[p, lo + end] = x
        _sift(mk, p, lo, 0, end)


# ---------------------------------------------------------------- the moves of a node, ordered


@njit(cache=True)
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
        skip, ndc = equivalence_classes(T, st, p, sc)
        if skip == 0:
            ndc = 0
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


@njit(cache=True)
def node_moves(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce):
    """The moves of row p (search.reduced_moves when ``reduce``, else every legal move) with
    the sort keys of Solver._ordered; returns the count. Discards take the one-pass route."""
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
    order_keys(T, st, p, mv, mk, n, ttm, killer, killer2, hk, hv)
    return n


@njit(cache=True, inline="always")
def mark_tt_move(mv, mk, p, n, ttm):
    """Give the table's move the first place (Solver._ordered's score −10**9)."""
    for i in range(n):
        if mv[p, i] == ttm:
            mk[p, i] = (-1000000000 << IDX_BITS) | i
            return


@njit(cache=True)
def node_moves_generic(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce):
    """node_moves by the plain route (gen_moves, reduce_moves, order_keys), for checks."""
    n = gen_moves(T, st, p, mv, sc)
    if reduce:
        n = reduce_moves(T, st, p, mv, n, sc)
    order_keys(T, st, p, mv, mk, n, ttm, killer, killer2, hk, hv)
    return n


# ---------------------------------------------------------------- transposition table


@njit(cache=True, inline="always")
def mix(key):
    """A non-linear mix of a 64-bit key (xorshift-multiply). Zobrist keys are XOR-linear in
    the cards, so related positions collide in any fixed set of key bits far more often than
    chance; the bucket index takes bits of the mixed key instead."""
    x = np.uint64(key)
    x ^= x >> np.uint64(31)
    x *= np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(29)
    return np.int64(x)


@njit(cache=True, inline="always")
def tt_bucket(nbm, key):
    """Word index of the bucket of key (nbm = buckets in use − 1): four slots of (key, data),
    64 bytes, one cache line."""
    return (mix(key) & nbm) << 3


@njit(cache=True, inline="always")
def tt_find(tt, nbm, key):
    """Word index of key's slot (its data is the next word), or -1."""
    base = tt_bucket(nbm, key)
    for i in range(base, base + 8, 2):
        if tt[i + 1] != 0 and tt[i] ^ tt[i + 1] == key:
            return i
    return -1


@njit(cache=True)
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


@njit(cache=True, inline="always")
def tt_pack(move, lo, hi, ncards):
    return (move & ((1 << 44) - 1)) | ((lo + 16) << 44) | ((hi + 16) << 49) | (ncards << 54)


@njit(cache=True, inline="always")
def tt_lo(d):
    return ((d >> 44) & 31) - 16


@njit(cache=True, inline="always")
def tt_hi(d):
    return ((d >> 49) & 31) - 16


@njit(cache=True, inline="always")
def tt_move(d):
    m = d & ((1 << 44) - 1)
    return NO_MOVE if m == (1 << 44) - 1 else m  # all ones: no move stored


@njit(cache=True, inline="always")
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


@njit(cache=True)
def tt_lookup_move(tt, ctr, key):
    """The best move stored for key, or NO_MOVE."""
    i = tt_find(tt, ctr[C_TTB] - 1, key)
    if i < 0:
        return NO_MOVE
    return tt_move(tt[i + 1])


# ---------------------------------------------------------------- the search (Solver._ab)


@njit(cache=True)
def schedule(ctr):
    """Solver._schedule: the node count at which limits are next checked."""
    nxt = (ctr[C_NODES] | ctr[C_PAUSE]) + 1 if ctr[C_PAUSE] else 1 << 62
    limit = ctr[C_LIMIT]
    if limit and limit + 1 < nxt:
        nxt = limit + 1
    return nxt


@njit(cache=True, nogil=True)
def search(T, st, mv, mk, fr, sc, tt, hk, hv, ctr, root, alpha, beta, resume):
    """Fail-soft alpha-beta from row ``root``, iteratively. Returns DONE (value in
    ctr[C_RESULT]), ABORTED (node limit) or PAUSED (every ctr[C_PAUSE] + 1 nodes, if set: call
    again with resume=True to go on). The limits are checked as Solver._check_limits does: at
    ctr[C_NEXT] nodes; the node limit here, the clock by the caller when paused."""
    ENTER, EVAL, RETURN = 0, 1, 2
    T = raw1(T)
    st = raw2(st)
    mv = raw2(mv)
    mk = raw2(mk)
    fr = raw2(fr)
    sc = raw1(sc)
    tt = raw1(tt)
    tt_addr = tt.ctypes.data
    nbm = ctr[C_TTB] - 1
    hk = raw1(hk)
    hv = raw1(hv)
    ctr = raw1(ctr)
    reduce = ctr[C_REDUCE] != 0
    v = 0
    if resume:
        p = ctr[C_PLY]
        root = ctr[C_ROOT]
        phase = EVAL
    else:
        p = root
        ctr[C_ROOT] = root
        fr[p, R_ALPHA] = alpha
        fr[p, R_BETA] = beta
        phase = ENTER
    while True:
        if phase == ENTER:
            ctr[C_NODES] += 1
            nodes = ctr[C_NODES]
            if nodes >= ctr[C_NEXT]:
                limit = ctr[C_LIMIT]
                if limit and nodes > limit:
                    ctr[C_NODES] = limit  # the node that crossed the limit is not searched
                    return ABORTED
                ctr[C_NEXT] = schedule(ctr)
                if ctr[C_PAUSE]:
                    ctr[C_PLY] = p
                    return PAUSED
            phase = EVAL
        if phase == EVAL:
            if st[p, F_ENDED]:
                v = st[p, F_OUTV]
                phase = RETURN
            else:
                alpha = fr[p, R_ALPHA]
                beta = fr[p, R_BETA]
                key = tt_key(T, st, p)  # the table at every node (search.Solver._ab)
                prefetch(tt_addr + tt_bucket(nbm, key) * 8)  # its cache line, while the bounds are computed
                lo, hi = value_bounds(T, st, p)
                if lo >= beta or hi <= alpha or lo == hi:
                    v = lo if (lo >= beta or lo == hi) else hi
                    phase = RETURN
                else:
                    # the moves first (the table's move is marked afterwards): the work overlaps
                    # the wait for the bucket's cache line, prefetched above
                    tm = st[p, F_TM]
                    n = node_moves(
                        T, st, p, mv, mk, sc, NO_MOVE, fr[p, R_KILLER + tm], fr[p, R_KILLER2 + tm], hk, hv, reduce
                    )
                    ctr[C_PROBES] += 1
                    slot = tt_find(tt, nbm, key)
                    ttm = NO_MOVE
                    had = 0
                    elo = 0
                    ehi = 0
                    cut = False
                    if slot >= 0:
                        ctr[C_HITS] += 1
                        d = tt[slot + 1]
                        elo = tt_lo(d)
                        ehi = tt_hi(d)
                        ttm = tt_move(d)
                        had = 1
                        if elo >= beta:
                            v = elo
                            cut = True
                        elif ehi <= alpha:
                            v = ehi
                            cut = True
                        elif elo == ehi:
                            v = elo
                            cut = True
                        else:
                            if elo > lo:
                                lo = elo
                            if ehi < hi:
                                hi = ehi
                    if cut:
                        phase = RETURN
                    else:
                        fr[p, R_A0] = alpha
                        fr[p, R_B0] = beta
                        if lo > alpha:
                            alpha = lo
                        if hi < beta:
                            beta = hi
                        if not had:
                            fr[p, R_LO] = lo
                            fr[p, R_HI] = hi
                        fr[p, R_KEY] = key
                        fr[p, R_HAD] = had
                        fr[p, R_ELO] = elo
                        fr[p, R_EHI] = ehi
                        if ttm != NO_MOVE:
                            mark_tt_move(mv, mk, p, n, ttm)
                        ctr[C_EXPANDED] += 1
                        ctr[C_GENERATED] += n
                        m = next_move(mv, mk, p, 0, n)
                        maxi = st[p, F_TM] == st[p, F_CALLER]
                        fr[p, R_MAX] = 1 if maxi else 0
                        fr[p, R_G] = -INF if maxi else INF
                        fr[p, R_BEST] = m
                        fr[p, R_IDX] = 0
                        fr[p, R_NM] = n
                        fr[p, R_ALPHA] = alpha
                        fr[p, R_BETA] = beta
                        nc = popcount(st[p, F_H0])
                        i0 = (0 - st[p, F_LEADER]) % 3
                        if i0 < st[p, F_NTRICK]:
                            nc += m_size(st[p, F_TR0 + i0])
                        fr[p, R_NCARDS] = nc
                        push(T, st, p, m)
                        p += 1
                        fr[p, R_ALPHA] = alpha
                        fr[p, R_BETA] = beta
                        phase = ENTER
                        continue
        # phase == RETURN: v is the value of row p
        if p == root:
            ctr[C_RESULT] = v
            return DONE
        p -= 1
        idx = fr[p, R_IDX]
        m = mv[p, mk[p, idx] & ((1 << IDX_BITS) - 1)]
        g = fr[p, R_G]
        alpha = fr[p, R_ALPHA]
        beta = fr[p, R_BETA]
        cutoff = False
        if fr[p, R_MAX]:
            if v > g:
                g = v
                fr[p, R_BEST] = m
                if g > alpha:
                    alpha = g
                    if g >= beta:
                        cutoff = True
        else:
            if v < g:
                g = v
                fr[p, R_BEST] = m
                if g < beta:
                    beta = g
                    if g <= alpha:
                        cutoff = True
        fr[p, R_G] = g
        fr[p, R_ALPHA] = alpha
        fr[p, R_BETA] = beta
        if cutoff:
            s = st[p, F_TM]
            if fr[p, R_KILLER + s] != m:  # the seat's killers at this ply: this move, then the previous one
                fr[p, R_KILLER2 + s] = fr[p, R_KILLER + s]
                fr[p, R_KILLER + s] = m
            nh = popcount(st[p, F_H0 + s]) + 1
            hist_add(hk, hv, ctr, (s << 36) | m_cards(m), nh * nh)
        elif idx + 1 < fr[p, R_NM]:
            idx += 1
            fr[p, R_IDX] = idx
            m = next_move(mv, mk, p, idx, fr[p, R_NM])
            push(T, st, p, m)
            p += 1
            fr[p, R_ALPHA] = alpha
            fr[p, R_BETA] = beta
            phase = ENTER
            continue
        while not tt_store(
            tt,
            ctr,
            nbm,
            fr[p, R_KEY],
            fr[p, R_HAD],
            fr[p, R_ELO],
            fr[p, R_EHI],
            fr[p, R_LO],
            fr[p, R_HI],
            g,
            fr[p, R_A0],
            fr[p, R_B0],
            fr[p, R_BEST] if (g > fr[p, R_A0] if fr[p, R_MAX] else g < fr[p, R_B0]) else NO_MOVE,
            fr[p, R_NCARDS],
        ):
            nbm = tt_grow(tt, ctr)
        if 2 * ctr[C_ENTRIES] > 4 * (nbm + 1) and (nbm + 1) * 16 <= tt.shape[0]:
            nbm = tt_grow(tt, ctr)  # half full: grow (the table stays as small as it can be)
        v = g
        phase = RETURN


@njit(cache=True)
def ordered_moves(T, st, p, mv, mk, sc, hk, hv, ttm, killer, killer2, reduce, out):
    """The moves of row p (reduced or all) in the search's order, into out; returns the count."""
    n = node_moves(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce)
    for i in range(n):
        out[i] = next_move(mv, mk, p, i, n)
    return n


@njit(cache=True)
def legal_moves(T, st, p, mv, sc, out):
    """Position.legal_moves of row p into out (for checks); returns the count."""
    n = gen_moves(T, st, p, mv, sc)
    for i in range(n):
        out[i] = mv[p, i]
    return n


@njit(cache=True)
def reduced_moves(T, st, p, mv, sc, out):
    """search.reduced_moves of row p into out (for checks); returns the count."""
    n = gen_moves(T, st, p, mv, sc)
    n = reduce_moves(T, st, p, mv, n, sc)
    for i in range(n):
        out[i] = mv[p, i]
    return n
