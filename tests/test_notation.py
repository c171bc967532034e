"""NOTATION.md: cards, card lists, plays and positions — parsing, canonical printing and errors."""

from __future__ import annotations

import pytest
from conftest import EXAMPLE, C, P, make_pos, play

from lukfu_solver.cards import ALL_CARDS, card_name, format_cards, parse_card, parse_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play
from lukfu_solver.position import Position


def error_of(fn, *args) -> NotationError:
    with pytest.raises(NotationError) as e:
        fn(*args)
    return e.value


# ---------------------------------------------------------------- cards and card lists


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("C19S345T2", "C19S345T2"),
        ("c19s345t2", "C19S345T2"),
        ("C1 C9 S345", "C19S345"),
        ("c9,c1,s3", "C19S3"),
        ("s5 c9, C1 s34", "C19S345"),
        ("T1C1", "C1T1"),
        ("S3C1S4", "C1S34"),
        ("M987", "M789"),
        ("t9 , m1", "M1T9"),
        ("-", "-"),
        (" - ", "-"),
        ("C123456789S123456789M123456789T123456789", "C123456789S123456789M123456789T123456789"),
    ],
)
def test_card_list_parse_and_canonical(text, canonical):
    mask = parse_cards(text)
    assert format_cards(mask) == canonical
    assert parse_cards(canonical) == mask


def test_card_names():
    assert card_name(parse_card("t1")) == "T1"
    assert card_name(parse_card(" s7 ")) == "S7"
    assert format_cards(0) == "-"
    assert parse_cards("-") == 0
    assert format_cards(ALL_CARDS).count("123456789") == 4


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("C0", ["0"]),
        ("X1", ["X"]),
        ("C", ["C", "no rank"]),
        ("C1S", ["S", "no rank"]),
        ("CS1", ["C", "no rank"]),
        ("C11", ["C1", "twice"]),
        ("C1 c1", ["C1", "twice"]),
        ("5", ["no suit"]),
        ("", ["empty"]),
        ("C1;S2", [";"]),
        ("C1-", ["-"]),
    ],
)
def test_card_list_errors_name_the_field(text, words):
    e = error_of(parse_cards, text, "hand")
    assert e.field == "hand"
    assert str(e).startswith("hand: ")
    for w in words:
        assert w in str(e)
    e = error_of(parse_cards, text)
    assert str(e).startswith("cards: ")


@pytest.mark.parametrize("text", ["C0", "X1", "C", "C12", "-", "", "S10"])
def test_single_card_errors(text):
    e = error_of(parse_card, text)
    assert str(e).startswith("card: ")


# ---------------------------------------------------------------- plays


@pytest.mark.parametrize(
    ("text", "canonical", "kind", "size"),
    [
        ("S7", "S7", SINGLE, 1),
        ("s7", "S7", SINGLE, 1),
        ("C5S5M5", "C5S5M5", SET, 3),
        ("m5 c5 s5 t5", "C5S5M5T5", SET, 4),
        ("S345", "S345", RUN, 3),
        ("s543", "S345", RUN, 3),
        ("T123456789", "T123456789", RUN, 9),
        ("x2", "x2", DISCARD, 2),
        ("X12", "x12", DISCARD, 12),
        ("xC2M4", "xC2M4", DISCARD, 2),
        ("xm4c2", "xC2M4", DISCARD, 2),
        ("x C2 M4 T8", "xC2M4T8", DISCARD, 3),
        ("xS7", "xS7", DISCARD, 1),
        ("claim", "claim", CLAIM, 0),
        ("CLAIM", "claim", CLAIM, 0),
        (" Claim ", "claim", CLAIM, 0),
    ],
)
def test_play_parse_and_canonical(text, canonical, kind, size):
    p = P(text)
    assert (str(p), p.kind, p.size) == (canonical, kind, size)
    assert P(canonical) == p


def test_play_properties():
    assert P("x2").hidden and P("x2").cards == 0
    assert not P("xC2M4").hidden and P("xC2M4").cards == C("C2M4")
    assert P("S7").face_up and not P("xS7").face_up and not CLAIM_PLAY.face_up
    assert P("claim") is CLAIM_PLAY or P("claim") == CLAIM_PLAY
    assert P("S345").rank == 5 and P("S345").suit == 1
    assert P("C5S5M5").rank == 5


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("C7S7", ["not a single"]),  # a pair
        ("S129", ["not a single"]),  # no wrap
        ("C1S2M3", ["not a single"]),
        ("", ["empty"]),
        ("x", ["no cards"]),
        ("x0", ["0"]),
        ("x13", ["13"]),
        ("xC0", ["0"]),
        ("xC1C1", ["twice"]),
        ("x-", []),
        ("x²", []),
        ("clam", []),
        ("S0", ["0"]),
        ("-", []),
    ],
)
def test_play_errors_name_the_field(text, words):
    e = error_of(Play.parse, text, "move")
    assert e.field == "move" and str(e).startswith("move: ")
    for w in words:
        assert w in str(e)
    assert str(error_of(Play.parse, text)).startswith("play: ")


