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
- **the call valuation** (:func:`call_values`): *play* and *pass* of a dealt hand on the same
  sampled deals, *pass* valued by the later seats' calling policy.

>>> viewer_points(0, 0, 4.0), viewer_points(1, 0, 4.0)
(4.0, -2.0)
>>> mean_stderr([1.0, 3.0])
(2.0, 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import CardSet
from ..parallel import ordered_map
from ..plays import Play
from ..position import Position
from ..search import ExactSolver, make_solver

# ---------------------------------------------------------------- points and statistics


def viewer_points(seat: int, caller: int, caller_value: float) -> float:
    """The viewer's points from the caller's value (M1 for the caller, M2 for a non-caller)."""
    return caller_value if seat == caller else -caller_value / 2


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
    """Probability that the choice with values ``a`` is better than the one with ``b`` (paired
    samples, normal approximation of the mean difference)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    m, se = mean_stderr(diffs)
    if se == 0:
        return 1.0 if m > 0 else (0.5 if m == 0 else 0.0)
    return 0.5 * (1 + math.erf(m / se / math.sqrt(2)))


# ---------------------------------------------------------------- per-sample evaluation


@dataclass(frozen=True)
class SolveLimits:
    """Per-solve limits: a node budget and/or seconds (None: solve exactly, however long)."""

    max_nodes: int | None = None
    time_limit: float | None = None


class SampleValue(NamedTuple):
    """The caller's value of one choice on one sample, whether the solver settled it, its nodes."""

    value: float
    exact: bool
    nodes: int


@dataclass(frozen=True)
class Evaluator:
    """How one sampled position is valued: the exact solver within ``limits``.

    An unfinished solve counts the midpoint of its proven bounds; with a ``fallback`` (a
    picklable function of a position giving a caller value, e.g. the rule playout) it counts the
    fallback's value clamped to the bounds instead, and a node limit below ``min_nodes`` skips
    the solver (fallback only). ``max_entries`` sizes the solver's table (None: the default).
    """

    limits: SolveLimits = field(default_factory=SolveLimits)
    fallback: Callable[[Position], float] | None = None
    min_nodes: int = 0
    max_entries: int | None = None
    kind: str = "compiled"

    def solver(self) -> ExactSolver | None:
        """A fresh compiled solver, or None when only the fallback values positions."""
        if self.fallback is not None and (self.limits.max_nodes or 0) < self.min_nodes:
            return None
        return make_solver(self.kind, max_entries=self.max_entries)

    def value(self, pos: Position, solver: ExactSolver | None) -> SampleValue:
        """The caller's value of ``pos`` (M1); ``solver`` None: the fallback alone."""
        if pos.outcome is not None:
            return SampleValue(float(pos.outcome.points[pos.caller]), True, 0)
        if solver is None:
            assert self.fallback is not None, "without a fallback every position needs a solver"
            return SampleValue(float(self.fallback(pos)), False, 0)
        r = solver.solve(pos, max_nodes=self.limits.max_nodes, time_limit=self.limits.time_limit)
        if r.complete and r.value is not None:
            return SampleValue(float(r.value), True, r.nodes)
        if self.fallback is not None:
            return SampleValue(float(min(max(self.fallback(pos), r.lower), r.upper)), False, r.nodes)
        return SampleValue((r.lower + r.upper) / 2, False, r.nodes)

    def choices(self, pos: Position, moves: Sequence[Play], solver: ExactSolver | None) -> list[SampleValue]:
        """The caller's value after each of ``moves`` in ``pos`` (left as it was)."""
        out = []
        for move in moves:
            pos.push(move)
            out.append(self.value(pos, solver))
            pos.pop()
        return out


def sample_task(args: tuple[str, tuple[str, ...], Evaluator]) -> list[SampleValue]:
    """One sample in a worker process: the position's text, the moves' texts, the evaluator; a
    fresh solver serves all the moves of the sample (one table)."""
    text, moves, evaluator = args
    return evaluator.choices(Position.parse(text), [Play.parse(m) for m in moves], evaluator.solver())


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


def estimate(move: Play | str, viewer: Sequence[float], caller: Sequence[float], incomplete: int) -> ChoiceEstimate:
    """A :class:`ChoiceEstimate` from the viewer's and the caller's values sample by sample."""
    mean, se = mean_stderr(viewer)
    return ChoiceEstimate(move, mean, se, tuple(viewer), incomplete, mean_stderr(caller)[0])


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

    @property
    def n(self) -> int:
        """Samples added so far."""
        return len(self.viewer[0]) if self.viewer else 0

    def add(self, values: Sequence[SampleValue]) -> None:
        """One sample's values, one per choice in order."""
        for i, v in enumerate(values):
            self.raw[i].append(v.value)
            self.viewer[i].append(viewer_points(self.seat, self.caller, v.value))
            self.incomplete[i] += not v.exact
            self.nodes += v.nodes

    def clear(self, confidence: float) -> bool:
        """The stopping rule: the best choice so far beats the second with ``confidence``."""
        if len(self.choices) < 2:
            return False
        ranked = sorted(range(len(self.choices)), key=lambda i: -sum(self.viewer[i]))
        return p_better(self.viewer[ranked[0]], self.viewer[ranked[1]]) >= confidence

    def estimates(self) -> list[ChoiceEstimate]:
        """Every choice's estimate, best first; ties keep the choices' order."""
        out = [
            estimate(c, v, r, k)
            for c, v, r, k in zip(self.choices, self.viewer, self.raw, self.incomplete, strict=True)
        ]
        out.sort(key=lambda e: -e.mean)
        return out


def best_p(estimates: Sequence[ChoiceEstimate]) -> float | None:
    """Probability that the first estimate beats the second (None for fewer than two)."""
    return p_better(estimates[0].values, estimates[1].values) if len(estimates) > 1 else None


def evaluate(
    positions: Iterable[Position], moves: Sequence[Play], evaluator: Evaluator, seat: int, caller: int
) -> Paired:
    """Every move on every position, in this process, one solver for the lot."""
    paired = Paired(moves, seat, caller)
    solver = evaluator.solver()
    for pos in positions:
        paired.add(evaluator.choices(pos, moves, solver))
    return paired


# ---------------------------------------------------------------- the call valuation


class CallSample(NamedTuple):
    """One sampled deal of a call decision: the caller values and this seat's points."""

    play: float
    """This seat's points as the caller (M1)."""
    pass_: float
    """This seat's points after passing: minus half the later caller's value (M2), 0 on a redeal."""
    earlier_pass: bool
    """The policy passes for every earlier seat (the evidence of their passes)."""
    solves: int
    incomplete: int
    nodes: int


@dataclass
class CallValuation:
    """*Play* and *pass* of a dealt hand over paired samples (this seat's points)."""

    play: ChoiceEstimate
    pass_: ChoiceEstimate
    p_play_better: float
    samples: list[CallSample]

    @property
    def solves(self) -> int:
        """Full deals solved (or played out)."""
        return sum(s.solves for s in self.samples)

    @property
    def incomplete(self) -> int:
        """Solves that stopped at a limit."""
        return sum(s.incomplete for s in self.samples)

    @property
    def nodes(self) -> int:
        """Solver nodes of all the solves."""
        return sum(s.nodes for s in self.samples)


def deal_others(hand: CardSet, seat: int, rng: random.Random) -> list[CardSet]:
    """The three hands of a uniform deal with ``hand`` at ``seat`` (R2)."""
    unseen = [c for c in range(36) if not hand >> c & 1]
    rng.shuffle(unseen)
    others = [sum(1 << c for c in unseen[:12]), sum(1 << c for c in unseen[12:])]
    hands = [0, 0, 0]
    hands[seat] = hand
    hands[(seat + 1) % 3] = others[0]
    hands[(seat + 2) % 3] = others[1]
    return hands


def call_sample(args: tuple[CardSet, int, int, Evaluator, Callable[[CardSet], bool]]) -> CallSample:
    """One sampled deal (from its own seed): *play* solved with this seat as caller; *pass*: 0 at
    seat 2 (a redeal), else the first later seat whose hand the ``policy`` calls is the caller
    (a fresh solver a solve), nobody: a redeal, 0."""
    hand, seat, sample_seed, evaluator, policy = args
    hands = deal_others(hand, seat, random.Random(sample_seed))
    play = evaluator.value(Position.start(hands, seat), evaluator.solver())
    solves, incomplete, nodes = 1, int(not play.exact), play.nodes
    pass_pts = 0.0
    if seat != 2:
        caller = next((s for s in range(seat + 1, 3) if policy(hands[s])), None)
        if caller is not None:
            v = evaluator.value(Position.start(hands, caller), evaluator.solver())
            solves, incomplete, nodes = solves + 1, incomplete + (not v.exact), nodes + v.nodes
            pass_pts = -v.value / 2
    earlier_pass = not any(policy(hands[s]) for s in range(seat))
    return CallSample(play.value, pass_pts, earlier_pass, solves, incomplete, nodes)


def call_values(
    hand: CardSet,
    seat: int,
    samples: int,
    seed: int,
    evaluator: Evaluator,
    policy: Callable[[CardSet], bool],
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> CallValuation:
    """*Play* vs *pass* of the dealt ``hand`` at ``seat`` on ``samples`` deals drawn from ``seed``
    (each sample its own seed, so any ``jobs`` gives the same result); see :func:`call_sample`."""
    master = random.Random(seed)
    tasks = [(hand, seat, master.getrandbits(64), evaluator, policy) for _ in range(samples)]
    results: list[CallSample] = []
    for r in ordered_map(call_sample, tasks, jobs):
        results.append(r)
        if progress:
            progress(len(results), samples)
    plays = [r.play for r in results]
    passes = [r.pass_ for r in results]
    play = estimate("play", plays, plays, sum(r.incomplete for r in results))
    pass_ = estimate("pass", passes, [-2 * p for p in passes], 0)
    p_play = p_better(plays, passes) if samples > 1 else (1.0 if play.mean > pass_.mean else 0.0)
    return CallValuation(play, pass_, p_play, results)
