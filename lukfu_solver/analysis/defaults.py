"""The analysis defaults (samples, per-solve node limits) and the checks of a request, shared by
``lukfu analyse``/``lukfu advise``, the in-game hint and the benchmarks.

A solve stops after a node limit and an unfinished solve counts the midpoint of the bounds it
proved. Advice solves only one or two whole 12-card deals a sample, so it can afford a limit,
:data:`ADVICE_MAX_NODES`, high enough that nearly every solve is exact; a view's moves and the
first-lead table solve every legal move a sample, so they keep :data:`DEFAULT_MAX_NODES`. Node
limits keep a seed's results identical on any machine and with any number of jobs; a time limit
makes them depend on speed. The measured costs behind these figures are in ``docs/pimc.md``.

>>> make_limits(None, None), make_limits(0, 2.5, ADVICE_MAX_NODES)
(SolveLimits(max_nodes=500000, time_limit=None), SolveLimits(max_nodes=None, time_limit=2.5))
>>> is_view_text("1 C1378S57M24T789 1 T2,T4,T6"), is_view_text("C19S345M2789T189")
(True, False)
"""

from __future__ import annotations

from ..cards import CardSet, parse_cards
from ..errors import NotationError
from ..hidden.calls import Budget, TwoPhase
from ..hidden.pimc import SolveLimits
from ..i18n import _
from ..inputs import MAX_JOBS, MAX_NODES, MAX_SAMPLES, check_int, check_seconds
from ..view import HAND_SIZE
from .cheap_value import CheapValue

DEFAULT_MAX_NODES = 500_000
"""Per-solve node limit of ``analyse VIEW`` and of the first-lead table, which solve every legal
move of every sample (a fraction of a second of the compiled solver; ``docs/pimc.md``)."""
ADVICE_MAX_NODES = 16_000_000
"""Per-solve node limit of call/pass advice: nearly every whole-deal solve finishes below it
(``docs/pimc.md`` has the share that stops and the time a hand takes)."""
DESCEND_NODES = 1_000_000
"""A call valuation's solves allowed at least this many nodes (or no limit) descend from the deal's
upper bound (``hidden.pimc.Evaluator``'s ``descend``): nearly all of them finish, so their cost is
what the start changes (0.97x, 0.86x, 0.79x the nodes of the halfway start at seats 0, 1, 2 on the
training deals of ``train/deal_model.py``); under a smaller limit many stop, and the halfway
start's bounds, proved on both sides, give the better midpoint."""
RESTARTS = (10_000, 1.5)
"""A call valuation's descending solves (:data:`DESCEND_NODES`) run as a chain of node-limited
solves on one table, the first of 10,000 nodes and each next 1.5 times as many, each from the
tightest upper bound proved so far (``hidden.pimc.Evaluator``'s ``restarts``): the same values for
fewer nodes where one descent wanders. On 4 reference deals of each bench hand, 0.64x, 0.96x,
1.05x the nodes of one descending solve at seats 0, 1, 2, 0.72x in all
(``bench/results/advise-levers.json``, ``descend``; other chains: ``docs/history/``)."""
ADVISE_SAMPLES = 32
"""Samples of ``advise`` (and of the advice in ``analyse HAND``)."""
VIEW_SAMPLES = 48
"""Samples of ``analyse VIEW`` at most (it stops early, after 24, once the best move is clear)."""
LEAD_SAMPLES = 8
"""Samples of the first-lead table of ``analyse HAND --seat 0``: every lead solved per sample."""
ADVISE_TIME = 0.8
"""The default time budget of an answer (``--time``), in seconds: ``advise``, the advice of
``analyse HAND`` and the hint at the call answer within it (the measured times in
``docs/pimc.md``); ``analyse HAND --seat 0`` with its first-lead table has :data:`HAND_TIME`.
A ``lukfu advise`` process spends about a second more starting (the imports and the compiled
kernel's load) and printing, so the whole answer comes within 2 s
(``bench/results/advise-pace.json``)."""
MASTER_TIME = 3.0
"""The default time budget of the Master's call/pass advice (seat 0): passing there usually leads
to a later seat's call, so a sample solves two deals, and the Master's deals are the hardest
(seconds a sample on the bench hands: ``bench/results/advise-reference.json``), so the
Master gets more; the other seats keep :data:`ADVISE_TIME`."""
HAND_TIME = 4.6
"""The default time budget of the whole answer of ``analyse HAND --seat 0`` (the first-lead table
and the Master's advice together): the table runs first, within :data:`LEAD_TIME`, and the advice
gets what the table left, so a first sample of the table that runs over (it always finishes)
shortens the advice, not the answer's end; the whole stays within 5 s."""
LEAD_TIME = 2.0
"""The default time budget of the first-lead table of ``analyse HAND --seat 0``, out of
:data:`HAND_TIME`."""
VIEW_TIME = 5.0
"""The default time budget of ``analyse VIEW``."""
ANYTIME_SAMPLES = 256
"""The most sampled deals an answer with a time budget draws, the cheap ones of two-phase sampling
included (the budget or the sequential test usually stops it earlier)."""
DECIDE_Z = 3.0
"""The sequential test: sampling stops once the paired play - pass difference is more than this
many standard errors from 0 ..."""
DECIDE_MIN = 8
"""... after at least this many samples (deals solved exactly) ..."""
DECIDE_SE = 0.5
"""... and once its standard error is at most this many points: a clear answer goes on sampling
within its budget until its numbers are that sharp (``hidden.calls.Budget.precision``)."""

