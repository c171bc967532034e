"""The rule policy in a replay, fast: the same moves as ``policy.rule``, for the opponent model.

The opponent model of ``hidden.inference`` asks the rule player's move at every decision of
every sampled deal it replays (``hidden.inference.rule_model``): thousands of times a decision.
The functions below give exactly the moves of :func:`~lukfu_solver.policy.rule.rule_move` and the
values of :func:`~lukfu_solver.policy.rule.keep_values` (tested against them on many seeded
situations, ``tests/test_rule_fast.py``), faster: they take the legal leads or beating plays the
replay has already listed, compute the keep values only where a choice reads them, and look the
suit masks up in tables. The definitions in ``policy.rule`` stay the reference, and the rule
player and PIMC's playouts use them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import ABOVE_IN_SUIT, RANK_MASK, RUNS9, SUIT_MASK9, UNBEATABLE_LEAD, CardSet, iter_cards, old_cards
from ..plays import CLAIM_PLAY, SINGLE, Play
from ..rules import can_beat, single_leads
from .facts import SeatFacts
from .rule import beat_risk

_RANK = tuple(c % 9 + 1 for c in range(36))
"""The rank of each card."""


def _or_runs(m9: int) -> int:
    out = 0
    for run in RUNS9[m9]:
        out |= run
    return out


_IN_RUN9 = tuple(_or_runs(m9) for m9 in range(512))
"""The ranks of a 9-bit suit mask that are in some run of it."""
_RANK_MASKS = RANK_MASK[1:]


def combo_cards_fast(hand: CardSet) -> tuple[CardSet, CardSet]:
    """:func:`_combo_cards` (the cards of ``hand`` in a set and in a run), by table."""
    in_set = 0
    for m in _RANK_MASKS:
        m &= hand
        if m.bit_count() >= 3:
            in_set |= m
    in_run = (
        _IN_RUN9[hand & SUIT_MASK9]
        | _IN_RUN9[(hand >> 9) & SUIT_MASK9] << 9
        | _IN_RUN9[(hand >> 18) & SUIT_MASK9] << 18
        | _IN_RUN9[(hand >> 27) & SUIT_MASK9] << 27
    )
    return in_set, in_run


def keep_values_fast(hand: CardSet, old: CardSet, out: CardSet) -> dict[int, int]:
    """:func:`keep_values`, the same values (cards in ascending order), faster."""
    in_set, in_run = combo_cards_fast(hand)
    values = {}
    m = hand
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        rank = _RANK[c]
        if low & old:
            values[c] = 1000 + rank
        elif low & in_set:
            values[c] = 300 + 10 * rank
        elif low & in_run:
            values[c] = 200 + 10 * rank
        else:
            values[c] = 100 - 25 * (out & ABOVE_IN_SUIT[c]).bit_count() + rank
    return values


def _beatable_single(hand: CardSet, card_bit: int, led: bool) -> bool:
    """:func:`can_beat` for a single of ``card_bit``: a higher card of its suit in ``hand``, and
    not a led C1 or T1 (R8)."""
    if led and card_bit & UNBEATABLE_LEAD:
        return False
    return bool(hand & ABOVE_IN_SUIT[card_bit.bit_length() - 1])


def rule_lead_fast(facts: SeatFacts, moves: Sequence[Play]) -> Play:
    """:func:`_rule_lead`'s move, given ``moves``: the legal leads in :func:`lead_plays`' order,
    then the claim when allowed (as the replay lists them)."""
    s, hand, faceup = facts.seat, facts.hand, facts.faceup
    claim = bool(moves) and moves[-1].kind == CLAIM_PLAY.kind
    leads = moves[:-1] if claim else moves
    old = old_cards(hand, faceup)
    o1, o2 = facts.out[(s + 1) % 3], facts.out[(s + 2) % 3]
    out = o1 | o2
    # 1. cash a lead nobody can beat that adds to the total, largest gain first
    best: tuple[int, int, Play] | None = None
    for p in leads:
        cards = p.cards
        if p.kind == SINGLE:
            if cards & old or _beatable_single(o1, cards, True) or _beatable_single(o2, cards, True):
                continue
            gain = 1
        else:
            gain = p.size - (cards & old).bit_count()
            if gain <= 0 or can_beat(o1, p, True) or can_beat(o2, p, True):
                continue
        rank = _RANK[cards.bit_length() - 1]
        if best is None or (gain, -rank) > best[:2]:
            best = (gain, -rank, p)
    if best is not None:
        return best[2]
    # 2. claim when allowed
    if claim:
        return CLAIM_PLAY
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
    # 4. a near-sure single; for the caller an Old single; else the card least worth keeping
    is_caller = s == facts.caller
    singles = single_leads(hand, faceup, is_caller)
    near = [c for c in iter_cards(singles & ~old) if (out & ABOVE_IN_SUIT[c]).bit_count() <= 1]
    if near:
        c = min(near, key=lambda c: ((out & ABOVE_IN_SUIT[c]).bit_count(), -(c % 9), c))
        return Play(SINGLE, 1 << c, 1)
    if is_caller and old:
        c = min(iter_cards(old), key=lambda c: (c % 9, c))
        return Play(SINGLE, 1 << c, 1)
    values = keep_values_fast(hand, old, out)
    pool = singles & ~old or singles
    c = min(iter_cards(pool), key=lambda c: (values[c], c % 9, c))
    return Play(SINGLE, 1 << c, 1)


def rule_follow_fast(facts: SeatFacts, beating: Sequence[Play]) -> Play:
    """:func:`_rule_follow`'s move when it can beat, given ``beating``: its beating plays, in
    :func:`beating_plays`' order (not empty)."""
    s, hand = facts.seat, facts.hand
    old = old_cards(hand, facts.seen_up)
    o_next = facts.out[(s + 1) % 3]
    out = o_next | facts.out[(s + 2) % 3]
    in_set, in_run = combo_cards_fast(hand)
    last = len(facts.trick) == 2
    chosen: tuple[int, int, int, Play] | None = None
    for p in beating:
        cards = p.cards
        if last:
            unsure = 0
        elif p.kind == SINGLE:
            unsure = 1 if _beatable_single(o_next, cards, False) else 0
        else:
            unsure = 1 if can_beat(o_next, p, False) else 0
        cost = 0
        m = cards
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            rank = _RANK[c]
            if low & old:
                cost += 1000 + rank
            elif low & in_set:
                cost += 300 + 10 * rank
            elif low & in_run:
                cost += 200 + 10 * rank
            else:
                cost += 100 - 25 * (out & ABOVE_IN_SUIT[c]).bit_count() + rank
        if chosen is None or (unsure, cost, cards) < chosen[:3]:
            chosen = (unsure, cost, cards, p)
    assert chosen is not None
    return chosen[3]


def rule_move_fast(facts: SeatFacts, moves: Sequence[Play]) -> Play:
    """:func:`rule_move`'s move given the legal ``moves`` the seat has (its leads then the claim
    when allowed; or, following, its beating plays: not empty, a discard is chosen by its keep
    order instead)."""
    if facts.trick:
        return rule_follow_fast(facts, moves)
    return rule_lead_fast(facts, moves)


def keep_order_fast(facts: SeatFacts) -> list[int]:
    """:func:`discard_order` of the seat's :func:`seat_keep_values`: the cards least worth keeping
    first, faster."""
    s = facts.seat
    values = keep_values_fast(
        facts.hand, old_cards(facts.hand, facts.seen_up), facts.out[(s + 1) % 3] | facts.out[(s + 2) % 3]
    )
    return sorted(values, key=lambda c: (values[c], _RANK[c], c))
