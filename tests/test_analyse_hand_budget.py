"""``analyse HAND --seat 0`` within one budget (``analysis.hand.analyse_hand``): the first-lead table
runs first within its share, the advice gets what the table left, so a table that runs over
shortens the advice, not the answer; and the advice says when its recommendation is a close call
(``cli.analyse_words.close_call_text``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from lukfu_cli.analyse_words import CLOSE_Z, close_call_text
from lukfu_solver.analysis import hand as hand_mod
from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import HAND_TIME, LEAD_TIME, MASTER_TIME
from lukfu_solver.cards import parse_cards
from lukfu_solver.hidden.calls import Budget

MASTER = parse_cards("C346S8M567T12789")
"""Bench hand 12 (the Master's)."""


class Recorder:
    """Stands in for the first-lead table and the advice: the table moves a fake clock on by
    ``table_seconds``; both record what they were given."""

    def __init__(self, table_seconds: float) -> None:
        self.now = 100.0
        self.table_seconds = table_seconds
        self.lead_budget: float | None = -1.0
        self.advice_budget: Budget | None = None
        self.order: list[str] = []

    def clock(self) -> float:
        return self.now

    def first_leads(
        self, hand: int, samples: int, seed: int, jobs: int, limits: Any, progress: Any, budget: Any
    ) -> str:
        self.order.append("leads")
        self.lead_budget = budget
        self.now += self.table_seconds
        return "leads"

    def advise(self, hand: int, seat: int, n: int, seed: int, jobs: int, limits: Any, **kw: Any) -> str:
        self.order.append("advice")
        self.advice_budget = kw["budget"]
        return "advice"


def run(monkeypatch: pytest.MonkeyPatch, table_seconds: float, **kw: Any) -> Recorder:
    rec = Recorder(table_seconds)
    monkeypatch.setattr(hand_mod, "first_leads", rec.first_leads)
    monkeypatch.setattr(hand_mod, "advise", rec.advise)
    monkeypatch.setattr(hand_mod.time, "perf_counter", rec.clock)
    monkeypatch.setattr(hand_mod, "hand_facts", lambda hand: None)
    hand_mod.analyse_hand(MASTER, 0, **kw)
    return rec


def test_the_table_first_and_the_advice_gets_what_it_left(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = run(monkeypatch, 1.5)
    assert rec.order == ["leads", "advice"]
    assert rec.lead_budget == pytest.approx(LEAD_TIME)
    assert rec.advice_budget is not None and rec.advice_budget.seconds == pytest.approx(HAND_TIME - 1.5)
    assert rec.advice_budget.z is not None  # still the anytime advice, with its sequential test


def test_a_table_that_runs_over_leaves_the_advice_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = run(monkeypatch, HAND_TIME + 2.0)  # its first sample always finishes
    assert rec.advice_budget is not None and rec.advice_budget.seconds == 0.0


def test_a_given_budget_is_the_whole_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = run(monkeypatch, 1.0, budget=9.2)
    assert rec.lead_budget == pytest.approx(9.2 * LEAD_TIME / HAND_TIME)
    assert rec.advice_budget is not None and rec.advice_budget.seconds == pytest.approx(8.2)


def test_fixed_samples_have_no_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = run(monkeypatch, 30.0, samples=4)
    assert rec.lead_budget is None and rec.advice_budget is None


def test_other_seats_and_no_table_keep_the_advice_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = run(monkeypatch, 1.0, lead_samples=0)
    assert rec.order == ["advice"] and rec.advice_budget is not None and rec.advice_budget.seconds == MASTER_TIME


def test_no_time_left_gives_the_models_answer_and_says_so() -> None:
    adv = advise(MASTER, 0, 128, 3, budget=Budget(0.0, 3.0, 8), against=None)  # the model's own, uncalibrated
    assert adv.samples == 0 and adv.basis == "model" and adv.model is not None
    assert adv.play.mean == pytest.approx(adv.model.play)


def test_a_close_call_is_said_and_a_clear_one_not() -> None:
    adv = advise(MASTER, 0, 128, 3, budget=Budget(0.0, 3.0, 8))

    def with_gap(gap: float, se: float) -> Any:
        play = dataclasses.replace(adv.play, mean=adv.pass_.mean + gap)
        return dataclasses.replace(adv, play=play, gap_stderr=se, basis="model + exact PIMC", samples=3)

    close = close_call_text(with_gap(0.9 * CLOSE_Z, 1.0))
    assert close is not None and "close call" in close.plain and "--time" in close.plain
    assert close_call_text(with_gap(-1.1 * CLOSE_Z, 1.0)) is None
    assert close_call_text(with_gap(3.0, 0.0)) is None  # every sample the same: no doubt
    tie = close_call_text(dataclasses.replace(with_gap(0.0, 0.0), basis="exact PIMC"))
    assert tie is not None and "--samples" in tie.plain  # fixed work: more samples sharpen it


@pytest.mark.slow
def test_fixed_samples_give_the_same_answer_for_any_jobs() -> None:
    """The table first, the advice second: with ``--samples`` neither depends on the order or on ``jobs``."""

    def numbers(jobs: int) -> tuple[object, ...]:
        h = hand_mod.analyse_hand(MASTER, 0, samples=2, lead_samples=2, seed=5, jobs=jobs, max_nodes=20_000)
        assert h.leads is not None
        leads = [(str(e.move), e.values) for e in h.leads.moves]
        return h.advice.play.values, h.advice.pass_.values, h.advice.recommendation, leads

    one = numbers(1)
    assert one == numbers(2)
    assert len(one[0]) == 2 and len(one[3]) > 1
