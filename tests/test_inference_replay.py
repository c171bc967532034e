"""The replay's own state of the deal (``hidden.inference.Replay``: hands, trick, best play,
face-up cards, fu, leader, seat to move, the end) is ``Position``'s, the one move engine's, after
every play of many seeded games (claims and the last trick's end included); a replay that
forgot the winner's fu is caught."""

from __future__ import annotations

from lukfu_solver.game import play_deal
from lukfu_solver.hidden.inference import Replay
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM
from lukfu_solver.policy.rule import RulePlayer, rule_move
from lukfu_solver.position import Position


def state(r: Replay) -> tuple:
    return (r.hands, r.fu, r.faceup, r.trick, r.best_i, r.leader, r.to_move, r.over)


def pos_state(pos: Position) -> tuple:
    return (list(pos.hands), list(pos.fu), pos.faceup, pos.trick, pos.best_i, pos.leader, pos.to_move, pos.is_over)


def test_the_replays_state_is_the_positions_after_every_play() -> None:
    claims = ends = plays = 0
    for k in range(120):
        table = [RulePlayer(), RandomPlayer(k), RulePlayer(4.0 + k % 4)]
        rot = k % 3
        rec = play_deal(table[rot:] + table[:rot], 900 + k)
        if rec.caller is None:
            continue
        replay = Replay(rule_move, rec.hands, rec.caller)
        pos = Position.start(rec.hands, rec.caller)
        assert state(replay) == pos_state(pos)
        for p in rec.plays:
            list(replay.advance([p]))
            pos.push(p)
            assert state(replay) == pos_state(pos)
            plays += 1
        claims += rec.plays[-1].kind == CLAIM
        ends += rec.plays[-1].kind != CLAIM and replay.over
        assert replay.over
        assert list(replay.advance(rec.plays[:1])) == [] and state(replay) == pos_state(pos)  # nothing after the end
    assert plays > 1500 and claims > 10 and ends > 10


def test_a_replay_that_forgets_the_fu_is_caught() -> None:
    """A wrong engine (the winner scores nothing) differs from ``Position`` in some game."""

    class Wrong(Replay):
        def push(self, move):  # type: ignore[no-untyped-def]
            fu = list(self.fu)
            super().push(move)
            self.fu[:] = fu

    differ = 0
    for k in range(10):
        rec = play_deal([RulePlayer(), RandomPlayer(k), RulePlayer()], 900 + k)
        if rec.caller is None:
            continue
        replay, pos = Wrong(rule_move, rec.hands, rec.caller), Position.start(rec.hands, rec.caller)
        for p in rec.plays:
            list(replay.advance([p]))
            pos.push(p)
            differ += state(replay) != pos_state(pos)
    assert differ > 0
