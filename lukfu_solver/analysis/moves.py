"""Perfect-information Monte Carlo (PIMC) analysis of a seat view: expected points per move.

The hidden cards are sampled uniformly from every deal consistent with the view (the exact
sampler: ``make_sampler(view, seed, exact=True)``); each sample is solved exactly, for every legal
move of the viewer, and the move values are averaged. Evaluation, pairing, errors and the
stopping rule are the PIMC core's (:mod:`lukfu_solver.hidden.pimc`, ``docs/pimc.md``). The same samples serve every move (a paired
comparison), so the difference between two moves has a much smaller error than either mean.

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
(8, ['xC4', 'xC5', 'xT2'], -4.0)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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
from ..parallel import Workers
from ..players.ipimc import DEFAULT_POOL
from ..plays import Play
from ..view import SeatView

__all__ = ["ViewAnalysis", "MoveEstimate", "SolveLimits", "analyse", "mean_stderr", "p_better", "viewer_points"]

DEFAULT_BATCH = 8
"""Samples solved between two early-stopping checks (fixed, so results do not depend on jobs)."""

MoveEstimate = ChoiceEstimate
"""One move's expected points for the viewer (the core's :class:`ChoiceEstimate`)."""


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
    """Solves that stopped at a node or time limit (their value is the midpoint of the bounds)."""
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
        """The analysis as ``analyse --json`` writes it: every move best first with its mean,
        error and per-sample values, how sampling went (``requested`` samples were asked for,
        each solve within ``limits``)."""
        best = self.best
        return {
            "moves": [
                {"move": str(e.move), "mean": e.mean, "stderr": e.stderr, "incomplete": e.incomplete, "values": list(e.values)}
                for e in self.moves
            ],
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
) -> ViewAnalysis:
    """Expected points of every legal move of the viewer over up to ``samples`` sampled deals.

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
    evaluator = Evaluator(limits or SolveLimits())
    moves = sorted(view.legal_moves(), key=Play.sort_key) if view.to_move == view.seat else []
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
