"""The rule player: simple principles of play and calling (a baseline, PIMC's playout policy
and the opponent model's rule policy), read from a seat's facts (``policy.facts``); its call is
``policy.calling``'s."""

from __future__ import annotations

import math

from ..cards import RANK_MASK, RUNS9, SUIT_MASK9, CardSet, iter_cards, old_cards
from ..plays import CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play
from ..position import Position
from ..rules import beating_plays, can_beat, can_claim, higher_in_suit, lead_plays, single_leads
from ..view import SeatView
from .calling import DEFAULT_CALL_THRESHOLD, rule_call
from .facts import SeatFacts, facts_from_position, facts_from_view


def _combo_cards(hand: CardSet) -> tuple[CardSet, CardSet]:
    """The cards of ``hand`` that are in a set (3+ of a rank) and in a run (3+ in suit)."""
    in_set = 0
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3:
            in_set |= m
    in_run = 0
    for s in range(4):
        for run in RUNS9[(hand >> (9 * s)) & SUIT_MASK9]:
            in_run |= run << (9 * s)
    return in_set, in_run


def keep_values(hand: CardSet, old: CardSet, out: CardSet) -> dict[int, int]:
    """How much each card of ``hand`` is worth keeping (higher: keep longer).

    Old cards count towards a claim (R14) and are kept longest, then cards of sets and runs
    (multi-card leads), then by how few unseen cards top them, then by rank.
    """
    in_set, in_run = _combo_cards(hand)
    values = {}
    for c in iter_cards(hand):
        b = 1 << c
        rank = c % 9 + 1
        if b & old:
            v = 1000 + rank
        elif b & in_set:
            v = 300 + 10 * rank
        elif b & in_run:
            v = 200 + 10 * rank
        else:
            v = 100 - 25 * higher_in_suit(out, c).bit_count() + rank
        values[c] = v
    return values


def keep_cost(cards: CardSet, values: dict[int, int]) -> int:
    """What playing ``cards`` gives up: the sum of their keep ``values``."""
    return sum(values[c] for c in iter_cards(cards))


def seat_keep_values(facts: SeatFacts) -> dict[int, int]:
    """:func:`keep_values` of the hand of the seat deciding: its Old cards by what it has seen,
    against the cards the other two seats may hold."""
    s = facts.seat
    return keep_values(
        facts.hand, old_cards(facts.hand, facts.seen_up), facts.out[(s + 1) % 3] | facts.out[(s + 2) % 3]
    )


def discard_order(hand: CardSet, values: dict[int, int]) -> list[int]:
    """The cards of ``hand``, least worth keeping first (by ``values``, then low ranks): the
    order the rule player discards in."""
    return sorted(iter_cards(hand), key=lambda c: (values[c], c % 9, c))


def _pick_discard(hand: CardSet, size: int, values: dict[int, int]) -> Play:
    """The ``size`` cards least worth keeping, face down (R9)."""
    order = discard_order(hand, values)
    return Play(DISCARD, sum(1 << c for c in order[:size]), size)


def beat_risk(play: Play, out: CardSet) -> float:
    """A rough chance that one opponent holds a play beating the set or run ``play`` led, from
    the cards ``out`` they may hold (each card taken to be in a given hand with chance 1/2)."""
    risk = 0.0
    k = play.size
    if play.kind == SET:
        ranks = (9,) if play.rank == 1 else range(play.rank + 1, 10)
        for r in ranks:
            c = (out & RANK_MASK[r]).bit_count()
            if c >= k:
                risk += 2 * math.comb(c, k) * 0.5**k
    elif play.kind == RUN:
        for s in range(play.suit, 4):
            for run in RUNS9[(out >> (9 * s)) & SUIT_MASK9]:
                if run.bit_count() == k and (s > play.suit or run.bit_length() > play.rank):
                    risk += 2 * 0.5**k
    return min(risk, 1.0)


def rule_move(facts: SeatFacts) -> Play:
    """The rule player's move for the seat to move (see :class:`RulePlayer`)."""
    if facts.trick:
        return _rule_follow(facts)
    return _rule_lead(facts)


