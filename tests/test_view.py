"""Seat views: text form, derivations, validation (with the field and message), and agreement
with the perfect-information position on views taken from random deals."""

from __future__ import annotations

import dataclasses
import random

import pytest

from lukfu_solver.cards import format_cards, parse_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.game import play_deal
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, Play, classify
from lukfu_solver.view import InvalidMoveError, SeatView, format_history, parse_history

EXAMPLE = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"


def P(text: str) -> Play:
    return Play.parse(text)


def fault(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        SeatView.parse(text)
    return info.value


# ---------------------------------------------------------------- text form


def test_notation_example_round_trip() -> None:
    v = SeatView.parse(EXAMPLE)
    assert str(v) == EXAMPLE
    assert v == SeatView(1, parse_cards("C1378S57M24T789"), 1, ((P("T2"), P("T4"), P("T6")), (P("M3"), P("M5"))))
    assert SeatView.parse(str(v)) == v
    assert repr(v) == f"SeatView.parse({EXAMPLE!r})"


def test_views_are_immutable_values() -> None:
    v = SeatView.parse(EXAMPLE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.hand = 0  # type: ignore[misc]
    assert hash(v) == hash(SeatView.parse(EXAMPLE)) and len({v, SeatView.parse(EXAMPLE)}) == 1


def test_non_canonical_input_prints_canonical() -> None:
    v = SeatView.parse("1 t987m42c8731s75 1 t2,t4,t6/m3,m5")
    assert str(v) == EXAMPLE
    with pytest.raises(NotationError, match="two spaces in a row"):  # fields: single spaces (NOTATION.md)
        SeatView.parse("1  t987m42c8731s75 1 t2,t4,t6/m3,m5")


def test_empty_history_is_dash() -> None:
    v = SeatView.parse("1 C1378S57M24T4789 1 -")
    assert v.tricks == () and str(v) == "1 C1378S57M24T4789 1 -"
    assert v.to_move == 0 and v.trick_leader == 0 and v.trick == () and v.leaders == ()


def test_calling_phase_view_round_trip() -> None:
    v = SeatView.parse("2 C245S1389M1389T6 - Pass,PASS")
    assert v.caller is None and v.calls == ("pass", "pass") and v.to_move == 2
    assert str(v) == "2 C245S1389M1389T6 - pass,pass"
    assert list(v.legal_moves()) == []
    assert str(SeatView.parse("0 C245S1389M1389T6 - -")) == "0 C245S1389M1389T6 - -"


def test_history_helpers_reveal() -> None:
    text = "T2,T4,T6/M3,M5,xC2"
    tricks = parse_history(text, reveal=True)
    assert format_history(tricks) == text and tricks[1][2] == Play(DISCARD, parse_cards("C2"), 1)
    assert parse_history("-", reveal=True) == () and format_history(()) == "-"
    assert parse_history("T2,T4,x1", reveal=False)[0][2] == Play(DISCARD, 0, 1)
    with pytest.raises(NotationError) as info:
        parse_history("T2,T4,x1", reveal=True)
    assert info.value.field == "history" and "trick 1, play 3" in info.value.message


# ---------------------------------------------------------------- derivations


def test_derivations_of_the_notation_example() -> None:
    v = SeatView.parse(EXAMPLE)
    assert v.leaders == (0, 2)
    assert v.winners == (2,)
    assert v.fu == (0, 0, 1)
    assert format_cards(v.faceup) == "T246"
    assert v.trick == (P("M3"), P("M5"))
    assert v.trick_leader == 2 and v.best == P("M5") and v.best_seat == 0
    assert v.hand_sizes == (10, 11, 10)
    assert v.hidden_discards == (0, 0, 0) and v.own_discards == 0
    assert v.unseen.bit_count() == 36 - 11 - 3 - 2
    assert not v.unseen & (v.hand | parse_cards("T246M35"))
    assert v.to_move == 1 and not v.is_over
    assert format_cards(v.old_cards()) == "C1T789"  # R11 C1, R12 T7-T9 (T9 always)
    moves = list(v.legal_moves())
    assert len(moves) == 11 and all(m.kind == DISCARD and m.size == 1 for m in moves)  # R9: M24 cannot beat M5


def test_hidden_discards_and_own_discards() -> None:
    # seat 2's view: seat 0 leads T9, seat 1 discards (hidden), seat 2 discards C2 (its own)
    v = SeatView.parse("2 C45S1389M1389T6 1 T9,x1,xC2")
    assert v.hidden_discards == (0, 1, 0)
    assert format_cards(v.own_discards) == "C2"
    assert v.winners == (0,) and v.fu == (1, 0, 0) and v.to_move == 0
    assert not v.unseen & parse_cards("C2T9")


def test_r14_claim_offered_to_the_viewer_about_to_lead() -> None:
    # seat 0 holds six always-Old cards (R11): it may claim at the first lead (R14)
    v = SeatView.parse("0 C19S9M9T19S12345M1 0 -")
    moves = list(v.legal_moves())
    assert moves[0].kind == CLAIM and len(moves) > 1


def test_not_viewers_turn_has_no_moves() -> None:
    v = SeatView.parse("0 C69S246M567T135 1 T2")
    assert v.to_move == 1 and list(v.legal_moves()) == []


def test_r15_view_after_the_last_trick_is_over() -> None:
    rec = next(r for r in (_deal(i) for i in range(40)) if r.outcome.how != "claim")
    v = rec.view(0)
    assert v.is_over and v.to_move is None and v.hand == 0 and list(v.legal_moves()) == []
    assert SeatView.parse(str(v)) == v


# ---------------------------------------------------------------- validation faults


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("1 C1378S57M24T789 1", "view", "expected 4 fields"),
        ("3 C1378S57M24T789 1 -", "seat", "a seat is 0, 1 or 2, got '3'"),
        ("1 C1378S57M24Z789 1 -", "hand", "bad character 'Z'"),
        ("1 C1378S57M24T4789 x -", "caller", "a seat is 0, 1 or 2, got 'x'"),
        ("1 C1378S57M24T789 1 T2,T4,T6/T2", "history", "trick 2, play 1: T2 is already played in trick 1, play 1"),
        ("1 C1378S57M24T4789 1 T2,T4", "history", "trick 1, play 2: T4 is also in the hand"),
        ("1 C1378S57M24T4789 1 T2,T3,T6/M35", "history", "trick 2, play 1: M35 is not a single"),
        (
            "1 C1378S57M24T489 1 T2,T3,T6/M3,M5,xT2",
            "history",
            "trick 2, play 3: T2 is already played in trick 1, play 1",
        ),
        ("1 C1378S57M24T4789 1 T2,xT3T4", "history", "trick 1, play 2: xT34 has 2 cards but the lead T2 has 1"),
        ("0 C1378S57M24T4789 1 T2,T4,T3", "history", "trick 1, play 3: T3 does not beat T4 (R8)"),
        ("2 C1378S57M24T4789 1 C1,C5", "history", "trick 1, play 2: C5 does not beat C1 (R8)"),
        ("2 C1378S57M24T4789 1 C1S1M1,C2S2M2", "history", "trick 1, play 2: C2S2M2 does not beat C1S1M1 (R8)"),
        ("1 C1378S57M24T4789 1 S3456", "history", "seat 0 passed and may not lead S3456"),
        ("1 C1378S57M24T4789 2 C5S5M5T5", "history", "seat 0 passed and may not lead C5S5M5T5"),
        ("1 C1378S57M24T4789 1 xC2", "history", "trick 1, play 1: a trick is led with a single, set or run"),
        ("1 C1378S57M24T4789 1 claim", "history", "trick 1, play 1: a view has no claim"),
        ("1 C1378S57M24T4789 1 T2,T3/T4", "history", "trick 1: only the last trick may be incomplete"),
        ("1 C1378S57M24T4789 1 T2,T3,,", "history", "trick 1, play 3: empty play"),
        (
            "1 C1378S57M24T789 1 T2,T4,xC2",
            "history",
            "trick 1, play 3: the discard xC2 of seat 2 is hidden from seat 1; write it as x1",
        ),
        ("1 C1378S57M24T789 1 T2,x1", "history", "trick 1, play 2: x1 is seat 1's own discard; it must show its cards"),
        ("1 C1378S57M24T4789 1 T2,T3", "hand", "seat 1 holds 12 cards but has played 1, so it holds 11"),
        ("1 C1378S57M24T789 1 T2,xT4", "history", "trick 1, play 2: seat 1 discarded but held T4, which beats T2 (R9)"),
        (
            "0 C69S46M567T1235 1 S2",
            "history",
            "trick 1, play 1: seat 0 may not lead S2: a non-caller leads a non-Old single of its highest suit holding one, here T235 (R7)",
        ),
        ("0 C1378S57M24T478 0 -", "hand", "seat 0 holds 11 cards but has played 0, so it holds 12"),
        ("1 C1378S57M24T4789 - play", "history", "call 1 is 'play', so seat 0 is the caller"),
        ("1 C1378S57M24T4789 - pass,pass,pass", "history", "three passes"),
        ("1 C1378S57M24T478 - pass", "hand", "11 cards; a hand holds 12"),
    ],
)
def test_view_faults(text: str, field: str, message: str) -> None:
    err = fault(text)
    assert err.field == field
    assert message in err.message, err.message
    assert str(err).startswith(f"{field}: ")


