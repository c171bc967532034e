"""The R7 one-trick bound (issue 13, ``search.bounds._r7_lead_bounds``) and the R7 look-ahead at the
single-trick playout's ends (``search.bounds._r7_ahead_bounds``) proved on seeded endgames.

At the lead of a non-caller that holds no set and no run, R7 leaves it only a few singles (and the
claim, when it may): the value is the least of their values, so the least of the single-trick
bounds of those children bounds it on both sides. Here the bound is checked against the plain
alpha-beta reference of ``tests/oracle.py`` on every seeded endgame where it applies (it must
never exclude the true value), shown to cut (it tightens most of those positions, and decides
some that the bounds without it left open), and the compiled kernel must give the same bounds.
"""

from __future__ import annotations

import pytest
from oracle import oracle_ab, random_endgame

from lukfu_solver.plays import RUN, SET, SINGLE  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402
from lukfu_solver.search import switches as S  # noqa: E402


def _applies(pos: Position) -> bool:
    """At a lead, the seat to move a non-caller holding no set and no run (more than one card)."""
    w = pos.to_move
    return not pos.trick and w != pos.caller and pos.hands[w].bit_count() > 1 and not B._has_set_or_run(pos.hands[w])


def _cases() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at a trick boundary where the bound applies."""
    out = []
    for seed in range(260):
        pos = random_endgame(13_000 + seed, 3 + seed % 3)
        if _applies(pos):
            out.append(pos)
    return out


CASES = _cases()


def _without_r7(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The bounds as before the R7 bound (every hand taken to hold a set or run)."""
    with monkeypatch.context() as m:
        m.setattr(B, "_has_set_or_run", lambda hand: True)
        return B.value_bounds(pos)


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 100
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.hands[0].bit_count() for p in CASES} == {3, 4, 5}


def test_set_or_run_test_matches_the_legal_leads() -> None:
    """``_has_set_or_run`` says exactly whether the seat to lead has a set or run among its leads."""
    for seed in range(400):
        pos = random_endgame(17_000 + seed, 2 + seed % 10)
        multi = any(m.kind in (SET, RUN) for m in pos.legal_moves())
        assert B._has_set_or_run(pos.hands[pos.to_move]) == multi, str(pos)


@pytest.mark.slow
def test_the_bound_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the R7 bound alone and the combined bounds hold the exact value; the bound
    tightens most cases, and decides (or settles a zero-window test the old bounds left open on)
    some of them."""
    tighter = decided = 0
    for pos in CASES:
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
    assert tighter * 2 >= len(CASES), (tighter, len(CASES))
    assert decided >= 10, decided


def test_kernel_bounds_equal_the_reference() -> None:
    """The compiled ``value_bounds`` equals the reference's on every case and on every position
    one move on (the R7 bound writes the search's next row: the row's own values must not change)."""
    compiled = make_solver("compiled")
    for pos in CASES:
        assert compiled.bounds(pos) == B.value_bounds(pos), str(pos)
        for m in list(pos.legal_moves()):
            pos.push(m)
            child = Position.parse(str(pos))
            pos.pop()
            assert compiled.bounds(child) == B.value_bounds(child), str(child)


@pytest.mark.slow
def test_solvers_agree_with_the_oracle_where_the_bound_applies() -> None:
    """Both solvers give the oracle's value and the same node count on the cases."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in CASES[:60]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)


# ---------------------------------------------------------------- the R7 look-ahead (sixth round)


def _ahead_calls(pos: Position, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ``unsure`` masks of the R7 look-ahead's calls while ``value_bounds(pos)`` runs."""
    masks: list[int] = []
    real = B._r7_ahead_bounds

    def spy(*args: int) -> tuple[int, int]:
        masks.append(args[-1])
        return real(*args)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(B, "_r7_ahead_bounds", spy)
        B.value_bounds(pos)
    return masks


def _ahead_cases() -> list[Position]:
    """Seeded endgames of 4-5 cards a hand inside a trick led with a single (one or two plays
    made) whose single-trick playout ends, somewhere, at the lead of a non-caller with no set
    and no run and at least three cards a hand: where the look-ahead applies."""
    out = []
    mp = pytest.MonkeyPatch()
    try:
        for seed in range(130):
            for plays in (1, 2):
                pos = random_endgame(20_000 + seed, 4 + seed % 2, plays=plays)
                if pos.trick[0].kind == SINGLE and _ahead_calls(pos, mp):
                    out.append(pos)
    finally:
        mp.undo()
    return out


AHEAD = _ahead_cases()


def _without_ahead(pos: Position, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    with monkeypatch.context() as m:
        m.setattr(S, "R7_AHEAD", False)
        return B.value_bounds(pos)


def test_the_look_ahead_cases_are_many_and_varied(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many cases, every caller, both hand sizes, and seats that discarded an unknown card among
    them (the ``unsure`` seats the look-ahead must not take to hold their whole hand)."""
    assert len(AHEAD) >= 100, len(AHEAD)
    assert {p.caller for p in AHEAD} == {0, 1, 2}
    assert {p.cards_per_hand() for p in AHEAD} == {4, 5}
    unsure = sum(1 for p in AHEAD if any(_ahead_calls(p, monkeypatch)))
    assert unsure >= 50, unsure


@pytest.mark.slow
def test_the_look_ahead_never_excludes_the_value_and_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the bounds with the look-ahead hold the oracle's value and are never looser
    than without it; they tighten most cases and decide some that were open, among them cases
    where a seat's unknown discard had to be allowed for."""
    tighter = decided = tighter_unsure = 0
    for pos in AHEAD:
        text = str(pos)
        v = oracle_ab(pos)
        lo, hi = B.value_bounds(pos)
        lo0, hi0 = _without_ahead(pos, monkeypatch)
        assert str(pos) == text  # the bounds leave the position as they found it
        assert lo <= v <= hi, (text, v, lo, hi)
        assert lo0 <= lo and hi <= hi0, text
        if (lo, hi) != (lo0, hi0):
            tighter += 1
            tighter_unsure += any(_ahead_calls(pos, monkeypatch))
        if lo == hi and lo0 != hi0:
            decided += 1
    assert tighter * 2 >= len(AHEAD), (tighter, len(AHEAD))
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
        for pos in AHEAD:
            if any(_ahead_calls(pos, monkeypatch)):
                lo, hi = B.value_bounds(pos)
                wrong += not lo <= oracle_ab(pos) <= hi
    assert wrong >= 3, wrong


def test_kernel_look_ahead_equals_the_reference() -> None:
    """The compiled bounds equal the reference's on every look-ahead case and one move on."""
    compiled = make_solver("compiled")
    for pos in AHEAD:
        assert compiled.bounds(pos) == B.value_bounds(pos), str(pos)
        for m in list(pos.legal_moves()):
            pos.push(m)
            child = Position.parse(str(pos))
            pos.pop()
            assert compiled.bounds(child) == B.value_bounds(child), str(child)


@pytest.mark.slow
def test_solvers_agree_with_the_oracle_where_the_look_ahead_applies() -> None:
    """Both solvers give the oracle's value and the same node count on the look-ahead's cases,
    and from the lead before them (the trick's first play taken back)."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in AHEAD[:80]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
