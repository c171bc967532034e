"""What a puzzle asks: the goals, the solving side, when a value keeps the goal, the question
and the failure in words, and the choice of a goal for a bare position (``docs/puzzles.md``).

The solving side is the side to move at the start; the defence is the other side (the caller
against the two non-callers, RULES.md M1). With V the position's value (the caller's net points
under best play), a move *keeps the goal* when the value after it is:

- ``win`` (the caller solves): > 0, the caller wins points;
- ``stop`` (the non-callers solve): ≤ 0, the caller wins nothing;
- ``most`` (either side solves, and it wins: V > 0 for the caller, V < 0 for the non-callers):
  exactly V, the most the solving side can get.

>>> keeps_goal("win", 2, 2), keeps_goal("stop", 2, 2), keeps_goal("most", 2, 4)
(True, False, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import NotationError
from ..i18n import _, ngettext

if TYPE_CHECKING:
    from ..plays import Play
    from ..position import Position
    from ..search import ExactSolver

GOALS = ("win", "stop", "most")
SIDES = ("caller", "non-callers")

SOLVE, FORCED, DEFEND = "solve", "forced", "defend"
"""Step roles: a decision of the solving side, a forced move of the solving side, a defence move."""

MIN_DECISIONS = 2
"""A puzzle needs at least two decisions of the solving side: one only move is a one-move
exercise, not a line to find."""


class PuzzleError(Exception):
    """A position or line that is not a valid puzzle; the message says why."""


def check_goal(goal: str) -> str:
    """``goal`` if it is one of :data:`GOALS`, else a NotationError naming the field."""
    if goal not in GOALS:
        raise NotationError(
            "goal", _("expected one of {choices}, got {goal!r}").format(choices=", ".join(GOALS), goal=goal)
        )
    return goal


def solving_side(goal: str, pos: Position) -> str:
    """The side that solves: the caller for ``win``, the non-callers for ``stop``, the side to
    move for ``most``."""
    if goal == "win":
        return "caller"
    if goal == "stop":
        return "non-callers"
    return "caller" if pos.to_move == pos.caller else "non-callers"


def keeps_goal(goal: str, value: int, target: int) -> bool:
    """Whether a value (the caller's net points) meets the goal; ``target`` is the position's
    value V, used by ``most``."""
    if goal == "win":
        return value > 0
    if goal == "stop":
        return value <= 0
    return value == target


def question(goal: str, pos: Position) -> str:
    """The puzzle's question in words."""
    c = pos.caller
    others = [s for s in range(3) if s != c]
    play = bool(pos.trick)
    if goal == "win":
        words = _("Seat {c} (the caller) to play and win.") if play else _("Seat {c} (the caller) to lead and win.")
    elif goal == "stop":
        words = (
            _(
                "Seats {a} and {b} (the non-callers) to play, seat {first} first: stop the caller (seat {c}) winning any points."
            )
            if play
            else _(
                "Seats {a} and {b} (the non-callers) to lead, seat {first} first: stop the caller (seat {c}) winning any points."
            )
        )
    elif pos.to_move == c:
        words = (
            _("Seat {c} (the caller) to play: win the most points.")
            if play
            else _("Seat {c} (the caller) to lead: win the most points.")
        )
    else:
        words = (
            _(
                "Seats {a} and {b} (the non-callers) to play, seat {first} first: win the most points against the caller (seat {c})."
            )
            if play
            else _(
                "Seats {a} and {b} (the non-callers) to lead, seat {first} first: win the most points against the caller (seat {c})."
            )
        )
    return words.format(c=c, a=others[0], b=others[1], first=pos.to_move)


def goal_text(goal: str) -> str:
    """What keeping the goal means, as a value condition."""
    return {"win": "the caller's value > 0", "stop": "the caller's value <= 0", "most": "the exact best value"}[goal]


def goal_failure(goal: str, value: int, target: int) -> str:
    """Why a value misses the goal, in words from the solving side's seat (``target`` is the
    position's value, for ``most``; a negative ``most`` target means the non-callers solve):
    what the caller wins or loses, set against what the goal asked for.

    >>> goal_failure("win", -4, 2)
    'the caller loses 4 points: no win'
    >>> goal_failure("most", -4, -6)
    'the caller loses only 4 points instead of 6'
    >>> goal_failure("stop", 2, -1)
    'the caller still wins 2 points'
    """
    if goal == "win":
        if value == 0:
            return _("nobody scores: no win for the caller")
        return ngettext("the caller loses {n} point: no win", "the caller loses {n} points: no win", -value).format(
            n=-value
        )
    if goal == "stop":
        return ngettext("the caller still wins {n} point", "the caller still wins {n} points", value).format(n=value)
    if target > 0:  # the caller solves: the most it can win
        if value > 0:
            words = ngettext(
                "the caller wins only {n} point instead of {t}", "the caller wins only {n} points instead of {t}", value
            )
        elif value == 0:
            words = ngettext(
                "the caller wins nothing instead of {t} point", "the caller wins nothing instead of {t} points", target
            )
        else:
            words = ngettext(
                "the caller loses {n} point instead of winning {t}",
                "the caller loses {n} points instead of winning {t}",
                -value,
            )
        return words.format(n=abs(value), t=target)
    if value < 0:  # the non-callers solve: the most the caller loses
        words = ngettext(
            "the caller loses only {n} point instead of {t}", "the caller loses only {n} points instead of {t}", -value
        )
    elif value == 0:
        words = ngettext(
            "the caller loses nothing instead of {t} point", "the caller loses nothing instead of {t} points", -target
        )
    else:
        words = ngettext(
            "the caller wins {n} point instead of losing {t}", "the caller wins {n} points instead of losing {t}", value
        )
    return words.format(n=abs(value), t=-target)


def goal_candidates(pos: Position, value: int, moves: dict[Play, int]) -> list[str]:
    """The goals whose first move is unique here (the generator's cheap filter before it builds
    a line): ``win``/``stop`` first, ``most`` when they fail."""
    vals = list(moves.values())
    if pos.to_move == pos.caller:
        if value > 0 and sum(v > 0 for v in vals) == 1:
            return ["win"]
        if value > 0 and vals.count(value) == 1:
            return ["most"]
    else:
        if value <= 0 and sum(v <= 0 for v in vals) == 1:
            return ["stop"]
        if value < 0 and vals.count(value) == 1:
            return ["most"]
    return []


def pick_goal(pos: Position, solver: ExactSolver) -> str:
    """The goal to ask of a bare position: win (caller to move) or stop (a non-caller), unless
    the solving side wins anyway and only the most points can be unique."""
    if pos.is_over:
        raise NotationError("position", _("the deal has ended: no puzzle"))
    res = solver.solve(pos, all_moves=True)
    vals = list(res.moves.values())
    if pos.to_move == pos.caller:
        return "most" if res.value is not None and res.value > 0 and sum(v > 0 for v in vals) > 1 else "win"
    return "most" if res.value is not None and res.value < 0 and sum(v <= 0 for v in vals) > 1 else "stop"
