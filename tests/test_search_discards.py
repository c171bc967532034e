"""The discard look-ahead of ``search/discards.py`` proved on seeded endgames against the plain
alpha-beta reference of ``tests/oracle.py``, and the compiled kernel's equal to it.

- **A follower's discards by one bound** (``discard_ahead_bound``, switch ``DISCARD_AHEAD``). At a
  non-caller's discard in a trick whose winner is certain (nobody still to play can beat its
  play), the search would visit every discard of the seats still to play, and in a successful
  test each child, the winner's next lead, is mostly decided at once by its bounds or the
  caller's look-ahead. The bound plays the winner's look-ahead out once for all discards (the
  caller's best single's trick, or a non-caller's R7 moves): each seat still to play holds its
  hand less as many unknown cards as were led, its choices are all that some discard allows, and
  a lead of its own is bounded by reach alone (its Old cards and its R7 singles are not known: a
  card discarded face down takes Old from the cards below it, R12). It must never pass the true
  value, with a stop at beta or a floor or without; it is shown to cut, and to catch a
  deliberately unsound variant (the seats still to play taken to hold exactly their hands, so
  that their own Old cards and R7 singles count as known and they never discard a higher card).
- **The caller's own discard chosen** (``caller_discards_above``, ``DISCARD_CALLER``). Where a
  non-caller leads a set or a run that nobody can beat, the other non-caller discards and the
  caller, last to play, discards too. With the switch off both discards are unknown (the least
  over all of them); with it on the caller chooses: for each discard d of the caller, the R7
  look-ahead at the winner's next lead is played out with the caller's hand less d known and the
  other non-caller missing its discards, and the best over d is a lower bound, since the caller
  can play d whatever the other discarded. It must lie between the bound with the discard
  unknown and the value, above the former on many cases; a caller keeping its whole hand is
  caught.
- **Where the search leaves the bound out**: in a trick led with a single that a non-caller is
  certain to win, the bound is the winner's R7 look-ahead with the seats still to play missing
  one card each, which is what ``value_bounds``' single-trick playout already gives at its only
  end (everybody still to play discards; a discarding seat keeps its whole hand there, one card
  unknown). So the bound never passes the node's lower bound there and both searches skip the
  call, the tree unchanged (``tests/test_node_counts.py`` holds the counts); the same skip for a
  set or run led, or for a trick the caller wins, would lose cuts, and the cases show it.

The searches with ``DISCARD_AHEAD`` on and off, and both solvers against the oracle where the
bound applies: ``tests/test_search_switches.py`` (``docs/search.md``, "The bounds").
"""

from __future__ import annotations

import bound_cases
import pytest
from bound_cases import stops_at_beta
from oracle import open_endgames, oracle_ab_once, random_endgame

from lukfu_solver.plays import SINGLE
from lukfu_solver.position import Position
from lukfu_solver.search import bounds as B
from lukfu_solver.search import discards as D
from lukfu_solver.search import make_solver
from lukfu_solver.search import switches as S

# ---------------------------------------------------------------- a follower's discards by one bound

DISCARDS = bound_cases.follower_discards()


def test_the_discard_cases_are_many_and_varied() -> None:
    assert len(DISCARDS) >= 250, len(DISCARDS)
    assert {p.caller for p in DISCARDS} == {0, 1, 2}
    assert {p.cards_per_hand() for p in DISCARDS} == {4, 5, 6, 7}
    assert {p.trick[0].size for p in DISCARDS} >= {1, 3}
    assert {len(p.trick) for p in DISCARDS} == {1, 2}  # the first follower's discards and the second's
    assert {p.best_seat == p.caller for p in DISCARDS} == {True, False}  # the caller wins, or a non-caller


@pytest.mark.slow
def test_the_discard_look_ahead_never_passes_the_value_and_cuts() -> None:
    """On every case the bound (no stop) stays at or below the oracle's value, the least over every
    discard of the seats still to play; it raises the lower bound on many cases, and on some up to
    the value itself, so that the test "at least the value?" needs no search there."""
    raised = proved = 0
    for pos in DISCARDS:
        text = str(pos)
        v = oracle_ab_once(pos)
        lo0, hi0 = B.value_bounds(pos)
        b = D.discard_ahead_bound(pos, B.INF)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert b <= v, (text, v, b)
        raised += b > lo0
        proved += b == v > lo0
    assert raised * 15 >= len(DISCARDS), (raised, len(DISCARDS))
    assert proved >= 15, proved


@pytest.mark.slow
def test_the_discard_look_ahead_stops_at_beta() -> None:
    """With the search's stop (the window's beta) the bound is the full one wherever that stays
    below beta, and otherwise reaches beta without passing the value."""
    assert stops_at_beta(DISCARDS, lambda pos: D.discard_ahead_bound(pos, B.INF), D.discard_ahead_bound) > 0