def test_at_most_12_tricks() -> None:
    history = "/".join(["S1,S2,S3"] * 13)
    err = fault(f"0 - 0 {history}")
    assert (err.field, err.message) == ("history", "at most 12 tricks, got 13")


def test_r15_no_trick_after_the_hands_ran_out_and_no_lead_bigger_than_the_hands() -> None:
    singles = [f"{s}{r}" for s in "CSM" for r in range(1, 10)]
    # eleven single tricks, then a three-card lead with one card a seat left
    tricks = [f"{singles[t]},x1,x1" for t in range(11)]
    err = fault("0 - 0 " + "/".join([*tricks, "T345"]))
    assert (err.field, err.message) == (
        "history",
        "trick 12, play 1: a 3-card lead T345, but each seat holds only 1 cards",
    )
    # four three-card tricks use all twelve cards a seat: there is no fifth trick
    sets = [f"C{r}S{r}M{r},x3,x3" for r in range(2, 6)]
    err = fault("0 - 0 " + "/".join([*sets, "C6"]))
    assert (err.field, err.message) == ("history", "trick 5: the hands ran out after trick 4 (R15)")
    with pytest.raises(NotationError, match="at most 12 tricks"):
        parse_history("/".join([f"{singles[t]},x1,x1" for t in range(13)]), reveal=False)


