"""A record laid out step by step for the replay slider: after each play, every hand, the Old
cards, the fu, the trick on the table and what the play did (the rules' facts; the page words them).

The trick and its plays have the game state's shapes (:func:`lukfu_solver.session.trick_json`):
``leader``, ``plays`` (``seat``, ``play``, ``shape``, ``role``), ``best``, ``winner`` (set once
the trick is complete), ``fu_won``; a claim's move carries its ``fu``, ``old`` and ``total``;
``trick_number`` counts tricks from 1 (0 before the first lead), ``tricks`` in the answer is
how many the deal had."""

from __future__ import annotations

from typing import Any

from lukfu_solver.cards import format_cards, old_cards
from lukfu_solver.plays import CLAIM
from lukfu_solver.record import GameRecord
from lukfu_solver.rules import claim_total
from lukfu_solver.session import play_json, trick_json


def replay_steps(rec: GameRecord) -> list[dict[str, Any]]:
    """Step 0 is the deal as the calls left it; step i the table after play i. Checks the record
    against the rules first (:meth:`GameRecord.replay`: the first illegal play is named)."""
    positions = rec.replay()
    if not positions:  # still at the call: the dealt hands only
        return [_step(rec.hands, [0, 0, 0], 0, None, None, None, 0)]
    tricks = rec.tricks()
    first = positions[0]
    steps = [_step(first.hands, list(first.fu), first.faceup, first.to_move, None, None, 0)]
    for i in range(1, len(positions)):
        pos, before, last = positions[i], positions[i - 1], rec.plays[i - 1]
        number = (i - 1) // 3 + 1  # the trick this play is part of (a claim: the trick it would lead)
        if last.kind == CLAIM:
            s = before.to_move
            move = play_json(s, last, 0)
            total = claim_total(before.fu[s], before.hands[s], before.faceup)
            move.update(fu=before.fu[s], old=format_cards(before.old_cards(s)), total=total)
            trick = None
        else:
            t = tricks[number - 1]
            k = (i - 1) % 3
            plays = t.plays[: k + 1]
            done = k == 2
            best = (t.winner - t.leader) % 3 if done and t.winner is not None else pos.best_i
            trick = trick_json(t.leader, plays, best, t.winner if done else None, t.fu_won if done else 0)
            move = trick["plays"][k]
        to_move = None if pos.is_over else pos.to_move
        steps.append(_step(pos.hands, list(pos.fu), pos.faceup, to_move, trick, move, number))
    final = positions[-1]
    if final.outcome is not None:
        o = final.outcome
        steps[-1]["outcome"] = {"winner": o.winner, "total": o.total, "how": o.how, "points": list(o.points)}
    return steps


def _step(
    hands: Any, fu: list[int], faceup: int, to_move: int | None, trick: Any, move: Any, number: int
) -> dict[str, Any]:
    return {
        "trick_number": number,
        "hands": [format_cards(h) for h in hands],
        "old": [format_cards(old_cards(h, faceup)) for h in hands],
        "fu": fu,
        "to_move": to_move,
        "trick": trick,
        "move": move,
    }
