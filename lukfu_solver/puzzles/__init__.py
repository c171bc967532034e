"""Luk Fu puzzles: perfect-information positions with a question and exactly one right answer,
checked by the exact solver; their file format, a seeded generator, a difficulty rating and
theme detection. The format and every definition below are documented in ``puzzles/README.md``.

**Goals.** The *solving side* is the side to move at the start; the defence is the other side
(the caller against the two non-callers, RULES.md M1). With V the position's value (the caller's
net points under best play), a move *keeps the goal* when the value after it is:

- ``win`` (the caller solves): > 0, the caller wins points;
- ``stop`` (the non-callers solve): ≤ 0, the caller wins nothing;
- ``most`` (either side solves, and it wins: V > 0 for the caller, V < 0 for the non-callers):
  exactly V, the most the solving side can get.

**The solution line** starts at the position and alternates: at a *decision* (the solving side
to move with two or more legal moves) exactly one legal move keeps the goal — literally one, no
classes of equivalent moves — and it is the line's move; a solving-side move with no
alternative is *forced*; at a *defence* step the defence plays a move of best exact value (any
tied move is accepted; the line continues from the strongest, the one the greedy look-ahead
below likes best, then the first in canonical move order). The line ends at its last decision:
it stops where the solving side first has two or more ways to keep the goal, or the deal ends,
and trailing forced and defence moves are trimmed. A puzzle needs at least two decisions, a
first move that is a decision (every other first move is strictly worse for the goal) and no
claim available at the start.

>>> from lukfu_solver.position import Position
>>> pos = Position.parse("C235/C7M1T3/C8S3T5 1 1 0,5,4 C46S1245678M4689T46789 -")
>>> an = analyse(pos, "win")
>>> an.ok, an.value, [str(m) for m in an.solution], [st.role for st in an.steps]
(True, 2, ['M1', 'xS3', 'xC2', 'claim'], ['solve', 'defend', 'defend', 'solve'])
>>> an.themes, an.rating.tier
(['claim timing'], 'easy')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import card as card_index
from ..cards import iter_cards
from ..endgames import random_endgame
from ..errors import NotationError
from ..plays import CLAIM, DISCARD, RUN, SET, Play
from ..position import Position

# ---------------------------------------------------------------- vocabulary

GOALS = ("win", "stop", "most")
SIDES = ("caller", "non-callers")
TIERS = ("easy", "medium", "hard")
THEMES = (
    "squeeze of Old cards",
    "run versus set",
    "discard choice",
    "claim timing",
    "playing on for more points",
)
SOLVE, FORCED, DEFEND = "solve", "forced", "defend"
"""Step roles: a decision of the solving side, a forced move of the solving side, a defence move."""

FORMAT = "lukfu-puzzles"
FORMAT_VERSION = 1

MIN_DECISIONS = 2
"""SOLVER-NOTES: at least two decisions of the solving side."""

# Difficulty: score = 2·(decisions − 2) + tempting + 2·misled + ⌊log2(1 + branching)⌋ (see rate()).
EASY_MAX = 3
"""Scores up to this are easy."""
MEDIUM_MAX = 6
"""Scores above EASY_MAX up to this are medium; higher scores are hard."""
RATING_FORMULA = (
    "score = 2*(decisions-2) + tempting + 2*misled + floor(log2(1+branching)); easy <= 3 < medium <= 6 < hard"
)

TERMINAL_WEIGHT = 10
"""The greedy look-ahead scores an ended deal as 10 × the caller's points (a fu is worth 1)."""

GEN_MAX_NODES = 400_000
"""The generator drops a candidate when one solve needs more nodes than this (the long tail)."""

SolverFactory = Callable[[], Any]
"""Makes a fresh exact solver with ``solve(pos, all_moves=..., max_nodes=...) -> SolveResult``."""


def python_solver() -> Any:
    """The reference solver, :class:`lukfu_solver.search.reference.Solver` (pure Python)."""
    from ..search.reference import Solver

    return Solver()


def fast_solver() -> Any:
    """The compiled solver, :class:`lukfu_solver.search.fast.FastSolver` (same API and values)."""
    from ..search.fast import FastSolver

    return FastSolver()


def solver_factory(name: str = "python") -> SolverFactory:
    """A solver factory by name: ``python`` (the default), ``fast``, or ``auto`` (fast when it
    imports, else python). Values, lines and ratings never depend on the choice; nodes may."""
    if name == "python":
        return python_solver
    if name == "fast":
        return fast_solver
    if name == "auto":
        try:
            import lukfu_solver.search.fast  # noqa: F401
        except Exception:  # numba missing or the kernel broken: fall back to the reference
            return python_solver
        return fast_solver
    raise NotationError("solver", f"expected python, fast or auto, got {name!r}")


