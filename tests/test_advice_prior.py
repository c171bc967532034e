"""The learned model as the advice's prior: each branch's samples are weighed with that branch's own
typical variance (the model file's ``sample_var``, measured on its training deals), and the errors
it carries are its own (pass measured where pass is not 0 by the rules)."""

from __future__ import annotations

import pytest

from lukfu_solver.analysis import advice
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.model import load_model, predict
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.calls import Budget, CallSample, CallValuation
from lukfu_solver.hidden.pimc import TYPICAL_VAR, SolveLimits, estimate, refine
from lukfu_solver.policy.calling import hand_facts

MASTER = parse_cards("C4S124569M26T678")
"""Bench hand 9 (the Master's)."""


@pytest.mark.slow
def test_refine_shrinks_towards_the_typical_variance_it_is_given() -> None:
    values = [2.0, 2.0, 2.0]
    assert refine(0.0, 1.0, values) == refine(0.0, 1.0, values, typical=TYPICAL_VAR)
    tight, tight_se = refine(0.0, 1.0, values, typical=3.0)
    loose, loose_se = refine(0.0, 1.0, values, typical=12.0)
    # three equal values of a branch that varies little are worth more than of one that varies a lot
    assert 0.0 < loose < tight < 2.0 and tight_se < loose_se
    assert refine(0.0, 1.0, [], typical=3.0) == (0.0, 1.0)


def test_the_budget_test_uses_its_typical_variance() -> None:
    diffs = [-3.0] * 8
    loose = Budget(None, 3.0, 8, prior=(0.0, 2.0), typical_var=400.0)
    tight = Budget(None, 3.0, 8, prior=(0.0, 2.0), typical_var=1.0)
    assert tight.decided(diffs) and not loose.decided(diffs)


def test_the_model_carries_each_branchs_sample_variance() -> None:
    model = load_model()
    assert model is not None
    var, err = model["sample_var"], model["error"]
    # a pass value (minus half the later caller's) varies far less than a caller's own value
    assert 0 < var["pass"] < var["play"] and var["gap"] > 0
    # the errors are the model's own: the raw RMSEs against the sampled reference are larger
    assert err["play"] <= model["error_measured"]["play"] and err["gap"] <= model["error_measured"]["gap"]
    m = predict(hand_facts(MASTER), 0)
    assert m is not None and (m.play_var, m.pass_var, m.gap_var) == (var["play"], var["pass"], var["gap"])
    seat2 = predict(hand_facts(MASTER), 2)
    assert seat2 is not None and seat2.pass_ == 0.0 and seat2.pass_error == 0.0


def test_the_anytime_advice_refines_each_branch_with_its_own_variance(monkeypatch: pytest.MonkeyPatch) -> None:
    plays, passes = [4.0, -2.0, 2.0, 0.0], [2.0, 0.0, 0.0, 2.0]
    samples = [CallSample(p, q, True, 2, 0, 1) for p, q in zip(plays, passes, strict=True)]
    valuation = CallValuation(estimate("play", plays, plays, 0), estimate("pass", passes, passes, 0), 0.5, samples)
    monkeypatch.setattr(advice, "call_values", lambda *args, **kwargs: valuation)
    adv = advise(MASTER, 0, 8, 2, 1, SolveLimits(1000), budget=Budget(5.0, 3.0, 8), against=None)  # PIMC's own
    m = adv.model
    assert m is not None and adv.basis == "model + exact PIMC"
    assert adv.play.mean == refine(m.play, m.play_error, plays, typical=m.play_var)[0]
    assert adv.pass_.mean == refine(m.pass_, m.pass_error, passes, typical=m.pass_var)[0]
    assert adv.pass_.mean != refine(m.pass_, m.pass_error, passes)[0]  # not the play branch's typical variance
    diffs = [p - q for p, q in zip(plays, passes, strict=True)]
    assert adv.gap_stderr == refine(m.play - m.pass_, m.gap_error, diffs, typical=m.gap_var)[1]
