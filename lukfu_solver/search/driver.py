"""The zero-window driver both exact solvers share: :class:`ZeroWindowDriver`.

A solver only has to answer one kind of question, "is the value at least ``target``?", with a
fail-soft alpha-beta on the window (target - 1, target) (its ``_ab``). The driver narrows the
bounds known without search to the exact value with such tests, as MTD(f) does (or by
bisection), and keeps the caller's :class:`~lukfu_solver.search.result.SolveResult` bounds current
so that a solve stopped early still reports what its finished tests proved
(``docs/search.md``, "The value and the drivers").
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING

from .result import ProbeSettled, SolveResult

if TYPE_CHECKING:
    from ..position import Position

DRIVERS = ("mtdf", "bisect")
"""``mtdf``: test next at the bound the last answer returned; ``bisect``: halve the interval."""


class ZeroWindowDriver(ABC):
    """The drivers and the bookkeeping of a solve, written once for every exact solver.

    A subclass sets ``driver`` (one of :data:`DRIVERS`) and ``_stopped`` (why a limit stopped the
    search, or None), counts ``nodes``, ``tt_probes`` and ``tt_hits``, and provides
    ``solve`` (as :class:`~lukfu_solver.search.protocol.ExactSolver` has it), :meth:`bounds` and
    the zero-window test :meth:`_ab`.
    """

    driver: str
    _stopped: str | None
    _descend: bool = True
    """Whether MTD(f) starts at the upper bound (set by ``solve``: not when a node limit may stop
    the search, see :meth:`_drive`)."""
    nodes: int
    tt_probes: int
    tt_hits: int
    solve: Callable[..., SolveResult]
    """The subclass's solve, with the signature of :meth:`ExactSolver.solve
    <lukfu_solver.search.protocol.ExactSolver.solve>`."""

    @abstractmethod
    def bounds(self, pos: Position) -> tuple[int, int]:
        """The bounds on the value of ``pos`` known without search (lower, upper)."""

    @abstractmethod
    def _ab(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the current position; returns the caller's points."""

    def value(self, pos: Position) -> int:
        """The exact value of ``pos`` (M1)."""
        return self.solve(pos).value  # type: ignore[return-value]

    def _drive(self, lo: int, hi: int, result: SolveResult, guess: int | None = None) -> tuple[int, int]:
        """Narrow [lo, hi] to the exact value with zero-window tests; keeps ``result`` bounds current.

        The first test is "at least ``guess``?" when a guess is given (a caller that expects the
        value near one it knows, such as the previous sample's, warm-starts there; the value
        never depends on it); otherwise ``mtdf`` starts at the upper bound and ``bisect``
        halfway (and ``mtdf`` too under a node limit: see below). Then ``bisect`` keeps halving, while ``mtdf`` tests next at the bound the last
        answer returned (a fail-soft search often returns the value itself: after "below 0, at
        most −2" it asks "at least −2?"), one grid step above it after a success.

        Why from the top: a test that fails ("below t") is proved by one coalition reply to
        every caller move, one that succeeds by one caller move against every reply of both
        non-callers, two seats of three and most of the discards. Descending, every test but
        the last is one that fails; climbing from halfway, every test below the value
        succeeds, and on full deals those cost the most (``docs/search.md``). A solve that a node limit may stop (the
        advice's and analysis' samples) is answered by its proven bounds, which a descent keeps
        one-sided until its last test; there MTD(f) starts halfway as before, so that those
        answers stay what they were (``_descend`` false).
        """
        g = target = None
        first = guess
        while True:
            lo, hi = self._merge_bounds(lo, hi)
            result.lower, result.upper = lo, hi
            if lo >= hi:
                return lo, hi
            if first is not None:
                target = _first_target(first, lo, hi)
                first = None
            elif self.driver == "mtdf" and g is not None and target is not None:
                target = min(max(g + 2 if g >= target else g, lo + 1), hi)
            elif self.driver == "mtdf" and self._descend:
                target = hi  # descend from the top: every test but the last fails (see the docstring)
            else:
                target = _midpoint(lo, hi)
            try:
                g = self._ab(target - 1, target)
            except ProbeSettled:  # another thread's bounds answered this test: start afresh
                g = target = None
                continue
            if g >= target:
                lo = g
            else:
                hi = g

    def _merge_bounds(self, lo: int, hi: int) -> tuple[int, int]:
        """The root bounds [lo, hi] joined with what other searches of the same position proved.

        The hook exists for parallel search: with ``threads=2`` the compiled solver's two
        searches of one root post the bounds their tests prove and take each other's, so a test
        the other thread already answered is never run. A lone search has nothing to join.
        """
        return lo, hi

    def _exact_move(self, lo: int, hi: int, value: int, maximizing: bool) -> int:
        """The exact value of a root move's position (the all-moves pass), its bounds [lo, hi]
        joined with the root's ``value``: no move of the caller is worth more than the value, no
        move of a non-caller less (the value is the best of them), so the first test asks whether
        the move keeps the value; a move that does not fails there with a bound below it.
        Under a node limit (``_descend`` false) the move's own bounds, halfway first, as before."""
        if not self._descend:
            return self._drive(lo, hi, SolveResult(None, lo, hi, None))[0]
        if maximizing:
            hi = min(hi, value)
        else:
            lo = max(lo, value)
        return self._drive(lo, hi, SolveResult(None, lo, hi, None), value)[0]

    def _stopped_early(self, result: SolveResult) -> None:
        """Mark ``result`` unfinished; its lower/upper already hold the tightest bounds the
        finished probes proved (the driver keeps them current), the value when they meet."""
        result.complete = False
        result.stopped = self._stopped
        if result.lower == result.upper:
            result.value = result.lower

    def _with_statistics(self, result: SolveResult, t0: float) -> SolveResult:
        """``result`` with this search's node, probe and hit counts and its time since ``t0``."""
        result.nodes = self.nodes
        result.tt_probes = self.tt_probes
        result.tt_hits = self.tt_hits
        result.ms = (time.perf_counter() - t0) * 1000
        return result


def _first_target(guess: int, lo: int, hi: int) -> int:
    """The first test's target for a warm start at ``guess``: "at least ``guess``?" (``guess``
    rounded up to the even value grid), kept strictly above lo and at most hi so that the test
    always narrows the bounds."""
    target = guess + (guess % 2)
    return min(max(target, lo + 1), hi)


def _midpoint(lo: int, hi: int) -> int:
    """A target strictly above lo and at most hi, halfway, on the even value grid."""
    mid = (lo + hi) // 2
    if mid % 2:
        mid += 1
    if mid <= lo:
        mid = lo + 2 if lo + 2 <= hi else hi
    return mid