DEFAULT_FACTORY: SolverFactory = python_solver


class PuzzleError(Exception):
    """A position or line that is not a valid puzzle; the message says why."""


# ---------------------------------------------------------------- goals


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
    act = "play" if pos.trick else "lead"
    if goal == "win":
        return f"Seat {c} (the caller) to {act} and win."
    if goal == "stop":
        return f"Seats {others[0]} and {others[1]} (the non-callers) to {act}, seat {pos.to_move} first: stop the caller (seat {c}) winning any points."
    if pos.to_move == c:
        return f"Seat {c} (the caller) to {act}: win the most points."
    return f"Seats {others[0]} and {others[1]} (the non-callers) to {act}, seat {pos.to_move} first: win the most points against the caller (seat {c})."


def goal_text(goal: str) -> str:
    """What keeping the goal means, as a value condition."""
    return {"win": "the caller's value > 0", "stop": "the caller's value <= 0", "most": "the exact best value"}[goal]


# ---------------------------------------------------------------- the greedy look-ahead


def heuristic(pos: Position) -> int:
    """A static guess of the caller's prospects: the caller's fu + Old cards minus the best
    non-caller's; an ended deal counts TERMINAL_WEIGHT × the caller's points."""
    if pos.outcome is not None:
        return TERMINAL_WEIGHT * pos.outcome.points[pos.caller]
    c = pos.caller
    mine = pos.fu[c] + pos.old_cards(c).bit_count()
    theirs = max(pos.fu[s] + pos.old_cards(s).bit_count() for s in range(3) if s != c)
    return mine - theirs


def _to_trick_end(pos: Position) -> int:
    """Minimax of :func:`heuristic` over the rest of the current trick (the caller maximising)."""
    if pos.outcome is not None or not pos.trick:
        return heuristic(pos)
    maximizing = pos.to_move == pos.caller
    best = None
    for m in list(pos.legal_moves()):
        pos.push(m)
        v = _to_trick_end(pos)
        pos.pop()
        if best is None or (v > best if maximizing else v < best):
            best = v
    assert best is not None
    return best


def greedy_scores(pos: Position, moves: Iterable[Play] | None = None) -> dict[Play, int]:
    """The greedy one-trick look-ahead: each move's :func:`heuristic` at the end of the current
    trick (or of the deal), with the rest of the trick played by the same minimax. This is the
    'shallow search' whose preferred wrong moves count as tempting."""
    p = pos.copy()
    out = {}
    for m in list(p.legal_moves()) if moves is None else moves:
        p.push(m)
        out[m] = _to_trick_end(p)
        p.pop()
    return out


# ---------------------------------------------------------------- analysis


@dataclass
class Step:
    """One move of a solution line: the move, who played it and its role (SOLVE, FORCED,
    DEFEND). A decision also keeps the value of every legal move and its greedy scores."""

    move: Play
    seat: int
    role: str
    values: dict[Play, int] = field(default_factory=dict)
    greedy: dict[Play, int] = field(default_factory=dict)


@dataclass
class Rating:
    """The difficulty and what it is computed from (see :func:`rate`)."""

    decisions: int
    tempting: int
    misled: int
    branching: int
    score: int
    tier: str

    def to_dict(self) -> dict[str, Any]:
        """The ``rating`` object of the file format."""
        return {
            "score": self.score,
            "decisions": self.decisions,
            "tempting": self.tempting,
            "misled": self.misled,
            "branching": self.branching,
        }


@dataclass
class Analysis:
    """What :func:`analyse` found: the goal, the value, the line, the first moves' values, the
    rating, the themes and the solver nodes spent; ``failure`` says why it is not a puzzle."""

    position: Position
    goal: str
    side: str
    value: int | None = None
    steps: list[Step] = field(default_factory=list)
    first_moves: dict[Play, int] = field(default_factory=dict)
    rating: Rating | None = None
    themes: list[str] = field(default_factory=list)
    nodes: int = 0
    solver: str = ""
    failure: str | None = None

    @property
    def ok(self) -> bool:
        """True when the position and line make a valid puzzle."""
        return self.failure is None

    @property
    def solution(self) -> list[Play]:
        """The moves of the line."""
        return [s.move for s in self.steps]

    @property
    def decisions(self) -> list[Step]:
        """The solving side's decisions in the line."""
        return [s for s in self.steps if s.role == SOLVE]


