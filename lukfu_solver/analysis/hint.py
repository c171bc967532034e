"""The in-game hint: the numbers the play screen shows for the decision in front of a seat.

At the calling phase the hint is :func:`~lukfu_solver.analysis.advice.advise` itself (play and
pass on the same sampled deals, pass valued by the later seats' policy) **with advise's own
default budget**, so it gives the answer ``lukfu advise HAND --seat S --seed N`` gives: one
question, one number (it thinks for the default time, 0.8 s, 3 s for the Master, stopping
sooner once the answer is clear; each solve stops after
:data:`~lukfu_solver.analysis.defaults.ADVICE_MAX_NODES` positions unless ``limits`` say
otherwise); ``samples`` fixes the work instead (``lukfu advise ... --samples K``), ``time_budget``
sets the time (``--time T``). In the play phase it is the ``pimc``
player's analysis at the level: each candidate's expected points for the seat (M1/M2) ± one
standard error and ``p_caller_loses``, the share of samples in which the caller's value is below
0; the legal moves the level does not evaluate are in ``Hint.left_out`` with the reason. The
play phase is bounded by the level's node budget (a median of 0.009 s at level 3), so the time
budget applies to the call. With ``infer`` the play phase is the analysis of the configuration
measured ahead of ``pimc`` (``players.ipimc.pool_player``: a pool of four times the level's
samples weighed by the rule model's likelihood of the other seats' calls and plays, the level's
samples resampled from it), its pool drawn afresh for the view, so a hint depends on its view
and seed alone (the player ``ipimc`` carries its pool between decisions; a fresh pool has the
same distribution, ``docs/inference.md``); the call is the same.

What a player sees of it: the hint weighs the player's candidates **and every lead that cannot
lose its trick** (:func:`sure_leads`: no play of the cards still unseen beats it), so a move it
leaves out is never one a player would call obvious; :meth:`Hint.top` are the best few moves and
:meth:`Hint.untold` the one line on the rest (weighed and worth less, or not weighed and why, in
plain words). At a discard the few sensible discards (:func:`sensible_discards`: the cheapest by
what the cards are worth keeping, the hint's own candidates) are offered first
(:func:`menu_order`), the rest typed as cards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotationError
from ..i18n import _, ngettext
from ..players.ipimc import pool_player
from ..players.pimc import DEFAULT_LEVEL, LEVELS, PimcDecision, PimcPlayer
from ..plays import CLAIM, DISCARD, Play
from ..rules import can_beat
from ..view import SeatView
from .advice import Advice, advise
from .calibration import DEFAULT_AGAINST
from .defaults import ADVICE_MAX_NODES, advice_budget, make_limits
from .moves import SolveLimits

SHOWN = 5
"""The moves a hint shows: the best few; :meth:`Hint.untold` says what the rest are."""


def sure_leads(view: SeatView) -> list[Play]:
    """The seat's legal leads that cannot lose their trick: no play the cards it cannot see could
    make beats them, however those cards lie (an Old single, a set or run nobody can top). Empty
    when it is not leading."""
    if view.trick or view.caller is None or view.to_move != view.seat:
        return []
    unseen = view.unseen
    return [m for m in view.sorted_legal_moves() if m.kind != CLAIM and not can_beat(unseen, m, True)]


def sensible_discards(view: SeatView, level: int = DEFAULT_LEVEL) -> list[Play]:
    """The discards worth considering when the seat cannot beat: the cheapest by what its cards
    are worth keeping (the hint's own candidates at ``level``, the rule player's discard first).
    Empty when the decision is not a discard."""
    legal = view.legal_moves()
    first = next(legal, None)
    if first is None or first.kind != DISCARD:
        return []
    return PimcPlayer(level).candidates(view)


def menu_order(view: SeatView, level: int = DEFAULT_LEVEL) -> list[Play]:
    """The legal moves in the order a table offers them: at a discard the sensible ones first
    (:func:`sensible_discards`), then the rest; otherwise the canonical order."""
    moves = view.sorted_legal_moves()
    first = sensible_discards(view, level)
    return first + [m for m in moves if m not in set(first)] if first else moves


def _plain_left_out(view: SeatView, weighed: list[Play]) -> list[tuple[Play, str]]:
    """The legal moves the hint did not weigh, each with a reason a player accepts."""
    chosen = set(weighed)
    rest = [m for m in view.sorted_legal_moves() if m not in chosen]
    if not rest:
        return []
    if rest[0].kind == DISCARD:
        why = _("each gives up cards worth more to keep than the discards weighed")
    elif view.trick:
        why = _("each is a dearer way to beat than those weighed")
    else:
        why = _("each spends cards worth more to keep than the leads weighed, and none is sure to win its trick")
    return [(m, why) for m in rest]


@dataclass
class Hint:
    """A hint: ``advice`` at the calling phase (``kind`` "call"), the player's ``decision`` in
    the play phase (``kind`` "play"); ``best`` is the advised answer."""

    kind: str
    level: int
    seed: int
    advice: Advice | None
    decision: PimcDecision | None
    seconds: float
    left_out: list[tuple[Play, str]] = field(default_factory=list)
    """Legal moves the play-phase analysis did not evaluate, each with the reason in words."""

    def top(self, n: int = SHOWN) -> list[Any]:
        """The best ``n`` moves weighed, best first (each with its expected points, ± and the
        chance the caller loses); empty at the call."""
        return [] if self.decision is None else list(self.decision.moves[:n])

    def untold(self, n: int = SHOWN) -> str | None:
        """One line on the legal moves :meth:`top` does not show: those weighed and worth less,
        those not weighed and why (None when it shows them all)."""
        if self.decision is None:
            return None
        parts = []
        worse = len(self.decision.moves) - n
        if worse > 0:
            parts.append(
                ngettext("{k} more move weighed, worth less", "{k} more moves weighed, worth less", worse).format(k=worse)
            )
        if self.left_out:
            m = len(self.left_out)
            parts.append(
                ngettext("{m} not weighed: {why}", "{m} not weighed: {why}", m).format(m=m, why=self.left_out[0][1])
            )
        return _("Not shown: {parts}.").format(parts="; ".join(parts)) if parts else None

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
    against: str | None = DEFAULT_AGAINST,
) -> Hint:
    """The hint for ``view``'s seat, which must be to move: at the calling phase ``advise`` on its
    hand and seat as ``lukfu advise`` answers by default (anytime: up to ``ANYTIME_SAMPLES``,
    stopped by the sequential test or the default budget, ``time_budget`` seconds if given), or
    with exactly ``samples``; ``limits`` default to ``ADVICE_MAX_NODES`` a solve. In the play
    phase ``PimcPlayer(level, seed).analyse(view)`` (with ``infer``, the analysis of
    ``pool_player(level, seed, carry=False)``: the module notes), its candidates with every sure
    lead added. ``progress(done, total)`` hears of the call's samples as they are valued (the play
    phase, bounded by the level's node budget, reports nothing). ``against``: the opponents'
    strength the call's values are calibrated against (``advise``'s; a table passes its own)."""
    if level not in LEVELS:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
    if view.to_move != view.seat:
        raise NotationError("view", _("seat {seat} is not to move").format(seat=view.seat))
    t0 = time.perf_counter()
    if view.caller is None:
        lim = limits or make_limits(None, None, ADVICE_MAX_NODES)
        n, budget = advice_budget(samples, time_budget, view.seat)  # no samples: advise's own default
        adv = advise(view.hand, view.seat, n, seed, jobs, lim, progress, budget=budget, against=against)
        return Hint("call", level, seed, adv, None, time.perf_counter() - t0)
    player = pool_player(level, seed, carry=False) if infer else PimcPlayer(level, seed=seed)
    own = player.candidates

    def candidates(v: SeatView) -> list[Play]:
        """The player's candidates and every lead sure of its trick (never left out)."""
        chosen = own(v)
        return chosen + [m for m in sure_leads(v) if m not in chosen] if len(chosen) > 1 else chosen

    setattr(player, "candidates", candidates)  # noqa: B010 - this one decision's candidates, not the player's
    decision = player.analyse(view)
    weighed = [e.move for e in decision.moves]
    left = _plain_left_out(view, weighed) if len(weighed) > 1 else []
    return Hint("play", level, seed, None, decision, time.perf_counter() - t0, left)