def test_r8_led_set_of_ones_beaten_only_by_nines() -> None:
    ok = SeatView.parse("2 C2345678S23456 1 C1S1M1,C9S9M9")
    assert ok.best == P("C9S9M9")
    err = fault("2 C2345678S23456 1 C1S1M1,C8S8M8")
    assert err.message == "trick 1, play 2: C8S8M8 does not beat C1S1M1 (R8)"


def test_r6_allows_long_leads_when_the_master_called() -> None:
    v = SeatView.parse("1 C1378S57M24T4789 0 M5678")
    assert v.trick == (P("M5678"),) and v.to_move == 1


def test_r7_caller_may_lead_any_single() -> None:
    v = SeatView.parse("0 C69S46M567T1235 0 S2")  # seat 0 is the caller
    assert v.to_move == 1


def test_r9_inference_other_seat_discarded_but_showed_a_beating_card_later() -> None:
    # seat 2 discarded on T4 in trick 1 but played T8 (which beats T4) in trick 2
    err = fault("1 C1378S57M24T69 1 T2,T4,x1/T7,T8,x1")
    assert err.field == "history"
    assert err.message == "trick 1, play 3: seat 2 discarded but held (shown later) T8, which beats T4 (R9)"
    # the same plays without the contradiction (seat 2 played a Coin later) are fine
    assert SeatView.parse("1 C1378S57M24T89 1 T2,T4,x1/T7,x1,x1").fu == (0, 2, 0)


def test_r7_inference_other_non_caller_led_below_a_non_old_higher_suit() -> None:
    # seat 0 (non-caller) led S2, later showed T5; seat 1 holds T6, so T5 was not Old (R12)
    err = fault("1 C1378S7M24T689 1 S2,S5,x1/T4,x1,T5")
    assert err.message == (
        "trick 1, play 1: seat 0, a non-caller, led S2 but held the non-Old T5 (shown later) of a higher suit (R7)"
    )
    # were seat 0 the caller, any single lead is allowed
    assert SeatView.parse("1 C1378S7M24T689 0 S2,S5,x1/T4,x1,T5").fu == (1, 1, 0)