def _rule_lead(facts: SeatFacts) -> Play:
    s, hand, faceup = facts.seat, facts.hand, facts.faceup
    is_caller = s == facts.caller
    old = old_cards(hand, faceup)
    o1, o2 = facts.out[(s + 1) % 3], facts.out[(s + 2) % 3]
    out = o1 | o2
    leads = list(lead_plays(hand, faceup, is_caller, s == 0 and facts.caller != 0))
    # 1. cash a lead nobody can beat that adds to the total (non-Old cards), largest gain first
    best: tuple[int, int, Play] | None = None
    for p in leads:
        gain = p.size - (p.cards & old).bit_count()
        if gain > 0 and not can_beat(o1, p, True) and not can_beat(o2, p, True):
            key = (gain, -p.rank)
            if best is None or key > best[:2]:
                best = (gain, -p.rank, p)
    if best is not None:
        return best[2]
    # 2. claim when allowed and nothing is sure to add to it (R14)
    if can_claim(facts.fu[s], hand, faceup):
        return CLAIM_PLAY
    values = keep_values(hand, old, out)
    # 3. a set or run that is probably not beaten, most expected fu first
    multi: tuple[float, Play] | None = None
    for p in leads:
        if p.kind == SINGLE or not p.cards & ~old:
            continue
        risk = beat_risk(p, out)
        if risk < 0.25:
            score = (1 - risk) * p.size
            if multi is None or score > multi[0]:
                multi = (score, p)
    if multi is not None:
        return multi[1]
    # 4. a single: a near-sure winner (one unseen card tops it); for the caller an Old single
    # (it keeps the lead); else the card least worth keeping
    singles = single_leads(hand, faceup, is_caller)
    near = [c for c in iter_cards(singles & ~old) if higher_in_suit(out, c).bit_count() <= 1]
    if near:
        c = min(near, key=lambda c: (higher_in_suit(out, c).bit_count(), -(c % 9), c))
        return Play(SINGLE, 1 << c, 1)
    if is_caller and old:
        c = min(iter_cards(old), key=lambda c: (c % 9, c))
        return Play(SINGLE, 1 << c, 1)
    pool = singles & ~old or singles
    c = min(iter_cards(pool), key=lambda c: (values[c], c % 9, c))
    return Play(SINGLE, 1 << c, 1)


def _rule_follow(facts: SeatFacts) -> Play:
    s, hand, trick = facts.seat, facts.hand, facts.trick
    best = trick[facts.best_i]
    old = old_cards(hand, facts.seen_up)
    nxt = (s + 1) % 3
    out = facts.out[nxt] | facts.out[(s + 2) % 3]
    values = keep_values(hand, old, out)
    beating = list(beating_plays(hand, best, facts.best_i == 0))
    if not beating:
        return _pick_discard(hand, trick[0].size, values)
    last = len(trick) == 2
    chosen: tuple[int, int, int, Play] | None = None
    for p in beating:
        sure = last or not can_beat(facts.out[nxt], p, False)
        key = (0 if sure else 1, keep_cost(p.cards, values), p.cards)
        if chosen is None or key < chosen[:3]:
            chosen = (*key, p)
    assert chosen is not None
    return chosen[3]


class RulePlayer:
    """A rule-based player: a baseline, and the playout policy of :class:`PimcPlayer`.

    - **Calling:** ``play`` when :func:`hand_strength` (Old cards, near-sure winners, sets,
      runs) reaches ``threshold``.
    - **Leading:** first cash a play nobody can beat that adds to its total (a non-Old single
      above every card others may hold, an unbeatable set or run); then claim when allowed
      (R14) — playing on only while such sure gains remain; then a set or run that is
      probably not beaten; then a near-sure single; then, for the caller, an Old single (it
      wins and keeps the lead); else the single least worth keeping (within R7's choice for a
      non-caller).
    - **Following:** when it must beat (R9), the cheapest play that surely wins the trick (the
      last follower always does; the first when the next seat cannot beat it), else the
      cheapest play; Old cards and set/run cards count as dear. R9 forces a beat even over a
      partner's winning play, so a non-caller never overtakes needlessly: only by force, and
      then as cheaply as it can. When it cannot beat, it discards the cards least worth keeping:
      low, isolated, non-Old ones, keeping Old cards, sets and runs.
    """

    def __init__(self, threshold: float = DEFAULT_CALL_THRESHOLD, name: str | None = None) -> None:
        self.threshold = threshold
        self.name = name or ("rule" if threshold == DEFAULT_CALL_THRESHOLD else f"rule:{threshold:g}")

    def __call__(self, view: SeatView) -> Play | str:
        if view.caller is None:
            return rule_call(view.hand, self.threshold)
        return rule_move(facts_from_view(view))


def rule_playout(pos: Position) -> int:
    """The caller's net points when every seat plays the rule policy from ``pos`` to the end,
    each seeing all hands (a perfect-information playout: PIMC's evaluation when the exact
    solver cannot finish). ``pos`` is left unchanged."""
    p = pos.copy()
    while p.outcome is None:
        p.push(rule_move(facts_from_position(p)))
    return p.outcome.points[p.caller]
