"""The seeded endgames where each bound and look-ahead of the search applies, shared by the tests
of ``search/bounds.py`` (``test_search_bounds.py``), ``search/discards.py``
(``test_search_discards.py``) and the searches with their switches (``test_search_switches.py``).

Each set is built once a process (``functools.cache``); a test that pushes a move on a case pops
it again, so the sets are the same for every test that reads them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from oracle import open_endgames, oracle_ab_once, random_endgame

from lukfu_solver.cards import UNBEATABLE_LEAD
from lukfu_solver.plays import SINGLE
from lukfu_solver.position import Position
from lukfu_solver.search import bounds as B
from lukfu_solver.search import discards as D

# ---------------------------------------------------------------- a lower bound's stop at beta


def stops_at_beta(cases: list[Position], full: Callable[[Position], int], at: Callable[[Position, int], int]) -> int:
    """Check a look-ahead's lower bound with the search's stop (the window's beta) on every case:
    wherever the full bound (``full``, no stop) stays below beta the bound with the stop (``at``)
    is the full one; otherwise it reaches beta without passing the full one or the oracle's
    value. Returns on how many (case, beta) it stopped short of the full bound."""
    stopped_early = 0
    for pos in cases:
        v = oracle_ab_once(pos)
        whole = full(pos)
        for beta in range(-14, 16, 2):
            b = at(pos, beta)
            if whole >= beta:
                assert beta <= b <= whole <= v, (str(pos), beta, b, whole, v)
                stopped_early += b < whole
            else:
                assert b == whole, (str(pos), beta, b, whole)
    return stopped_early


# ---------------------------------------------------------------- the R7 one-trick bound


def r7_applies(pos: Position) -> bool:
    """At a lead, the seat to move a non-caller holding no set and no run (more than one card)."""
    w = pos.to_move
    return not pos.trick and w != pos.caller and pos.hands[w].bit_count() > 1 and not B._has_set_or_run(pos.hands[w])


@cache
def r7_leads() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at a trick boundary where the R7 one-trick bound applies."""
    out = []
    for seed in range(260):
        pos = random_endgame(13_000 + seed, 3 + seed % 3)
        if r7_applies(pos):
            out.append(pos)
    return out


# ---------------------------------------------------------------- the R7 look-ahead


def r7_ahead_calls(pos: Position, monkeypatch: pytest.MonkeyPatch) -> list[int]:
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


@cache
def r7_ahead() -> list[Position]:
    """Seeded endgames of 4-5 cards a hand inside a trick led with a single (one or two plays
    made) whose single-trick playout ends, somewhere, at the lead of a non-caller with no set
    and no run and at least three cards a hand: where the R7 look-ahead applies."""
    out = []
    mp = pytest.MonkeyPatch()
    try:
        for seed in range(130):
            for plays in (1, 2):
                pos = random_endgame(20_000 + seed, 4 + seed % 2, plays=plays)
                if pos.trick[0].kind == SINGLE and r7_ahead_calls(pos, mp):
                    out.append(pos)
    finally:
        mp.undo()
    return out


# ---------------------------------------------------------------- the caller's look-ahead


def caller_beatable(pos: Position) -> int:
    """The caller's singles that a non-caller can beat (the leads the caller's look-ahead plays out)."""
    c = pos.caller
    others = pos.hands[(c + 1) % 3] | pos.hands[(c + 2) % 3]
    return sum(x for x in B._bits(pos.hands[c]) if not x & UNBEATABLE_LEAD and others & B._above_in_suit(x))


@cache
def caller_leads() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at the caller's lead, with a beatable single, whose
    bounds without the look-ahead (``value_bounds`` never calls it: the search does) leave the
    value open: where the caller's look-ahead runs."""
    out = []
    for seed in range(420):
        pos = random_endgame(31_000 + seed, 3 + seed % 3)
        if pos.to_move != pos.caller or not caller_beatable(pos):
            continue
        lo, hi = B.value_bounds(pos)
        if lo < hi:
            out.append(pos)
    return out


# ---------------------------------------------------------------- the coalition's look-ahead


def coalition_runs_here(pos: Position) -> bool:
    """A non-caller's lead where the coalition's look-ahead plays singles out: the leader holds a
    set or a run (without one the R7 one-trick bound of ``value_bounds`` has taken the same minimum)."""
    w = pos.to_move
    return not pos.trick and w != pos.caller and B._has_set_or_run(pos.hands[w])


@cache
def coalition_leads() -> list[Position]:
    """Seeded endgames of 3-5 cards a hand at a non-caller's lead holding a set or a run, whose
    bounds leave the value open: where the coalition's look-ahead runs."""
    return open_endgames(41_000, 6000, lambda i: (3 + i % 3, 0, False), coalition_runs_here)


# ---------------------------------------------------------------- a follower's discards by one bound


def discard_ahead_applies(pos: Position) -> bool:
    """The discard look-ahead gives a bound here (a non-caller's discard in a trick with a certain winner)."""
    return D.discard_ahead_bound(pos, B.INF) > -B.INF


def _discard_shape(i: int) -> tuple[int, int, bool]:
    """Four to seven cards a hand by turns (a set or run led with six and seven), one or two plays
    of the trick made."""
    n, multi = ((4, False), (5, False), (6, True), (7, True))[i % 4]
    return n, 1 + (i // 4) % 2, multi


@cache
def follower_discards() -> list[Position]:
    """Seeded mid-trick endgames at a non-caller's discard in a trick the caller wins, whose bounds
    leave the value open: where the discard look-ahead runs. Four or five cards a hand with any
    lead (a single, in effect: a set or run lead leaves too few cards after the trick), six with a
    set or run led, and the first ten such of seven cards (the oracle takes seconds each there)."""
    return open_endgames(
        47_000,
        3200,
        _discard_shape,
        lambda p: bool(p.trick) and p.to_move != p.caller and discard_ahead_applies(p),
        most_sevens=10,
    )
