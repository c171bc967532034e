"""The in-game hint (``lukfu_solver.analysis.hint``): at the calling phase the same numbers as
``advise`` for the same hand, seed, samples and limits; in the play phase the pimc player's."""

from __future__ import annotations

import pytest

from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import advice_budget
from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.moves import SolveLimits
from lukfu_solver.errors import NotationError
from lukfu_solver.players import PimcPlayer
from lukfu_solver.view import SeatView

SMALL = SolveLimits(20_000)


@pytest.mark.parametrize("text", ["0 C1259S3M1246T379 - -", "1 C19S345M2789T189 - pass"])
def test_the_calling_hint_gives_advise_numbers(text: str) -> None:
    view = SeatView.parse(text)
    h = hint(view, 1, seed=3, samples=4, limits=SMALL)
    a = advise(view.hand, view.seat, 4, 3, limits=SMALL)
    assert h.kind == "call" and h.advice is not None and h.decision is None
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


def test_the_play_hint_is_the_pimc_players_analysis() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    h = hint(view, 1, seed=2)
    a = PimcPlayer(1, seed=2).analyse(view)
    assert h.kind == "play" and h.decision is not None and h.advice is None
    assert [(m.move, m.value, m.stderr) for m in h.decision.moves] == [(m.move, m.value, m.stderr) for m in a.moves]
    assert h.best == a.best


def test_a_hint_needs_the_seat_to_move() -> None:
    with pytest.raises(NotationError):
        hint(SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6"), 1)
