"""The solved line of a puzzle: its steps, what the line walk found (:class:`PuzzleAnalysis`) and the
rating it earns (:class:`Rating`) — the values the line walk, the rating and the file format
share, kept apart from all three so that none of them imports another for its types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..plays import Play
from ..position import Position
from .goals import SOLVE


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
class Step:
    """One move of a solution line: the move, who played it and its role (SOLVE, FORCED,
    DEFEND). A decision also keeps the value of every legal move and its greedy scores."""

    move: Play
    seat: int
    role: str
    values: dict[Play, int] = field(default_factory=dict)
    greedy: dict[Play, int] = field(default_factory=dict)


@dataclass
class PuzzleAnalysis:
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
