"""The one solver protocol and the one factory: every caller gets its exact solver here.

Two implementations answer the same questions with the same values and node counts: the
compiled solver (:class:`~lukfu_solver.search.compiled.CompiledSolver`, the numba kernel, the default
everywhere) and the pure-Python reference (:class:`~lukfu_solver.search.reference.Solver`,
only when asked: it is the readable specification the kernel is held to, and far slower:
``docs/search.md``, "Figures").

>>> from lukfu_solver.position import Position
>>> pos = Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -")
>>> make_solver("reference").solve(pos).value
4
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from .driver import DRIVERS

if TYPE_CHECKING:
    from ..position import Position
    from .result import SolveResult

SolverKind = Literal["compiled", "reference", "auto"]
SOLVER_KINDS: tuple[str, ...] = ("compiled", "reference", "auto")
"""``compiled``: the numba kernel; ``reference``: the pure-Python search; ``auto``: the compiled
one when numba imports, else the reference."""


class ExactSolver(Protocol):
    """What every exact solver offers: a solve (value or proved bounds within limits), the
    exact value, the bounds known without search, and the nodes of the last solve.

    Both solvers implement it by subclassing :class:`~lukfu_solver.search.driver.ZeroWindowDriver`.
    """

    nodes: int

    def solve(
        self,
        pos: Position,
        all_moves: bool = False,
        max_nodes: int | None = None,
        time_limit: float | None = None,
        guess: int | None = None,
    ) -> SolveResult:
        """The value of ``pos`` (or the bounds proved when ``max_nodes`` or ``time_limit`` stop it),
        its best move and principal variation, and with ``all_moves`` every root move's value.
        ``guess``: an expected value; the first zero-window test asks "at least ``guess``?"
        instead of testing halfway (a warm start, e.g. from the previous sample's value). The
        value never depends on it; with None the solve is exactly as without."""
        ...

    def value(self, pos: Position) -> int: ...

    def bounds(self, pos: Position) -> tuple[int, int]: ...


def make_solver(
    kind: str = "compiled",
    *,
    threads: int = 1,
    max_entries: int | None = None,
    driver: str = "mtdf",
) -> ExactSolver:
    """A fresh exact solver of ``kind`` (see :data:`SOLVER_KINDS`) on ``threads`` threads (1 or
    2, compiled only) with a table of up to ``max_entries`` entries (None: the default), driven
    by ``driver`` (:data:`~lukfu_solver.search.driver.DRIVERS`; the benchmarks compare them)."""
    if kind not in SOLVER_KINDS:
        raise ValueError(f"solver kind must be one of {', '.join(SOLVER_KINDS)}, got {kind!r}")
    if threads not in (1, 2):
        raise ValueError(f"threads must be 1 or 2, got {threads}")
    if driver not in DRIVERS:
        raise ValueError(f"driver must be one of {', '.join(DRIVERS)}, got {driver!r}")
    if kind == "auto":
        try:
            from . import compiled  # noqa: F401  (imports numba)
        except ImportError:  # pragma: no cover - numba is a dependency; this guards odd installs
            kind = "reference"
        else:
            kind = "compiled"
    sized = {} if max_entries is None else {"max_entries": max_entries}
    if kind == "reference":
        if threads != 1:
            raise ValueError("the reference solver runs on one thread")
        from .reference import Solver

        return Solver(driver=driver, **sized)
    from .compiled import CompiledSolver

    return CompiledSolver(driver=driver, threads=threads, **sized)
