"""The bounds of ``search/bounds.py`` proved on seeded endgames (``tests/bound_cases.py``) against
the plain alpha-beta reference of ``tests/oracle.py``, and the compiled kernel's equal to them.

- **The R7 one-trick bound** (``_r7_lead_bounds``, switch ``R7_AT_LEAD``). At the lead of a
  non-caller that holds no set and no run, R7 leaves it only a few singles (and the claim, when it
  may): the value is the least of their values, so the least of the single-trick bounds of those
  children bounds it on both sides. It must never exclude the true value, and it cuts: it
  tightens most of those positions, and decides some that the bounds without it left open.
- **The R7 look-ahead** at the single-trick playout's ends (``_r7_ahead_bounds``, ``R7_AHEAD``):
  each single R7 allows at an end played out once more, a seat that discarded allowed for one
  unknown card fewer (``unsure``).
- **The caller's look-ahead** (``_caller_lead_bound``, ``CALLER_AHEAD``). At the caller's lead the
  value is at least that of any move, so the best of the single-trick lower bounds after each
  single the caller may lead (R7 binds non-callers only) bounds it from below. It sees what the
  sure claim cannot: a lead that a non-caller must beat and whose trick, through the R7
  look-ahead at the playout's ends, hands the lead back to the caller. The search calls it after
  the table probe, with the window's beta, stopping at the first single whose bound reaches it,
  and (``CALLER_AHEAD_SKIP``) leaves out the singles whose every beater keeps a set or a run.
- **The coalition's look-ahead** (``_coalition_lead_bound``, ``COALITION_AHEAD``): its mirror. At
  a non-caller's lead the coalition minimises, so the least of the single-trick upper bounds
  after each single R7 lets the leader lead bounds the value from above. The R7 one-trick bound
  already takes that minimum where the leader holds no set and no run, so the look-ahead runs
  where it holds one. The search calls it after the table probe, down to the window's alpha, and
  (``COALITION_AHEAD_SKIP``) leaves out the singles the caller can beat with a card the partner
  cannot beat.

Each look-ahead must never exclude the true value, with a stop at the window's edge or without;
it is shown to cut and to catch deliberately unsound variants, and the kernel's version must give
the same bounds. The searches with each switch on and off, and both solvers against the oracle
where each bound applies: ``tests/test_search_switches.py`` (``docs/search.md``, "The bounds").
"""

from __future__ import annotations

import functools

import bound_cases
import pytest
from bound_cases import r7_ahead_calls, stops_at_beta
from oracle import oracle_ab, oracle_ab_once, random_endgame

from lukfu_solver.plays import RUN, SET, SINGLE, Play
from lukfu_solver.position import Position
from lukfu_solver.search import bounds as B
from lukfu_solver.search import make_solver
from lukfu_solver.search import switches as S

# ---------------------------------------------------------------- the R7 one-trick bound

R7 = bound_cases.r7_leads()


