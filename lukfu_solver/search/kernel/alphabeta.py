"""The search itself: the reference's ``Solver._ab`` as an iterative fail-soft alpha-beta over
an explicit stack of frames (so that it can pause and resume), the limit schedule, and the
move lists the tests compare with the reference's.
"""


# ruff: noqa: F405 (names from the star import of .layout)

from __future__ import annotations

from numba import njit

from ..switches import CALLER_AHEAD, COALITION_AHEAD, DISCARD_AHEAD, TT_MIN_CARDS
from .bounds import caller_lead_bound, coalition_lead_bound, has_set_or_run, value_bounds
from .discards import discard_ahead_bound
from .layout import *  # noqa: F403 (the kernel's vocabulary: encodings, fields, counters, helpers)
from .moves import gen_moves, move_ok, reduce_moves
from .ordering import KILLER2_SCORE, KILLER_SCORE, hist_add, next_move, node_moves, search_moves
from .state import key_slot, last_applies, last_key_at, push, tt_key, tt_key_cached
from .table import tt_bucket, tt_find, tt_grow, tt_hi, tt_lo, tt_move, tt_store


@njit(cache=True, _nrt=False)
def schedule(ctr):
    """Solver._schedule: the node count at which limits are next checked."""
    nxt = (ctr[C_NODES] | ctr[C_PAUSE]) + 1 if ctr[C_PAUSE] else 1 << 62
    limit = ctr[C_LIMIT]
    if limit and limit + 1 < nxt:
        nxt = limit + 1
    return nxt


