"""The call valuation: *play* and *pass* of a dealt hand on the same sampled deals (R3, M1, M2).

Each sample deals the 24 unseen cards uniformly (:func:`~lukfu_solver.hidden.sampling.deal_others`)
and solves the deal twice: with this seat as the caller (*play*), and with the first later seat
whose hand the calling policy calls (*pass*; nobody: a redeal, 0). The estimates, their standard
errors and the paired comparison come from the PIMC core (:mod:`lukfu_solver.hidden.pimc`); this
module adds what only the call has: the time budget and sequential stop (:class:`Budget`), two-phase
sampling (:class:`TwoPhase`) and the per-deal work (:func:`call_sample`). ``docs/pimc.md`` says why.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import CardSet
from ..parallel import ordered_map
from ..policy.calling import later_caller
from ..position import Position
from ..search import ExactSolver
from .pimc import (
    TYPICAL_VAR,
    ChoiceEstimate,
    Evaluator,
    SampleValue,
    combine,
    double_sample,
    estimate,
    mean_stderr,
    p_better,
    p_positive,
    refine,
)
from .sampling import deal_others


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
    cut: bool = False
    """The answer's time budget stopped one of its solves at its end (the sample is kept: that
    solve's value is within its proven bounds, counted in ``incomplete``)."""
    late: bool = False
    """The sample began after the budget's end: nothing solved, left out (whether a sample
    starts depends only on the samples before it, so leaving it out biases nothing)."""
    budget_solves: int = 0
    """Its solves that the budget's end stopped (bounded, counted in ``incomplete`` too)."""
    cheap: tuple[float, float] | None = None
    """Two-phase sampling (:class:`TwoPhase`): play and pass by the cheap solves (None: none)."""
    solved: bool = True
    """In the exact phase (``play``/``pass_`` exact PIMC values); False: they are the cheap ones."""
    cheap_nodes: int = 0
    """Nodes of its cheap solves (in ``nodes`` too)."""
    cheap_stopped: int = 0
    """Its cheap solves stopped at their node limit (by design; one that finishes is exact)."""
    hands: tuple[CardSet, ...] = ()
    """The sampled deal: the three hands (:func:`call_deal`; empty for a late sample, never drawn)."""


CheapValue = Callable[[Position, int, int], float]
"""The cheap value of a branch whose cheap solve stopped: ``value(position, lower, upper)`` from
the deal's start position and the bounds the solve proved (any function of the deal and those
bounds keeps two-phase sampling exact PIMC in expectation; the nearer the exact value, the less
variance is left)."""


@dataclass(frozen=True)
class TwoPhase:
    """Two-phase (double) sampling of the call valuation: every deal gets a **cheap** value, each
    branch solved within ``cheap_nodes`` (exact if it finishes; otherwise ``value`` of the deal and
    the bounds it proved, None: their midpoint), and one deal in ``every`` (deals 0, ``every``, ...
    in the seed's order, fixed in advance) is solved exactly too, by the valuation's own evaluator,
    so that it gets the values plain sampling gives it. :func:`double_sample` makes it exact PIMC
    in expectation whatever the cheap values are, with less variance when they follow the exact
    ones (``docs/pimc.md``); ``diff_share`` is the typical share of an exact value's variance left
    in exact - cheap."""

    cheap_nodes: int = 40_000
    every: int = 4
    diff_share: float = 0.5
    value: CheapValue | None = None

    def exact_deal(self, i: int) -> bool:
        """Whether deal ``i`` (in the seed's order) is in the exact phase."""
        return i % self.every == 0

    def cheap_value(self, pos: Position, lower: int, upper: int) -> float:
        """The cheap value of a branch whose cheap solve proved ``[lower, upper]`` (within them)."""
        if lower == upper or self.value is None:
            return (lower + upper) / 2
        return float(min(max(self.value(pos, lower, upper), lower), upper))


