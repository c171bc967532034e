"""The one PIMC core: value choices on sampled deals and compare them on the same samples.

Perfect-information Monte Carlo (``docs/pimc.md``): each sampled deal is solved as if every card
were seen. This module holds every part that ``analysis.analyse``, ``analysis.advise``, the
``pimc`` player and the in-game hint share, so they give the same numbers for the same inputs:

- **per-sample evaluation** (:class:`Evaluator`): the caller's value of a position (M1), exact
  within :class:`SolveLimits`; an unfinished solve counts the midpoint of its proven bounds, or,
  with a ``fallback`` (the player's rule playout), the fallback's value clamped to those bounds;
- **paired estimates** (:class:`Paired`): every choice valued on the same samples, one mean and
  standard error (:func:`mean_stderr`), one :func:`p_better`, in the viewer's points
  (:func:`viewer_points`: M1 for the caller, M2 for a non-caller);
- **the stopping rule** (:meth:`Paired.clear`): the best choice beats the second with a given
  probability;
- **the statistics of two-phase sampling** (:func:`double_sample`) and of a prior joined to the
  samples (:func:`refine`, :func:`combine`).

The call valuation (*play* and *pass* of a dealt hand) is built on these in
:mod:`lukfu_solver.hidden.calls`.

>>> viewer_points(0, 0, 4.0), viewer_points(1, 0, 4.0)
(4.0, -2.0)
>>> mean_stderr([1.0, 3.0])
(2.0, 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..plays import Play
from ..position import Position
from ..search import ExactSolver, make_solver

# ---------------------------------------------------------------- points and statistics


def viewer_points(seat: int, caller: int, caller_value: float) -> float:
    """The viewer's points from the caller's value (M1 for the caller, M2 for a non-caller)."""
    return caller_value if seat == caller else -caller_value / 2


def mean_stderr(values: Sequence[float], weights: Sequence[float] | None = None) -> tuple[float, float]:
    """Sample mean and its standard error (0 error for fewer than two values).

    With importance ``weights`` (one per value, positive, any scale): the self-normalised
    weighted mean and its delta-method standard error, ``sqrt(n / (n - 1) * sum w^2 (v - m)^2) /
    sum w``, which for equal weights is exactly the unweighted ``sqrt(var / n)``. ``weights``
    None, or all 1, gives the unweighted figures to the last bit.

    >>> mean_stderr([1.0, 3.0], [1.0, 1.0]) == mean_stderr([1.0, 3.0])
    True
    >>> mean_stderr([1.0, 3.0], [3.0, 1.0])
    (1.5, 0.75)
    """
    if weights is None or all(w == 1.0 for w in weights):
        n = len(values)
        if n == 0:
            return 0.0, 0.0
        m = sum(values) / n
        if n < 2:
            return m, 0.0
        var = sum((v - m) ** 2 for v in values) / (n - 1)
        return m, math.sqrt(var / n)
    n = len(values)
    if len(weights) != n:
        raise ValueError(f"{len(weights)} weights for {n} values")
    total = sum(weights)
    if n == 0 or total <= 0:
        return 0.0, 0.0
    m = sum(w * v for w, v in zip(weights, values, strict=True)) / total
    if n < 2:
        return m, 0.0
    ss = sum(w * w * (v - m) ** 2 for w, v in zip(weights, values, strict=True))
    return m, math.sqrt(ss * n / (n - 1)) / total


def effective_samples(weights: Sequence[float] | None, n: int | None = None) -> float:
    """The effective sample size of importance ``weights``, ``(sum w)^2 / sum w^2`` (Kish): how
    many uniform samples the weighted ones are worth. None: ``n``, every weight 1.

    >>> effective_samples([1.0, 1.0, 1.0, 1.0]), effective_samples([1.0, 0.0, 0.0, 0.0])
    (4.0, 1.0)
    """
    if weights is None:
        return float(n or 0)
    sq = sum(w * w for w in weights)
    return sum(weights) ** 2 / sq if sq > 0 else 0.0


def p_better(a: Sequence[float], b: Sequence[float], weights: Sequence[float] | None = None) -> float:
    """Probability that the choice with values ``a`` is better than the one with ``b`` (paired
    samples, normal approximation of the mean difference; ``weights`` as in :func:`mean_stderr`)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    m, se = mean_stderr(diffs, weights)
    if se == 0:
        return 1.0 if m > 0 else (0.5 if m == 0 else 0.0)
    return 0.5 * (1 + math.erf(m / se / math.sqrt(2)))


