"""A dealt hand before calling, as ``lukfu analyse HAND`` shows it: its facts, the call/pass
advice and, for the Master (who leads first, R4), the expected points of each first lead."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cards import CardSet, format_cards
from ..view import SeatView
from .advice import Advice, HandFacts, advise, hand_facts
from .defaults import ADVICE_MAX_NODES, ADVISE_SAMPLES, LEAD_SAMPLES, make_limits
from .moves import Analysis, SolveLimits, analyse

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
    leads: Analysis | None
    lead_limits: SolveLimits


def first_leads(
    hand: CardSet, samples: int, seed: int, jobs: int, limits: SolveLimits, progress: Progress | None = None
) -> Analysis:
    """The Master's first leads if it calls: every lead valued on all ``samples`` deals (no early stop)."""
    view = SeatView.parse(f"0 {format_cards(hand)} 0 -")
    return analyse(view, samples, seed, jobs, limits, early_stop=False, progress=progress)


def analyse_hand(
    hand: CardSet,
    seat: int,
    samples: int = ADVISE_SAMPLES,
    lead_samples: int = LEAD_SAMPLES,
    seed: int = 0,
    jobs: int = 1,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: ProgressFactory | None = None,
) -> HandAnalysis:
    """Facts, advice (``samples``, :data:`ADVICE_MAX_NODES` unless ``max_nodes``) and, at seat 0
    with ``lead_samples`` > 0, the first-lead table (``DEFAULT_MAX_NODES`` unless ``max_nodes``)."""
    advice_limits = make_limits(max_nodes, time_limit, ADVICE_MAX_NODES)
    lead_limits = make_limits(max_nodes, time_limit)
    bar = progress or (lambda description: None)
    adv = advise(hand, seat, samples, seed, jobs, advice_limits, progress=bar("call or pass"))
    leads = None
    if seat == 0 and lead_samples:
        leads = first_leads(hand, lead_samples, seed, jobs, lead_limits, bar("first leads if it calls"))
    return HandAnalysis(hand, seat, hand_facts(hand), adv, advice_limits, leads, lead_limits)
