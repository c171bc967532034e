"""Anytime advice: the sequential test, the time budget, the learned first answer and
its refinement by PIMC, the reasons in card-play terms, the bar charts, and the hint's fields."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rich.console import Console

from lukfu_cli.analyse_charts import MovesChart, OutcomeChart
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import ADVICE_TWO_PHASE, ADVISE_TIME, DECIDE_SE, RESTARTS, advice_budget
from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.model import FEATURES, load_model, predict
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.calls import Budget, CallSample, call_values, two_phase_estimate
from lukfu_solver.hidden.pimc import Evaluator, SolveLimits, refine
from lukfu_solver.policy.calling import hand_facts, policy_calls
from lukfu_solver.view import SeatView

SMALL = SolveLimits(20_000)
STRONG = parse_cards("C19S9M9T19C2S2M3T4C5S6")
"""Six always-Old cards: calling wins nearly every deal."""
WEAK = parse_cards("C2356S2457M3467")
"""No Old card, no 9: the opponents hold every top."""


@pytest.mark.slow
def test_the_sequential_test_stops_at_the_same_sample_for_any_jobs() -> None:
    budget = Budget(None, 3.0, 4)
    one = call_values(STRONG, 0, 32, 7, Evaluator(SMALL), policy_calls, 1, budget=budget)
    two = call_values(STRONG, 0, 32, 7, Evaluator(SMALL), policy_calls, 2, budget=budget)
    assert one.stopped == "decided" and 4 <= len(one.samples) < 32
    assert (one.play, one.pass_, one.samples, one.stopped) == (two.play, two.pass_, two.samples, two.stopped)


def test_without_a_budget_the_work_is_fixed() -> None:
    v = call_values(STRONG, 0, 6, 7, Evaluator(SMALL), policy_calls)
    assert v.stopped == "samples" and len(v.samples) == 6 and v.cut == 0
    assert advice_budget(6, None) == (6, None)
    n, budget = advice_budget(None, None)
    assert budget is not None and budget.seconds == ADVISE_TIME and budget.z is not None and n > 32


def test_a_tiny_budget_gives_the_model_answer_and_says_so() -> None:
    adv = advise(WEAK, 0, 32, 0, 1, SolveLimits(16_000_000), budget=Budget(1e-6), against=None)  # uncalibrated
    assert adv.samples == 0 and adv.stopped == "time" and adv.basis == "model"
    assert adv.model is not None and adv.play.mean == pytest.approx(adv.model.play)
    assert adv.recommendation == adv.model.recommendation


def test_the_budget_refines_the_model_with_the_samples() -> None:
    adv = advise(STRONG, 1, 32, 0, 1, SMALL, budget=Budget(None, 3.0, 4), against=None)  # uncalibrated
    assert adv.basis.startswith("model + ") and adv.pimc is not None and adv.samples >= 4
    pimc_play = adv.pimc[0]
    assert adv.model is not None
    lo, hi = sorted((pimc_play.mean, adv.model.play))
    assert lo - 1e-9 <= adv.play.mean <= hi + 1e-9  # between the prior and the samples
    assert adv.play.stderr < adv.model.play_error


def test_refine_leans_on_the_samples_as_they_grow() -> None:
    few = refine(-4.0, 2.0, [2.0, 4.0])[0]
    many = refine(-4.0, 2.0, [2.0, 4.0] * 32)[0]
    assert -4.0 < few < many < 3.0 and many == pytest.approx(3.0, abs=0.2)


def test_the_model_file_is_shipped_and_predicts_every_seat() -> None:
    model = load_model()
    assert model is not None and model["features"] == list(FEATURES)
    assert model["error"]["hands"] >= 30 and model["error"]["gap"] > 0
    facts = hand_facts(STRONG)
    answers = [predict(facts, s) for s in range(3)]
    assert all(a is not None for a in answers)
    assert answers[2] is not None and answers[2].pass_ == 0.0  # seat 2 passing is a redeal
    assert answers[0] is not None and answers[0].recommendation == "play"
    weak = predict(hand_facts(WEAK), 0)
    assert weak is not None and weak.recommendation == "pass"


@pytest.mark.slow
def test_the_command_line_start_does_not_load_the_model() -> None:
    code = (
        "import sys, lukfu_cli.app; "
        "print(json.dumps(['lukfu_solver.analysis.model' in sys.modules, 'numpy' in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [False, False]


# ---------------------------------------------------------------- reasons


def test_reasons_name_the_old_cards_the_tops_and_the_risk() -> None:
    strong = advise(STRONG, 0, 4, 0, 1, SMALL)
    text = " / ".join(strong.reasons)
    assert "6 Old cards (C19S9M9T19)" in text and "you can claim the deal at your first lead" in text
    assert "risk:" in text and "sampled deals" in text
    weak = advise(WEAK, 2, 4, 0, 1, SMALL)
    text = " / ".join(weak.reasons)
    assert "no Old card" in text
    for suit in ("Coins", "Strings", "Myriads"):
        assert suit in text  # the opponents hold the tops of every suit it holds
    assert "calling loses in" in text and weak.p_caller_loses > 0.5


def test_reasons_name_the_sets_and_runs_that_cash() -> None:
    hand = parse_cards("C9S789M123T15678")
    adv = advise(hand, 1, 2, 0, 1, SMALL)
    assert any("M123" in r and "S789" in r and "T5678" in r for r in adv.reasons)


# ---------------------------------------------------------------- charts


def render(renderable: object, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_charts_fit_the_terminal(width: int) -> None:
    outcomes = {-10: 1, -4: 7, -2: 12, 2: 3, 6: 9, 14: 1}
    lines = render(OutcomeChart(outcomes), width)
    assert len(lines) == len(outcomes) and all(len(line) <= width for line in lines)
    assert lines[0].startswith(" -10 ") and lines[-1].endswith("1 (3%)")
    rows = [("T9", 3.25, 0.4), ("M123", -1.5, 0.75), ("xC4", 0.0, 0.0)]
    lines = render(MovesChart(rows), width)
    assert len(lines) == 5 and all(len(line) <= width for line in lines)  # three bars and the scale
    assert "+3.25 ± 0.40" in lines[0] and "├" in lines[1] and "┤" in lines[1]
    zero = lines[3].index("┴")
    assert lines[4][zero] == "0" and lines[4].split()[0] == "-2.3" and lines[4].split()[-1] == "3.6"
    bars = [line.count("█") for line in lines[:3]]
    assert bars[0] > bars[1] > 0  # the longer bar is the larger magnitude


# ---------------------------------------------------------------- the hint


def test_the_play_hint_lists_every_move_or_says_why_not() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    h = hint(view, 1, seed=2)
    assert h.analysis is not None
    legal = set(view.legal_moves())
    named = {e.move for e in h.analysis.moves} | {m for m, _ in h.left_out}
    assert named == legal and all(why for _, why in h.left_out)
    for e in h.analysis.moves:
        assert 0.0 <= e.p_caller_loses <= 1.0


@pytest.mark.slow
def test_the_calling_hint_takes_a_time_budget() -> None:
    view = SeatView.parse("0 C1259S3M1246T379 - -")
    h = hint(view, 1, seed=0, limits=SMALL, time_budget=30.0)
    assert h.advice is not None and h.advice.stopped in ("decided", "samples", "time")
    assert h.left_out == []


def test_a_decided_answer_samples_on_until_it_is_precise() -> None:
    """With a precision, a gap far from 0 still counts as undecided while its standard error is
    above it; the default answer asks for :data:`DECIDE_SE`."""
    diffs = [-6.0, -2.0, -4.0, -8.0, -3.0, -5.0, -7.0, -1.0]
    assert Budget(None, 3.0, 8).decided(diffs)
    m, se = refine(-4.0, 2.0, diffs, typical=15.0)
    assert abs(m) > 3.0 * se and se > 0.5
    assert not Budget(None, 3.0, 8, prior=(-4.0, 2.0), typical_var=15.0, precision=0.5).decided(diffs)
    assert Budget(None, 3.0, 8, prior=(-4.0, 2.0), typical_var=15.0, precision=0.5).decided(diffs * 8)
    assert advice_budget(None, None, 1)[1].precision == DECIDE_SE  # type: ignore[union-attr]


def test_the_precision_stop_samples_on_until_the_gap_is_that_sharp() -> None:
    """In ``call_values`` with two phases: without a precision the test stops at the first deal
    whose gap is 3 errors from 0; with one the same deals go on until the error is at most that,
    and stop at the first deal where it is."""
    tp = ADVICE_TWO_PHASE[1]
    evaluator = Evaluator(SMALL, descend=True, restarts=RESTARTS)
    loose = call_values(WEAK, 1, 128, 7, evaluator, policy_calls, budget=Budget(None, 3.0, 4), two_phase=tp)
    sharp_budget = Budget(None, 3.0, 4, precision=0.8)
    sharp = call_values(WEAK, 1, 128, 7, evaluator, policy_calls, budget=sharp_budget, two_phase=tp)

    def gap(samples: list[CallSample]) -> tuple[float, float]:
        return two_phase_estimate(samples, lambda p, q: p - q, None, tp.diff_share)

    assert loose.stopped == sharp.stopped == "decided"
    assert len(sharp.samples) > len(loose.samples) and sharp.samples[: len(loose.samples)] == loose.samples
    assert gap(loose.samples)[1] > 0.8 >= gap(sharp.samples)[1]
    before = sharp.samples[:-1]
    assert not sharp_budget.decided([s.play - s.pass_ for s in before if s.solved], gap(before))


@pytest.mark.slow
def test_two_phase_anytime_answers_stop_at_the_same_deal_for_any_jobs() -> None:
    """Two-phase sampling with the learned cheap value and the exact solves in restarts (the
    default's), stopped by the sequential test with a precision: one and two processes value the
    same deals the same way (the cheap solves and the restarts stop at node limits)."""
    budget = Budget(None, 3.0, 4, precision=0.8)
    tp = ADVICE_TWO_PHASE[1]
    evaluator = Evaluator(SMALL, descend=True, restarts=RESTARTS)
    one = call_values(WEAK, 1, 64, 7, evaluator, policy_calls, 1, budget=budget, two_phase=tp)
    two = call_values(WEAK, 1, 64, 7, evaluator, policy_calls, 2, budget=budget, two_phase=tp)
    assert one.stopped == "decided" and one.exact_samples >= 4 and one.cheap_only > 0
    assert (one.play, one.pass_, one.samples) == (two.play, two.pass_, two.samples)
