"""The kernel's data layout: bit intrinsics, the int64 encodings (moves, state-row
fields ``F_*``, frame fields ``R_*``, counters ``C_*``), the flat constant table ``T`` (offsets
``O_*``, :func:`build_tables`) and the small helpers every phase uses (``old_cards``,
``can_beat``...). The whole representation is described in :mod:`lukfu_solver.search.kernel`."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types
from numba.extending import intrinsic

from ...cards import ALWAYS_OLD, OLD_RANKS9, RANK_MASK, RUNS9, SUIT_MASK, UNBEATABLE_LEAD
from ...position import HAND_SIZE, Z_CALLER, Z_ENDED, Z_FACEUP, Z_FU, Z_HAND, Z_TO_MOVE, Z_TRICK_DOWN, Z_TRICK_UP


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


@njit(cache=True, _nrt=False, inline="always")
def bit_length(x):
    """Python's int.bit_length for 0 <= x < 2**63."""
    return 64 - _ctlz(x)


@njit(cache=True, _nrt=False, inline="always")
def above_in_suit(card):
    """The cards of card's suit above it, any of which beats it as a single (R8):
    search.bounds._above_in_suit; the bounds and the move ordering share it."""
    top = bit_length(card) - 1
    return (1 << ((top // 9 + 1) * 9)) - (1 << (top + 1))


# ---------------------------------------------------------------- constants

SINGLE, SET, RUN, DISCARD, CLAIM = 0, 1, 2, 3, 4
ALL = (1 << 36) - 1
CARD_MASK = ALL
RANK1 = 0x201 | (0x201 << 18)  # the rank-1 cards of every suit (search.table_key.RANK1)
RUN_STARTS = 0x7F * (1 | (1 << 9) | (1 << 18) | (1 << 27))  # ranks 1-7 of every suit: where a run can start
SUIT_TOPS_BELOW_RANK1 = RANK1 >> 1  # the rank-9 places of suits 0-2: no card slides down past them
CLAIM_MOVE = CLAIM << 36
INF = 100
NO_MOVE = -1

MAX_PLY = 48
MAX_MOVES = 1024
SC_SIZE = 128  # scratch words (see discards_ordered)
LOG_SIZE = 1 << 14  # the history log's entries: slot << 8 | amount (see search)
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
R_TTMV = 22  # the table's move of a node whose moves wait (R_NM = -1, see alphabeta.known_move)
R_MARK = 23  # the history log's length when its first known move was pushed
R_CUR = 24  # the known move being searched
R_STAGE = 25  # its candidate (known_move)
NFR = 26

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
C_EXPANDED = 13  # nodes whose moves were searched
C_GENERATED = 14  # moves generated (after the reduction; none where a known move cut, alphabeta.known_move)
C_NO_MOVES = 15  # 1: store no best moves (the helper thread's search: see search.compiled.CompiledSolver._start_helper)
C_TTB = 16  # buckets of the table in use (a power of two; the array may hold more)
C_ENTRIES = 17  # occupied slots
C_EXACT_B = 18  # below this many buckets a full bucket doubles the table instead of replacing
C_LOGN = 19  # entries in the history log (the history's changes while a node's other moves wait)
C_NPEND = 20  # nodes whose other moves wait (searching their table move first)
C_HMAX = 21  # + seat: the seat's highest history score (see alphabeta.known_move)
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
O_BELOW9 = O_OLD9 + 512  # BELOW_TOP9[m9] (search.table_key.tt_key)
O_RUNS = O_BELOW9 + 512  # per m9: count at m9 * 32, runs (9-bit masks) after it
O_MAXTOP = O_RUNS + 512 * 32  # per m9 and length L: highest top rank of a run of length L
O_RANK = O_MAXTOP + 512 * 10  # RANK_MASK[r], r = 0..9
O_SUIT = O_RANK + 10  # SUIT_MASK[s]
O_LOW9 = O_SUIT + 4  # per m9: the sum of rank − 1 over its cards (search.reference._low_score of one suit)
# the cache of value_bounds (kernel.bounds): VB_CACHE_SLOTS slots of two
# words (key ^ data, data), zero when empty; the only part of T written after build_tables
VB_CACHE_SLOTS = 1 << 14
O_VBC = (O_LOW9 + 512 + 7) & ~7
# the cache of the table keys (kernel.state.tt_key_cached): KEY_CACHE_SLOTS
# slots of two words (full key ^ table key, table key), written as the bounds' cache is
KEY_CACHE_SLOTS = 1 << 16
O_KEYC = O_VBC + 2 * VB_CACHE_SLOTS
T_SIZE = O_KEYC + 2 * KEY_CACHE_SLOTS

SUIT9 = 0x1FF


def _signed(x: int) -> int:
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def to_unsigned(x: int) -> int:
    """The Python (unsigned 64-bit) form of an int64 key."""
    return int(x) & ((1 << 64) - 1)


def build_tables() -> np.ndarray:
    """The flat constant array T: Zobrist keys of :mod:`.position`, suit tables of :mod:`.cards`,
    and the bounds' cache (``O_VBC``, empty)."""
    from ..table_key import BELOW_TOP9

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
    put(O_BELOW9, BELOW_TOP9)
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


@njit(cache=True, _nrt=False, inline="always")
def enc(kind, cards, size):
    return cards | (kind << 36) | (size << 40)


@njit(cache=True, _nrt=False, inline="always")
def m_kind(m):
    return (m >> 36) & 7


@njit(cache=True, _nrt=False, inline="always")
def m_cards(m):
    return m & CARD_MASK


@njit(cache=True, _nrt=False, inline="always")
def m_size(m):
    return (m >> 40) & 15


@njit(cache=True, _nrt=False, inline="always")
def rank_of_top(cards):
    """Rank of the highest card (Play.rank)."""
    return (bit_length(cards) - 1) % 9 + 1


@njit(cache=True, _nrt=False, inline="always")
def zmask(T, off, mask):
    return (
        T[off + (mask & SUIT9)]
        ^ T[off + 512 + ((mask >> 9) & SUIT9)]
        ^ T[off + 1024 + ((mask >> 18) & SUIT9)]
        ^ T[off + 1536 + ((mask >> 27) & SUIT9)]
    )


@njit(cache=True, _nrt=False, inline="always")
def old_cards(T, hand, faceup):
    """cards.old_cards: the Old cards of hand for its holder (R11-R13)."""
    known = hand | faceup
    old = ALWAYS_OLD
    old |= T[O_OLD9 + (known & SUIT9)]
    old |= T[O_OLD9 + ((known >> 9) & SUIT9)] << 9
    old |= T[O_OLD9 + ((known >> 18) & SUIT9)] << 18
    old |= T[O_OLD9 + ((known >> 27) & SUIT9)] << 27
    return hand & old


@njit(cache=True, _nrt=False, inline="always")
def trick_faceup(st, p):
    up = 0
    for i in range(st[p, F_NTRICK]):
        m = st[p, F_TR0 + i]
        if m_kind(m) != DISCARD:
            up |= m_cards(m)
    return up


@njit(cache=True, _nrt=False, inline="always")
def trick_cards(st, p):
    c = 0
    for i in range(st[p, F_NTRICK]):
        c |= m_cards(st[p, F_TR0 + i])
    return c


@njit(cache=True, _nrt=False)
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