def _without_r7(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The bounds without the R7 one-trick bound (every hand taken to hold a set or run)."""
    with monkeypatch.context() as m:
        m.setattr(B, "_has_set_or_run", lambda hand: True)
        return B.value_bounds(pos)


def test_the_r7_cases_are_many_and_varied() -> None:
    assert len(R7) >= 100
    assert {p.caller for p in R7} == {0, 1, 2}
    assert {p.hands[0].bit_count() for p in R7} == {3, 4, 5}


def test_set_or_run_test_matches_the_legal_leads() -> None:
    """``_has_set_or_run`` says exactly whether the seat to lead has a set or run among its leads."""
    for seed in range(400):
        pos = random_endgame(17_000 + seed, 2 + seed % 10)
        multi = any(m.kind in (SET, RUN) for m in pos.legal_moves())
        assert B._has_set_or_run(pos.hands[pos.to_move]) == multi, str(pos)


@pytest.mark.slow
def test_the_r7_bound_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the R7 bound alone and the combined bounds hold the exact value; the bound
    tightens most cases, and decides (or settles a zero-window test the old bounds left open on)
    some of them."""
    tighter = decided = 0
    for pos in R7:
        text = str(pos)
        v = oracle_ab(pos)
        lo1, hi1 = B._r7_lead_bounds(pos)
        assert lo1 <= v <= hi1, text
        assert str(pos) == text  # the bound leaves the position as it found it
        lo, hi = B.value_bounds(pos)
        lo0, hi0 = _without_r7(pos, monkeypatch)
        assert lo <= v <= hi, text
        assert lo0 <= lo and hi <= hi0, text  # never looser than before
        if (lo, hi) != (lo0, hi0):
            tighter += 1
        if lo == hi and lo0 != hi0:
            decided += 1
    assert tighter * 2 >= len(R7), (tighter, len(R7))
    assert decided >= 10, decided


@pytest.mark.parametrize("cases", ["r7_lead", "r7_ahead"])
def test_kernel_bounds_equal_the_reference(cases: str) -> None:
    """The compiled ``value_bounds`` equals the reference's on every case of the R7 one-trick bound
    and of the R7 look-ahead, and on every position one move on (the R7 bound writes the search's
    next row: the row's own values must not change)."""
    compiled = make_solver("compiled")
    for pos in {"r7_lead": bound_cases.r7_leads, "r7_ahead": bound_cases.r7_ahead}[cases]():
        assert compiled.bounds(pos) == B.value_bounds(pos), str(pos)
        for m in list(pos.legal_moves()):
            pos.push(m)
            child = Position.parse(str(pos))
            pos.pop()
            assert compiled.bounds(child) == B.value_bounds(child), str(child)


# ---------------------------------------------------------------- the R7 look-ahead

R7_AHEAD = bound_cases.r7_ahead()


def _without_ahead(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    with monkeypatch.context() as m:
        m.setattr(S, "R7_AHEAD", False)
        return B.value_bounds(pos)


def test_the_r7_look_ahead_cases_are_many_and_varied(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many cases, every caller, both hand sizes, and seats that discarded an unknown card among
    them (the ``unsure`` seats the look-ahead must not take to hold their whole hand)."""
    assert len(R7_AHEAD) >= 100, len(R7_AHEAD)
    assert {p.caller for p in R7_AHEAD} == {0, 1, 2}
    assert {p.cards_per_hand() for p in R7_AHEAD} == {4, 5}
    unsure = sum(1 for p in R7_AHEAD if any(r7_ahead_calls(p, monkeypatch)))
    assert unsure >= 50, unsure


@pytest.mark.slow
def test_the_r7_look_ahead_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the bounds with the look-ahead hold the oracle's value and are never looser
    than without it; they tighten most cases and decide some that were open, among them cases
    where a seat's unknown discard had to be allowed for."""
    tighter = decided = tighter_unsure = 0
    for pos in R7_AHEAD:
        text = str(pos)
        v = oracle_ab(pos)
        lo, hi = B.value_bounds(pos)
        lo0, hi0 = _without_ahead(pos, monkeypatch)
        assert str(pos) == text  # the bounds leave the position as they found it
        assert lo <= v <= hi, (text, v, lo, hi)
        assert lo0 <= lo and hi <= hi0, text
        if (lo, hi) != (lo0, hi0):
            tighter += 1
            tighter_unsure += any(r7_ahead_calls(pos, monkeypatch))
        if lo == hi and lo0 != hi0:
            decided += 1
    assert tighter * 2 >= len(R7_AHEAD), (tighter, len(R7_AHEAD))
    assert decided >= 20, decided
    assert tighter_unsure >= 20, tighter_unsure


@pytest.mark.slow
def test_a_seat_missing_an_unknown_card_is_not_given_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat that discarded in the playout's trick holds one unknown card fewer than its hand:
    the look-ahead allows for it (``unsure``). Taken to hold its whole hand instead, the bounds
    exclude the true value on some positions, so the allowance is needed, and it is what keeps
    the bounds sound above."""
    real = B._r7_ahead_bounds
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_r7_ahead_bounds", lambda *args: real(*args[:-1], 0))
        for pos in R7_AHEAD:
            if any(r7_ahead_calls(pos, monkeypatch)):
                lo, hi = B.value_bounds(pos)
                wrong += not lo <= oracle_ab(pos) <= hi
    assert wrong >= 3, wrong


# ---------------------------------------------------------------- the caller's look-ahead

CALLER = bound_cases.caller_leads()


def _caller_full(pos: Position, skip: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """The look-ahead's bound over every single it plays out (no stop), with or without the skip."""
    with monkeypatch.context() as m:
        m.setattr(S, "CALLER_AHEAD_SKIP", skip)
        return B._caller_lead_bound(pos, B.INF)


def test_the_caller_cases_are_many_and_varied() -> None:
    assert len(CALLER) >= 100, len(CALLER)
    assert {p.caller for p in CALLER} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CALLER} == {3, 4, 5}


@pytest.mark.slow
def test_the_caller_look_ahead_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the look-ahead, with the skip and without, stays at or below the oracle's
    value, and the skip only leaves singles out (never above the bound without it); it raises the
    lower bound on a fifth of the cases or more, and on some up to the value itself, so that the
    test "at least the value?" needs no search there."""
    raised = proved = 0
    for pos in CALLER:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = B.value_bounds(pos)
        skipped, every = _caller_full(pos, True, monkeypatch), _caller_full(pos, False, monkeypatch)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert skipped <= every <= v, (text, v, skipped, every)
        alone = B._caller_lead_bound(pos, hi0)
        assert alone == skipped or skipped >= alone >= hi0, text  # a stop at the upper bound changes no decision
        lo = max(lo0, alone)
        assert lo <= v <= hi0, (text, v, lo, hi0)
        raised += lo > lo0
        proved += lo == v > lo0
    assert raised * 5 >= len(CALLER), (raised, len(CALLER))
    assert proved >= 10, proved


@pytest.mark.slow
def test_the_caller_look_ahead_stops_at_beta(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search's stop (the window's beta) the bound is the full one wherever that stays
    below beta, and otherwise reaches beta without passing the value: every zero-window test it
    decides is decided rightly, and the tests it cannot decide see the same bound."""
    full = functools.partial(_caller_full, skip=S.CALLER_AHEAD_SKIP, monkeypatch=monkeypatch)
    assert stops_at_beta(CALLER, full, B._caller_lead_bound) > 0


@pytest.mark.slow
def test_an_unsound_caller_look_ahead_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking each child's upper bound instead of its lower one (the caller's hopes, not its
    guarantee) excludes the true value on some cases: the cases can tell a sound bound from an
    unsound one."""
    real = B._single_trick_bounds
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_single_trick_bounds", lambda pos: (real(pos)[1], real(pos)[1]))
        for pos in CALLER:
            wrong += B._caller_lead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 20, wrong


def test_kernel_caller_look_ahead_equals_the_reference() -> None:
    """The compiled ``caller_lead_bound`` (called directly: the switch is a compile-time constant,
    the skip one too, and the reference's is set alike) equals the reference's on every case, for
    every stop the search can pass, and leaves the position's own row as it found it (it writes the
    leads to the next row)."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB

    solver = CompiledSolver(max_entries=1024)
    for pos in CALLER:
        hi0 = B.value_bounds(pos)[1]
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for stop in (hi0, B.INF, -4, 0, 2, 6):
            assert KB.caller_lead_bound(solver.T, solver.st, 0, stop) == B._caller_lead_bound(pos, stop), str(pos)
        assert (solver.st[0] == row).all(), str(pos)


# ---------------------------------------------------------------- the coalition's look-ahead

COALITION = bound_cases.coalition_leads()


def _coalition_full(pos: Position, skip: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """The look-ahead's bound over every single it plays out (no stop), with or without the skip."""
    with monkeypatch.context() as m:
        m.setattr(S, "COALITION_AHEAD_SKIP", skip)
        return B._coalition_lead_bound(pos, -B.INF)


def test_the_coalition_cases_are_many_and_varied() -> None:
    assert len(COALITION) >= 100, len(COALITION)
    assert {p.caller for p in COALITION} == {0, 1, 2}
    assert {p.to_move for p in COALITION} == {0, 1, 2}
    assert {p.cards_per_hand() for p in COALITION} == {3, 4, 5}


@pytest.mark.slow
def test_the_coalition_look_ahead_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the look-ahead, with the skip and without, stays at or above the oracle's
    value; the skip only leaves singles out (never below the bound without it) and never those
    that could tighten the bounds (the least with the node's upper bound is the same), so it
    leaves the tree unchanged; the look-ahead lowers the upper bound on a tenth of the cases or
    more, and on some down to the value itself, so that the test "at least the value + 2?"
    needs no search there."""
    lowered = proved = 0
    for pos in COALITION:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = B.value_bounds(pos)
        skipped, every = _coalition_full(pos, True, monkeypatch), _coalition_full(pos, False, monkeypatch)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert v <= every <= skipped, (text, v, every, skipped)
        assert min(skipped, hi0) == min(every, hi0), (text, skipped, every, hi0)
        hi = min(hi0, B._coalition_lead_bound(pos, lo0))
        assert lo0 <= v <= hi, (text, v, lo0, hi)
        lowered += hi < hi0
        proved += hi == v < hi0
    assert lowered * 10 >= len(COALITION), (lowered, len(COALITION))
    assert proved >= 10, proved


@pytest.mark.slow
def test_the_coalition_look_ahead_stops_at_alpha(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the search's stop (the window's alpha) the bound is the full one wherever that stays
    above alpha, and otherwise falls to alpha or below without passing under the value: every
    zero-window test it decides is decided rightly, and the tests it cannot decide see the same
    bound."""
    stopped_early = 0
    for pos in COALITION:
        v = oracle_ab_once(pos)
        full = _coalition_full(pos, S.COALITION_AHEAD_SKIP, monkeypatch)
        for alpha in range(-16, 14, 2):
            b = B._coalition_lead_bound(pos, alpha)
            if full <= alpha:
                assert v <= full <= b <= alpha, (str(pos), alpha, b, full, v)
                stopped_early += b > full
            else:
                assert b == full, (str(pos), alpha, b, full)
    assert stopped_early > 0, stopped_early


@pytest.mark.slow
def test_unsound_coalition_look_aheads_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two deliberately wrong versions exclude the true value on some cases, so the cases can tell
    a sound bound from an unsound one: taking each child's lower bound instead of its upper one
    (the coalition's hopes, not its guarantee), and playing out every single of the hand, the
    ones R7 forbids included (a move the coalition does not have)."""
    real = B._single_trick_bounds
    lower = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_single_trick_bounds", lambda pos: (real(pos)[0], real(pos)[0]))
        for pos in COALITION:
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

    illegal = sum(every_single(pos) < oracle_ab_once(pos) for pos in COALITION)
    assert illegal >= 3, illegal


def test_kernel_coalition_look_ahead_equals_the_reference() -> None:
    """The compiled ``coalition_lead_bound`` (called directly: the switches are compile-time
    constants, and the reference's are set alike) equals the reference's on every case, for every
    stop the search can pass, and leaves the position's own row as it found it (it writes the
    leads to the next row)."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB

    solver = CompiledSolver(max_entries=1024)
    for pos in COALITION:
        lo0 = B.value_bounds(pos)[0]
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for stop in (lo0, -B.INF, -4, 0, 2, 6):
            assert KB.coalition_lead_bound(solver.T, solver.st, 0, stop) == B._coalition_lead_bound(pos, stop), str(pos)
        assert (solver.st[0] == row).all(), str(pos)
