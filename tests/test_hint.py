"""The in-game hint (``lukfu_solver.analysis.hint``): at the calling phase the same numbers as
``advise`` for the same hand, seed, samples and limits; in the play phase the one evaluation of
a decision (``moves.weigh_moves``) at the level's work, over the decision's candidates."""

from __future__ import annotations

import pytest

from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import advice_budget
from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.moves import SolveLimits, candidates, weigh_moves
from lukfu_solver.analysis.work import HINT_WORK, hint_work
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import DISCARD
from lukfu_solver.view import SeatView

SMALL = SolveLimits(20_000)


@pytest.mark.parametrize("text", ["0 C1259S3M1246T379 - -", "1 C19S345M2789T189 - pass"])
def test_the_calling_hint_gives_advise_numbers(text: str) -> None:
    view = SeatView.parse(text)
    h = hint(view, 1, seed=3, samples=4, limits=SMALL)
    a = advise(view.hand, view.seat, 4, 3, limits=SMALL)
    assert h.kind == "call" and h.advice is not None and h.analysis is None
    got = (h.advice.play, h.advice.pass_, h.advice.p_play_better, h.advice.recommendation, h.advice.solves)
    assert got == (a.play, a.pass_, a.p_play_better, a.recommendation, a.solves)
    assert h.best == a.recommendation


def test_the_calling_hint_defaults_to_advises_own_budget() -> None:
    """One question, one number: without samples the hint is advise's default answer (anytime,
    the same sample cap, stopping rule and limits), not a smaller one of its own."""
    view = SeatView.parse("1 C19S345M2789T189 - pass")
    h = hint(view, 1, seed=0)
    cap, budget = advice_budget(None, None, 1)
    assert h.advice is not None and budget is not None
    assert h.advice.requested == cap and h.advice.stopped in ("samples", "decided", "time")
    assert h.seconds < budget.seconds + 5  # it thinks for advise's time, not for a level's samples


def test_the_play_hint_is_the_one_evaluation_at_the_levels_work() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    h = hint(view, 1, seed=2)
    a = weigh_moves(view, HINT_WORK[1], 2)
    assert h.kind == "play" and h.analysis is not None and h.advice is None and h.work == hint_work(1)
    assert [(m.move, m.mean, m.stderr, m.values) for m in h.analysis.moves] == [
        (m.move, m.mean, m.stderr, m.values) for m in a.moves
    ]
    assert h.best == a.moves[0].move and h.analysis.samples == HINT_WORK[1].samples


def test_the_play_hint_weighs_the_decisions_candidates_and_names_the_rest() -> None:
    """Every legal lead is weighed; at a discard the sensible few, the rest named with why."""
    lead = SeatView.parse("0 C1259S3M1246T379 0 -")  # the first lead: every legal lead weighed
    h = hint(lead, 1, seed=2)
    assert h.analysis is not None and not h.left_out
    assert {m.move for m in h.analysis.moves} == set(lead.legal_moves()) == set(candidates(lead))
    discard = SeatView.parse("1 C24689S238M14T16 0 M567")  # three cards to give up: 220 ways
    legal = discard.sorted_legal_moves()
    assert legal[0].kind == DISCARD and len(legal) == 220
    h = hint(discard, 1, seed=2)
    assert h.analysis is not None
    weighed = [m.move for m in h.analysis.moves]
    assert set(weighed) == set(candidates(discard)) and 2 <= len(weighed) <= 10
    assert {m for m, _why in h.left_out} == set(legal) - set(weighed)
    assert h.untold() is not None and "not weighed" in h.untold()


def test_samples_replace_the_levels_sampled_deals_in_play() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    h = hint(view, 2, seed=5, samples=4)
    assert h.analysis is not None and h.analysis.samples == 4 and h.work == HINT_WORK[2].with_samples(4)


def test_a_single_legal_move_is_not_weighed() -> None:
    view = SeatView.parse("0 C168S2569M45T7 2 T4,T9,x1/T2,T8,xM2/S8")
    legal = view.sorted_legal_moves()
    assert len(legal) == 1
    h = hint(view, 1, seed=0)
    assert h.analysis is not None and h.analysis.samples == 0 and h.best == legal[0]


def test_a_hint_needs_the_seat_to_move() -> None:
    with pytest.raises(NotationError):
        hint(SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6"), 1)
