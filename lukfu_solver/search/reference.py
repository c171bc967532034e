"""The reference exact solver (M1): alpha-beta with a transposition table, in the manner of the
bridge double-dummy solvers, in plain Python.

The value of a position is the caller's net points under best play, the caller maximising and
the two non-callers minimising together: an even integer from −14 to +14 (R16–R17 make every
payment to or from the caller even). The driver (:class:`~.driver.ZeroWindowDriver`) asks
zero-window questions ("can the caller make at least v?") and moves the target, as DDS does;
each answer tightens bounds stored in the table, so later questions reuse earlier work. This
module holds the search itself: the table and its key, move ordering (table move, claims,
killers, history), the alpha-beta, and the plain alpha-beta baseline. It is the readable
specification the compiled kernel is held to (``docs/search.md``).

>>> from lukfu_solver.position import Position
>>> res = Solver().solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))
>>> res.value, str(res.best)
(4, 'claim')
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..cards import ALL_CARDS, RANK_MASK, SUIT_MASK9, UNBEATABLE_LEAD, CardSet
from ..plays import CLAIM, DISCARD, SINGLE, Play
from ..position import Z_FACEUP, Z_HAND, Z_TRICK_DOWN, Position, zmask
from ..rules import can_beat
from . import bounds as _bounds
from . import discards as _discards
from .bounds import reach, value_bounds
from .driver import ZeroWindowDriver
from .reductions import reduced_moves
from .result import INF, MAX_VALUE, MIN_VALUE, ProbeSettled, SearchAborted, SolveResult

__all__ = [
    "INF",
    "KILLER2_SCORE",
    "KILLER_SCORE",
    "MAX_VALUE",
    "MIN_VALUE",
    "ProbeSettled",
    "BELOW_TOP9",
    "SearchAborted",
    "SolveResult",
    "Solver",
    "TT_MIN_CARDS",
    "blocked_cards",
    "iter_pv_positions",
    "plain_alphabeta",
    "reach",
    "reduced_moves",
    "tt_key",
    "value_bounds",
]
"""Besides its own names, the names other modules import from here since the search was one
file (the results, the value range, the bounds, the reduction): the same objects as in
:mod:`.result`, :mod:`.bounds` and :mod:`.reductions`."""


TT_MIN_CARDS = (0, 0, 8)
"""By the cards already played in the trick (0, 1 or 2): a node whose seat to move holds fewer
cards than this neither probes nor stores the table (issue 13, tenth round; the kernel's
``alphabeta.TT_MIN_CARDS`` is the same)."""

LAST_KEY = True
"""Issue 13, twelfth round: where the second player of a trick discarded and the last one cannot
beat the lead, the table is used (whatever the hand's size) under :func:`last_key`, the key of the
position as if that discard were already gone; ``kernel.alphabeta.LAST_KEY`` is the same."""

Z_LAST = 0x5A3C6E1F0B9D2748
"""Mixed into :func:`last_key`'s keys, so that they never meet :func:`tt_key`'s."""


class Solver(ZeroWindowDriver):
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
        guess: int | None = None,
    ) -> SolveResult:
        """Solve ``pos`` exactly; stop early (returning bounds) at ``max_nodes`` or ``time_limit`` s.
        ``guess`` (an expected value) is where the driver's first test goes; the value never
        depends on it."""
        t0 = time.perf_counter()
        self.nodes = self.tt_probes = self.tt_hits = 0
        self._limit_nodes = max_nodes or 0
        self._descend = not max_nodes
        self._deadline = t0 + time_limit if time_limit else 0.0
        self._stopped = None
        self._next_check = self._schedule()
        pos = pos.copy()
        self._pos = pos
        lo, hi = value_bounds(pos)
        result = SolveResult(None, lo, hi, None)
        try:
            lo, hi = self._drive(lo, hi, result, guess)
            result.value = lo
            if pos.outcome is None:
                result.pv = self._pv(result.value)
                result.best = result.pv[0] if result.pv else None
                if all_moves:
                    maximizing = pos.to_move == pos.caller
                    for m in self._ordered(list(pos.legal_moves()), None):
                        pos.push(m)
                        try:
                            result.moves[m] = self._exact_move(*value_bounds(pos), result.value, maximizing)
                        finally:
                            pos.pop()
        except SearchAborted:
            self._stopped_early(result)
        return self._with_statistics(result, t0)

    def bounds(self, pos: Position) -> tuple[int, int]:
        """The bounds on the value of ``pos`` known without search (:func:`.bounds.value_bounds`)."""
        return value_bounds(pos)

    # ------------------------------------------------------------ the principal variation

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
        key = entry = tt_move = None
        if LAST_KEY and len(pos.trick) == 2:
            key = last_key(pos)
        if key is None and pos.hands[pos.to_move].bit_count() >= TT_MIN_CARDS[len(pos.trick)]:
            key = tt_key(pos)
        if key is not None:
            self.tt_probes += 1
            entry = self.tt.get(key)
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
        # the caller's look-ahead only where the bounds and the table leave the test open, and only
        # up to beta (or the upper bound): it decides a zero-window test only by reaching beta; its
        # cut is stored as this node's fail high (no move), so that later tests find it in the table
        if _bounds.CALLER_AHEAD and not pos.trick and pos.to_move == pos.caller:
            stop = min(beta, hi)
            if lo < stop:
                b = _bounds._caller_lead_bound(pos, stop)
                if b >= stop:
                    return self._store(key, entry, lo, hi, b, alpha, beta, None)
                if b > lo:
                    lo = b
        # the coalition's look-ahead, the mirror at a non-caller's lead: down to alpha (or the lower
        # bound), its cut stored as this node's fail low (no move)
        if _bounds.COALITION_AHEAD and not pos.trick and pos.to_move != pos.caller:
            stop = max(alpha, lo)
            if _bounds.R7_AFTER_PROBE and not _bounds.R7_AT_LEAD and not _bounds._has_set_or_run(pos.hands[pos.to_move]):
                # the R7 one-trick bound here rather than in value_bounds: only where the table leaves it open
                lo1, hi1 = _bounds._r7_lead_bounds(pos)
                lo, hi = max(lo, lo1), min(hi, hi1)
                if lo >= beta or hi <= alpha or lo == hi:
                    return self._store(key, entry, lo, hi, lo if lo >= beta or lo == hi else hi, alpha, beta, None)
            elif hi > stop:
                b = _bounds._coalition_lead_bound(pos, stop)
                if b <= stop:
                    return self._store(key, entry, lo, hi, b, alpha, beta, None)
                if b < hi:
                    hi = b
        # the next leader's look-ahead for a follower's discards (tenth round): at a non-caller's
        # discard in a trick whose winner is certain, once for every discard of the seats still to
        # play; up to beta (or the upper bound), its cut stored as this node's fail high (no move),
        # as the caller's
        # (a trick led with a single that a non-caller wins is left out: there the bound is the R7
        # look-ahead that value_bounds' single-trick playout already gives, never above lo)
        if (
            _discards.DISCARD_AHEAD
            and pos.trick
            and pos.to_move != pos.caller
            and (pos.trick[0].kind != SINGLE or pos.best_seat == pos.caller)
        ):
            stop = min(beta, hi)
            if lo < stop:
                b = _discards.discard_ahead_bound(pos, stop, lo)
                if b >= stop:
                    return self._store(key, entry, lo, hi, b, alpha, beta, None)
                if b > lo:
                    lo = b
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
        return self._store(key, entry, lo, hi, g, a0, b0, best_move if improved else None)

    def _store(
        self, key: int | None, entry: list | None, lo: int, hi: int, g: int, a0: int, b0: int, move: Play | None
    ) -> int:
        """Store the node's result ``g`` of the window (a0, b0) under ``key`` (a new entry starts from
        the node's bounds ``lo``, ``hi``): exact inside the window, a lower bound at or above b0,
        an upper one at or below a0; ``move`` (None: keep the entry's) is the table move. Returns g;
        a node with no key (below :data:`TT_MIN_CARDS`) stores nothing."""
        if key is None:
            return g
        if entry is None:
            entry = [lo, hi, move]
            if len(self.tt) >= self.max_entries:
                self._evict()
            self.tt[key] = entry
        if g <= a0:
            entry[1] = min(entry[1], g)
        elif g >= b0:
            entry[0] = max(entry[0], g)
        else:
            entry[0] = entry[1] = g
        if move is not None:
            entry[2] = move
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
        the next multiple of 1024 nodes for the clock, whichever comes first (a node's bounds, the
        R7 look-ahead among them, can cost a millisecond here: 4096 nodes overran a 50 ms limit
        by about a second on a loaded machine)."""
        nxt = (self.nodes | 0x3FF) + 1 if self._deadline else 1 << 62
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


def _below_top9(m9: int) -> int:
    """The ranks of a suit below the highest rank of ``m9`` (0 when ``m9`` is empty)."""
    return (1 << (m9.bit_length() - 1)) - 1 if m9 else 0


BELOW_TOP9 = tuple(_below_top9(m) for m in range(512))
"""Per 9-bit rank mask: the ranks below its highest one (:func:`tt_key`, the blocked cards)."""


def blocked_cards(pos: Position) -> CardSet:
    """The cards in hands that a face-down discard of a completed trick keeps from ever being
    Old (R12): those below the highest such discard of their suit."""
    return _blocked(pos.hands[0] | pos.hands[1] | pos.hands[2], pos.facedown)


def _blocked(live: CardSet, down: CardSet) -> CardSet:
    """The cards of ``live`` below the highest card of ``down`` of their suit."""
    return (
        (live & BELOW_TOP9[down & SUIT_MASK9])
        | (live & (BELOW_TOP9[(down >> 9) & SUIT_MASK9] << 9))
        | (live & (BELOW_TOP9[(down >> 18) & SUIT_MASK9] << 18))
        | (live & (BELOW_TOP9[down >> 27] << 27))
    )


def tt_key(pos: Position) -> int:
    """The table key: the Zobrist key of the position's canonical form (:func:`canonical_hands`:
    cards slid down over gone cards), with the completed tricks' face-up cards replaced by the
    cards in hands they leave blocked (:func:`blocked_cards`).

    The cards of completed tricks are gone; whether one went face up or face down matters only
    through Old (R12): a card in a hand is Old for its holder when no other hand and no
    face-down card holds a higher one of its suit. For the cards in hands that is decided, per
    suit, by the highest face-down discard alone (every card below it is blocked, every card
    above it sees only face-up cards), and the hands only shrink and later discards are common
    to both lines, so two positions with the same hands, trick, fu and seat to move and the
    same blocked cards are the same game for ever: they share one entry. The gone cards are
    known from the hands and the trick, so the blocked cards stand for the split.
    """
    hands, down = canonical_hands(pos)
    return _canonical_key(pos, pos.key, hands, down)


def _canonical_key(pos: Position, key: int, hands: list[int], down: int) -> int:
    """``key`` (the position's Zobrist key, or :func:`last_key`'s start) with the hands made
    ``hands`` and the face-up cards replaced by the cards in ``hands`` that ``down`` blocks."""
    key ^= zmask(Z_FACEUP, pos.faceup)
    for s in range(3):
        if hands[s] != pos.hands[s]:
            key ^= zmask(Z_HAND[s], hands[s] ^ pos.hands[s])
    return key ^ zmask(Z_FACEUP, _blocked(hands[0] | hands[1] | hands[2], down))


def last_key(pos: Position) -> int | None:
    """The table key of the last player to a trick who can only discard, after the second
    player's discard (None elsewhere): :func:`tt_key` with that discard taken as already gone
    face down.

    The discard wins nothing and is never seen again; what it leaves behind is only that its
    cards are gone and block the cards below them (R12), as they will once the trick is over.
    The last player's moves are every discard of as many cards as the lead, whatever the second
    put down, and the lead wins. So two such positions whose hands, lead, fu and blocked cards
    agree once the discard counts as gone are the same game: the positions after the trick, for
    each discard of the last player, are the same (``tt_key``'s canonical form, with the
    discard's cards gone too). Many discards of the second player lead to one such position, so
    its entry decides the last player's node for them all (twelfth round of issue 13;
    ``tests/test_last_key.py`` proves the merge where it applies)."""
    trick = pos.trick
    if len(trick) != 2 or trick[1].kind != DISCARD:
        return None
    if can_beat(pos.hands[pos.to_move], trick[0], True):
        return None
    gone = trick[1].cards
    hands, down = _canonical(list(pos.hands), pos.facedown | gone, pos.trick_cards & ~gone)
    key = pos.key ^ zmask(Z_TRICK_DOWN[(pos.leader + 1) % 3], gone) ^ Z_LAST
    return _canonical_key(pos, key, hands, down)


RANK1 = 0x201 | (0x201 << 18)
"""The rank-1 cards of every suit (bits 0, 9, 18 and 27): no card slides below them."""


def _free(hand: int, card: int) -> bool:
    """Whether ``card`` of ``hand`` is in no set (three or more of its rank) and no run (three or
    more consecutive ranks of its suit) of that hand."""
    bit = card.bit_length() - 1
    rank_cards = hand & RANK_MASK[bit % 9 + 1]
    if rank_cards.bit_count() >= 3:
        return False
    m9 = (hand >> (bit - bit % 9)) & SUIT_MASK9
    starts = m9 & (m9 >> 1) & (m9 >> 2)
    return not (starts | starts << 1 | starts << 2) >> (bit % 9) & 1


def canonical_hands(pos: Position) -> tuple[list[int], int]:
    """The position's canonical form, (hands, face-down cards of completed tricks): every card
    that can *slide* moved down over the gone cards below it, the relative ranks of the bridge
    solvers kept exact for sets, runs, C1 and T1.

    A card x of a hand slides to a lower place x' of its suit (x goes where x' was, x' where
    x was) when it is in no set and no run of its hand in either place (it is *free*: hands only
    shrink, so it never will be), x' is not the place of C1 or T1, and only cards gone in
    completed tricks lie between: it then beats and is beaten by the same live cards. It is Old
    exactly when x' would be, and leaves every other card's Old as it was (a card below sees x
    or x' above it, neither face up), in two cases. First the *blocked* cards (below the
    highest face-down card of their suit, never Old): they slide over any gone cards. Then,
    with the gone cards split canonically (:func:`tt_key`: only the lowest gone card above the
    highest blocked card face down, the others face up, which blocks the same cards), the
    others slide over face-up cards: every card above x' but x is then face up. Every line of
    play of one position is a line of the other with x for x', of equal value. The cards are
    taken in order of their bit (suit by suit, low ranks first), each slid when it can on what
    the cards before it left, so the result is a function of the position and equivalent to it.
    In each case whole runs then slide as blocks (:func:`_slide_runs`), and singles and runs
    again while a run moved.
    """
    return _canonical(list(pos.hands), pos.facedown, pos.trick_cards)


def _canonical(hands: list[int], down: int, trick_cards: int) -> tuple[list[int], int]:
    """:func:`canonical_hands` of a position with these hands, face-down cards of completed
    tricks and cards in the trick (``hands`` is changed in place and returned)."""
    live = hands[0] | hands[1] | hands[2]
    blocked = _blocked(live, down)
    gone = ALL_CARDS & ~live & ~trick_cards
    if blocked:
        while True:  # singles, then runs, again while a run moved (it may free a single's way down)
            gone = _slide(hands, gone, blocked)
            after = _slide_runs(hands, gone, blocked)
            if after == gone:
                break
            gone = after
            blocked = _blocked(hands[0] | hands[1] | hands[2], down)
        live = hands[0] | hands[1] | hands[2]
        blocked = _blocked(live, down)
    cdown = 0
    for shift in (0, 9, 18, 27):
        if not (down >> shift) & SUIT_MASK9:
            continue
        below = (blocked >> shift) & SUIT_MASK9
        above = ((gone >> shift) & SUIT_MASK9) & ~((1 << below.bit_length()) - 1)
        cdown |= (above & -above) << shift
    over = gone & ~cdown
    while True:
        over = _slide(hands, over, live & ~blocked)
        after = _slide_runs(hands, over, live & ~blocked)
        if after == over:
            return hands, cdown
        over = after
        live = hands[0] | hands[1] | hands[2]


def _slide(hands: list[int], over: int, movable: int) -> int:
    """Slide the free cards of ``movable`` down over the cards of ``over`` (:func:`canonical_hands`),
    in place; returns ``over`` as the slides leave it."""
    done = 0
    while True:
        cand = movable & (over << 1) & ~RANK1 & ~done
        if not cand:
            return over
        x = cand & -cand
        done |= (x << 1) - 1
        s = 0 if hands[0] & x else (1 if hands[1] & x else 2)
        hand = hands[s]
        if not _free(hand, x):
            continue
        low = x
        while not low & RANK1 and (low >> 1) & over:
            low >>= 1
        while low != x and (low & UNBEATABLE_LEAD or not _free(hand ^ x ^ low, low)):
            low <<= 1  # the lowest place that keeps the card free and is not that of C1 or T1
        if low == x:
            continue
        hands[s] = hand ^ x ^ low
        over ^= x ^ low


def _in_no_set(hand: int, cards: int) -> bool:
    """Whether no card of ``cards`` is in a set (three or more of its rank) of ``hand``."""
    while cards:
        x = cards & -cards
        cards ^= x
        if (hand & RANK_MASK[(x.bit_length() - 1) % 9 + 1]).bit_count() >= 3:
            return False
    return True


def _slide_runs(hands: list[int], over: int, movable: int) -> int:
    """Slide every maximal run (three or more consecutive cards of a suit in one hand, all in
    ``movable``) down over the cards of ``over`` below it as one block (:func:`canonical_hands`),
    in place; returns ``over`` as the slides leave it.

    The block keeps its length and its order against every live card (only cards of ``over``
    lie between its places), and it stays a maximal run: its new bottom is never just above a
    card of its hand, nor the place of C1 or T1. Its cards are in no set of the hand in either
    place. The gone cards it passes take the places it left, in the same order."""
    for s in range(3):
        for shift in (0, 9, 18, 27):
            m9 = (hands[s] >> shift) & SUIT_MASK9
            r = 0
            while r < 9:
                if not m9 >> r & 1:
                    r += 1
                    continue
                top = r
                while top + 1 < 9 and m9 >> (top + 1) & 1:
                    top += 1
                lo, length = r, top - r + 1
                r = top + 1
                block = ((1 << length) - 1) << (lo + shift)
                if length < 3 or block & ~movable:
                    continue
                b = lo
                while b > 0 and (over >> (b - 1 + shift)) & 1:
                    b -= 1
                hand = hands[s]
                while b < lo:
                    new = ((1 << length) - 1) << (b + shift)
                    moved = hand ^ block ^ new
                    below_ok = b == 0 or not (moved >> (b - 1 + shift)) & 1
                    if (
                        below_ok
                        and not new & UNBEATABLE_LEAD
                        and _in_no_set(hand, block)
                        and _in_no_set(moved, new)
                    ):
                        break
                    b += 1
                if b == lo:
                    continue
                new = ((1 << length) - 1) << (b + shift)
                hands[s] = hand ^ block ^ new
                over ^= block ^ new
                m9 = (hands[s] >> shift) & SUIT_MASK9
    return over


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
