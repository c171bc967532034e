"""A record laid out step by step for the replay slider: after each play, every hand, the Old
cards, the fu, the trick on the table and what the play did (the rules' facts; the page words them)."""

from __future__ import annotations

from typing import Any

from lukfu_solver.cards import format_cards, old_cards
from lukfu_solver.plays import CLAIM, DISCARD, KIND_NAMES
from lukfu_solver.record import GameRecord


def replay_steps(rec: GameRecord) -> list[dict[str, Any]]:
    """Step 0 is the deal as the calls left it; step i the table after play i. Checks the record
    against the rules first (:meth:`GameRecord.replay`: the first illegal play is named)."""
    positions = rec.replay()
    if not positions:  # still at the call: the dealt hands only
        return [_step(rec.hands, [0, 0, 0], 0, None, [], None, None)]
    steps = []
    for i, pos in enumerate(positions):
        last = rec.plays[i - 1] if i else None
        before = positions[i - 1] if i else None
        trick = []
        if pos.trick:
            trick = [{"seat": (pos.leader + k) % 3, "play": str(p), "kind": _kind(p, k)} for k, p in enumerate(pos.trick)]
        done = None
        if before is not None and last is not None and last.kind != CLAIM and not pos.trick:
            lead = before.leader
            plays = list(before.trick) + [last]
            winner = _winner(lead, plays)
            done = {
                "plays": [{"seat": (lead + k) % 3, "play": str(p), "kind": _kind(p, k)} for k, p in enumerate(plays)],
                "winner": winner,
                "fu_won": pos.fu[winner] - before.fu[winner],
            }
        move = None
        if last is not None and before is not None:
            k = len(before.trick)
            move = {"seat": before.to_move, "play": str(last), "kind": "claim" if last.kind == CLAIM else _kind(last, k)}
            if last.kind == CLAIM:
                shown = before.old_cards(before.to_move)
                move["old"] = format_cards(shown)
                move["total"] = before.fu[before.to_move] + shown.bit_count()
        steps.append(_step(pos.hands, list(pos.fu), pos.faceup, None if pos.is_over else pos.to_move, trick, done, move))
    final = positions[-1]
    if final.outcome is not None:
        o = final.outcome
        steps[-1]["outcome"] = {"winner": o.winner, "total": o.total, "how": o.how, "points": list(o.points)}
    return steps


def _kind(play: Any, place: int) -> str:
    """``lead`` for the first play of a trick, else the play's kind (``discard`` or a beat)."""
    if place == 0:
        return "lead"
    return "discard" if play.kind == DISCARD else "beat" if play.kind != CLAIM else KIND_NAMES[CLAIM]


def _winner(leader: int, plays: list[Any]) -> int:
    """The seat whose face-up play is last in a complete trick (R8–R10: each beat is the best)."""
    best = 0
    for k, p in enumerate(plays):
        if p.kind != DISCARD:
            best = k
    return (leader + best) % 3


def _step(
    hands: Any, fu: list[int], faceup: int, to_move: int | None, trick: list[Any], done: Any, move: Any
) -> dict[str, Any]:
    return {
        "hands": [format_cards(h) for h in hands],
        "old": [format_cards(old_cards(h, faceup)) for h in hands],
        "fu": fu,
        "to_move": to_move,
        "trick": trick,
        "trick_done": done,
        "move": move,
    }
