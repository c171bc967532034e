"""The rules as functions on card masks: leads (R5–R7), beating plays (R8–R9), discards, claims
(R14) and the end of a deal (R15–R17).

These generators are the one legal-move generator of the project: the position, the seat
view and the search all call them, so they can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any, NamedTuple

from .cards import (
    RANK_MASK,
    RUNS9,
    SUIT_MASK,
    SUIT_MASK9,
    UNBEATABLE_LEAD,
    CardSet,
    old_cards,
)
from .plays import DISCARD, RUN, SET, SINGLE, Play

CLAIM_AT = 6
"""R14/R15: six fu (plus Old cards, for a claim) wins."""


# ---------------------------------------------------------------- leads


def can_claim(fu: int, hand: CardSet, faceup: CardSet) -> bool:
    """R14: a player about to lead may claim when fu won + Old cards in hand ≥ 6."""
    return fu + old_cards(hand, faceup).bit_count() >= CLAIM_AT


def claim_total(fu: int, hand: CardSet, faceup: CardSet) -> int:
    """R16: the total T of a claim, fu won plus the Old cards shown."""
    return fu + old_cards(hand, faceup).bit_count()


def single_leads(hand: CardSet, faceup: CardSet, is_caller: bool) -> CardSet:
    """R7: the cards that may be led as a single.

    The caller may lead any card. A non-caller leads a non-Old card of the highest suit that
    holds a non-Old card; only with an all-Old hand may they lead any (Old) card.
    """
    if is_caller:
        return hand
    nonold = hand & ~old_cards(hand, faceup)
    if not nonold:
        return hand
    top_suit = (nonold.bit_length() - 1) // 9
    return nonold & SUIT_MASK[top_suit]


def lead_plays(hand: CardSet, faceup: CardSet, is_caller: bool, passed_master: bool) -> Iterator[Play]:
    """Every legal lead (R5–R7), claims excluded: singles, then sets, then runs.

    ``passed_master`` is true for seat 0 when the caller is another seat (R6: no four-card
    set and no run of four or more).
    """
    singles = single_leads(hand, faceup, is_caller)
    while singles:
        low = singles & -singles
        yield Play(SINGLE, low, 1)
        singles ^= low
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        n = m.bit_count()
        if n < 3:
            continue
        if n == 3:
            yield Play(SET, m, 3)
            continue
        rest = m
        while rest:  # the four three-card sets: drop one card each
            low = rest & -rest
            yield Play(SET, m ^ low, 3)
            rest ^= low
        if not passed_master:
            yield Play(SET, m, 4)
    for s in range(4):
        shift = 9 * s
        for run in RUNS9[(hand >> shift) & SUIT_MASK9]:
            size = run.bit_count()
            if passed_master and size >= 4:
                continue
            yield Play(RUN, run << shift, size)


# ---------------------------------------------------------------- following


def beating_plays(hand: CardSet, best: Play, best_led: bool) -> Iterator[Play]:
    """Every play from ``hand`` that beats ``best``, the current best play of the trick (R8).

    ``best_led``: ``best`` is the lead (a led C1/T1 cannot be beaten; a led set of 1s only by 9s).
    """
    kind = best.kind
    if kind == SINGLE:
        if best_led and best.cards & UNBEATABLE_LEAD:
            return
        top = best.cards.bit_length() - 1
        suit_end = (top // 9 + 1) * 9
        higher = hand & ((1 << suit_end) - (1 << (top + 1)))
        while higher:
            low = higher & -higher
            yield Play(SINGLE, low, 1)
            higher ^= low
    elif kind == SET:
        k = best.size
        r0 = best.rank
        ranks = (9,) if best_led and r0 == 1 else range(r0 + 1, 10)
        for r in ranks:
            m = hand & RANK_MASK[r]
            n = m.bit_count()
            if n < k:
                continue
            if n == k:
                yield Play(SET, m, k)
            else:  # four held, three needed
                rest = m
                while rest:
                    low = rest & -rest
                    yield Play(SET, m ^ low, 3)
                    rest ^= low
    elif kind == RUN:
        length = best.size
        bsuit = best.suit
        btop = best.rank
        for s in range(bsuit, 4):
            shift = 9 * s
            for run in RUNS9[(hand >> shift) & SUIT_MASK9]:
                if run.bit_count() != length:
                    continue
                if s == bsuit and run.bit_length() <= btop:
                    continue
                yield Play(RUN, run << shift, length)


def discard_plays(hand: CardSet, size: int) -> Iterator[Play]:
    """Every face-down discard of ``size`` cards from ``hand`` (R9), low ranks first."""
    cards = []
    m = hand
    while m:
        low = m & -m
        cards.append(low)
        m ^= low
    cards.sort(key=_rank_major)
    if size == 1:
        for c in cards:
            yield Play(DISCARD, c, 1)
        return
    for combo in combinations(cards, size):
        yield Play(DISCARD, sum(combo), size)


def _rank_major(b: int) -> int:
    i = b.bit_length() - 1
    return (i % 9) * 4 + i // 9


def follow_plays(hand: CardSet, best: Play, best_led: bool, size: int) -> Iterator[Play]:
    """R9: the beating plays if there is one, otherwise every discard of ``size`` cards."""
    any_beat = False
    for p in beating_plays(hand, best, best_led):
        any_beat = True
        yield p
    if not any_beat:
        yield from discard_plays(hand, size)


def can_beat(hand: CardSet, best: Play, best_led: bool) -> bool:
    """True when ``hand`` holds a play that beats ``best`` (so a discard would be illegal)."""
    return next(beating_plays(hand, best, best_led), None) is not None


# ---------------------------------------------------------------- end of the deal


class Outcome(NamedTuple):
    """How a deal ended: ``winner`` seat (None when void), total ``T``, ``how`` and net points.

    ``how`` is ``"claim"`` (R14), ``"end"`` (hands ran out with a winner, R15) or ``"void"``.
    ``points`` are the net points of seats 0, 1, 2 (R16–R17), summing to zero.
    """

    winner: int | None
    total: int
    how: str
    points: tuple[int, int, int]

    def to_json(self, points: bool = True) -> dict[str, Any]:
        """``{"winner", "total", "how", "points"}``: a record's ``result``, the game's outcome
        for the web table; without ``points``, the ``outcome`` of ``show --json`` and ``replay
        --json``, which give the points beside it."""
        data: dict[str, Any] = {"winner": self.winner, "total": self.total, "how": self.how}
        if points:
            data["points"] = list(self.points)
        return data


class Worth(NamedTuple):
    """R16–R17: what a win with total T is worth and who pays it: ``points``, T − 5, is one share;
    ``paid_by`` is ``others`` when the caller wins (each of the other two pays it a share) or
    ``caller`` when a non-caller wins (the caller alone pays it two shares); ``net`` the net points
    by seat that follow (:func:`payments`)."""

    points: int
    paid_by: str
    net: tuple[int, int, int]

    def to_json(self) -> dict[str, Any]:
        """``{"points", "paid_by", "net"}``: the web table says a claim's worth from it."""
        return {"points": self.points, "paid_by": self.paid_by, "net": list(self.net)}