TYPICAL_VAR = 12.0
"""A typical variance of one sample's points in a call decision (a standard deviation of about
3.5 points, ``bench/results/advise-reference.json``); :func:`refine` shrinks a few samples'
variance towards it, so that two equal values do not look certain."""


def refine(
    prior: float, prior_error: float, values: Sequence[float], weight: float = 2.0, typical: float = TYPICAL_VAR
) -> tuple[float, float]:
    """A prior answer (``prior`` ± ``prior_error``, e.g. the learned model's) refined by the
    samples ``values``: the precision-weighted mean of the prior and the sample mean (a normal
    posterior), and its standard error. The samples' variance is shrunk towards ``typical`` (one
    sample's variance for such values: :data:`TYPICAL_VAR`, or the learned model's per branch,
    measured on its training deals) with ``weight`` pseudo-samples. No samples: the prior; many:
    the samples.

    >>> refine(-4.0, 2.0, [])
    (-4.0, 2.0)
    >>> m, se = refine(-4.0, 2.0, [2.0] * 64); round(m, 2), round(se, 2)
    (1.99, 0.08)
    """
    n = len(values)
    if n == 0 or prior_error <= 0:
        return (prior, prior_error) if n == 0 else mean_stderr(values)
    m = sum(values) / n
    ss = sum((v - m) ** 2 for v in values)
    var = (ss + weight * typical) / (n - 1 + weight)
    precision = 1 / prior_error**2 + n / var
    return (prior / prior_error**2 + m * n / var) / precision, math.sqrt(1 / precision)


def p_positive(mean: float, stderr: float) -> float:
    """The probability that a normal quantity of this mean and standard error is above 0."""
    if stderr <= 0:
        return 1.0 if mean > 0 else (0.5 if mean == 0 else 0.0)
    return 0.5 * (1 + math.erf(mean / stderr / math.sqrt(2)))


def combine(prior: float, prior_error: float, mean: float, stderr: float) -> tuple[float, float]:
    """A prior (``prior`` ± ``prior_error``) and an estimate (``mean`` ± ``stderr``) joined as a normal
    posterior: the precision-weighted mean and its standard error (prior error 0: the estimate).

    >>> combine(0.0, 1.0, 2.0, 1.0)
    (1.0, 0.7071067811865476)
    """
    if prior_error <= 0:
        return mean, stderr
    if stderr <= 0:
        return mean, 0.0
    precision = 1 / prior_error**2 + 1 / stderr**2
    return (prior / prior_error**2 + mean / stderr**2) / precision, math.sqrt(1 / precision)


