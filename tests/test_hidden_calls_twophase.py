"""Two-phase (double) sampling of the call valuation (``hidden.calls.TwoPhase``, ``hidden.pimc.double_sample``):
the estimate is exact PIMC in expectation whatever the cheap values are, the deals of the exact
phase get exactly the values plain sampling gives them, the work is fixed by the sample count
(the same result for any ``--jobs``), and the advice uses it for the Master's anytime answer only."""

from __future__ import annotations

import math
import random

import pytest

from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.cheap_value import CheapValue
from lukfu_solver.analysis.defaults import ADVICE_TWO_PHASE, CHEAP_NODES, advice_budget, advice_two_phase
from lukfu_solver.game import deal_from_seed
from lukfu_solver.hidden.calls import Budget, TwoPhase, call_values
from lukfu_solver.hidden.pimc import Evaluator, SolveLimits, combine, double_sample, mean_stderr
from lukfu_solver.policy.calling import policy_calls

HAND = deal_from_seed(1001)[1]
"""Bench hand 1 (seat 1): its deals under small node limits are quick to value."""
EVALUATOR = Evaluator(SolveLimits(max_nodes=20_000))
SMALL = TwoPhase(cheap_nodes=500, every=2)


def test_double_sample_is_unbiased_over_the_exact_phase_draw() -> None:
    """Averaged over which class of every ``k``-th deal is the exact phase, the estimate is the mean
    of the exact values, whatever the cheap values (here unrelated noise)."""
    rng = random.Random(5)
    exact = [float(rng.randint(-12, 12)) for _ in range(24)]
    cheap = [float(rng.randint(-12, 12)) for _ in range(24)]
    for k in (2, 3, 4):
        means = []
        for offset in range(k):
            given = [e if i % k == offset else None for i, e in enumerate(exact)]
            means.append(double_sample(cheap, given)[0])
        assert sum(means) / k == pytest.approx(sum(exact) / len(exact))


def test_double_sample_error() -> None:
    """Every value exact: the plain mean and its error; cheap values equal to the exact ones: the
    error of all the deals solved exactly; cheap values near them: nearly that error."""
    exact = [2.0, -4.0, 6.0, 0.0]
    assert double_sample([9.0, 9.0, 1.0, 1.0], exact) == mean_stderr(exact)
    values = [float(v) for v in (2, -4, 6, 0, 4, -2, 8, -6)]
    given = [v if i % 2 == 0 else None for i, v in enumerate(values)]
    m, se = double_sample(values, given)
    assert (m, se) == pytest.approx(mean_stderr(values))
    near = [v + (0.5 if i % 3 else -0.5) for i, v in enumerate(values)]
    m2, se2 = double_sample(near, given)
    assert se2 == pytest.approx(mean_stderr(values)[1], rel=0.1) and se2 != se
    with pytest.raises(ValueError):
        double_sample([1.0], [None])


def test_double_sample_shrinks_few_values_towards_the_typical_variance() -> None:
    """With a typical variance, two equal exact values do not look certain."""
    m, se = double_sample([1.0, 1.0, 1.0, 1.0], [1.0, None, 1.0, None], typical=12.0, diff_share=0.5)
    assert m == 1.0 and se > 1.0
    assert combine(0.0, 1.0, 2.0, 1.0) == pytest.approx((1.0, math.sqrt(0.5)))
    assert combine(0.0, 0.0, 2.0, 1.0) == (2.0, 1.0)


@pytest.mark.slow
def test_exact_phase_values_are_plain_sampling_values_and_jobs_do_not_matter() -> None:
    """The deals of the exact phase are the same deals, valued the same, as without two phases;
    the others carry their cheap values; one and two processes give the same result."""
    plain = call_values(HAND, 1, 6, 5, EVALUATOR, policy_calls)
    one = call_values(HAND, 1, 6, 5, EVALUATOR, policy_calls, two_phase=SMALL)
    two = call_values(HAND, 1, 6, 5, EVALUATOR, policy_calls, jobs=2, two_phase=SMALL)
    assert one.samples == two.samples and one.play == two.play and one.pass_ == two.pass_
    assert [s.solved for s in one.samples] == [True, False] * 3
    for p, s in zip(plain.samples, one.samples, strict=True):
        assert s.cheap is not None
        if s.solved:
            assert (s.play, s.pass_) == (p.play, p.pass_)
        else:
            assert (s.play, s.pass_) == s.cheap and s.solves == 0
    assert one.exact_samples == 3 and one.cheap_only == 3
    assert one.solves < plain.solves
    m, se = double_sample([s.cheap[0] for s in one.samples], [s.play if s.solved else None for s in one.samples])
    assert (one.play.mean, one.play.stderr) == (m, se)
    assert one.gap == double_sample(
        [s.cheap[0] - s.cheap[1] for s in one.samples],
        [s.play - s.pass_ if s.solved else None for s in one.samples],
    )


