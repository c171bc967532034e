"""The caller's look-ahead (issue 13, seventh round: ``search.bounds._caller_lead_bound``) proved on
seeded endgames.

At the caller's lead the value is at least that of any move, so the best of the single-trick lower
bounds after each single the caller may lead (R7 binds non-callers only) bounds it from below. It
sees what the sure claim cannot: a lead that a non-caller must beat and whose trick, through the
R7 look-ahead at the playout's ends, hands the lead back to the caller. Here the bound is checked
against the plain alpha-beta reference of ``tests/oracle.py`` on every seeded endgame where it
applies (it must never exclude the true value), shown to cut, shown to catch a deliberately
unsound variant, and the compiled kernel's ``caller_lead_bound`` must give the same bounds. The
switch ``CALLER_AHEAD`` is off in both searches (it cut nodes but cost more CPU than it saved,
``docs/search.md``, "Bounds (seventh round)"), so the tests here switch the reference's on.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from oracle import oracle_ab, random_endgame  # noqa: E402

from lukfu_solver.cards import UNBEATABLE_LEAD  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402


def _beatable(pos: Position) -> int:
    """The caller's singles that a non-caller can beat (the leads the look-ahead plays out)."""
    c = pos.caller
    others = pos.hands[(c + 1) % 3] | pos.hands[(c + 2) % 3]
    return sum(x for x in B._bits(pos.hands[c]) if not x & UNBEATABLE_LEAD and others & B._above_in_suit(x))


def _without(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The bounds without the caller's look-ahead."""
    with monkeypatch.context() as m:
        m.setattr(B, "CALLER_AHEAD", False)
        return B.value_bounds(pos)


def _with(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The bounds with the caller's look-ahead switched on."""
    with monkeypatch.context() as m:
        m.setattr(B, "CALLER_AHEAD", True)
        return B.value_bounds(pos)


def _cases() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at the caller's lead, with a beatable single, whose
    bounds without the look-ahead leave the value open: where it runs."""
    out = []
    mp = pytest.MonkeyPatch()
    try:
        for seed in range(420):
            pos = random_endgame(31_000 + seed, 3 + seed % 3)
            if pos.to_move != pos.caller or not _beatable(pos):
                continue
            lo, hi = _without(pos, mp)
            if lo < hi:
                out.append(pos)
    finally:
        mp.undo()
    return out


CASES = _cases()
_VALUES: dict[str, int] = {}


def _value(pos: Position) -> int:
    """The oracle's value of ``pos``, computed once for all the tests here."""
    text = str(pos)
    if text not in _VALUES:
        _VALUES[text] = oracle_ab(pos)
    return _VALUES[text]


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 100, len(CASES)
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CASES} == {3, 4, 5}


def test_the_bound_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the look-ahead alone and the combined bounds hold the oracle's value and are
    never looser than without it; it raises the lower bound on a fifth of them or more, and on some
    up to the value itself, so that the test "at least the value?" needs no search there."""
    raised = proved = 0
    for pos in CASES:
        text = str(pos)
        v = _value(pos)
        lo0, hi0 = _without(pos, monkeypatch)
        alone = B._caller_lead_bound(pos, hi0)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert alone <= v, (text, v, alone)
        lo, hi = _with(pos, monkeypatch)
        assert lo <= v <= hi, (text, v, lo, hi)
        assert lo == max(lo0, alone) and hi == hi0, text  # a lower bound only, never looser
        raised += lo > lo0
        proved += lo == v > lo0
    assert raised * 5 >= len(CASES), (raised, len(CASES))
    assert proved >= 10, proved


def test_an_unsound_variant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking each child's upper bound instead of its lower one (the caller's hopes, not its
    guarantee) excludes the true value on some cases: the cases can tell a sound bound from an
    unsound one."""
    real = B._single_trick_bounds
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_single_trick_bounds", lambda pos: (real(pos)[1], real(pos)[1]))
        for pos in CASES:
            wrong += B._caller_lead_bound(pos, B.INF) > _value(pos)
    assert wrong >= 20, wrong


def test_kernel_bound_equals_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled ``caller_lead_bound`` (called directly: the switch is a compile-time constant)
    equals the reference's on every case, with and without an upper bound to stop at, and leaves
    the position's own row as it found it (it writes the leads to the next row)."""
    from lukfu_solver.search.fast import FastSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB

    solver = FastSolver(max_entries=1024)
    for pos in CASES:
        hi0 = _without(pos, monkeypatch)[1]
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for upper in (hi0, B.INF):
            assert KB.caller_lead_bound(solver.T, solver.st, 0, upper) == B._caller_lead_bound(pos, upper), str(pos)
        assert (solver.st[0] == row).all(), str(pos)


def test_solvers_agree_with_the_oracle_where_the_bound_applies() -> None:
    """Both solvers, as switched, give the oracle's value and the same node count on the cases."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in CASES[:80]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == _value(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
