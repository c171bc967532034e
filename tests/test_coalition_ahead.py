"""The coalition's look-ahead (issue 13, eighth round: ``search.bounds._coalition_lead_bound``) proved
on seeded endgames.

At a non-caller's lead the coalition minimises, so the value is at most that of any legal move,
and the least of the single-trick upper bounds after each single R7 lets the leader lead bounds
it from above: the mirror of the caller's look-ahead (``tests/test_caller_ahead.py``). The R7
one-trick bound of ``value_bounds`` already takes that minimum where the leader holds no set and
no run, so the look-ahead runs where it holds one. The search calls it after the table probe,
down to the window's alpha, stopping at the first single whose bound is at or below it, and
(``COALITION_AHEAD_SKIP``) leaves out the singles the caller can beat with a card the partner
cannot beat. Here the bound is checked against the plain alpha-beta reference of
``tests/oracle.py`` on every seeded endgame where it runs (it must never exclude the true value,
with a stop at alpha or without), shown to cut, shown to catch deliberately unsound variants,
the compiled kernel's ``coalition_lead_bound`` must give the same bounds, and the reference
search with the switch on must give the oracle's values. ``COALITION_AHEAD`` is the switch of
both searches (``docs/search.md``, "Coalition's look-ahead after the probe (eighth round)").
"""

from __future__ import annotations

import pytest
from oracle import open_endgames, oracle_ab_once

from lukfu_solver.plays import SINGLE, Play
from lukfu_solver.position import Position
from lukfu_solver.search import bounds as B
from lukfu_solver.search import make_solver
from lukfu_solver.search import switches as S


def _runs_here(pos: Position) -> bool:
    """A non-caller's lead where the look-ahead plays singles out: the leader holds a set or a run
    (without one the R7 one-trick bound of ``value_bounds`` has taken the same minimum)."""
    w = pos.to_move
    return not pos.trick and w != pos.caller and B._has_set_or_run(pos.hands[w])


def _full(pos: Position, skip: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """The look-ahead's bound over every single it plays out (no stop), with or without the skip."""
    with monkeypatch.context() as m:
        m.setattr(S, "COALITION_AHEAD_SKIP", skip)
        return B._coalition_lead_bound(pos, -B.INF)


def _cases() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at a non-caller's lead holding a set or a run, whose
    bounds leave the value open: where the look-ahead runs."""
    return open_endgames(41_000, 6000, lambda i: (3 + i % 3, 0, False), _runs_here)


CASES = _cases()


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 100, len(CASES)
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.to_move for p in CASES} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CASES} == {3, 4, 5}


@pytest.mark.slow
def test_the_bound_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the look-ahead, with the skip and without, stays at or above the oracle's
    value; the skip only leaves singles out (never below the bound without it) and never those
    that could tighten the bounds (the least with the node's upper bound is the same), so it
    leaves the tree unchanged; the look-ahead lowers the upper bound on a tenth of the cases or
    more, and on some down to the value itself, so that the test "at least the value + 2?"
    needs no search there."""
    lowered = proved = 0
    for pos in CASES:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = B.value_bounds(pos)
        skipped, every = _full(pos, True, monkeypatch), _full(pos, False, monkeypatch)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert v <= every <= skipped, (text, v, every, skipped)
        assert min(skipped, hi0) == min(every, hi0), (text, skipped, every, hi0)
        hi = min(hi0, B._coalition_lead_bound(pos, lo0))
        assert lo0 <= v <= hi, (text, v, lo0, hi)
        lowered += hi < hi0
        proved += hi == v < hi0
    assert lowered * 10 >= len(CASES), (lowered, len(CASES))
    assert proved >= 10, proved


@pytest.mark.slow
def test_the_stop_at_alpha(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search's stop (the window's alpha) the bound is the full one wherever that stays
    above alpha, and otherwise falls to alpha or below without passing under the value: every
    zero-window test it decides is decided rightly, and the tests it cannot decide see the same
    bound."""
    stopped_early = 0
    for pos in CASES:
        v = oracle_ab_once(pos)
        full = _full(pos, S.COALITION_AHEAD_SKIP, monkeypatch)
        for alpha in range(-16, 14, 2):
            b = B._coalition_lead_bound(pos, alpha)
            if full <= alpha:
                assert v <= full <= b <= alpha, (str(pos), alpha, b, full, v)
                stopped_early += b > full
            else:
                assert b == full, (str(pos), alpha, b, full)
    assert stopped_early > 0, stopped_early


def test_unsound_variants_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two deliberately wrong versions exclude the true value on some cases, so the cases can tell
    a sound bound from an unsound one: taking each child's lower bound instead of its upper one
    (the coalition's hopes, not its guarantee), and playing out every single of the hand, the
    ones R7 forbids included (a move the coalition does not have)."""
    real = B._single_trick_bounds
    lower = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_single_trick_bounds", lambda pos: (real(pos)[0], real(pos)[0]))
        for pos in CASES:
            lower += B._coalition_lead_bound(pos, -B.INF) < oracle_ab_once(pos)
    assert lower >= 10, lower

    def every_single(pos: Position) -> int:
        hi = B.INF
        for c in B._bits(pos.hands[pos.to_move]):
            pos.push(Play(SINGLE, c, 1))  # unchecked: R7 may forbid it
            try:
                hi = min(hi, real(pos)[1])
            finally:
                pos.pop()
        return hi

    illegal = sum(every_single(pos) < oracle_ab_once(pos) for pos in CASES)
    assert illegal >= 3, illegal


def test_kernel_bound_equals_the_reference() -> None:
    """The compiled ``coalition_lead_bound`` (called directly: the switches are compile-time
    constants, and the reference's are set alike) equals the reference's on every case, for every
    stop the search can pass, and leaves the position's own row as it found it (it writes the
    leads to the next row)."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB

    solver = CompiledSolver(max_entries=1024)
    for pos in CASES:
        lo0 = B.value_bounds(pos)[0]
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for stop in (lo0, -B.INF, -4, 0, 2, 6):
            assert KB.coalition_lead_bound(solver.T, solver.st, 0, stop) == B._coalition_lead_bound(pos, stop), str(pos)
        assert (solver.st[0] == row).all(), str(pos)


@pytest.mark.slow
def test_the_reference_search_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search with the look-ahead at its call point (after the table probe, down to
    alpha) gives the oracle's value on the cases, and searches fewer nodes than with it off on
    some of them."""
    fewer = 0
    for pos in CASES[:80]:
        with monkeypatch.context() as m:
            m.setattr(S, "COALITION_AHEAD", True)
            on = make_solver("reference").solve(pos)
        with monkeypatch.context() as m:
            m.setattr(S, "COALITION_AHEAD", False)
            off = make_solver("reference").solve(pos)
        assert on.value == off.value == oracle_ab_once(pos), str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= 5, fewer


@pytest.mark.slow
def test_solvers_agree_with_the_oracle_where_the_bound_applies() -> None:
    """Both solvers, as switched, give the oracle's value and the same node count on the cases."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in CASES[:80]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab_once(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
