"""The step-wise game session (lukfu_solver/session.py): the same deal as play_deal, checked
answers, undo, resume from a record, stale engine answers refused, the person's view only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from lukfu_solver.errors import NotationError
from lukfu_solver.game import REDEAL_STEP, deal_from_seed, deal_hands, play_deal
from lukfu_solver.players import make_player
from lukfu_solver.plays import CLAIM, KIND_NAMES
from lukfu_solver.record import GameRecord
from lukfu_solver.session import YOU, GameSession, engine_answer, engine_seed, parse_opponents


def _play_through(session: GameSession, person: object) -> GameRecord:
    """Play the session to its end: the person answers with ``person`` (a player), engines with
    :func:`engine_answer`, as a server would."""
    while session.phase != "over":
        if session.waiting_for_engine:
            task = session.engine_task()
            assert session.apply_engine(task, engine_answer(task))
        else:
            answer = person(session.view())  # type: ignore[operator]
            session.apply(answer if isinstance(answer, str) else str(answer))
    return session.record


def _person_turns(session: GameSession) -> Iterator[dict[str, Any]]:
    """The state at each of the person's turns to the end of the deal, the engines answering in
    between as a server would; the caller answers each turn before asking for the next."""
    while session.phase != "over":
        if session.waiting_for_engine:
            task = session.engine_task()
            session.apply_engine(task, engine_answer(task))
        else:
            yield session.state()


def _same_as_play_deal(seed: int, seat: int | None, kinds: tuple[str, str]) -> tuple[GameRecord, GameRecord]:
    session = GameSession.new(seed, seat, kinds, level=1)
    got = _play_through(session, make_player("rule:3"))
    specs = [o.engine for o in parse_opponents(kinds, 1)]
    engines = [make_player(s, engine_seed(seed, i)) for i, s in enumerate(specs)]
    players, names, k = [], [], 0
    for person in range(3):
        if person == session.human:
            players.append(make_player("rule:3"))
            names.append(YOU)
        else:
            players.append(engines[k])
            names.append(session.names[person])
            k += 1
    return got, play_deal(players, seed, names=names)


@pytest.mark.parametrize("seed", [3, 7, 74, 175])
def test_a_session_plays_the_deal_play_deal_plays(seed: int) -> None:
    got, want = _same_as_play_deal(seed, seed % 3, ("rule", "rule"))
    assert got == want
    assert got.replay()  # every step legal, result as recorded


def _pass_until_redealt(seed: int) -> GameSession:
    """The session of ``seed`` with the person passing at every call, up to the first redeal (or play)."""
    return pass_until_redealt(GameSession.new(seed, 0, ("rule",), level=1))


def pass_until_redealt(session: GameSession) -> GameSession:
    """``session`` with the person passing at every call (the engines answer), up to the first
    redeal (R3) or someone's call."""
    while session.phase == "call" and not session.passed_out:
        if session.waiting_for_engine:
            task = session.engine_task()
            session.apply_engine(task, engine_answer(task))
        else:
            session.apply("pass")
    return session


def test_a_redeal_after_three_passes_is_dealt_by_its_own_seed() -> None:
    """R3: all three passed, the cards are dealt again and a new Master drawn, from the redeal's
    seed (the seed plus one step), which the record keeps."""
    session = next(s for s in map(_pass_until_redealt, range(100)) if s.passed_out)
    seed = session.seed
    assert session.phase == "call" and len(session.record.passed_out) == 1
    assert session.record.calls == () and session.answers == ["pass"] * 3
    rng = random.Random(seed + REDEAL_STEP)  # the second deal and its Master, as play_deal deals them
    assert session.hands == deal_hands(rng) and session.master == rng.randrange(3)
    assert session.record.seed == seed + REDEAL_STEP and session.record.passed_out[0] == deal_from_seed(seed)
    resumed = GameSession.from_record(GameRecord.loads(session.record.dumps()), level=1)
    assert resumed.seed == seed and resumed.engine_seeds == session.engine_seeds
    assert resumed.state() == session.state()
    session.undo()  # the person's pass at seat 0 of the first deal: back before the redeal
    assert session.passed_out == [] and session.answers == [] and session.human_seat == 0


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_first_opponent_plays_right_after_the_person_in_every_deal(seat: int) -> None:
    """R2 numbers the seats from each deal's Master; the order round the table stays, so the
    first opponent (A) is always the one after the person, the second (B) the one before, for
    whichever person the person is, in the browser as at the terminal (R3: after a redeal too)."""
    redeals = 0
    for seed in range(12):
        s = GameSession.new(seed, seat, ("easy",))
        while True:
            me = s.human_seat
            assert (s.seat_names[(me + 1) % 3], s.seat_names[(me + 2) % 3]) == ("easy A", "easy B")
            assert s.state()["players"][(me + 1) % 3] == "easy A"
            deals = len(s.passed_out)
            while s.phase == "call" and len(s.passed_out) == deals:  # everyone passes, if the engines do
                if s.waiting_for_engine:
                    task = s.engine_task()
                    s.apply_engine(task, engine_answer(task))
                else:
                    s.apply("pass")
            if len(s.passed_out) == deals:
                break
            redeals += 1
    assert redeals  # a redeal was seen, and each opponent kept its place through it