def test_r7_inference_other_non_caller_led_old_while_holding_non_old() -> None:
    # seat 0 led T9 (always Old, R11), later showed S5 while seat 1 holds S7: S5 was not Old
    err = fault("1 C178S8M245T678 1 T9,xC3,x1/S5,S7,x1")
    assert (
        err.message
        == "trick 1, play 1: seat 0, a non-caller, led the Old T9 but held the non-Old S5 (shown later) (R7)"
    )


def test_validate_checks_constructed_views() -> None:
    v = SeatView(1, parse_cards("C1378S57M24T789"), 1, ((P("T2"), P("T4"), P("T6")), (P("M3"), P("M5"))))
    v.validate()
    with pytest.raises(NotationError, match="seat: a seat is 0, 1 or 2"):
        SeatView(5, 0, 1, ()).validate()
    with pytest.raises(NotationError, match="history: calls are kept only in the calling phase"):
        SeatView(1, parse_cards("C1378S57M24T4789"), 1, (), ("pass",)).validate()


# ---------------------------------------------------------------- views of real deals


def _deal(i: int):
    return play_deal([RandomPlayer(3 * i), RandomPlayer(3 * i + 1), RandomPlayer(3 * i + 2)], seed=i)


@pytest.mark.slow
def test_views_of_random_deals_round_trip_and_agree_with_positions() -> None:
    checked_turns = 0
    for i in range(50):
        rec = _deal(i)
        positions = rec.replay()
        for k, pos in enumerate(positions):
            if k == len(rec.plays) and rec.plays[-1].kind == CLAIM:
                break  # a view does not show a claim
            for seat in range(3):
                v = rec.view(seat, k)
                assert SeatView.parse(str(v)) == v
                assert v.hand == pos.hands[seat]
                assert v.fu == tuple(pos.fu) and v.faceup == pos.faceup
                assert v.to_move == (None if pos.is_over else pos.to_move)
                assert v.hand_sizes == tuple(h.bit_count() for h in pos.hands)
                assert v.old_cards() == pos.old_cards(seat)
                # the viewer places every card but the other hands and their discards
                others = pos.hands[(seat + 1) % 3] | pos.hands[(seat + 2) % 3]
                assert v.unseen & others == others
                assert v.unseen.bit_count() == others.bit_count() + sum(v.hidden_discards)
                if v.to_move == seat:
                    assert list(v.legal_moves()) == list(pos.legal_moves())
                    checked_turns += 1
                else:
                    assert list(v.legal_moves()) == []
    assert checked_turns > 1000


# ---------------------------------------------------------------- legality: is_legal, why_illegal, parse_move

START = "0 C69S246M567T1235 1 -"
"""The Master (a non-caller: seat 1 called) about to lead the first trick of NOTATION.md's deal."""
FOLLOW = "1 C1378S57M24T4789 1 T2"
"""Seat 1 (the caller) to follow T2, holding T4, T7, T8, T9 that beat it."""
LONG = "0 C1234S1234M1234 1 -"
"""A Master who passed, holding runs of four."""


@pytest.mark.parametrize(
    ("view", "move", "reason"),
    [
        (START, "T2", None),
        (START, "M567", None),
        (START, "C6", "as a non-caller you lead a non-Old single of your highest suit holding one (R7): here T235"),
        (START, "claim", "you have 0 fu and 2 Old cards: fewer than 6 together (R14)"),
        (START, "xT2", "you are leading: a lead is a single, a set or a run (R5)"),
        (START, "x1", "name the cards you discard (xC2M4)"),
        (START, "S9", "you do not hold S9"),
        (LONG, "C123", None),
        (LONG, "C1234", "the Master passed and may not lead a four-card set or a run of four or more (R6)"),
        ("0 C1234S1234M1234 0 -", "C1234", None),  # R6 binds only a Master who passed
        ("0 C19S9M9T19S12345M1 0 -", "claim", None),  # six always-Old cards (R14)
        (FOLLOW, "T4", None),
        (FOLLOW, "xC1", "you hold T4, which beats T2: you must beat (R9)"),
        (FOLLOW, "S5", "S5 does not beat T2 (R8); you hold T4, which does"),
        (FOLLOW, "claim", "a claim is made only when you are about to lead (R14)"),
        (FOLLOW, "xC13", "the lead has 1 card: play or discard 1"),
        (EXAMPLE, "xC1", None),
        (EXAMPLE, "M4", "M4 does not beat M5 (R8); you cannot beat it, so discard face down"),
        ("0 C69S246M567T135 1 T2", "T3", "it is seat 1's turn, not yours"),
        ("2 C245S1389M1389T6 - pass,pass", "S1", "in the calling phase the answer is play or pass (R3)"),
    ],
)
def test_is_legal_and_why_illegal_name_the_rule(view: str, move: str, reason: str | None) -> None:
    v = SeatView.parse(view)
    assert v.why_illegal(P(move)) == reason
    assert v.is_legal(P(move)) is (reason is None)


