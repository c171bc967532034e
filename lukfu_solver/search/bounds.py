"""The value bounds known without search, and the claims they rest on.

:func:`value_bounds` bounds a position's value from what each side can still reach
(:func:`reach`, R15-R17) and from what the seat certain to lead next can force by cashing
plays nobody can beat (:func:`sure_claim`, :func:`trick_claim`); inside a trick led with a single
it plays the trick out over every choice that matters, and with one card a hand it values the
last trick exactly. At the lead of a non-caller that holds no set and no run it looks one trick
ahead (:func:`_r7_lead_bounds`, and at the playout's ends :func:`_r7_ahead_bounds`): R7 leaves it
only a few singles. The search cuts off wherever these bounds answer its question (see
``docs/search.md``, "Bounds").

>>> from lukfu_solver.position import Position
>>> value_bounds(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))
(4, 4)
"""

from __future__ import annotations

from ..cards import RANK_MASK, SUIT_MASK, SUIT_MASK9, UNBEATABLE_LEAD, old_cards
from ..plays import CLAIM, RUN, SET, SINGLE, Play
from ..position import Position
from ..rules import can_beat, end_outcome, payments
from . import switches as S
from .result import INF


def value_bounds(pos: Position) -> tuple[int, int]:
    """Bounds on the value that need no search: what each side can still reach (R15–R17), and,
    when the next leader is certain, what it can force by cashing plays nobody can beat: a claim
    (R14), or the other side drained below six (:func:`_lead_bound`).

    A side that can no longer reach six (see :func:`reach`) can at best make the deal void. At a
    non-caller's lead with no set and no run, the R7 one-trick bound (:func:`_r7_lead_bounds`)
    tightens both sides.
    """
    if pos.outcome is not None:
        v = pos.outcome.points[pos.caller]
        return v, v
    caller = pos.caller
    if pos.trick and pos.trick[0].kind == SINGLE:
        return _single_trick_bounds(pos)
    if not pos.trick and pos.hands[0].bit_count() == 1:
        v = _last_trick_value(pos.hands, pos.to_move, pos.fu, pos.faceup, caller)
        return v, v
    most = reach(pos)
    lower, upper = _reach_bounds(most, caller)
    w, options = _next_leader(pos)
    if options:
        bounds = [_lead_bound(pos, w, hand, fu, up, most) for hand, fu, up in options]
        if w == caller:
            lower = max(lower, max(bounds))
        else:
            upper = min(upper, min(bounds))
    if S.R7_AT_LEAD and not pos.trick and w != caller and not _has_set_or_run(pos.hands[w]):
        lo1, hi1 = _r7_lead_bounds(pos)
        lower, upper = max(lower, lo1), min(upper, hi1)
    return lower, upper


def _caller_lead_bound(pos: Position, stop: int) -> int:
    """The caller's look-ahead (``switches.CALLER_AHEAD``): at the caller's lead, the best of the
    single-trick lower bounds (:func:`_single_trick_bounds`, the R7 look-ahead at its ends
    included) after each single it may lead that a non-caller can beat, or -INF when there is
    none. The caller may lead any single (R7 binds non-callers only), so the value is at least
    each such child's lower bound. Singles nobody can beat are left out: their trick ends at the
    caller's own lead, which the sure claim already counts; with ``switches.CALLER_AHEAD_SKIP`` so are
    those whose every beater keeps a set or a run (any subset is sound). Stops once a bound
    reaches ``stop`` (the search passes the window's beta, or the upper bound when lower: a
    bound below beta cannot decide a zero-window test)."""
    caller = pos.caller
    hand = pos.hands[caller]
    o1, o2 = pos.hands[(caller + 1) % 3], pos.hands[(caller + 2) % 3]
    lo = -INF
    for c in _bits(hand):
        above = _above_in_suit(c)
        if c & UNBEATABLE_LEAD or not (o1 | o2) & above:
            continue
        if S.CALLER_AHEAD_SKIP and all(not h & above or _has_set_or_run(h & ~above) for h in (o1, o2)):
            continue
        pos.push(Play(SINGLE, c, 1))
        try:
            clo = _single_trick_bounds(pos)[0]
        finally:
            pos.pop()
        if clo > lo:
            lo = clo
            if lo >= stop:
                break
    return lo


