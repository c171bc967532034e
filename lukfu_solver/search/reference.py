"""Exact perfect-information search (M1): alpha-beta with a transposition table, in the manner
of the bridge double-dummy solvers.

The value of a position is the caller's net points under best play, the caller maximising and
the two non-callers minimising together: an even integer from −14 to +14 (R16–R17 make every
payment to or from the caller even). The driver asks zero-window questions ("can the caller
make at least v?") and moves the target, as DDS does; each answer tightens bounds stored in
the table, so later questions reuse earlier work.

>>> from lukfu_solver.position import Position
>>> res = Solver().solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))
>>> res.value, str(res.best)
(4, 'claim')
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..cards import RANK_MASK, RUNS9, SUIT_MASK, SUIT_MASK9, UNBEATABLE_LEAD, old_cards
from ..plays import CLAIM, DISCARD, RUN, SET, SINGLE, Play
from ..position import Z_FACEUP, Position, zmask
from ..rules import can_beat, end_outcome, payments

MAX_VALUE = 14
MIN_VALUE = -14
INF = 100


class SearchAborted(Exception):
    """Raised inside the search when the node or time limit is reached."""


class ProbeSettled(Exception):
    """Raised inside a zero-window test when another search of the same position has already
    proved bounds that answer it (fastsearch.FastSolver with threads=2)."""


@dataclass
class SolveResult:
    """What a solve found: the value (or bounds when stopped early), the best move, the principal
    variation, the value of every root move (all-moves mode) and the search statistics."""

    value: int | None
    lower: int
    upper: int
    best: Play | None
    pv: list[Play] = field(default_factory=list)
    moves: dict[Play, int] = field(default_factory=dict)
    nodes: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    ms: float = 0.0
    complete: bool = True
    stopped: str | None = None
    """Why an incomplete search stopped: ``"nodes"`` (max_nodes) or ``"time"`` (time_limit)."""

    @property
    def hit_rate(self) -> float:
        """Share of table probes that found an entry."""
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0


def value_bounds(pos: Position) -> tuple[int, int]:
    """Bounds on the value that need no search: what each side can still reach (R15–R17), and,
    when the next leader is certain, what it can force by cashing plays nobody can beat: a claim
    (R14), or the other side drained below six (:func:`_lead_bound`).

    A side that can no longer reach six (see :func:`reach`) can at best make the deal void.
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
    return lower, upper


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
    caller = pos.caller
    t, drain = _sure_claim(w, hand, fu, pos.hands[(w + 1) % 3], pos.hands[(w + 2) % 3], up, caller)
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
        return (max(lo, b), hi) if w == caller else (lo, min(hi, b))

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


