"""The zero-window driver's order of tests, for both solvers.

- MTD(f) without a guess descends from the upper bound: its first test is "at least the upper
  bound?", and every test but the last one fails (the last is the one that proves the value).
  Under a node limit (whose unfinished answers are their proven bounds) it starts halfway.
- The all-moves pass joins each root move's bounds with the root's value (no caller move is
  worth more, no non-caller move less) and asks first whether the move keeps the value; the
  values of the moves are those of separate solves of the positions after them (and the
  oracle's, on small endgames).
"""

from __future__ import annotations

import pytest
from oracle import oracle_move_values, random_endgame

from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402
from lukfu_solver.search.driver import _midpoint  # noqa: E402

POSITIONS = [random_endgame(seed, 3 + seed % 2, plays=seed % 3) for seed in range(40)]


def traced(
    kind: str, pos: Position, max_nodes: int | None = None
) -> tuple[list[tuple[int, int]], int, tuple[int, int]]:
    """The (target, answer) of every test of one solve of ``pos``, its value and root bounds."""
    solver = make_solver(kind)
    tests: list[tuple[int, int]] = []
    plain = solver._ab
    plain_pv = solver._pv
    driving = [True]
    depth = [0]  # the reference's search recurses through _ab: only the outermost call is a test

    def ab(alpha: int, beta: int) -> int:
        depth[0] += 1
        try:
            g = plain(alpha, beta)
        finally:
            depth[0] -= 1
        if driving[0] and depth[0] == 0:
            tests.append((beta, g))
        return g

    def pv(value: int) -> list:
        driving[0] = False  # the principal variation's tests are not the driver's
        return plain_pv(value)

    solver._ab = ab  # type: ignore[method-assign]
    solver._pv = pv  # type: ignore[method-assign]
    res = solver.solve(pos, max_nodes=max_nodes)
    assert res.value is not None
    return tests, res.value, solver.bounds(pos)


@pytest.mark.parametrize("kind", ["reference", "compiled"])
def test_mtdf_descends_from_the_upper_bound(kind: str) -> None:
    searched = 0
    for pos in POSITIONS:
        tests, value, (lo, hi) = traced(kind, pos)
        if lo == hi:
            assert tests == []
            continue
        searched += 1
        assert tests[0][0] == hi
        # every test but the last fails; the last one either succeeds at the value or fails just
        # above the lower bound
        assert all(g < target for target, g in tests[:-1]), tests
        target, g = tests[-1]
        assert (g >= target and g == value) or (g < target and value == lo), tests
    assert searched >= 20


@pytest.mark.parametrize("kind", ["reference", "compiled"])
def test_under_a_node_limit_mtdf_starts_halfway(kind: str) -> None:
    started = 0
    for pos in POSITIONS:
        tests, value, (lo, hi) = traced(kind, pos, max_nodes=10**9)
        if lo < hi:
            assert tests[0][0] == _midpoint(lo, hi)
            started += 1
    assert started >= 20


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["reference", "compiled"])
def test_all_moves_values_are_those_of_separate_solves(kind: str) -> None:
    for pos in POSITIONS[:25]:
        res = make_solver(kind).solve(pos, all_moves=True)
        if pos.outcome is not None:
            continue
        assert res.moves == oracle_move_values(pos), str(pos)
        maximizing = pos.to_move == pos.caller
        assert res.value == (max if maximizing else min)(res.moves.values())
        for m, v in res.moves.items():
            pos.push(m)
            try:
                assert make_solver(kind).solve(pos).value == v, (str(pos), str(m))
            finally:
                pos.pop()


def all_moves_first_tests(pos: Position) -> None:
    """Solve ``pos`` with all moves on the reference, checking each root move's clipped bounds and
    first test (see the test below)."""
    solver = make_solver("reference")
    tests: list[int] = []
    plain = solver._ab
    depth = [0]

    def ab(alpha: int, beta: int) -> int:
        if depth[0] == 0:
            tests.append(beta)
        depth[0] += 1
        try:
            return plain(alpha, beta)
        finally:
            depth[0] -= 1

    solver._ab = ab  # type: ignore[method-assign]
    value = solver.solve(pos).value
    assert value is not None
    real_exact = solver._exact_move

    def exact(lo: int, hi: int, v: int, maximizing: bool) -> int:
        assert v == value and maximizing == (pos.to_move == pos.caller)
        clo, chi = (lo, min(hi, v)) if maximizing else (max(lo, v), hi)
        assert clo <= chi
        n = len(tests)
        got = real_exact(lo, hi, v, maximizing)
        assert clo <= got <= chi
        if clo < chi:
            assert tests[n] == min(max(v, clo + 1), chi)
        else:
            assert len(tests) == n
        return got

    solver._exact_move = exact  # type: ignore[method-assign]
    res = solver.solve(pos, all_moves=True)
    assert res.value == value and res.moves


def test_all_moves_first_asks_whether_a_move_keeps_the_value() -> None:
    """After the value search, each root move's bounds are clipped at the root's value (a caller's
    move is worth at most the value, a non-caller's at least) and its first test asks whether the
    move keeps the value: "at least the value?" for the caller, "above it?" for a non-caller
    (unless the move's own bounds already say less)."""
    checked = 0
    for pos in POSITIONS:
        if pos.outcome is None:
            all_moves_first_tests(pos)
            checked += 1
    assert checked >= 20