def _coalition_lead_bound(pos: Position, stop: int) -> int:
    """The coalition's look-ahead (``switches.COALITION_AHEAD``), the mirror of
    :func:`_caller_lead_bound`: at a non-caller's lead, the least of the single-trick upper
    bounds (:func:`_single_trick_bounds`, the R7 look-ahead at its ends included) after each
    single R7 lets it lead, or INF when none is played out. The coalition minimises and each of
    those singles is a legal move, so the value is at most each such child's upper bound (any
    subset of the legal moves gives a sound bound). Sets, runs and the claim are left out; so is
    a lead with no set and no run while ``switches.R7_AT_LEAD`` is on (:func:`value_bounds` has already
    taken the same minimum there, with the claim). With ``switches.COALITION_AHEAD_SKIP`` the singles the
    caller can beat with a card the partner cannot beat are left out while at least three cards a
    hand are left: their trick may end at the caller's lead, whose upper bound is the reach alone,
    the node's own, so they can never tighten it. Stops once a bound is at or below ``stop`` (the
    search passes the window's alpha, or the lower bound when higher: a bound above alpha cannot
    decide a zero-window test)."""
    w = pos.to_move
    caller = pos.caller
    hand = pos.hands[w]
    hi = INF
    if w == caller or pos.trick or (S.R7_AT_LEAD and not _has_set_or_run(hand)):
        return hi
    ch, partner = pos.hands[caller], pos.hands[3 - caller - w]
    skip = S.COALITION_AHEAD_SKIP and pos.cards_per_hand() >= 3
    up = pos.faceup
    nonold = hand & ~old_cards(hand, up)
    singles = nonold & SUIT_MASK[(nonold.bit_length() - 1) // 9] if nonold else hand
    for c in _bits(singles):
        if skip and not c & UNBEATABLE_LEAD:
            beat = ch & _above_in_suit(c)
            if beat and not partner & _above_in_suit(1 << (beat.bit_length() - 1)):
                continue
        pos.push(Play(SINGLE, c, 1))
        try:
            chi = _single_trick_bounds(pos)[1]
        finally:
            pos.pop()
        if chi < hi:
            hi = chi
            if hi <= stop:
                break
    return hi


def _missing(unsure: int, seat: int) -> int:
    """How many unknown cards ``seat`` is missing (four bits a seat of ``unsure``)."""
    return unsure >> 4 * seat & 15


def _has_set_or_run(hand: int) -> bool:
    """Whether ``hand`` holds a set (three cards of a rank) or a run (three in a row of a suit)."""
    a, b, c, d = ((hand >> (9 * s)) & SUIT_MASK9 for s in range(4))
    if (a & b & (c | d)) | (c & d & (a | b)):
        return True
    return any(m & (m >> 1) & (m >> 2) for m in (a, b, c, d))


def _r7_lead_bounds(pos: Position) -> tuple[int, int]:
    """The R7 one-trick bound (``switches.R7_AT_LEAD``): at the lead of a non-caller holding no set and no run,
    its only moves are the singles R7 allows and, when it may, the claim; the value is the least
    of their values, so the least of the children's bounds bounds it on both sides. A claim's
    value is exact; a single's child is a trick led with a single, bounded by
    :func:`_single_trick_bounds` (the trick played out, each way it can end bounded at the next
    lead). This sees the lead R7 forces on a seat that must hand the trick to the caller."""
    caller = pos.caller
    lo, hi = INF, INF
    for m in list(pos.legal_moves()):
        if m.kind == CLAIM:
            s = pos.to_move
            v = payments(s, pos.fu[s] + pos.old_cards(s).bit_count(), caller)[caller]
            lo, hi = min(lo, v), min(hi, v)
            continue
        pos.push(m)
        try:
            clo, chi = _single_trick_bounds(pos)
        finally:
            pos.pop()
        lo, hi = min(lo, clo), min(hi, chi)
    return lo, hi


def _next_leader(pos: Position) -> tuple[int, list[tuple[int, int, int]]]:
    """The seat certain to lead next (or be leading now) and its possible states when it does:
    (hand, fu, face-up cards) for each choice it still has; (-1, []) when not certain.

    At a lead, the seat to move. Mid-trick, the trick's winner when it is certain: nobody still
    to play can beat the best play (R9: they can only discard, whatever they choose); or only one
    of them can beat a single: it must (R9), with the higher card of the suit it chooses, and the
    other, who cannot beat the lower card, cannot beat that one either. The last trick (no cards
    left to lead) is left to the fu bounds.
    """
    hands = pos.hands
    if not pos.trick:
        w = pos.to_move
        return w, [(hands[w], pos.fu[w], pos.faceup)]
    best = pos.best
    rest, beaters = _still_to_play(pos)
    up = pos.faceup | pos.trick_faceup
    if not beaters:
        w = pos.best_seat
        return (w, [(hands[w], pos.fu[w] + best.size, up)]) if hands[w] else (-1, [])
    if len(beaters) != 1 or best.kind != SINGLE:
        return -1, []
    w = beaters[0]
    hand = hands[w]
    if hand.bit_count() < 2:
        return -1, []
    higher = hand & _above_in_suit(best.cards)
    options = []
    while higher:
        c = higher & -higher
        higher ^= c
        options.append((hand & ~c, pos.fu[w] + 1, up | c))
    return w, options


def _lead_bound(pos: Position, w: int, hand: int, fu: int, up: int, most: list[int]) -> int:
    """What seat ``w``, leading with ``hand`` and ``fu``, can force by cashing plays nobody can
    beat (:func:`_sure_claim`): a lower bound on the value for the caller, an upper one for a
    non-caller. Either it claims; or, having cashed everything it can, it has drained as many
    cards from each other hand (followers who cannot beat discard as many as were led), which
    lowers what the other side can still reach (:func:`reach`) by as much."""
    return _claim_or_drain(pos.caller, w, hand, fu, pos.hands[(w + 1) % 3], pos.hands[(w + 2) % 3], up, most)


def _claim_or_drain(caller: int, w: int, hand: int, fu: int, o1: int, o2: int, up: int, most: list[int]) -> int:
    """:func:`_lead_bound` against the other hands ``o1`` and ``o2`` (or any hands holding them:
    more cards for the others only make fewer plays sure, so the bound stays a guarantee)."""
    t, drain = _sure_claim(w, hand, fu, o1, o2, up, caller)
    best_c, best_nc = _reach_split(most, caller)
    if w == caller:
        r = best_nc - drain
        return max(2 * (t - 5) if t >= 6 else -INF, -2 * (r - 5) if r >= 6 else 0)
    r = best_c - drain
    return min(-2 * (t - 5) if t >= 6 else INF, 2 * (r - 5) if r >= 6 else 0)


def _reach_split(most: list[int], caller: int) -> tuple[int, int]:
    """What the caller can reach, and the most either non-caller can."""
    return most[caller], max(most[s] for s in range(3) if s != caller)


def _reach_bounds(most: list[int], caller: int) -> tuple[int, int]:
    """The bounds :func:`reach` gives: a side that cannot reach six can at best make the deal void."""
    best_c, best_nc = _reach_split(most, caller)
    return (-2 * (best_nc - 5) if best_nc >= 6 else 0), (2 * (best_c - 5) if best_c >= 6 else 0)


def _single_trick_bounds(pos: Position) -> tuple[int, int]:
    """:func:`value_bounds` inside a trick led with a single: the rest of the trick is played
    out over every choice that matters. Whoever can beat must (R9), so a seat still to play
    either discards or beats with a higher card of the suit; each way the trick can end is
    bounded as at the next lead (:func:`_lead_bound`, with what each seat can reach after the
    trick), and the choices are combined as the search would: the caller takes the best, a
    non-caller the worst. Which cards a seat discards only shrinks its own hand, except when
    one card each is left: then the kept card is a choice too, and the last trick is valued
    exactly (:func:`_last_trick_value`), as is the end after the last trick (R15).
    """
    caller = pos.caller
    hands = pos.hands
    fu = pos.fu
    left = pos.cards_per_hand() - 1  # cards each seat holds once the trick is over
    rest = [(pos.leader + j) % 3 for j in range(len(pos.trick), 3)]
    up0 = pos.faceup | pos.trick_faceup

    def ended(w: int, rem: list[int], up: int) -> tuple[int, int]:
        after = [fu[j] + (1 if j == w else 0) for j in range(3)]
        if left <= 1:
            v = (
                end_outcome(after, w, caller).points[caller]
                if left == 0
                else _last_trick_value(rem, w, after, up, caller)
            )
            return v, v
        most = [a + left for a in after]
        lo, hi = _reach_bounds(most, caller)
        b = _lead_bound(pos, w, rem[w], after[w], up, most)
        if w == caller:
            return max(lo, b), hi
        hi = min(hi, b)
        if S.R7_AHEAD and left >= 3 and lo < hi and not _has_set_or_run(rem[w]):
            # the seats still to play that discarded keep their whole hand here: one card unknown
            unsure = sum(1 << 4 * s for s in rest if rem[s] == hands[s])
            alo, ahi = _r7_ahead_bounds(caller, w, rem, after, up, left, unsure)
            lo, hi = max(lo, alo), min(hi, ahi)
        return lo, hi

    def choose(seat: int, options: list[tuple[int, int]]) -> tuple[int, int]:
        if seat == caller:
            return max(o[0] for o in options), max(o[1] for o in options)
        return min(o[0] for o in options), min(o[1] for o in options)

    def play(i: int, best: int, best_seat: int, led: bool, up: int, rem: list[int]) -> tuple[int, int]:
        if i == len(rest):
            return ended(best_seat, rem, up)
        s = rest[i]
        higher = 0 if led and best & UNBEATABLE_LEAD else hands[s] & _above_in_suit(best)
        options = []
        if not higher:
            if left != 1:
                return play(i + 1, best, best_seat, led, up, rem)
            for keep in _bits(hands[s]):  # discarding one of two cards: the one kept matters now
                options.append(play(i + 1, best, best_seat, led, up, _with(rem, s, keep)))
            return choose(s, options)
        for c in _bits(higher):
            options.append(play(i + 1, c, s, False, up | c, _with(rem, s, hands[s] & ~c)))
        return choose(s, options)

    return play(0, pos.best.cards, pos.best_seat, pos.best_i == 0, up0, list(hands))


def _r7_ahead_bounds(
    caller: int, w: int, hands: list[int], fu: list[int], up: int, left: int, unsure: int
) -> tuple[int, int]:
    """The R7 look-ahead (``switches.R7_AHEAD``): bounds at the lead of non-caller ``w`` holding no
    set and no run, ``left`` (at least 3) cards a hand, found at the end of a single-trick playout.
    Its moves are the claim (R14, when it may) and the singles R7 allows, so the least of their
    bounds bounds the value: each single's trick is played out once more (:func:`_ahead_play`),
    its ends bounded by the plain lead bound (one level, no recursion). This is the trick R7 forces
    a non-caller to hand back, which the sure claim cannot see.

    The seats in ``unsure`` (four bits a seat, :func:`_missing`: how many) discarded in the trick
    before, which the playout does not choose: each holds one card fewer than ``hands`` says (or
    more, for :func:`.discards.discard_ahead_bound`), any of them. Their choices are taken
    over everything some discard allows and joined on both sides (the least lower bound, the
    greatest upper one), and a lead of theirs is bounded by what each side can reach only."""
    hand = hands[w]
    old = old_cards(hand, up)
    lo = hi = INF
    t = fu[w] + old.bit_count()
    if t >= 6:
        lo = hi = payments(w, t, caller)[caller]
    nonold = hand & ~old
    singles = nonold & SUIT_MASK[(nonold.bit_length() - 1) // 9] if nonold else hand
    for c in _bits(singles):
        clo, chi = _ahead_play(caller, w, 1, c, w, True, up | c, _with(hands, w, hand & ~c), fu, left - 1, unsure)
        lo, hi = min(lo, clo), min(hi, chi)
    return lo, hi


def _ahead_play(
    caller: int,
    leader: int,
    j: int,
    best: int,
    bs: int,
    led: bool,
    up: int,
    rem: list[int],
    fu: list[int],
    left: int,
    unsure: int,
) -> tuple[int, int]:
    """The look-ahead's trick led with a single by ``leader``, from its ``j``-th player on (the
    best card ``best`` of seat ``bs``): :func:`_single_trick_bounds`' ``play`` with ``left`` (at
    least 2) cards a seat after the trick, and the seats of ``unsure`` missing unknown cards (four
    bits a seat: how many)."""
    if j == 3:
        after = [fu[k] + (1 if k == bs else 0) for k in range(3)]
        most = [a + left for a in after]
        lo, hi = _reach_bounds(most, caller)
        if _missing(unsure, bs):
            return lo, hi
        b = _claim_or_drain(caller, bs, rem[bs], after[bs], rem[(bs + 1) % 3], rem[(bs + 2) % 3], up, most)
        return (max(lo, b), hi) if bs == caller else (lo, min(hi, b))
    s = (leader + j) % 3
    h = rem[s]
    higher = 0 if led and best & UNBEATABLE_LEAD else h & _above_in_suit(best)
    if not higher:
        return _ahead_play(caller, leader, j + 1, best, bs, led, up, rem, fu, left, unsure)
    options = [
        _ahead_play(caller, leader, j + 1, c, s, False, up | c, _with(rem, s, h & ~c), fu, left, unsure)
        for c in _bits(higher)
    ]
    m = _missing(unsure, s)
    if not m:
        pick = max if s == caller else min
        return pick(o[0] for o in options), pick(o[1] for o in options)
    if higher.bit_count() <= m:  # its higher cards may be the ones it discarded
        options.append(_ahead_play(caller, leader, j + 1, best, bs, led, up, rem, fu, left, unsure))
    return min(o[0] for o in options), max(o[1] for o in options)


def _bits(mask: int) -> list[int]:
    """The single-card masks of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _with(rem: list[int], seat: int, hand: int) -> list[int]:
    out = list(rem)
    out[seat] = hand
    return out


def _last_trick_value(cards: list[int], w: int, fu: list[int], up: int, caller: int) -> int:
    """The exact value when each seat holds one card and seat ``w`` is to lead: it claims (R14)
    or leads, whichever is better for its side; then whoever can beat must (R9) and R15 ends
    the deal."""
    best, bs, led = cards[w], w, True
    for j in (1, 2):
        s = (w + j) % 3
        if not (led and best & UNBEATABLE_LEAD) and cards[s] & _above_in_suit(best):
            best, bs, led = cards[s], s, False
    after = list(fu)
    after[bs] += 1
    v = end_outcome(after, bs, caller).points[caller]
    t = fu[w] + old_cards(cards[w], up).bit_count()
    if t >= 6:
        claim = payments(w, t, caller)[caller]
        v = max(v, claim) if w == caller else min(v, claim)
    return v


def _above_in_suit(card: int) -> int:
    """The cards of ``card``'s suit above it."""
    top = card.bit_length() - 1
    return (1 << ((top // 9 + 1) * 9)) - (1 << (top + 1))


def reach(pos: Position) -> list[int]:
    """The most total (fu won, or fu plus Old cards shown in a claim) each seat can still end with.

    Only a seat's own cards ever count for it (R10, R14), each at most once: those it wins
    tricks with and the Old ones it still holds when it claims. So a seat reaches at most its fu
    plus its hand, plus the cards of its play in the trick in progress while that play can still
    win the trick: only while nobody still to play can beat it, since whoever can must (R9). A
    seat still to play that cannot beat the best play will discard, losing as many cards as were
    led (a play that beats the best one would beat what it cannot).
    """
    most = [pos.fu[s] + pos.hands[s].bit_count() for s in range(3)]
    if pos.trick:
        best = pos.best
        rest, beaters = _still_to_play(pos)
        if not beaters:
            most[pos.best_seat] += best.size
        k = pos.trick[0].size
        for s in rest:
            if s not in beaters:
                most[s] -= k
    return most


def _still_to_play(pos: Position) -> tuple[list[int], list[int]]:
    """The seats still to play in the trick in progress, in order, and those of them that can
    beat its best play."""
    best = pos.best
    best_led = pos.best_i == 0
    rest = [(pos.leader + j) % 3 for j in range(len(pos.trick), 3)]
    return rest, [s for s in rest if can_beat(pos.hands[s], best, best_led)]


def trick_claim(pos: Position) -> tuple[int, int]:
    """Mid-trick: (the claim total the trick's certain winner can force at its next lead, that
    seat), or (0, -1) when the winner is not certain (see :func:`_next_leader`). The claim is
    counted as at a lead against the others' current hands: their discards only shrink them,
    which can only make more of the winner's plays unbeatable, so the count stays a guarantee;
    when the winner still chooses its card, the best choice counts."""
    if not pos.trick:
        return 0, -1
    w, options = _next_leader(pos)
    if not options:
        return 0, -1
    o1, o2 = pos.hands[(w + 1) % 3], pos.hands[(w + 2) % 3]
    return max(_sure_claim(w, hand, fu, o1, o2, up, pos.caller)[0] for hand, fu, up in options), w


def sure_claim(pos: Position) -> int:
    """The claim total the seat about to lead can force (0 if none is sure): its fu, its Old
    cards, and one more for each non-Old card it can cash in plays that nobody can beat.

    A play nobody can beat wins its trick (followers must beat if they can, and cannot; hands
    only shrink, so it stays unbeatable) and the winner leads again; cashing moves cards from
    the hand to the face-up cards, so the leader's Old cards stay Old. The strategy is greedy
    and real, so the total is a true guarantee: first sets and runs nobody can beat (free leads
    for everyone, R6 aside), then singles above every card the others hold in their suit — for
    a non-caller only what R7 lets it lead: non-Old cards of the highest suit holding one.
    """
    s = pos.to_move
    return _sure_claim(
        s, pos.hands[s], pos.fu[s], pos.hands[(s + 1) % 3], pos.hands[(s + 2) % 3], pos.faceup, pos.caller
    )[0]


def _sure_claim(s: int, hand: int, fu: int, o1: int, o2: int, faceup: int, caller: int) -> tuple[int, int]:
    """:func:`sure_claim` for seat ``s`` leading with ``hand`` and ``fu`` against hands ``o1``, ``o2``;
    with it, the *drain*: how many cards the seat can play in tricks nobody can beat, each taking
    as many cards from each other hand (its Old singles too: nobody holds a higher card; for a
    non-caller only once R7 lets it lead them, when every card left is Old)."""
    old = old_cards(hand, faceup)
    passed_master = s == 0 and caller != 0
    cashed = 0
    drain = 0
    for r in range(1, 10):  # sets nobody can beat
        m = hand & RANK_MASK[r]
        k = m.bit_count()
        if k < 3 or (k == 4 and passed_master):
            continue
        if not can_beat(o1, Play(SET, m, k), True) and not can_beat(o2, Play(SET, m, k), True):
            cashed += (m & ~old).bit_count()
            drain += k
            hand &= ~m
    for suit in range(4):  # runs nobody can beat: the longest in each stretch of the suit
        shift = 9 * suit
        for run in _maximal_runs((hand >> shift) & SUIT_MASK9):
            while passed_master and run.bit_count() > 3:
                run &= run - 1  # R6 allows three: keep the top three
            p = Play(RUN, run << shift, run.bit_count())
            if not can_beat(o1, p, True) and not can_beat(o2, p, True):
                cashed += (p.cards & ~old).bit_count()
                drain += p.size
                hand &= ~p.cards
    others = o1 | o2
    sure = 0
    for suit in range(4):
        shift = 9 * suit
        o9 = (others >> shift) & SUIT_MASK9
        h9 = (hand >> shift) & SUIT_MASK9
        sure |= (h9 & ~((1 << o9.bit_length()) - 1)) << shift
    sure &= ~old
    if s == caller:
        cashed += sure.bit_count()
        drain += (sure | (hand & old)).bit_count()
    else:
        singles = 0
        nonold = hand & ~old
        while nonold:
            top_suit = (nonold.bit_length() - 1) // 9
            in_suit = nonold & SUIT_MASK[top_suit]
            can = in_suit & sure
            if not can:
                break
            singles += can.bit_count()
            if can != in_suit:
                break  # the suit still holds a non-Old card that is not sure: R7 keeps it on top
            nonold &= ~in_suit
        cashed += singles
        drain += singles + ((hand & old).bit_count() if not nonold else 0)
    total = fu + old.bit_count() + cashed
    return (total if total >= 6 else 0), drain


def _maximal_runs(m9: int) -> list[int]:
    """The maximal stretches of three or more consecutive ranks in a 9-bit suit mask."""
    out = []
    while m9:
        low = m9 & -m9
        stretch = low
        while m9 & (stretch << 1) & ~stretch:
            stretch |= stretch << 1 & m9
        m9 &= ~stretch
        if stretch.bit_count() >= 3:
            out.append(stretch)
    return out
