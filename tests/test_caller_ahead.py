"""The caller's look-ahead (issue 13, seventh round: ``search.bounds._caller_lead_bound``) proved on
seeded endgames.

At the caller's lead the value is at least that of any move, so the best of the single-trick lower
bounds after each single the caller may lead (R7 binds non-callers only) bounds it from below. It
sees what the sure claim cannot: a lead that a non-caller must beat and whose trick, through the
R7 look-ahead at the playout's ends, hands the lead back to the caller. The search calls it after
the table probe, with the window's beta, stopping at the first single whose bound reaches it, and
(``CALLER_AHEAD_SKIP``) leaves out the singles whose every beater keeps a set or a run. Here the
bound is checked against the plain alpha-beta reference of ``tests/oracle.py`` on every seeded
endgame where it applies (it must never exclude the true value, with a stop at beta or without),
shown to cut, shown to catch a deliberately unsound variant, the compiled kernel's
``caller_lead_bound`` must give the same bounds, and the reference search with the switch on
must give the oracle's values. ``CALLER_AHEAD`` is the switch of both searches
(``docs/search.md``, "Caller's look-ahead after the probe (seventh round)").
"""

from __future__ import annotations

import pytest
from oracle import oracle_ab_once, random_endgame

from lukfu_solver.cards import UNBEATABLE_LEAD  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402
from lukfu_solver.search import switches as S  # noqa: E402


def _beatable(pos: Position) -> int:
    """The caller's singles that a non-caller can beat (the leads the look-ahead plays out)."""
    c = pos.caller
    others = pos.hands[(c + 1) % 3] | pos.hands[(c + 2) % 3]
    return sum(x for x in B._bits(pos.hands[c]) if not x & UNBEATABLE_LEAD and others & B._above_in_suit(x))


def _without(pos: Position) -> tuple[int, int]:
    """The bounds without the caller's look-ahead (``value_bounds`` never calls it: the search does)."""
    return B.value_bounds(pos)


def _full(pos: Position, skip: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """The look-ahead's bound over every single it plays out (no stop), with or without the skip."""
    with monkeypatch.context() as m:
        m.setattr(S, "CALLER_AHEAD_SKIP", skip)
        return B._caller_lead_bound(pos, B.INF)


def _cases() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at the caller's lead, with a beatable single, whose
    bounds without the look-ahead leave the value open: where it runs."""
    out = []
    for seed in range(420):
        pos = random_endgame(31_000 + seed, 3 + seed % 3)
        if pos.to_move != pos.caller or not _beatable(pos):
            continue
        lo, hi = _without(pos)
        if lo < hi:
            out.append(pos)
    return out


CASES = _cases()


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 100, len(CASES)
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CASES} == {3, 4, 5}


@pytest.mark.slow
def test_the_bound_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the look-ahead, with the skip and without, stays at or below the oracle's
    value, and the skip only leaves singles out (never above the bound without it); it raises the
    lower bound on a fifth of the cases or more, and on some up to the value itself, so that the
    test "at least the value?" needs no search there."""
    raised = proved = 0
    for pos in CASES:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = _without(pos)
        skipped, every = _full(pos, True, monkeypatch), _full(pos, False, monkeypatch)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert skipped <= every <= v, (text, v, skipped, every)
        alone = B._caller_lead_bound(pos, hi0)
        assert alone == skipped or skipped >= alone >= hi0, text  # a stop at the upper bound changes no decision
        lo = max(lo0, alone)
        assert lo <= v <= hi0, (text, v, lo, hi0)
        raised += lo > lo0
        proved += lo == v > lo0
    assert raised * 5 >= len(CASES), (raised, len(CASES))
    assert proved >= 10, proved


@pytest.mark.slow
def test_the_stop_at_beta(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search's stop (the window's beta) the bound is the full one wherever that stays
    below beta, and otherwise reaches beta without passing the value: every zero-window test it
    decides is decided rightly, and the tests it cannot decide see the same bound."""
    stopped_early = 0
    for pos in CASES:
        v = oracle_ab_once(pos)
        full = _full(pos, S.CALLER_AHEAD_SKIP, monkeypatch)
        for beta in range(-14, 16, 2):
            b = B._caller_lead_bound(pos, beta)
            if full >= beta:
                assert beta <= b <= full <= v, (str(pos), beta, b, full, v)
                stopped_early += b < full
            else:
                assert b == full, (str(pos), beta, b, full)
    assert stopped_early > 0, stopped_early


@pytest.mark.slow
def test_an_unsound_variant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking each child's upper bound instead of its lower one (the caller's hopes, not its
    guarantee) excludes the true value on some cases: the cases can tell a sound bound from an
    unsound one."""
    real = B._single_trick_bounds
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_single_trick_bounds", lambda pos: (real(pos)[1], real(pos)[1]))
        for pos in CASES:
            wrong += B._caller_lead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 20, wrong


def test_kernel_bound_equals_the_reference() -> None:
    """The compiled ``caller_lead_bound`` (called directly: the switch is a compile-time constant,
    the skip one too, and the reference's is set alike) equals the reference's on every case, for
    every stop the search can pass, and leaves the position's own row as it found it (it writes the
    leads to the next row)."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB

    solver = CompiledSolver(max_entries=1024)
    for pos in CASES:
        hi0 = _without(pos)[1]
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for stop in (hi0, B.INF, -4, 0, 2, 6):
            assert KB.caller_lead_bound(solver.T, solver.st, 0, stop) == B._caller_lead_bound(pos, stop), str(pos)
        assert (solver.st[0] == row).all(), str(pos)


@pytest.mark.slow
def test_the_reference_search_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search with the look-ahead at its call point (after the table probe, with
    beta) gives the oracle's value on the cases, and, on those where the look-ahead can decide a
    test, searches fewer nodes than with it off."""
    fewer = 0
    for pos in CASES[:80]:
        with monkeypatch.context() as m:
            m.setattr(S, "CALLER_AHEAD", True)
            on = make_solver("reference").solve(pos)
        with monkeypatch.context() as m:
            m.setattr(S, "CALLER_AHEAD", False)
            off = make_solver("reference").solve(pos)
        assert on.value == off.value == oracle_ab_once(pos), str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= 10, fewer


@pytest.mark.slow
def test_solvers_agree_with_the_oracle_where_the_bound_applies() -> None:
    """Both solvers, as switched, give the oracle's value and the same node count on the cases."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in CASES[:80]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab_once(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
