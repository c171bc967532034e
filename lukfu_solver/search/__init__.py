"""Exact perfect-information search (M1): the solver protocol and factory, the reference search
and the compiled kernel that mirrors it (the algorithm: ``docs/search.md``)."""

from .protocol import SOLVER_KINDS, ExactSolver, make_solver
from .reference import ProbeSettled, SearchAborted, SolveResult

__all__ = ["SOLVER_KINDS", "ExactSolver", "ProbeSettled", "SearchAborted", "SolveResult", "make_solver"]