@dataclass(frozen=True)
class Budget:
    """When the call valuation stops before its ``samples``: once ``seconds`` of wall time (the
    answer's budget) are spent, or once the question is answered: after ``min_samples``, the
    paired play-pass difference is more than ``z`` standard errors from 0 (a sequential test,
    checked after every sample in order, so the stopping point does not depend on the number of
    processes). None: no such stop.

    Within the budget a sample that has started is kept: leaving out the one the budget stops
    would drop slow deals more often than quick ones (a bias with respect to solve time), while
    whether a sample starts depends only on the samples before it. In one process a sample
    starts only when the samples so far say it will end in time (their mean duration); a solve
    still running at the end stops there and counts a prior value of the deal (``call_values(prior=)``,
    the advice's: the deal's rule playout) clamped to its proven bounds, or without one their
    midpoint (counted as incomplete: the estimate is then bounded PIMC).

    With a ``prior`` (the gap's mean and error, e.g. the learned model's) the test is on the
    refined gap (:func:`refine`), the answer's own; without one the standard error counts a
    variance of at least ``min_var`` (a few equal values must not look certain). ``typical_var``
    is the gap's typical variance a sample that :func:`refine` shrinks towards. With a
    ``precision`` the question counts as answered only once the gap's standard error is also at
    most that many points: a clear answer goes on sampling, within its budget, until its numbers
    are that sharp."""

    seconds: float | None = None
    z: float | None = None
    min_samples: int = 8
    min_var: float = 1.0
    prior: tuple[float, float] | None = None
    typical_var: float = TYPICAL_VAR
    precision: float | None = None

    def decided(self, diffs: Sequence[float], two_phase: tuple[float, float] | None = None) -> bool:
        """The sequential test on the paired differences so far (two-phase sampling: the exact deals',
        whose count ``min_samples`` counts, and ``two_phase`` their estimate, mean and error)."""
        n = len(diffs)
        if self.z is None or n < max(1 if self.prior else 2, self.min_samples):
            return False
        if two_phase is not None:
            m, se = two_phase
            if self.prior is not None:
                m, se = combine(self.prior[0], self.prior[1], m, se)
            else:
                se = max(se, math.sqrt(self.min_var / n))
        elif self.prior is not None:
            m, se = refine(self.prior[0], self.prior[1], diffs, typical=self.typical_var)
        else:
            m = sum(diffs) / n
            se = math.sqrt(max(sum((d - m) ** 2 for d in diffs) / (n - 1), self.min_var) / n)
        return abs(m) > self.z * se and (self.precision is None or se <= self.precision)


@dataclass
class CallValuation:
    """*Play* and *pass* of a dealt hand over paired samples (this seat's points).

    ``stopped`` says why sampling ended: ``"samples"`` (all asked for), ``"decided"`` (the
    sequential test), ``"time"`` (the budget); ``cut`` samples were left out because the budget
    stopped one of their solves (none since such a sample is kept: :attr:`budget_stopped`)."""

    play: ChoiceEstimate
    pass_: ChoiceEstimate
    p_play_better: float
    samples: list[CallSample]
    stopped: str = "samples"
    cut: int = 0
    seconds: float = 0.0
    requested: int = 0
    two_phase: TwoPhase | None = None
    """Two-phase sampling: ``samples`` are all the deals (:func:`double_sample`); None: all solved."""

    @property
    def exact_samples(self) -> int:
        """Deals of the exact phase (all of them without two-phase sampling)."""
        return sum(s.solved for s in self.samples)

    @property
    def cheap_only(self) -> int:
        """Deals valued by their cheap solves alone (two-phase sampling; 0 without)."""
        return sum(not s.solved for s in self.samples)

    @property
    def solves(self) -> int:
        """Full deals solved (or played out)."""
        return sum(s.solves for s in self.samples)

    @property
    def incomplete(self) -> int:
        """Solves that stopped at a limit."""
        return sum(s.incomplete for s in self.samples)

    @property
    def budget_stopped(self) -> int:
        """Solves the budget's end stopped, their samples kept (bounded: in :attr:`incomplete`)."""
        return sum(s.budget_solves for s in self.samples)

    @property
    def nodes(self) -> int:
        """Solver nodes of all the solves."""
        return sum(s.nodes for s in self.samples)

    @property
    def exact(self) -> bool:
        """Exact PIMC: every solve of every sample settled (else the estimate is bounded: some
        values are midpoints of proven bounds)."""
        return self.incomplete == 0

    @property
    def gap(self) -> tuple[float, float]:
        """The paired play - pass difference: mean and standard error (two-phase: :func:`double_sample`'s)."""
        if self.two_phase is not None and self.samples:
            return two_phase_estimate(self.samples, lambda p, q: p - q)
        return mean_stderr([s.play - s.pass_ for s in self.samples])

    @property
    def p_caller_loses(self) -> float:
        """The share of the exact phase's samples in which calling loses points (play below 0)."""
        solved = [s for s in self.samples if s.solved]
        return sum(s.play < 0 for s in solved) / len(solved) if solved else 0.0