class Solver:
    """Alpha-beta search with a transposition table (lower/upper bounds and best move per key),
    consulted at every node (DDS: at trick boundaries), driven by zero-window tests (MTD(f) by default).

    The table persists across calls (useful for all-moves and principal-variation passes, and
    for batches of related positions); ``max_entries`` bounds its memory: when full, the entries
    nearest the end of the deal (cheapest to recompute) are dropped first.
    """

    def __init__(self, max_entries: int = 2_000_000, driver: str = "mtdf", reduce: bool = True) -> None:
        self.reduce = reduce
        self.tt: dict[int, list] = {}
        self.max_entries = max_entries
        self.driver = driver
        self.nodes = 0
        self.tt_probes = 0
        self.tt_hits = 0
        self.history: dict[tuple[int, int], int] = {}
        # the killer moves of each ply (moves since the solve's root) and seat to move: the last
        # two moves that cut off there, tried right after the table's move and claims (DDS's "last
        # cutoff move per depth"; bench/solve.py set b, kernel, in total: one killer a ply 58 s ->
        # 37 s, a second 37 -> 32 s, two a ply and seat 32.6 -> 29.3 s)
        self.killers: dict[tuple[int, int], tuple[Play, Play | None]] = {}
        self._limit_nodes = 0
        self._deadline = 0.0
        self._next_check = 0
        self._stopped: str | None = None
        self._pos: Position

    # ------------------------------------------------------------ public

    def solve(
        self,
        pos: Position,
        all_moves: bool = False,
        max_nodes: int | None = None,
        time_limit: float | None = None,
    ) -> SolveResult:
        """Solve ``pos`` exactly; stop early (returning bounds) at ``max_nodes`` or ``time_limit`` s."""
        t0 = time.perf_counter()
        self.nodes = self.tt_probes = self.tt_hits = 0
        self._limit_nodes = max_nodes or 0
        self._deadline = t0 + time_limit if time_limit else 0.0
        self._stopped = None
        self._next_check = self._schedule()
        pos = pos.copy()
        self._pos = pos
        lo, hi = value_bounds(pos)
        result = SolveResult(None, lo, hi, None)
        try:
            lo, hi = self._drive(lo, hi, result)
            result.value = lo
            if pos.outcome is None:
                result.pv = self._pv(result.value)
                result.best = result.pv[0] if result.pv else None
                if all_moves:
                    for m in self._ordered(list(pos.legal_moves()), None):
                        pos.push(m)
                        try:
                            result.moves[m] = self._exact(*value_bounds(pos))
                        finally:
                            pos.pop()
        except SearchAborted:
            self._stopped_early(result)
        return self._with_statistics(result, t0)

    def value(self, pos: Position) -> int:
        """The exact value of ``pos`` (M1)."""
        return self.solve(pos).value  # type: ignore[return-value]

    def _stopped_early(self, result: SolveResult) -> None:
        """Mark ``result`` unfinished; its lower/upper already hold the tightest bounds the
        finished probes proved (the driver keeps them current), the value when they meet."""
        result.complete = False
        result.stopped = self._stopped
        if result.lower == result.upper:
            result.value = result.lower

    def _with_statistics(self, result: SolveResult, t0: float) -> SolveResult:
        """``result`` with this search's node, probe and hit counts and its time since ``t0``."""
        result.nodes = self.nodes
        result.tt_probes = self.tt_probes
        result.tt_hits = self.tt_hits
        result.ms = (time.perf_counter() - t0) * 1000
        return result

    # ------------------------------------------------------------ drivers

    def _drive(self, lo: int, hi: int, result: SolveResult) -> tuple[int, int]:
        """Narrow [lo, hi] to the exact value with zero-window tests; keeps ``result`` bounds current.

        The first test is halfway. Then ``bisect`` keeps halving, while ``mtdf`` tests next at the
        bound the last answer returned (a fail-soft search often returns the value itself: after
        "below 0, at most −2" it asks "at least −2?"), one grid step above it after a success.
        """
        g = target = None
        while True:
            lo, hi = self._merge_bounds(lo, hi)
            result.lower, result.upper = lo, hi
            if lo >= hi:
                return lo, hi
            if self.driver == "mtdf" and g is not None and target is not None:
                target = min(max(g + 2 if g >= target else g, lo + 1), hi)
            else:
                target = _midpoint(lo, hi)
            try:
                g = self._ab(target - 1, target)
            except ProbeSettled:  # another thread's bounds answered this test: start afresh
                g = target = None
                continue
            if g >= target:
                lo = g
            else:
                hi = g

    def _merge_bounds(self, lo: int, hi: int) -> tuple[int, int]:
        """The root bounds [lo, hi] joined with what other searches of the same position proved
        (none here; see fastsearch.FastSolver's threads)."""
        return lo, hi

    def _exact(self, lo: int, hi: int) -> int:
        dummy = SolveResult(None, lo, hi, None)
        return self._drive(lo, hi, dummy)[0]

    def _pv(self, value: int) -> list[Play]:
        """The principal variation to the end: at each step a move whose child keeps ``value``."""
        pos = self._pos
        line: list[Play] = []
        while pos.outcome is None:
            maximizing = pos.to_move == pos.caller
            entry = self.tt.get(tt_key(pos))
            moves = self._ordered(list(pos.legal_moves()), entry[2] if entry else None)
            chosen = None
            for m in moves:
                pos.push(m)
                # does this child keep the value? (max: child ≥ value; min: child ≤ value)
                g = self._ab(value - 1, value) if maximizing else self._ab(value, value + 1)
                if (maximizing and g >= value) or (not maximizing and g <= value):
                    chosen = m
                    break
                pos.pop()
            if chosen is None:  # cannot happen when value is exact
                raise AssertionError("principal variation lost the value")
            line.append(chosen)
        for _ in line:
            pos.pop()
        return line

    # ------------------------------------------------------------ the search

    def _ordered(self, moves: list[Play], tt_move: Play | None) -> list[Play]:
        """Move ordering: the table's move, claims, plays that take the trick outright (the
        largest first for leads, the cheapest for followers), then by history, then cheap
        discards (low, non-Old cards first)."""
        pos = self._pos
        s = pos.to_move
        hist = self.history
        hands = pos.hands
        n1 = hands[(s + 1) % 3]
        n2 = hands[(s + 2) % 3]
        n_played = len(pos.trick)
        old = pos.old_cards(s) if moves and moves[-1].kind == DISCARD else 0

        killer, killer2 = self.killers.get((pos.ply, s), (None, None))

        def score(m: Play) -> int:
            if m == tt_move:
                return -(10**9)
            kind = m.kind
            if kind == CLAIM:
                return -(10**8)
            if m == killer:
                return KILLER_SCORE
            if m == killer2:
                return KILLER2_SCORE
            h = hist.get((s, m.cards), 0)
            if kind == DISCARD:
                return 10**6 - h + _low_score(m.cards) + 20 * (m.cards & old).bit_count()
            if n_played == 0:
                wins = not can_beat(n1, m, True) and not can_beat(n2, m, True)
                return (-(10**5) if wins else 0) - h - 10 * m.size
            if n_played == 1:
                wins = not can_beat(n1, m, False)
                return (-(10**5) if wins else 0) - h + m.rank
            return -h + m.rank

        moves.sort(key=score)
        return moves

    def _ab(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the current position; returns the caller's points."""
        pos = self._pos
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()
        outcome = pos.outcome
        if outcome is not None:
            return outcome.points[pos.caller]
        lo, hi = value_bounds(pos)
        if lo >= beta or hi <= alpha or lo == hi:
            return lo if lo >= beta or lo == hi else hi
        # the table at every node, mid-trick too (DDS keeps it to trick boundaries): positions
        # inside a trick rarely transpose, but MTD(f)'s successive tests walk the same tree again,
        # and an entry there stops the walk before the moves are generated (bench/solve.py: set b
        # 80 s -> 68 s in total, median 0.27 -> 0.23 s)
        key = tt_key(pos)
        self.tt_probes += 1
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            self.tt_hits += 1
            elo, ehi, tt_move = entry
            if elo >= beta:
                return elo
            if ehi <= alpha:
                return ehi
            if elo == ehi:
                return elo
            if elo > lo:
                lo = elo
            if ehi < hi:
                hi = ehi
        a0, b0 = alpha, beta
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        maximizing = pos.to_move == pos.caller
        moves = self._ordered(reduced_moves(pos) if self.reduce else list(pos.legal_moves()), tt_move)
        best_move = moves[0]
        if maximizing:
            g = -INF
            for m in moves:
                pos.push(m)
                v = self._ab(alpha, beta)
                pos.pop()
                if v > g:
                    g = v
                    best_move = m
                    if g > alpha:
                        alpha = g
                        if g >= beta:
                            self._reward(m)
                            break
        else:
            g = INF
            for m in moves:
                pos.push(m)
                v = self._ab(alpha, beta)
                pos.pop()
                if v < g:
                    g = v
                    best_move = m
                    if g < beta:
                        beta = g
                        if g <= alpha:
                            self._reward(m)
                            break
        # store bounds: g is exact inside (a0, b0), a lower bound at or above b0, an upper at or below a0
        # the best move is kept only when some move did not fail low for the side to move: after
        # a fail low it is merely the least bad refuted move, and as the table's move it misled the
        # ordering of later tests (one full deal: 592 M nodes with it, 98 M without)
        improved = g > a0 if maximizing else g < b0
        if entry is None:
            entry = [lo, hi, best_move if improved else None]
            if len(self.tt) >= self.max_entries:
                self._evict()
            self.tt[key] = entry
        if g <= a0:
            entry[1] = min(entry[1], g)
        elif g >= b0:
            entry[0] = max(entry[0], g)
        else:
            entry[0] = entry[1] = g
        if improved:
            entry[2] = best_move
        return g

    def _reward(self, m: Play) -> None:
        """A move cut off: it becomes the first killer of its ply and seat (the previous first is
        second) and gains history (more, the more cards are left)."""
        at = (self._pos.ply, self._pos.to_move)
        first = self.killers.get(at, (None, None))[0]
        if m != first:
            self.killers[at] = (m, first)
        k = (self._pos.to_move, m.cards)
        n = self._pos.hands[self._pos.to_move].bit_count() + 1
        self.history[k] = self.history.get(k, 0) + n * n

    def _schedule(self) -> int:
        """The node count at which limits are next checked: the node limit itself (exact), or
        the next multiple of 4096 nodes for the clock, whichever comes first."""
        nxt = (self.nodes | 0xFFF) + 1 if self._deadline else 1 << 62
        if self._limit_nodes:
            nxt = min(nxt, self._limit_nodes + 1)
        return nxt

    def _check_limits(self) -> None:
        if self._limit_nodes and self.nodes > self._limit_nodes:
            self._stopped = "nodes"
            self.nodes = self._limit_nodes  # the node that crossed the limit is not searched
            raise SearchAborted
        if self._deadline and time.perf_counter() >= self._deadline:
            self._stopped = "time"
            raise SearchAborted
        self._next_check = self._schedule()

    def _evict(self) -> None:
        """Replacement policy: drop the older half of the table (dict order is insertion order)."""
        keys = list(self.tt)
        for k in keys[: len(keys) // 2]:
            del self.tt[k]


def equivalence_classes(pos: Position) -> tuple[list[int], list[int]]:
    """Classes of interchangeable cards in the hand of the seat to move (rank equivalence).

    Two cards of one suit in one hand are interchangeable as singles when every card between
    them has been played face up in a completed trick and neither can take part in a set or a
    run of that hand (hands only shrink, so it never will), and neither is C1 or T1 (R8, R11):
    no live card separates them, and
    each is Old exactly when the other is (R12). Swapping them maps every line of play onto an
    equally valued one. As *discards* they differ: the kept card may become Old later, and only
    the higher one can. For a non-caller that can matter either way (Old cards raise its claim
    but R7 restricts which of its singles it may lead), so discarding them is treated as
    interchangeable only when a face-down card above already blocks both from ever becoming
    Old. For the caller, keeping the higher card *dominates*: it wins and loses the same tricks
    (no live card lies between), is Old whenever the lower one would be, and more Old cards only
    widen the caller's claims (R7 does not bind the caller; the others' Old cards do not change,
    since of the two one stays hidden and one face down either way). So the caller's discards
    are searched with the lowest cards of each class only.

    Returns (single classes, discard classes), each a list of card masks with 2+ cards.
    """
    s = pos.to_move
    hand = pos.hands[s]
    busy = 0
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3:
            busy |= m
    up = pos.faceup
    blocked_below = 0  # per suit: cards below the highest face-down card
    down = pos.facedown
    for suit in range(4):
        shift = 9 * suit
        m9 = (hand >> shift) & SUIT_MASK9
        for run in RUNS9[m9]:
            busy |= run << shift
        d9 = (down >> shift) & SUIT_MASK9
        if d9:
            blocked_below |= ((1 << (d9.bit_length() - 1)) - 1) << shift
    if s == pos.caller:
        blocked_below = -1  # the caller: keeping the higher card dominates (see the docstring)
    free = hand & ~busy & ~UNBEATABLE_LEAD  # C1 and T1 are special: always Old, unbeatable led
    singles: list[int] = []
    discards: list[int] = []
    for suit in range(4):
        shift = 9 * suit
        f = (free >> shift) & SUIT_MASK9
        if f.bit_count() < 2:
            continue
        up9 = (up >> shift) & SUIT_MASK9
        cls = 0
        prev = -1
        for r in range(9):
            if not f >> r & 1:
                continue
            if prev >= 0 and ((((1 << r) - 1) & ~((1 << (prev + 1)) - 1)) & ~up9) == 0:
                cls |= 1 << r
            else:
                _close(cls, shift, blocked_below, singles, discards)
                cls = 1 << r
            prev = r
        _close(cls, shift, blocked_below, singles, discards)
    return singles, discards


def _close(cls9: int, shift: int, blocked_below: int, singles: list[int], discards: list[int]) -> None:
    if cls9.bit_count() < 2:
        return
    cls = cls9 << shift
    singles.append(cls)
    if cls & blocked_below == cls:
        discards.append(cls)


def reduced_moves(pos: Position) -> list[Play]:
    """The legal moves with interchangeable ones searched once (see :func:`equivalence_classes`):
    of a class of singles only the lowest card; of discards only those that take the lowest
    cards of each discard class."""
    moves = list(pos.legal_moves())
    if len(moves) < 2:
        return moves
    singles, discards = equivalence_classes(pos)
    if not singles:
        return moves
    skip = 0
    for c in singles:
        skip |= c & ~(c & -c)  # every card of the class but the lowest
    out = []
    for m in moves:
        if m.kind == SINGLE:
            if m.cards & skip:
                continue
        elif m.kind == DISCARD and discards:
            ok = True
            for c in discards:
                d = m.cards & c
                if d and d != _lowest_bits(c, d.bit_count()):
                    ok = False
                    break
            if not ok:
                continue
        out.append(m)
    return out


def _lowest_bits(mask: int, k: int) -> int:
    out = 0
    for _ in range(k):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def _relevant9(live9: int) -> int:
    """Ranks of a suit above its lowest live card: the only ones whose face-up state can matter."""
    if not live9:
        return 0
    low = live9 & -live9
    return SUIT_MASK9 & ~((low << 1) - 1)


RELEVANT9 = tuple(_relevant9(m) for m in range(512))


def tt_key(pos: Position) -> int:
    """The table key: the position's Zobrist key with face-up cards that can no longer matter
    taken out. A face-up card only matters (R12) while a lower card of its suit is still in a
    hand; below the lowest such card, face up and face down are the same, so those positions
    share one entry."""
    live = pos.hands[0] | pos.hands[1] | pos.hands[2]
    up = pos.faceup
    irrelevant = up & ~(
        RELEVANT9[live & SUIT_MASK9]
        | RELEVANT9[(live >> 9) & SUIT_MASK9] << 9
        | RELEVANT9[(live >> 18) & SUIT_MASK9] << 18
        | RELEVANT9[live >> 27] << 27
    )
    return pos.key ^ zmask(Z_FACEUP, irrelevant) if irrelevant else pos.key


KILLER_SCORE = -(5 * 10**7)
"""The killer move's sort key: after the table's move and claims, before every other move."""
KILLER2_SCORE = -(4 * 10**7)
"""The ply's second killer (the killer before the last) comes next."""


def _low_score(cards: int) -> int:
    s = 0
    while cards:
        low = cards & -cards
        i = low.bit_length() - 1
        s += i % 9
        cards ^= low
    return s


def _midpoint(lo: int, hi: int) -> int:
    """A target strictly above lo and at most hi, halfway, on the even value grid."""
    mid = (lo + hi) // 2
    if mid % 2:
        mid += 1
    if mid <= lo:
        mid = lo + 2 if lo + 2 <= hi else hi
    return mid


def plain_alphabeta(pos: Position, max_nodes: int = 0) -> tuple[int | None, int]:
    """The baseline: alpha-beta with no table, no ordering and no bounds. Returns (value, nodes);
    value None when ``max_nodes`` was reached first."""
    pos = pos.copy()
    caller = pos.caller
    count = [0]

    def ab(alpha: int, beta: int) -> int:
        count[0] += 1
        if max_nodes and count[0] > max_nodes:
            raise SearchAborted
        if pos.outcome is not None:
            return pos.outcome.points[caller]
        maximizing = pos.to_move == caller
        g = -INF if maximizing else INF
        for m in list(pos.legal_moves()):
            pos.push(m)
            v = ab(alpha, beta)
            pos.pop()
            if maximizing:
                g = max(g, v)
                alpha = max(alpha, g)
            else:
                g = min(g, v)
                beta = min(beta, g)
            if alpha >= beta:
                break
        return g

    try:
        return ab(-INF, INF), count[0]
    except SearchAborted:
        return None, count[0]


def iter_pv_positions(pos: Position, pv: list[Play]) -> Iterator[Position]:
    """The positions along a principal variation, starting with ``pos`` itself."""
    p = pos.copy()
    yield p.copy()
    for m in pv:
        p.push(m)
        yield p.copy()
