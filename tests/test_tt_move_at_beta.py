"""The experiment ``TT_MOVE_AT_BETA_DROPPED`` (issue 13, eighth round; off in both searches): at a
non-caller's node whose table entry's upper bound equals the test's beta, the entry's move (the
coalition's refutation of an earlier, higher test of MTD(f)) is not tried first. It is an ordering
change, so it must leave every value alone; here the reference search with it on gives the
values of ``tests/oracle.py`` on seeded endgames where it acts, and the premise is shown as it is:
the dropped move's child is worth at most beta (the entry says so), exactly beta on some
firings (it no longer refutes: the reason to drop it) and below beta on others (the cost of
dropping it). See ``docs/search.md``, "Coalition's look-ahead after the probe (eighth round)".
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from oracle import oracle_ab, random_endgame  # noqa: E402

from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import reference as R  # noqa: E402
from lukfu_solver.search.bounds import value_bounds  # noqa: E402


def _firings(pos: Position, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Position, int]]:
    """The nodes of a reference solve of ``pos`` (switch on) where the rule drops the table's move:
    each as the dropped move's child and the test's beta."""
    found: list[tuple[Position, int]] = []
    real = R.Solver._ab

    def spy(self: R.Solver, alpha: int, beta: int) -> int:
        node = self._pos
        if node.outcome is None and node.to_move != node.caller:
            lo, hi = value_bounds(node)
            entry = self.tt.get(R.tt_key(node))
            if not (lo >= beta or hi <= alpha or lo == hi) and entry is not None and entry[2] is not None:
                elo, ehi = entry[0], entry[1]
                if not (elo >= beta or ehi <= alpha or elo == ehi) and ehi == beta:
                    child = node.copy()
                    child.push(entry[2])
                    found.append((child, beta))
        return real(self, alpha, beta)

    with monkeypatch.context() as m:
        m.setattr(R, "TT_MOVE_AT_BETA_DROPPED", True)
        m.setattr(R.Solver, "_ab", spy)
        R.Solver().solve(pos)
    return found


CASES = [random_endgame(47_000 + seed, 4 + seed % 2) for seed in range(120)]


def test_values_are_unchanged_and_the_premise_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the rule acts, the reference search with it on gives the oracle's value; every
    dropped move's child is worth at most beta; some are worth exactly beta and some less."""
    acted = at_beta = below = 0
    for pos in CASES:
        firings = _firings(pos, monkeypatch)
        if not firings:
            continue
        acted += 1
        with monkeypatch.context() as m:
            m.setattr(R, "TT_MOVE_AT_BETA_DROPPED", True)
            on = R.Solver().solve(pos)
        assert on.value == oracle_ab(pos), str(pos)
        for child, beta in firings:
            v = oracle_ab(child)
            assert v <= beta, (str(child), v, beta)
            at_beta += v == beta
            below += v < beta
    assert acted >= 30, acted
    assert at_beta > 0 and below > 0, (at_beta, below)
