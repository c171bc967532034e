"""The reference exact solver (M1): alpha-beta with a transposition table, in the manner of the
bridge double-dummy solvers, in plain Python.

The value of a position is the caller's net points under best play, the caller maximising and
the two non-callers minimising together: an even integer from −14 to +14 (R16–R17 make every
payment to or from the caller even). The driver (:class:`~.driver.ZeroWindowDriver`) asks
zero-window questions ("can the caller make at least v?") and moves the target, as DDS does;
each answer tightens bounds stored in the table, so later questions reuse earlier work. This
module holds the search itself: the table (its keys are :mod:`.table_key`'s), move ordering
(table move, claims, killers, history), the alpha-beta, and the plain alpha-beta baseline. It is the readable
specification the compiled kernel is held to (``docs/search.md``).

>>> from lukfu_solver.position import Position
>>> res = Solver().solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))
>>> res.value, str(res.best)
(4, 'claim')
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..plays import CLAIM, DISCARD, SINGLE, Play
from ..position import Position
from ..rules import can_beat
from . import bounds as _bounds
from . import discards as _discards
from . import switches as S
from .bounds import reach, value_bounds
from .driver import ZeroWindowDriver
from .reductions import reduced_moves
from .result import INF, MAX_VALUE, MIN_VALUE, ProbeSettled, SearchAborted, SolveResult
from .table_key import last_key, tt_key

__all__ = [
    "INF",
    "KILLER2_SCORE",
    "KILLER_SCORE",
    "MAX_VALUE",
    "MIN_VALUE",
    "ProbeSettled",
    "SearchAborted",
    "SolveResult",
    "Solver",
    "iter_pv_positions",
    "plain_alphabeta",
    "reach",
    "reduced_moves",
    "value_bounds",
]
"""Besides its own names, the names other modules import from here since the search was one
file (the results, the value range, the bounds, the reduction): the same objects as in
:mod:`.result`, :mod:`.bounds` and :mod:`.reductions`."""


class Solver(ZeroWindowDriver):
    """Alpha-beta search with a transposition table (lower/upper bounds and best move per key),
    consulted at every node (DDS: at trick boundaries), driven by zero-window tests (MTD(f) by default).

    The table persists across calls (useful for all-moves and principal-variation passes, and
    for batches of related positions); ``max_entries`` bounds its memory: when full, the older
    half of the entries is dropped.
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
        # cutoff move per depth")
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
        # and an entry there stops the walk before the moves are generated; the last player after
        # the second player's discard, unable to beat, under its own key (whatever its hand's size)
        key = entry = tt_move = None
        if len(pos.trick) == 2:
            key = last_key(pos)
        if key is None and pos.hands[pos.to_move].bit_count() >= S.TT_MIN_CARDS[len(pos.trick)]:
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
        if S.CALLER_AHEAD and not pos.trick and pos.to_move == pos.caller:
            stop = min(beta, hi)
            if lo < stop:
                b = _bounds._caller_lead_bound(pos, stop)
                if b >= stop:
                    return self._store(key, entry, lo, hi, b, alpha, beta, None)
                if b > lo:
                    lo = b
        # the coalition's look-ahead, the mirror at a non-caller's lead: down to alpha (or the lower
        # bound), its cut stored as this node's fail low (no move)
        if S.COALITION_AHEAD and not pos.trick and pos.to_move != pos.caller:
            stop = max(alpha, lo)
            if hi > stop:
                b = _bounds._coalition_lead_bound(pos, stop)
                if b <= stop:
                    return self._store(key, entry, lo, hi, b, alpha, beta, None)
                if b < hi:
                    hi = b
        # the next leader's look-ahead for a follower's discards: at a non-caller's
        # discard in a trick whose winner is certain, once for every discard of the seats still to
        # play; up to beta (or the upper bound), its cut stored as this node's fail high (no move),
        # as the caller's
        # (a trick led with a single that a non-caller wins is left out: there the bound is the R7
        # look-ahead that value_bounds' single-trick playout already gives, never above lo)
        if (
            S.DISCARD_AHEAD
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
        # a fail low it is merely the least bad refuted move, and as the table's move it misleads
        # the ordering of later tests
        improved = g > a0 if maximizing else g < b0
        return self._store(key, entry, lo, hi, g, a0, b0, best_move if improved else None)

    def _store(
        self, key: int | None, entry: list | None, lo: int, hi: int, g: int, a0: int, b0: int, move: Play | None
    ) -> int:
        """Store the node's result ``g`` of the window (a0, b0) under ``key`` (a new entry starts from
        the node's bounds ``lo``, ``hi``): exact inside the window, a lower bound at or above b0,
        an upper one at or below a0; ``move`` (None: keep the entry's) is the table move. Returns g;
        a node with no key (below ``switches.TT_MIN_CARDS``) stores nothing."""
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
        R7 look-ahead among them, can be dear here, and a check every 4096 nodes overran a short
        time limit: ``docs/search.md``, "The measurements behind the kernel's choices")."""
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
