"""The call valuation's time budget and sequential test (``hidden.calls.Budget``, ``call_values``):
a sample that began within the budget is kept whatever its solve time (leaving out the one the
budget stops would favour quick deals), a sample that would begin after it is left out, and
with a prior the test is on the refined gap the answer reports."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import pytest

from lukfu_solver.analysis import advice
from lukfu_solver.analysis.advice import advise
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden import calls
from lukfu_solver.hidden.calls import Budget, CallSample, CallValuation, call_values
from lukfu_solver.hidden.pimc import Evaluator, SampleValue, SolveLimits, estimate, refine
from lukfu_solver.hidden.sampling import deal_others
from lukfu_solver.policy.calling import policy_calls
from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

SLOW = parse_cards("C2349S148M239T29")
"""Bench hand 0 (the Master's): its first sample with seed 0 is two solves of about 600,000 nodes
(0.3-0.4 s each on a 2-core machine), several times the 0.05 s budgets below, so a budget stops it."""
ANY = parse_cards("C2356S2457M3467")


class Clock:
    """A fake ``time.time`` that the fake solves move forward."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass(frozen=True)
class TimedEvaluator(Evaluator):
    """An evaluator whose solves take the given fake durations in turn and value 4 points; a solve
    running at the deadline stops there, unfinished (as the real one does)."""

    clock: Clock = field(default_factory=Clock)
    durations: list[float] = field(default_factory=list)

    def solver(self) -> None:  # type: ignore[override]
        return None

    def value(self, pos, solver, guess=None, deadline=None, cut_value=None) -> SampleValue:  # type: ignore[no-untyped-def,override]
        d = self.durations.pop(0)
        if deadline is not None and self.clock.now + d > deadline:
            self.clock.now = max(self.clock.now, deadline)
            return SampleValue(0.0, False, 1, True)
        self.clock.now += d
        return SampleValue(4.0, True, 1)


def timed_run(durations: list[float], seconds: float, monkeypatch: pytest.MonkeyPatch) -> calls.CallValuation:
    """``call_values`` at seat 2 (one solve a sample) with fake solve durations and a fake clock."""
    clock = Clock()
    monkeypatch.setattr(calls.time, "time", clock)
    evaluator = TimedEvaluator(clock=clock, durations=list(durations))
    return call_values(ANY, 2, len(durations), 0, evaluator, policy_calls, budget=Budget(seconds))


def test_the_sample_running_at_the_end_is_kept_however_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    quick = timed_run([1.0, 1.0, 1.0, 1.0], 3.5, monkeypatch)
    slow = timed_run([1.0, 1.0, 5.0, 1.0], 3.5, monkeypatch)
    # the third sample starts at 2 s either way (the first two say it ends by 3 s): kept both times
    assert len(quick.samples) == len(slow.samples) == 3
    assert quick.stopped == slow.stopped == "time" and quick.cut == slow.cut == 0
    assert quick.budget_stopped == 0 and quick.incomplete == 0 and quick.exact
    assert slow.budget_stopped == 1 and slow.incomplete == 1 and not slow.exact
    assert [s.cut for s in slow.samples] == [False, False, True]


def test_a_sample_that_would_not_end_in_time_does_not_begin(monkeypatch: pytest.MonkeyPatch) -> None:
    v = timed_run([1.0] * 8, 3.5, monkeypatch)
    assert len(v.samples) == 3 and v.stopped == "time"  # at 3 s a fourth would end at 4 s
    v = timed_run([1.0] * 8, 4.0, monkeypatch)
    assert len(v.samples) == 4 and v.stopped == "time" and v.exact


def test_a_real_solve_the_budget_stops_keeps_its_sample() -> None:
    v = call_values(SLOW, 0, 8, 0, Evaluator(SolveLimits(16_000_000)), policy_calls, budget=Budget(0.05))
    assert len(v.samples) == 1 and v.stopped == "time" and v.cut == 0
    s = v.samples[0]
    assert s.cut and not s.late and s.incomplete == s.budget_solves == v.budget_stopped >= 1 and not v.exact
    assert v.play.incomplete == v.incomplete == s.incomplete


def test_a_stopped_solve_counts_the_prior_clamped_to_its_bounds() -> None:
    pos = Position.start(deal_others(SLOW, 0, random.Random(1)), 0)
    solver = make_solver()
    lo, hi = solver.bounds(pos)
    assert lo < hi
    over = time.time() - 1.0  # the budget is spent before this solve starts
    evaluator = Evaluator(SolveLimits(16_000_000))
    assert evaluator.value(pos, solver, deadline=over) == SampleValue((lo + hi) / 2, False, 0, True)
    assert evaluator.value(pos, solver, deadline=over, cut_value=lambda p: 100.0).value == hi
    assert evaluator.value(pos, solver, deadline=over, cut_value=lambda p: -100.0).value == lo
    assert evaluator.value(pos, solver, deadline=over, cut_value=lambda p: lo + 0.5).value == lo + 0.5
    budget = Budget(0.05)
    high = call_values(SLOW, 0, 4, 0, evaluator, policy_calls, budget=budget, prior=lambda pos: 100.0)
    low = call_values(SLOW, 0, 4, 0, evaluator, policy_calls, budget=budget, prior=lambda pos: -100.0)
    assert high.budget_stopped >= 1 and low.budget_stopped >= 1 and high.samples[0].play >= low.samples[0].play


def test_a_stopped_solve_can_count_a_value_of_its_own_deal() -> None:
    """The advice's stopped solves count the deal's rule playout within the proven bounds: the
    function of the position is called for a solve the budget stopped only, with its position."""
    pos = Position.start(deal_others(SLOW, 0, random.Random(1)), 0)
    solver = make_solver()
    lo, hi = solver.bounds(pos)
    seen: list[str] = []

    def of_deal(p: Position) -> float:
        seen.append(str(p))
        return lo + 0.25

    evaluator = Evaluator(SolveLimits(16_000_000))
    assert evaluator.value(pos, solver, deadline=time.time() - 1.0, cut_value=of_deal).value == lo + 0.25
    assert seen == [str(pos)]
    stopped = Evaluator(SolveLimits(2_000)).value(pos, solver, deadline=time.time() + 60, cut_value=of_deal)
    assert not stopped.exact and not stopped.cut and seen == [str(pos)]  # a node limit's stop: not the budget's


def test_the_advice_counts_the_deals_playout_for_a_stopped_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    got: dict[str, object] = {}
    real = advice.call_values

    def spy(*args: object, **kw: object) -> calls.CallValuation:
        got["prior"] = args[10] if len(args) > 10 else kw.get("prior")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(advice, "call_values", spy)
    advise(ANY, 2, 4, 0, budget=Budget(1e-9, 3.0, 8))
    assert got["prior"] is advice.stopped_value
    advise(ANY, 2, 1, 0, limits=SolveLimits(20_000))  # fixed work: no budget, nothing to stop
    assert got["prior"] is None


def test_a_budget_over_before_the_first_sample_solves_nothing() -> None:
    v = call_values(ANY, 1, 8, 0, Evaluator(SolveLimits(20_000)), policy_calls, budget=Budget(1e-9))
    assert v.samples == [] and v.stopped == "time" and v.solves == 0


def test_with_a_prior_the_test_is_on_the_refined_gap() -> None:
    sure = Budget(None, 3.0, 1, prior=(-6.0, 1.0))
    assert sure.decided([-5.0])
    m, se = refine(-6.0, 1.0, [-5.0])
    assert abs(m) > 3.0 * se
    unsure = Budget(None, 3.0, 1, prior=(0.5, 2.0))
    assert not unsure.decided([-1.0, 1.0])
    assert not Budget(None, 3.0, 4, prior=(-6.0, 1.0)).decided([-5.0] * 3)  # min_samples still holds
    assert Budget(None, 3.0, 4, prior=(-6.0, 1.0)).decided([-5.0] * 4)
    # without the prior the same single value decides nothing (PIMC alone needs two or more)
    assert not Budget(None, 3.0, 1).decided([-5.0])


def test_the_anytime_recommendation_follows_the_estimates_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    plays, passes = [-4.0, 2.0, 2.0], [2.0, 0.0, 0.0]
    samples = [CallSample(p, q, True, 1, 0, 1) for p, q in zip(plays, passes, strict=True)]
    valuation = CallValuation(estimate("play", plays, plays, 0), estimate("pass", passes, passes, 0), 0.5, samples)
    monkeypatch.setattr(advice, "call_values", lambda *args, **kwargs: valuation)
    adv = advise(SLOW, 0, 8, 2, 1, SolveLimits(1000), budget=Budget(5.0, 3.0, 8), against=None)  # PIMC's own
    m = adv.model
    assert m is not None and adv.basis == "model + exact PIMC"
    # the premise: refined on its own, the paired gap would say play on these samples
    diffs = [p - q for p, q in zip(plays, passes, strict=True)]
    assert refine(m.play - m.pass_, m.gap_error, diffs, typical=m.gap_var)[0] > 0
    assert adv.play.mean < adv.pass_.mean
    assert adv.recommendation == "pass" and adv.p_play_better < 0.5


@pytest.mark.slow
def test_descend_starts_at_the_upper_bound_whatever_the_node_limit() -> None:
    """``Evaluator(descend=True)`` gives a node-limited solve the first test an unlimited solve
    makes (the upper bound known without search): the same value and the same nodes as the
    unlimited solve, and a different path from the halfway start; the advice descends only when
    its solves may run to ``DESCEND_NODES`` or more."""
    from lukfu_solver.analysis.defaults import DESCEND_NODES
    from lukfu_solver.game import deal_from_seed

    pos = Position.start(deal_from_seed(1006), 0)
    unlimited = make_solver().solve(pos)
    down = Evaluator(SolveLimits(16_000_000), descend=True).value(pos, make_solver())
    half = Evaluator(SolveLimits(16_000_000)).value(pos, make_solver())
    assert down.value == half.value == unlimited.value and down.exact
    assert down.nodes == unlimited.nodes != half.nodes
    got: dict[str, object] = {}

    def spy(*args: object, **kwargs: object) -> object:
        got["descend"] = args[4].descend  # type: ignore[attr-defined]
        raise RuntimeError("enough")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(advice, "call_values", spy)
        for nodes, descends in ((DESCEND_NODES, True), (DESCEND_NODES - 1, False), (None, True)):
            with pytest.raises(RuntimeError):
                advise(ANY, 2, 1, 0, limits=SolveLimits(nodes))
            assert got["descend"] is descends


@pytest.mark.slow
def test_restarts_give_one_solve_s_value_and_stay_within_the_node_limit() -> None:
    """``Evaluator(restarts=...)``: a chain of node-limited solves on one table, each from the
    tightest upper bound proved so far, ends with the unlimited solve's value; on a deal where one
    descending solve wanders it takes fewer nodes; under a node limit it stops within it, its
    bounds around the value; the advice restarts whenever it descends."""
    from lukfu_solver.analysis.defaults import RESTARTS
    from lukfu_solver.game import deal_from_seed
    from lukfu_solver.hidden.calls import call_deals

    hard = Position.start(call_deals(deal_from_seed(1015)[0], 0, 3, 1_000_003)[2], 0)  # bench hand 15's
    exact = make_solver().solve(hard)
    chain = Evaluator(SolveLimits(16_000_000), descend=True, restarts=RESTARTS).value(hard, make_solver())
    one = Evaluator(SolveLimits(16_000_000), descend=True).value(hard, make_solver())
    assert chain.exact and chain.value == one.value == exact.value
    assert chain.nodes < 0.6 * one.nodes
    short = Evaluator(SolveLimits(30_000), descend=True, restarts=RESTARTS).value(hard, make_solver())
    assert not short.exact and short.nodes <= 30_000
    r = make_solver().solve(hard, max_nodes=30_000)
    assert r.lower <= exact.value <= r.upper  # the premise: 30,000 nodes do not settle it
    got: dict[str, object] = {}

    def spy(*args: object, **kwargs: object) -> object:
        got["restarts"] = args[4].restarts  # type: ignore[attr-defined]
        raise RuntimeError("enough")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(advice, "call_values", spy)
        for nodes, restarts in ((None, RESTARTS), (10_000, None)):
            with pytest.raises(RuntimeError):
                advise(ANY, 2, 1, 0, limits=SolveLimits(nodes))
            assert got["restarts"] == restarts
