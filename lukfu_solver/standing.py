"""How a person stands against each strength: the deals played and the points a deal, from the
results of the finished deals (each a :class:`~lukfu_solver.series.DealResult`, read from a
record), with a 95% interval once there are enough deals to give one.

The deals are grouped by whom the person played (:attr:`DealResult.against`: ``easy`` for two
easy players, ``easy + strong`` for one of each, an engine spec as typed); the plain strengths
come first, weakest first, then the rest by name. The interval is the match's
(:func:`lukfu_solver.match.interval`, Student's t over the deals' points), given from
:data:`MIN_DEALS` deals on: below that it says little and is left out.

>>> r = DealResult(1, ("you", "easy A", "easy B"), 0, 0, (2, -1, -1))
>>> [a.to_json()["deals"] for a in standing([r, r._replace(points=(-2, 1, 1))])]
[2]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from .match import interval
from .players import STRENGTHS
from .series import DealResult

MIN_DEALS = 10
"""The fewest deals against one strength for which a 95% interval is given."""


class Against(NamedTuple):
    """The person's deals against one set of ``opponents``: how many, the ``points`` they came to,
    the ``mean`` a deal and its 95% interval (``low``, ``high``; None below :data:`MIN_DEALS`),
    how many the person ``called`` in and how many it ``won``."""

    opponents: tuple[str, ...]
    deals: int
    points: int
    mean: float
    low: float | None
    high: float | None
    called: int
    won: int

    def to_json(self) -> dict[str, Any]:
        """``{"opponents", "deals", "points", "mean", "ci95", "called", "won"}`` (``ci95`` null
        below :data:`MIN_DEALS` deals)."""
        ci = None if self.low is None or self.high is None else [round(self.low, 4), round(self.high, 4)]
        return {
            "opponents": list(self.opponents),
            "deals": self.deals,
            "points": self.points,
            "mean": round(self.mean, 4),
            "ci95": ci,
            "called": self.called,
            "won": self.won,
        }


def _order(opponents: tuple[str, ...]) -> tuple[int, int, str]:
    """The plain strengths first (one strength for both, weakest first), then mixed ones, then engines."""
    strengths = list(STRENGTHS)
    plain = all(o in strengths for o in opponents)
    rank = sum(strengths.index(o) for o in opponents) if plain else 0
    return (0 if plain and len(opponents) == 1 else 1 if plain else 2, rank, " ".join(opponents))


def standing(results: Iterable[DealResult]) -> list[Against]:
    """The person's standing against each set of opponents over ``results`` (the deals without a
    ``you`` seat are left out)."""
    groups: dict[tuple[str, ...], list[DealResult]] = {}
    for r in results:
        if r.you is not None:
            groups.setdefault(r.against, []).append(r)
    out = []
    for key in sorted(groups, key=_order):
        deals = groups[key]
        points = [r.points[r.you] for r in deals if r.you is not None]
        mean, low, high = interval(points)
        given = len(points) >= MIN_DEALS and math.isfinite(low) and math.isfinite(high)
        out.append(
            Against(
                key,
                len(points),
                sum(points),
                mean,
                low if given else None,
                high if given else None,
                sum(1 for r in deals if r.caller is not None and r.caller == r.you),
                sum(1 for r in deals if r.winner is not None and r.winner == r.you),
            )
        )
    return out
