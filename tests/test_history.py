"""The history of a deal (lukfu_solver/history.py): each trick's leader, best play, winner and fu
(R8-R10) and a claim's total (R14, R16), held equal to the positions a record replays through,
the same from a seat view's tricks as from the plays; and who calls after a pass (R3)."""

from __future__ import annotations

import functools

import pytest

from lukfu_solver.game import deal_from_seed, play_deal
from lukfu_solver.history import ROLES, DealHistory, Trick, best_index, play_role
from lukfu_solver.players import make_player
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, Play
from lukfu_solver.policy.calling import later_caller, policy_calls
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView


def plays(text: str) -> list[Play]:
    return [Play.parse(p) for p in text.split()]


def test_r8_the_best_play_is_the_last_face_up_one() -> None:
    assert best_index(plays("T2 T4 T6")) == 2
    assert best_index(plays("T2 xC1 T6")) == 2
    assert best_index(plays("T2 T4 xC1")) == 1
    assert best_index(plays("S345 xC1M1T1 xC2M2T2")) == 0
    assert best_index(()) == 0


def test_r10_a_trick_is_won_by_its_best_play_and_brings_its_size_in_fu() -> None:
    t = Trick.of(2, plays("S345 S678 xC1M1T1"))
    assert (t.best, t.winner, t.fu_won, t.best_seat) == (1, 0, 3, 0)
    assert [t.seat(i) for i in range(3)] == [2, 0, 1]
    assert [t.best_before(i) for i in range(3)] == [0, 0, 1]
    assert [t.role(i) for i in range(3)] == ["lead", "beat", "discard"]
    open_ = Trick.of(1, plays("M3"))
    assert (open_.winner, open_.fu_won, open_.complete, open_.best_seat) == (None, 0, False, 1)
    assert open_.to_json(4) == {"number": 4, "leader": 1, "plays": ["M3"], "winner": None, "fu_won": None}
    assert play_role(0, CLAIM_PLAY) == "claim" and set(ROLES) == {"lead", "beat", "discard", "claim"}


@functools.cache
def _records(count: int) -> list[GameRecord]:
    """Deals between a random and two rule players (random claims whenever it happens to)."""
    return [play_deal([make_player("random", s), make_player("rule"), make_player("rule:4")], s) for s in range(count)]


@pytest.mark.parametrize("rec", _records(40), ids=lambda r: f"seed{r.seed}")
def test_the_history_agrees_with_the_positions_of_the_replay(rec: GameRecord) -> None:
    positions = rec.replay()
    h = rec.history
    assert sum(len(t.plays) for t in h.tricks) + (h.claim is not None) == len(rec.plays)
    n = 0
    for t in h.tricks:
        before = positions[n]
        assert before.to_move == t.leader and not before.trick
        for i, p in enumerate(t.plays):
            pos = positions[n + i]
            if i:
                assert pos.best_i == t.best_before(i) and pos.best_seat == t.seat(t.best_before(i))
            assert pos.to_move == t.seat(i) and play_role(i, p) == t.role(i)
        n += len(t.plays)
        after = positions[n]
        if t.complete:
            assert after.to_move == t.winner or after.is_over
            assert after.fu[t.winner] - before.fu[t.winner] == t.fu_won  # type: ignore[index]
        else:
            assert after.best_i == t.best and list(after.trick) == list(t.plays)
    assert list(positions[n].fu) == list(h.fu) and positions[n].faceup == h.faceup
    if h.claim is not None:
        claimant = positions[-2]
        assert rec.plays[-1].kind == CLAIM and claimant.to_move == h.claim.seat
        assert h.claim.old == claimant.old_cards(h.claim.seat) and h.claim.total == claimant.claim_total()
        assert rec.outcome is not None and rec.outcome.total == h.claim.total  # R16: T of a claim
        assert DealHistory.of_plays(rec.plays).claim is None  # without the hands no total


def test_some_of_those_deals_end_in_a_claim() -> None:
    assert any(r.history.claim is not None for r in _records(40))


@pytest.mark.parametrize("rec", _records(12), ids=lambda r: f"seed{r.seed}")
def test_a_seat_view_walks_its_hidden_tricks_to_the_same_history(rec: GameRecord) -> None:
    full = rec.history
    for n in range(0, len(rec.plays) - (rec.plays[-1].kind == CLAIM) + 1, 5):
        for seat in range(3):
            view = rec.view(seat, n)
            h = view.history
            assert DealHistory.of_plays(rec.plays[:n]).fu == h.fu
            assert [(t.leader, t.best, t.winner, t.fu_won) for t in h.tricks] == [
                (t.leader, t.best, t.winner, t.fu_won) for t in DealHistory.of_plays(rec.plays[:n]).tricks
            ]
            assert h.leaders == view.leaders and h.winners == view.winners and h.next_leader == view.trick_leader
            assert h == DealHistory.of_tricks(view.tricks) == SeatView.parse(str(view)).history  # from_deal's, kept
    assert full.winners == tuple(t.winner for t in full.tricks if t.complete)


def test_the_viewer_s_claim_total_is_the_position_s_when_it_may_claim() -> None:
    seen = 0
    for rec in _records(40):
        positions = rec.replay()
        for n, pos in enumerate(positions[:-1]):
            if pos.trick or pos.is_over:
                continue
            view = rec.view(pos.to_move, n)
            total = view.claim_total()
            assert (total is not None) == pos.can_claim()
            if total is not None:
                seen += 1
                assert total == pos.claim_total() >= 6  # R14
            assert rec.view((pos.to_move + 1) % 3, n).claim_total() is None  # not its turn
    assert seen


def test_a_claim_s_history_from_a_record_file() -> None:
    rec = GameRecord.loads(
        '{"format": "lukfu-record/1", "hands": ["C68S1578M245T145", "C12457M1389T238", "C39S23469M67T679"],'
        ' "calls": ["pass", "play"], "plays": ["T5", "T8", "T9", "S6M6T6", "xC8S1T4", "xC7M3T2", "S234",'
        ' "xS7M2T1", "xM19T3", "claim"], "result": {"winner": 2, "total": 10, "how": "claim", "points": [0, -10, 10]}}'
    )
    claim = rec.history.claim
    assert claim is not None and claim.seat == 2 and claim.total == 10 == claim.fu + claim.old.bit_count()
    assert claim.to_json() == {"seat": 2, "fu": claim.fu, "old": claim.to_json()["old"], "total": 10}
    assert rec.replay_json()["claim"] == {"seat": 2, "old": claim.to_json()["old"]}


@pytest.mark.parametrize("seed", range(30))
def test_r3_who_calls_after_a_pass_is_the_first_later_seat_the_policy_calls(seed: int) -> None:
    hands = deal_from_seed(seed)
    for seat in range(3):
        callers = [s for s in range(seat + 1, 3) if policy_calls(hands[s])]
        assert later_caller(hands, seat) == (callers[0] if callers else None)
    assert later_caller(hands, 2) is None  # the third pass: a redeal
    assert later_caller(hands, 0, lambda hand: True) == 1 and later_caller(hands, 0, lambda hand: False) is None


def test_a_view_of_the_calling_phase_has_no_tricks() -> None:
    view = SeatView.parse("2 C245S1389M1389T6 - pass,pass")
    assert view.history.tricks == () and view.claim_total() is None and view.to_json()["tricks"] == []
