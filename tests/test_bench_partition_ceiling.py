"""``bench/studies/partition_ceiling.py``'s own logic: the classes an ideal partition table merges, what
it counts a bound as reading, a table that keeps the reference's values, and a clear refusal of
bad options."""

from __future__ import annotations

import pytest

from bench.studies import partition_ceiling as pc
from lukfu_solver.cards import parse_cards
from lukfu_solver.endgames import random_endgame
from lukfu_solver.position import Position
from lukfu_solver.search.reference import Solver


def swapped(pos: Position, a: int, b: int) -> Position:
    """``pos`` with the hands holding cards ``a`` and ``b`` (bits) trading them."""
    other = pos.copy()
    ha = next(i for i in range(3) if other.hands[i] >> a & 1)
    hb = next(i for i in range(3) if other.hands[i] >> b & 1)
    other.hands[ha] ^= (1 << a) | (1 << b)
    other.hands[hb] ^= (1 << a) | (1 << b)
    return other


def test_a_class_keeps_counts_and_forgets_where_the_cards_lie() -> None:
    pos = random_endgame(0, 6)
    live = pos.hands[0] | pos.hands[1] | pos.hands[2]
    suit = next(s for s in range(4) if len({i for i in range(3) if pos.hands[i] >> (9 * s) & 0x1FF}) > 1)
    bits = [b for b in range(9 * suit, 9 * suit + 9) if live >> b & 1]
    top = bits[-1]
    low = next(b for b in bits if not any(h >> b & 1 and h >> top & 1 for h in pos.hands))
    moved = swapped(pos, low, top)  # the suit's highest card changes hands, each hand's count stays
    assert pc.class_key(moved, 0) == pc.class_key(pos, 0)
    assert pc.class_key(moved, 1) != pc.class_key(pos, 1)
    fewer = pos.copy()
    fewer.hands[0] = pos.hands[0] ^ (pos.hands[0] & -pos.hands[0])  # a card fewer in a suit
    assert pc.class_key(fewer, 0) != pc.class_key(pos, 0)


def test_tops_read_runs_down_to_the_first_card_of_another_holder() -> None:
    hands = [parse_cards("C89S12"), parse_cards("C7S3"), parse_cards("C6S9")]
    read = pc.tops_read(hands)
    assert read == parse_cards("C789S39")


def test_the_ideal_table_keeps_the_value_and_cuts() -> None:
    pos = random_endgame(0, 6)
    base = pc.plain(pos.copy())
    assert base["value"] == Solver().solve(pos.copy()).value
    got = pc.measure(pos.copy(), base, 0, relevance="none")
    assert got["cuts"] > 0 and got["nodes"] < base["nodes"]
    assert got["ratio"] == round(base["nodes"] / got["nodes"], 3)


def test_bounds_that_read_everything_leave_fewer_merges() -> None:
    pos = random_endgame(0, 6)
    base = pc.plain(pos.copy())
    free = pc.measure(pos.copy(), base, 0, relevance="none")
    strict = pc.measure(pos.copy(), base, 0, relevance="leaves")
    assert strict["cuts"] < free["cuts"]


def test_only_small_hands_are_answered_with_cards() -> None:
    pos = random_endgame(0, 6)
    base = pc.plain(pos.copy())
    none = pc.measure(pos.copy(), base, 0, cards=1, relevance="none")
    assert none["cuts"] == 0 and none["nodes"] == base["nodes"]


@pytest.mark.parametrize(
    ("argv", "fault"),
    [
        (["--relevance", "some"], "--relevance: 'some' is not one of"),
        (["--tops", "12"], "--tops: '12' is not one of"),
        (["--cards", "0"], "--cards: 0 is not a hand's size"),
        (["--only", "c/x:1"], "--only: 'x:1' is not SEED:CALLER"),
    ],
)
def test_bad_options_exit_2_with_one_line(argv: list[str], fault: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        pc.main(argv)
    assert stop.value.code == 2
    assert fault in capsys.readouterr().err
