"""The kernel's node loop (``kernel/alphabeta.py``) and its moves before generation
(``kernel/moves.py``): the moves a node knows without generating the rest are searched first, and
the rest is ordered as if they had been generated together.

- **The table's move before the others** (``moves.move_ok`` and the pending frames of
  ``alphabeta.search``). ``move_ok`` must say exactly whether a move is among a node's moves
  (reduced or all) without generating them: a table move found in a merged position may name
  cards the position does not hold, a play it cannot make (R7, a passed seat's four of a kind, a
  discard while it can beat) or a card its reduction skips. The rest of the node's moves must be
  ordered by the history as it was before the table's move was searched, which a search with a
  tiny history log (flushed over and over) checks too.
- **The known moves first** (``alphabeta.known_move``): the table's move, the claim, the killer
  and the second killer, each found by ``move_ok``, are tried first while no history score can
  pass their sort keys; a node where one of them cuts never pays for the others. The sequence
  ``known_move`` gives must be the first moves of the node's full order, exactly, and the rest is
  ordered by the history as it was at the node's start (the log ``lg``).

The tree is unchanged: the reference knows nothing of either, and the kernel must still match it
node for node (``tests/test_kernel.py``, ``tests/test_node_counts.py``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from test_kernel import endgame  # noqa: E402

from lukfu_solver.endgames import random_endgame  # noqa: E402
from lukfu_solver.game import deal_hands  # noqa: E402
from lukfu_solver.plays import CLAIM, DISCARD  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import Solver  # noqa: E402
from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search.compiled import CompiledSolver, encode, load_row, tables  # noqa: E402
from lukfu_solver.search.kernel.alphabeta import known_move  # noqa: E402
from lukfu_solver.search.kernel.ordering import KILLER2_SCORE  # noqa: E402

# ---------------------------------------------------------------- the table's move before the others


def _candidates(rng: random.Random, pools: list[list[int]]) -> set[int]:
    out: set[int] = set()
    for pool in pools:
        out.update(rng.sample(pool, min(12, len(pool))))
    return out


def _summary(res) -> tuple:
    return (res.value, res.best, res.pv, res.nodes, res.tt_probes, res.tt_hits)


def test_move_ok_is_membership_of_the_move_lists():
    """move_ok(m) == m in reduced_moves (or legal_moves) for moves of this node, of nearby nodes
    of the same deal and of other deals (cards not held, plays not allowed, skipped ranks)."""
    T = tables()
    st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
    mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros(K.SC_SIZE, dtype=np.int64)
    out = np.zeros(K.MAX_MOVES, dtype=np.int64)
    seen: list[list[int]] = []
    checked = accepted = skipped = 0
    for seed in range(80):
        rng = random.Random(seed)
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        while not pos.is_over:
            load_row(st, 0, pos)
            n = K.legal_moves(T, st, 0, mv, sc, out)
            legal = out[:n].tolist()
            n = K.reduced_moves(T, st, 0, mv, sc, out)
            reduced = out[:n].tolist()
            seen.append(legal)
            pools = [legal, *rng.sample(seen, min(6, len(seen)))]
            for m in _candidates(rng, pools) | {K.NO_MOVE, 0, K.CLAIM_MOVE}:
                for reduce, moves in ((True, reduced), (False, legal)):
                    got = K.move_ok(T, st, 0, m, sc, reduce)
                    assert got == (m in moves), f"seed {seed} reduce={reduce} move {m:#x}: {pos}"
                    checked += 1
                    accepted += got
                    skipped += reduce and m in legal and m not in reduced
            moves = list(pos.legal_moves())
            pos.push(rng.choice([m for m in moves if m.kind != CLAIM] or moves))
    # both answers and the reduction's skips must be exercised
    assert checked > 20000 and accepted > 5000 and skipped > 500, (checked, accepted, skipped)


@pytest.mark.slow
def test_a_tiny_history_log_keeps_the_tree():
    """With a history log of 4 entries the waiting nodes are scored by a flush again and again:
    values, best moves and node counts stay the reference's (with a full log the same holds by
    tests/test_kernel.py)."""
    for seed in range(40):
        pos = random_endgame(seed, 6 + seed % 2)
        a = Solver().solve(pos)
        fast = CompiledSolver()
        fast._arrays.lg = np.zeros(4, dtype=np.int64)
        b = fast.solve(pos)
        assert _summary(a) == _summary(b), seed


# ---------------------------------------------------------------- the known moves first


def _arrays():
    return (
        np.zeros((K.MAX_PLY, K.NF), dtype=np.int64),
        np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64),
        np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64),
        np.zeros(K.SC_SIZE, dtype=np.int64),
    )


def _known(T, st, sc, ttm, k1, k2, reduce, hmax):
    out, stage = [], -1
    while True:
        m, stage = known_move(T, st, 0, sc, ttm, k1, k2, reduce, hmax, stage)
        if m == K.NO_MOVE:
            return out
        out.append(int(m))


def test_the_known_moves_are_the_full_orders_first():
    """At every node of random games (leads, follows, discards) the moves known_move gives one
    after another are the first moves of the full order (node_moves, sorted by key), with table
    moves, killers and claims drawn from the node's moves and elsewhere, and history scores now and
    then large enough to pass the killers' keys (then the killers must not be named)."""
    T = tables()
    st, mv, mk, sc = _arrays()
    named = discards = reduced_away = huge = 0
    for seed in range(80):
        rng = random.Random(seed)
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        hk = np.zeros(1 << 14, dtype=np.int64)
        hv = np.zeros(1 << 14, dtype=np.int64)
        ctr = np.zeros(K.NCTR, dtype=np.int64)
        hmax = [0, 0, 0]
        other: list[int] = []
        while not pos.is_over:
            legal = [encode(m) for m in pos.legal_moves()]
            load_row(st, 0, pos)
            s = pos.to_move
            for m in rng.sample(legal, min(4, len(legal))):
                big = rng.random() < 0.03
                amount = -KILLER2_SCORE + 2_000_000 if big else rng.randrange(1, 400)
                slot = K.hist_add(hk, hv, ctr, s << 36 | (m & K.CARD_MASK), amount)
                hmax[s] = max(hmax[s], int(hv[slot]))
                huge += big
            pool = legal + other[-30:]
            ttm = rng.choice(pool) if rng.random() < 0.3 else K.NO_MOVE
            k1, k2 = (rng.choice(pool) if rng.random() < 0.8 else K.NO_MOVE for _ in range(2))
            for reduce in (True, False):
                known = _known(T, st, sc, ttm, k1, k2, reduce, hmax[s])
                n = K.node_moves(T, st, 0, mv, mk, sc, ttm, k1, k2, hk, hv, reduce)
                order = [int(mv[0, i]) for i in sorted(range(n), key=lambda i: mk[0, i])]
                assert known == order[: len(known)], (seed, reduce, str(pos))
                named += len(known)
                if known and m_is_discard(known[0]):
                    discards += 1
                if reduce and k1 in legal and k1 not in order and ttm == K.NO_MOVE and m_is_discard(k1):
                    reduced_away += 1
            other.extend(legal)
            moves = list(pos.legal_moves())
            pos.push(rng.choice([m for m in moves if m.kind != CLAIM] or moves))
    assert named > 1500 and discards > 300 and reduced_away > 10 and huge > 5, (named, discards, reduced_away, huge)