def double_sample(
    cheap: Sequence[float],
    exact: Sequence[float | None],
    typical: float | None = None,
    diff_share: float = 0.5,
    weight: float = 2.0,
) -> tuple[float, float]:
    """Two-phase (double) sampling: each deal's ``cheap`` value, and the ``exact`` one (None: not
    solved) of a subset fixed in advance. ``mean(cheap) + mean(exact - cheap over the subset)`` is
    unbiased for the exact values' mean (exact PIMC in expectation), of variance ``Var(e) / N +
    Var(d) (1 / n - 1 / N)`` (``d = e - c``, the ``n`` exact deals nested in the ``N``), estimated
    as ``(v_c + 2 cov(c, d)) / N + v_d / n``. With a ``typical`` variance of an exact value, ``v_d``
    is shrunk towards ``diff_share`` of it and ``v_c`` towards the rest (``weight`` pseudo-samples,
    as :func:`refine` does). Every exact value given, no ``typical``: the plain mean.

    >>> double_sample([1.0, 3.0, 5.0, 7.0], [2.0, None, 6.0, None])
    (5.0, 1.2909944487358056)
    """
    big_n = len(cheap)
    pairs = [(c, e - c) for c, e in zip(cheap, exact, strict=True) if e is not None]
    n = len(pairs)
    if n == 0:
        raise ValueError("two-phase sampling needs at least one exact value")
    mc = sum(cheap) / big_n
    md = sum(d for _, d in pairs) / n
    ss_c = sum((c - mc) ** 2 for c in cheap)
    ss_d = sum((d - md) ** 2 for _, d in pairs)
    mcs = sum(c for c, _ in pairs) / n
    cov = sum((c - mcs) * (d - md) for c, d in pairs) / (n - 1) if n > 1 else 0.0
    if typical is None:
        v_c = ss_c / (big_n - 1) if big_n > 1 else 0.0
        v_d = ss_d / (n - 1) if n > 1 else 0.0
    else:
        v_c = (ss_c + weight * (1 - diff_share) * typical) / (big_n - 1 + weight)
        v_d = (ss_d + weight * diff_share * typical) / (n - 1 + weight)
    if n == big_n and typical is None:  # every deal solved exactly: the plain mean and its error
        return mean_stderr([c + d for c, d in pairs])
    var = max(v_c + 2 * cov, 0.0) / big_n + v_d / n
    return mc + md, math.sqrt(var)


# ---------------------------------------------------------------- per-sample evaluation


@dataclass(frozen=True)
class SolveLimits:
    """Per-solve limits: a node budget and/or seconds (None: solve exactly, however long)."""

    max_nodes: int | None = None
    time_limit: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"max_nodes", "solve_time"}`` (null: no such limit), as every ``--json`` and the web
        table write the limits of a request."""
        return {"max_nodes": self.max_nodes, "solve_time": self.time_limit}


class SampleValue(NamedTuple):
    """The caller's value of one choice on one sample, whether the solver settled it, its nodes,
    and whether the answer's time budget (not a per-solve limit) cut the solve short."""

    value: float
    exact: bool
    nodes: int
    cut: bool = False


