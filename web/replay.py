"""A record laid out step by step for the replay slider: after each play, every hand, the Old
cards, the fu, the trick on the table and what the play did (the rules' facts, from the record's
:class:`~lukfu_solver.history.DealHistory`; the page words them).

The trick and its plays have the game state's shapes (:meth:`lukfu_solver.history.Trick.table_json`):
``leader``, ``plays`` (``seat``, ``play``, ``shape``, ``role``), ``best``, ``winner`` (set once
the trick is complete), ``fu_won``; a claim's move carries its ``fu``, ``old``, ``total`` and ``worth``;
``trick_number`` counts tricks from 1 (0 before the first lead), ``tricks`` in the answer is
how many the deal had."""

from __future__ import annotations

from typing import Any

from lukfu_solver.cards import format_cards, old_cards
from lukfu_solver.history import Trick, play_json
from lukfu_solver.record import GameRecord


def replay_steps(rec: GameRecord) -> list[dict[str, Any]]:
    """Step 0 is the deal as the calls left it; step i the table after play i. Checks the record
    against the rules first (:meth:`GameRecord.replay`: the first illegal play is named)."""
    positions = rec.replay()
    if not positions:  # still at the call: the dealt hands only
        return [_step(rec.hands, [0, 0, 0], 0, None, None, None, 0)]
    history = rec.history
    first = positions[0]
    steps = [_step(first.hands, list(first.fu), first.faceup, first.to_move, None, None, 0)]
    for i in range(1, len(positions)):
        pos = positions[i]
        number = (i - 1) // 3 + 1  # the trick this play is part of (a claim: the trick it would lead)
        if number > len(history.tricks) or (i - 1) % 3 >= len(history.tricks[number - 1].plays):
            claim = history.claim  # the claim that ended the deal
            assert claim is not None
            move = play_json(claim.seat, rec.plays[i - 1], 0)
            move.update(claim.to_json(rec.caller))  # fu, old, total and its worth
            trick = None
        else:
            t = history.tricks[number - 1]
            k = (i - 1) % 3
            trick = Trick.of(t.leader, t.plays[: k + 1]).table_json()
            move = trick["plays"][k]
        to_move = None if pos.is_over else pos.to_move
        steps.append(_step(pos.hands, list(pos.fu), pos.faceup, to_move, trick, move, number))
    final = positions[-1]
    if final.outcome is not None:
        steps[-1]["outcome"] = final.outcome.to_json()
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