def m_is_discard(m: int) -> bool:
    return m != K.NO_MOVE and K.m_kind(m) == K.DISCARD


def test_a_killer_behind_a_large_history_score_is_not_named_first():
    """The wrong variant without the history's bound: a discard whose history score passes the
    killers' keys comes first in the full order, and known_move declines the killer."""
    T = tables()
    st, mv, mk, sc = _arrays()
    for seed in range(200):
        pos = endgame(seed, 5, plays=1)
        legal = list(pos.legal_moves())
        discards = [encode(m) for m in legal if m.kind == DISCARD]
        if len(discards) < 3:
            continue
        load_row(st, 0, pos)
        hk = np.zeros(1 << 12, dtype=np.int64)
        hv = np.zeros(1 << 12, dtype=np.int64)
        ctr = np.zeros(K.NCTR, dtype=np.int64)
        k1, other = discards[0], discards[-1]
        slot = K.hist_add(hk, hv, ctr, pos.to_move << 36 | (other & K.CARD_MASK), 60_000_000)
        n = K.node_moves(T, st, 0, mv, mk, sc, K.NO_MOVE, k1, K.NO_MOVE, hk, hv, False)
        first = int(mv[0, min(range(n), key=lambda i: mk[0, i])])
        assert first == other != k1
        assert _known(T, st, sc, K.NO_MOVE, k1, K.NO_MOVE, False, 0) == [k1]  # the variant
        assert _known(T, st, sc, K.NO_MOVE, k1, K.NO_MOVE, False, int(hv[slot])) == []
        return
    raise AssertionError("no endgame with three discards")


@pytest.mark.slow
def test_searches_with_known_moves_first_match_the_reference():
    """Node for node on seeded endgames of five to eight cards, mid-trick and at a lead, where
    many nodes cut by a known move before their other moves are generated."""
    bad = []
    cases = [endgame(1000 + seed, 5 + seed % 3, plays=seed % 3, multi=seed % 2 == 1) for seed in range(36)]
    # the wrong variant, the history grown under a waiting node left as it is (wake without the
    # log's undo), fails here: the history, and with it the order, parts from the reference's
    cases += [endgame(2000 + seed, 8) for seed in range(12)]
    for pos in cases:
        ref, fast = Solver(), CompiledSolver()
        a = ref.solve(pos)
        b = fast.solve(pos)
        if (a.value, a.nodes, a.tt_probes, a.tt_hits) != (b.value, b.nodes, b.tt_probes, b.tt_hits):
            bad.append(f"{pos}: reference {a.value} {a.nodes}, fast {b.value} {b.nodes}")
        assert fast.history == ref.history
    assert not bad, "\n".join(bad)