def two_phase_estimate(
    samples: Sequence[CallSample],
    of: Callable[[float, float], float],
    typical: float | None = None,
    diff_share: float = 0.5,
) -> tuple[float, float]:
    """:func:`double_sample` of ``of(play, pass)`` over the samples (no cheap values: the exact ones)."""
    cheap = [of(*s.cheap) if s.cheap is not None else of(s.play, s.pass_) for s in samples]
    exact = [of(s.play, s.pass_) if s.solved else None for s in samples]
    return double_sample(cheap, exact, typical, diff_share)


def sample_seeds(seed: int, samples: int) -> list[int]:
    """Each sample's own seed, in order, from the valuation's ``seed``: the one random stream of
    :func:`call_values` (so any number of processes draws the same deals)."""
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(samples)]


def call_deal(hand: CardSet, seat: int, sample_seed: int) -> tuple[CardSet, CardSet, CardSet]:
    """The deal of one sample: the 24 unseen cards dealt uniformly from the sample's own seed."""
    h = deal_others(hand, seat, random.Random(sample_seed))
    return (h[0], h[1], h[2])


def call_deals(hand: CardSet, seat: int, samples: int, seed: int) -> list[tuple[CardSet, CardSet, CardSet]]:
    """The deals :func:`call_values` draws for ``samples`` samples from ``seed``, in its order
    (each :class:`CallSample` keeps its own in ``hands``)."""
    return [call_deal(hand, seat, x) for x in sample_seeds(seed, samples)]


Guess = Callable[[CardSet, int], int | None]
"""A warm start for a deal's solve: ``guess(caller's hand, caller seat)``, an expected value."""
Prior = Callable[[Position], float]
"""A value of a sampled deal's start position for its caller, ``prior(position)`` (e.g. the rule
playout of the deal, every hand seen): what a solve the time budget stops counts, clamped to the
bounds it proved (called only then)."""


class CallTask(NamedTuple):
    """One sampled deal's work for :func:`call_sample` (a picklable value, so a process pool can
    take it): the hand, its seat, the deal's own seed and how to value it."""

    hand: CardSet
    seat: int
    sample_seed: int
    evaluator: Evaluator
    policy: Callable[[CardSet], bool]
    """Whether a later seat calls with a hand (who is the caller if this seat passes)."""
    deadline: float | None
    """The answer's budget end (``time.time()``); None: no budget."""
    guess: Guess | None
    prior: Prior | None
    two_phase: TwoPhase | None = None
    in_exact: bool = True
    """With ``two_phase``: the deal is in its exact phase (:meth:`TwoPhase.exact_deal`)."""


