"""The next leader's look-ahead for a follower's discards (issue 13, tenth round:
``search.discards.discard_ahead_bound``) proved on seeded endgames.

At a non-caller's discard in a trick whose winner is certain (nobody still to play can beat its
play), the search would visit every discard of the seats still to play, and in a successful test
each child, the winner's next lead, is mostly decided at once by its bounds or the caller's
look-ahead (``_caller_lead_bound``). The bound plays the winner's look-ahead out once for all
discards (the caller's best single's trick, or a non-caller's R7 moves): each seat still to play
holds its hand less as many unknown cards as were led, its choices are all that some discard
allows, and a lead of its own is bounded by reach alone (its Old cards and its R7 singles are not
known: a card discarded face down takes Old from the cards below it, R12). Here the bound
is checked against the plain alpha-beta reference of ``tests/oracle.py`` on every seeded endgame
where it applies (it must never pass the true value, with a stop at beta or without), shown to cut,
shown to catch a deliberately unsound variant (the seats still to play taken to hold exactly their
hands, so that their own Old cards and R7 singles count as known and they never discard a higher
card), the compiled kernel's ``discard_ahead_bound`` must give the same bounds, and both searches
with the switch on must give the oracle's values with the same node counts. ``DISCARD_AHEAD`` is
the switch of both searches (``docs/search.md``, "A follower's discards by one bound (tenth
round)").
"""

from __future__ import annotations

import pytest
from oracle import open_endgames, oracle_ab_once, random_endgame

from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import discards as D  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402
from lukfu_solver.search import switches as S  # noqa: E402


def _applies(pos: Position) -> bool:
    return D.discard_ahead_bound(pos, B.INF) > -B.INF


def _shape(i: int) -> tuple[int, int, bool]:
    """Four to seven cards a hand by turns (a set or run led with six and seven), one or two plays
    of the trick made."""
    n, multi = ((4, False), (5, False), (6, True), (7, True))[i % 4]
    return n, 1 + (i // 4) % 2, multi


def _cases() -> list[Position]:
    """Seeded mid-trick endgames at a non-caller's discard in a trick the caller wins, whose bounds
    leave the value open: where the bound runs. Four or five cards a hand with any lead (a single,
    in effect: a set or run lead leaves too few cards after the trick), six with a set or run led,
    and the first ten such of seven cards (the oracle takes seconds each there)."""
    return open_endgames(
        47_000, 3200, _shape, lambda p: bool(p.trick) and p.to_move != p.caller and _applies(p), most_sevens=10
    )


CASES = _cases()


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 250, len(CASES)
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CASES} == {4, 5, 6, 7}
    assert {p.trick[0].size for p in CASES} >= {1, 3}
    assert {len(p.trick) for p in CASES} == {1, 2}  # the first follower's discards and the second's
    assert {p.best_seat == p.caller for p in CASES} == {True, False}  # the caller wins, or a non-caller


@pytest.mark.slow
def test_the_bound_never_passes_the_value_and_cuts() -> None:
    """On every case the bound (no stop) stays at or below the oracle's value, the least over every
    discard of the seats still to play; it raises the lower bound on many cases, and on some up to
    the value itself, so that the test "at least the value?" needs no search there."""
    raised = proved = 0
    for pos in CASES:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = B.value_bounds(pos)
        b = D.discard_ahead_bound(pos, B.INF)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert b <= v, (text, v, b)
        raised += b > lo0
        proved += b == v > lo0
    assert raised * 15 >= len(CASES), (raised, len(CASES))
    assert proved >= 15, proved


@pytest.mark.slow
def test_the_stop_at_beta() -> None:
    """With the search's stop (the window's beta) the bound is the full one wherever that stays
    below beta, and otherwise reaches beta without passing the value."""
    stopped_early = 0
    for pos in CASES:
        v = oracle_ab_once(pos)
        full = D.discard_ahead_bound(pos, B.INF)
        for beta in range(-14, 16, 2):
            b = D.discard_ahead_bound(pos, beta)
            if full >= beta:
                assert beta <= b <= full <= v, (str(pos), beta, b, full, v)
                stopped_early += b < full
            else:
                assert b == full, (str(pos), beta, b, full)
    assert stopped_early > 0, stopped_early


@pytest.mark.slow
def test_the_floor() -> None:
    """With a floor (the search passes the node's lower bound) the bound is the full one wherever
    that is above the floor, and at or below the floor otherwise: the singles and choices given up
    early never change a bound the search uses."""
    gave_up = 0
    for pos in CASES:
        full = D.discard_ahead_bound(pos, B.INF)
        for floor in range(-14, 16, 2):
            b = D.discard_ahead_bound(pos, B.INF, floor)
            if full > floor:
                assert b == full, (str(pos), floor, b, full)
            else:
                assert b <= floor, (str(pos), floor, b, full)
                gave_up += b < full
    assert gave_up > 0, gave_up


@pytest.mark.slow
def test_an_unsound_variant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seats still to play taken to hold exactly their hands (nothing missing: their higher
    cards always kept, their own Old cards and R7 singles as if the discard changed nothing, their
    leads looked ahead) pass the true value on some cases: the cases tell the sound bound from this
    one."""
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_missing", lambda unsure, seat: 0)
        for pos in CASES:
            wrong += D.discard_ahead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 5, wrong


def _rows() -> list[Position]:
    """The cases, and mid-trick positions of every kind where the bound does not apply."""
    others = [random_endgame(53_000 + i, 3 + i % 5, 1 + i % 2, multi=i % 4 == 3) for i in range(40) if i % 4 != 3]
    return CASES + [p for p in others if p.trick]


@pytest.mark.slow
def test_kernel_bound_equals_the_reference() -> None:
    """The compiled ``discard_ahead_bound`` (called directly: the switch is a compile-time
    constant, and the reference's is set alike) equals the reference's on every case and on
    positions where it does not apply, for every stop and floor the search can pass, and leaves
    the position's own row as it found it."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = CompiledSolver(max_entries=1024)
    for pos in _rows():
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        row = solver.st[0].copy()
        for stop in (hi0, B.INF, -4, 0, 2, 6):
            for floor in (-B.INF, lo0, -2, 4):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == D.discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)
        assert (solver.st[0] == row).all(), str(pos)


@pytest.mark.slow
def test_the_reference_search_with_the_switch_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search with the bound at its call point (after the table probe, with beta)
    gives the oracle's value on the cases, and, on some, searches fewer nodes than with it off."""
    fewer = 0
    for pos in CASES:
        with monkeypatch.context() as m:
            m.setattr(S, "DISCARD_AHEAD", True)
            on = make_solver("reference").solve(pos)
        with monkeypatch.context() as m:
            m.setattr(S, "DISCARD_AHEAD", False)
            off = make_solver("reference").solve(pos)
        assert on.value == off.value == oracle_ab_once(pos), str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= 20, fewer


@pytest.mark.slow
def test_solvers_agree_with_the_oracle_where_the_bound_applies() -> None:
    """Both solvers, as switched, give the oracle's value and the same node count on the cases."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in CASES:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab_once(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
