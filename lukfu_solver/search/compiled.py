"""The compiled exact solver: :class:`CompiledSolver`, the same search as
:class:`lukfu_solver.search.reference.Solver` run by the numba kernel of :mod:`lukfu_solver.search.kernel`.

Same public API and the same results: as long as neither table loses an entry (the reference
evicts at ``max_entries``; here ``tt_replaced`` counts losses), the values, best moves,
principal variations, all-moves values, stop reasons *and* node, probe and hit counts are
identical, and the history tables too (``tests/test_kernel.py`` checks this). The drivers, the
principal variation and the all-moves pass are written here in Python as in the reference,
calling the kernel's zero-window search for each question; the kernel does the alpha-beta.

The kernel is compiled once a machine and cached on disk (``pip install .`` ships it compiled:
:mod:`lukfu_solver.search.warmup`); importing this module imports numba, ``import lukfu_solver`` does not.

>>> from lukfu_solver.position import Position
>>> res = CompiledSolver().solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))
>>> res.value, str(res.best)
(4, 'claim')
"""

from __future__ import annotations

import threading
import time
import weakref

import numpy as np

from ..plays import CLAIM, CLAIM_PLAY, Play
from ..position import Position
from . import kernel as K
from . import warmup
from .driver import ZeroWindowDriver
from .result import ProbeSettled, SearchAborted, SolveResult

_TABLES: np.ndarray | None = None


def tables() -> np.ndarray:
    """The kernel's constant tables (built once per process)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = K.build_tables()
    return _TABLES


def encode(move: Play) -> int:
    """A Play as the kernel's int64 move."""
    return move.cards | move.kind << 36 | move.size << 40


def decode(m: int) -> Play:
    """The kernel's int64 move as a Play."""
    m = int(m)
    kind = (m >> 36) & 7
    if kind == CLAIM:
        return CLAIM_PLAY
    return Play(kind, m & K.CARD_MASK, (m >> 40) & 15)


def load_row(st: np.ndarray, ply: int, pos: Position) -> None:
    """Write ``pos`` into row ``ply`` of the kernel state array."""
    row = st[ply]
    row[:] = 0
    row[K.F_H0 : K.F_H0 + 3] = pos.hands
    row[K.F_TM] = pos.to_move
    row[K.F_CALLER] = pos.caller
    row[K.F_FU0 : K.F_FU0 + 3] = pos.fu
    row[K.F_FACEUP] = pos.faceup
    row[K.F_NTRICK] = len(pos.trick)
    row[K.F_LEADER] = pos.leader
    row[K.F_BESTI] = pos.best_i
    for i, p in enumerate(pos.trick):
        row[K.F_TR0 + i] = encode(p)
    if pos.outcome is not None:
        row[K.F_ENDED] = 1
        row[K.F_OUTV] = pos.outcome.points[pos.caller]
    row[K.F_KEY] = K._signed(pos.key)


def _aligned_zeros(n: int) -> np.ndarray:
    """n int64 zeros starting on a 64-byte boundary (a table bucket is one cache line)."""
    buf = np.zeros(n + 8, dtype=np.int64)
    off = (-buf.ctypes.data % 64) // 8
    return buf[off : off + n]


def _slots_for(max_entries: int) -> int:
    """Table slots: the power of two at or above twice ``max_entries`` (at least 1024)."""
    n = 1024
    while n < 2 * max_entries:
        n *= 2
    return n


