"""How hard a puzzle is and what it shows: the greedy one-trick look-ahead, the rating from
measured quantities of the line (never of the solver), its tiers, and theme detection
(``docs/puzzles.md``).

The rating is a function of the line alone, so a faster solver never changes it:

>>> tier_of(3), tier_of(4), tier_of(7)
('easy', 'medium', 'hard')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..plays import CLAIM, DISCARD, RUN, SET, Play
from ..position import Position
from .goals import MIN_DECISIONS, SOLVE
from .solution import PuzzleAnalysis, Rating

if TYPE_CHECKING:
    from collections.abc import Iterable


TIERS = ("easy", "medium", "hard")
THEMES = (
    "squeeze of Old cards",
    "run versus set",
    "discard choice",
    "claim timing",
    "playing on for more points",
)

# Difficulty: score = 2·(decisions − 2) + tempting + 2·misled + ⌊log2(1 + branching)⌋ (see rate()).
EASY_MAX = 3
"""Scores up to this are easy."""
MEDIUM_MAX = 6
"""Scores above EASY_MAX up to this are medium; higher scores are hard."""
RATING_FORMULA = (
    "score = 2*(decisions-2) + tempting + 2*misled + floor(log2(1+branching)); easy <= 3 < medium <= 6 < hard"
)
"""The formula in words, written into every stored puzzle (informative)."""

TERMINAL_WEIGHT = 10
"""The greedy look-ahead scores an ended deal as 10 × the caller's points (a fu is worth 1)."""


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


# ---------------------------------------------------------------- rating and themes


def rate(an: PuzzleAnalysis) -> Rating:
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


def detect_themes(an: PuzzleAnalysis) -> list[str]:
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
