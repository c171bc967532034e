"""Shared cases and checks of the exact solver's tests (``test_search*.py``): the seeded endgame
sets with their reference values (computed once a process), the value checks, and a guard that
fails a solve running far past any sensible time instead of hanging the suite."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from oracle import endgame_mix, multi_lead_endgames, oracle_ab, oracle_value, random_endgame

from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.search import Solver

MIX_SIZE = 1000


@cache
def mix() -> tuple[tuple[str, int], ...]:
    """1,000 seeded endgames with 1–4 cards a hand, a third each at a trick boundary, after the
    lead and after two plays, with their plain-minimax values."""
    return tuple((str(p), oracle_value(p)) for p in endgame_mix(MIX_SIZE, (1, 2, 3, 4), seed0=10_000))


@cache
def mix5() -> tuple[tuple[str, int], ...]:
    """60 seeded endgames with 5 cards a hand (all trick phases), valued by the alpha-beta reference."""
    return tuple((str(p), oracle_ab(p)) for p in endgame_mix(60, (5,), seed0=50_000))


@cache
def multi_lead() -> tuple[tuple[str, int], ...]:
    """120 mid-trick endgames (4–6 cards a hand) whose trick was led with a set or a run, which
    random leads seldom give; valued by the alpha-beta reference."""
    return tuple((str(p), oracle_ab(p)) for p in multi_lead_endgames(120, (4, 5, 6), seed0=40_000))


def P(text: str) -> Play:
    return Play.parse(text)


def check_value(v: int | None, where: str) -> None:
    """RULES.md R16–R17: every payment to or from the caller is even, at most 2 × (12 − 5)."""
    assert isinstance(v, int), f"{where}: value {v!r} is not an int"
    assert v % 2 == 0 and -14 <= v <= 14, f"{where}: value {v} is not even within [-14, 14]"


def disagreements(pairs, solve) -> list[str]:
    out = []
    for line, want in pairs:
        got = solve(Position.parse(line))
        if got != want:
            out.append(f"{line!r}: solver {got}, reference {want}")
    return out



class LimitIgnored(Exception):
    """Raised by :func:`guard` when a limited solve runs far past its limit."""


@contextmanager
def guard(seconds: float) -> Iterator[None]:
    """Fail instead of hanging if a solve runs far past any sensible time (a limit ignored, a
    driver that never settles): an interval timer raises :class:`LimitIgnored` inside the
    search. Nests: the enclosing guard's timer is restored afterwards."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise LimitIgnored(f"a solve was still running after {seconds} s")

    start = time.monotonic()
    old_handler = signal.signal(signal.SIGALRM, stop)
    old_left, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_left:
            signal.setitimer(signal.ITIMER_REAL, max(old_left - (time.monotonic() - start), 0.001))


@cache
def limit_positions() -> tuple[tuple[str, int], ...]:
    """6- and 7-card positions with their exact values (by a fresh, unlimited solve)."""
    out = []
    for i in range(8):
        p = random_endgame(80_000 + i, 6 + i % 2, i % 3)
        out.append((str(p), Solver().solve(p).value))
    return tuple(out)