@dataclass(frozen=True)
class Evaluator:
    """How one sampled position is valued: the exact solver within ``limits``.

    An unfinished solve counts the midpoint of its proven bounds; with a ``fallback`` (a
    picklable function of a position giving a caller value, e.g. the rule playout) it counts the
    fallback's value clamped to the bounds instead, and a node limit below ``min_nodes`` skips
    the solver (fallback only). ``max_entries`` sizes the solver's table (None: the default).
    ``descend``: a solve given no warm start asks first whether the position reaches the upper
    bound known without search (MTD(f) descending from the top, as a solve without a node limit
    starts) rather than testing halfway, as a node-limited solve otherwise does; the value is
    the same, the nodes are what changes (``docs/pimc.md``).
    """

    limits: SolveLimits = field(default_factory=SolveLimits)
    fallback: Callable[[Position], float] | None = None
    min_nodes: int = 0
    max_entries: int | None = None
    kind: str = "compiled"
    descend: bool = False
    restarts: tuple[int, float] | None = None
    """``(first, growth)``: a solve as a chain of node-limited solves on the same table, the first
    allowed ``first`` nodes and each next ``growth`` times as many, each asking first whether the
    value reaches the tightest upper bound proved so far (descending, as ``descend``); the value
    is the same as one solve's, the nodes fewer on hard deals (``docs/pimc.md``). None: one solve."""

    def solver(self) -> ExactSolver | None:
        """A fresh compiled solver, or None when only the fallback values positions."""
        if self.fallback is not None and (self.limits.max_nodes or 0) < self.min_nodes:
            return None
        return make_solver(self.kind, max_entries=self.max_entries)

    def value(
        self,
        pos: Position,
        solver: ExactSolver | None,
        guess: int | None = None,
        deadline: float | None = None,
        cut_value: Callable[[Position], float] | None = None,
    ) -> SampleValue:
        """The caller's value of ``pos`` (M1); ``solver`` None: the fallback alone. ``guess`` is
        a warm start for the solver's first test (the value never depends on it); ``deadline``
        (``time.time()`` seconds) is the answer's time budget: a solve it stops is marked ``cut``
        and counts ``cut_value(pos)`` clamped to its proven bounds (None: their midpoint; e.g. the
        deal's rule playout, called only then)."""
        if pos.outcome is not None:
            return SampleValue(float(pos.outcome.points[pos.caller]), True, 0)
        if solver is None:
            assert self.fallback is not None, "without a fallback every position needs a solver"
            return SampleValue(float(self.fallback(pos)), False, 0)
        time_limit = self.limits.time_limit
        by_budget = False
        if deadline is not None:
            left = deadline - time.time()
            if left <= 0:
                lo, hi = solver.bounds(pos)
                within = (lo + hi) / 2 if cut_value is None else min(max(cut_value(pos), lo), hi)
                return SampleValue(float(within), lo == hi, 0, lo != hi)
            by_budget = time_limit is None or left < time_limit
            time_limit = left if by_budget else time_limit
        value, lower, upper, nodes, stopped = self._solve(pos, solver, guess, time_limit)
        if value is not None:
            return SampleValue(float(value), True, nodes)
        cut = by_budget and stopped == "time"
        if cut and cut_value is not None:
            return SampleValue(float(min(max(cut_value(pos), lower), upper)), False, nodes, True)
        if self.fallback is not None:
            return SampleValue(float(min(max(self.fallback(pos), lower), upper)), False, nodes, cut)
        return SampleValue((lower + upper) / 2, False, nodes, cut)

    def _solve(
        self, pos: Position, solver: ExactSolver, guess: int | None, time_limit: float | None
    ) -> tuple[int | None, int, int, int, str | None]:
        """``(value or None, lower, upper, nodes, why it stopped)`` of ``pos`` within the limits:
        one solve, or with :attr:`restarts` a chain of solves on the same table, each allowed
        ``growth`` times the nodes of the one before and starting from the tightest upper bound
        proved so far, until one finishes or the limits are spent."""
        limit = self.limits.max_nodes
        if guess is None and (self.descend or self.restarts is not None):
            guess = solver.bounds(pos)[1]
        if self.restarts is None:
            extra = {} if guess is None else {"guess": guess}
            r = solver.solve(pos, max_nodes=limit, time_limit=time_limit, **extra)
            return (r.value if r.complete else None), r.lower, r.upper, r.nodes, r.stopped
        first, growth = self.restarts
        end = None if time_limit is None else time.time() + time_limit
        lower, upper = solver.bounds(pos)
        chunk, nodes = float(first), 0
        while True:
            allowed = int(chunk) if limit is None else min(int(chunk), limit - nodes)
            left = None if end is None else end - time.time()
            if left is not None and left <= 0:
                return None, lower, upper, nodes, "time"
            r = solver.solve(pos, max_nodes=allowed, time_limit=left, guess=guess)
            nodes += r.nodes
            if r.complete and r.value is not None:
                return r.value, r.value, r.value, nodes, None
            lower, upper = max(lower, r.lower), min(upper, r.upper)
            if lower >= upper:
                return lower, lower, lower, nodes, None
            if r.stopped == "time" or (limit is not None and nodes >= limit):
                return None, lower, upper, nodes, r.stopped
            guess, chunk = upper, chunk * growth

    def choices(
        self, pos: Position, moves: Sequence[Play], solver: ExactSolver | None, deadline: float | None = None
    ) -> list[SampleValue]:
        """The caller's value after each of ``moves`` in ``pos`` (left as it was); ``deadline``
        as in :meth:`value` (the moves after a cut one are not solved: marked cut too)."""
        out: list[SampleValue] = []
        for move in moves:
            if out and out[-1].cut:
                out.append(SampleValue(0.0, False, 0, True))
                continue
            pos.push(move)
            out.append(self.value(pos, solver, deadline=deadline))
            pos.pop()
        return out


