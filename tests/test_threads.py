"""CompiledSolver(threads=2): two searches sharing one table (lazy SMP) give the values of one
search, principal variations that keep the value, stop cleanly at their limits, and never search
much more than one search does on the hardest positions of the bench sets (counted in lockstep,
where the node counts of two threads are the same on every run)."""

from __future__ import annotations

import threading

import pytest

from lukfu_solver.endgames import full_deal, random_endgame
from lukfu_solver.position import Position
from lukfu_solver.search import compiled
from lukfu_solver.search import kernel as K
from lukfu_solver.search.compiled import CompiledSolver
from lukfu_solver.search.kernel import table as KT
from lukfu_solver.search.kernel.table import HELPER_ENTRY, HELPER_MOVE


@pytest.fixture
def helper_at_once(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Start the helper at the first pause (every 4096 nodes) and count the helpers started."""
    monkeypatch.setattr(compiled, "HELPER_AFTER", 0.0)
    started: list[int] = []
    original = CompiledSolver._start_helper

    def counting(self: CompiledSolver) -> None:
        started.append(1)
        original(self)

    monkeypatch.setattr(CompiledSolver, "_start_helper", counting)
    return started


def replayed_value(pos: Position, pv: list) -> int:
    """Play ``pv`` from a copy of ``pos`` (each move legal) to the end; the caller's points."""
    p = pos.copy()
    for m in pv:
        assert m in set(p.legal_moves()), (str(p), str(m))
        p.push(m)
    assert p.outcome is not None
    return p.outcome.points[p.caller]


POSITIONS = [random_endgame(seed, 9) for seed in (3, 46, 48, 75)] + [full_deal(5, 0), full_deal(31, 0)]


@pytest.mark.parametrize("pos", POSITIONS, ids=lambda p: str(p)[:24])
def test_two_threads_same_value_and_a_pv_that_keeps_it(pos: Position, helper_at_once: list[int]) -> None:
    one = CompiledSolver().solve(pos)
    before = threading.active_count()
    two = CompiledSolver(threads=2).solve(pos)
    assert helper_at_once, "the helper never started: the test would prove nothing"
    assert threading.active_count() == before  # the helper thread is joined
    assert two.complete and two.value == one.value
    assert replayed_value(pos, two.pv) == two.value
    assert two.best == two.pv[0]


def test_two_threads_all_moves(helper_at_once: list[int]) -> None:
    pos = random_endgame(3, 9)
    one = CompiledSolver().solve(pos, all_moves=True)
    two = CompiledSolver(threads=2).solve(pos, all_moves=True)
    assert helper_at_once
    assert two.moves == one.moves and max(two.moves.values()) == two.value


@pytest.mark.parametrize("limit", [{"max_nodes": 30_000}, {"time_limit": 0.05}])
def test_two_threads_stop_at_their_limits_with_true_bounds(limit: dict, helper_at_once: list[int]) -> None:
    pos = full_deal(12, 0)  # about 50 M nodes: no limit here lets it finish
    exact = -4  # bench/results/solve-fast.json, seed 12 caller 0
    before = threading.active_count()
    res = CompiledSolver(threads=2).solve(pos, **limit)
    assert helper_at_once
    assert threading.active_count() == before
    assert not res.complete and res.lower <= exact <= res.upper


def flagged(solver: CompiledSolver) -> tuple[int, int, int]:
    """(entries, entries a helper made, entries holding a helper's move) of the solver's table."""
    data = solver.tt[1::2]
    used = data[data != 0]
    return len(used), int(((used & HELPER_ENTRY) != 0).sum()), int(((used & HELPER_MOVE) != 0).sum())


def test_a_search_alone_flags_nothing() -> None:
    pos = random_endgame(46, 9)
    solver = CompiledSolver()
    solver.solve(pos)
    entries, made, moves = flagged(solver)
    assert entries > 0 and made == moves == 0


def test_the_helper_flags_its_entries_and_moves(helper_at_once: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper's entries and moves are flagged in the shared table (the main search reads them
    as absent in its tests until the helper settles one); the main search's are not."""
    helpers: list[CompiledSolver] = []
    started = CompiledSolver._start_helper

    def keep(self: CompiledSolver) -> None:
        started(self)
        assert self._helper is not None
        helpers.append(self._helper)

    monkeypatch.setattr(CompiledSolver, "_start_helper", keep)
    main = CompiledSolver(threads=2)
    assert main.solve(full_deal(5, 0)).complete
    assert helpers and all(h.ctr[K.C_MARK] == 1 for h in helpers) and main.ctr[K.C_MARK] == 0
    entries, made, moves = flagged(main)
    assert 0 < made < entries and moves > 0


def test_a_helper_never_changes_the_main_searchs_entries() -> None:
    """A helper's store into an entry of the main search keeps that entry's bounds and move, and
    adds its own move only where the entry has none."""
    solver = CompiledSolver(max_entries=1024)
    tt, ctr = solver.tt, solver.ctr
    nbm = ctr[K.C_TTB] - 1
    key, move, other = 12345, 0x10, 0x20

    def store(mark: int, best: int, g: int) -> int:
        ctr[K.C_MARK] = mark
        KT.tt_store(tt, ctr, nbm, key, 0, 0, 0, -14, 14, g, -5, -4, best, 12)
        return int(tt[KT.tt_find(tt, nbm, key) + 1])

    d = store(0, move, -4)  # the main search: at least -4, its move
    assert (KT.tt_lo(d), KT.tt_hi(d), KT.tt_move(d)) == (-4, 14, move) and not d & (HELPER_ENTRY | HELPER_MOVE)
    d = store(1, other, 2)  # a helper: at least 2, another move
    assert (KT.tt_lo(d), KT.tt_hi(d), KT.tt_move(d)) == (-4, 14, move) and not d & (HELPER_ENTRY | HELPER_MOVE)
    key = 777
    d = store(0, K.NO_MOVE, -6)  # the main search fails low: no move
    d = store(1, other, 0)
    assert (KT.tt_lo(d), KT.tt_hi(d), KT.tt_move(d)) == (-14, -6, other) and d & HELPER_MOVE and not d & HELPER_ENTRY


def test_threads_must_be_one_or_two() -> None:
    with pytest.raises(ValueError, match="threads"):
        CompiledSolver(threads=3)


# ---------------------------------------------------------------- two threads in lockstep

HARDEST = [(1006, 0), (1024, 0), (5, 1), (12, 0)]
"""Positions of the bench sets (b, c, d: ``full_deal(seed, caller)``): the three with the most
nodes on one thread (2.67 M, 2.44 M, 1.92 M), and set b's seed 12, caller 0 (1.33 M), where the
helper settled the value and the main search's principal variation had none of its moves."""
TRAP = (14, 0)
"""Set c's position where the main search, taking the helper's moves as its own in its tests,
searched ten times the nodes of one thread (297 k)."""
MAIN_AT_MOST = 1.5
"""The two-thread main search's nodes over one thread's, at most (0.63-1.00 on the positions above
and the trap)."""
BOTH_AT_MOST = 2.5
"""Both threads' nodes over one thread's, at most (at most 2.0 there)."""


def lockstep(pos: Position, **main_ctr: int) -> tuple[int | None, int, int]:
    """Solve ``pos`` on two threads in lockstep: (value, the main search's nodes, the helper's).
    ``main_ctr`` sets kernel counters of the main search (or, named ``helper_*``, of the helper)
    once the helper starts: the wrong variants below."""
    solver = CompiledSolver(threads=2, lockstep=True)
    helpers: list[CompiledSolver] = []
    start = solver._start_helper

    def started() -> None:
        start()
        assert solver._helper is not None
        helpers.append(solver._helper)
        for name, value in main_ctr.items():
            who = solver._helper if name.startswith("helper_") else solver
            who.ctr[getattr(K, name.removeprefix("helper_"))] = value

    solver._start_helper = started  # type: ignore[method-assign]
    res = solver.solve(pos)
    assert len(helpers) == 1, "one helper, started at the first pause"
    return res.value, solver.nodes, helpers[0].nodes


def test_lockstep_gives_the_same_node_counts_on_every_run() -> None:
    pos = full_deal(*TRAP)
    assert lockstep(pos) == lockstep(pos)


@pytest.mark.parametrize(("seed", "caller"), [*HARDEST, TRAP])
def test_two_threads_never_search_much_more_than_one(seed: int, caller: int) -> None:
    """On the hardest positions (and the trap), two threads in lockstep give one thread's value
    with the main search at most MAIN_AT_MOST and both at most BOTH_AT_MOST times its nodes."""
    pos = full_deal(seed, caller)
    one = CompiledSolver().solve(pos)
    value, main, helper = lockstep(pos)
    assert value == one.value
    assert main <= MAIN_AT_MOST * one.nodes, (main, one.nodes)
    assert main + helper <= BOTH_AT_MOST * one.nodes, (main, helper, one.nodes)


def test_the_count_catches_a_main_search_that_takes_the_helpers_moves() -> None:
    """The check above can fail: with the main search taking the helper's moves (found in tests at
    other thresholds) as its table moves in its tests, it searches the trap several times over."""
    pos = full_deal(*TRAP)
    one = CompiledSolver().solve(pos)
    value, main, _ = lockstep(pos, C_READ_MARKED=2)
    assert value == one.value
    assert main > 3 * MAIN_AT_MOST * one.nodes, (main, one.nodes)


def test_the_count_catches_a_helper_that_keeps_no_moves() -> None:
    """... and it catches a helper that stores no moves: where the helper settles the value, the
    main search's principal variation must then find the move that keeps it without them."""
    pos = full_deal(*HARDEST[3])
    one = CompiledSolver().solve(pos)
    value, main, _ = lockstep(pos, helper_C_NO_MOVES=1)
    assert value == one.value
    assert main > 2 * MAIN_AT_MOST * one.nodes, (main, one.nodes)