@pytest.mark.slow
def test_the_discard_look_ahead_gives_up_below_the_floor() -> None:
    """With a floor (the search passes the node's lower bound) the bound is the full one wherever
    that is above the floor, and at or below the floor otherwise: the singles and choices given up
    early never change a bound the search uses."""
    gave_up = 0
    for pos in DISCARDS:
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
def test_an_unsound_discard_look_ahead_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seats still to play taken to hold exactly their hands (nothing missing: their higher
    cards always kept, their own Old cards and R7 singles as if the discard changed nothing, their
    leads looked ahead) pass the true value on some cases: the cases tell the sound bound from this
    one."""
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(B, "_missing", lambda unsure, seat: 0)
        for pos in DISCARDS:
            wrong += D.discard_ahead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 5, wrong


def _rows() -> list[Position]:
    """The cases, and mid-trick positions of every kind where the bound does not apply."""
    others = [random_endgame(53_000 + i, 3 + i % 5, 1 + i % 2, multi=i % 4 == 3) for i in range(40) if i % 4 != 3]
    return DISCARDS + [p for p in others if p.trick]


@pytest.mark.slow
def test_kernel_discard_look_ahead_equals_the_reference() -> None:
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


# ---------------------------------------------------------------- the caller's own discard chosen


def _caller_last(pos: Position) -> bool:
    """A non-caller's lead the only play of the trick, the other non-caller to discard or follow,
    the caller last to play."""
    return len(pos.trick) == 1 and pos.to_move != pos.caller and (pos.to_move + 1) % 3 == pos.caller


def _caller_last_cases() -> list[Position]:
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


CALLER_LAST = _caller_last_cases()


def _unknown_discard_bound(pos: Position, monkeypatch: pytest.MonkeyPatch) -> int:
    """The bound with the switch off: the caller's discard taken as unknown."""
    with monkeypatch.context() as m:
        m.setattr(S, "DISCARD_CALLER", False)
        return D.discard_ahead_bound(pos, B.INF)


def test_the_caller_last_cases_are_many_and_varied() -> None:
    assert len(CALLER_LAST) >= 60, len(CALLER_LAST)
    assert {p.caller for p in CALLER_LAST} == {0, 1, 2}
    assert {p.cards_per_hand() for p in CALLER_LAST} == {6, 7}
    assert len({p.trick[0].kind for p in CALLER_LAST}) == 2  # sets led, and runs


def test_the_subsets_are_every_discard_lowest_first() -> None:
    """``discard_subsets`` gives every set of k cards of the hand once, each of k cards of the
    hand, all sets of the i lowest cards (by rank, then suit) before any holding the next."""
    from math import comb

    for pos in CALLER_LAST[:20]:
        hand = pos.hands[pos.caller]
        cards = sorted(B._bits(hand), key=lambda c: ((c.bit_length() - 1) % 9, c))
        for k in range(1, 4):
            subs = D.discard_subsets(hand, k)
            assert len(subs) == len(set(subs)) == comb(len(cards), k)
            assert all(d & ~hand == 0 and d.bit_count() == k for d in subs)
            tops = [max(cards.index(c) for c in B._bits(d)) for d in subs]
            assert tops == sorted(tops)


@pytest.mark.slow
def test_the_callers_choice_is_between_the_unknown_discard_and_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """On every case the bound (no stop) is at least the one with the caller's discard unknown
    (each fixed discard of the caller is one of those that bound takes the least over) and at
    most the oracle's value; it is above the unknown discard's bound on many cases and reaches the
    value on some."""
    raised = proved = 0
    for pos in CALLER_LAST:
        text = str(pos)
        v = oracle_ab_once(pos)
        unknown = _unknown_discard_bound(pos, monkeypatch)
        b = D.discard_ahead_bound(pos, B.INF)
        assert str(pos) == text  # the bound leaves the position as it found it
        assert unknown <= b <= v, (text, unknown, b, v)
        raised += b > unknown
        proved += b == v > unknown
    assert raised * 4 >= len(CALLER_LAST), (raised, len(CALLER_LAST))
    assert proved >= 5, proved


@pytest.mark.slow
def test_the_callers_choice_with_a_stop_and_a_floor() -> None:
    """With the search's stop (beta) the bound reaches beta without passing the full one wherever
    the full one does, and is the full one elsewhere; with a floor it is the full one wherever that
    is above the floor, and at or below the floor otherwise."""
    stopped_early = 0
    for pos in CALLER_LAST:
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


