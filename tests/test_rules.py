"""One or more tests per rule of RULES.md (R1–R17); each test name carries its rule number."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest
from conftest import EXAMPLE, C, P, make_pos, moves, play, start

from lukfu_solver.cards import (
    ALL_CARDS,
    NUM_CARDS,
    SUITS,
    card,
    card_name,
    format_cards,
    iter_cards,
    old_cards,
    parse_card,
    parse_cards,
)
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play, beats, classify
from lukfu_solver.position import Position
from lukfu_solver.rules import (
    beating_plays,
    can_beat,
    can_claim,
    claim_outcome,
    claim_total,
    discard_plays,
    end_outcome,
    follow_plays,
    lead_plays,
    payments,
    single_leads,
)


def names(plays) -> set[str]:
    return {str(p) for p in plays}


# ---------------------------------------------------------------- R1 deck


def test_r1_deck_has_36_distinct_cards():
    assert NUM_CARDS == 36
    assert ALL_CARDS.bit_count() == 36
    all_names = [card_name(c) for c in iter_cards(ALL_CARDS)]
    assert len(set(all_names)) == 36
    assert {s + str(r) for s in "CSMT" for r in range(1, 10)} == set(all_names)
    assert all(parse_card(n) == c for c, n in zip(iter_cards(ALL_CARDS), all_names, strict=True))


def test_r1_suit_order_coins_strings_myriads_tens():
    assert SUITS == "CSMT"
    for r in range(1, 10):
        assert card(0, r) < card(1, r) < card(2, r) < card(3, r)
    assert format_cards(parse_cards("T1M1S1C1")) == "C1S1M1T1"
    # the order is the one runs use to beat each other (R8)
    order = ["C123", "S123", "M123", "T123"]
    for lo, hi in combinations(order, 2):
        assert beats(P(hi), P(lo), True)
        assert not beats(P(lo), P(hi), True)


# ---------------------------------------------------------------- R2 deal


def test_r2_twelve_cards_each_all_dealt():
    pos = Position.parse(EXAMPLE)
    assert [h.bit_count() for h in pos.hands] == [12, 12, 12]
    assert pos.hands[0] | pos.hands[1] | pos.hands[2] == ALL_CARDS
    assert pos.facedown == 0 and pos.faceup == 0 and pos.cards_per_hand() == 12


def test_r2_unequal_hands_rejected():
    # seat 0 holds 13, seat 1 holds 11
    with pytest.raises(NotationError) as e:
        Position.parse("C69S246M567T12356/C1378S57M24T789/C245S1389M1389T4 0 1 0,0,0 - -")
    assert str(e.value).startswith("hands:")


# ---------------------------------------------------------------- R3 calls


@pytest.mark.parametrize("caller", [0, 1, 2])
def test_r3_caller_is_any_seat_and_master_passed_iff_caller_not_0(caller):
    pos = start("C138S34568M138T8", "C2456S12M2456T12", caller)
    assert pos.caller == caller
    four_set = P("C8S8M8T8")
    # the Master passed (R6 applies) exactly when the caller is not seat 0
    assert pos.is_legal(four_set) == (caller == 0)


def test_r3_caller_field_must_be_a_seat():
    with pytest.raises(NotationError) as e:
        Position.parse(EXAMPLE.replace(" 0 1 ", " 0 3 "))
    assert str(e.value).startswith("caller:")


# ---------------------------------------------------------------- R4 first lead


@pytest.mark.parametrize("caller", [0, 1, 2])
def test_r4_master_leads_first_trick(caller):
    pos = Position.start(Position.parse(EXAMPLE).hands, caller)
    assert pos.to_move == 0 and pos.trick == ()
    assert Position.parse(str(pos)).to_move == 0


@pytest.mark.parametrize(
    "line",
    [
        "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - -",
        "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - -",
        # seat 1 has led T4 in the first trick
        "C69S246M567T1235/C1378S57M24T789/C245S1389M1389T6 2 1 0,0,0 - T4",
    ],
)
def test_r4_first_trick_not_led_by_seat_0_rejected(line):
    with pytest.raises(NotationError) as e:
        Position.parse(line)
    assert str(e.value).startswith("to-move:")
    assert "R4" in str(e.value)


# ---------------------------------------------------------------- R5 lead shapes


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("S7", SINGLE),
        ("C1", SINGLE),
        ("C7S7M7", SET),
        ("S7M7T7", SET),
        ("C7S7M7T7", SET),
        ("S345", RUN),
        ("C123", RUN),
        ("T789", RUN),
        ("S3456", RUN),
        ("M123456789", RUN),
        ("C7S7", -1),  # a pair is no lead
        ("S34", -1),
        ("S129", -1),  # no wrap 9-1-2
        ("S1289", -1),
        ("S346", -1),
        ("C3S4M5", -1),
        ("C7S7M7T8", -1),
        ("C7S7T8", -1),
    ],
)
def test_r5_shapes(text, kind):
    assert classify(C(text)) == kind


def test_r5_pairs_and_other_shapes_are_not_plays():
    for bad in ["C7S7", "S129", "S3457"]:
        with pytest.raises(NotationError) as e:
            P(bad)
        assert str(e.value).startswith("play:")


def test_r5_all_four_sevens_give_four_three_sets_and_the_four_set():
    leads = list(lead_plays(C("C7S7M7T7"), 0, True, False))
    sets = [p for p in leads if p.kind == SET]
    assert names(sets) == {"C7S7M7", "C7S7T7", "C7M7T7", "S7M7T7", "C7S7M7T7"}
    assert len(sets) == 5
    assert names(p for p in leads if p.kind == SINGLE) == {"C7", "S7", "M7", "T7"}
    assert not [p for p in leads if p.kind == RUN]


def test_r5_three_sevens_give_one_set():
    leads = list(lead_plays(C("C7S7T7"), 0, True, False))
    assert names(p for p in leads if p.kind == SET) == {"C7S7T7"}


def test_r5_s3456_breaks_into_s345_s456_s3456():
    leads = list(lead_plays(C("S3456"), 0, True, False))
    assert names(p for p in leads if p.kind == RUN) == {"S345", "S456", "S3456"}
    assert names(leads) == {"S3", "S4", "S5", "S6", "S345", "S456", "S3456"}


def test_r5_run_1_2_3_but_no_wrap():
    leads = list(lead_plays(C("S1239"), 0, True, False))
    assert names(p for p in leads if p.kind == RUN) == {"S123"}
    assert not [p for p in lead_plays(C("S1289"), 0, True, False) if p.kind == RUN]


def test_r5_all_runs_of_a_full_suit():
    runs = [p for p in lead_plays(C("M123456789"), 0, True, False) if p.kind == RUN]
    assert len(runs) == sum(10 - n for n in range(3, 10)) == 28
    assert len(set(runs)) == 28


def test_r5_no_pair_in_legal_moves():
    for m in Position.parse(EXAMPLE.replace(" 0 1 ", " 0 0 ")).legal_moves():
        assert m.size != 2 and classify(m.cards) == m.kind


def test_r5_breaking_up_when_beating():
    # four 8s against a led three-set of 7s: any three of them
    beat = names(beating_plays(C("C8S8M8T8"), P("C7S7M7"), True))
    assert beat == {"C8S8M8", "C8S8T8", "C8M8T8", "S8M8T8"}
    # S3456 against a led S234: S345 or S456 (S3456 is the wrong length)
    assert names(beating_plays(C("S3456"), P("S234"), True)) == {"S345", "S456"}
    # against a four-card run, the four-card run only
    assert names(beating_plays(C("S3456"), P("C2345"), True)) == {"S3456"}


# ---------------------------------------------------------------- R6 passed Master

R6_H0 = "C138S34568M138T8"  # four 8s, S3456 and odd cards
R6_H1 = "C2456S12M2456T12"


@pytest.mark.parametrize("caller", [1, 2])
def test_r6_passed_master_no_four_set_no_long_run(caller):
    pos = start(R6_H0, R6_H1, caller)
    got = set(moves(pos))
    assert "C8S8M8T8" not in got and "S3456" not in got
    # three-card sets and three-card runs stay legal
    assert {"C8S8M8", "C8S8T8", "C8M8T8", "S8M8T8", "S345", "S456"} <= got
    assert got == {"T8", "C3S3M3", "C8S8M8", "C8S8T8", "C8M8T8", "S8M8T8", "S345", "S456"}
    assert not pos.is_legal(P("C8S8M8T8"))
    assert not pos.is_legal(P("S3456"))
    assert pos.is_legal(P("S345")) and pos.is_legal(P("C8S8M8"))
    assert "R6" in pos.why_illegal(P("S3456"))
    assert "R6" in pos.why_illegal(P("C8S8M8T8"))


def test_r6_master_who_called_may_lead_long_combinations():
    pos = start(R6_H0, R6_H1, 0)
    got = set(moves(pos))
    assert {"C8S8M8T8", "S3456", "S345", "S456", "C8S8M8"} <= got
    assert pos.is_legal(P("C8S8M8T8")) and pos.is_legal(P("S3456"))


def test_r6_holds_for_the_whole_deal():
    # later in the deal, seat 0 (passed Master) leads again
    pos = make_pos(["C8S8M8T8S3456C9", "C1C2C3C4C5M1M2M5M6", "T1T2T3T4T5T6M3M4M7"], to_move=0, caller=2)
    got = set(moves(pos))
    assert "C8S8M8T8" not in got and "S3456" not in got
    assert {"S345", "S456", "C8S8M8"} <= got
    assert not pos.is_legal(P("S3456"))


def test_r6_other_seats_not_restricted():
    # seat 1, a non-caller, may lead a four-card set and a long run
    pos = make_pos(["C1C2C3C4C5M1M2M5M6", "C8S8M8T8S3456C9", "T1T2T3T4T5T6M3M4M7"], to_move=1, caller=0)
    assert {"C8S8M8T8", "S3456"} <= set(moves(pos))


def test_r6_does_not_restrict_following():
    # seat 1 (caller) leads a four-set of 5s; seat 2 discards; the passed Master may beat with four 7s
    pos = make_pos(
        ["C7S7M7T7C2", "C1", "S1"],
        to_move=0,
        caller=1,
        fu=(0, 7, 0),
        trick="C5S5M5T5,xC3C4S2M1",
    )
    assert moves(pos) == ["C7S7M7T7"]
    # a four-card run likewise
    pos = make_pos(["M2345C2", "C1", "T1"], to_move=0, caller=1, fu=(0, 7, 0), trick="S3456,xC3C4C5M1")
    assert set(moves(pos)) == {"M2345"}


# ---------------------------------------------------------------- R7 non-caller singles


def test_r7_example_master_must_lead_non_old_tens():
    pos = Position.parse(EXAMPLE)  # seat 0 is a non-caller; T1 is Old
    singles = [m for m in moves(pos) if len(m) == 2]
    assert singles == ["T2", "T3", "T5"]
    assert moves(pos) == ["T2", "T3", "T5", "C6S6M6", "M567", "T123"]
    assert not pos.is_legal(P("T1")) and not pos.is_legal(P("C6")) and not pos.is_legal(P("M5"))
    assert "R7" in pos.why_illegal(P("C6"))


def test_r7_highest_suit_holding_a_non_old_card():
    # T8 and T9 are Old (T9 in hand), so the highest suit with a non-Old card is Strings
    assert single_leads(C("C2S5T8T9"), 0, False) == C("S5")
    # T8 Old because T9 was played face up
    assert single_leads(C("C2M2S5T8"), C("T9"), False) == C("M2")
    # every non-Old card of that suit may be led
    assert single_leads(C("C2S3S5S6M9"), 0, False) == C("S356")


def test_r7_via_position_non_caller_seat_2():
    pos = make_pos(["C1C3S9M4", "C4C5M5M6", "C2S5T8T9"], to_move=2, caller=0, fu=(3, 3, 2))
    assert moves(pos) == ["S5"]
    for bad in ["C2", "T8", "T9"]:
        assert not pos.is_legal(P(bad))


def test_r7_all_old_hand_may_lead_any():
    hand = C("C1T1S9M9")
    assert single_leads(hand, 0, False) == hand
    # Old by sequence counts too
    hand = C("S789T1")
    assert single_leads(hand, 0, False) == hand
    pos = make_pos(["C1C2C3C4", "C5C6C7C8", "C9T1S9M9"], to_move=2, caller=1, fu=(4, 3, 1))
    assert set(moves(pos)) == {"C9", "T1", "S9", "M9", "C9S9M9"}


def test_r7_caller_may_lead_any_single():
    hand = C("C2S5T8T9C1")
    assert single_leads(hand, 0, True) == hand
    pos = make_pos(["C1C3S9M4", "C4C5M5M6", "C2S5T8T9"], to_move=2, caller=2, fu=(3, 3, 2))
    assert moves(pos) == ["C2", "S5", "T8", "T9"]


def test_r7_decision_sets_and_runs_free_for_non_callers():
    # non-caller seat 1: the Old set of 9s and a run including Old C1 are free leads
    pos = make_pos(["C4C5C6C7C8T6", "C1C2C3S9M9T9", "M1M2M3M4M5T4"], to_move=1, caller=0, fu=(5, 1, 0))
    # the 9s and C1 are Old; C2 and C3 are not (C4-C8 are elsewhere): single leads are C2 or C3 only
    assert set(moves(pos)) == {"C2", "C3", "S9M9T9", "C123"}
    assert pos.is_legal(P("S9M9T9")) and pos.is_legal(P("C123"))
    # runs including Old cards, from a lower suit than the single leads
    leads = names(lead_plays(C("S789T5C2"), 0, False, False))
    assert leads == {"T5", "S789"}


def test_r7_does_not_restrict_following():
    # caller 0 leads S5; non-caller seat 1 may beat with S6 or with Old S9
    pos = make_pos(["C2", "S6S9", "M1M2"], to_move=1, caller=0, fu=(10, 0, 0), trick="S5")
    assert set(moves(pos)) == {"S6", "S9"}
    assert pos.is_legal(P("S9"))


# ---------------------------------------------------------------- R8 beating


@pytest.mark.parametrize("lead", ["C1", "T1"])
def test_r8_led_c1_t1_unbeatable(lead):
    for r in range(2, 10):
        assert not beats(P(f"{lead[0]}{r}"), P(lead), True)
    assert list(beating_plays(ALL_CARDS & ~C(lead), P(lead), True)) == []


def test_r8_led_c1_forces_discard_even_with_c9():
    pos = make_pos(["C1S2", "C9C8", "M1M2"], to_move=0, caller=0, fu=(10, 0, 0))
    play(pos, "C1")
    assert set(moves(pos)) == {"xC8", "xC9"}
    assert not pos.is_legal(P("C9"))


@pytest.mark.parametrize("lead", ["S1", "M1"])
def test_r8_led_s1_m1_beatable(lead):
    for r in range(2, 10):
        assert beats(P(f"{lead[0]}{r}"), P(lead), True)
    assert names(beating_plays(C(f"{lead[0]}29C5"), P(lead), True)) == {f"{lead[0]}2", f"{lead[0]}9"}


def test_r8_a_one_never_beats_when_following():
    for s in "CSMT":
        for r in range(1, 10):
            for led in (True, False):
                assert not beats(P(f"{s}1"), P(f"{s}{r}"), led)


def test_r8_single_same_suit_higher_rank():
    assert beats(P("S7"), P("S5"), True)
    assert beats(P("S7"), P("S5"), False)
    assert not beats(P("S4"), P("S5"), True)
    assert not beats(P("T9"), P("S5"), True)  # other suit, even higher
    assert not beats(P("C9"), P("S5"), True)


def test_r8_set_vs_set_same_size_higher_rank():
    assert beats(P("C5S5M5"), P("C4S4M4"), True)
    assert beats(P("C5S5T5"), P("S4M4T4"), False)
    assert not beats(P("C3S3M3"), P("C4S4M4"), True)
    assert not beats(P("C4S4T4"), P("C4S4M4"), True)  # same rank
    assert beats(P("C6S6M6T6"), P("C5S5M5T5"), True)
    assert not beats(P("C4S4M4T4"), P("C5S5M5T5"), True)


def test_r8_four_set_and_three_set_never_beat_each_other():
    assert not beats(P("C9S9M9T9"), P("C2S2M2"), True)
    assert not beats(P("C9S9M9"), P("C2S2M2T2"), True)
    assert list(beating_plays(C("C9S9M9"), P("C2S2M2T2"), True)) == []
    assert names(beating_plays(C("C9S9M9T9"), P("C2S2M2"), True)) == {"C9S9M9", "C9S9T9", "C9M9T9", "S9M9T9"}


def test_r8_led_set_of_ones_beaten_only_by_nines():
    for r in range(2, 9):
        assert not beats(P(f"C{r}S{r}M{r}"), P("C1S1M1"), True)
        assert not beats(P(f"C{r}S{r}M{r}T{r}"), P("C1S1M1T1"), True)
    assert beats(P("S9M9T9"), P("C1S1M1"), True)
    assert beats(P("C9S9M9T9"), P("C1S1M1T1"), True)
    assert not beats(P("C9S9M9"), P("C1S1M1T1"), True)  # same size only
    assert not beats(P("C9S9M9T9"), P("C1S1T1"), True)
    hand = C("C2S2M2C8S8M8T8C9S9M9")
    assert names(beating_plays(hand, P("S1M1T1"), True)) == {"C9S9M9"}
    assert list(beating_plays(C("C8S8M8T8"), P("C1S1M1T1"), True)) == []


def test_r8_runs():
    assert beats(P("S456"), P("S345"), True)  # same suit higher top
    assert not beats(P("S234"), P("S345"), True)
    assert not beats(P("S345"), P("S345"), True)
    assert beats(P("M123"), P("S789"), True)  # any higher suit
    assert beats(P("T123"), P("C789"), False)
    assert not beats(P("C789"), P("S123"), True)  # never a lower suit
    assert not beats(P("S3456"), P("S345"), True)  # never another length
    assert not beats(P("T1234"), P("C123"), True)
    assert not beats(P("T123"), P("C1234"), True)
    assert beats(P("C2345"), P("C1234"), True)
    hand = C("C6789S1234M345T12")
    assert names(beating_plays(hand, P("S234"), True)) == {"M345"}
    assert names(beating_plays(hand, P("S1234"), True)) == set()
    assert names(beating_plays(C("S1234M3456"), P("S123"), True)) == {"S234", "M345", "M456"}


def test_r8_kinds_never_beat_each_other():
    assert not beats(P("S9"), P("C2S2M2"), True)
    assert not beats(P("C5S5M5"), P("S234"), True)
    assert not beats(P("S567"), P("C4S4M4"), True)
    assert not beats(P("xS7"), P("S5"), True)
    assert not beats(CLAIM_PLAY, P("S5"), True)


# ---------------------------------------------------------------- R9 following


def test_r9_must_beat_when_able():
    pos = Position.parse(EXAMPLE)
    play(pos, "M567")
    # seat 1 holds T789, which beats M567 (higher suit): it must play it
    assert moves(pos) == ["T789"]
    assert not pos.is_legal(P("xC137"))
    assert "R9" in pos.why_illegal(P("xC137"))
    assert not can_beat(C("C137"), P("M567"), True)
    assert can_beat(C("T789"), P("M567"), True)


def test_r9_any_beating_play_of_their_choice():
    pos = Position.parse(EXAMPLE)
    play(pos, "T3")
    assert moves(pos) == ["T4", "T7", "T8", "T9"]


def test_r9_otherwise_every_discard_of_the_lead_size():
    pos = Position.parse(EXAMPLE)
    play(pos, "M567", "T789")
    # seat 2 (C245S1389M1389T6) has no three-card run of Tens above T789
    got = list(pos.legal_moves())
    assert len(got) == comb(12, 3) == 220
    assert all(m.kind == DISCARD and m.size == 3 for m in got)
    assert {m.cards for m in got} == {
        sum(c) for c in combinations([1 << i for i in range(36) if pos.hands[2] >> i & 1], 3)
    }
    assert all(pos.is_legal(m) for m in got)
    # wrong size, cards not held, and a face-up non-beating play are illegal
    assert not pos.is_legal(P("xC24"))
    assert not pos.is_legal(P("xC245S1"))
    assert not pos.is_legal(P("xC247"))
    assert not pos.is_legal(P("S123"))
    assert not pos.is_legal(P("C2"))


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_r9_discard_generator_counts(k):
    hand = C("C1357S246M89T123")
    got = list(discard_plays(hand, k))
    assert len(got) == comb(12, k) == len(set(got))
    assert all(p.kind == DISCARD and p.size == k and p.cards & ~hand == 0 for p in got)
    assert list(follow_plays(hand, P("C2S2M2T2"), True, 4)) == list(discard_plays(hand, 4))


def test_r9_second_follower_must_beat_first_followers_play():
    pos = Position.parse(EXAMPLE)
    play(pos, "T2", "T4")
    assert moves(pos) == ["T6"]
    pos = Position.parse(EXAMPLE)
    play(pos, "T3", "T9")
    # T6 would beat the lead T3, but the best play is T9: seat 2 must discard
    got = moves(pos)
    assert "T6" not in got and len(got) == 12 and all(m.startswith("x") for m in got)
    assert not pos.is_legal(P("T6"))
    assert pos.is_legal(P("xT6"))


def test_r9_second_follower_run_case():
    # lead S345, first follower M123 (higher suit); S678 beats the lead but not M123
    pos = make_pos(["C1C2C3", "T5T6T7", "C5C6C7S678"], to_move=2, caller=0, fu=(6, 0, 0), trick="S345,M123")
    assert "S678" not in moves(pos) and all(m.startswith("x") for m in moves(pos))
    assert len(moves(pos)) == comb(6, 3)
    pos = make_pos(["C1C2C3", "C4C5C6", "T123S678"], to_move=2, caller=0, fu=(6, 0, 0), trick="S345,M123")
    assert moves(pos) == ["T123"]


def test_r9_after_a_discard_the_lead_stays_best():
    pos = Position.parse(EXAMPLE)
    play(pos, "M567", "T789")
    assert pos.best_seat == 1
    pos2 = make_pos(["C2C3", "M1M2", "S6S9C4"], to_move=2, caller=0, fu=(9, 0, 0), trick="S5,xM3")
    assert pos2.best_seat == 0 and set(moves(pos2)) == {"S6", "S9"}


# ---------------------------------------------------------------- R10 trick winner


def test_r10_winner_scores_size_of_own_play_and_leads():
    pos = Position.parse(EXAMPLE)
    play(pos, "M567", "T789", "xC245")
    assert pos.fu == [0, 3, 0]
    assert pos.to_move == 1 and pos.leader == 1 and pos.trick == ()
    assert pos.faceup == C("M567T789")
    assert pos.facedown == C("C245")


def test_r10_single_trick_and_leader_winning():
    pos = Position.parse(EXAMPLE)
    play(pos, "T2", "T4", "T6")
    assert pos.fu == [0, 0, 1] and pos.to_move == 2
    # NOTATION's example continues with seat 2 leading M3
    play(pos, "M3", "M5")
    assert pos.to_move == 1
    pos2 = make_pos(["C1C2C3", "C5C7S1", "M1M3T5"], to_move=0, caller=0, fu=(9, 0, 0))
    play(pos2, "C123", "xC57S1", "xM13T5")
    # the discards count for nobody: three fu, not nine
    assert pos2.fu == [12, 0, 0] and pos2.to_move == 0


# ---------------------------------------------------------------- R11–R13 Old cards


def test_r11_always_old():
    always = C("C9S9M9T9C1T1")
    assert old_cards(always, 0) == always
    assert old_cards(ALL_CARDS, 0) == ALL_CARDS
    # S1 and M1 are not Old by themselves
    assert old_cards(C("S1M1"), 0) == 0
    assert old_cards(C("C2T2S8"), 0) == 0


def test_r12_old_by_sequence_below_an_old_card():
    assert old_cards(C("S789"), 0) == C("S789")
    assert old_cards(C("S79"), 0) == C("S9")  # S8 is elsewhere: S7 not Old
    assert old_cards(C("S123456789"), 0) == C("S123456789")
    assert old_cards(C("M12345678"), C("M9")) == C("M12345678")  # M1 by sequence


def test_r12_old_by_face_up_play():
    assert old_cards(C("S78"), C("S9")) == C("S78")
    assert old_cards(C("S6"), C("S79")) == 0  # S8 not known
    assert old_cards(C("S6"), C("S789")) == C("S6")
    assert old_cards(C("S6T5"), C("S89T6789")) == C("T5")


R12_HANDS = ["C1234S1234T78M1", "C5678S6789M234", "M56789T123456"]


def test_r12_face_down_discard_proves_nothing():
    # T9 and C9 are face down: T8 and T7 are not Old for seat 0
    pos = make_pos(R12_HANDS, to_move=0, caller=1, fu=(1, 0, 0), faceup="S5")
    assert pos.facedown == C("C9T9")
    assert pos.old_cards(0) == C("C1")
    assert set(m for m in moves(pos) if len(m) == 2) == {"T7", "T8"}
    # the same deal with T9 face up instead: T7 and T8 are Old, the single lead becomes M1
    pos = make_pos(R12_HANDS, to_move=0, caller=1, fu=(1, 0, 0), faceup="S5T9")
    assert pos.facedown == C("C9")
    assert pos.old_cards(0) == C("C1T78")
    assert set(m for m in moves(pos) if len(m) == 2) == {"M1"}


def test_r12_face_up_in_current_trick_counts():
    pos = make_pos(["S8C2", "S9C3C4", "M1M2M3"], to_move=1, caller=0, fu=(9, 0, 0), trick="S5")
    play(pos, "S9")
    # seat 0 holds S8 and S9 was just played face up
    assert pos.old_cards(0) & C("S8")


def test_r13_old_is_per_player():
    # seat 0 holds T8 while seat 2 holds T9: T8 is not Old for seat 0, though the engine knows where T9 is
    pos = start(R6_H0, R6_H1, 1)
    assert pos.hands[2] & C("T9")
    assert not pos.old_cards(0) & C("T8")
    # the same card is Old for a holder of the card above it
    assert old_cards(C("S8S9"), 0) & C("S8")
    assert not old_cards(C("S8"), 0) & C("S8")
    for s in range(3):
        assert pos.old_cards(s) == old_cards(pos.hands[s], pos.faceup)


# ---------------------------------------------------------------- R14 claim

CLAIM6_H0 = "C1239S239M29T129"  # C1, T1 and four 9s: exactly six Old
CLAIM6_H1 = "C45678S145678M1"
CLAIM5_H0 = "C1239S239M29T239"  # T3 instead of T1: five Old
CLAIM5_H1 = CLAIM6_H1


@pytest.mark.parametrize(("caller", "points"), [(0, (2, -1, -1)), (1, (2, -2, 0)), (2, (2, 0, -2))])
def test_r14_master_claims_at_first_lead(caller, points):
    pos = start(CLAIM6_H0, CLAIM6_H1, caller)
    assert pos.old_cards(0).bit_count() == 6
    assert pos.can_claim()
    got = moves(pos)
    assert got[0] == "claim" and len(got) > 1  # may also play on
    assert pos.is_legal(CLAIM_PLAY)
    line, key = str(pos), pos.key
    pos.push(CLAIM_PLAY)
    assert pos.is_over and list(pos.legal_moves()) == []
    assert str(pos) == line and pos.key != key  # the hands stay; the key marks the end
    o = pos.outcome
    assert (o.winner, o.total, o.how, o.points) == (0, 6, "claim", points)
    pos.pop()
    assert not pos.is_over and pos.key == key


def test_r14_no_claim_at_five():
    pos = start(CLAIM5_H0, CLAIM5_H1, 0)
    assert pos.old_cards(0).bit_count() == 5
    assert not pos.can_claim()
    assert "claim" not in moves(pos)
    assert not pos.is_legal(CLAIM_PLAY)
    assert "fewer than 6" in pos.why_illegal(CLAIM_PLAY)
    assert not can_claim(0, pos.hands[0], 0)
    assert can_claim(1, pos.hands[0], 0)


@pytest.mark.parametrize(("fu", "claims", "total"), [((3, 4, 2), True, 6), ((4, 3, 2), False, 5), ((3, 5, 1), True, 7)])
def test_r14_claim_total_is_fu_plus_old(fu, claims, total):
    pos = make_pos(["C9S1S2", "S9M9C5", "M1M2M3"], to_move=1, caller=1, fu=fu)
    assert pos.old_cards(1) == C("S9M9")
    assert claim_total(fu[1], pos.hands[1], pos.faceup) == total
    assert pos.can_claim() == claims
    assert pos.is_legal(CLAIM_PLAY) == claims
    if claims:
        pos.push(CLAIM_PLAY)
        p = total - 5
        assert pos.outcome == claim_outcome(1, total, 1)
        assert pos.outcome.points == (-p, 2 * p, -p)


def test_r14_claim_only_when_about_to_lead():
    pos = make_pos(["S1S2C9", "T9M9C5", "M1M2M3"], to_move=0, caller=0, fu=(1, 8, 0))
    play(pos, "S1")
    assert pos.to_move == 1
    assert not pos.can_claim()
    assert not pos.is_legal(CLAIM_PLAY)
    assert "claim" not in moves(pos)
    assert "about to lead" in pos.why_illegal(CLAIM_PLAY)


def test_r14_fu_alone_may_claim():
    pos = make_pos(["C1C2C3", "C5C6C7", "M1M2M3"], to_move=0, caller=0, fu=(9, 0, 0))
    assert pos.can_claim() and moves(pos)[0] == "claim"


# ---------------------------------------------------------------- R15 hands run out


def last_trick(fu, caller, h1="S3"):
    return make_pos(["S5", h1, "C2"], to_move=0, caller=caller, fu=fu)


def test_r15_last_trick_winner_reaches_six():
    pos = last_trick((5, 3, 3), caller=1)
    play(pos, "S5", "xS3", "xC2")
    o = pos.outcome
    assert pos.is_over and (o.winner, o.total, o.how) == (0, 6, "end")
    assert o.points == (2, -2, 0)
    assert list(pos.legal_moves()) == [] and not pos.can_claim()


def test_r15_player_at_six_without_the_lead_wins():
    # seat 1 won six fu earlier but never led again; seat 0 wins the last trick
    pos = last_trick((1, 6, 4), caller=0)
    play(pos, "S5", "xS3", "xC2")
    o = pos.outcome
    assert (o.winner, o.total, o.how, o.points) == (1, 6, "end", (-2, 2, 0))


def test_r15_six_against_six_last_trick_winner():
    pos = last_trick((5, 6, 0), caller=2)
    play(pos, "S5", "xS3", "xC2")
    assert pos.fu == [6, 6, 0]
    assert pos.outcome.winner == 0 and pos.outcome.points == (2, 0, -2)
    pos = last_trick((6, 5, 0), caller=2, h1="S7")
    play(pos, "S5", "S7", "xC2")
    assert pos.fu == [6, 6, 0]
    assert pos.outcome.winner == 1 and pos.outcome.points == (0, 2, -2)
    assert end_outcome((6, 6, 0), 0, 0).winner == 0
    assert end_outcome((6, 6, 0), 1, 0).winner == 1


def test_r15_total_is_fu_won():
    pos = last_trick((7, 2, 2), caller=0)
    play(pos, "S5", "xS3", "xC2")
    assert (pos.outcome.winner, pos.outcome.total, pos.outcome.points) == (0, 8, (6, -3, -3))


def test_r15_void_when_nobody_has_six():
    pos = last_trick((4, 4, 3), caller=0)
    play(pos, "S5", "xS3", "xC2")
    o = pos.outcome
    assert pos.is_over and o.winner is None and o.how == "void" and o.points == (0, 0, 0)
    assert end_outcome((4, 4, 4), 2, 1).how == "void"


def test_r15_parsed_final_position_is_over():
    all_up = format_cards(ALL_CARDS)
    pos = Position.parse(f"-/-/- 0 0 8,2,2 {all_up} -")
    assert pos.is_over and pos.outcome.winner == 0 and pos.outcome.total == 8
    assert list(pos.legal_moves()) == [] and not pos.can_claim()
    pos = Position.parse(f"-/-/- 2 1 6,0,6 {all_up} -")
    assert pos.outcome.winner == 2 and pos.outcome.points == (0, -2, 2)


# ---------------------------------------------------------------- R16–R17 points


@pytest.mark.parametrize("caller", [0, 1, 2])
@pytest.mark.parametrize("total", [6, 7, 8, 12, 15])
def test_r16_r17_caller_wins_each_other_pays_t_minus_5(caller, total):
    pts = payments(caller, total, caller)
    p = total - 5
    assert pts[caller] == 2 * p
    assert all(pts[s] == -p for s in range(3) if s != caller)
    assert sum(pts) == 0


@pytest.mark.parametrize("caller", [0, 1, 2])
@pytest.mark.parametrize("winner_offset", [1, 2])
@pytest.mark.parametrize("total", [6, 7, 9, 12])
def test_r16_r17_non_caller_wins_caller_pays_double(caller, winner_offset, total):
    winner = (caller + winner_offset) % 3
    other = 3 - caller - winner
    pts = payments(winner, total, caller)
    p = total - 5
    assert pts[winner] == 2 * p and pts[caller] == -2 * p and pts[other] == 0
    assert sum(pts) == 0


def test_r16_six_is_one_point():
    assert payments(0, 6, 0) == (2, -1, -1)
    assert payments(1, 6, 0) == (-2, 2, 0)
    assert claim_outcome(2, 7, 2).points == (-2, -2, 4)


def test_r17_points_sum_to_zero_everywhere():
    for caller in range(3):
        for winner in range(3):
            for total in range(6, 19):
                assert sum(payments(winner, total, caller)) == 0


# ---------------------------------------------------------------- generator / checker agreement


def test_r5_r9_is_legal_agrees_with_generator_on_example():
    pos = Position.parse(EXAMPLE)
    legal = set(pos.legal_moves())
    hand = pos.hands[0]
    for r in range(1, 4):
        for combo in combinations(list(iter_cards(hand)), r):
            mask = sum(1 << c for c in combo)
            k = classify(mask)
            if k >= 0:
                p = Play(k, mask, r)
                assert pos.is_legal(p) == (p in legal), str(p)
            assert not pos.is_legal(Play(DISCARD, mask, r))