class SolveContext:
    """One solver (its table shared by every question), a cache of all-moves answers by position
    key and the nodes spent."""

    def __init__(self, factory: SolverFactory, max_nodes: int | None = None, solver: Any = None) -> None:
        self.solver = solver if solver is not None else factory()
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
            raise PuzzleError(f"the search stopped at {limit} before it finished")
        out = (res.value, dict(res.moves))
        self.cache[k] = out
        return out

    def value(self, pos: Position) -> int:
        """The exact value of ``pos``."""
        if pos.outcome is not None:
            return pos.outcome.points[pos.caller]
        return self.values(pos)[0]


def _canonical(moves: Iterable[Play]) -> list[Play]:
    return sorted(moves, key=Play.sort_key)


def analyse(
    pos: Position,
    goal: str,
    factory: SolverFactory | None = None,
    line: Sequence[Play] | None = None,
    *,
    max_nodes: int | None = None,
    context: SolveContext | None = None,
) -> Analysis:
    """Check ``pos`` as a puzzle with ``goal``: build its solution line, or with ``line`` verify
    that one step by step. The result's ``failure`` is None exactly when it is a valid puzzle.

    ``factory`` makes the solver (default :data:`DEFAULT_FACTORY`); ``max_nodes`` caps each solve.
    """
    if goal not in GOALS:
        raise NotationError("goal", f"expected one of {', '.join(GOALS)}, got {goal!r}")
    ctx = context or SolveContext(factory or DEFAULT_FACTORY, max_nodes)
    nodes0 = ctx.nodes
    an = Analysis(pos.copy(), goal, solving_side(goal, pos))
    try:
        _walk(ctx, an, line)
        an.rating = rate(an)
        an.themes = detect_themes(an)
    except PuzzleError as err:
        an.failure = str(err)
    an.nodes = ctx.nodes - nodes0
    an.solver = type(ctx.solver).__name__
    return an


def _walk(ctx: SolveContext, an: Analysis, line: Sequence[Play] | None) -> None:
    """Build (``line`` None) or verify the solution line into ``an``; PuzzleError when invalid."""
    root = an.position
    goal = an.goal
    caller = root.caller
    solver_is_caller = an.side == "caller"
    if root.is_over:
        raise PuzzleError("the deal has ended")
    if goal == "win" and root.to_move != caller:
        raise PuzzleError(f"goal win: the caller (seat {caller}) must be to move, not seat {root.to_move}")
    if goal == "stop" and root.to_move == caller:
        raise PuzzleError(f"goal stop: a non-caller must be to move, not the caller (seat {caller})")
    if root.can_claim():
        raise PuzzleError(f"a claim is available at once (seat {root.to_move})")
    legal = _canonical(root.legal_moves())
    if len(legal) < 2:
        raise PuzzleError("the side to move has only one legal move")
    value, moves = ctx.values(root)
    an.value = value
    an.first_moves = {m: moves[m] for m in legal}
    if goal == "most":
        if solver_is_caller and value <= 0:
            raise PuzzleError(f"goal most: the caller does not win (value {value:+d})")
        if not solver_is_caller and value >= 0:
            raise PuzzleError(f"goal most: the non-callers do not win (value {value:+d})")
    if not keeps_goal(goal, value, value):
        raise PuzzleError(f"the goal cannot be reached: the value is {value:+d}, the goal needs {goal_text(goal)}")
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
            raise PuzzleError(f"step {i + 1}: {given} is not legal for seat {seat} ({why})")
        solving = (seat == caller) == solver_is_caller
        if solving and len(legal) == 1:
            an.steps.append(Step(legal[0], seat, FORCED))
        elif solving:
            _, vals = ctx.values(p)
            keepers = [m for m in legal if keeps_goal(goal, vals[m], value)]
            if given is None:
                if not keepers:  # cannot happen: the defence's best replies keep the value
                    raise PuzzleError(f"step {i + 1}: no move keeps the goal")
                if len(keepers) > 1 and i == 0:
                    raise PuzzleError(f"{len(keepers)} first moves keep the goal: {', '.join(str(m) for m in keepers)}")
                if len(keepers) > 1:
                    break  # the goal is secured in more than one way: the line ends
                move = keepers[0]
            else:
                if not keeps_goal(goal, vals[given], value):
                    raise PuzzleError(
                        f"step {i + 1}: {given} (seat {seat}) does not keep the goal (value {vals[given]:+d}; needs {goal_text(goal)})"
                    )
                if len(keepers) > 1:
                    others = ", ".join(str(m) for m in keepers if m != given)
                    raise PuzzleError(
                        f"step {i + 1}: {len(keepers)} moves keep the goal for seat {seat}: {given} and {others}"
                    )
                move = given
            an.steps.append(Step(move, seat, SOLVE, values=dict(vals), greedy=greedy_scores(p, legal)))
        else:
            if len(legal) == 1:
                move = legal[0]
            else:
                _, vals = ctx.values(p)
                defence_max = not solver_is_caller  # the caller defends by maximising
                best = max(vals.values()) if defence_max else min(vals.values())
                tied = [m for m in legal if vals[m] == best]
                if given is None:
                    move = _strongest(p, tied, defence_max)
                else:
                    if given not in tied:
                        raise PuzzleError(
                            f"step {i + 1}: defence {given} (seat {seat}) is not a best reply (value {vals[given]:+d}, best {best:+d})"
                        )
                    move = given
            an.steps.append(Step(move, seat, DEFEND))
        p.push(an.steps[-1].move)
        i += 1
    if line is not None and i < len(line):
        raise PuzzleError(f"step {i + 1}: {line[i]} comes after the end of the deal")
    if line is None:
        while an.steps and an.steps[-1].role != SOLVE:
            an.steps.pop()
    elif an.steps and an.steps[-1].role != SOLVE:
        raise PuzzleError("the line must end with a decision of the solving side")
    if not an.steps or an.steps[0].role != SOLVE:
        raise PuzzleError("the first move is not a decision")
    n = len(an.decisions)
    if n < MIN_DECISIONS:
        raise PuzzleError(f"only {n} decision{'s' if n != 1 else ''} of the solving side (at least {MIN_DECISIONS})")