def test_a_caller_keeping_its_whole_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller taken to keep its whole hand (its one "discard" the empty set, so that its high
    cards stay for the next trick) passes the true value on some cases: the cases tell the sound
    bound from this one."""
    wrong = 0
    with monkeypatch.context() as m:
        m.setattr(D, "discard_subsets", lambda hand, k: [0])
        for pos in CALLER_LAST:
            wrong += D.discard_ahead_bound(pos, B.INF) > oracle_ab_once(pos)
    assert wrong >= 3, wrong


@pytest.mark.slow
def test_kernel_callers_choice_equals_the_reference() -> None:
    """The compiled ``discard_ahead_bound`` (its switch a compile-time constant, the reference's
    set alike) equals the reference's on every case for every stop and floor the search can pass."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = CompiledSolver(max_entries=1024)
    for pos in CALLER_LAST:
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        for stop in (hi0, B.INF, -4, 0, 2, 6):
            for floor in (-B.INF, lo0, -2, 4):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == D.discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)


@pytest.mark.slow
def test_the_searches_with_the_discard_caller_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search gives the oracle's value with the switch on and off, fewer nodes on
    some cases with it on; the compiled kernel (switched on) gives the same value and node count
    as the reference (each solver new for each case: a solver's history carries over between its
    solves)."""
    fewer = 0
    for pos in CALLER_LAST:
        with monkeypatch.context() as m:
            m.setattr(S, "DISCARD_CALLER", False)
            off = make_solver("reference").solve(pos)
        on = make_solver("reference").solve(pos)
        fast = make_solver("compiled").solve(pos)
        assert on.value == off.value == fast.value == oracle_ab_once(pos), str(pos)
        assert fast.nodes == on.nodes, str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= 5, fewer


# ---------------------------------------------------------------- where the search leaves the bound out


def _skip_cases() -> list[Position]:
    """Seeded mid-trick positions of 4 to 8 cards a hand at a non-caller's discard where the bound
    applies (a certain winner), singles and sets or runs led, either follower."""
    out = []
    for seed in range(4000):
        n = 4 + seed % 5
        try:
            pos = random_endgame(61_000 + seed, n, 1 + (seed // 5) % 2, multi=seed % 3 == 0)
        except LookupError:
            continue
        if pos.trick and pos.to_move != pos.caller and D.discard_ahead_bound(pos, B.INF) > -B.INF:
            out.append(pos)
    return out


SKIP = _skip_cases()


def _kind(pos: Position) -> tuple[bool, bool]:
    return pos.trick[0].kind == SINGLE, pos.best_seat == pos.caller


def test_the_skip_cases_are_many_and_varied() -> None:
    kinds = [_kind(p) for p in SKIP]
    for k in ((True, False), (True, True), (False, False), (False, True)):
        assert kinds.count(k) >= 20, (k, kinds.count(k))
    assert {len(p.trick) for p in SKIP} == {1, 2}


def test_a_non_callers_single_trick_adds_nothing() -> None:
    """In a trick led with a single that a non-caller wins, the bound (no stop, no floor) never
    passes value_bounds' lower bound: the search's call there could neither cut nor raise."""
    n = 0
    for pos in SKIP:
        if _kind(pos) == (True, False):
            assert D.discard_ahead_bound(pos, B.INF) <= B.value_bounds(pos)[0], str(pos)
            n += 1
    assert n >= 20, n


def test_elsewhere_it_raises_the_lower_bound() -> None:
    """A wider skip is caught: with a set or run led (a non-caller winning), and in a single's trick
    the caller wins, the bound passes value_bounds' lower bound on some cases."""
    raised: dict[tuple[bool, bool], int] = {}
    for pos in SKIP:
        k = _kind(pos)
        raised[k] = raised.get(k, 0) + (D.discard_ahead_bound(pos, B.INF) > B.value_bounds(pos)[0])
    assert raised.get((False, False), 0) > 0, raised
    assert raised.get((True, True), 0) > 0, raised