# ---------------------------------------------------------------- positions


def test_example_position_round_trips():
    pos = Position.parse(EXAMPLE)
    assert str(pos) == EXAMPLE
    assert pos.hands == [C("C69S246M567T1235"), C("C1378S57M24T4789"), C("C245S1389M1389T6")]
    assert (pos.to_move, pos.caller, pos.fu, pos.faceup, pos.trick) == (0, 1, [0, 0, 0], 0, ())


def test_position_canonical_from_sloppy_input():
    sloppy = "t5321m765s642c96/t9874m42s75c8731/t6m9831s9831c542 0 1 0,0,0 - -"
    assert str(Position.parse(sloppy)) == EXAMPLE


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        (["T2"], "C69S246M567T135/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - T2"),
        (["T2", "T4"], "C69S246M567T135/C1378S57M24T789/C245S1389M1389T6 2 1 0,0,0 - T2,T4"),
        (["T2", "T4", "T6"], "C69S246M567T135/C1378S57M24T789/C245S1389M1389 2 1 0,0,1 T246 -"),
        (["T2", "T4", "T6", "M3"], "C69S246M567T135/C1378S57M24T789/C245S1389M189 0 1 0,0,1 T246 M3"),
        (
            ["T2", "T4", "T6", "M3", "M5"],
            "C69S246M67T135/C1378S57M24T789/C245S1389M189 1 1 0,0,1 T246 M3,M5",
        ),
        (
            ["T2", "T4", "T6", "M3", "M5", "xC1"],
            "C69S246M67T135/C378S57M24T789/C245S1389M189 0 1 1,0,1 M35T246 -",
        ),
        (["M567", "T789"], "C69S246T1235/C1378S57M24T4/C245S1389M1389T6 2 1 0,0,0 - M567,T789"),
    ],
)
def test_mid_trick_positions_round_trip(moves, line):
    pos = play(Position.parse(EXAMPLE), *moves)
    assert str(pos) == line
    again = Position.parse(line)
    assert str(again) == line
    assert again.key == pos.key
    assert again == pos
    assert [str(m) for m in again.legal_moves()] == [str(m) for m in pos.legal_moves()]


def test_position_with_discard_in_trick_round_trips():
    # later in the deal seat 1 (caller) leads S5 and seat 2 discards C7
    pos = make_pos(["C1C2C3C8", "C4C5C6", "M1M2M3"], to_move=0, caller=1, fu=(0, 8, 0), trick="S5,xC7")
    line = str(pos)
    assert line.split()[1:4] == ["0", "1", "0,8,0"] and line.split()[-1] == "S5,xC7"
    again = Position.parse(line)
    assert str(again) == line and again.key == pos.key
    assert again.trick == (P("S5"), P("xC7")) and again.best_seat == 1
    assert [str(m) for m in again.legal_moves()] == ["xC1", "xC2", "xC3", "xC8"]


def bad(line: str, field: str, *words: str) -> None:
    e = error_of(Position.parse, line)
    assert str(e).startswith(field + ":"), str(e)
    assert e.field == field or e.field.startswith(field)
    for w in words:
        assert w in str(e), str(e)


HANDS = "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6"


def test_position_wrong_field_count():
    bad(HANDS + " 0 1 0,0,0 -", "position", "6 fields")
    bad(EXAMPLE + " -", "position", "6 fields")
    bad("", "position")


def test_position_bad_hands_field():
    bad("C69S246M567T1235/C1378S57M24T4789 0 1 0,0,0 - -", "hands", "three")
    bad("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6/- 0 1 0,0,0 - -", "hands")
    bad("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T0 0 1 0,0,0 - -", "hands: seat 2", "0")


def test_position_duplicate_card():
    bad("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6C9 0 1 0,0,0 - -", "hands", "C9")
    # a card both in a hand and face up
    bad("C6S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 C69 -", "face-up", "C6")
    # a card both in a hand and in the trick
    bad("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - T2", "trick: play 1", "T2")


def test_position_unequal_sizes():
    bad("C69S246M567T12356/C1378S57M24T789/C245S1389M1389T4 0 1 0,0,0 - -", "hands", "equal")
    # counting the trick: seat 0 led T2 but still holds 12 cards
    bad("C69S246M567T1356/C1378S57M24T789/C245S1389M1389T4 1 1 0,0,0 - T2", "hands", "equal")


