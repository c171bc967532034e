"""The rule player: simple principles of play and calling, and the facts a rule decision needs
(as card masks, from a seat view or a full position)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..cards import (
    ALL_CARDS,
    RANK_MASK,
    RUNS9,
    SUIT_MASK9,
    UNBEATABLE_LEAD,
    CardSet,
    iter_cards,
    old_cards,
)
from ..plays import CLAIM_PLAY, DISCARD, RUN, SET, SINGLE, Play
from ..position import Position
from ..rules import (
    beating_plays,
    can_beat,
    can_claim,
    discard_proves_none_higher,
    higher_in_suit,
    lead_plays,
    single_leads,
)
from ..view import SeatView

# ================================================================ what a seat knows, as masks


class Ctx(NamedTuple):
    """The facts a rule decision needs, as card masks: from a seat view or a full position.

    ``out[s]`` are the cards seat ``s`` may hold (0 for the seat to move): in a view the unseen
    cards less what the seat's discards proved it did not hold; in a position its actual hand.
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


def ctx_from_view(view: SeatView) -> Ctx:
    """The rule facts of a view whose seat is to move in the play phase.

    A hidden discard against a single (but a led C1 or T1) proves that the discarding seat held
    no higher card of that suit then, hence none now (R9): those cards are removed from its ``out``.
    """
    assert view.caller is not None
    unseen = view.unseen
    out = [0 if s == view.seat or view.hand_sizes[s] == 0 else unseen for s in range(3)]
    for t, tr in enumerate(view.tricks):
        leader = view.leaders[t]
        best = tr[0]
        for i, p in enumerate(tr):
            s = (leader + i) % 3
            if i and p.kind != DISCARD:
                best = p
            elif i and discard_proves_none_higher(best, tr) and s != view.seat:
                top = best.cards.bit_length() - 1
                suit_end = (top // 9 + 1) * 9
                out[s] &= ~((1 << suit_end) - (1 << (top + 1)))
    trick = view.trick
    best_i = 0
    for i, p in enumerate(trick):
        if i and p.kind != DISCARD:
            best_i = i
    up = view.faceup
    seen = up
    for p in trick:
        if p.kind != DISCARD:
            seen |= p.cards
    return Ctx(view.seat, view.hand, view.caller, view.fu, up, seen, (out[0], out[1], out[2]), trick, best_i)


def ctx_from_position(pos: Position) -> Ctx:
    """The rule facts of the seat to move in a full position (every hand known)."""
    s = pos.to_move
    h = pos.hands
    out = (0 if s == 0 else h[0], 0 if s == 1 else h[1], 0 if s == 2 else h[2])
    return Ctx(
        s, h[s], pos.caller, tuple(pos.fu), pos.faceup, pos.faceup | pos.trick_faceup, out, pos.trick, pos.best_i
    )


# ================================================================ rule player


DEFAULT_CALL_THRESHOLD = 6.0
"""The rule player calls when its hand strength reaches this. Measured (1,000 deals × 3 seatings,
rule:T against two of the opponent): against random the margin rises to T = 6–6.5 (+1.28) and
falls beyond; against rule:5 T = 5–6.5 are level; 6 is the best of both."""


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


def hand_strength(hand: CardSet) -> float:
    """A 12-card hand's calling strength: Old cards, plus half a point for each card that only
    one missing card tops, one point for a high set (ranks 6+), half for a lower set or a run.

    Before any play a non-Old card never is a sure winner, so the near-sure cards, the sets and
    the runs (multi-card leads that are hard to beat) stand for the fu still to win.

    >>> from lukfu_solver.cards import parse_cards
    >>> hand_strength(parse_cards("C19S79M2345M9T159"))  # 6 Old, S7 near-sure, run M2345
    7.0
    """
    old = old_cards(hand, 0)
    out = ALL_CARDS & ~hand
    score = float(old.bit_count())
    for c in iter_cards(hand & ~old):
        if higher_in_suit(out, c).bit_count() == 1:
            score += 0.5
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3 and m & ~old:
            score += 1.0 if r >= 6 else 0.5
    for s in range(4):
        m9 = (hand >> (9 * s)) & SUIT_MASK9
        runs = RUNS9[m9]
        if runs and (max(runs, key=int.bit_count) << (9 * s)) & ~old:
            score += 0.5
    return score


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


def _cost(cards: CardSet, values: dict[int, int]) -> int:
    return sum(values[c] for c in iter_cards(cards))


def seat_keep_values(ctx: Ctx) -> dict[int, int]:
    """:func:`keep_values` of the hand of the seat deciding: its Old cards by what it has seen,
    against the cards the other two seats may hold."""
    s = ctx.seat
    return keep_values(ctx.hand, old_cards(ctx.hand, ctx.seen_up), ctx.out[(s + 1) % 3] | ctx.out[(s + 2) % 3])


def discard_order(hand: CardSet, values: dict[int, int]) -> list[int]:
    """The cards of ``hand``, least worth keeping first (by ``values``, then low ranks): the
    order the rule player discards in."""
    return sorted(iter_cards(hand), key=lambda c: (values[c], c % 9, c))


def _pick_discard(hand: CardSet, size: int, values: dict[int, int]) -> Play:
    """The ``size`` cards least worth keeping, face down (R9)."""
    order = discard_order(hand, values)
    return Play(DISCARD, sum(1 << c for c in order[:size]), size)


def _beat_risk(play: Play, out: CardSet) -> float:
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


def rule_call(hand: CardSet, threshold: float = DEFAULT_CALL_THRESHOLD) -> str:
    """The rule player's call: ``play`` when :func:`hand_strength` reaches ``threshold``."""
    return "play" if hand_strength(hand) >= threshold else "pass"


def rule_move(ctx: Ctx) -> Play:
    """The rule player's move for the seat to move (see :class:`RulePlayer`)."""
    if ctx.trick:
        return _rule_follow(ctx)
    return _rule_lead(ctx)


def _rule_lead(ctx: Ctx) -> Play:
    s, hand, faceup = ctx.seat, ctx.hand, ctx.faceup
    is_caller = s == ctx.caller
    old = old_cards(hand, faceup)
    o1, o2 = ctx.out[(s + 1) % 3], ctx.out[(s + 2) % 3]
    out = o1 | o2
    leads = list(lead_plays(hand, faceup, is_caller, s == 0 and ctx.caller != 0))
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
    if can_claim(ctx.fu[s], hand, faceup):
        return CLAIM_PLAY
    values = keep_values(hand, old, out)
    # 3. a set or run that is probably not beaten, most expected fu first
    multi: tuple[float, Play] | None = None
    for p in leads:
        if p.kind == SINGLE or not p.cards & ~old:
            continue
        risk = _beat_risk(p, out)
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


def _rule_follow(ctx: Ctx) -> Play:
    s, hand, trick = ctx.seat, ctx.hand, ctx.trick
    best = trick[ctx.best_i]
    old = old_cards(hand, ctx.seen_up)
    nxt = (s + 1) % 3
    out = ctx.out[nxt] | ctx.out[(s + 2) % 3]
    values = keep_values(hand, old, out)
    beating = list(beating_plays(hand, best, ctx.best_i == 0))
    if not beating:
        return _pick_discard(hand, trick[0].size, values)
    last = len(trick) == 2
    chosen: tuple[int, int, int, Play] | None = None
    for p in beating:
        sure = last or not can_beat(ctx.out[nxt], p, False)
        key = (0 if sure else 1, _cost(p.cards, values), p.cards)
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
        return rule_move(ctx_from_view(view))


def rule_playout(pos: Position) -> int:
    """The caller's net points when every seat plays the rule policy from ``pos`` to the end,
    each seeing all hands (a perfect-information playout: PIMC's evaluation when the exact
    solver cannot finish). ``pos`` is left unchanged."""
    p = pos.copy()
    while p.outcome is None:
        p.push(rule_move(ctx_from_position(p)))
    return p.outcome.points[p.caller]


# ================================================================ the rule policy in a replay (fast)
#
# The opponent model of ``hidden.inference`` asks the rule player's move at every decision of
# every sampled deal it replays (``players.ipimc.rule_model``): thousands of times a decision.
# The functions below give exactly the moves of :func:`rule_move` and the values of
# :func:`keep_values` (tested against them on many seeded situations, ``tests/test_rule_fast.py``),
# faster: they take the legal leads or beating plays the replay has already listed, compute the
# keep values only where a choice reads them, and look the suit masks up in tables. The
# definitions above stay the reference, and the rule player and PIMC's playouts use them.

_RANK = tuple(c % 9 + 1 for c in range(36))
"""The rank of each card."""
_ABOVE = tuple((1 << ((c // 9 + 1) * 9)) - (1 << (c + 1)) for c in range(36))
"""The higher cards of each card's suit (``higher_in_suit(mask, c) == mask & _ABOVE[c]``)."""


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
            values[c] = 100 - 25 * (out & _ABOVE[c]).bit_count() + rank
    return values


def _beatable_single(hand: CardSet, card_bit: int, led: bool) -> bool:
    """:func:`can_beat` for a single of ``card_bit``: a higher card of its suit in ``hand``, and
    not a led C1 or T1 (R8)."""
    if led and card_bit & UNBEATABLE_LEAD:
        return False
    return bool(hand & _ABOVE[card_bit.bit_length() - 1])


def rule_lead_fast(ctx: Ctx, moves: Sequence[Play]) -> Play:
    """:func:`_rule_lead`'s move, given ``moves``: the legal leads in :func:`lead_plays`' order,
    then the claim when allowed (as the replay lists them)."""
    s, hand, faceup = ctx.seat, ctx.hand, ctx.faceup
    claim = bool(moves) and moves[-1].kind == CLAIM_PLAY.kind
    leads = moves[:-1] if claim else moves
    old = old_cards(hand, faceup)
    o1, o2 = ctx.out[(s + 1) % 3], ctx.out[(s + 2) % 3]
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
        risk = _beat_risk(p, out)
        if risk < 0.25:
            score = (1 - risk) * p.size
            if multi is None or score > multi[0]:
                multi = (score, p)
    if multi is not None:
        return multi[1]
    # 4. a near-sure single; for the caller an Old single; else the card least worth keeping
    is_caller = s == ctx.caller
    singles = single_leads(hand, faceup, is_caller)
    near = [c for c in iter_cards(singles & ~old) if (out & _ABOVE[c]).bit_count() <= 1]
    if near:
        c = min(near, key=lambda c: ((out & _ABOVE[c]).bit_count(), -(c % 9), c))
        return Play(SINGLE, 1 << c, 1)
    if is_caller and old:
        c = min(iter_cards(old), key=lambda c: (c % 9, c))
        return Play(SINGLE, 1 << c, 1)
    values = keep_values_fast(hand, old, out)
    pool = singles & ~old or singles
    c = min(iter_cards(pool), key=lambda c: (values[c], c % 9, c))
    return Play(SINGLE, 1 << c, 1)


def rule_follow_fast(ctx: Ctx, beating: Sequence[Play]) -> Play:
    """:func:`_rule_follow`'s move when it can beat, given ``beating``: its beating plays, in
    :func:`beating_plays`' order (not empty)."""
    s, hand = ctx.seat, ctx.hand
    old = old_cards(hand, ctx.seen_up)
    o_next = ctx.out[(s + 1) % 3]
    out = o_next | ctx.out[(s + 2) % 3]
    in_set, in_run = combo_cards_fast(hand)
    last = len(ctx.trick) == 2
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
                cost += 100 - 25 * (out & _ABOVE[c]).bit_count() + rank
        if chosen is None or (unsure, cost, cards) < chosen[:3]:
            chosen = (unsure, cost, cards, p)
    assert chosen is not None
    return chosen[3]


def rule_move_fast(ctx: Ctx, moves: Sequence[Play]) -> Play:
    """:func:`rule_move`'s move given the legal ``moves`` the seat has (its leads then the claim
    when allowed; or, following, its beating plays: not empty, a discard is chosen by its keep
    order instead)."""
    if ctx.trick:
        return rule_follow_fast(ctx, moves)
    return rule_lead_fast(ctx, moves)


_TOP_RUN9 = tuple(max(RUNS9[m9], key=int.bit_count) if RUNS9[m9] else 0 for m9 in range(512))
"""The longest run of a 9-bit suit mask (the first of that length), 0 when there is none."""


def hand_strength_fast(hand: CardSet) -> float:
    """:func:`hand_strength`, the same value, faster (the opponent model's call curve reads it
    for every sampled deal it weighs). Every term is a multiple of a half, so the sum is exact in
    any order."""
    old = old_cards(hand, 0)
    out = ALL_CARDS & ~hand
    score = float(old.bit_count())
    m = hand & ~old
    while m:
        low = m & -m
        m ^= low
        if (out & _ABOVE[low.bit_length() - 1]).bit_count() == 1:
            score += 0.5
    for r, rm in enumerate(_RANK_MASKS, 1):
        rm &= hand
        if rm.bit_count() >= 3 and rm & ~old:
            score += 1.0 if r >= 6 else 0.5
    for shift in (0, 9, 18, 27):
        top = _TOP_RUN9[(hand >> shift) & SUIT_MASK9]
        if top and (top << shift) & ~old:
            score += 0.5
    return score


def keep_order_fast(ctx: Ctx) -> list[int]:
    """:func:`discard_order` of the seat's :func:`seat_keep_values`: the cards least worth keeping
    first, faster."""
    s = ctx.seat
    values = keep_values_fast(ctx.hand, old_cards(ctx.hand, ctx.seen_up), ctx.out[(s + 1) % 3] | ctx.out[(s + 2) % 3])
    return sorted(values, key=lambda c: (values[c], _RANK[c], c))