@pytest.mark.slow
def test_kernel_bound_equals_the_reference_on_every_kind() -> None:
    """The compiled bound (its R7 look-ahead at an end given up at the end's reach and the floor,
    and played out for its lower bound alone) equals the reference's on every case, for the stops
    and floors the search can pass."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import discards as KD

    solver = CompiledSolver(max_entries=1024)
    for pos in SKIP[::2]:
        lo0, hi0 = B.value_bounds(pos)
        load_row(solver.st, 0, pos)
        for stop in (hi0, B.INF, 0, 4):
            for floor in (-B.INF, lo0, -2, 2):
                got = KD.discard_ahead_bound(solver.T, solver.st, 0, stop, floor)
                assert got == D.discard_ahead_bound(pos, stop, floor), (str(pos), stop, floor)


def test_the_lower_bound_alone_of_the_r7_trick() -> None:
    """``discards.ahead_first_lo`` is ``bounds.ahead_first``'s lower bound, for every single of a
    leader's hand and every way the others may be missing cards, on seeded positions at a lead."""
    from lukfu_solver.search.compiled import CompiledSolver, load_row
    from lukfu_solver.search.kernel import bounds as KB
    from lukfu_solver.search.kernel import discards as KD
    from lukfu_solver.search.kernel.layout import F_FACEUP, F_FU0, F_H0

    solver = CompiledSolver(max_entries=1024)
    checked = 0
    for seed in range(300):
        pos = random_endgame(67_000 + seed, 4 + seed % 5)
        load_row(solver.st, 0, pos)
        r = solver.st[0]
        m, f, up = [int(r[F_H0 + s]) for s in range(3)], [int(r[F_FU0 + s]) for s in range(3)], int(r[F_FACEUP])
        w = pos.to_move
        left = pos.cards_per_hand()
        for c in (1 << i for i in range(64) if m[w] >> i & 1):
            n = [h & ~c if s == w else h for s, h in enumerate(m)]
            for unsure in (
                0,
                1 << 4 * ((w + 1) % 3),
                1 << 4 * ((w + 2) % 3),
                2 << 4 * ((w + 1) % 3) | 1 << 4 * ((w + 2) % 3),
            ):
                args = (solver.T, pos.caller, w, c, *n, *f, up | c, left - 1, unsure)
                assert KD.ahead_first_lo(*args) == KB.ahead_first(*args)[0], (str(pos), c, unsure)
                checked += 1
    assert checked >= 1000, checked


def _pretest_cases() -> list[tuple]:
    """Each caller's single of the cases the caller wins, as ``kernel.discards.discard_ahead_bound``
    plays it out: (caller, c, up, hands after c, fu, left, unsure)."""
    from lukfu_solver.cards import UNBEATABLE_LEAD

    out = []
    for pos in SKIP:
        if pos.best_seat != pos.caller:
            continue
        caller = pos.caller
        rest, _ = B._still_to_play(pos)
        unsure = sum(pos.trick[0].size << 4 * s for s in rest)
        fu = list(pos.fu)
        fu[caller] += pos.best.size
        up = pos.faceup | pos.trick_faceup
        hand = pos.hands[caller]
        others = pos.hands[(caller + 1) % 3] | pos.hands[(caller + 2) % 3]
        for c in B._bits(hand):
            if c & UNBEATABLE_LEAD or not others & B._above_in_suit(c):
                continue
            rem = B._with(list(pos.hands), caller, hand & ~c)
            out.append((caller, c, up | c, rem, fu, hand.bit_count() - 1, unsure))
    return out


def _given_up(case: tuple, fl: int, exact: bool = True) -> bool:
    """The kernel's test before a single's playout (``discard_ahead_bound``), in Python; with
    ``exact`` False, a wrong variant that forgets to check that the follower can win the trick."""
    caller, c, _, rem, fu, left, unsure = case
    s1, s2 = (caller + 1) % 3, (caller + 2) % 3
    u1, u2 = unsure >> 4 * s1 & 15, unsure >> 4 * s2 & 15
    g = [B._reach_bounds([fu[x] + left + (x == s) for x in range(3)], caller)[0] for s in range(3)]
    h1, h2 = rem[s1], rem[s2]
    x1 = h1 & B._above_in_suit(c)
    if u2 and g[s2] <= fl:
        if not exact:
            return True
        if x1.bit_count() <= u1 and h2 & B._above_in_suit(c):
            return True
        if x1 and h2 & B._above_in_suit(x1 & -x1):
            return True
    if u1 and g[s1] <= fl and (x1 or not exact):
        if not exact:
            return True
        return (h2 & B._above_in_suit(1 << x1.bit_length() - 1)).bit_count() <= u2
    return False


@pytest.mark.slow
def test_the_test_before_a_singles_playout() -> None:
    """Where the kernel gives a caller's single up before its playout, the reference's playout
    (``discards._disc_play``) is at or below the floor too, for every floor; it gives up many; the
    wrong variant (a reachable end not checked) gives up singles whose playout is above the floor."""
    fired = wrong = 0
    for case in _pretest_cases():
        caller, c, up, rem, fu, left, unsure = case
        for fl in range(-12, 13, 2):
            v = D._disc_play(caller, 1, c, caller, True, up, rem, fu, left, unsure, fl)
            if _given_up(case, fl):
                assert v == -B.INF, (case, fl, v)
                fired += 1
            elif _given_up(case, fl, exact=False):
                wrong += v > -B.INF
    assert fired >= 200, fired
    assert wrong >= 5, wrong
