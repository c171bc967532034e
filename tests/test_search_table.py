"""The table left out where the seat to move holds fewer than ``switches.TT_MIN_CARDS`` cards (by the
cards already played in the trick): the values stay the oracle's, and after a solve the table holds
no entry for such a position, in the reference and in the kernel alike (the kernel compiles the
same switch in)."""

from __future__ import annotations

import pytest
from oracle import endgame_mix, oracle_value

from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import switches  # noqa: E402
from lukfu_solver.search.compiled import CompiledSolver  # noqa: E402
from lukfu_solver.search.reference import Solver  # noqa: E402
from lukfu_solver.search.table_key import tt_key  # noqa: E402


def _tree(pos: Position, out: list[Position]) -> None:
    """Every position of the game tree below ``pos`` (claims included)."""
    out.append(pos.copy())
    if pos.outcome is not None:
        return
    for m in list(pos.legal_moves()):
        pos.push(m)
        _tree(pos, out)
        pos.pop()


def _left_out(pos: Position, limits: tuple[int, int, int]) -> bool:
    return pos.outcome is None and pos.hands[pos.to_move].bit_count() < limits[len(pos.trick)]


@pytest.mark.parametrize("limits", [switches.TT_MIN_CARDS, (3, 3, 3), (4, 0, 13), (0, 0, 13)])
def test_values_are_the_oracles(limits, monkeypatch):
    monkeypatch.setattr(switches, "TT_MIN_CARDS", limits)
    for pos in endgame_mix(12, (3, 4), 900):
        assert Solver().solve(pos).value == oracle_value(pos), str(pos)


@pytest.mark.parametrize("seed", [901, 902, 904, 905])
def test_no_entry_below_the_limit_after_a_solve(seed):
    """Both solvers' tables, after a solve with its principal variation and all moves, hold an
    entry for some position of the tree but for none the limit leaves out (the kernel's by
    ``tt_lookup_move`` through the same keys: its entries carry a move or ``NO_MOVE``, so the
    reference's count of entries is compared as well)."""
    pos = endgame_mix(1, (3,), seed)[0]
    limits = switches.TT_MIN_CARDS
    nodes: list[Position] = []
    _tree(pos.copy(), nodes)
    out = [p for p in nodes if _left_out(p, limits)]
    kept = [p for p in nodes if p.outcome is None and not _left_out(p, limits)]
    assert out and kept
    ref = Solver()
    ref.solve(pos, all_moves=True)
    assert not any(tt_key(p) in ref.tt for p in out)
    assert any(tt_key(p) in ref.tt for p in kept)
    fast = CompiledSolver()
    fast.solve(pos, all_moves=True)
    assert fast.tt_entries == len(ref.tt)


def test_the_check_sees_entries_when_nothing_is_left_out(monkeypatch):
    """The check above can fail: with the table at every node, the last follower's positions do
    have entries after a solve."""
    monkeypatch.setattr(switches, "TT_MIN_CARDS", (0, 0, 0))
    pos = endgame_mix(1, (3,), 901)[0]
    nodes: list[Position] = []
    _tree(pos.copy(), nodes)
    ref = Solver()
    ref.solve(pos, all_moves=True)
    assert any(tt_key(p) in ref.tt for p in nodes if p.outcome is None and len(p.trick) == 2)
