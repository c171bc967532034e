"""The game object (lukfu_solver/game.py Game): answers pushed one at a time and checked, taken
back (pop, rewind) to exactly the state before, resumed from a record (R2, R3 redeals included),
and play_deal's table loop over it."""

from __future__ import annotations

import pytest

from lukfu_solver.errors import NotationError
from lukfu_solver.game import Game, IllegalMove, deal_from_seed, play_deal
from lukfu_solver.players import make_player
from lukfu_solver.plays import Play
from lukfu_solver.record import GameRecord


def _state(g: Game) -> tuple:
    """Everything a reader of the game sees."""
    seat = g.to_move
    return (g.record, g.phase, seat, g.legal_answers(), None if seat is None else str(g.view(seat)), g.master)


def _played(seed: int) -> tuple[Game, list[tuple]]:
    """A whole deal of rule players pushed into a Game, with the state before every answer."""
    players = [make_player("rule"), make_player("rule:4"), make_player("random", seed)]
    g = Game(seed, ("a", "b", "c"))
    states = []
    while g.phase != "over":
        states.append(_state(g))
        s = g.to_move
        assert s is not None
        g.push(players[g.person_at(s)](g.view(s)))
    states.append(_state(g))
    return g, states


@pytest.mark.parametrize("seed", [3, 7, 12, 74])
def test_the_table_loop_is_the_game_s(seed: int) -> None:
    g, _ = _played(seed)
    players = [make_player("rule"), make_player("rule:4"), make_player("random", seed)]
    assert g.record == play_deal(players, seed, names=("a", "b", "c"))
    assert g.record.replay()


@pytest.mark.parametrize("seed", [3, 12])
def test_rewind_and_pop_restore_each_earlier_state(seed: int) -> None:
    g, states = _played(seed)
    for n in range(len(states) - 1, -1, -1):
        g.rewind(n)
        assert _state(g) == states[n] and len(g.answers) == n
    with pytest.raises(NotationError, match="nothing to undo"):
        g.pop()
    g.push(g.legal_answers()[0])
    g.pop()
    assert _state(g) == states[0]


def _passing(seed: int) -> Game:
    """The game of ``seed`` with every seat passing once: the cards are dealt again (R3)."""
    g = Game(seed)
    for _ in range(3):
        g.push("pass")
    return g


def test_r3_a_third_pass_deals_again_and_pop_takes_it_back() -> None:
    g = _passing(12)
    assert g.passed_out == [deal_from_seed(12)] and g.calls == [] and g.phase == "call"
    assert g.hands != deal_from_seed(12)
    second = _state(g)
    g.pop()
    assert g.passed_out == [] and g.calls == ["pass", "pass"] and g.hands == deal_from_seed(12)
    g.push("pass")
    done = g.passed_out_record(-1)  # the deal passed out, with its seats' names
    assert done.calls == ("pass", "pass", "pass") and done.hands == deal_from_seed(12) and done.passed_out == ()
    assert done.players == tuple(g.names[(g.masters[0] + s) % 3] for s in range(3)) and len(g.masters) == 2
    assert _state(g) == second


def test_an_illegal_answer_is_refused_and_changes_nothing() -> None:
    g = Game(7, ("x", "y", "z"))
    before = _state(g)
    with pytest.raises(IllegalMove, match="'play' or 'pass'"):
        g.push("maybe")
    g.push("play")
    before = _state(g)
    with pytest.raises(IllegalMove) as info:
        g.push(Play.parse("S9") if "S9" not in g.legal_answers() else Play.parse("C1C2"))
    assert info.value.field == "move" and info.value.seat == 0
    assert _state(g) == before


@pytest.mark.parametrize("seed", [3, 12, 74])
def test_resume_from_the_record_at_every_point(seed: int) -> None:
    g, states = _played(seed)
    answers = list(g.answers)
    for n in range(0, len(answers) + 1, 4):
        part = Game(seed, g.names)
        for a in answers[:n]:
            part.push(a)
        resumed = Game.from_record(GameRecord.loads(part.record.dumps()))
        assert _state(resumed) == _state(part) == states[n] and resumed.names == part.names
    redealt = _passing(12)
    assert _state(Game.from_record(redealt.record)) == _state(redealt)


def test_a_record_whose_hands_the_seed_does_not_deal_is_refused() -> None:
    g, _ = _played(3)
    other = _played(4)[0].record
    with pytest.raises(NotationError, match="its hands are not the ones its seed deals"):
        Game.from_record(GameRecord(other.hands, other.calls, other.plays, other.outcome, other.players, 3))
    with pytest.raises(NotationError, match="seed"):
        Game.from_record(GameRecord(g.record.hands, (), (), None))