def test_the_anytime_answers_sample_in_two_phases_and_fixed_work_does_not() -> None:
    """The default: two phases for every seat's anytime answer; ``--samples N`` solves N."""
    for seat in (0, 1, 2):
        anytime = advice_budget(None, None, seat)[1]
        assert advice_two_phase(anytime, seat) is ADVICE_TWO_PHASE[seat]
        assert ADVICE_TWO_PHASE[seat].value == CheapValue(CHEAP_NODES)
    fixed = advice_budget(4, None, 0)[1]
    assert advice_two_phase(fixed, 0) is None and advice_two_phase(Budget(3.0), 0) is None
    adv = advise(HAND, 1, 4, 5, limits=SolveLimits(max_nodes=20_000))
    assert adv.two_phase is None and adv.cheap_deals == 0 and adv.samples == 4
    tp = advise(HAND, 1, 6, 5, limits=SolveLimits(max_nodes=20_000), two_phase=SMALL)
    assert tp.two_phase is SMALL and tp.samples == 3 and tp.cheap_deals == 3
    assert sum(tp.outcomes.values()) == 3


def test_a_slow_exact_deal_does_not_keep_the_cheap_deals_from_starting(monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process a deal starts while the deals of its kind so far say it ends in time: after
    an exact deal of 4 s in a 5.5 s budget the three cheap deals (0.05 s each) still run, the next
    exact deal does not."""
    from lukfu_solver.hidden import calls

    clock = [1000.0]
    monkeypatch.setattr(calls.time, "time", lambda: clock[0])

    def fake_sample(task: calls.CallTask) -> calls.CallSample:
        exact = task.in_exact
        clock[0] += 4.0 if exact else 0.05
        return calls.CallSample(2.0, 0.0, True, int(exact), 0, 1, cheap=(1.0, 0.0), solved=exact)

    monkeypatch.setattr(calls, "call_sample", fake_sample)
    val = call_values(HAND, 1, 16, 5, EVALUATOR, policy_calls, budget=Budget(5.5), two_phase=TwoPhase(every=4))
    assert [s.solved for s in val.samples] == [True, False, False, False] and val.stopped == "time"
    plain = call_values(HAND, 1, 16, 5, EVALUATOR, policy_calls, budget=Budget(5.5), two_phase=TwoPhase(every=1))
    assert len(plain.samples) == 1  # every deal exact: the next one would end after the budget


@pytest.mark.slow
def test_a_stopped_cheap_solve_counts_the_learned_value_within_its_bounds() -> None:
    """With a cheap value, a cheap solve that stops counts it, clamped to the bounds it proved (a
    value outside them is moved to the nearer one); one that finishes counts its exact value."""
    from lukfu_solver.hidden.calls import cheap_solve
    from lukfu_solver.position import Position
    from lukfu_solver.search import make_solver

    pos = Position.start(deal_from_seed(1006), 0)  # bench hand 6's deal: 500 nodes do not settle it
    plain = cheap_solve(TwoPhase(cheap_nodes=500), pos, make_solver(), None)
    r = make_solver().solve(pos, max_nodes=500)
    assert not r.complete and not plain.exact and plain.value == (r.lower + r.upper) / 2
    high = cheap_solve(TwoPhase(cheap_nodes=500, value=lambda p, lo, hi: 99.0), pos, make_solver(), None)
    assert high.value == r.upper and high.nodes == r.nodes
    learned = cheap_solve(TwoPhase(cheap_nodes=500, value=CheapValue(CHEAP_NODES)), pos, make_solver(), None)
    assert r.lower <= learned.value <= r.upper and learned.value != plain.value
    exact = cheap_solve(TwoPhase(cheap_nodes=10_000_000, value=lambda p, lo, hi: 99.0), pos, make_solver(), None)
    assert exact.exact and exact.value == make_solver().solve(pos).value
