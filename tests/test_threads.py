"""CompiledSolver(threads=2), issue 3: two searches sharing one table (lazy SMP) give the values of
one search, principal variations that keep the value, and stop cleanly at their limits."""

from __future__ import annotations

import threading

import pytest

from lukfu_solver.endgames import full_deal, random_endgame
from lukfu_solver.position import Position
from lukfu_solver.search import compiled
from lukfu_solver.search import kernel as K
from lukfu_solver.search.compiled import CompiledSolver
from lukfu_solver.search.kernel.table import MOVE_FIELD


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


def stored_moves(solver: CompiledSolver) -> tuple[int, int]:
    """(entries, entries holding a best move) of the solver's table."""
    data = solver.tt[1::2]
    used = data[data != 0]
    return len(used), int(((used & MOVE_FIELD) != MOVE_FIELD).sum())


def test_a_search_told_to_keep_no_moves_stores_bounds_alone() -> None:
    pos = random_endgame(46, 9)
    plain = CompiledSolver()
    bare = CompiledSolver()
    bare.ctr[K.C_NO_MOVES] = 1
    assert bare.solve(pos).value == plain.solve(pos).value
    assert stored_moves(plain)[1] > 0  # the check can fail: a plain search stores moves
    entries, with_move = stored_moves(bare)
    assert entries > 0 and with_move == 0


def test_the_helper_keeps_no_moves_and_the_main_search_does(
    helper_at_once: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper's tests at other thresholds store bounds only (issue 13, thirteenth round: their
    best moves misled the main search's order); the main search keeps its moves."""
    helpers: list[CompiledSolver] = []
    started = CompiledSolver._start_helper

    def keep(self: CompiledSolver) -> None:
        started(self)
        assert self._helper is not None
        helpers.append(self._helper)

    monkeypatch.setattr(CompiledSolver, "_start_helper", keep)
    main = CompiledSolver(threads=2)
    assert main.solve(full_deal(5, 0)).complete
    assert helpers and all(h.ctr[K.C_NO_MOVES] == 1 for h in helpers)
    assert main.ctr[K.C_NO_MOVES] == 0 and stored_moves(main)[1] > 0


def test_threads_must_be_one_or_two() -> None:
    with pytest.raises(ValueError, match="threads"):
        CompiledSolver(threads=3)