def sample_task(
    args: tuple[str, tuple[str, ...], Evaluator] | tuple[str, tuple[str, ...], Evaluator, float | None],
) -> list[SampleValue]:
    """One sample in a worker process: the position's text, the moves' texts, the evaluator and
    optionally the answer's deadline (``time.time()``); a fresh solver serves all the moves of
    the sample (one table)."""
    text, moves, evaluator = args[:3]
    deadline = args[3] if len(args) > 3 else None
    pos = Position.parse(text)
    return evaluator.choices(pos, [Play.parse(m) for m in moves], evaluator.solver(), deadline)


# ---------------------------------------------------------------- paired estimates


@dataclass(frozen=True)
class ChoiceEstimate:
    """One choice's expected points for the viewer over the samples, with its standard error.

    ``values`` are the viewer's points sample by sample (M1/M2), ``caller_mean`` the mean of the
    caller's values, ``incomplete`` the samples whose solve stopped at a limit."""

    move: Play | str
    mean: float
    stderr: float
    values: tuple[float, ...]
    incomplete: int = 0
    caller_mean: float = 0.0
    p_caller_loses: float = 0.0
    """The share of samples in which the caller's value is below 0 (the caller loses points)."""
    weights: tuple[float, ...] | None = None
    """The samples' importance weights (``hidden.inference``), None when every sample counts 1."""

    def to_json(self) -> dict[str, Any]:
        """``{"mean", "stderr", "n"}``: an estimate of the advice (``advise --json``'s ``play``,
        ``pass`` and ``evidence``)."""
        return {"mean": self.mean, "stderr": self.stderr, "n": self.n}

    @property
    def ess(self) -> float:
        """The effective sample size (:func:`effective_samples`): ``n`` without weights."""
        return effective_samples(self.weights, len(self.values))

    @property
    def n(self) -> int:
        """Number of samples."""
        return len(self.values)

    @property
    def value(self) -> float:
        """The mean (the player's name for it)."""
        return self.mean

    @property
    def samples(self) -> int:
        """Number of samples (the player's name for it)."""
        return len(self.values)

    @property
    def exact(self) -> int:
        """Samples the solver settled exactly."""
        return len(self.values) - self.incomplete

    @property
    def caller_value(self) -> float:
        """The mean caller value (the player's name for it)."""
        return self.caller_mean


def estimate(
    move: Play | str,
    viewer: Sequence[float],
    caller: Sequence[float],
    incomplete: int,
    weights: Sequence[float] | None = None,
) -> ChoiceEstimate:
    """A :class:`ChoiceEstimate` from the viewer's and the caller's values sample by sample, with
    optional importance ``weights`` (None or all 1: the unweighted estimate, to the last bit)."""
    if weights is not None and all(w == 1.0 for w in weights):
        weights = None
    mean, se = mean_stderr(viewer, weights)
    if weights is None:
        loses = sum(v < 0 for v in caller) / len(caller) if caller else 0.0
    else:
        total = sum(weights)
        loses = sum(w for w, v in zip(weights, caller, strict=True) if v < 0) / total if total > 0 else 0.0
    w = None if weights is None else tuple(weights)
    return ChoiceEstimate(move, mean, se, tuple(viewer), incomplete, mean_stderr(caller, weights)[0], loses, w)