def _strongest(pos: Position, tied: list[Play], defence_max: bool) -> Play:
    """Of the defence's tied best replies, the one the greedy look-ahead likes best for the
    defence; ties by canonical order."""
    if len(tied) == 1:
        return tied[0]
    scores = greedy_scores(pos, tied)
    sign = -1 if defence_max else 1
    return min(tied, key=lambda m: (sign * scores[m], Play.sort_key(m)))


# ---------------------------------------------------------------- rating and themes


def rate(an: Analysis) -> Rating:
    """The difficulty from measured quantities of the line (all independent of the solver):

    - decisions: the solving side's decisions (≥ 2);
    - tempting: over all decisions, the wrong moves that the greedy one-trick look-ahead
      (:func:`greedy_scores`) scores strictly better than the right move, for the mover;
    - misled: the decisions with at least one tempting move (the look-ahead would go wrong);
    - branching: over all decisions, the legal moves besides the right one.

    ``score = 2·(decisions − 2) + tempting + 2·misled + ⌊log2(1 + branching)⌋``; easy ≤ 3,
    medium 4–6, hard ≥ 7. Solver nodes are recorded with each puzzle but left out of the score:
    they depend on the search's move ordering and table, and a rating must not change when a
    faster solver is plugged in.
    """
    decisions = an.decisions
    tempting = misled = branching = 0
    for st in decisions:
        maximizing = st.seat == an.position.caller
        sign = 1 if maximizing else -1
        right = sign * st.greedy[st.move]
        wrong = [m for m in st.greedy if m != st.move]
        lured = sum(1 for m in wrong if sign * st.greedy[m] > right)
        tempting += lured
        misled += lured > 0
        branching += len(wrong)
    score = 2 * (len(decisions) - MIN_DECISIONS) + tempting + 2 * misled + (1 + branching).bit_length() - 1
    return Rating(len(decisions), tempting, misled, branching, score, tier_of(score))


def tier_of(score: int) -> str:
    """easy, medium or hard from a score (see :func:`rate`)."""
    if score <= EASY_MAX:
        return "easy"
    if score <= MEDIUM_MAX:
        return "medium"
    return "hard"


def detect_themes(an: Analysis) -> list[str]:
    """Themes found in the line (in the order of :data:`THEMES`):

    - squeeze of Old cards: a card of a solving seat that was not Old at the start is Old for
      it after the line (the others had to show the cards above it);
    - run versus set: at a decision the legal leads include both a run and a set, and the right
      move is one of the two kinds;
    - discard choice: a decision whose right move is a face-down discard;
    - claim timing: a decision whose right move is the claim;
    - playing on for more points: a decision where a claim is legal but the right move plays on.
    """
    found = set()
    p = an.position.copy()
    caller = p.caller
    solving_seats = [s for s in range(3) if (s == caller) == (an.side == "caller")]
    old0 = {s: p.old_cards(s) for s in solving_seats}
    for st in an.steps:
        if st.role == SOLVE:
            kinds = {m.kind for m in st.values}
            if {RUN, SET} <= kinds and st.move.kind in (RUN, SET):
                found.add("run versus set")
            if st.move.kind == DISCARD:
                found.add("discard choice")
            if st.move.kind == CLAIM:
                found.add("claim timing")
            elif CLAIM in kinds:
                found.add("playing on for more points")
        p.push(st.move)
    if not p.is_over:
        for s in solving_seats:
            if p.old_cards(s) & ~old0[s]:
                found.add("squeeze of Old cards")
    return [t for t in THEMES if t in found]


