"""What a seat knows at one of its decisions, as card masks: the one type the rule player reads
and the opponent model rebuilds in its replays (``hidden.inference``), from a seat view or a
full position."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import CardSet
from ..plays import DISCARD, Play
from ..position import Position
from ..rules import discard_proves_none_higher
from ..view import SeatView


class SeatFacts(NamedTuple):
    """The facts a rule decision needs, as card masks: from a seat view, a full position or a
    replayed deal.

    ``out[s]`` are the cards seat ``s`` may hold in the deciding seat's eyes (0 for the seat to
    move): in a view the unseen cards less what the seat's discards proved it did not hold; in a
    position its actual hand.
    """

    seat: int
    hand: CardSet
    caller: int
    fu: tuple[int, ...]
    faceup: CardSet  # face-up cards of completed tricks (claims, R7)
    seen_up: CardSet  # … and of the trick in progress (Old cards)
    out: tuple[CardSet, CardSet, CardSet]
    trick: tuple[Play, ...]
    best_i: int


def facts_from_view(view: SeatView) -> SeatFacts:
    """The rule facts of a view whose seat is to move in the play phase.

    A hidden discard against a single (but a led C1 or T1) proves that the discarding seat held
    no higher card of that suit then, hence none now (R9): those cards are removed from its ``out``.
    """
    assert view.caller is not None
    unseen = view.unseen
    out = [0 if s == view.seat or view.hand_sizes[s] == 0 else unseen for s in range(3)]
    for tr in view.history.tricks:
        for i, p in enumerate(tr.plays):
            if not i or p.kind != DISCARD:
                continue
            s = (tr.leader + i) % 3
            if s != view.seat:
                best = tr.plays[tr.best_before(i)]
                if discard_proves_none_higher(best, tr.plays):
                    top = best.cards.bit_length() - 1
                    suit_end = (top // 9 + 1) * 9
                    out[s] &= ~((1 << suit_end) - (1 << (top + 1)))
    trick = view.trick
    cur = view.history.current
    best_i = 0 if cur is None else cur.best
    up = view.faceup
    seen = up
    for p in trick:
        if p.kind != DISCARD:
            seen |= p.cards
    return SeatFacts(view.seat, view.hand, view.caller, view.fu, up, seen, (out[0], out[1], out[2]), trick, best_i)


def facts_from_position(pos: Position) -> SeatFacts:
    """The rule facts of the seat to move in a full position (every hand known)."""
    s = pos.to_move
    h = pos.hands
    out = (0 if s == 0 else h[0], 0 if s == 1 else h[1], 0 if s == 2 else h[2])
    return SeatFacts(
        s, h[s], pos.caller, tuple(pos.fu), pos.faceup, pos.faceup | pos.trick_faceup, out, pos.trick, pos.best_i
    )