class Paired:
    """Every choice valued on the same samples, in the viewer's points (a paired comparison)."""

    def __init__(self, choices: Sequence[Play | str], seat: int, caller: int) -> None:
        self.choices = list(choices)
        self.seat = seat
        self.caller = caller
        self.viewer: list[list[float]] = [[] for _ in self.choices]
        self.raw: list[list[float]] = [[] for _ in self.choices]
        self.incomplete = [0] * len(self.choices)
        self.nodes = 0
        self.weights: list[float] = []
        """Each sample's importance weight (1 unless :meth:`add` is given one)."""

    @property
    def n(self) -> int:
        """Samples added so far."""
        return len(self.viewer[0]) if self.viewer else 0

    def add(self, values: Sequence[SampleValue], weight: float = 1.0) -> None:
        """One sample's values, one per choice in order, and its importance ``weight``."""
        self.weights.append(weight)
        for i, v in enumerate(values):
            self.raw[i].append(v.value)
            self.viewer[i].append(viewer_points(self.seat, self.caller, v.value))
            self.incomplete[i] += not v.exact
            self.nodes += v.nodes

    def clear(self, confidence: float) -> bool:
        """The stopping rule: the best choice so far beats the second with ``confidence``."""
        if len(self.choices) < 2:
            return False
        w = self.weight_list()
        if w is None:
            ranked = sorted(range(len(self.choices)), key=lambda i: -sum(self.viewer[i]))
        else:
            ranked = sorted(range(len(self.choices)), key=lambda i: -mean_stderr(self.viewer[i], w)[0])
        return p_better(self.viewer[ranked[0]], self.viewer[ranked[1]], w) >= confidence

    def weight_list(self) -> list[float] | None:
        """The samples' weights, or None when every one is 1 (the unweighted estimates)."""
        return None if all(w == 1.0 for w in self.weights) else self.weights

    @property
    def ess(self) -> float:
        """The effective sample size of the weights (:func:`effective_samples`)."""
        return effective_samples(self.weight_list(), self.n)

    def estimates(self) -> list[ChoiceEstimate]:
        """Every choice's estimate, best first; ties keep the choices' order."""
        w = self.weight_list()
        out = [
            estimate(c, v, r, k, w)
            for c, v, r, k in zip(self.choices, self.viewer, self.raw, self.incomplete, strict=True)
        ]
        out.sort(key=lambda e: -e.mean)
        return out


def paired_difference(a: ChoiceEstimate, b: ChoiceEstimate) -> tuple[float, float]:
    """How much better choice ``a`` is than ``b`` on the same samples: the mean of their
    differences sample by sample and its paired standard error (with ``a``'s importance weights,
    which two choices of one analysis share). The luck of the deal cancels in each difference,
    so the error is far below either mean's; it is 0 when every sample shows the same difference.

    >>> a = estimate("a", [3.0, 1.0, 2.0], [3.0, 1.0, 2.0], 0)
    >>> b = estimate("b", [1.0, -1.0, 0.0], [1.0, -1.0, 0.0], 0)
    >>> paired_difference(a, b)
    (2.0, 0.0)
    """
    diffs = [x - y for x, y in zip(a.values, b.values, strict=True)]
    return mean_stderr(diffs, a.weights)


def best_p(estimates: Sequence[ChoiceEstimate]) -> float | None:
    """Probability that the first estimate beats the second (None for fewer than two)."""
    if len(estimates) < 2:
        return None
    return p_better(estimates[0].values, estimates[1].values, estimates[0].weights)


def evaluate(
    positions: Iterable[Position],
    moves: Sequence[Play],
    evaluator: Evaluator,
    seat: int,
    caller: int,
    weights: Sequence[float] | None = None,
) -> Paired:
    """Every move on every position, in this process, one solver for the lot; ``weights`` (one a
    position) are the samples' importance weights (None: 1 each)."""
    paired = Paired(moves, seat, caller)
    solver = evaluator.solver()
    for i, pos in enumerate(positions):
        paired.add(evaluator.choices(pos, moves, solver), 1.0 if weights is None else weights[i])
    return paired
