"""Exact perfect-information search (M1): the solver protocol and factory, the reference search
and the compiled kernel that mirrors it (the algorithm: ``docs/search.md``).

Callers get a solver from :func:`make_solver` (the compiled one unless asked otherwise) and use
it through :class:`ExactSolver`: ``solve``, ``value``, ``bounds``, ``nodes``. The modules, by job:

- :mod:`.protocol`: :class:`ExactSolver` and :func:`make_solver`;
- :mod:`.result`: :class:`SolveResult`, :class:`SearchAborted`, :class:`ProbeSettled`, the value range;
- :mod:`.driver`: :class:`~.driver.ZeroWindowDriver`, the MTD(f)/bisection drivers both solvers share;
- :mod:`.bounds`: :func:`value_bounds`, :func:`reach`, :func:`sure_claim`, :func:`trick_claim`;
- :mod:`.discards`: :func:`~.discards.discard_ahead_bound`, the look-ahead over a follower's discards;
- :mod:`.reductions`: :func:`equivalence_classes`, :func:`reduced_moves`;
- :mod:`.switches`: every technique's switch, read by both searches;
- :mod:`.table_key`: the table's keys, :func:`tt_key` (the canonical form) and ``last_key``;
- :mod:`.reference`: the pure-Python alpha-beta :class:`~.reference.Solver`,
  :func:`plain_alphabeta`, :func:`iter_pv_positions`;
- :mod:`.kernel` (a package, imports numba) and :mod:`.compiled`: the compiled search and
  :class:`~.compiled.CompiledSolver`, imported only when a compiled solver is made.
"""

from typing import Any

from .driver import ZeroWindowDriver
from .protocol import SOLVER_KINDS, ExactSolver, make_solver
from .result import INF, MAX_VALUE, MIN_VALUE, ProbeSettled, SearchAborted, SolveResult

_LAZY = {
    "reach": "bounds",
    "sure_claim": "bounds",
    "trick_claim": "bounds",
    "value_bounds": "bounds",
    "equivalence_classes": "reductions",
    "reduced_moves": "reductions",
    "Solver": "reference",
    "iter_pv_positions": "reference",
    "plain_alphabeta": "reference",
    "tt_key": "table_key",
}
"""Names loaded on first use, so that importing the face (as the command line does at start-up)
loads only the protocol, the factory and the result types, not the search itself."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "INF",
    "MAX_VALUE",
    "MIN_VALUE",
    "SOLVER_KINDS",
    "ExactSolver",
    "ProbeSettled",
    "SearchAborted",
    "SolveResult",
    "Solver",
    "ZeroWindowDriver",
    "equivalence_classes",
    "iter_pv_positions",
    "make_solver",
    "plain_alphabeta",
    "reach",
    "reduced_moves",
    "sure_claim",
    "trick_claim",
    "tt_key",
    "value_bounds",
]