REVIEW_SAMPLES = 24
"""Sampled deals of each decision of a game review (``analysis.review_work``), a fixed number so
that a seed gives the same review on any machine and with any number of jobs: every candidate of
a play, *play* and *pass* of the call, on the same deals; the default hint's (level 3's), so on
the hint's seed the review weighs the very deals the hint weighed."""
REVIEW_MAX_NODES = 100_000
"""Per-solve node limit of a review's play decisions, the default hint's own limit of one solve
(without the hint's budget a decision): with :data:`REVIEW_SAMPLES` a whole deal, every seat,
stays within the minute a player waits for it (``bench/results/review.json``); late in a deal
every solve finishes far below it."""
REVIEW_CALL_MAX_NODES = 2_000_000
"""Per-solve node limit of a review's call: a whole deal a sample (two when a later seat calls),
nearly all finishing below it."""


CHEAP_NODES = 5_000
"""The node limit of the cheap solves of two-phase sampling (:data:`ADVICE_TWO_PHASE`)."""
ADVICE_TWO_PHASE = {
    0: TwoPhase(cheap_nodes=CHEAP_NODES, every=8, diff_share=0.44, value=CheapValue(CHEAP_NODES)),
    1: TwoPhase(cheap_nodes=CHEAP_NODES, every=6, diff_share=0.43, value=CheapValue(CHEAP_NODES)),
    2: TwoPhase(cheap_nodes=CHEAP_NODES, every=6, diff_share=0.31, value=CheapValue(CHEAP_NODES)),
}
"""Two-phase sampling of the anytime advice by seat (``hidden.calls.TwoPhase``): every deal valued
by solves of at most 5,000 nodes (a stopped one counts the learned cheap value,
``analysis.cheap_value``), one in ``every`` solved exactly too. On the training deals of
``train/deal_model.py`` (held out by hand, ``lukfu_solver/data/deal_model.json``) the cheap values
leave ``diff_share`` of the play - pass variance (by seat) for a few per cent of an exact
deal's nodes (``docs/pimc.md``, "Figures"); ``every`` is near the best for that share and cost, on the low side, since a
hand whose cheap values follow its exact ones less loses by a large ``every`` (``docs/pimc.md``)."""


def advice_two_phase(budget: Budget | None, seat: int) -> TwoPhase | None:
    """The two-phase sampling of a call/pass answer: :data:`ADVICE_TWO_PHASE` for an anytime answer
    (a ``budget`` with the sequential test: :func:`advice_budget` without ``samples``), none
    otherwise (``--samples N`` solves exactly N deals)."""
    return ADVICE_TWO_PHASE[seat] if budget is not None and budget.z is not None else None


def advice_budget(samples: int | None, seconds: float | None, seat: int = 1) -> tuple[int, Budget | None]:
    """The samples and the stopping rule of a call/pass answer. ``samples`` given: exactly that
    many (no sequential test, no budget unless ``seconds`` is also given: reproducible work);
    otherwise up to :data:`ANYTIME_SAMPLES`, stopped by the sequential test (decided and within
    :data:`DECIDE_SE`) or after ``seconds``
    (default :data:`ADVISE_TIME`, :data:`MASTER_TIME` at seat 0)."""
    if samples is not None:
        return samples, None if seconds is None else Budget(seconds)
    if seconds is None:
        seconds = MASTER_TIME if seat == 0 else ADVISE_TIME
    return ANYTIME_SAMPLES, Budget(seconds, DECIDE_Z, DECIDE_MIN, precision=DECIDE_SE)


def check_options(
    samples: int | None, jobs: int, max_nodes: int | None, time_limit: float | None, budget: float | None = None
) -> None:
    """Reject request values that make no sense (a NotationError naming the option): ``time_limit``
    is the per-solve limit (``--solve-time``), ``budget`` the answer's (``--time``)."""
    if budget is not None:
        check_seconds(budget, "time")
    if samples is not None and samples < 1:
        raise NotationError("samples", _("must be at least 1, got {value}").format(value=samples))
    if jobs < 1:
        raise NotationError("jobs", _("must be at least 1, got {value}").format(value=jobs))
    if max_nodes is not None and max_nodes < 0:
        raise NotationError("max-nodes", _("must be 0 (no limit) or more, got {value}").format(value=max_nodes))
    if time_limit is not None:
        check_seconds(time_limit, "solve-time")
    if samples is not None:  # the upper bounds of docs/limits.md
        check_int(samples, "samples", 1, MAX_SAMPLES)
    check_int(jobs, "jobs", 1, MAX_JOBS)
    if max_nodes is not None:
        check_int(max_nodes, "max-nodes", 0, MAX_NODES)


def make_limits(max_nodes: int | None, time_limit: float | None, default: int = DEFAULT_MAX_NODES) -> SolveLimits:
    """The per-solve limits of a request (``max_nodes`` 0: none; None: ``default``)."""
    nodes = default if max_nodes is None else max_nodes
    return SolveLimits(nodes or None, time_limit)


def parse_hand(text: str, seat: int | None) -> tuple[CardSet, int]:
    """A dealt hand of 12 cards and its seat (the seat is required)."""
    hand = parse_cards(text, "hand")
    if hand.bit_count() != HAND_SIZE:
        raise NotationError(
            "hand", _("a dealt hand has {size} cards, got {n}").format(size=HAND_SIZE, n=hand.bit_count())
        )
    if seat is None:
        raise NotationError("seat", _("a HAND needs --seat 0, 1 or 2 (0 is the Master, who decides first)"))
    if seat not in (0, 1, 2):
        raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
    return hand, seat


def is_view_text(text: str) -> bool:
    """True when ``text`` has the form of a view (it starts with a seat number); a hand starts
    with a suit letter."""
    fields = text.split()
    return bool(fields) and fields[0].isdigit()