@njit(cache=True, _nrt=False, nogil=True)
def search(T, st, mv, mk, fr, sc, tt, hk, hv, lg, ctr, root, alpha, beta, resume):
    """Fail-soft alpha-beta from row ``root``, iteratively. Returns DONE (value in
    ctr[C_RESULT]), ABORTED (node limit) or PAUSED (every ctr[C_PAUSE] + 1 nodes, if set: call
    again with resume=True to go on). The limits are checked as Solver._check_limits does: at
    ctr[C_NEXT] nodes; the node limit here, the clock by the caller when paused."""
    ENTER, EVAL, RETURN, STORE = 0, 1, 2, 3
    nbm = ctr[C_TTB] - 1
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
        ctr[C_LOGN] = 0
        ctr[C_NPEND] = 0
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
                # a trick led with a set or run, and a non-caller's lead holding one: the bounds
                # decide fewer than one in a hundred of them, so their key comes first and the
                # table's bucket is fetched while the bounds run (the probe itself after them);
                # at the caller's lead, the slot of the cache of table keys is fetched instead.
                # The table only where the seat to move holds TT_MIN_CARDS[cards played in the
                # trick], or under the last player's key (Solver._ab)
                lastn = st[p, F_NTRICK] == 2 and last_applies(T, st, p)
                use_tt = lastn or popcount(st[p, F_H0 + st[p, F_TM]]) >= TT_MIN_CARDS[st[p, F_NTRICK]]
                early = use_tt and (
                    m_kind(st[p, F_TR0]) != SINGLE
                    if st[p, F_NTRICK] > 0
                    else st[p, F_TM] != st[p, F_CALLER] and has_set_or_run(st[p, F_H0 + st[p, F_TM]])
                )
                key = 0
                if early:
                    key = last_key_at(T, st, p) if lastn else tt_key(T, st, p)
                    prefetch(tt.ctypes.data + 8 * tt_bucket(nbm, key))
                elif use_tt and st[p, F_NTRICK] == 0 and st[p, F_TM] == st[p, F_CALLER]:
                    prefetch(T.ctypes.data + 8 * key_slot(st[p, F_KEY]))
                lo, hi = value_bounds(T, st, p)
                if lo >= beta or hi <= alpha or lo == hi:
                    v = lo if (lo >= beta or lo == hi) else hi
                    phase = RETURN
                else:
                    # the table's key only where the table is probed (search.reference.Solver._ab):
                    # a node the bounds decide never pays for the canonical form
                    # the cache of table keys at the caller's lead only, where the keys repeat (a
                    # non-caller's discards reach it by many orders); elsewhere it missed more than
                    # it served and cost the table's probes their cache lines
                    slot = -1
                    if use_tt:
                        if not early:  # (an early key was computed before the bounds)
                            if lastn:
                                key = last_key_at(T, st, p)
                            elif st[p, F_NTRICK] == 0 and st[p, F_TM] == st[p, F_CALLER]:
                                key = tt_key_cached(T, st, p)
                            else:
                                key = tt_key(T, st, p)
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
                    # the caller's look-ahead after the probe, up to beta, and the coalition's at a
                    # non-caller's lead, down to alpha (Solver._ab); a cut is stored as a fail high
                    # (the caller's) or a fail low (the coalition's) of this node (phase STORE), with
                    # no move
                    ahead = False
                    b = lo
                    if not cut and st[p, F_NTRICK] == 0:
                        if st[p, F_TM] == st[p, F_CALLER]:
                            if CALLER_AHEAD:
                                stop = beta if beta < hi else hi
                                if lo < stop:
                                    b = caller_lead_bound(T, st, p, stop)
                                    if b >= stop:
                                        ahead = True
                                    elif b > lo:
                                        lo = b
                        elif COALITION_AHEAD:
                            stop = alpha if alpha > lo else lo
                            if hi > stop:
                                b = coalition_lead_bound(T, st, p, stop)
                                if b <= stop:
                                    ahead = True
                                elif b < hi:
                                    hi = b
                    elif (
                        not cut
                        and DISCARD_AHEAD
                        and st[p, F_TM] != st[p, F_CALLER]
                        and (
                            m_kind(st[p, F_TR0]) != SINGLE
                            or (st[p, F_LEADER] + st[p, F_BESTI]) % 3 == st[p, F_CALLER]
                        )
                    ):
                        # the next leader's look-ahead for a follower's discards: up to
                        # beta, its cut stored as a fail high, as the caller's look-ahead's; not in a
                        # trick led with a single that a non-caller wins, where it is the R7
                        # look-ahead value_bounds' single-trick playout already gives (never above lo)
                        stop = beta if beta < hi else hi
                        if lo < stop:
                            b = discard_ahead_bound(T, st, p, stop, lo)
                            if b >= stop:
                                ahead = True
                            elif b > lo:
                                lo = b
                    if ahead or not cut:  # the frame of a node searched or stored here
                        fr[p, R_A0] = alpha
                        fr[p, R_B0] = beta
                        if not had:
                            fr[p, R_LO] = lo
                            fr[p, R_HI] = hi
                        fr[p, R_KEY] = key
                        fr[p, R_HAD] = had if use_tt else -1
                        fr[p, R_ELO] = elo
                        fr[p, R_EHI] = ehi
                    if ahead:
                        fr[p, R_MAX] = 1 if st[p, F_TM] == st[p, F_CALLER] else 0
                        fr[p, R_G] = b
                        fr[p, R_BEST] = NO_MOVE
                        nc = popcount(st[p, F_H0])
                        i0 = (0 - st[p, F_LEADER]) % 3
                        if i0 < st[p, F_NTRICK]:
                            nc += m_size(st[p, F_TR0 + i0])
                        fr[p, R_NCARDS] = nc
                        phase = STORE
                    elif cut:
                        phase = RETURN
                    else:
                        if lo > alpha:
                            alpha = lo
                        if hi < beta:
                            beta = hi
                        # the moves only now: a node its table entry decides (about 4 in 10) needs none;
                        # and the first ones known without generating the rest (the table's move, the
                        # claim, the killers: known_move) are searched first, the rest waiting
                        # (R_NM = -1): a cut by one of them never pays for the others
                        tm = st[p, F_TM]
                        k1 = fr[p, R_KILLER + tm]
                        k2 = fr[p, R_KILLER2 + tm]
                        m, stage = known_move(T, st, p, sc, ttm, k1, k2, reduce, ctr[C_HMAX + tm], -1)
                        if m != NO_MOVE:
                            n = -1
                            fr[p, R_TTMV] = ttm
                            fr[p, R_CUR] = m
                            fr[p, R_STAGE] = stage
                            fr[p, R_MARK] = ctr[C_LOGN]
                            ctr[C_NPEND] += 1
                        else:
                            n = search_moves(T, st, p, mv, mk, sc, ttm, k1, k2, hk, hv, reduce)
                            ctr[C_GENERATED] += n
                            m = next_move(mv, mk, p, 0, n)
                        ctr[C_EXPANDED] += 1
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
        # phase == RETURN: v is the value of row p; phase == STORE: row p's own g is stored
        if phase == RETURN:
            if p == root:
                ctr[C_RESULT] = v
                return DONE
            p -= 1
            idx = fr[p, R_IDX]
            pending = fr[p, R_NM] < 0
            m = fr[p, R_CUR] if pending else mv[p, mk[p, idx] & ((1 << IDX_BITS) - 1)]
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
                if pending:
                    fr[p, R_NM] = 1
                    ctr[C_NPEND] -= 1
                    if ctr[C_NPEND] == 0:
                        ctr[C_LOGN] = 0
                s = st[p, F_TM]
                if fr[p, R_KILLER + s] != m:  # the seat's killers at this ply: this move, then the previous one
                    fr[p, R_KILLER2 + s] = fr[p, R_KILLER + s]
                    fr[p, R_KILLER + s] = m
                nh = popcount(st[p, F_H0 + s]) + 1
                if ctr[C_NPEND] and ctr[C_LOGN] == lg.shape[0]:
                    flush(T, st, mv, mk, fr, sc, hk, hv, lg, ctr, p, root, reduce)
                slot = hist_add(hk, hv, ctr, (s << 36) | m_cards(m), nh * nh)
                if hv[slot] > ctr[C_HMAX + s]:
                    ctr[C_HMAX + s] = hv[slot]
                if ctr[C_NPEND]:  # a waiting node must score its moves by the history as it was
                    lg[ctr[C_LOGN]] = (slot << 8) | (nh * nh)
                    ctr[C_LOGN] += 1
            else:
                nm = fr[p, R_NM]
                if pending:  # the next known move, else the rest generated and scored now
                    s = st[p, F_TM]
                    m, stage = known_move(
                        T,
                        st,
                        p,
                        sc,
                        fr[p, R_TTMV],
                        fr[p, R_KILLER + s],
                        fr[p, R_KILLER2 + s],
                        reduce,
                        ctr[C_HMAX + s],
                        fr[p, R_STAGE],
                    )
                    if m == NO_MOVE:
                        nm = wake(T, st, mv, mk, fr, sc, hk, hv, lg, ctr, p, reduce)
                    else:
                        fr[p, R_CUR] = m
                        fr[p, R_STAGE] = stage
                        nm = MAX_MOVES + 1
                if idx + 1 < nm:
                    idx += 1
                    fr[p, R_IDX] = idx
                    if nm <= MAX_MOVES:
                        m = next_move(mv, mk, p, idx, nm)
                    push(T, st, p, m)
                    p += 1
                    fr[p, R_ALPHA] = alpha
                    fr[p, R_BETA] = beta
                    phase = ENTER
                    continue
        else:
            g = fr[p, R_G]
        if fr[p, R_HAD] >= 0:
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
                fr[p, R_BEST] if ctr[C_NO_MOVES] == 0 and (g > fr[p, R_A0] if fr[p, R_MAX] else g < fr[p, R_B0]) else NO_MOVE,
                fr[p, R_NCARDS],
            ):
                nbm = tt_grow(tt, ctr)
            if 2 * ctr[C_ENTRIES] > 4 * (nbm + 1) and (nbm + 1) * 16 <= tt.shape[0]:
                nbm = tt_grow(tt, ctr)  # half full: grow (the table stays as small as it can be)
        v = g
        phase = RETURN


