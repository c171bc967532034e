"""The next leader's look-ahead for a follower's discards (``switches.DISCARD_AHEAD``): at a
non-caller's discard in a trick whose winner is certain, a lower bound on the value after every
discard of the seats still to play, played out once for all of them (:func:`discard_ahead_bound`).
The search calls it after the table probe (``search.reference.Solver._ab``), up to the window's
beta, storing its cuts as fail highs; the compiled kernel computes it identically
(``kernel/discards.py``). It rests on the look-aheads of :mod:`.bounds` (the caller's single-trick
playout, a non-caller's R7 moves, the ends' claims and reach), and lives apart from them because
it is one technique with its own switches and tests (``tests/test_search_discards.py``,
``tests/test_search_switches.py``; ``docs/search.md``, "The bounds")."""

from __future__ import annotations

from ..cards import SUIT_MASK, UNBEATABLE_LEAD, old_cards
from ..position import Position
from ..rules import payments
from . import switches as S
from .bounds import (
    _above_in_suit,
    _ahead_play,
    _bits,
    _claim_or_drain,
    _has_set_or_run,
    _missing,
    _reach_bounds,
    _still_to_play,
    _with,
)
from .result import INF


def discard_ahead_bound(pos: Position, stop: int, floor: int = -INF) -> int:
    """The next leader's look-ahead for a follower's discards: at a
    non-caller's discard in a trick whose winner is certain (nobody still to play can beat its
    play), a lower bound on the value after every discard of the seats still to play, or -INF
    where it does not apply (fewer than three cards a hand after the trick; a non-caller winner
    holding a set or a run).

    After any discards the caller leads with its hand and may lead any single c (R7 binds
    non-callers only), so, as in :func:`_caller_lead_bound`, the value is at least each c's trick
    played out over every choice that matters, each end bounded. Here it is played out once for
    all discards: each seat still to play holds its hand less as many unknown cards as were led
    (or more, once it has discarded in the played-out trick too), and its choices are all that
    some discard allows: to beat with any higher card it holds now (it may have kept it), or to
    discard when it holds no more higher cards than it is missing (it may have discarded them
    all); the least of their bounds is taken (:func:`_disc_play`). The ends are bounded with the
    hands as supersets of the true ones: the caller's sure claim and drain stay real strategies
    against fewer cards (plays nobody holding more can beat stay unbeaten); the caller's Old
    cards, and a known non-caller's, depend on the face-up cards and their own hand only (R12,
    R13: a face-down discard makes nothing Old), so the R7 look-ahead at a known non-caller's
    lead is exact in its leader (:func:`_r7_ahead_bounds`, the others missing cards); and a lead
    by a seat missing cards (its Old cards and its R7 singles are not known: discarding a higher
    card face down takes Old from the cards below) is bounded by reach alone.

    When the winner is a non-caller holding no set and no run, its moves at its lead are the claim
    and the singles R7 lets it lead, all known (its hand and its Old cards are), so the R7
    look-ahead (:func:`_r7_ahead_bounds`, the lower bound) is played out once, the seats still to
    play (the caller among them, perhaps) missing their discards: the least over its moves. Where
    a set or a run was led and the caller is the last to play, its discard is chosen instead
    (:func:`caller_discards_above`: the best over its discards).

    Stops once a bound reaches ``stop``. The singles whose bound cannot pass ``floor`` (the search passes the node's
    lower bound) or the best one so far are given up early (:func:`_disc_play`): the bound is
    exact when above ``floor`` and at or below it otherwise."""
    caller = pos.caller
    trick = pos.trick
    if not trick or pos.to_move == caller:
        return -INF
    rest, beaters = _still_to_play(pos)
    if beaters:
        return -INF
    w = pos.best_seat
    unsure = sum(trick[0].size << 4 * s for s in rest)
    fu = list(pos.fu)
    fu[w] += pos.best.size
    up = pos.faceup | pos.trick_faceup
    hands = pos.hands
    if w != caller:  # the R7 look-ahead at the winner's lead, the seats still to play missing cards
        n = hands[w].bit_count()
        if not S.R7_AHEAD or n < 3 or _has_set_or_run(hands[w]):
            return -INF
        if S.DISCARD_CALLER and caller in rest and trick[0].size > 1:
            return caller_discards_above(caller, w, list(hands), fu, up, n, unsure & ~(15 << 4 * caller), stop, floor)
        return _r7_ahead_above(caller, w, list(hands), fu, up, n, unsure, floor)
    left = hands[caller].bit_count() - 1  # cards a seat after the played-out trick
    if left < 2:
        return -INF
    hand = hands[caller]
    others = hands[(caller + 1) % 3] | hands[(caller + 2) % 3]
    lo = -INF
    for c in _bits(hand):
        if c & UNBEATABLE_LEAD or not others & _above_in_suit(c):
            continue
        rem = _with(list(hands), caller, hand & ~c)
        clo = _disc_play(caller, 1, c, caller, True, up | c, rem, fu, left, unsure, max(floor, lo))
        if clo > lo:
            lo = clo
            if lo >= stop:
                break
    return lo


