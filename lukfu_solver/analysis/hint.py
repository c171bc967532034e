"""The in-game hint: the numbers the play screen shows for the decision in front of a seat.

At the calling phase the hint is :func:`~lukfu_solver.analysis.advice.advise` itself (play and
pass on the same sampled deals, pass valued by the later seats' policy) **with advise's own
default budget**, so it gives the answer ``lukfu advise HAND --seat S --seed N`` gives: one
question, one number (it thinks for the default time, 0.8 s, 3 s for the Master, stopping
sooner once the answer is clear; each solve stops after
:data:`~lukfu_solver.analysis.defaults.ADVICE_MAX_NODES` positions unless ``limits`` say
otherwise); ``samples`` fixes the work instead (``lukfu advise ... --samples K``), ``time_budget``
sets the time (``--time T``).

In the play phase the hint is the one evaluation of a decision
(:func:`~lukfu_solver.analysis.moves.weigh_moves`), the review's and ``analyse``'s, at the level's work
(:data:`~lukfu_solver.analysis.work.HINT_WORK`: the ``pimc`` player's samples, node limit and
node budget at that level, so it answers at that engine's pace): each candidate's expected
points for the seat (M1/M2) ± one standard error and ``p_caller_loses``, the share of samples in
which the caller's value is below 0. The candidates are every legal move, but at a discard of two
or three cards the sensible ten (:func:`sensible_discards`); the discards not weighed are in
``Hint.left_out`` with the reason. ``lukfu review RECORD --level L`` (the record's seed) gives the
very numbers of the hints of a deal played at level ``L``. With ``infer`` the sampled deals are weighed by the
opponent model (``analyse --infer``, ``docs/inference.md``), drawn afresh for the view, so a hint
depends on its view and seed alone.

What a player sees of it: :meth:`Hint.top` are the best few moves and :meth:`Hint.untold` the
one line on the rest (weighed and within error of the best, weighed and worth less, or not
weighed and why, in plain words). Every lead that cannot lose its trick (:func:`sure_leads`) is
weighed, as every legal lead is. At a discard the sensible discards are offered first
(:func:`menu_order`), the rest typed as cards.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..cards import format_cards
from ..errors import NotationError
from ..hidden.pimc import ChoiceEstimate, paired_difference
from ..i18n import _, ngettext
from ..players.pimc import DEFAULT_LEVEL
from ..plays import CLAIM, DISCARD, Play
from ..rules import can_beat
from ..view import SeatView
from .advice import Advice, advise
from .calibration import DEFAULT_AGAINST
from .defaults import ADVICE_MAX_NODES, advice_budget, make_limits
from .moves import SolveLimits, ViewAnalysis, candidates, left_out, weigh_moves
from .review import within_error
from .work import Work, hint_work

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


def sensible_discards(view: SeatView) -> list[Play]:
    """The discards worth considering when the seat cannot beat: the cheapest by what its cards
    are worth keeping, the rule player's first (the decision's candidates,
    :func:`~lukfu_solver.analysis.moves.candidates`). Empty when the decision is not a discard."""
    legal = view.legal_moves()
    first = next(legal, None)
    if first is None or first.kind != DISCARD:
        return []
    return candidates(view)


def menu_order(view: SeatView) -> list[Play]:
    """The legal moves in the order a table offers them: at a discard the sensible ones first
    (:func:`sensible_discards`), then the rest; otherwise the canonical order."""
    moves = view.sorted_legal_moves()
    first = sensible_discards(view)
    return first + [m for m in moves if m not in set(first)] if first else moves


@dataclass
class Hint:
    """A hint: ``advice`` at the calling phase (``kind`` "call"), the decision's ``analysis`` in
    the play phase (``kind`` "play", at ``work``); ``best`` is the advised answer."""

    kind: str
    level: int
    seed: int
    advice: Advice | None
    analysis: ViewAnalysis | None
    seconds: float
    left_out: list[tuple[Play, str]] = field(default_factory=list)
    """Legal moves the play-phase analysis did not evaluate, each with the reason in words."""
    view: SeatView | None = None
    """The view the hint is for."""
    limits: SolveLimits | None = None
    """At the call, the per-solve limits of the advice."""
    work: Work | None = None
    """In play, the work of the analysis (the level's, :func:`~lukfu_solver.analysis.work.hint_work`)."""

    def top(self, n: int = SHOWN) -> list[ChoiceEstimate]:
        """The best ``n`` moves weighed, best first (each with its expected points, ± and the
        chance the caller loses); empty at the call."""
        return [] if self.analysis is None else list(self.analysis.moves[:n])

    def within_error(self, move: ChoiceEstimate) -> bool:
        """True when ``move`` is within error of the best on the sampled deals (its paired
        difference from the best is inside its error: ``review.within_error``)."""
        assert self.analysis is not None and self.analysis.best is not None
        return within_error(*paired_difference(self.analysis.best, move))

    def untold(self, n: int = SHOWN) -> str | None:
        """One line on the legal moves :meth:`top` does not show: those weighed and within error
        of the best, those weighed and worth less, those not weighed and why (None when it shows
        them all)."""
        if self.analysis is None:
            return None
        parts = []
        rest = self.analysis.moves[n:]
        close = sum(self.within_error(e) for e in rest)
        worse = len(rest) - close
        if close:
            parts.append(
                ngettext(
                    "{k} more move weighed, within error of the best",
                    "{k} more moves weighed, within error of the best",
                    close,
                ).format(k=close)
            )
        if worse:
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
    def command(self) -> str | None:
        """At the call, the ``lukfu advise`` line that gives the same answer (with advise's own
        default budget, as the hint thinks, and ``--against`` unless it is advise's default);
        None in play."""
        a = self.advice
        if a is None:
            return None
        line = f"lukfu advise {format_cards(a.hand)} --seat {a.seat} --seed {a.seed}"
        return line if a.against in (None, DEFAULT_AGAINST) else f"{line} --against {a.against}"

    @property
    def budget_seconds(self) -> float | None:
        """At the call, the most seconds the advice thinks (advise's default budget for the seat)."""
        if self.advice is None:
            return None
        _n, budget = advice_budget(None, None, self.advice.seat)
        return budget.seconds if budget is not None else None

    def to_json(self) -> dict[str, Any]:
        """The hint as JSON data (the browser table's): at the call ``kind`` ``call`` and the
        answer of :attr:`command` as ``lukfu advise --json`` prints it
        (:meth:`~lukfu_solver.analysis.advice.Advice.answer_json`), with the reasons said in the
        reader's language (``said``), the :attr:`command` and its :attr:`budget_seconds`; in play
        ``kind`` ``play``: the best few moves (:meth:`top`) with the seat's points, ± and the
        chance the caller loses (unrounded: the page rounds them once, as the terminal does),
        whether each is within error of the best, the line on the rest (:meth:`untold`), the
        samples, the moves weighed, the ``work`` and whether the seat is the caller."""
        if self.advice is not None:
            adv = self.advice
            extra = {"said": adv.said(), "command": self.command, "budget_seconds": self.budget_seconds}
            return {"kind": "call", **adv.answer_json(self.limits), **extra}
        a = self.analysis
        assert a is not None and self.view is not None
        moves = [
            {
                "move": str(m.move),
                "points": m.mean,
                "stderr": m.stderr,
                "caller_loses": m.p_caller_loses if m.values else None,
                "within_error": self.within_error(m) if m.values else True,
            }
            for m in self.top()
        ]
        return {
            "kind": "play",
            "level": self.level,
            "seed": self.seed,
            "samples": a.samples,
            "best": str(self.best),
            "moves": moves,
            "untold": self.untold(),
            "weighed": len(a.moves),
            "work": None if self.work is None else self.work.to_json(),
            "seconds": round(self.seconds, 2),
            "you_are_caller": self.view.seat == self.view.caller,
        }

    @property
    def best(self) -> object:
        """``"play"``/``"pass"`` at the calling phase, else the advised :class:`~lukfu_solver.plays.Play`."""
        if self.advice is not None:
            return self.advice.recommendation
        assert self.analysis is not None and self.analysis.best is not None
        return self.analysis.best.move


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
    phase :func:`~lukfu_solver.analysis.moves.weigh_moves` at the level's work (``samples``, if given,
    instead of its sampled deals; ``infer``: weighed by the opponent model); a single legal move
    is not weighed. ``progress(done, total)`` hears of the samples as they are valued.
    ``against``: the opponents' strength the call's values are calibrated against (``advise``'s;
    a table passes its own)."""
    level_work = hint_work(level)  # a NotationError naming the level first
    if view.to_move != view.seat:
        raise NotationError("view", _("seat {seat} is not to move").format(seat=view.seat))
    t0 = time.perf_counter()
    if view.caller is None:
        lim = limits or make_limits(None, None, ADVICE_MAX_NODES)
        n, budget = advice_budget(samples, time_budget, view.seat)  # no samples: advise's own default
        adv = advise(view.hand, view.seat, n, seed, jobs, lim, progress, budget=budget, against=against)
        return Hint("call", level, seed, adv, None, time.perf_counter() - t0, view=view, limits=lim)
    work = dataclasses.replace(level_work.with_samples(samples), infer=infer)
    legal = view.sorted_legal_moves()
    if len(legal) == 1:
        only = ViewAnalysis(view, [ChoiceEstimate(legal[0], 0.0, 0.0, ())], 0, seed, None, False, 0, 0.0)
        return Hint("play", level, seed, None, only, time.perf_counter() - t0, view=view, work=work)
    analysis = weigh_moves(view, work, seed, jobs=jobs, progress=progress)
    left = left_out(view, [e.move for e in analysis.moves])  # type: ignore[misc]
    return Hint("play", level, seed, None, analysis, time.perf_counter() - t0, left, view=view, work=work)
