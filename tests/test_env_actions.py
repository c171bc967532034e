"""The research environments' action scheme against the rules: on random positions, every legal
play of ``rules.py`` (R5–R9, R14) is reachable card by card and nothing else is; and the core
episode deals, calls (R3), redeals and pays (R15–R17) as ``game.play_deal`` does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lukfu_solver.cards import iter_cards
from lukfu_solver.env.actions import (
    CALL_PASS,
    CALL_PLAY,
    CLAIM_ACTION,
    FINISH,
    NUM_ACTIONS,
    Decision,
    action_name,
    legal_actions,
)
from lukfu_solver.env.episode import Episode, IllegalAction, SeededDealer
from lukfu_solver.errors import NotationError
from lukfu_solver.game import deal_hands, play_deal
from lukfu_solver.players import make_player
from lukfu_solver.plays import CLAIM_PLAY, Play
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord


def reachable(decision: Decision) -> dict[Play, list[int]]:
    """Every play the action scheme reaches from the start of ``decision``, with its actions,
    walking every path the mask allows; a path that dead-ends fails the test."""
    found: dict[Play, list[int]] = {}

    def walk(chosen: int, path: list[int]) -> None:
        actions = legal_actions(decision, chosen)
        assert actions, f"dead end after {[action_name(a) for a in path]}"
        for a in actions:
            if a == CLAIM_ACTION:
                found[CLAIM_PLAY] = path + [a]
            elif a == FINISH:
                play = decision.formed(chosen)
                assert play is not None
                found[play] = path + [a]
            else:
                nxt = chosen | 1 << a
                play = decision.formed(nxt)
                if play is not None and not decision.next_cards(nxt):
                    assert play not in found, f"{play} reached twice"
                    found[play] = path + [a]
                else:
                    walk(nxt, path + [a])

    walk(0, [])
    return found


def random_position(seed: int, plays: int, caller: int) -> Position:
    """The position after up to ``plays`` uniformly random legal plays (claims and all) of a seeded deal."""
    rng = random.Random(seed)
    pos = Position.start(deal_hands(rng), caller)
    for _ in range(plays):
        moves = list(pos.legal_moves())
        move = rng.choice(moves)
        if move == CLAIM_PLAY and rng.random() < 0.8:
            others = [m for m in moves if m != CLAIM_PLAY]
            move = rng.choice(others) if others else move
        pos.push(move)
        if pos.is_over:
            pos.pop()
            break
    return pos


@given(st.integers(0, 2**32), st.integers(0, 36), st.integers(0, 2))
def test_every_legal_play_is_reachable_and_nothing_else_r5_r9_r14(seed: int, plays: int, caller: int) -> None:
    pos = random_position(seed, plays, caller)
    decision = Decision(pos)
    found = reachable(decision)
    assert set(found) == set(pos.legal_moves())
    for play, path in found.items():
        assert pos.is_legal(play)
        assert decision.actions_for(play) == path  # one sequence a play, the one the adapter gives
        cards = [a for a in path if a < 36]
        assert cards == sorted(cards) == list(iter_cards(play.cards))


def test_the_scheme_offers_finish_only_where_a_play_could_grow_r5() -> None:
    pos = Position.parse("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 0 0,0,0 - -")
    d = Decision(pos)
    assert [action_name(a) for a in legal_actions(d, 1 << 22)] == ["M6", "finish"]  # M5 alone, or M56..
    assert d.actions_for(Play.parse("M567")) == [22, 23, 24]  # the run ends at M7: made by its last card
    assert d.actions_for(Play.parse("T5")) == [31]  # T5 starts nothing longer
    with pytest.raises(NotationError):
        d.actions_for(Play.parse("C1"))  # not held
    assert NUM_ACTIONS <= 128


def test_discards_are_chosen_card_by_card_when_nothing_beats_r9() -> None:
    pos = Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -")
    pos.push(Play.parse("C9"))  # a led 9 that seat 1's C8 cannot beat
    d = Decision(pos)
    assert d.discard == 1 and legal_actions(d, 0) == [7]


def test_a_seeded_episode_deals_as_play_deal_and_lukfu_deal_r2() -> None:
    for seed in (0, 7, 175):
        ep = Episode.from_seed(seed)
        rng = random.Random(seed)
        assert ep.hands == deal_hands(rng)
        assert ep.master == rng.randrange(3)
    dealer = SeededDealer(7)
    assert dealer() == (Episode.from_seed(7).hands, Episode.from_seed(7).master)


def test_engines_through_the_episode_give_play_deals_record() -> None:
    """The same seed and the same engines: the same calls, plays, result and player names."""
    from lukfu_solver.env.policies import EnginePolicy

    for seed in range(12):
        specs = ("rule", "random", "rule:4")
        players = [make_player(s, 10 + i) for i, s in enumerate(specs)]
        names = ("a", "b", "c")
        want = play_deal(players, seed, names=names)
        policies = [EnginePolicy(s, 10 + i) for i, s in enumerate(specs)]
        ep = Episode.from_seed(seed, names=names)
        while not ep.is_over:
            ep.apply(policies[ep.current_person()](ep))
        assert ep.record() == want
        assert ep.returns() == tuple(want.outcome.points[ep.seat_of(p)] for p in range(3))


def test_three_passes_deal_again_with_a_new_master_r3() -> None:
    ep = Episode.from_seed(1)
    first = ep.hands
    for _ in range(3):
        ep.apply(CALL_PASS)
    assert ep.passed_out == [first] and ep.phase == "call" and ep.calls == []
    ep.apply(CALL_PLAY)
    rec = ep.record()
    assert rec.passed_out == (first,) and rec.caller == 0
    GameRecord.loads(rec.dumps()).replay()


def test_an_episode_passed_out_for_ever_is_truncated_with_no_result() -> None:
    ep = Episode.from_seed(2, max_passed_out=3)
    for _ in range(9):
        ep.apply(CALL_PASS)
    assert ep.truncated and ep.is_over and ep.returns() == (0, 0, 0) and ep.legal_actions() == []
    with pytest.raises(NotationError, match="passed out"):
        ep.record()


def test_an_illegal_action_is_refused_with_its_name() -> None:
    ep = Episode.from_seed(3)
    with pytest.raises(IllegalAction, match="finish is not legal here"):
        ep.apply(FINISH)
    with pytest.raises(IllegalAction, match="99 is not legal"):
        ep.apply(99)


def test_a_claim_ends_the_deal_and_pays_r14_r16_r17() -> None:
    pos_line = "C9/C8/C7 0 0 6,3,2 S123456789M12 -"
    ep = Episode.from_seed(0)
    ep.apply(CALL_PLAY)
    ep.pos = Position.parse(pos_line)  # a position where the caller may claim at once
    ep.decision = Decision(ep.pos)
    assert CLAIM_ACTION in ep.legal_actions()
    ep.apply(CLAIM_ACTION)
    assert ep.outcome is not None and ep.outcome.how == "claim"
    assert ep.returns()[ep.person_of(0)] == 2 * (ep.outcome.total - 5)
    assert sum(ep.returns()) == 0


def test_clone_is_independent() -> None:
    ep = Episode.from_seed(4)
    ep.apply(CALL_PLAY)
    twin = ep.clone()
    twin.apply(twin.legal_actions()[0])
    assert ep.plays != twin.plays or ep.chosen != twin.chosen
    assert ep.record().plays == ()
