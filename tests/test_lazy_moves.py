"""The table's move searched before the node's other moves are generated (``kernel.moves.move_ok``
and the pending frames of ``kernel.alphabeta.search``).

``move_ok`` must say exactly whether a move is among a node's moves (reduced or all) without
generating them: a table move found in a merged position may name cards the position does not
hold, a play it cannot make (R7, a passed seat's four of a kind, a discard while it can beat) or a
card its reduction skips. The search itself stays the reference's tree (tests/test_kernel.py,
tests/test_node_counts.py); here the rest of its moves must be ordered by the history as it was
before the table's move was searched, which a search with a tiny history log (flushed over and
over) checks too.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from lukfu_solver.endgames import random_endgame  # noqa: E402
from lukfu_solver.game import deal_hands  # noqa: E402
from lukfu_solver.plays import CLAIM  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import Solver  # noqa: E402
from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search.compiled import CompiledSolver, load_row, tables  # noqa: E402


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