def call_sample(task: CallTask) -> CallSample:
    """One sampled deal (from its own seed): *play* solved with this seat as caller; *pass*: 0 at
    seat 2 (a redeal), else the first later seat whose hand the ``policy`` calls is the caller
    (a fresh solver a solve), nobody: a redeal, 0. ``deadline`` (``time.time()``) is the
    answer's budget; ``guess`` warm-starts each solve; a solve the budget stops counts ``prior``'s
    value of its position clamped to its proven bounds (None: their midpoint). With a
    :class:`TwoPhase`, each branch is solved within the cheap node limit first, then exactly in
    the exact phase unless the cheap solve finished."""
    hand, seat, sample_seed, evaluator, policy, deadline, guess, prior, two_phase, in_exact = task
    if deadline is not None and time.time() >= deadline:
        return CallSample(0.0, 0.0, False, 0, 0, 0, late=True)
    hands = call_deal(hand, seat, sample_seed)
    p = prior if deadline is not None else None
    branches = [seat]
    caller = later_caller(hands, seat, policy)
    if caller is not None:
        branches.append(caller)
    values: list[float] = []
    cheap_values: list[float] = []
    solves = incomplete = nodes = by_budget = cheap_nodes = cheap_stopped = 0
    cut = False
    for who in branches:
        pos = Position.start(hands, who)
        known: SampleValue | CheapSolve | None = None
        if two_phase is not None:
            c = cheap_solve(two_phase, pos, evaluator.solver(), deadline)
            cheap_values.append(c.value)
            cheap_nodes += c.nodes
            cheap_stopped += not c.exact
            known = c if c.exact else None
            if not in_exact:
                continue
        if known is None:
            g = guess(hands[who], who) if guess else None
            known = evaluator.value(pos, evaluator.solver(), g, deadline, p)
            solves += 1
            nodes += known.nodes
            incomplete += not known.exact
            cut = cut or known.cut
            by_budget += known.cut
        values.append(known.value)
    earlier_pass = not any(policy(hands[s]) for s in range(seat))

    def points(vals: list[float]) -> tuple[float, float]:
        return vals[0], (-vals[1] / 2 if len(vals) > 1 else 0.0)

    cheap = None if two_phase is None else points(cheap_values)
    play, pass_pts = points(values) if values else cheap  # type: ignore[misc]
    out = (play, pass_pts, earlier_pass, solves, incomplete, nodes + cheap_nodes, cut, False, by_budget)
    return CallSample(*out, cheap, in_exact, cheap_nodes, cheap_stopped, hands)


class CheapSolve(NamedTuple):
    """A branch's cheap solve in two-phase sampling: its cheap value, whether it is exact, its nodes."""

    value: float
    exact: bool
    nodes: int


def cheap_solve(two_phase: TwoPhase, pos: Position, solver: ExactSolver | None, deadline: float | None) -> CheapSolve:
    """Solve ``pos`` within the cheap node limit: the exact value if the solve finishes, else
    :meth:`TwoPhase.cheap_value` of the bounds it proved; the budget's end (``deadline``) stops it
    too (then it counts the midpoint of the bounds it had proved)."""
    if pos.outcome is not None:
        return CheapSolve(float(pos.outcome.points[pos.caller]), True, 0)
    assert solver is not None, "two-phase sampling needs a solver"
    time_limit = None
    if deadline is not None:
        time_limit = deadline - time.time()
        if time_limit <= 0:
            lo, hi = solver.bounds(pos)
            return CheapSolve((lo + hi) / 2, lo == hi, 0)
    r = solver.solve(pos, max_nodes=two_phase.cheap_nodes, time_limit=time_limit)
    if r.complete and r.value is not None:
        return CheapSolve(float(r.value), True, r.nodes)
    if r.stopped == "time":  # the budget's end, not the cheap limit: the bounds it had proved
        return CheapSolve((r.lower + r.upper) / 2, False, r.nodes)
    return CheapSolve(two_phase.cheap_value(pos, r.lower, r.upper), False, r.nodes)


