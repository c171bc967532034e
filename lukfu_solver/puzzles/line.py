"""The solution line of a puzzle: one solver answering every question of a walk, the walk that
builds a line (or verifies a given one) step by step, and the refutation of a wrong move
(``docs/puzzles.md``).

**The line** starts at the position and alternates: at a *decision* (the solving side to move
with two or more legal moves) exactly one legal move keeps the goal — literally one, no classes
of equivalent moves — and it is the line's move; a solving-side move with no alternative is
*forced*; at a *defence* step the defence plays a move of best exact value (any tied move is
accepted; the line continues from the strongest, the one the greedy look-ahead likes best, then
the first in canonical move order). The line ends at its last decision: it stops where the
solving side first has two or more ways to keep the goal, or the deal ends, and trailing forced
and defence moves are trimmed. A puzzle needs at least two decisions, a first move that is a
decision (every other first move is strictly worse for the goal) and no claim available at the
start.

>>> from lukfu_solver.position import Position
>>> pos = Position.parse("C235/C7M1T3/C8S3T5 1 1 0,5,4 C46S1245678M4689T46789 -")
>>> an = analyse(pos, "win")
>>> an.ok, an.value, [str(m) for m in an.solution], [st.role for st in an.steps]
(True, 2, ['M1', 'xS3', 'xC2', 'claim'], ['solve', 'defend', 'defend', 'solve'])
>>> an.themes, an.rating.tier
(['claim timing'], 'easy')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..i18n import _, ngettext
from ..plays import DISCARD, Play
from ..position import Position
from ..search import make_solver
from .goals import DEFEND, FORCED, MIN_DECISIONS, SOLVE, PuzzleError, check_goal, goal_text, keeps_goal, solving_side
from .rating import detect_themes, greedy_scores, rate
from .solution import PuzzleAnalysis, Step

if TYPE_CHECKING:
    from ..search import ExactSolver

SOLVER_CHOICES = ("compiled", "reference")
"""The solver kinds the puzzle commands offer (``--solver``): the compiled one is the default."""


def solver_of(choice: str | ExactSolver) -> ExactSolver:
    """A fresh solver of the kind ``choice`` names for :func:`~lukfu_solver.search.make_solver`
    (``compiled``, the default everywhere, or ``reference``), or ``choice`` itself when it is a
    solver already (a caller that brings its own, e.g. a baseline behind the same protocol)."""
    return make_solver(choice) if isinstance(choice, str) else choice


class SolveContext:
    """One solver (its table shared by every question), a cache of all-moves answers by position
    key and the nodes spent: a walk asks about the same positions again and again."""

    def __init__(self, solver: str | ExactSolver = "compiled", max_nodes: int | None = None) -> None:
        self.solver = solver_of(solver)
        self.max_nodes = max_nodes
        self.cache: dict[tuple[int, str], tuple[int, dict[Play, int]]] = {}
        self.nodes = 0

    def values(self, pos: Position) -> tuple[int, dict[Play, int]]:
        """The exact value of ``pos`` and of every legal move (PuzzleError past ``max_nodes``)."""
        k = (pos.key, str(pos))
        hit = self.cache.get(k)
        if hit is not None:
            return hit
        res = self.solver.solve(pos, all_moves=True, max_nodes=self.max_nodes)
        self.nodes += res.nodes
        if not res.complete or res.value is None:
            limit = f"its limit of {self.max_nodes:,} nodes" if self.max_nodes else "a limit"
            raise PuzzleError(_("the search stopped at {limit} before it finished").format(limit=limit))
        out = (res.value, dict(res.moves))
        self.cache[k] = out
        return out

    def value(self, pos: Position) -> int:
        """The exact value of ``pos``."""
        if pos.outcome is not None:
            return pos.outcome.points[pos.caller]
        return self.values(pos)[0]


def _canonical(moves: Iterable[Play]) -> list[Play]:
    """The moves in canonical order (NOTATION.md), the order every tie is broken in."""
    return sorted(moves, key=Play.sort_key)


def analyse(
    pos: Position,
    goal: str,
    line: Sequence[Play] | None = None,
    *,
    solver: str | ExactSolver = "compiled",
    max_nodes: int | None = None,
    context: SolveContext | None = None,
) -> PuzzleAnalysis:
    """Check ``pos`` as a puzzle with ``goal``: build its solution line, or with ``line`` verify
    that one step by step. The result's ``failure`` is None exactly when it is a valid puzzle.

    ``solver`` is a kind for :func:`~lukfu_solver.search.make_solver` or a solver; ``max_nodes``
    caps each solve; ``context`` (instead of both) shares a solver and its answers with other
    questions on the same deal.
    """
    check_goal(goal)
    ctx = context or SolveContext(solver, max_nodes)
    nodes0 = ctx.nodes
    an = PuzzleAnalysis(pos.copy(), goal, solving_side(goal, pos))
    try:
        _walk(ctx, an, line)
        an.rating = rate(an)
        an.themes = detect_themes(an)
    except PuzzleError as err:
        an.failure = str(err)
    an.nodes = ctx.nodes - nodes0
    an.solver = type(ctx.solver).__name__
    return an


def _walk(ctx: SolveContext, an: PuzzleAnalysis, line: Sequence[Play] | None) -> None:
    """Build (``line`` None) or verify the solution line into ``an``; PuzzleError when invalid."""
    root = an.position
    goal = an.goal
    caller = root.caller
    solver_is_caller = an.side == "caller"
    if root.is_over:
        raise PuzzleError(_("the deal has ended"))
    if goal == "win" and root.to_move != caller:
        raise PuzzleError(
            _("goal win: the caller (seat {caller}) must be to move, not seat {to_move}").format(
                caller=caller, to_move=root.to_move
            )
        )
    if goal == "stop" and root.to_move == caller:
        raise PuzzleError(
            _("goal stop: a non-caller must be to move, not the caller (seat {caller})").format(caller=caller)
        )
    if root.can_claim():
        raise PuzzleError(_("a claim is available at once (seat {to_move})").format(to_move=root.to_move))
    legal = _canonical(root.legal_moves())
    if len(legal) < 2:
        raise PuzzleError(_("the side to move has only one legal move"))
    value, moves = ctx.values(root)
    an.value = value
    an.first_moves = {m: moves[m] for m in legal}
    if goal == "most":
        if solver_is_caller and value <= 0:
            raise PuzzleError(_("goal most: the caller does not win (value {value:+d})").format(value=value))
        if not solver_is_caller and value >= 0:
            raise PuzzleError(_("goal most: the non-callers do not win (value {value:+d})").format(value=value))
    if not keeps_goal(goal, value, value):
        raise PuzzleError(
            _("the goal cannot be reached: the value is {value:+d}, the goal needs {goal_text}").format(
                value=value, goal_text=goal_text(goal)
            )
        )
    p = root.copy()
    i = 0
    while not p.is_over:
        if line is not None and i >= len(line):
            break
        given = line[i] if line is not None else None
        seat = p.to_move
        legal = _canonical(p.legal_moves())
        if given is not None and given not in legal:
            why = p.why_illegal(given) if given.kind != DISCARD or given.cards else "hidden discard"
            raise PuzzleError(
                _("step {i}: {given} is not legal for seat {seat} ({why})").format(
                    i=i + 1, given=given, seat=seat, why=why
                )
            )
        solving = (seat == caller) == solver_is_caller
        if solving and len(legal) == 1:
            an.steps.append(Step(legal[0], seat, FORCED))
        elif solving:
            _value, vals = ctx.values(p)
            keepers = [m for m in legal if keeps_goal(goal, vals[m], value)]
            if given is None:
                if not keepers:  # cannot happen: the defence's best replies keep the value
                    raise PuzzleError(_("step {i}: no move keeps the goal").format(i=i + 1))
                if len(keepers) > 1 and i == 0:
                    raise PuzzleError(
                        _("{count} first moves keep the goal: {choices}").format(
                            count=len(keepers), choices=", ".join(str(m) for m in keepers)
                        )
                    )
                if len(keepers) > 1:
                    break  # the goal is secured in more than one way: the line ends
                move = keepers[0]
            else:
                if not keeps_goal(goal, vals[given], value):
                    raise PuzzleError(
                        _(
                            "step {i}: {given} (seat {seat}) does not keep the goal (value {vals:+d}; needs {goal_text})"
                        ).format(i=i + 1, given=given, seat=seat, vals=vals[given], goal_text=goal_text(goal))
                    )
                if len(keepers) > 1:
                    others = ", ".join(str(m) for m in keepers if m != given)
                    raise PuzzleError(
                        _("step {i}: {count} moves keep the goal for seat {seat}: {given} and {others}").format(
                            i=i + 1, count=len(keepers), seat=seat, given=given, others=others
                        )
                    )
                move = given
            an.steps.append(Step(move, seat, SOLVE, values=dict(vals), greedy=greedy_scores(p, legal)))
        else:
            if len(legal) == 1:
                move = legal[0]
            else:
                _value, vals = ctx.values(p)
                defence_max = not solver_is_caller  # the caller defends by maximising
                best = max(vals.values()) if defence_max else min(vals.values())
                tied = [m for m in legal if vals[m] == best]
                if given is None:
                    move = _strongest(p, tied, defence_max)
                else:
                    if given not in tied:
                        raise PuzzleError(
                            _(
                                "step {i}: defence {given} (seat {seat}) is not a best reply (value {vals:+d}, best {best:+d})"
                            ).format(i=i + 1, given=given, seat=seat, vals=vals[given], best=best)
                        )
                    move = given
            an.steps.append(Step(move, seat, DEFEND))
        p.push(an.steps[-1].move)
        i += 1
    if line is not None and i < len(line):
        raise PuzzleError(_("step {i}: {line} comes after the end of the deal").format(i=i + 1, line=line[i]))
    if line is None:
        while an.steps and an.steps[-1].role != SOLVE:
            an.steps.pop()
    elif an.steps and an.steps[-1].role != SOLVE:
        raise PuzzleError(_("the line must end with a decision of the solving side"))
    if not an.steps or an.steps[0].role != SOLVE:
        raise PuzzleError(_("the first move is not a decision"))
    n = len(an.decisions)
    if n < MIN_DECISIONS:
        raise PuzzleError(
            ngettext(
                "only {n} decision of the solving side (at least {least})",
                "only {n} decisions of the solving side (at least {least})",
                n,
            ).format(n=n, least=MIN_DECISIONS)
        )


def _strongest(pos: Position, tied: list[Play], defence_max: bool) -> Play:
    """Of the defence's tied best replies, the one the greedy look-ahead likes best for the
    defence; ties by canonical order."""
    if len(tied) == 1:
        return tied[0]
    scores = greedy_scores(pos, tied)
    sign = -1 if defence_max else 1
    return min(tied, key=lambda m: (sign * scores[m], Play.sort_key(m)))


def refutation(solver: ExactSolver, pos: Position, move: Play) -> tuple[int, list[Play]]:
    """The value after ``move`` and the best play that follows it (the refutation line): what a
    wrong move gives away, shown move by move."""
    child = pos.copy()
    child.push(move)
    if child.outcome is not None:
        return child.outcome.points[child.caller], []
    res = solver.solve(child)
    return res.value, list(res.pv)


def line_positions(an: PuzzleAnalysis) -> list[tuple[Position, Step]]:
    """Each step of the line with the position before it (to tell a move in words)."""
    p = an.position.copy()
    out = []
    for st in an.steps:
        out.append((p.copy(), st))
        p.push(st.move)
    return out


def end_of_line(an: PuzzleAnalysis) -> Position:
    """The position after the last move of the line."""
    p = an.position.copy()
    for st in an.steps:
        p.push(st.move)
    return p
