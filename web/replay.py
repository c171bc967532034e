"""A record laid out step by step for the replay slider: after each play, every hand, the Old
cards, the fu, the trick on the table and what the play did (the rules' facts, from the record's
:class:`~lukfu_solver.history.DealHistory`; the page words them)."""

from __future__ import annotations

from typing import Any

from lukfu_solver.cards import format_cards, old_cards
from lukfu_solver.history import Trick, play_role
from lukfu_solver.record import GameRecord


def replay_steps(rec: GameRecord) -> list[dict[str, Any]]:
    """Step 0 is the deal as the calls left it; step i the table after play i. Checks the record
    against the rules first (:meth:`GameRecord.replay`: the first illegal play is named)."""
    positions = rec.replay()
    if not positions:  # still at the call: the dealt hands only
        return [_step(rec.hands, [0, 0, 0], 0, None, [], None, None)]
    history = rec.history
    where = [(t, i) for t in history.tricks for i in range(len(t.plays))]  # each play's trick and place
    steps = []
    for n, pos in enumerate(positions):
        trick = [{"seat": (pos.leader + k) % 3, "play": str(p), "kind": play_role(k, p)} for k, p in enumerate(pos.trick)]
        done = move = None
        if n:
            last = rec.plays[n - 1]
            if n - 1 < len(where):
                t, place = where[n - 1]
                move = {"seat": t.seat(place), "play": str(last), "kind": t.role(place)}
                if t.complete and place == 2:
                    done = {"plays": _plays(t), "winner": t.winner, "fu_won": t.fu_won}
            else:  # the claim that ended the deal
                claim = history.claim
                assert claim is not None
                move = {"seat": claim.seat, "play": str(last), "kind": "claim"}
                move["old"] = format_cards(claim.old)
                move["total"] = claim.total
        steps.append(_step(pos.hands, list(pos.fu), pos.faceup, None if pos.is_over else pos.to_move, trick, done, move))
    final = positions[-1]
    if final.outcome is not None:
        steps[-1]["outcome"] = final.outcome.to_json()
    return steps


def _plays(trick: Trick) -> list[dict[str, Any]]:
    """A trick's plays, each with its seat and what it did (``lead``, ``beat``, ``discard``)."""
    return [{"seat": trick.seat(k), "play": str(p), "kind": trick.role(k)} for k, p in enumerate(trick.plays)]


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
