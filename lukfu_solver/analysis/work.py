"""What one evaluation of a decision in play may spend (:class:`Work`), the work of the in-game
hint at each level and of a game review, and how a player reads it.

One function values a decision (:func:`~lukfu_solver.analysis.moves.weigh_moves`): the same candidates,
the same sampled deals for a seed, and, given the same :class:`Work`, the same numbers, whether
the hint, the review or ``analyse`` asks. Work is counted, never timed (unless ``seconds`` is
given), so a seed gives the same numbers on any machine:

- ``samples`` sampled deals, every candidate valued on each (a paired comparison);
- each solve stops after ``max_nodes`` positions (None: exact);
- ``node_budget`` (None: none) bounds the whole decision: each solve gets at most
  ``node_budget / (samples x candidates)`` positions, so a hint answers at a table's pace;
- a solve that stops counts the rule player's play of its deal to the end, every hand seen,
  kept within what the solve proved (``docs/pimc.md``).

>>> HINT_WORK[3].limits(16), REVIEW_WORK.limits(16)
(SolveLimits(max_nodes=5208, time_limit=None), SolveLimits(max_nodes=100000, time_limit=None))
>>> REVIEW_WORK.covers(HINT_WORK[3]), HINT_WORK[3].covers(REVIEW_WORK), REVIEW_WORK.covers(HINT_WORK[4])
(True, False, False)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..errors import NotationError
from ..hidden.pimc import SolveLimits
from ..i18n import _, ngettext, number
from .defaults import REVIEW_MAX_NODES, REVIEW_SAMPLES


@dataclass(frozen=True)
class Work:
    """What one evaluation of a decision may spend: ``samples`` sampled deals, each solve within
    ``max_nodes`` positions (None: exact) and the whole decision within ``node_budget`` (None:
    no bound); ``seconds`` ends it early by the clock (None: never; the numbers then depend on
    the machine); ``infer`` weighs the sampled deals by the opponent model (``docs/inference.md``)."""

    samples: int
    max_nodes: int | None = None
    node_budget: int | None = None
    seconds: float | None = None
    infer: bool = False

    def limits(self, candidates: int) -> SolveLimits:
        """The limit of each solve when ``candidates`` moves are weighed on every sampled deal:
        ``max_nodes``, and no more than the node budget's share of one solve."""
        nodes = self.max_nodes
        if self.node_budget is not None:
            share = max(1, self.node_budget // max(1, self.samples * candidates))
            nodes = share if nodes is None else min(nodes, share)
        return SolveLimits(nodes)

    def covers(self, other: Work) -> bool:
        """True when this work is at least ``other`` in every respect (as many sampled deals or
        more, each solve and the whole decision allowed as many positions or more, no clock
        unless ``other`` has one as short): on the same seed it weighs the same sampled deals
        first, each solved at least as far."""

        def at_least(mine: float | None, theirs: float | None) -> bool:
            return mine is None or (theirs is not None and mine >= theirs)

        return (
            self.samples >= other.samples
            and at_least(self.max_nodes, other.max_nodes)
            and at_least(self.node_budget, other.node_budget)
            and at_least(self.seconds, other.seconds)
            and self.infer == other.infer
        )

    def with_samples(self, samples: int | None) -> Work:
        """This work with ``samples`` sampled deals instead (None: as it is)."""
        return self if samples is None else dataclasses.replace(self, samples=samples)

    def to_json(self) -> dict[str, Any]:
        """``{"samples", "max_nodes", "node_budget", "seconds", "infer"}`` (null: no such bound)."""
        return {
            "samples": self.samples,
            "max_nodes": self.max_nodes,
            "node_budget": self.node_budget,
            "seconds": self.seconds,
            "infer": self.infer,
        }

    def words(self) -> str:
        """The work in a player's words: ``24 sampled deals, each solve stops after 100,000
        positions`` (and the decision's bound, the clock), in the language in use."""
        deals = ngettext("{n} sampled deal", "{n} sampled deals", self.samples).format(n=number(self.samples))
        if self.max_nodes is None:
            parts = [deals, _("every solve exact (no limit)")]
        else:
            parts = [deals, _("each solve stops after {nodes} positions").format(nodes=number(self.max_nodes))]
        if self.node_budget is not None:
            parts.append(_("at most {nodes} positions a decision").format(nodes=number(self.node_budget)))
        if self.seconds is not None:
            parts.append(_("at most {seconds} s a decision").format(seconds=number(self.seconds, 1)))
        return ", ".join(parts)


HINT_WORK: dict[int, Work] = {
    1: Work(6, 20_000, 200_000),
    2: Work(12, 50_000, 600_000),
    3: Work(24, 100_000, 2_000_000),
    4: Work(48, 300_000, 10_000_000),
    5: Work(96, 600_000, 30_000_000),
}
"""The in-game hint's work at levels 1-5: the samples, the node limit of one solve and the node
budget of one decision of the ``pimc`` player at that level (``docs/pimc.md``, "Levels"), so a
hint answers at the pace of the engine of its level (times: ``docs/pimc.md``, "Figures")."""
REVIEW_WORK = Work(REVIEW_SAMPLES, REVIEW_MAX_NODES)
"""A game review's work a play decision: the default hint's sampled deals (level 3's), each solve
allowed the level's node limit without the decision's node budget, so on the same seed it weighs
the hint's sampled deals and solves each at least as far (``Work.covers``)."""


def hint_work(level: int) -> Work:
    """The hint's :class:`Work` at ``level`` (1-5; a NotationError naming ``level`` otherwise)."""
    if level not in HINT_WORK:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
    return HINT_WORK[level]
