"""The in-game hint: the numbers the play screen shows for the decision in front of a seat.

At the calling phase the hint is :func:`~lukfu_solver.analysis.advice.advise` itself (play and
pass on the same sampled deals, pass valued by the later seats' policy), so it gives exactly
``lukfu advise HAND --seat S --seed N --samples K --max-nodes M`` for the same hand, seed, samples
and limits (the level's ``call_samples`` and :data:`~lukfu_solver.analysis.defaults.ADVICE_MAX_NODES`
unless given); with a ``time_budget`` instead of ``samples`` it is ``lukfu advise ... --time T``
(anytime: the sequential test or the budget stops it). In the play phase it is the ``pimc``
player's analysis at the level: each candidate's expected points for the seat (M1/M2) ± one
standard error and ``p_caller_loses``, the share of samples in which the caller's value is below
0; the legal moves the level does not evaluate are in ``Hint.left_out`` with the reason. The
play phase is bounded by the level's node budget (a median of 0.009 s at level 3), so the time
budget applies to the call. With ``infer`` the play phase is the ``ipimc`` player's analysis
instead, its samples weighted by the other seats' calls and plays (``evidence="plays"``,
``docs/inference.md``: what their play says about the cards; the player itself, tuned for
points, weighs the calls alone); the call is the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import NotationError
from ..hidden.calls import Budget
from ..i18n import _
from ..players.ipimc import IpimcPlayer
from ..players.pimc import DEFAULT_LEVEL, LEVELS, Analysis, PimcPlayer
from ..plays import Play
from ..view import SeatView
from .advice import Advice, advise
from .defaults import ADVICE_MAX_NODES, advice_budget, make_limits
from .moves import SolveLimits


@dataclass
class Hint:
    """A hint: ``advice`` at the calling phase (``kind`` "call"), the player's ``decision`` in
    the play phase (``kind`` "play"); ``best`` is the advised answer."""

    kind: str
    level: int
    seed: int
    advice: Advice | None
    decision: Analysis | None
    seconds: float
    left_out: list[tuple[Play, str]] = field(default_factory=list)
    """Legal moves the play-phase analysis did not evaluate, each with the reason in words."""

    @property
    def best(self) -> object:
        """``"play"``/``"pass"`` at the calling phase, else the advised :class:`~lukfu_solver.plays.Play`."""
        if self.advice is not None:
            return self.advice.recommendation
        assert self.decision is not None
        return self.decision.best


def hint(
    view: SeatView,
    level: int = DEFAULT_LEVEL,
    seed: int = 0,
    *,
    samples: int | None = None,
    limits: SolveLimits | None = None,
    jobs: int = 1,
    time_budget: float | None = None,
    infer: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Hint:
    """The hint for ``view``'s seat, which must be to move: at the calling phase ``advise`` on its
    hand and seat with ``samples`` (default the level's ``call_samples``) and ``limits`` (default
    ``ADVICE_MAX_NODES`` a solve); with ``time_budget`` seconds and no ``samples``, the anytime
    advice (up to ``ANYTIME_SAMPLES``, stopped by the sequential test or the budget). In the play
    phase ``PimcPlayer(level, seed).analyse(view)`` (with ``infer``, ``IpimcPlayer``'s with the
    evidence of the plays). ``progress(done, total)`` hears of the call's samples as they are
    valued (the play phase, bounded by the level's node budget, reports nothing)."""
    if level not in LEVELS:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
    if view.to_move != view.seat:
        raise NotationError("view", _("seat {seat} is not to move").format(seat=view.seat))
    t0 = time.perf_counter()
    if view.caller is None:
        lim = limits or make_limits(None, None, ADVICE_MAX_NODES)
        if time_budget is not None and samples is None:
            n, budget = advice_budget(None, time_budget, view.seat)
        else:
            n = LEVELS[level].call_samples if samples is None else samples
            budget = None if time_budget is None else Budget(time_budget)
        adv = advise(view.hand, view.seat, n, seed, jobs, lim, progress, budget=budget)
        return Hint("call", level, seed, adv, None, time.perf_counter() - t0)
    player = IpimcPlayer(level, seed=seed, evidence="plays") if infer else PimcPlayer(level, seed=seed)
    decision = player.analyse(view)
    return Hint("play", level, seed, None, decision, time.perf_counter() - t0, list(decision.left_out))
