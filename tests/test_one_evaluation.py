"""One evaluation a decision: the in-game hint and the game review judge a decision with the same
function (``analysis.moves.weigh_moves``), over the same candidates, so at the same work and seed
they give the same numbers; a player who follows every hint finds every one of those decisions
within error of the best in the review at the hint's work."""

from __future__ import annotations

import functools

import pytest

from lukfu_solver.analysis.hint import hint
from lukfu_solver.analysis.moves import candidates
from lukfu_solver.analysis.review import Decision, Review
from lukfu_solver.analysis.review_work import ReviewSettings, review_record
from lukfu_solver.hidden.pimc import SolveLimits
from lukfu_solver.players import against_of
from lukfu_solver.plays import Play
from lukfu_solver.session import GameSession, engine_answer
from lukfu_solver.view import SeatView

LEVEL = 1
"""The hints' level: the quickest, so a whole deal's hints and review stay a test's work."""
SAMPLES = 6
"""The sampled deals of every hint, fixed (the level's in play; the hint at the call otherwise
thinks for a time)."""
CALL_NODES = 200_000
"""The call's per-solve limit, the same for the hint and the review."""


def hint_options(view: SeatView) -> dict[str, object]:
    """What a hint is asked for, so that its work is fixed and a review can match it: the sampled
    deals, and at the call the limit of a solve."""
    return {"samples": SAMPLES} if view.caller is not None else {"samples": SAMPLES, "limits": SolveLimits(CALL_NODES)}


def hints_work(seat: int) -> ReviewSettings:
    """The review at the hints' work: their level, the call's sampled deals and limit, the
    record's seed (the hints' own), the person's seat."""
    return ReviewSettings(samples=SAMPLES, call_max_nodes=CALL_NODES, seats=(seat,), level=LEVEL)


def followed_game(seed: int, seat: int) -> tuple[GameSession, dict[str, object]]:
    """A deal in which the person at ``seat`` plays every hint's advice (the call at fixed work,
    every play at the level's, the call calibrated against the table's opponents as the table's
    hint is), two engines answering; the hints by the view they were for."""
    s = GameSession.new(seed, seat, ("pimc", "rule"), level=LEVEL)
    hints: dict[str, object] = {}
    while s.phase != "over":
        if s.waiting_for_engine:
            task = s.engine_task()
            s.apply_engine(task, engine_answer(task))
            continue
        view = s.view()
        h = hint(view, LEVEL, s.game.deal_seed, against=against_of(s.specs), **hint_options(view))  # type: ignore[arg-type]
        hints[str(view)] = h
        best = h.best
        s.apply(best if isinstance(best, str) else str(best))
    return s, hints


@functools.cache
def followed(seed: int, seat: int) -> tuple[dict[str, object], Review]:
    s, hints = followed_game(seed, seat)
    return hints, review_record(s.record, hints_work(s.human_seat))


def numbers(moves: object) -> dict[str, tuple[float, float]]:
    return {str(m.move): (m.mean, m.stderr) for m in moves}  # type: ignore[attr-defined]


def hinted(decision: Decision, hints: dict[str, object]) -> object | None:
    return hints.get(decision.view)


GAMES = [(2, 0), (1, 0), (5, 1), (1, 2)]
"""(seed, the person's seat) of the followed games: the person as the caller (2, 0: the Master;
5, 1: after the Master passed) and not (1, 0; 1, 2)."""


@pytest.mark.slow
@pytest.mark.parametrize("seed,seat", GAMES)
def test_the_hint_and_the_review_give_equal_numbers_at_the_same_work_and_seed(seed: int, seat: int) -> None:
    hints, review = followed(seed, seat)
    compared = 0
    for d in review.decisions:
        h = hinted(d, hints)
        assert h is not None, d.view  # the person's every decision was hinted
        if d.is_call:
            adv = h.advice  # type: ignore[attr-defined]
            got = {m.move: (m.mean, m.stderr) for m in d.moves}
            assert got == {"play": (adv.play.mean, adv.play.stderr), "pass": (adv.pass_.mean, adv.pass_.stderr)}
            assert d.against == adv.against == "medium"  # pimc and rule: the stronger's, as the table's hint
        else:
            a = h.analysis  # type: ignore[attr-defined]
            assert numbers(a.moves) == {m.move: (m.mean, m.stderr) for m in d.moves}
            assert {str(m) for m in candidates(SeatView.parse(d.view))} == {m.move for m in d.moves}
            assert d.samples == a.samples and d.best == str(a.moves[0].move)
        compared += 1
    assert compared >= 3


@pytest.mark.slow
@pytest.mark.parametrize("seed,seat", GAMES)
def test_a_player_who_follows_every_hint_is_within_error_of_the_best_everywhere(seed: int, seat: int) -> None:
    hints, review = followed(seed, seat)
    mine = [d for d in review.decisions if d.seat == review.decisions[0].seat]
    assert mine and all(hinted(d, hints) is not None for d in mine)
    for d in mine:
        assert d.within_error and d.verdict is None, (d.view, d.played, d.best, d.loss, d.loss_stderr)
    summary = next(s for s in review.seats if s.seat == mine[0].seat)
    assert summary.within_error == summary.decisions == len(mine)
    assert "hint's numbers" in review.hint_words()


@pytest.mark.slow
def test_a_played_move_outside_the_candidates_leaves_their_numbers_alone() -> None:
    """The review values a move played outside the decision's candidates after them, on the same
    deals: the candidates' numbers are the hint's still."""
    view = SeatView.parse("1 C24689S238M14T16 0 M567")  # three cards to give up: 220 ways
    weighed = candidates(view)
    outside = next(m for m in view.sorted_legal_moves() if m not in weighed)
    from lukfu_solver.analysis.moves import weigh_moves
    from lukfu_solver.analysis.work import hint_work

    h = hint(view, LEVEL, 4)
    assert h.analysis is not None
    both = weigh_moves(view, hint_work(LEVEL), 4, extra=[outside])
    assert {k: v for k, v in numbers(both.moves).items() if k != str(outside)} == numbers(h.analysis.moves)
    assert str(outside) in numbers(both.moves) and isinstance(outside, Play)