# ---------------------------------------------------------------- puzzles and files


@dataclass
class Puzzle:
    """One puzzle as stored (see ``puzzles/README.md``)."""

    id: str
    position: str
    goal: str
    side: str
    solution: list[str]
    value: int
    first_moves: dict[str, int]
    difficulty: str
    rating: dict[str, int]
    themes: list[str]
    seed: int | None = None
    source: dict[str, int] | None = None
    title: str | None = None
    nodes: int | None = None
    solver: str | None = None

    def pos(self) -> Position:
        """The position, parsed."""
        return Position.parse(self.position)

    def line(self) -> list[Play]:
        """The solution's moves, parsed."""
        return [Play.parse(t, f"puzzle {self.id}: solution") for t in self.solution]

    @property
    def question(self) -> str:
        """The question in words."""
        return question(self.goal, self.pos())

    def to_dict(self) -> dict[str, Any]:
        """The puzzle's JSON object (keys in the documented order; absent optional keys left out)."""
        d: dict[str, Any] = {"id": self.id}
        if self.title:
            d["title"] = self.title
        d.update(
            position=self.position,
            side=self.side,
            goal=self.goal,
            question=question(self.goal, self.pos()),
            solution=list(self.solution),
            value=self.value,
            first_moves=dict(self.first_moves),
            difficulty=self.difficulty,
            rating=dict(self.rating),
            rating_formula=RATING_FORMULA,
            themes=list(self.themes),
        )
        if self.seed is not None:
            d["seed"] = self.seed
        if self.source is not None:
            d["source"] = dict(self.source)
        if self.nodes is not None:
            d["verification"] = {"nodes": self.nodes, "solver": self.solver}
        return d

    @classmethod
    def from_dict(cls, d: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle from its JSON object; a missing or mistyped field raises NotationError."""
        if not isinstance(d, dict):
            raise NotationError(where, "a puzzle must be a JSON object")
        pid = d.get("id")
        if not isinstance(pid, str) or not pid:
            raise NotationError(where, "missing 'id' (a non-empty string)")
        here = f"puzzle {pid}"

        def need(key: str, types: type | tuple[type, ...], optional: bool = False) -> Any:
            if key not in d:
                if optional:
                    return None
                raise NotationError(here, f"missing {key!r}")
            v = d[key]
            if not isinstance(v, types) or isinstance(v, bool):
                raise NotationError(here, f"{key!r} has the wrong type")
            return v

        position = need("position", str)
        try:
            pos = Position.parse(position)
        except NotationError as err:
            raise err.within(f"{here}: position") from None
        goal = need("goal", str)
        if goal not in GOALS:
            raise NotationError(here, f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
        side = need("side", str, optional=True) or solving_side(goal, pos)
        if side not in SIDES:
            raise NotationError(here, f"side must be one of {', '.join(SIDES)}, got {side!r}")
        solution = need("solution", list)
        if not all(isinstance(t, str) for t in solution):
            raise NotationError(here, "'solution' must be a list of moves (strings)")
        for t in solution:
            Play.parse(t, f"{here}: solution")
        first = need("first_moves", dict, optional=True) or {}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in first.values()):
            raise NotationError(here, "'first_moves' values must be integers")
        rating = need("rating", dict, optional=True) or {}
        themes = need("themes", list, optional=True) or []
        difficulty = need("difficulty", str, optional=True) or ""
        verification = need("verification", dict, optional=True) or {}
        return cls(
            id=pid,
            position=str(pos),
            goal=goal,
            side=side,
            solution=list(solution),
            value=need("value", int),
            first_moves=dict(first),
            difficulty=difficulty,
            rating=dict(rating),
            themes=[str(t) for t in themes],
            seed=need("seed", int, optional=True),
            source=need("source", dict, optional=True),
            title=need("title", str, optional=True),
            nodes=verification.get("nodes") if isinstance(verification.get("nodes"), int) else None,
            solver=verification.get("solver") if isinstance(verification.get("solver"), str) else None,
        )


def puzzle_from_analysis(
    an: Analysis, pid: str, seed: int | None = None, source: dict[str, int] | None = None, title: str | None = None
) -> Puzzle:
    """A stored puzzle from a valid analysis."""
    if not an.ok or an.rating is None or an.value is None:
        raise PuzzleError(an.failure or "not analysed")
    return Puzzle(
        id=pid,
        position=str(an.position),
        goal=an.goal,
        side=an.side,
        solution=[str(m) for m in an.solution],
        value=an.value,
        first_moves={str(m): v for m, v in an.first_moves.items()},
        difficulty=an.rating.tier,
        rating=an.rating.to_dict(),
        themes=list(an.themes),
        seed=seed,
        source=source,
        title=title or default_title(an),
        nodes=an.nodes,
        solver=an.solver,
    )


def default_title(an: Analysis) -> str:
    """A short title: the first theme (or 'Only move') and the goal."""
    head = an.themes[0].capitalize() if an.themes else "Only move"
    tail = {"win": "caller to win", "stop": "stop the caller", "most": "the most points"}[an.goal]
    return f"{head}: {tail}"


def dumps(puzzles: Sequence[Puzzle], generator: dict[str, Any] | None = None) -> str:
    """A collection file's text: ``{"format", "version", "generator", "puzzles"}``, indented."""
    doc: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION}
    if generator is not None:
        doc["generator"] = generator
    doc["puzzles"] = [p.to_dict() for p in puzzles]
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def loads(text: str, name: str = "puzzle file") -> list[Puzzle]:
    """The puzzles of a file's text: a collection object, a list of puzzles or one puzzle."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise NotationError(name, f"not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    if isinstance(doc, dict) and "puzzles" in doc:
        if doc.get("format", FORMAT) != FORMAT:
            raise NotationError(name, f"format is {doc.get('format')!r}, expected {FORMAT!r}")
        version = doc.get("version", FORMAT_VERSION)
        if version != FORMAT_VERSION:
            raise NotationError(name, f"version {version!r} is not supported (expected {FORMAT_VERSION})")
        items = doc["puzzles"]
    elif isinstance(doc, dict):
        items = [doc]
    else:
        items = doc
    if not isinstance(items, list):
        raise NotationError(name, "expected a puzzle collection, a list of puzzles or one puzzle")
    puzzles = [Puzzle.from_dict(d, f"{name}: puzzle {i + 1}") for i, d in enumerate(items)]
    seen: set[str] = set()
    for p in puzzles:
        if p.id in seen:
            raise NotationError(name, f"puzzle id {p.id!r} appears twice")
        seen.add(p.id)
    return puzzles


def load(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file (OSError when it cannot be read, NotationError when it is bad)."""
    p = Path(path)
    return loads(p.read_text(encoding="utf-8"), f"puzzle file {p.name}")


