"""Perfect-information Monte Carlo (PIMC) analysis of a seat view: expected points per move.

The hidden cards are sampled uniformly from every deal consistent with the view
(:class:`~lukfu_solver.hidden.sampling.Sampler`); each sample is solved exactly, for every legal move
of the viewer, and the move values are averaged. The same samples serve every move (a paired
comparison), so the difference between two moves has a much smaller error than either mean.

Points are the viewer's (M1/M2): the caller's net points when the viewer is the caller; for a
non-caller, the mean of the two non-callers' results, minus half the caller's (M2: best play
may leave open which non-caller wins).

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

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.pool import Pool

from ..parallel import worker_pool
from ..plays import Play
from ..position import Position
from ..view import SeatView

DEFAULT_BATCH = 8
"""Samples solved between two early-stopping checks (fixed, so results do not depend on jobs)."""


def viewer_points(seat: int, caller: int, caller_value: float) -> float:
    """The viewer's points from the caller's value (M1 for the caller, M2 for a non-caller)."""
    return caller_value if seat == caller else -caller_value / 2


@dataclass(frozen=True)
class MoveEstimate:
    """One move's expected points for the viewer over the samples, with its standard error."""

    move: Play
    mean: float
    stderr: float
    values: tuple[float, ...]
    incomplete: int = 0
    """Samples whose solve of this move stopped at a limit (their value is a bounds midpoint)."""

    @property
    def n(self) -> int:
        """Number of samples."""
        return len(self.values)


@dataclass
class Analysis:
    """The result of :func:`analyse`: the moves best first, and how sure the best one is."""

    view: SeatView
    moves: list[MoveEstimate]
    samples: int
    seed: int
    p_best: float | None
    """Probability that the best move beats the second (paired, normal approximation)."""
    stopped_early: bool
    incomplete: int
    """Solves that stopped at a node or time limit (their value is the midpoint of the bounds)."""
    seconds: float
    sampler: dict = field(default_factory=dict)

    @property
    def best(self) -> MoveEstimate | None:
        """The move with the highest expected points (None when the viewer is not to move)."""
        return self.moves[0] if self.moves else None


def mean_stderr(values: Sequence[float]) -> tuple[float, float]:
    """Sample mean and its standard error (0 error for fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def p_better(a: Sequence[float], b: Sequence[float]) -> float:
    """Probability that the move with values ``a`` is better than the one with ``b`` (paired
    samples, normal approximation of the mean difference)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    m, se = mean_stderr(diffs)
    if se == 0:
        return 1.0 if m > 0 else (0.5 if m == 0 else 0.0)
    return 0.5 * (1 + math.erf(m / se / math.sqrt(2)))


# ---------------------------------------------------------------- solving one sample


@dataclass(frozen=True)
class SolveLimits:
    """Per-solve limits: a node budget and/or seconds (None: solve exactly, however long)."""

    max_nodes: int | None = None
    time_limit: float | None = None


def make_solver(threads: int = 1) -> object:
    """The fastest exact solver available: the compiled kernel when present (on ``threads``
    threads, see fastsearch.FastSolver), else the reference."""
    try:
        from ..search.fast import FastSolver

        return FastSolver(threads=threads)
    except ImportError:  # pragma: no cover - the kernel is optional at run time
        from ..search.reference import Solver

        return Solver()


def solve_moves(position_text: str, moves: Sequence[str], limits: SolveLimits) -> tuple[list[float], list[bool]]:
    """The caller's value after each of ``moves`` in the position, and for each whether its
    solve was incomplete (a limit was hit: the midpoint of the proven bounds is used)."""
    pos = Position.parse(position_text)
    out: list[float] = []
    incomplete: list[bool] = []
    solver = make_solver()  # one table for all the moves of this sample
    for text in moves:
        move = Play.parse(text)
        pos.push(move)
        res = solver.solve(pos, max_nodes=limits.max_nodes, time_limit=limits.time_limit)  # type: ignore[attr-defined]
        pos.pop()
        done = res.complete and res.value is not None
        incomplete.append(not done)
        out.append(float(res.value) if done else (res.lower + res.upper) / 2)
    return out, incomplete


def _task(args: tuple[str, tuple[str, ...], SolveLimits]) -> tuple[list[float], list[bool]]:
    return solve_moves(*args)


# ---------------------------------------------------------------- the analysis


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
) -> Analysis:
    """Expected points of every legal move of the viewer over up to ``samples`` sampled deals.

    Stops early (after at least ``min_samples``) once the best move beats the second with
    probability ``confidence``. ``progress(done, total)`` is called after each batch.
    """
    from ..hidden.sampling import Sampler

    t0 = time.perf_counter()
    limits = limits or SolveLimits()
    moves = sorted(view.legal_moves(), key=Play.sort_key) if view.to_move == view.seat else []
    if not moves:
        return Analysis(view, [], 0, seed, None, False, 0, time.perf_counter() - t0)
    if view.caller is None:
        raise ValueError("a calling-phase view has no moves to analyse (use advice.advise)")
    sampler = Sampler(view, seed)
    move_texts = tuple(str(m) for m in moves)
    per_move: list[list[float]] = [[] for _ in moves]
    per_move_incomplete = [0] * len(moves)
    done = 0
    stopped = False
    pool = _pool(jobs)
    try:
        while done < samples:
            n = min(batch, samples - done)
            tasks = []
            for _ in range(n):
                pos = sampler.sample().position()
                assert pos is not None
                tasks.append((str(pos), move_texts, limits))
            results = pool.map(_task, tasks) if pool else [_task(t) for t in tasks]
            for values, inc in results:
                for i, v in enumerate(values):
                    per_move[i].append(viewer_points(view.seat, view.caller, v))
                    per_move_incomplete[i] += inc[i]
            done += n
            if progress:
                progress(done, samples)
            if early_stop and done >= min_samples and len(moves) > 1 and done < samples:
                ranked = sorted(range(len(moves)), key=lambda i: -sum(per_move[i]))
                if p_better(per_move[ranked[0]], per_move[ranked[1]]) >= confidence:
                    stopped = True
                    break
    finally:
        if pool:
            pool.terminate()
            pool.join()
    estimates = []
    for m, vals, inc in zip(moves, per_move, per_move_incomplete, strict=True):
        mean, se = mean_stderr(vals)
        estimates.append(MoveEstimate(m, mean, se, tuple(vals), inc))
    # best first; ties keep the canonical move order (sorted() is stable)
    estimates.sort(key=lambda e: -e.mean)
    p_best = p_better(estimates[0].values, estimates[1].values) if len(estimates) > 1 else None
    incomplete = sum(per_move_incomplete)
    return Analysis(view, estimates, done, seed, p_best, stopped, incomplete, time.perf_counter() - t0, sampler.stats())


def _pool(jobs: int) -> Pool | None:
    """A process pool for ``jobs`` > 1, or None to work in this process."""
    return worker_pool(jobs) if jobs > 1 else None
