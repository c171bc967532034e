"""The one evaluation of a decision in play: expected points of each candidate move of a seat
view, ± its error (:func:`weigh_moves`, built on :func:`analyse`).

The in-game hint, the game review and ``lukfu analyse VIEW`` all value a decision here: the same
candidates (:func:`candidates`: every legal move, but at a discard of two or three cards the
ten least worth keeping), the same sampled deals for a seed, and for the same
:class:`~.work.Work` the same numbers.

The hidden cards are sampled uniformly from every deal consistent with the view (the exact
sampler: ``make_sampler(view, seed, exact=True)``); each sample is solved, for every candidate,
and the values are averaged. A solve that stops at its limit counts the rule player's play of
that deal to the end, every hand seen, kept within the bounds the solve proved (the estimate the
``pimc`` player and ``advise``'s stopped solves use: nearer the exact value than the bounds'
midpoint, ``docs/pimc.md``). Evaluation, pairing, errors and the stopping rule are the PIMC
core's (:mod:`lukfu_solver.hidden.pimc`, ``docs/pimc.md``). The same samples serve every move (a
paired comparison), so the difference between two moves has a much smaller error than either
mean.

Points are the viewer's (M1/M2): the caller's net points when the viewer is the caller; for a
non-caller, the mean of the two non-callers' results, minus half the caller's (M2: best play
may leave open which non-caller wins).

With ``infer`` the samples are drawn as the configuration measured ahead of ``pimc`` draws them
(``players.ipimc.pool_player``, ``docs/inference.md``): a pool of four times the samples from the
same sampler, weighed by the likelihood of the other seats' calls and plays under the rule model
(``hidden.inference.rule_model``: a view from a real table comes from players who are not the
engine's), tempered so the pool's effective sample size stays at a floor, and the samples
resampled from it by weight (each then counts 1); the pool's weights are reported (``weights``).

Work is split into batches of a fixed size; after each batch the analysis may stop early when
the best move is clear. Batches, seeds and the stopping rule do not depend on the number of
processes, so a seed gives identical results with any ``jobs``.

>>> from lukfu_solver.view import SeatView
>>> v = SeatView.parse("1 C45T2 1 T4,T7,T9/T3,T8,xM1/M2,M7,M9/S1,S6,xT1/M4,M6,M8/S8,S9,xC9/S5,xC2,S7/C3,C6,C7/M3,x1,M5/S2")
>>> a = analyse(v, samples=8, seed=1)
>>> a.samples, [str(e.move) for e in a.moves], a.best.mean
(8, ['xT2', 'xC4', 'xC5'], -4.0)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..hidden.constraints import Deal
from ..hidden.inference import Weights, resample, rule_model, weigh
from ..hidden.pimc import (
    ChoiceEstimate,
    Evaluator,
    Paired,
    SolveLimits,
    best_p,
    mean_stderr,
    p_better,
    sample_task,
    viewer_points,
)
from ..hidden.quick import make_sampler
from ..i18n import _
from ..parallel import Workers
from ..players.ipimc import DEFAULT_POOL
from ..plays import DISCARD, Play
from ..policy.facts import facts_from_view
from ..policy.rule import discard_order, rule_playout, seat_keep_values
from ..view import SeatView
from .work import Work

__all__ = [
    "ViewAnalysis",
    "MoveEstimate",
    "SolveLimits",
    "analyse",
    "candidates",
    "left_out",
    "mean_stderr",
    "p_better",
    "viewer_points",
    "weigh_moves",
]

DEFAULT_BATCH = 8
"""Samples solved between two early-stopping checks (fixed, so results do not depend on jobs)."""

MoveEstimate = ChoiceEstimate
"""One move's expected points for the viewer (the core's :class:`ChoiceEstimate`)."""
DISCARDS_WEIGHED = 12
"""At a discard with at most this many ways (giving up one card: one way a card held), every way
is weighed; with more (two or three cards: up to 66 or 220), the sensible ones, at most
:data:`SENSIBLE_DISCARDS`."""
SENSIBLE_DISCARDS = 10
"""The most sensible discards a decision weighs when there are many: every way to give up the
cards least worth keeping (by the rule player's keep values), from as many of them as keeps the
ways to this many (the five cheapest: 10 pairs, 10 threes)."""


def candidates(view: SeatView) -> list[Play]:
    """The moves a decision weighs, the one set of the hint, the review and ``analyse``: every
    legal move in the canonical order, but at a discard the ways to give up the cards least worth
    keeping first, the rule player's own first (all of them up to :data:`DISCARDS_WEIGHED`, else
    the :data:`SENSIBLE_DISCARDS` cheapest). Empty when the viewer is not to move."""
    if view.to_move != view.seat or view.caller is None:
        return []
    legal = view.sorted_legal_moves()
    if len(legal) < 2 or legal[0].kind != DISCARD:
        return legal
    size = legal[0].size
    values = seat_keep_values(facts_from_view(view))
    order = discard_order(view.hand, values)
    cheapest = len(order) if len(legal) <= DISCARDS_WEIGHED else size
    while cheapest < len(order) and math.comb(cheapest + 1, size) <= SENSIBLE_DISCARDS:
        cheapest += 1
    ways = sorted(combinations(order[:cheapest], size), key=lambda cs: (sum(values[c] for c in cs), cs))
    moves = [Play(DISCARD, sum(1 << c for c in cs), size) for cs in ways]
    first = Play(DISCARD, sum(1 << c for c in order[:size]), size)  # the rule player's discard
    return [first] + [m for m in moves if m != first]


def left_out(view: SeatView, weighed: Sequence[Play]) -> list[tuple[Play, str]]:
    """The legal moves not among ``weighed``, each with the reason in a player's words (only
    dearer discards are ever left out), in the canonical order."""
    chosen = set(weighed)
    rest = [m for m in view.sorted_legal_moves() if m not in chosen]
    why = _("each gives up cards worth more to keep than the discards weighed")
    return [(m, why) for m in rest]


@dataclass
class ViewAnalysis:
    """The result of :func:`analyse`: the moves best first, and how sure the best one is."""

    view: SeatView
    moves: list[ChoiceEstimate]
    samples: int
    seed: int
    p_best: float | None
    """Probability that the best move beats the second (paired, normal approximation)."""
    stopped_early: bool
    incomplete: int
    """Solves that stopped at a node or time limit (each counts the rule player's playout of its
    deal, within the bounds the solve proved)."""
    seconds: float
    sampler: dict = field(default_factory=dict)
    timed_out: bool = False
    """The time budget ended the analysis before its samples (and before the stopping rule)."""
    cut: int = 0
    """Samples the budget stopped in the middle, left out (not counted in ``samples``)."""
    weights: Weights | None = None
    """With inference: the importance weights of the pool the samples were resampled from, and
    its effective sample size (else None)."""

    @property
    def best(self) -> ChoiceEstimate | None:
        """The move with the highest expected points (None when the viewer is not to move)."""
        return self.moves[0] if self.moves else None

    def to_json(self, requested: int, limits: SolveLimits) -> dict[str, Any]:
        """The analysis as ``analyse --json`` writes it: every move weighed best first with its
        mean, error and per-sample values, the legal moves not weighed (``left_out``: dearer
        discards), how sampling went (``requested`` samples were asked for, each solve within
        ``limits``)."""
        best = self.best
        rest = left_out(self.view, [e.move for e in self.moves]) if self.moves else []  # type: ignore[misc]
        return {
            "moves": [
                {"move": str(e.move), "mean": e.mean, "stderr": e.stderr, "incomplete": e.incomplete, "values": list(e.values)}
                for e in self.moves
            ],
            "left_out": [str(m) for m, _why in rest],
            "best": None if best is None else str(best.move),
            "p_best": self.p_best,
            "samples": self.samples,
            "requested_samples": requested,
            "stopped_early": self.stopped_early,
            "timed_out": self.timed_out,
            "cut": self.cut,
            "solves": self.samples * len(self.moves),
            "incomplete": self.incomplete,
            "seed": self.seed,
            "limits": limits.to_json(),
            "sampler": self.sampler,
            "seconds": round(self.seconds, 3),
        }


def analyse(
    view: SeatView,
    samples: int = 100,
    seed: int = 0,
    jobs: int = 1,
    limits: SolveLimits | None = None,
    early_stop: bool = True,
    min_samples: int = 24,
    confidence: float = 0.999,
    batch: int = DEFAULT_BATCH,
    progress: Callable[[int, int], None] | None = None,
    budget: float | None = None,
    infer: bool = False,
    moves: Sequence[Play] | None = None,
) -> ViewAnalysis:
    """Expected points of each of ``moves`` (None: the decision's :func:`candidates`) over up to
    ``samples`` sampled deals, best first (ties in the order of ``moves``).

    Stops early (after at least ``min_samples``) once the best move beats the second with
    probability ``confidence``. ``progress(done, total)`` is called after each batch (each
    sample in one process). ``budget`` (seconds, None: none) ends the analysis when it runs out:
    no new sample starts after it, and a sample whose solves it stops is left out (``cut``),
    except the first, which always finishes (within the node limits); the result then depends
    on the machine's speed. ``infer`` resamples the samples from a pool weighed by the opponent
    model (the module notes), drawn before the first solve from the seed alone, so it does not
    depend on ``jobs`` either.
    """
    t0 = time.perf_counter()
    evaluator = Evaluator(limits or SolveLimits(), fallback=rule_playout)
    if view.to_move != view.seat:
        moves = []
    elif moves is None:
        moves = candidates(view) if view.caller is not None else list(view.legal_moves())
    else:
        moves = list(moves)
    if not moves:
        return ViewAnalysis(view, [], 0, seed, None, False, 0, time.perf_counter() - t0)
    if view.caller is None:
        raise ValueError("a calling-phase view has no moves to analyse (use advice.advise)")
    sampler = make_sampler(view, seed, exact=True)  # analyse promises uniform samples
    move_texts = tuple(str(m) for m in moves)
    paired = Paired(moves, view.seat, view.caller)
    stopped = False
    deadline = None if budget is None else time.time() + budget
    cut = 0
    weights: Weights | None = None
    drawn: list[Deal] | None = None
    if infer:  # a view from a real table: the softer rule model (docs/inference.md)
        drawn_pool = [sampler.sample() for _ in range(DEFAULT_POOL * samples)]
        weights = weigh(rule_model(), view, drawn_pool)
        drawn = resample(drawn_pool, weights, samples, random.Random(f"analyse|{seed}|{view}"))
    pool = jobs > 1
    with Workers(jobs) as workers:
        while paired.n < samples and not cut and not (deadline is not None and time.time() >= deadline):
            n = min(batch, samples - paired.n)
            tasks = []
            for k in range(n):
                deal = sampler.sample() if drawn is None else drawn[paired.n + k]
                pos = deal.position()
                assert pos is not None
                first = paired.n == 0 and k == 0  # the first sample always finishes: there is a table
                tasks.append((str(pos), move_texts, evaluator, None if first else deadline))
            results = list(workers.map(sample_task, tasks)) if pool else map(sample_task, tasks)
            for values in results:
                if any(v.cut for v in values):  # the budget stopped it: left out, and the end
                    cut += 1
                    break
                paired.add(values)
                if progress and not pool:
                    progress(paired.n, samples)
                if not pool and deadline is not None and time.time() >= deadline:
                    break
            if progress and pool:
                progress(paired.n, samples)
            done = paired.n
            if early_stop and done >= min_samples and done < samples and paired.clear(confidence):
                stopped = True
                break
    estimates = paired.estimates()
    incomplete = sum(paired.incomplete)
    seconds = time.perf_counter() - t0
    timed_out = deadline is not None and not stopped and paired.n < samples
    stats = sampler.stats()
    p = best_p(estimates)
    return ViewAnalysis(view, estimates, paired.n, seed, p, stopped, incomplete, seconds, stats, timed_out, cut, weights)


def weigh_moves(
    view: SeatView,
    work: Work,
    seed: int = 0,
    *,
    extra: Sequence[Play] = (),
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ViewAnalysis:
    """The one evaluation of the decision in front of ``view``'s seat: each of its
    :func:`candidates` valued on ``work.samples`` sampled deals of ``seed`` (no early stop), each
    solve within ``work``'s limits, best first, each with its expected points ± standard error.
    ``extra`` moves not among the candidates (a review's move played) are valued after them on
    the same deals, within the same limits, so the candidates' numbers are the same with or
    without them."""
    moves = candidates(view)
    more = [m for m in extra if m not in moves]
    return analyse(
        view,
        work.samples,
        seed,
        jobs,
        work.limits(len(moves)),
        early_stop=False,
        progress=progress,
        budget=work.seconds,
        infer=work.infer,
        moves=moves + more,
    )