def test_why_illegal_of_a_malformed_play() -> None:
    v = SeatView.parse(START)
    bad = Play(DISCARD, parse_cards("T23"), 1)
    assert not v.is_legal(bad) and v.why_illegal(bad) == "its kind, cards and size disagree"


def test_parse_move_reads_a_discard_typed_as_cards() -> None:
    v = SeatView.parse(EXAMPLE)  # seat 1 cannot beat M5
    assert v.parse_move("C1") == Play(DISCARD, parse_cards("C1"), 1)  # a single meant as a discard
    assert v.parse_move("c1") == v.parse_move("xC1")
    with pytest.raises(NotationError, match="the lead has 1 card"):
        v.parse_move("C1C3")  # two cards: not a play, read as a discard of the wrong size
    follow = SeatView.parse(FOLLOW)  # seat 1 can beat T2: S5 stays a play and is refused (R8)
    with pytest.raises(NotationError, match=r"S5 does not beat T2 \(R8\)"):
        follow.parse_move("S5")


def test_parse_move_faults() -> None:
    v = SeatView.parse(START)
    with pytest.raises(InvalidMoveError, match="'bogus' is not a move"):
        v.parse_move("bogus")
    with pytest.raises(NotationError, match="is not a single, a set") as info:
        v.parse_move("S1S2")  # cards, but no lead shape
    assert not isinstance(info.value, InvalidMoveError)
    with pytest.raises(NotationError, match=r"\(R7\)") as info:
        v.parse_move("C6", "answer")
    assert info.value.field == "answer"


def test_a_finished_view_has_its_outcome_and_no_legal_move() -> None:
    rec = next(r for r in (_deal(i) for i in range(40)) if r.outcome.how != "claim")
    v = rec.view(0)
    assert v.is_over and v.outcome == rec.outcome
    assert v.why_illegal(P("S1")) == "the deal has ended" and not v.is_legal(P("S1"))
    assert SeatView.parse(EXAMPLE).outcome is None


def test_view_and_position_agree_on_legality_of_random_deals() -> None:
    """Every legal move and many illegal ones (other seats' cards, discards, claims) of random
    deals: the view and the position judge them alike, and a position's reason is None exactly
    when the move is legal."""
    rng = random.Random(5)
    checked = 0
    for i in range(12):
        rec = _deal(i)
        for k, pos in enumerate(rec.replay()):
            if pos.is_over:
                break
            v = rec.view(pos.to_move, k)
            assert v.sorted_legal_moves() == pos.sorted_legal_moves() == sorted(pos.legal_moves(), key=Play.sort_key)
            hand = pos.hands[pos.to_move]
            cards = [1 << c for c in range(36) if hand >> c & 1]
            tries = list(pos.legal_moves())[:20] + [CLAIM_PLAY, Play(DISCARD, 0, 1)]
            for _ in range(10):
                pick = sum(rng.sample(cards, rng.randint(1, min(4, len(cards))))) | (
                    rng.random() < 0.2
                ) << rng.randrange(36)
                tries.append(Play(DISCARD, pick, pick.bit_count()))
                if classify(pick) >= 0:
                    tries.append(Play(classify(pick), pick, pick.bit_count()))
            for m in tries:
                legal = pos.is_legal(m)
                assert v.is_legal(m) is legal
                assert (v.why_illegal(m) is None) is legal and (pos.why_illegal(m) is None) is legal
                checked += 1
    assert checked > 2000
