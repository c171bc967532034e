"""The caller's own discard chosen in the discard look-ahead (issue 13, eleventh round:
``search.discards.caller_discards_above``) proved on seeded endgames.

Where a non-caller leads a set or a run that nobody can beat, the other non-caller discards and the
caller, last to play, discards too. The tenth round's bound took both discards as unknown (the
least over all of them); this one lets the caller choose: for each discard d of the caller, the
R7 look-ahead at the winner's next lead is played out with the caller's hand less d known and the
other non-caller missing its discards, and the best over d is a lower bound, since the caller can
play d whatever the other discarded (the least over the other's discards of the value after
both). Here the bound is checked against the plain alpha-beta reference of ``tests/oracle.py`` on
every seeded endgame where it applies: never above the value, never below the tenth round's bound,
above it on many, with a stop at beta and a floor as the search passes them; a deliberately
unsound variant (the caller keeping its whole hand, as if it discarded nothing) is caught; the
compiled kernel's ``caller_discards_above`` gives the same bounds; and both searches give the
oracle's values with the same node counts. ``DISCARD_CALLER`` is the switch of both searches
(``docs/search.md``, "The caller's own discard chosen (eleventh round)").
"""

from __future__ import annotations

import pytest
from oracle import open_endgames, oracle_ab_once

from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import bounds as B  # noqa: E402
from lukfu_solver.search import discards as D  # noqa: E402
from lukfu_solver.search import make_solver  # noqa: E402
from lukfu_solver.search import switches as S  # noqa: E402


def _caller_last(pos: Position) -> bool:
    """A non-caller's lead the only play of the trick, the other non-caller to discard or follow,
    the caller last to play."""
    return len(pos.trick) == 1 and pos.to_move != pos.caller and (pos.to_move + 1) % 3 == pos.caller


def _cases() -> list[Position]:
    """Seeded endgames with a set or run just led by a non-caller, the caller last, where the
    bound applies (the lead cannot be beaten, the leader keeps three cards or more and holds no
    set and no run) and the bounds leave the value open: six cards a hand (with five the leader
    keeps too few after a lead of three), and the first twelve of seven (the oracle takes seconds
    each there)."""
    return open_endgames(
        61_000,
        3000,
        lambda i: ((6, 6, 6, 7)[i % 4], 1, True),
        lambda p: _caller_last(p) and D.discard_ahead_bound(p, B.INF) > -B.INF,
        most_sevens=12,
    )


CASES = _cases()


def _old_bound(pos: Position, monkeypatch: pytest.MonkeyPatch) -> int:
    """The tenth round's bound: the caller's discard taken as unknown."""
    with monkeypatch.context() as m:
        m.setattr(S, "DISCARD_CALLER", False)
        return D.discard_ahead_bound(pos, B.INF)


def test_the_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 60, len(CASES)
    assert {p.caller for p in CASES} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CASES} == {6, 7}
    assert len({p.trick[0].kind for p in CASES}) == 2  # sets led, and runs


def test_the_subsets_are_every_discard_lowest_first() -> None:
    """``discard_subsets`` gives every set of k cards of the hand once, each of k cards of the
    hand, all sets of the i lowest cards (by rank, then suit) before any holding the next."""
    from math import comb

    for pos in CASES[:20]:
        hand = pos.hands[pos.caller]
        cards = sorted(B._bits(hand), key=lambda c: ((c.bit_length() - 1) % 9, c))
        for k in range(1, 4):
            subs = D.discard_subsets(hand, k)
            assert len(subs) == len(set(subs)) == comb(len(cards), k)
            assert all(d & ~hand == 0 and d.bit_count() == k for d in subs)
            tops = [max(cards.index(c) for c in B._bits(d)) for d in subs]
            assert tops == sorted(tops)


@pytest.mark.slow
def test_the_bound_is_between_the_old_one_and_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the bound (no stop) is at least the tenth round's (each fixed discard of the
    caller is one of those the old bound took the least over) and at most the oracle's value; it
    is above the old bound on many cases and reaches the value on some."""
    raised = proved = 0
    for pos in CASES:
        text = str(pos)
        v = oracle_ab_once(pos)
        old = _old_bound(pos, monkeypatch)
        b = D.discard_ahead_bound(pos, B.INF)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert old <= b <= v, (text, old, b, v)
        raised += b > old
        proved += b == v > old
    assert raised * 4 >= len(CASES), (raised, len(CASES))
    assert proved >= 5, proved


@pytest.mark.slow
def test_the_stop_and_the_floor() -> None:
    """With the search's stop (beta) the bound reaches beta without passing the full one wherever
    the full one does, and is the full one elsewhere; with a floor it is the full one wherever that
    is above the floor, and at or below the floor otherwise."""
    stopped_early = 0
    for pos in CASES:
        full = D.discard_ahead_bound(pos, B.INF)
        for x in range(-14, 16, 2):
            b = D.discard_ahead_bound(pos, x)
            if full >= x:
                assert x <= b <= full, (str(pos), x, b, full)
                stopped_early += b < full
            else:
                assert b == full, (str(pos), x, b, full)
            f = D.discard_ahead_bound(pos, B.INF, x)
            assert f == full if full > x else f <= x, (str(pos), x, f, full)
    assert stopped_early > 0, stopped_early


def test_an_unsound_variant_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller taken to keep its whole hand (its one "discard" the empty set, so that its high
    cards stay for the next trick) passes the true value on some cases: the cases tell the sound
    bound from this one."""
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(D, "discard_subsets", lambda hand, k: [0])
        for pos in CASES:
            wrong += D.discard_ahead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 3, wrong


@pytest.mark.slow
def test_kernel_bound_equals_the_reference() -> None:
    """The compiled ``discard_ahead_bound`` (its switch a compile-time constant, the reference's
    set alike) equals the reference's on every case for every stop and floor the search can pass."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = CompiledSolver(max_entries=1024)
    for pos in CASES:
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        for stop in (hi0, B.INF, -4, 0, 2, 6):
            for floor in (-B.INF, lo0, -2, 4):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == D.discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)


@pytest.mark.slow
def test_the_searches_with_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search gives the oracle's value with the switch on and off, fewer nodes on
    some cases with it on; the compiled kernel (switched on) gives the same value and node count
    as the reference (each solver new for each case: a solver's history carries over between its
    solves)."""
    fewer = 0
    for pos in CASES:
        with monkeypatch.context() as m:
            m.setattr(S, "DISCARD_CALLER", False)
            off = make_solver("reference").solve(pos)
        on = make_solver("reference").solve(pos)
        fast = make_solver("compiled").solve(pos)
        assert on.value == off.value == fast.value == oracle_ab_once(pos), str(pos)
        assert fast.nodes == on.nodes, str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= 5, fewer