def test_random_opponents_are_reproducible() -> None:
    a = _play_through(GameSession.new(11, 1, ("random",)), make_player("rule"))
    b = _play_through(GameSession.new(11, 1, ("random",)), make_player("rule"))
    assert a == b and a.players is not None and a.players.count(YOU) == 1


def _to_play(seed: int = 2) -> GameSession:
    """Deal 2 with the person at seat 0 (the Master), called: the person leads trick 1 (C1 is
    led, both others discard, and the deal goes on)."""
    s = GameSession.new(seed, 0)
    s.apply("play")
    return s


def test_an_illegal_move_is_refused_with_the_rules_reason_and_nothing_changes() -> None:
    s = _to_play()
    before = s.state()
    with pytest.raises(NotationError) as err:
        s.apply("C2")  # not in the hand
    assert err.value.field == "move" and "C2" in err.value.message
    with pytest.raises(NotationError):
        s.apply("C1T1")  # a pair is no play (R5)
    assert s.state() == before
    s.apply("C1")
    with pytest.raises(NotationError, match="not yours"):
        s.apply("C3")


def test_undo_goes_back_to_the_person_s_previous_decision() -> None:
    s = GameSession.new(2, 0)
    with pytest.raises(NotationError, match="nothing to undo"):
        s.undo()
    s.apply("play")
    s.apply("C1")
    while s.waiting_for_engine:
        task = s.engine_task()
        s.apply_engine(task, engine_answer(task))
    assert len(s.answers) > 2
    s.undo()
    assert s.answers == ["play"] and s.phase == "play" and s.choices()[0] == "C1"
    s.undo()
    assert s.answers == [] and s.phase == "call"


def test_no_undo_after_the_end() -> None:
    s = GameSession.new(74, 0)
    _play_through(s, make_player("rule"))
    assert s.phase == "over" and not s.can_undo
    with pytest.raises(NotationError, match="over"):
        s.undo()


def test_a_stale_engine_answer_is_refused() -> None:
    s = _to_play()
    s.apply("C1")
    task = s.engine_task()
    answer = engine_answer(task)
    s.undo()
    assert not s.apply_engine(task, answer)
    assert s.answers == ["play"]


def test_an_engine_task_answers_the_same_in_any_process() -> None:
    s = GameSession.new(7, 1, ("pimc",), level=1)
    task = s.engine_task()
    assert engine_answer(task) == engine_answer(task)
    assert task.view.startswith("0 ") and " - " in task.view  # seat 0's calling-phase view


def test_resume_from_the_record_mid_deal_and_finished() -> None:
    s = _to_play()
    s.apply("C1")
    while s.waiting_for_engine:
        task = s.engine_task()
        s.apply_engine(task, engine_answer(task))
    again = GameSession.from_record(GameRecord.loads(s.record.dumps()))
    assert again.state() == s.state() and again.answers == s.answers and again.can_undo
    _play_through(s, make_player("rule"))
    done = GameSession.from_record(s.record)
    assert done.phase == "over" and done.record == s.record


def test_a_record_that_is_not_the_seed_s_deal_is_not_resumed() -> None:
    s = _to_play()
    data = s.record.to_json()
    data["seed"] = 75
    with pytest.raises(NotationError) as err:
        GameSession.from_record(GameRecord.from_json(data))
    assert err.value.field == "record"
    data["seed"], data["players"] = 74, ["ann", "bob", "cy"]
    with pytest.raises(NotationError, match="played here"):
        GameSession.from_record(GameRecord.from_json(data))


def test_the_state_hides_other_seats_discards_until_the_end() -> None:
    s = _to_play()
    s.apply("C1")
    while s.waiting_for_engine:
        task = s.engine_task()
        s.apply_engine(task, engine_answer(task))
    st = s.state()
    shown = [p for t in st["tricks"] for p in t["plays"]]
    hidden = [p for p in shown if p["role"] == "discard" and p["seat"] != st["seat"]]
    assert hidden and all(p["play"].startswith("x") and p["play"][1:].isdigit() for p in hidden)
    assert st["hands"] is None
    _play_through(s, make_player("rule"))
    end = s.state()
    assert end["hands"] is not None and end["outcome"]["points"] == list(s.record.outcome.points)
    assert not any(p["play"][0] == "x" and p["play"][1:].isdigit() for t in end["tricks"] for p in t["plays"])