# Every other move's score (order_keys, discards_ordered) is at least -h - 100120 for its
# history score h: the claim (-10**8), the killer (KILLER_SCORE) and the second killer
# (KILLER2_SCORE) come before all of them while the seat's highest history score stays below these
# (LAZY_HMAX[candidate], the table's move always first).
LAZY_CLAIM = 99800000
LAZY_K1 = -KILLER_SCORE - 200000
LAZY_K2 = -KILLER2_SCORE - 200000


@njit(cache=True, _nrt=False)
def known_move(T, st, p, sc, ttm, k1, k2, reduce, hmax, after):
    """The next of row p's moves in the search's order that is known without generating them, after
    the candidate ``after`` (-1: none yet) of (the table's move, the claim, killer, second killer):
    returns (move, its candidate) or (NO_MOVE, 4). Each is taken when move_ok finds it among the
    moves and no earlier candidate is the same move; their keys (order_keys) come first in this
    order, before every other move's while the seat's highest history score ``hmax`` is below
    their LAZY_ bounds."""
    for i in range(after + 1, 4):
        if i == 0:
            c = ttm
        elif i == 1:
            if st[p, F_NTRICK] != 0:
                continue
            c = CLAIM_MOVE
        elif i == 2:
            c = k1
        else:
            c = k2
        if i > 0:
            if hmax >= (LAZY_CLAIM if i == 1 else LAZY_K1 if i == 2 else LAZY_K2):
                break  # (the bounds fall: no later candidate either)
            if c == ttm or (i >= 2 and c == CLAIM_MOVE) or (i == 3 and c == k1):
                continue
        if move_ok(T, st, p, c, sc, reduce):
            return c, i
    return NO_MOVE, 4