class _Arrays:
    """The kernel's working arrays for one solver. Fresh memory costs page faults on first
    touch (a few hundred microseconds a solver, more than a small solve itself), so the arrays of
    dropped solvers are kept in a small pool and cleared for the next one."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
        self.mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
        self.mk = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
        self.fr = np.zeros((K.MAX_PLY, K.NFR), dtype=np.int64)
        self.sc = np.zeros(K.SC_SIZE, dtype=np.int64)
        self.out = np.zeros(K.MAX_MOVES, dtype=np.int64)
        self.tt = _aligned_zeros(2 * slots)
        self.hk = np.zeros(1 << 12, dtype=np.int64)
        self.hv = np.zeros(1 << 12, dtype=np.int64)
        self.ctr = np.zeros(K.NCTR, dtype=np.int64)
        self.lg = np.zeros(K.LOG_SIZE, dtype=np.int64)
        self.tt_dirty = 0  # words of tt that may be nonzero

    def clear(self) -> None:
        """Back to the state of fresh arrays (only what the kernel reads before writing)."""
        self.tt[: self.tt_dirty] = 0
        self.tt_dirty = 0
        self.hk.fill(0)
        self.hv.fill(0)
        self.fr.fill(0)  # the killer moves live there
        self.ctr.fill(0)


_POOL: list[_Arrays] = []
_POOL_MAX = 3


def _take(slots: int) -> _Arrays:
    for i, arrays in enumerate(_POOL):
        if arrays.slots == slots:
            del _POOL[i]
            arrays.clear()
            return arrays
    return _Arrays(slots)


def _release(arrays: _Arrays) -> None:
    arrays.tt_dirty = int(arrays.ctr[K.C_TTB]) * 8
    if len(_POOL) < _POOL_MAX:
        _POOL.append(arrays)


PAUSE_CLOCK = 0xFFF
"""The kernel returns to Python every PAUSE_CLOCK + 1 nodes when a clock or a helper thread needs
watching (as the reference ``Solver._schedule`` checks the clock)..."""
PAUSE_CTRL_C = 0xFFFF
"""... and every PAUSE_CTRL_C + 1 nodes otherwise, only so that Ctrl-C is felt at once (what each
pause costs: ``docs/search.md``, "The measurements behind the kernel's choices")."""
HELPER_AFTER = 0.02
"""Seconds a solve with ``threads=2`` runs alone before the helper thread starts: small solves
end sooner, and a helper costs the table at full size (page faults on first use)."""

_HELPER_DRIVER = {"mtdf": "bisect", "bisect": "mtdf"}
"""The helper tests other thresholds than the main search (the other driver, measured against a
helper running the same one: ``docs/search.md``, "The measurements behind the kernel's choices")."""


class _Race:
    """What the threads solving one position share: the root bounds proved so far (each posts
    what its tests prove) and the order to stop. Plain attributes: the GIL orders the updates.

    In lockstep (``CompiledSolver(lockstep=True)``) the two searches also share a turn: each runs
    until its next pause (``PAUSE_CLOCK`` + 1 nodes), then hands the turn to the other and waits
    for it, so that one runs at a time and their node counts are the same on every run."""

    def __init__(self, lo: int, hi: int, lockstep: bool = False) -> None:
        self.lo = lo
        self.hi = hi
        self.stop = False
        self._turn = threading.Condition() if lockstep else None
        self._whose = 0  # in lockstep: 0 while the main search runs, 1 while the helper does
        self._helper_done = False

    def post(self, lo: int, hi: int) -> None:
        self.lo = max(self.lo, lo)
        self.hi = min(self.hi, hi)

    def take_turn(self, side: int) -> None:
        """In lockstep, wait until ``side`` (0 the main search, 1 the helper) has the turn, the
        race is stopped, or the helper has ended; otherwise return at once."""
        turn = self._turn
        if turn is None:
            return
        with turn:
            turn.wait_for(lambda: self._whose == side or self.stop or self._helper_done)

    def pass_turn(self, side: int) -> None:
        """In lockstep, hand the turn from ``side`` to the other search and wait for it back."""
        turn = self._turn
        if turn is None:
            return
        with turn:
            self._whose = 1 - side
            turn.notify_all()
        self.take_turn(side)

    def end(self) -> None:
        """Stop the race (the main search is done): a helper waiting for its turn wakes and stops."""
        self.stop = True
        self._wake()

    def helper_ended(self) -> None:
        """The helper has returned: the main search no longer waits for it."""
        self._helper_done = True
        self._wake()

    def _wake(self) -> None:
        if self._turn is not None:
            with self._turn:
                self._turn.notify_all()


class CompiledSolver(ZeroWindowDriver):
    """Alpha-beta search with a transposition table, compiled: see
    :class:`~lukfu_solver.search.reference.Solver`.

    ``max_entries`` sizes the table: at most ``tt_slots`` slots of 16 bytes (default the power of
    two at or above twice ``max_entries``: 4M slots, 64 MB, for the default 2M entries). The
    table starts with ``start_slots`` and doubles when half full and, below ``exact_slots``
    (default: the full size), whenever one bucket of four slots (one cache line) is full, so that
    a search loses no entry before the table is at full size, and while it loses none
    (``tt_replaced`` stays 0) its node counts equal the reference's. At full size, a full bucket
    gives up the entry nearest the end of the deal.
    The table and the history persist across calls, as in the reference.

    ``threads=2`` finds the value with two searches sharing the table (lazy SMP): once a solve
    has run for ``HELPER_AFTER`` s, a helper thread runs the other driver on the same position
    with its own history, both post the root bounds their tests prove, and a test that the
    other's bounds answer is dropped. The helper stores bounds but no best moves, so that the
    main search's move order is its own; the principal variation then finds its way first by
    the bounds in the table (``_kept_first``), which the helper's tests fill too. The value is the same
    as with one thread; node counts, and
    the best move and principal variation where several moves keep the value, may differ from
    run to run. The principal variation and all-moves passes run on one thread afterwards.
    ``lockstep=True`` (for tests and measurements) makes two threads reproducible: the helper
    starts at the first pause, and the two searches take turns of ``PAUSE_CLOCK`` + 1 nodes,
    one running at a time, so their node counts are the same on every run.
    """

    def __init__(
        self,
        max_entries: int = 2_000_000,
        driver: str = "mtdf",
        reduce: bool = True,
        tt_slots: int | None = None,
        start_slots: int = 1 << 16,
        exact_slots: int | None = None,
        threads: int = 1,
        lockstep: bool = False,
    ) -> None:
        if threads not in (1, 2):
            raise ValueError(f"threads must be 1 or 2, got {threads}")
        self.threads = threads
        self.lockstep = lockstep
        self.reduce = reduce
        self.driver = driver
        self.max_entries = max_entries
        slots = tt_slots if tt_slots is not None else _slots_for(max_entries)
        if slots < 4 or slots & (slots - 1):
            raise ValueError(f"tt_slots must be a power of two >= 4, got {slots}")
        self.T = tables()
        a = self._arrays = _take(slots)
        self._finalizer = weakref.finalize(self, _release, a)
        self.st, self.mv, self.mk, self.fr, self.sc, self.out = a.st, a.mv, a.mk, a.fr, a.sc, a.out
        self.tt, self.hk, self.hv, self.ctr = a.tt, a.hk, a.hv, a.ctr
        self.ctr[K.C_REDUCE] = 1 if reduce else 0
        self.ctr[K.C_TTB] = min(slots, start_slots) // 4
        self.ctr[K.C_EXACT_B] = (slots if exact_slots is None else exact_slots) // 4
        self._deadline = 0.0
        self._stopped: str | None = None
        self._ply = 0
        self._race: _Race | None = None
        self._helper: CompiledSolver | None = None
        self._helper_thread: threading.Thread | None = None
        self._root: Position | None = None
        self._side = 0  # 0: the main search; 1: a helper (its turn in lockstep)
        self._t0 = 0.0

    # ------------------------------------------------------------ statistics

    @property
    def nodes(self) -> int:
        return int(self.ctr[K.C_NODES])

    @property
    def tt_probes(self) -> int:
        return int(self.ctr[K.C_PROBES])

    @property
    def tt_hits(self) -> int:
        return int(self.ctr[K.C_HITS])

    @property
    def tt_entries(self) -> int:
        """Entries in the table now."""
        return int(self.ctr[K.C_ENTRIES])

    @property
    def tt_replaced(self) -> int:
        """Entries overwritten by another key so far (0 means the table never lost anything)."""
        return int(self.ctr[K.C_REPLACED])

    @property
    def history(self) -> dict[tuple[int, int], int]:
        """The history table as the reference's dict {(seat, cards): score} (a copy)."""
        out = {}
        for k, v in zip(self.hk.tolist(), self.hv.tolist(), strict=True):
            if k:
                k -= 1
                out[(k >> 36, k & K.CARD_MASK)] = v
        return out

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
        t0 = self._t0 = time.perf_counter()
        ctr = self.ctr
        ctr[K.C_NODES] = ctr[K.C_PROBES] = ctr[K.C_HITS] = 0
        ctr[K.C_LIMIT] = max_nodes or 0
        self._descend = not max_nodes
        self._deadline = t0 + time_limit if time_limit else 0.0
        self._root = pos if self.threads > 1 else None
        # pause every 4096 nodes for the clock and the helper thread, else every 65536 so that
        # Ctrl-C is felt at once: Python raises KeyboardInterrupt only between bytecodes, so a
        # compiled search that never returned would hold it up until the solve ended; the shorter
        # pause costs more, so it is kept for the solves that need it (docs/search.md).
        ctr[K.C_PAUSE] = PAUSE_CLOCK if self._deadline or self._root is not None else PAUSE_CTRL_C
        ctr[K.C_REDUCE] = 1 if self.reduce else 0
        ctr[K.C_NEXT] = K.schedule(ctr)
        self._stopped = None
        self._ply = 0
        load_row(self.st, 0, pos)
        lo, hi = self._bounds()
        result = SolveResult(None, lo, hi, None)
        try:
            try:
                lo, hi = self._drive(lo, hi, result, guess)
            finally:
                helper_counts = self._stop_helper()
            result.value = lo
            if not self.st[0, K.F_ENDED]:
                result.pv = self._pv(result.value)
                result.best = result.pv[0] if result.pv else None
                if all_moves:
                    maximizing = bool(self.st[0, K.F_TM] == self.st[0, K.F_CALLER])
                    for m in self._ordered(K.NO_MOVE):
                        self._push(m)
                        try:
                            result.moves[decode(m)] = self._exact_move(*self._bounds(), result.value, maximizing)
                        finally:
                            self._ply -= 1
        except SearchAborted:
            self._stopped_early(result)
        result = self._with_statistics(result, t0)
        result.nodes += helper_counts[0]
        result.tt_probes += helper_counts[1]
        result.tt_hits += helper_counts[2]
        return result

    def bounds(self, pos: Position) -> tuple[int, int]:
        """The bounds on the value of ``pos`` known without search (the kernel's
        ``value_bounds``, equal to :func:`lukfu_solver.search.bounds.value_bounds`). Not to be
        called while a solve runs: it loads ``pos`` into the root row."""
        load_row(self.st, 0, pos)
        lo, hi = K.value_bounds(self.T, self.st, 0)
        return int(lo), int(hi)

    # ------------------------------------------------------------ the position (a kernel state row)

    def _push(self, m: int) -> None:
        K.push(self.T, self.st, self._ply, m)
        self._ply += 1

    def _bounds(self) -> tuple[int, int]:
        lo, hi = K.value_bounds(self.T, self.st, self._ply)
        return int(lo), int(hi)

    # ------------------------------------------------------------ the driver's hook

    def _merge_bounds(self, lo: int, hi: int) -> tuple[int, int]:
        """With a helper thread, post these root bounds and take the other search's
        (:meth:`ZeroWindowDriver._merge_bounds`); alone, ``lo, hi`` unchanged."""
        race = self._race
        if race is None:
            return lo, hi
        race.post(lo, hi)
        return race.lo, race.hi

    # ------------------------------------------------------------ the helper thread (threads=2)

    def _start_helper(self) -> None:
        """Grow the table to full size (a shared table cannot move its entries), then start a
        helper solving the root position on a thread of its own, sharing the table and the
        root bounds."""
        while self.ctr[K.C_TTB] * 8 < self.tt.shape[0]:
            K.tt_grow(self.tt, self.ctr)
        lo, hi = self._bounds()  # the driver's root (the helper starts only while it runs)
        race = self._race = _Race(lo, hi, self.lockstep)
        helper = CompiledSolver(driver=_HELPER_DRIVER[self.driver], reduce=self.reduce, tt_slots=4)
        helper._side = 1
        helper._finalizer.detach()  # its arrays hold no table worth pooling
        helper.tt = self.tt
        helper.ctr[K.C_TTB] = self.ctr[K.C_TTB]
        helper.ctr[K.C_EXACT_B] = self.ctr[K.C_EXACT_B]
        # bounds only: the best moves of tests at other thresholds mislead the main search's order
        helper.ctr[K.C_NO_MOVES] = 1
        helper._race = race
        self._helper = helper
        root = self._root
        assert root is not None
        deadline = self._deadline
        thread = threading.Thread(target=helper._help, args=(root, deadline), daemon=True)
        self._helper_thread = thread
        thread.start()

    def _help(self, root: Position, deadline: float) -> None:
        """The helper's work: solve the value only, until it is found or the race is stopped."""
        race = self._race
        assert race is not None
        try:
            race.take_turn(1)
            if race.stop:
                return
            load_row(self.st, 0, root)
            ctr = self.ctr
            ctr[K.C_PAUSE] = PAUSE_CLOCK
            ctr[K.C_NEXT] = K.schedule(ctr)
            self._deadline = deadline
            lo, hi = self._bounds()
            self._drive(lo, hi, SolveResult(None, lo, hi, None))
        except SearchAborted:
            pass
        finally:
            race.helper_ended()

    def _stop_helper(self) -> tuple[int, int, int]:
        """Stop and join the helper thread, if any; its node, probe and hit counts."""
        thread, helper = self._helper_thread, self._helper
        self._root = None
        if self._race is not None:
            self._race.end()
        if thread is not None:
            thread.join()
        self._race = self._helper = self._helper_thread = None
        if helper is None:
            return 0, 0, 0
        return helper.nodes, helper.tt_probes, helper.tt_hits

    def _at_pause(self, alpha: int, beta: int) -> None:
        """At each pause of the search (every PAUSE_CLOCK or PAUSE_CTRL_C + 1 nodes): the clock,
        then the helper thread's business; returning here is also what lets Ctrl-C through."""
        if self._deadline and time.perf_counter() >= self._deadline:
            self._stopped = "time"
            raise SearchAborted
        race = self._race
        if race is not None:
            race.pass_turn(self._side)  # (in lockstep: the other search's turn, then this one's)
            if race.stop:
                raise SearchAborted
            if race.lo >= beta or race.hi <= alpha or race.lo >= race.hi:
                raise ProbeSettled
        elif self._root is not None and (self.lockstep or time.perf_counter() - self._t0 >= HELPER_AFTER):
            self._start_helper()
            self._race.pass_turn(0)  # type: ignore[union-attr]  (in lockstep: the helper's first turn)

    def _pv(self, value: int) -> list[Play]:
        """As the reference ``Solver._pv``: at each step the first move (in the search's order;
        with two threads, ``_kept_first``) whose child keeps the value; the table's move is
        looked up by the table key (``tt_key``), as there."""
        st = self.st
        line: list[int] = []
        while not st[self._ply, K.F_ENDED]:
            row = st[self._ply]
            maximizing = row[K.F_TM] == row[K.F_CALLER]
            tt_move = int(K.tt_lookup_move(self.tt, self.ctr, K.tt_key(self.T, self.st, self._ply)))
            chosen = None
            moves = self._ordered(tt_move)
            if self.threads > 1:
                moves = self._kept_first(moves, value, maximizing)
            for m in moves:
                self._push(m)
                g = self._ab(value - 1, value) if maximizing else self._ab(value, value + 1)
                if (maximizing and g >= value) or (not maximizing and g <= value):
                    chosen = m
                    break
                self._ply -= 1
            if chosen is None:  # cannot happen when value is exact
                raise AssertionError("principal variation lost the value")
            line.append(chosen)
        self._ply -= len(line)
        return [decode(m) for m in line]

    def _kept_first(self, moves: list[int], value: int, maximizing: bool) -> list[int]:
        """``moves`` with those whose child's table entry (or end) already shows that it keeps
        ``value`` first, each part in its order: the principal variation's order with two
        threads. Where the helper proved the value, or its bounds cut the main search's tests
        that would have stored the moves, the pass then goes straight to the value instead of
        proving each earlier move wrong (one thread keeps the reference's order)."""
        kept, rest = [], []
        for m in moves:
            self._push(m)
            row = self.st[self._ply]
            if row[K.F_ENDED]:
                lo = hi = int(row[K.F_OUTV])
            else:
                key = int(K.node_key(self.T, self.st, self._ply))
                lo, hi = (int(b) for b in K.tt_bounds(self.tt, self.ctr, key)) if key else (-K.INF, K.INF)
            self._ply -= 1
            (kept if (lo >= value if maximizing else hi <= value) else rest).append(m)
        return kept + rest

    # ------------------------------------------------------------ kernel calls

    def _ordered(self, tt_move: int) -> list[int]:
        """Every legal move of the current position in the search's order (the reference's
        ``Solver._ordered``)."""
        self._ensure_history()
        tm = int(self.st[self._ply, K.F_TM])
        k1, k2 = int(self.fr[self._ply, K.R_KILLER + tm]), int(self.fr[self._ply, K.R_KILLER2 + tm])
        args = (self.T, self.st, self._ply, self.mv, self.mk, self.sc, self.hk, self.hv)
        n = K.ordered_moves(*args, tt_move, k1, k2, False, self.out)
        return self.out[:n].tolist()

    def _ensure_history(self) -> None:
        """Grow the history table so that one search cannot fill it: a search only rewards
        moves made of the cards in the current hands, at most 3 × 2**(hand size) keys."""
        row = self.st[self._ply]
        biggest = max(int(row[K.F_H0 + s]).bit_count() for s in range(3))
        need = int(self.ctr[K.C_HCOUNT]) + 3 * (1 << biggest) + 3
        size = self.hk.shape[0]
        if 2 * need <= size:
            return
        while 2 * need > size:
            size *= 2
        nk = np.zeros(size, dtype=np.int64)
        nv = np.zeros(size, dtype=np.int64)
        K.hist_rehash(self.hk, self.hv, nk, nv)
        self.hk, self.hv = self._arrays.hk, self._arrays.hv = nk, nv

    def _ab(self, alpha: int, beta: int) -> int:
        """The kernel's fail-soft alpha-beta on the current position (the reference's ``Solver._ab``)."""
        self._ensure_history()
        lg = self._arrays.lg
        args = (self.T, self.st, self.mv, self.mk, self.fr, self.sc, self.tt, self.hk, self.hv, lg, self.ctr)
        status = K.search(*args, self._ply, alpha, beta, False)
        while status == K.PAUSED:
            self._at_pause(alpha, beta)
            status = K.search(*args, self._ply, alpha, beta, True)
        if status == K.ABORTED:
            self._stopped = "nodes"
            raise SearchAborted
        return int(self.ctr[K.C_RESULT])


def compile_all() -> float:
    """Compile (or load from the cache) every kernel function by solving a tiny position; the
    seconds it took."""
    t0 = time.perf_counter()
    solver = CompiledSolver(max_entries=1024)
    solver.solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"), all_moves=True, max_nodes=10, time_limit=10)
    solver._kept_first(solver._ordered(K.NO_MOVE), 0, True)  # the two-thread pass's lookups too
    return time.perf_counter() - t0


def prepare_kernel() -> float:
    """Load the kernel from the cache now, or compile it (once on the machine: a process that
    finds another compiling it waits, then loads it); the seconds it took."""
    t0 = time.perf_counter()
    if warmup.kernel_ready():
        compile_all()
    else:
        with warmup.compile_lock():
            compile_all()
    return time.perf_counter() - t0
