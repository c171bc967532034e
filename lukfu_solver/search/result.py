"""What a solve returns and how a search stops: :class:`SolveResult`, the two exceptions the
zero-window drivers catch, and the value range (R16-R17: even integers from -14 to +14)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..plays import Play

MAX_VALUE = 14
"""The best value for the caller: six fu by the caller's side, paid by both others."""
MIN_VALUE = -14
"""The worst value for the caller."""
INF = 100
"""Beyond every value: the start of a max or min, and the open side of a bound."""


class SearchAborted(Exception):
    """Raised inside the search when the node or time limit is reached."""


class ProbeSettled(Exception):
    """Raised inside a zero-window test when another search of the same position has already
    proved bounds that answer it (:class:`~lukfu_solver.search.compiled.CompiledSolver` with threads=2)."""


@dataclass
class SolveResult:
    """What a solve found: the value (or bounds when stopped early), the best move, the principal
    variation, the value of every root move (all-moves mode) and the search statistics."""

    value: int | None
    lower: int
    upper: int
    best: Play | None
    pv: list[Play] = field(default_factory=list)
    moves: dict[Play, int] = field(default_factory=dict)
    nodes: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    ms: float = 0.0
    complete: bool = True
    stopped: str | None = None
    """Why an incomplete search stopped: ``"nodes"`` (max_nodes) or ``"time"`` (time_limit)."""

    @property
    def hit_rate(self) -> float:
        """Share of table probes that found an entry."""
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0