def load_dir(path: str | Path) -> list[Puzzle]:
    """Every puzzle of the ``*.json`` files of a directory, files in name order."""
    out: list[Puzzle] = []
    for f in sorted(Path(path).glob("*.json")):
        out.extend(load(f))
    return out


# ---------------------------------------------------------------- verification


@dataclass
class CheckResult:
    """The re-verification of one stored puzzle: failures (empty when it passes) and the analysis."""

    puzzle: Puzzle
    failures: list[str]
    analysis: Analysis

    @property
    def ok(self) -> bool:
        return not self.failures


def check(puzzle: Puzzle, factory: SolverFactory | None = None, max_nodes: int | None = None) -> CheckResult:
    """Re-verify a stored puzzle with a fresh solver: the line's uniqueness step by step, the
    value, the first moves' values, the side, the rating and tier, and the themes."""
    pos = puzzle.pos()
    an = analyse(pos, puzzle.goal, factory, puzzle.line(), max_nodes=max_nodes)
    failures: list[str] = []
    if not an.ok:
        failures.append(str(an.failure))
    if puzzle.side != an.side:
        failures.append(f"side is {puzzle.side!r}, but the goal {puzzle.goal} makes it {an.side!r}")
    if an.value is not None and puzzle.value != an.value:
        failures.append(f"value is {puzzle.value:+d} in the file, {an.value:+d} by the solver")
    if an.first_moves:
        found = {str(m): v for m, v in an.first_moves.items()}
        if puzzle.first_moves and puzzle.first_moves != found:
            diff = sorted(k for k in set(found) | set(puzzle.first_moves) if found.get(k) != puzzle.first_moves.get(k))
            failures.append(f"first-move values differ from the solver's for {', '.join(diff)}")
    if an.ok and an.rating is not None:
        if puzzle.rating and puzzle.rating != an.rating.to_dict():
            failures.append(f"rating {puzzle.rating} differs from the recomputed {an.rating.to_dict()}")
        if puzzle.difficulty and puzzle.difficulty != an.rating.tier:
            failures.append(f"difficulty is {puzzle.difficulty!r}, recomputed {an.rating.tier!r}")
        if sorted(puzzle.themes) != sorted(an.themes):
            failures.append(f"themes {puzzle.themes} differ from the detected {an.themes}")
    return CheckResult(puzzle, failures, an)


