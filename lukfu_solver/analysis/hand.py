"""A dealt hand before calling, as ``lukfu analyse HAND`` shows it: its facts, the call/pass
advice and, for the Master (who leads first, R4), the expected points of each first lead."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import CardSet, format_cards
from ..policy.calling import HandFacts, hand_facts
from ..view import SeatView
from .advice import Advice, advise
from .calibration import DEFAULT_AGAINST
from .defaults import ADVICE_MAX_NODES, HAND_TIME, LEAD_SAMPLES, LEAD_TIME, advice_budget, make_limits
from .moves import SolveLimits, ViewAnalysis, analyse

Progress = Callable[[int, int], None]
ProgressFactory = Callable[[str], Progress | None]
"""Makes a ``(done, total)`` callback for a described step (or None: no progress shown)."""


@dataclass
class HandAnalysis:
    """What :func:`analyse_hand` found: the facts, the advice and (seat 0) the first leads."""

    hand: CardSet
    seat: int
    facts: HandFacts
    advice: Advice
    advice_limits: SolveLimits
    leads: ViewAnalysis | None
    lead_limits: SolveLimits


def first_leads(
    hand: CardSet,
    samples: int,
    seed: int,
    jobs: int,
    limits: SolveLimits,
    progress: Progress | None = None,
    budget: float | None = None,
) -> ViewAnalysis:
    """The Master's first leads if it calls: every lead valued on all ``samples`` deals (no early
    stop), or as many as ``budget`` seconds allow."""
    view = SeatView.parse(f"0 {format_cards(hand)} 0 -")
    return analyse(view, samples, seed, jobs, limits, early_stop=False, progress=progress, budget=budget)


def analyse_hand(
    hand: CardSet,
    seat: int,
    samples: int | None = None,
    lead_samples: int = LEAD_SAMPLES,
    seed: int = 0,
    jobs: int = 1,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: ProgressFactory | None = None,
    budget: float | None = None,
    lead_budget: float | None = None,
    against: str | None = DEFAULT_AGAINST,
) -> HandAnalysis:
    """Facts, advice (:func:`~.defaults.advice_budget` of ``samples`` and ``budget``,
    :data:`ADVICE_MAX_NODES` unless ``max_nodes``) and, at seat 0 with ``lead_samples`` > 0, the
    first-lead table (``DEFAULT_MAX_NODES`` unless ``max_nodes``). ``time_limit`` is the per-solve
    limit.

    With the table, ``budget`` is the whole answer's (default :data:`HAND_TIME` when ``samples``
    is not fixed): the table runs first, within ``lead_budget`` (default its share,
    :data:`LEAD_TIME` of :data:`HAND_TIME`, of the whole), and the advice gets what is left of the
    whole. The table's first sample always finishes, so when it runs over, the advice gets less
    (none left: the model's answer, which the advice says), and the answer still ends on time.
    ``against``: the opponents' strength the advice is calibrated against (``advise``'s)."""
    advice_limits = make_limits(max_nodes, time_limit, ADVICE_MAX_NODES)
    lead_limits = make_limits(max_nodes, time_limit)
    bar = progress or (lambda description: None)
    leads = None
    if seat == 0 and lead_samples > 0:
        t0 = time.perf_counter()
        total = HAND_TIME if budget is None and samples is None else budget
        if lead_budget is None and total is not None:
            lead_budget = total * LEAD_TIME / HAND_TIME
        leads = first_leads(hand, lead_samples, seed, jobs, lead_limits, bar("first leads if it calls"), lead_budget)
        budget = None if total is None else max(0.0, total - (time.perf_counter() - t0))
    n, stop = advice_budget(samples, budget, seat)
    adv = advise(hand, seat, n, seed, jobs, advice_limits, progress=bar("call or pass"), budget=stop, against=against)
    return HandAnalysis(hand, seat, hand_facts(hand), adv, advice_limits, leads, lead_limits)
