"""Game records: JSON round trip, replay of played deals, rejection of tampered records, files."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from lukfu_solver.cards import ALL_CARDS, format_cards, parse_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.game import play_deal
from lukfu_solver.history import Trick
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM, DISCARD, SINGLE, Play
from lukfu_solver.record import FORMAT, GameRecord
from lukfu_solver.rules import Outcome

EXAMPLE_HANDS = ["C69S246M567T1235", "C1378S57M24T4789", "C245S1389M1389T6"]


def _deal(i: int) -> GameRecord:
    return play_deal([RandomPlayer(3 * i), RandomPlayer(3 * i + 1), RandomPlayer(3 * i + 2)], seed=i)


def _example(**changes: object) -> dict:
    data = {
        "format": FORMAT,
        "seed": None,
        "players": None,
        "passed_out": [],
        "hands": EXAMPLE_HANDS,
        "calls": ["pass", "play"],
        "caller": 1,
        "plays": ["T2", "T4", "T6", "M3", "M5"],
        "result": None,
    }
    data.update(changes)
    return data


def _fault(data: object) -> NotationError:
    with pytest.raises(NotationError) as info:
        GameRecord.from_json(data)
    return info.value


# ---------------------------------------------------------------- JSON


def test_json_round_trip_of_played_deals() -> None:
    for i in range(20):
        rec = _deal(i)
        data = rec.to_json()
        assert list(data) == ["format", "seed", "players", "passed_out", "hands", "calls", "caller", "plays", "result"]
        assert GameRecord.from_json(data) == rec
        assert GameRecord.loads(rec.dumps()) == rec
        assert json.loads(rec.dumps()) == data
        assert data["result"]["points"] == list(rec.outcome.points)
        assert all(isinstance(p, str) for p in data["plays"])


def test_json_form_of_the_example_unfinished_record() -> None:
    rec = GameRecord.from_json(_example())
    assert rec.hands == tuple(parse_cards(h) for h in EXAMPLE_HANDS)
    assert rec.calls == ("pass", "play") and rec.caller == 1 and rec.outcome is None
    assert rec.to_json() == _example()
    assert [str(p) for p in rec.plays] == ["T2", "T4", "T6", "M3", "M5"]


def test_discards_are_written_with_their_cards() -> None:
    rec = next(r for r in map(_deal, range(20)) if any(p.kind == DISCARD for p in r.plays))
    texts = [t for t in rec.to_json()["plays"] if t.startswith("x")]
    assert texts and all(not t[1:].isdigit() for t in texts)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ([1, 2], "record", "expected a JSON object, got list"),
        (_example(colour="red"), "record", "unknown key 'colour'"),
        ({k: v for k, v in _example().items() if k != "plays"}, "record: plays", "missing"),
        (_example(format="lukfu-record/4"), "record: format", "expected 'lukfu-record/3'"),
        (_example(hands=["C1", "C2"]), "record: hands", "expected three card lists"),
        (_example(hands=["C69S246M567T123Z", *EXAMPLE_HANDS[1:]]), "record: hands", "seat 0: bad character 'Z'"),
        (_example(calls=["pass", "maybe"]), "record: calls", "call 2 is 'maybe'"),
        (_example(caller=2), "record: caller", "is 2 but the calls make it 1"),
        (_example(plays=["T2", "T4", "T6", "M35"]), "record: plays", "play 4: M35 is not a single"),
        (_example(plays=["T2", "x1"]), "record: plays", "play 2: x1 hides its cards"),
        (_example(plays="T2 T4"), "record: plays", "expected a list of strings"),
        (_example(seed="7"), "record: seed", "expected an integer or null"),
        (_example(players=["a", "b"]), "record: players", "expected 3 names"),
        (_example(passed_out=["C1/C2"]), "record: passed_out", "deal 1: expected three card lists"),
        (_example(result={"winner": 1}), "record: result", "expected null or an object"),
        (
            _example(result={"winner": 1, "total": 7, "how": "won", "points": [0, 0, 0]}),
            "record: result",
            "how is 'won'",
        ),
        (
            _example(result={"winner": None, "total": 7, "how": "claim", "points": [0, 0, 0]}),
            "record: result",
            "winner None",
        ),
        (
            _example(result={"winner": 1, "total": 7, "how": "claim", "points": [1, 2]}),
            "record: result",
            "points [1, 2]",
        ),
    ],
)
def test_structure_faults(data: object, field: str, message: str) -> None:
    err = _fault(data)
    assert err.field == field
    assert message in err.message, err.message


def test_loads_bad_json() -> None:
    with pytest.raises(NotationError, match=r"^record: not valid JSON"):
        GameRecord.loads("{not json")


# ---------------------------------------------------------------- replay


def test_replay_of_played_deals() -> None:
    for i in range(30):
        rec = _deal(i)
        positions = rec.replay()
        assert len(positions) == len(rec.plays) + 1
        assert positions[0].to_move == 0 and positions[0].caller == rec.caller  # R4
        assert all(pos.is_legal(p) for pos, p in zip(positions, rec.plays, strict=False))
        assert positions[-1].is_over and positions[-1].outcome == rec.outcome
        assert not any(pos.is_over for pos in positions[:-1])


def test_replay_of_an_unfinished_record_and_of_the_calling_phase() -> None:
    rec = GameRecord.from_json(_example())
    positions = rec.replay()
    assert str(positions[-1]) == "C69S246M67T135/C1378S57M24T789/C245S1389M189 1 1 0,0,1 T246 M3,M5"
    calling = GameRecord.from_json(_example(calls=["pass"], caller=None, plays=[]))
    assert calling.caller is None and calling.replay() == []
    assert str(calling.view(1)) == "1 C1378S57M24T4789 - pass"


def _first_follow(rec: GameRecord, beating: bool) -> int:
    """Index in rec.plays of the first follower play that beats (beating) or discards (not beating)."""
    n = 0
    for tr in rec.tricks():
        for i, p in enumerate(tr.plays):
            if i and (p.kind != DISCARD) == beating:
                return n + i
        n += len(tr.plays)
    raise LookupError


def test_tampered_play_illegal_discard_is_named_exactly() -> None:
    rec = _deal(3)
    k = _first_follow(rec, beating=True)
    pos = rec.replay()[k]
    seat, size = pos.to_move, rec.plays[k].size
    plays = list(rec.plays)
    plays[k] = Play(DISCARD, _low_cards(pos.hands[seat], size), size)  # discarding although it could beat
    trick, n = 1, 0
    for t in rec.tricks():
        if n + len(t.plays) > k:
            break
        n, trick = n + len(t.plays), trick + 1
    with pytest.raises(NotationError) as info:
        dataclasses.replace(rec, plays=tuple(plays)).replay()
    assert info.value.field == "plays"
    assert info.value.message.startswith(f"play {k + 1} (trick {trick}, seat {seat}): {plays[k]} is not legal (")
    assert info.value.message.endswith(f"seat {seat} can beat {pos.best} and must (R9))")


def _low_cards(mask: int, n: int) -> int:
    out = 0
    for _ in range(n):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def test_tampered_play_card_not_in_hand() -> None:
    rec = GameRecord.from_json(_example(plays=["T2", "T4", "T6", "M3", "M5", "T3"]))
    with pytest.raises(NotationError) as info:
        rec.replay()
    assert info.value.field == "plays"
    assert info.value.message == "play 6 (trick 2, seat 1): T3 is not legal (seat 1 does not hold T3)"


def test_tampered_r7_lead_and_play_after_the_end() -> None:
    # seat 0 did not call (caller 1) and holds non-Old Tens: leading S2 breaks R7
    rec = GameRecord.from_json(_example(plays=["S2"]))
    with pytest.raises(NotationError, match=r"^plays: play 1 \(trick 1, seat 0\): S2 is not legal \(.*\(R7\)\)$"):
        rec.replay()
    done = _deal(5)
    extra = dataclasses.replace(done, plays=(*done.plays, Play(SINGLE, 1, 1)))
    with pytest.raises(NotationError, match=rf"^plays: play {len(done.plays) + 1}: the deal ended at play"):
        extra.replay()


def test_tampered_result_is_rejected() -> None:
    rec = _deal(2)
    o = rec.outcome
    wrong = Outcome(o.winner, o.total, o.how, (o.points[1], o.points[2], o.points[0]))
    if wrong == o:
        wrong = Outcome((o.winner or 0) + 1 if o.winner != 2 else 0, o.total + 1, "claim", (4, -2, -2))
    with pytest.raises(NotationError) as info:
        dataclasses.replace(rec, outcome=wrong).replay()
    assert info.value.field == "result" and "but the plays give" in info.value.message
    with pytest.raises(NotationError, match="^result: null, but the deal ended"):
        dataclasses.replace(rec, outcome=None).replay()
    unfinished = GameRecord.from_json(_example())
    with pytest.raises(NotationError, match="^result: recorded, but the deal has not ended after 5 plays"):
        dataclasses.replace(unfinished, outcome=o).replay()


def test_r1_r2_deal_checked() -> None:
    rec = GameRecord.from_json(_example(hands=["C69S246M567T123", *EXAMPLE_HANDS[1:]]))
    with pytest.raises(NotationError, match=r"^hands: seat 0 has 11 cards; each is dealt 12 \(R2\)"):
        rec.replay()
    dup = GameRecord.from_json(_example(hands=["C69S246M567T1234", *EXAMPLE_HANDS[1:]]))
    with pytest.raises(NotationError, match=r"^hands: T4 is dealt twice \(seat 1\)"):
        dup.replay()
    bad_passed = GameRecord.from_json(_example(passed_out=["/".join([EXAMPLE_HANDS[0]] * 3)]))
    with pytest.raises(NotationError, match="^passed_out: deal 1: C69S246M567T1235 is dealt twice"):
        bad_passed.replay()


def test_r3_calls_checked() -> None:
    three = GameRecord.from_json(_example(calls=["pass", "pass", "pass"], caller=None, plays=[]))
    with pytest.raises(NotationError, match=r"^calls: all three seats passed.*\(R3\)"):
        three.replay()
    after = GameRecord.from_json(_example(calls=["play", "pass"], caller=0, plays=[]))
    with pytest.raises(NotationError, match=r"^calls: call 2 comes after seat 0 called 'play'"):
        after.replay()
    nobody = GameRecord.from_json(_example(calls=["pass"], caller=None))
    with pytest.raises(NotationError, match="^calls: nobody has called 'play'"):
        nobody.replay()


# ---------------------------------------------------------------- views and tricks


def test_view_of_the_notation_example() -> None:
    rec = GameRecord.from_json(_example())
    assert str(rec.view(1)) == "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
    assert str(rec.view(0, 3)) == "0 C69S246M567T135 1 T2,T4,T6"
    assert str(rec.view(2, 5)) == "2 C245S1389M189 1 T2,T4,T6/M3,M5"
    assert str(rec.view(0, 0)) == "0 C69S246M567T1235 1 -"
    with pytest.raises(NotationError, match=r"^plays: 6 is outside 0-5"):
        rec.view(0, 6)
    with pytest.raises(NotationError, match="^seat: "):
        rec.view(3)


def test_view_hides_other_discards_and_omits_a_final_claim() -> None:
    rec = next(
        r for r in map(_deal, range(40)) if r.plays[-1].kind == CLAIM and any(p.kind == DISCARD for p in r.plays)
    )
    for seat in range(3):
        v = rec.view(seat)
        assert sum(len(t) for t in v.tricks) == len(rec.plays) - 1
        for t, leader in zip(v.tricks, v.leaders, strict=True):
            for i, p in enumerate(t):
                if p.kind == DISCARD:
                    assert (p.cards != 0) == ((leader + i) % 3 == seat)
    with pytest.raises(NotationError, match="is a claim"):
        rec.view(0, len(rec.plays))


def test_tricks_summary() -> None:
    rec = GameRecord.from_json(_example())
    assert rec.tricks() == [
        Trick(0, (Play.parse("T2"), Play.parse("T4"), Play.parse("T6")), 2, 2, 1),
        Trick(2, (Play.parse("M3"), Play.parse("M5")), 1, None, 0),
    ]
    for i in range(10):
        done = _deal(i)
        ts = done.tricks()
        fu = [0, 0, 0]
        for t in ts:
            fu[t.winner] += t.fu_won
        assert fu == done.replay()[-1].fu
        assert all(b.leader == a.winner for a, b in zip(ts, ts[1:], strict=False))


# ---------------------------------------------------------------- files


def test_save_load_and_refuse_to_overwrite(tmp_path: Path) -> None:
    rec = _deal(4)
    path = tmp_path / "deal.json"
    rec.save(path)
    assert GameRecord.load(path) == rec
    assert json.loads(path.read_text())["format"] == FORMAT
    other = _deal(5)
    with pytest.raises(NotationError) as info:
        other.save(path)
    assert info.value.field == "file" and "refusing to overwrite" in info.value.message
    assert GameRecord.load(path) == rec  # untouched
    other.save(str(path), overwrite=True)
    assert GameRecord.load(path) == other


def test_load_faults(tmp_path: Path) -> None:
    with pytest.raises(NotationError, match=r"^file: .*missing\.json: no such file"):
        GameRecord.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(NotationError, match=r"^file: .*bad\.json: not valid JSON"):
        GameRecord.load(bad)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(_example(format="other")))
    with pytest.raises(NotationError, match=r"^record: format"):
        GameRecord.load(wrong)


def test_records_use_all_36_cards() -> None:
    rec = _deal(8)
    assert rec.hands[0] | rec.hands[1] | rec.hands[2] == ALL_CARDS
    assert [format_cards(h) for h in rec.hands] == rec.to_json()["hands"]


def test_docs_example_record_replays() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
    block = doc.split("```json\n", 1)[1].split("```", 1)[0]
    rec = GameRecord.loads(block)
    positions = rec.replay()
    assert rec.caller == 1 and len(rec.passed_out) == 1 and rec.players == ("ann", "bob", "cy")
    assert positions[-1].outcome == Outcome(2, 10, "claim", (0, -10, 10))
    assert [t.winner for t in rec.tricks()] == [2, 2, 2]


# ---------------------------------------------------------------- versions


def test_a_version_1_record_reads_replays_and_writes_back_unchanged() -> None:
    """The shipped example is a version-1 record (its seed drew the Master before dealing): it
    still reads, replays to its own result and is written back as version 1, byte for byte."""
    path = Path(__file__).resolve().parent.parent / "examples" / "deal-175.json"
    text = path.read_text(encoding="utf-8")
    rec = GameRecord.loads(text)
    assert rec.version == 1 and json.loads(rec.dumps()) == json.loads(text)
    assert rec.replay()[-1].outcome == rec.outcome


def test_new_records_are_version_3_and_the_seed_deals_their_hands() -> None:
    from lukfu_solver.game import deal_from_seed, deal_seed

    for i in range(5):
        rec = _deal(i)
        assert rec.version == 3 and rec.to_json()["format"] == FORMAT == "lukfu-record/3"
        assert rec.seed == deal_seed(i, len(rec.passed_out)) and deal_from_seed(rec.seed) == rec.hands
        first = rec.passed_out[0] if rec.passed_out else rec.hands
        assert first == deal_from_seed(i)
    for old_format, version in (("lukfu-record/1", 1), ("lukfu-record/2", 2)):
        old = GameRecord.from_json(_example(format=old_format))
        assert old.version == version and old.to_json()["format"] == old_format
        assert old != GameRecord.from_json(_example())