# ---------------------------------------------------------------- generation


@dataclass(frozen=True)
class GenOptions:
    """What the generator looks for: hand sizes, and optionally a tier, a theme and a goal."""

    min_cards: int = 3
    max_cards: int = 6
    difficulty: str | None = None
    theme: str | None = None
    goal: str | None = None
    max_nodes: int = GEN_MAX_NODES

    def validate(self) -> None:
        """NotationError for options that make no sense."""
        if not 3 <= self.min_cards <= self.max_cards <= 7:
            raise NotationError(
                "cards", f"need 3 <= min-cards <= max-cards <= 7, got {self.min_cards} and {self.max_cards}"
            )
        if self.difficulty is not None and self.difficulty not in TIERS:
            raise NotationError("difficulty", f"expected one of {', '.join(TIERS)}, got {self.difficulty!r}")
        if self.theme is not None and self.theme not in THEMES:
            raise NotationError("theme", f"expected one of {', '.join(repr(t) for t in THEMES)}, got {self.theme!r}")
        if self.goal is not None and self.goal not in GOALS:
            raise NotationError("goal", f"expected one of {', '.join(GOALS)}, got {self.goal!r}")
        if self.build is not None and self.max_cards < 5:
            raise NotationError(
                "cards", "puzzles on run versus set are built with 5 or more cards a hand: --max-cards 5+"
            )

    @property
    def build(self) -> str | None:
        """How deals are built: ``run-set`` (a run and a set planted) for that theme, else None."""
        return RUN_SET if self.theme == "run versus set" else None

    def start_cards(self, seed: int) -> int:
        """The cards a hand the deal of ``seed`` is played down to before the guided walk."""
        low = max(self.min_cards, 5) if self.build else self.min_cards
        return random.Random(seed ^ 0x5EED).randint(low, self.max_cards)

    def accepts(self, an: Analysis) -> bool:
        """Whether a valid analysis meets the tier, theme and goal asked for."""
        assert an.rating is not None
        return (
            (self.difficulty is None or an.rating.tier == self.difficulty)
            and (self.theme is None or self.theme in an.themes)
            and (self.goal is None or an.goal == self.goal)
        )


RUN_SET = "run-set"


def plant_run_and_set(pos: Position, rng: random.Random) -> Position:
    """The position with a run of three and a set of three sharing a card (five cards) moved
    into the hand of the seat to lead, each swapped with one of its other cards wherever it was
    (another hand, face up or face down): a position built directly, since random play rarely
    leaves both shapes in one small hand. Sizes, fu and the face-down count are unchanged, so
    the position stays valid (it is re-parsed to make sure)."""
    assert not pos.trick and pos.cards_per_hand() >= 5
    s = pos.to_move
    rank = rng.randint(1, 9)
    suit = rng.randrange(4)
    start = rng.randint(max(1, rank - 2), min(rank, 7))
    run = sum(1 << card_index(suit, r) for r in range(start, start + 3))
    others = rng.sample([t for t in range(4) if t != suit], 2)
    group = run | sum(1 << card_index(t, rank) for t in others)
    hands = list(pos.hands)
    faceup = pos.faceup
    spare = [c for c in iter_cards(hands[s] & ~group)]
    rng.shuffle(spare)
    for c in iter_cards(group & ~hands[s]):
        b = 1 << c
        out = 1 << spare.pop()
        hands[s] ^= out | b
        for t in range(3):
            if t != s and hands[t] & b:
                hands[t] ^= b | out
        if faceup & b:
            faceup ^= b | out
    built = Position(hands, pos.to_move, pos.caller, pos.fu, faceup)
    return Position.parse(str(built))


def attempt_seeds(seed: int) -> Iterator[int]:
    """The deal seeds the generator tries for ``--seed seed``, in order (32-bit, from a seeded RNG)."""
    rng = random.Random(seed)
    while True:
        yield rng.getrandbits(32)


def guided_walk(seed: int, cards: int, ctx: SolveContext, build: str | None = None) -> Iterator[tuple[int, Position]]:
    """The positions of a seeded deal: ``random_endgame(seed, cards)`` (random play down to
    ``cards`` cards a hand; with ``build`` ``"run-set"`` then :func:`plant_run_and_set`), then
    sensible play: each move one of best exact value for its side, ties broken by
    ``random.Random(seed)``. Yields ``(ply, position)`` from ply 0 until the deal ends;
    :func:`replay_source` rebuilds any of them."""
    pos = random_endgame(seed, cards)
    if build == RUN_SET:
        pos = plant_run_and_set(pos, random.Random(seed ^ 0xB11D))
    elif build is not None:
        raise NotationError("source", f"unknown build {build!r} (known: {RUN_SET})")
    rng = random.Random(seed)
    ply = 0
    while not pos.is_over:
        yield ply, pos.copy()
        legal = _canonical(pos.legal_moves())
        if len(legal) == 1:
            move = legal[0]
        else:
            _, vals = ctx.values(pos)
            pick = max if pos.to_move == pos.caller else min
            best = pick(vals.values())
            move = rng.choice([m for m in legal if vals[m] == best])
        pos.push(move)
        ply += 1


