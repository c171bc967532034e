"""Dealing and playing: seeds (R2), calling and redeals (R3), illegal answers, random deals."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from lukfu_solver.cards import ALL_CARDS
from lukfu_solver.errors import NotationError
from lukfu_solver.game import (
    MAX_PASSED_OUT,
    IllegalMove,
    deal_from_seed,
    deal_hands,
    first_master,
    play_deal,
    start_position,
)
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import DISCARD, SINGLE, Play
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView


def randoms(i: int) -> list[RandomPlayer]:
    return [RandomPlayer(3 * i), RandomPlayer(3 * i + 1), RandomPlayer(3 * i + 2)]


class Scripted:
    """Calls from a script (then ``play``), plays at random; remembers every calling view it saw."""

    def __init__(self, calls: list[str], name: str, seed: int = 0) -> None:
        self.calls = calls
        self.name = name
        self.random = RandomPlayer(seed)
        self.seen: list[SeatView] = []

    def __call__(self, view: SeatView) -> Play | str:
        if view.caller is None:
            self.seen.append(view)
            return self.calls.pop(0) if self.calls else "play"
        return self.random(view)


# ---------------------------------------------------------------- dealing


def test_r2_deal_three_hands_of_twelve_using_all_36_cards() -> None:
    for seed in range(20):
        hands = deal_from_seed(seed)
        assert [h.bit_count() for h in hands] == [12, 12, 12]
        assert hands[0] & hands[1] == hands[0] & hands[2] == hands[1] & hands[2] == 0
        assert hands[0] | hands[1] | hands[2] == ALL_CARDS
    assert deal_from_seed(5) == deal_hands(random.Random(5)) == deal_from_seed(5)
    assert len({deal_from_seed(s) for s in range(20)}) == 20


def test_start_position_is_the_seeds_deal_with_seat_0_to_lead() -> None:
    pos = start_position(11, caller=2)
    assert tuple(pos.hands) == deal_from_seed(11)
    assert pos.to_move == 0 and pos.caller == 2 and pos.fu == [0, 0, 0]  # R4


def test_the_first_deal_of_a_seed_is_the_deal_lukfu_deal_shows() -> None:
    """``play --seed N`` and ``deal --seed N`` deal the same cards: seat s of the table holds
    ``dealt_hand(N, s)``, whoever the Master is."""
    from lukfu_solver.game import dealt_hand

    masters = set()
    for seed in range(12):
        rec = play_deal(randoms(seed), seed, names=["ann", "bob", "cy"])
        first = rec.passed_out[0] if rec.passed_out else rec.hands
        assert first == deal_from_seed(seed) and all(first[s] == dealt_hand(seed, s) for s in range(3))
        assert rec.passed_out or rec.players[0] == ["ann", "bob", "cy"][first_master(seed)]
        masters.add(first_master(seed))
    assert masters == {0, 1, 2}


def test_r2_master_chosen_at_random_and_seats_numbered_from_it() -> None:
    masters = set()
    for seed in range(30):
        rec = play_deal(randoms(seed), seed, names=["ann", "bob", "cy"])
        assert rec.players is not None
        i = ["ann", "bob", "cy"].index(rec.players[0])
        assert rec.players == tuple(["ann", "bob", "cy"][(i + s) % 3] for s in range(3))
        masters.add(rec.players[0])
    assert masters == {"ann", "bob", "cy"}


# ---------------------------------------------------------------- determinism


def test_same_seed_same_record() -> None:
    for seed in (0, 1, 99):
        a = play_deal(randoms(seed), seed)
        b = play_deal(randoms(seed), seed)
        assert a == b and a.dumps() == b.dumps() and a.seed == seed
    assert play_deal(randoms(0), 0) != play_deal(randoms(0), 1)


def test_same_seed_same_record_in_another_process() -> None:
    code = (
        "from lukfu_solver.game import play_deal; from lukfu_solver.players.random import RandomPlayer;"
        "print(play_deal([RandomPlayer(3), RandomPlayer(4), RandomPlayer(5)], 1).dumps())"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == play_deal(randoms(1), 1).dumps()


# ---------------------------------------------------------------- calling (R3)


def test_r3_calling_order_and_caller() -> None:
    # whoever sits at seat 0 passes, seat 1 calls: seat 2 is never asked
    seen: list[tuple[int, tuple[str, ...], int]] = []

    def by_seat(view: SeatView) -> Play | str:
        if view.caller is None:
            seen.append((view.seat, view.calls, view.hand.bit_count()))
            assert view.to_move == view.seat and list(view.legal_moves()) == []
            return "pass" if view.seat == 0 else "play"
        return rng_player(view)

    rng_player = RandomPlayer(7)
    rec = play_deal([by_seat, by_seat, by_seat], seed=3)
    assert seen == [(0, (), 12), (1, ("pass",), 12)]
    assert rec.calls == ("pass", "play") and rec.caller == 1 and rec.passed_out == ()
    assert rec.players == ("by_seat", "by_seat", "by_seat")
    rec.replay()


def test_r3_master_who_calls_is_the_caller() -> None:
    rec = play_deal([Scripted([], "a"), Scripted([], "b"), Scripted([], "c")], seed=4)
    assert rec.calls == ("play",) and rec.caller == 0


def test_r3_redeal_after_three_passes() -> None:
    # the first six calls at the table are passes: two deals are passed out, the third is played
    script = ["pass"] * 6
    people = [Scripted(script, "p0", 1), Scripted(script, "p1", 2), Scripted(script, "p2", 3)]
    rec = play_deal(people, seed=12)
    assert len(rec.passed_out) == 2
    assert rec.calls == ("play",) and rec.caller == 0
    for hands in (*rec.passed_out, rec.hands):
        assert [h.bit_count() for h in hands] == [12, 12, 12]
        assert hands[0] | hands[1] | hands[2] == ALL_CARDS
    assert len({rec.hands, *rec.passed_out}) == 3  # dealt again each time
    calling_views = [v for p in people for v in p.seen]
    assert sorted(len(v.calls) for v in calling_views) == [0, 0, 0, 1, 1, 2, 2]
    rec.replay()
    assert GameRecord.loads(rec.dumps()) == rec


def test_r3_endless_passing_gives_up() -> None:
    def never(view: SeatView) -> Play | str:
        return "pass"

    with pytest.raises(NotationError) as info:
        play_deal([never, never, never], seed=0)
    assert info.value.field == "players" and f"{MAX_PASSED_OUT} deals in a row were passed out" in info.value.message


# ---------------------------------------------------------------- illegal answers


def test_illegal_move_is_named() -> None:
    def first_card(view: SeatView) -> Play | str:
        if view.caller is None:
            return "play"
        low = view.hand & -view.hand
        return Play(SINGLE, low, 1)  # ignores R8/R9: illegal as soon as it must follow a larger lead

    with pytest.raises(IllegalMove) as info:
        play_deal([first_card, first_card, first_card], seed=2, names=["x", "y", "z"])
    err = info.value
    assert isinstance(err, NotationError) and err.field == "move"
    assert err.seat in (0, 1, 2) and isinstance(err.move, Play)
    assert err.message.startswith(f"seat {err.seat} (")
    assert f"answered {err.move}, which is not legal: " in err.message


def test_illegal_call_and_wrong_answer_types() -> None:
    def maybe(view: SeatView) -> Play | str:
        return "maybe"

    with pytest.raises(
        IllegalMove, match=r"^move: seat 0 \(maybe\) answered 'maybe', which is not legal: .*'play' or 'pass'"
    ):
        play_deal([maybe, maybe, maybe], seed=0)

    def text_player(view: SeatView) -> Play | str:
        return "play" if view.caller is None else str(next(view.legal_moves()))

    with pytest.raises(IllegalMove, match="in the play phase the answer is a Play"):
        play_deal([text_player] * 3, seed=0)

    def hidden_discard(view: SeatView) -> Play | str:
        if view.caller is None:
            return "play"
        moves = list(view.legal_moves())
        if moves[0].kind == DISCARD:
            return Play(DISCARD, 0, moves[0].size)  # cards not shown
        return moves[0]

    with pytest.raises(IllegalMove, match="a discard must show its cards here"):
        play_deal([hidden_discard] * 3, seed=1)

    def malformed(view: SeatView) -> Play | str:
        if view.caller is None:
            return "play"
        return Play(SINGLE, view.hand & -view.hand, 2)  # one card, said to be two

    with pytest.raises(IllegalMove, match="its kind, cards and size disagree"):
        play_deal([malformed] * 3, seed=1)


# ---------------------------------------------------------------- many random deals


def test_200_random_deals_terminate_and_points_sum_to_zero() -> None:
    start = time.perf_counter()
    hows = set()
    for seed in range(200):
        rec = play_deal(randoms(seed), seed)
        assert rec.outcome is not None
        assert sum(rec.outcome.points) == 0
        assert (rec.outcome.winner is None) == (rec.outcome.how == "void")
        hows.add(rec.outcome.how)
        assert len(rec.plays) <= 37
    elapsed = time.perf_counter() - start
    assert hows == {"claim", "end", "void"}
    assert elapsed / 200 < 0.05  # well under 50 ms a deal


def test_random_player_discards_are_uniform_enough() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")  # must discard one of 11 cards
    player = RandomPlayer(0)
    counts: dict[int, int] = {}
    for _ in range(1100):
        move = player(view)
        assert isinstance(move, Play) and move.kind == DISCARD and move.cards & view.hand == move.cards
        counts[move.cards] = counts.get(move.cards, 0) + 1
    assert len(counts) == 11 and min(counts.values()) > 50
