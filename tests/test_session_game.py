"""The one game of a person against two engines (lukfu_solver/session.py on game.Game): the
terminal and the browser play the same game from the same answers, a resumed game keeps each
engine at its person, and the opponents have one grammar whose bad names are clean errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.errors import NotationError
from lukfu_solver.game import Game
from lukfu_solver.record import GameRecord
from lukfu_solver.session import YOU, GameSession, engine_answer, engine_level, parse_opponents


def _answer_engines(s: GameSession) -> None:
    while s.waiting_for_engine:
        task = s.engine_task()
        assert s.apply_engine(task, engine_answer(task))


@pytest.mark.parametrize(("seed", "seat", "opponents"), [(5, 0, "rule"), (11, 2, "rule:4,easy"), (74, 1, "easy")])
def test_the_terminal_and_the_browser_play_the_same_game(seed: int, seat: int, opponents: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["play", "--seed", str(seed), "--seat", str(seat), "--opponents", opponents, "--record", str(path)]
    res = CliRunner().invoke(app, args, input="1\n" * 80)
    assert res.exit_code == 0, res.output
    played = GameRecord.load(path)
    mine = [a for a, p in zip(Game.from_record(played).answers, Game.from_record(played).persons, strict=True)]
    session = GameSession.new(seed, seat, opponents, level=3)
    persons = Game.from_record(played).persons
    for answer, person in zip(mine, persons, strict=True):
        if person == session.human:
            session.apply(answer)
        else:
            _answer_engines(session)
    _answer_engines(session)
    assert session.record == played


def test_undo_at_the_terminal_is_the_game_s_undo(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    script = "1\n1\nundo\nundo\n2\n" + "1\n" * 80  # play, a lead, both taken back, then pass
    res = CliRunner().invoke(app, ["play", "--seed", "5", "--seat", "0", "--record", str(path)], input=script)
    assert res.exit_code == 0 and res.output.count("Taking back your answer") == 2
    rec = GameRecord.load(path)
    assert (rec.passed_out[0] if rec.passed_out else rec.hands) == Game(5).hands
    assert (GameRecord(rec.passed_out[0], ("pass",) * 3, (), None) if rec.passed_out else rec).calls[0] == "pass"
    session = GameSession.new(5, 0, "easy")
    session.apply("play")
    lead = session.choices()[0]
    session.apply(lead)
    _answer_engines(session)
    assert session.undo() == lead and session.undo() == "play"
    assert session.answers == [] and session.phase == "call" and not session.can_undo


def _advance(s: GameSession, answers: int) -> None:
    """The engines answer, and the person answers its first choice (``play`` at the call), ``answers`` times."""
    for _ in range(answers):
        _answer_engines(s)
        if s.phase == "over":
            return
        s.apply(s.choices()[0])


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_resumed_game_keeps_each_engine_at_its_person(seat: int) -> None:
    s = GameSession.new(74, seat, ["random", "rule:4"], level=2)
    _advance(s, 6)
    back = GameSession.from_record(GameRecord.loads(s.record.dumps()), level=2)  # the hints' level is not in a record
    assert back.record == s.record and back.names == s.names and back.human == s.human
    assert back.engines == s.engines and back.engine_seeds == s.engine_seeds and back.specs == s.specs
    assert back.state() == s.state()
    _advance(s, 40)
    _advance(back, 40)
    assert s.phase == "over" and back.record == s.record


@pytest.mark.parametrize("bad", ["pimc:x", "pimc:", "ipimc:", "pimc:1e3", "pimc: 3", "bogus"])
def test_a_bad_engine_name_in_a_record_is_a_clean_error(bad: str) -> None:
    rec = GameSession.new(2, 0).record
    players = (YOU, bad, "rule")
    with pytest.raises(NotationError) as info:
        GameSession.from_record(GameRecord(rec.hands, rec.calls, rec.plays, None, players, rec.seed))
    assert info.value.field == "record: players" and "\n" not in info.value.message


def test_one_grammar_of_the_opponents() -> None:
    assert parse_opponents("Medium", 2) == parse_opponents(["medium"], 2) == parse_opponents(["medium", "medium"], 2)
    assert [o.name for o in parse_opponents(["pimc", "pimc:2"], 2)] == ["pimc:2 A", "pimc:2 B"]
    assert [o.engine for o in parse_opponents("strong,rule:4.5", 1)] == ["ipimc", "rule:4.5"]
    for bad, field in [("", "opponents"), ("a,b,c", "opponents"), ("pimc:", "opponents"), ("rule,", "opponents")]:
        with pytest.raises(NotationError) as info:
            parse_opponents(bad, 3)
        assert info.value.field == field
    with pytest.raises(NotationError) as info:
        parse_opponents("rule", 6)
    assert info.value.field == "level"
    assert [engine_level(e) for e in ("pimc:2", "ipimc:4:3c", "pimc", "rule", "pimc:3:0")] == [2, 4, 3, None, 3]