def test_position_too_many_face_down_cards():
    # after one trick (c = 1) at most two cards can be face down; here all six missing cards are
    bad("C69S246M567T135/C1378S7M24T4789/C245S389M1389T6 0 1 1,0,0 - -", "face-up", "face down")
    # with one or all of them face up it is fine
    for up in ["T2", "S15T2"]:
        ok = f"C69S246M567T135/C1378S7M24T4789/C245S389M1389T6 0 1 1,0,0 {up} -"
        assert str(Position.parse(ok)) == ok


def test_position_fu_must_sum_to_cards_played():
    bad("C69S246M567T135/C1378S57M24T789/C245S1389M1389 2 1 0,0,2 T246 -", "fu", "add up")
    bad(HANDS + " 0 1 1,0,0 - -", "fu")
    bad(HANDS + " 0 1 0,0 - -", "fu", "three")
    bad(HANDS + " 0 1 a,0,0 - -", "fu")
    bad(HANDS + " 0 1 -1,0,0 - -", "fu")
    bad(HANDS + " 0 1 0,0,²0 - -", "fu")


def test_position_first_trick_led_by_seat_0():
    bad(HANDS + " 1 1 0,0,0 - -", "to-move", "R4")
    bad("C69S246M567T1235/C1378S57M24T789/C245S1389M1389T6 2 1 0,0,0 - T4", "to-move", "R4")


def test_position_leader_without_fu():
    # after the first trick seat 2 won it; a position where seat 0 leads with no fu is impossible
    bad("C69S246M567T135/C1378S57M24T789/C245S1389M1389 0 1 0,0,1 T246 -", "to-move", "fu")
    bad("C69S246M567T135/C1378S57M24T789/C245S1389M1389 1 1 0,0,1 T246 -", "to-move")


def test_position_seat_fields():
    bad(HANDS + " 3 1 0,0,0 - -", "to-move", "seat")
    bad(HANDS + " x 1 0,0,0 - -", "to-move")
    bad(HANDS + " 0 -1 0,0,0 - -", "caller")


def test_position_illegal_lead_r7():
    # seat 0 is a non-caller: a single lead must be a non-Old Tens
    bad("C69S246M567T235/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - T1", "trick: play 1", "R7")
    bad("C9S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - C6", "trick: play 1", "R7")
    # as the caller it may
    assert Position.parse("C9S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 1 0 0,0,0 - C6").to_move == 1


def test_position_illegal_lead_r6():
    hands = "C13S3456M13/C2456S12M2456T12/C79S79M79T345679 1 {} 0,0,0 - C8S8M8T8"
    bad(hands.format(1), "trick: play 1", "R6")
    bad(hands.format(2), "trick: play 1", "R6")
    assert Position.parse(hands.format(0)).to_move == 1


def test_position_follower_play_does_not_beat():
    # seat 0 led T5, seat 1 played T4
    bad("C69S246M567T123/C1378S57M24T789/C245S1389M1389T6 2 1 0,0,0 - T5,T4", "trick: play 2", "does not beat", "R8")
    # C3 does not beat the led T2 (other suit)
    bad("C69S246M567T135/C178S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - T2,C3", "trick: play 2", "does not beat")
    # a set does not beat a single
    bad("C69S246M567T135/C1378S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - T2,C3S3M3", "trick: play 2")


def test_position_discard_when_follower_could_beat():
    # seat 1 holds T4 and could beat T2: the discard is illegal (R9)
    bad("C69S246M567T135/C378S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - T2,xC1", "trick: play 2", "R9")
    # seat 1 without any higher Tens may discard
    ok = "C69S246M567T123/C234578S57M24T4/S1389M1389T6789 2 1 0,0,0 - T5,xC1"
    assert str(Position.parse(ok)) == ok


def test_position_hidden_discard_rejected():
    bad("C69S246M567T135/C378S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - T2,x1", "trick: play 2", "show")


def test_position_claim_and_too_many_plays_in_trick():
    bad(HANDS + " 0 1 0,0,0 - claim", "trick: play 1", "claim")
    bad("C69S246M567T135/C1378S57M24T789/C245S1389M1389 0 1 0,0,0 - T2,T4,T6", "trick", "at most 2")


def test_position_face_up_field_errors():
    bad(HANDS + " 0 1 0,0,0 C0 -", "face-up")
    bad(HANDS + " 0 1 0,0,0 Z -", "face-up")


def test_position_discard_of_wrong_size_in_trick():
    bad("C69S246M567T135/C37S57M24T4789/C245S1389M1389T6 2 1 0,0,0 - T2,xC18", "trick: play 2", "lead has 1")


def test_position_str_of_parsed_is_canonical_idempotent():
    for line in [EXAMPLE, "-/-/- 0 0 8,2,2 " + format_cards(ALL_CARDS) + " -"]:
        once = str(Position.parse(line))
        assert str(Position.parse(once)) == once