def replay_source(source: dict[str, Any], factory: SolverFactory | None = None) -> Position:
    """The position a puzzle's ``source`` ({"seed", "cards", "ply"}, optional "build") names,
    rebuilt by :func:`guided_walk`."""
    ctx = SolveContext(factory or DEFAULT_FACTORY)
    for ply, pos in guided_walk(source["seed"], source["cards"], ctx, source.get("build")):
        if ply == source["ply"]:
            return pos
    raise NotationError("source", f"the deal of seed {source['seed']} ends before ply {source['ply']}")


def _goal_candidates(pos: Position, value: int, moves: dict[Play, int]) -> list[str]:
    """The goals whose first move is unique here (the cheap filter before building a line)."""
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


def puzzles_from_seed(seed: int, opts: GenOptions, factory: SolverFactory | None = None) -> Iterator[Puzzle]:
    """Every puzzle meeting ``opts`` along the guided walk of the deal of ``seed`` (its starting
    size from :meth:`GenOptions.start_cards`). A goal is tried only when the first move is
    unique for it: ``win``/``stop`` first, ``most`` when they fail. Each puzzle found is
    verified again from scratch with a fresh solver, which gives its verification nodes."""
    cards = opts.start_cards(seed)
    ctx = SolveContext(factory or DEFAULT_FACTORY, opts.max_nodes)
    try:
        for ply, pos in guided_walk(seed, cards, ctx, opts.build):
            n = pos.cards_per_hand()
            if n < opts.min_cards:
                return
            if n > opts.max_cards or pos.can_claim() or sum(1 for _ in pos.legal_moves()) < 2:
                continue
            value, moves = ctx.values(pos)
            for goal in _goal_candidates(pos, value, moves):
                an = analyse(pos, goal, context=ctx)
                if not an.ok or not opts.accepts(an):
                    continue
                fresh = analyse(pos, goal, factory, an.solution, max_nodes=opts.max_nodes)
                if not fresh.ok:  # cannot happen: the same definitions, a fresh table
                    continue
                source: dict[str, Any] = {"seed": seed, "cards": cards, "ply": ply}
                if opts.build:
                    source["build"] = opts.build
                yield puzzle_from_analysis(fresh, puzzle_id(source), seed=seed, source=source)
    except PuzzleError:  # a solve hit the node cap: drop the rest of this deal
        return


def puzzle_id(source: dict[str, Any]) -> str:
    """The id of a generated puzzle: ``s<seed>c<cards>p<ply>`` (``b`` appended when built)."""
    return f"s{source['seed']}c{source['cards']}p{source['ply']}" + ("b" if source.get("build") else "")


def first_puzzle(seed: int, opts: GenOptions, factory: SolverFactory | None = None) -> Puzzle | None:
    """The first puzzle of the deal of ``seed`` meeting ``opts``, or None (one puzzle a deal keeps
    a collection varied)."""
    return next(puzzles_from_seed(seed, opts, factory), None)


def generate(
    count: int,
    opts: GenOptions,
    seed: int = 0,
    factory: SolverFactory | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_attempts: int | None = None,
) -> list[Puzzle]:
    """``count`` puzzles meeting ``opts`` from the deals of :func:`attempt_seeds` (``seed``), in
    order, at most one a deal: the result is a function of the arguments alone (never of the
    solver). ``progress(found, tried)`` is called after each deal."""
    opts.validate()
    found: list[Puzzle] = []
    for tried, s in enumerate(attempt_seeds(seed), 1):
        if len(found) >= count or (max_attempts is not None and tried > max_attempts):
            break
        p = first_puzzle(s, opts, factory)
        if p is not None:
            found.append(p)
        if progress is not None:
            progress(len(found), tried)
    return found


def summary_counts(puzzles: Iterable[Puzzle]) -> dict[str, dict[str, int]]:
    """How many puzzles of each tier, goal and theme."""
    ps = list(puzzles)
    return {
        "difficulty": {t: sum(p.difficulty == t for p in ps) for t in TIERS},
        "goal": {g: sum(p.goal == g for p in ps) for g in GOALS},
        "theme": {t: sum(t in p.themes for p in ps) for t in THEMES},
    }