def worth(winner: int, total: int, caller: int) -> Worth:
    """What ``winner``'s win with total ``total`` is worth against ``caller`` (R16–R17).

    >>> worth(1, 7, 1), worth(2, 6, 0).paid_by
    (Worth(points=2, paid_by='others', net=(-2, 4, -2)), 'caller')
    """
    return Worth(total - 5, "others" if winner == caller else "caller", payments(winner, total, caller))


def payments(winner: int, total: int, caller: int) -> tuple[int, int, int]:
    """R16–R17: net points of seats 0, 1, 2 when ``winner`` wins with total ``total``.

    >>> payments(1, 7, 1), payments(2, 6, 0)
    ((-2, 4, -2), (-2, 0, 2))
    """
    p = total - 5
    pts = [0, 0, 0]
    if winner == caller:
        pts = [-p, -p, -p]
        pts[caller] = 2 * p
    else:
        pts[winner] = 2 * p
        pts[caller] = -2 * p
    return (pts[0], pts[1], pts[2])


def claim_outcome(seat: int, total: int, caller: int) -> Outcome:
    """The outcome of a claim by ``seat`` with total ``total`` (R14, R16, R17)."""
    return Outcome(seat, total, "claim", payments(seat, total, caller))


def end_outcome(fu: tuple[int, int, int] | list[int], last_winner: int, caller: int) -> Outcome:
    """R15: the hands ran out. A player with six fu or more wins with T = their fu; with two at
    six, the winner of the last trick; with none, the deal is void."""
    at_six = [s for s in range(3) if fu[s] >= CLAIM_AT]
    if not at_six:
        return Outcome(None, 0, "void", (0, 0, 0))
    winner = at_six[0] if len(at_six) == 1 else last_winner
    return Outcome(winner, fu[winner], "end", payments(winner, fu[winner], caller))


def higher_in_suit(mask: CardSet, card: int) -> CardSet:
    """The cards of ``mask`` in ``card``'s suit above ``card``."""
    suit_end = (card // 9 + 1) * 9
    return mask & ((1 << suit_end) - (1 << (card + 1)))


def discard_proves_none_higher(best: Play, trick: Sequence[Play]) -> bool:
    """Whether a discard against ``best`` proves the discarder held no higher card of its suit
    (R9): ``best`` is a single, and not a led C1 or T1, which nothing beats (R8)."""
    return best.kind == SINGLE and not (best is trick[0] and best.cards & UNBEATABLE_LEAD)
