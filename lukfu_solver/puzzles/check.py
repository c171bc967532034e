"""Checking puzzles against the solver: the re-verification of a stored puzzle (``puzzle
check``) and the full solve report of a puzzle or a bare position (``puzzle solve``): the line,
best play after it, and every other first move with its value and refutation.

>>> from lukfu_solver.position import Position
>>> pos = Position.parse("C235/C7M1T3/C8S3T5 1 1 0,5,4 C46S1245678M4689T46789 -")
>>> rep = solve_report(pos, "win")
>>> [str(m) for m in rep.analysis.solution], [(str(a.move), a.value, a.why) for a in rep.alternatives]
(['M1', 'xS3', 'xC2', 'claim'], [('C7', -4, 'the caller loses 4 points: no win'), ('T3', -4, 'the caller loses 4 points: no win')])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..i18n import _
from ..plays import Play
from .goals import check_goal, goal_failure, keeps_goal, pick_goal
from .line import PuzzleAnalysis, SolveContext, analyse, end_of_line, refutation, solver_of

if TYPE_CHECKING:
    from ..position import Position
    from ..search import ExactSolver
    from .format import Puzzle


@dataclass
class CheckResult:
    """The re-verification of one stored puzzle: failures (empty when it passes) and the analysis."""

    puzzle: Puzzle
    failures: list[str]
    analysis: PuzzleAnalysis

    @property
    def ok(self) -> bool:
        """True when the stored puzzle is what the solver finds."""
        return not self.failures


def check(puzzle: Puzzle, solver: str | ExactSolver = "compiled", max_nodes: int | None = None) -> CheckResult:
    """Re-verify a stored puzzle with a fresh solver (``solver``: a kind, or a solver whose table
    is fresh): the line's uniqueness step by step, the value, the first moves' values, the side,
    the rating and tier, and the themes."""
    pos = puzzle.pos()
    an = analyse(pos, puzzle.goal, puzzle.line(), solver=solver, max_nodes=max_nodes)
    failures: list[str] = []
    if not an.ok:
        failures.append(str(an.failure))
    if puzzle.side != an.side:
        failures.append(
            _("side is {side!r}, but the goal {goal} makes it {found!r}").format(
                side=puzzle.side, goal=puzzle.goal, found=an.side
            )
        )
    if an.value is not None and puzzle.value != an.value:
        failures.append(
            _("value is {value:+d} in the file, {found:+d} by the solver").format(value=puzzle.value, found=an.value)
        )
    if an.first_moves:
        found = {str(m): v for m, v in an.first_moves.items()}
        if puzzle.first_moves and puzzle.first_moves != found:
            diff = sorted(k for k in set(found) | set(puzzle.first_moves) if found.get(k) != puzzle.first_moves.get(k))
            failures.append(_("first-move values differ from the solver's for {moves}").format(moves=", ".join(diff)))
    if an.ok and an.rating is not None:
        if puzzle.rating and puzzle.rating != an.rating.to_dict():
            failures.append(
                _("rating {rating} differs from the recomputed {found}").format(
                    rating=puzzle.rating, found=an.rating.to_dict()
                )
            )
        if puzzle.difficulty and puzzle.difficulty != an.rating.tier:
            failures.append(
                _("difficulty is {tier!r}, recomputed {found!r}").format(tier=puzzle.difficulty, found=an.rating.tier)
            )
        if sorted(puzzle.themes) != sorted(an.themes):
            failures.append(
                _("themes {themes} differ from the detected {found}").format(themes=puzzle.themes, found=an.themes)
            )
    return CheckResult(puzzle, failures, an)


# ---------------------------------------------------------------- the solve report


@dataclass
class Alternative:
    """A first move other than the right one: its value, whether it keeps the goal after all,
    why it fails in words, and the best play after it (the refutation)."""

    move: Play
    value: int
    keeps_goal: bool
    why: str
    refutation: list[Play]


@dataclass
class SolveReport:
    """What ``puzzle solve`` reports: the analysis (the line, or why it is not a puzzle), best
    play after the line (the continuation) and every other first move in canonical order."""

    analysis: PuzzleAnalysis
    continuation: list[Play] = field(default_factory=list)
    alternatives: list[Alternative] = field(default_factory=list)


def choose_goal(pos: Position, goal: str | None, solver: str | ExactSolver = "compiled") -> str:
    """``goal`` checked, or when None the goal :func:`~.goals.pick_goal` chooses with a fresh
    solver (its own table, so the report's node count stays that of the report alone)."""
    if goal is not None:
        return check_goal(goal)
    return pick_goal(pos, solver_of(solver))


def solve_report(
    pos: Position, goal: str, puzzle: Puzzle | None = None, solver: str | ExactSolver = "compiled"
) -> SolveReport:
    """The report on ``pos`` with ``goal``: with ``puzzle`` its stored line verified, else the
    line built. One fresh solver answers everything, the analysis first (its nodes counted)."""
    ctx = SolveContext(solver)
    line = puzzle.line() if puzzle is not None else None
    an = analyse(pos, goal, line, context=ctx)
    rep = SolveReport(an)
    end = end_of_line(an)
    if an.steps and not end.is_over:
        rep.continuation = list(ctx.solver.solve(end).pv)
    right = an.steps[0].move if an.steps and an.ok else None
    for m in sorted(an.first_moves, key=Play.sort_key):
        if m == right:
            continue
        v, pv = refutation(ctx.solver, pos, m)
        keeps = an.value is not None and keeps_goal(goal, v, an.value)
        why = "also keeps the goal" if keeps else goal_failure(goal, v, an.value or 0)
        rep.alternatives.append(Alternative(m, v, keeps, why, pv))
    return rep