def _r7_ahead_above(
    caller: int, w: int, hands: list[int], fu: list[int], up: int, left: int, unsure: int, floor: int
) -> int:
    """The lower bound of :func:`_r7_ahead_bounds` when it is above ``floor``, else -INF: the
    least over the claim and the R7 singles, given up at the first at or below ``floor``."""
    hand = hands[w]
    old = old_cards(hand, up)
    lo = INF
    t = fu[w] + old.bit_count()
    if t >= 6:
        lo = payments(w, t, caller)[caller]
        if lo <= floor:
            return -INF
    nonold = hand & ~old
    singles = nonold & SUIT_MASK[(nonold.bit_length() - 1) // 9] if nonold else hand
    for c in _bits(singles):
        clo = _ahead_play(caller, w, 1, c, w, True, up | c, _with(hands, w, hand & ~c), fu, left - 1, unsure)[0]
        if clo <= floor:
            return -INF
        lo = min(lo, clo)
    return lo


def caller_discards_above(
    caller: int, w: int, hands: list[int], fu: list[int], up: int, left: int, unsure: int, stop: int, floor: int
) -> int:
    """The R7 look-ahead at non-caller ``w``'s lead after a trick it wins, the caller the last
    to play in it and choosing its discard: the best lower bound over the caller's discards (of
    as many cards as its hand holds more than ``left``), stopping once one reaches ``stop``;
    exact when above ``floor``, at or below it otherwise (each discard is given up at its first
    single at or below ``floor`` or the best so far, as in :func:`_r7_ahead_above`).

    Sound as a lower bound: the caller may play the same discard whatever the non-caller before
    it discarded, so the value is at least, for any one discard d of the caller, the least over
    the other's discards of the value after both, which :func:`_r7_ahead_above` bounds from
    below with the caller's hand less d known and the other missing its unknown cards (taken as
    unknown too, the caller's discard would give the least over all of them, a weaker bound).
    The discards come in the order of :func:`discard_subsets`."""
    hand = hands[caller]
    lo = -INF
    for d in discard_subsets(hand, hand.bit_count() - left):
        v = _r7_ahead_above(caller, w, _with(hands, caller, hand & ~d), fu, up, left, unsure, max(floor, lo))
        if v > lo:
            lo = v
            if lo >= stop:
                break
    return lo


def discard_subsets(hand: int, k: int) -> list[int]:
    """Every set of ``k`` cards of ``hand``, those of its lowest ranks first: the cards indexed by
    rank, then suit (lowest first), and the index sets taken in increasing order as numbers
    (colexicographic: Gosper's successor), so that all sets of the ``i`` lowest cards come before
    any holding the next: the caller's cheapest discards, which most often reach beta, come
    first. The kernel walks them in the same order."""
    cards = sorted(_bits(hand), key=lambda c: ((c.bit_length() - 1) % 9, c))
    n = len(cards)
    out = []
    x = (1 << k) - 1
    while x < 1 << n:
        d = 0
        i = 0
        y = x
        while y:
            if y & 1:
                d |= cards[i]
            y >>= 1
            i += 1
        out.append(d)
        c = x & -x
        r = x + c
        x = (((r ^ x) >> 2) // c) | r
    return out


def _disc_play(
    caller: int,
    j: int,
    best: int,
    bs: int,
    led: bool,
    up: int,
    rem: list[int],
    fu: list[int],
    left: int,
    unsure: int,
    floor: int,
) -> int:
    """:func:`discard_ahead_bound`'s trick led with a single by the caller, from its ``j``-th
    player on (the best card ``best`` of seat ``bs``), the seats of ``unsure`` missing unknown
    cards: the lower bound when it is above ``floor``, else -INF (a choice at or below ``floor``
    ends the search of the others: the least cannot be above it). A seat that discards here
    misses one card more. The choices are taken highest card first (the result does not depend
    on the order); when the last follower is missing cards, every card it beats with wins it the
    trick, whose end is then bounded by reach alone, the same for each: it is counted once."""
    if j == 3:
        after = [fu[x] + (1 if x == bs else 0) for x in range(3)]
        most = [a + left for a in after]
        lo = _reach_bounds(most, caller)[0]
        if not _missing(unsure, bs):
            if bs == caller:
                o1, o2 = rem[(caller + 1) % 3], rem[(caller + 2) % 3]
                lo = max(lo, _claim_or_drain(caller, caller, rem[caller], after[caller], o1, o2, up, most))
            elif S.R7_AHEAD and left >= 3 and not _has_set_or_run(rem[bs]):
                # only above the end's reach and the floor: given up at the first move at or below
                # both (the end's bound is the same)
                lo = max(lo, _r7_ahead_above(caller, bs, rem, after, up, left, unsure, max(lo, floor)))
        return lo if lo > floor else -INF
    s = (caller + j) % 3
    h = rem[s]
    higher = 0 if led and best & UNBEATABLE_LEAD else h & _above_in_suit(best)
    m = _missing(unsure, s)
    lo = INF
    beats = _bits(higher)[::-1]
    if j == 2 and m and higher:
        beats = beats[:1]  # (any of them: the trick's end is the same)
    for c in beats:
        v = _disc_play(caller, j + 1, c, s, False, up | c, _with(rem, s, h & ~c), fu, left, unsure, floor)
        if v == -INF:
            return v
        lo = min(lo, v)
    if higher.bit_count() <= m or not higher:  # it discards (it may have discarded its higher cards)
        v = _disc_play(caller, j + 1, best, bs, led, up, rem, fu, left, unsure + (1 << 4 * s), floor)
        if v == -INF:
            return v
        lo = min(lo, v)
    return lo