def call_values(
    hand: CardSet,
    seat: int,
    samples: int,
    seed: int,
    evaluator: Evaluator,
    policy: Callable[[CardSet], bool],
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    budget: Budget | None = None,
    guess: Guess | None = None,
    prior: Prior | None = None,
    two_phase: TwoPhase | None = None,
) -> CallValuation:
    """*Play* vs *pass* of the dealt ``hand`` at ``seat`` on up to ``samples`` deals drawn from
    ``seed`` (each sample its own seed, so any ``jobs`` gives the same result); see
    :func:`call_sample`. With a ``budget`` it stops earlier: when the sequential test decides
    (the same prefix of samples for any ``jobs``) or when its seconds run out (then the result
    depends on the machine's speed). Every sample that began within the budget is kept (a solve
    the budget's end stops counts ``prior``'s value clamped to its proven bounds, or their
    midpoint: ``Budget``); in one process a sample begins only while the mean duration of the
    samples of its kind so far says it ends in time. ``progress(done, samples)`` follows each. ``two_phase``
    (:class:`TwoPhase`): ``samples`` counts every deal, the estimates :func:`double_sample`'s."""
    t0 = time.time()
    budget = budget or Budget()
    deadline = t0 + budget.seconds if budget.seconds is not None else None
    seeds = sample_seeds(seed, samples)
    tasks = [
        CallTask(
            hand,
            seat,
            x,
            evaluator,
            policy,
            deadline,
            guess,
            prior,
            two_phase,
            two_phase is None or two_phase.exact_deal(i),
        )
        for i, x in enumerate(seeds)
    ]
    results: list[CallSample] = []
    took: list[float] = []  # each sample's wall time (one process: the next one's forecast, by kind)
    stopped = "samples"
    stream = ordered_map(call_sample, tasks, jobs)
    try:
        for r in stream:
            if r.late:
                stopped = "time"
                break
            results.append(r)
            took.append(time.time() - t0 - sum(took))
            if progress:
                progress(len(results), samples)
            tp = None
            if two_phase is not None and budget.z is not None:
                typical = budget.typical_var if budget.prior is not None else None
                tp = two_phase_estimate(results, lambda p, q: p - q, typical, two_phase.diff_share)
            if budget.decided([x.play - x.pass_ for x in results if x.solved], tp):
                stopped = "decided"
                break
            if deadline is not None and len(results) < samples:
                now = time.time()
                kind = two_phase is None or two_phase.exact_deal(len(results))
                alike = [d for d, x in zip(took, results, strict=True) if x.solved == kind]  # none: a cheap one
                if now >= deadline or (jobs == 1 and alike and now + sum(alike) / len(alike) > deadline):
                    stopped = "time"
                    break
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    solved = [r for r in results if r.solved]
    plays = [r.play for r in solved]
    passes = [r.pass_ for r in solved]
    play = estimate("play", plays, plays, sum(r.incomplete for r in results))
    pass_ = estimate("pass", passes, [-2 * p for p in passes], 0)
    n = len(solved)
    p_play = p_better(plays, passes) if n > 1 else (0.5 if n == 0 else (1.0 if play.mean > pass_.mean else 0.0))
    if two_phase is not None and solved:  # the two-phase estimates: exact PIMC in expectation
        pm, pse = two_phase_estimate(results, lambda p, q: p)
        qm, qse = two_phase_estimate(results, lambda p, q: q)
        play = dataclasses.replace(play, mean=pm, stderr=pse)
        pass_ = dataclasses.replace(pass_, mean=qm, stderr=qse)
        gm, gse = two_phase_estimate(results, lambda p, q: p - q)
        p_play = p_positive(gm, gse) if n > 1 else (1.0 if gm > 0 else (0.5 if gm == 0 else 0.0))
    return CallValuation(play, pass_, p_play, results, stopped, 0, time.time() - t0, samples, two_phase)