def test_the_state_carries_each_trick_s_best_play_winner_and_the_claim_total() -> None:
    """The page reads the rules' facts from the state and works none out: each trick's ``best``
    play (R8: the last face-up play), its ``winner`` (R10, null while open) and ``fu_won``, each
    play's ``shape`` and ``role``, and ``claim_total`` (R14, R16: fu won + Old cards) when the
    person may claim, as the record and the position have them."""
    seen_open = seen_claim = False
    for seed in range(2, 12):
        s = GameSession.new(seed, 0, ("easy", "easy"), level=1)
        for st in _person_turns(s):
            if st["phase"] == "call":
                s.apply("play" if seed % 2 else "pass")
                continue
            record_tricks = s.record.tricks()
            assert len(st["tricks"]) == len(record_tricks)
            for t, r in zip(st["tricks"], record_tricks, strict=True):
                assert (t["leader"], t["winner"], t["fu_won"]) == (r.leader, r.winner, r.fu_won)
                assert [p["shape"] for p in t["plays"]] == [KIND_NAMES[p.kind] for p in r.plays]
                assert [p["role"] for p in t["plays"]][0] == "lead"
                assert all(p["role"] == ("discard" if p["shape"] == "discard" else "beat") for p in t["plays"][1:])
                face_up = [i for i, p in enumerate(t["plays"]) if p["role"] != "discard"]
                assert t["best"] == face_up[-1]  # R8: each beat is the new best
                if r.winner is not None:
                    assert t["winner"] == t["plays"][t["best"]]["seat"]
                else:
                    seen_open = True
                    assert s.pos is not None and t["best"] == s.pos.best_i
            if "claim" in st["choices"]:
                seen_claim = True
                pos = s.pos
                assert pos is not None
                me = st["seat"]
                assert st["claim_total"] == pos.fu[me] + pos.old_cards(me).bit_count() >= 6
            else:
                assert st["claim_total"] is None
            s.apply("claim" if "claim" in st["choices"] else st["choices"][0])
        if s.record.plays[-1].kind == CLAIM:
            claim = s.state()["claim"]
            assert claim["total"] == s.record.outcome.total and claim["seat"] == s.record.outcome.winner
    assert seen_open and seen_claim
    assert "can_claim" not in s.state() and "dealt" not in GameSession.new(2, 0).state()


def test_bad_opponents_and_levels_name_their_field() -> None:
    with pytest.raises(NotationError) as err:
        GameSession.new(1, 0, ("stockfish",))
    assert err.value.field == "opponents"
    with pytest.raises(NotationError) as err:
        GameSession.new(1, 0, ("pimc",), level=9)
    assert err.value.field == "level"


def test_plain_strengths_are_recorded_by_name_as_play_records_them() -> None:
    got, want = _same_as_play_deal(74, 1, ("easy", "easy"))
    assert got == want and got.players is not None
    assert sorted(n for n in got.players if n != YOU) == ["easy A", "easy B"]
    resumed = GameSession.from_record(GameRecord.loads(got.dumps()))
    assert resumed.specs == ("easy", "easy") and resumed.record == got
    with pytest.raises(NotationError) as err:
        GameSession.new(1, 0, ["mighty"])
    assert err.value.field == "opponents" and "easy, medium, strong" in err.value.message


def test_the_state_offers_the_sensible_discards_first() -> None:
    """At a discard the state names the few sensible ones (the hint's own candidates, as lukfu
    play's menu offers them), every one legal; at any other decision none."""
    from lukfu_solver.analysis.hint import sensible_discards

    seen = 0
    for seed in range(12):
        s = GameSession.new(seed, 0, ("rule",), level=3)
        for state in _person_turns(s):
            choices = state["choices"]
            if s.phase == "play" and choices[0].startswith("x"):
                seen += 1
                assert state["sensible"] == [str(m) for m in sensible_discards(s.view())]
                assert state["sensible"] and set(state["sensible"]) <= set(choices)
            else:
                assert state["sensible"] == []
            s.apply("claim" if "claim" in choices else choices[-1])
    assert seen >= 3


def test_the_state_is_made_once_a_state_and_anew_after_an_undo() -> None:
    """A server answers with the state after every request: the same answers give the same
    state without recomputing it, and an undo (back to an earlier count of answers) recomputes."""
    s = GameSession.new(74, 0)
    s.apply("play")
    first = s.state()
    assert s.state() == first and s.state() is not first
    s.apply(s.choices()[0])
    moved = s.state()
    s.undo()  # no state asked for in between: the next is made anew all the same
    s.apply(s.choices()[-1])  # another first lead: the same count of answers as `moved`
    assert s.state()["tricks"] != moved["tricks"] and s.state() == GameSession.from_record(s.record).state()