@njit(cache=True, _nrt=False, inline="always")
def _undo(hv, lg, a, b, sign):
    """Take the history log's entries a..b-1 out of the history (sign -1) or put them back (+1)."""
    for j in range(a, b):
        e = lg[j]
        hv[e >> 8] += sign * (e & 255)


@njit(cache=True, _nrt=False, inline="always")
def _score_pending(T, st, mv, mk, fr, sc, hk, hv, ctr, q, reduce):
    """The moves of the waiting row q, scored (by the history the caller restored) as they would
    have been when it was pushed, the known ones already searched (0..R_IDX) selected first;
    returns the count."""
    tm = st[q, F_TM]
    n = search_moves(T, st, q, mv, mk, sc, fr[q, R_TTMV], fr[q, R_KILLER + tm], fr[q, R_KILLER2 + tm], hk, hv, reduce)
    for i in range(fr[q, R_IDX] + 1):
        next_move(mv, mk, q, i, n)
    fr[q, R_NM] = n
    ctr[C_GENERATED] += n
    return n


@njit(cache=True, _nrt=False)
def wake(T, st, mv, mk, fr, sc, hk, hv, lg, ctr, p, reduce):
    """Row p's known moves did not cut: its other moves are generated and scored now, by the
    history as it was before the first was searched (the log's entries since taken out and put
    back). Returns the count of its moves."""
    a = fr[p, R_MARK]
    b = ctr[C_LOGN]
    _undo(hv, lg, a, b, -1)
    n = _score_pending(T, st, mv, mk, fr, sc, hk, hv, ctr, p, reduce)
    _undo(hv, lg, a, b, 1)
    ctr[C_NPEND] -= 1
    if ctr[C_NPEND] == 0:
        ctr[C_LOGN] = 0
    return n


@njit(cache=True, _nrt=False)
def flush(T, st, mv, mk, fr, sc, hk, hv, lg, ctr, p, root, reduce):
    """The history log is full: every waiting row from p down to the root is scored now (deepest
    first, taking the log out down to each row's mark), and the log starts again empty."""
    b = ctr[C_LOGN]
    j = b
    for q in range(p, root - 1, -1):
        if fr[q, R_NM] < 0:
            a = fr[q, R_MARK]
            _undo(hv, lg, a, j, -1)
            j = a
            _score_pending(T, st, mv, mk, fr, sc, hk, hv, ctr, q, reduce)
    _undo(hv, lg, j, b, 1)
    ctr[C_NPEND] = 0
    ctr[C_LOGN] = 0


@njit(cache=True, _nrt=False)
def node_key(T, st, p):
    """The table key the search probes at row p (Solver._ab: the last player's key, else tt_key
    where the seat to move holds TT_MIN_CARDS), or 0 where it probes none."""
    if st[p, F_ENDED]:
        return 0
    if st[p, F_NTRICK] == 2 and last_applies(T, st, p):
        return last_key_at(T, st, p)
    if popcount(st[p, F_H0 + st[p, F_TM]]) >= TT_MIN_CARDS[st[p, F_NTRICK]]:
        return tt_key(T, st, p)
    return 0


@njit(cache=True, _nrt=False)
def ordered_moves(T, st, p, mv, mk, sc, hk, hv, ttm, killer, killer2, reduce, out):
    """The moves of row p (reduced or all) in the search's order, into out; returns the count."""
    n = node_moves(T, st, p, mv, mk, sc, ttm, killer, killer2, hk, hv, reduce)
    for i in range(n):
        out[i] = next_move(mv, mk, p, i, n)
    return n


@njit(cache=True, _nrt=False)
def legal_moves(T, st, p, mv, sc, out):
    """Position.legal_moves of row p into out (for checks); returns the count."""
    n = gen_moves(T, st, p, mv, sc)
    for i in range(n):
        out[i] = mv[p, i]
    return n


@njit(cache=True, _nrt=False)
def reduced_moves(T, st, p, mv, sc, out):
    """search.reductions.reduced_moves of row p into out (for checks); returns the count."""
    n = gen_moves(T, st, p, mv, sc)
    n = reduce_moves(T, st, p, mv, n, sc)
    for i in range(n):
        out[i] = mv[p, i]
    return n
