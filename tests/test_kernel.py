"""The compiled kernel (``lukfu_solver.search.kernel``) and ``CompiledSolver`` against the pure-Python
reference (``lukfu_solver.search.reference.Solver`` and ``lukfu_solver.position.Position``).

The kernel mirrors the reference move for move, so on positions where neither table loses an
entry the two must agree on everything: legal move lists in order, Zobrist and table keys, bounds,
values, principal variations, all-moves values, and the node, probe and hit counts.

The first run in a fresh checkout compiles the kernel (about 10 s of CPU); later runs load it
from numba's cache.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hyp

pytest.importorskip("numba")

from lukfu_solver.cards import ALL_CARDS, parse_cards  # noqa: E402
from lukfu_solver.endgames import full_deal  # noqa: E402
from lukfu_solver.game import deal_hands  # noqa: E402
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, RUN, SET, Play  # noqa: E402
from lukfu_solver.position import Position  # noqa: E402
from lukfu_solver.search import Solver, ZeroWindowDriver, make_solver, reduced_moves, tt_key, value_bounds  # noqa: E402
from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search.compiled import CompiledSolver, decode, encode, load_row, tables  # noqa: E402

# ---------------------------------------------------------------- seeded positions


def endgame(seed: int, n: int, plays: int = 0, multi: bool = False) -> Position:
    """A seeded position with ``n`` cards a hand (counting the trick in progress).

    ``deal_hands(random.Random(seed))``, a random caller, then random legal moves (never a claim;
    leads small enough to leave ``n`` cards) to a trick boundary with ``n`` cards a hand, then
    ``plays`` (0-2) random plays of the next trick; with ``multi`` that trick is led with a set or
    a run (a deal whose leader has none is dealt again from the same generator).
    """
    rng = random.Random(seed)
    while True:
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        while pos.trick or pos.hands[pos.to_move].bit_count() > n:
            left = pos.hands[pos.to_move].bit_count()
            moves = [m for m in pos.legal_moves() if m.kind != CLAIM and (pos.trick or left - m.size >= n)]
            pos.push(rng.choice(moves))
        if pos.is_over:
            continue
        if multi:
            leads = [m for m in pos.legal_moves() if m.kind in (SET, RUN)]
            if not leads:
                continue
            pos.push(rng.choice(leads))
            plays -= 1
        for _ in range(max(plays, 0)):
            pos.push(rng.choice([m for m in pos.legal_moves() if m.kind != CLAIM]))
        return Position.parse(str(pos))


@cache
def search_cases() -> tuple[str, ...]:
    """330 endgames with 2-6 cards a hand: every trick phase, 30 of them led with a set or run."""
    out = []
    for i in range(300):
        out.append(str(endgame(70_000 + i, 2 + i % 5, i % 3)))
    for i in range(30):
        out.append(str(endgame(80_000 + i, 3 + i % 4, 1 + i % 2, multi=True)))
    return tuple(out)


def summary(res) -> tuple:
    return (res.value, res.lower, res.upper, res.best, res.pv, res.moves, res.nodes, res.tt_probes, res.tt_hits)


# ---------------------------------------------------------------- packaging


def test_importing_the_library_does_not_import_numba():
    code = "import sys, lukfu_solver, lukfu_solver.search, lukfu_solver.search.reference; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_both_solvers_share_the_driver_and_borrow_nothing():
    """The drivers are inherited from ZeroWindowDriver, not borrowed from the reference class."""
    for cls in (Solver, CompiledSolver):
        assert issubclass(cls, ZeroWindowDriver)
        for name in ("value", "_drive", "_exact", "_stopped_early", "_with_statistics"):
            assert name not in vars(cls), (cls.__name__, name)
    assert CompiledSolver._merge_bounds is not ZeroWindowDriver._merge_bounds
    assert isinstance(make_solver(), CompiledSolver) and isinstance(make_solver("reference"), Solver)


@pytest.mark.slow
def test_solver_bounds_equal_value_bounds():
    """``bounds(pos)`` of both solvers: the bounds known without search, the same for each."""
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for line in search_cases()[:100]:
        pos = Position.parse(line)
        assert compiled.bounds(pos) == reference.bounds(pos) == value_bounds(pos), line


def test_move_encoding_round_trips():
    pos = endgame(5, 6, 1)
    for m in list(pos.legal_moves()) + [CLAIM_PLAY, Play.parse("S345"), Play.parse("xC2M4T9")]:
        assert decode(encode(m)) == m


# ---------------------------------------------------------------- the rules engine


@pytest.mark.slow
def test_kernel_rules_match_position_along_random_playouts():
    """Legal moves (in order), reduced moves, keys, bounds and outcomes along 150 random deals,
    claims included now and then (R5-R17)."""
    T = tables()
    st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
    mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros(K.SC_SIZE, dtype=np.int64)
    out = np.zeros(K.MAX_MOVES, dtype=np.int64)
    checked = 0
    for seed in range(150):
        rng = random.Random(seed)
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        load_row(st, 0, pos)
        ply = 0
        while True:
            where = f"seed {seed}: {pos}"
            n = K.legal_moves(T, st, ply, mv, sc, out)
            legal = list(pos.legal_moves())
            assert [decode(m) for m in out[:n].tolist()] == legal, where
            n = K.reduced_moves(T, st, ply, mv, sc, out)
            assert [decode(m) for m in out[:n].tolist()] == reduced_moves(pos), where
            assert K.to_unsigned(st[ply, K.F_KEY]) == pos.key, where
            assert K.to_unsigned(K.full_key(T, st, ply)) == pos.key, where
            assert K.to_unsigned(K.tt_key(T, st, ply)) == tt_key(pos), where
            assert K.value_bounds(T, st, ply) == value_bounds(pos), where
            checked += 1
            if pos.outcome is not None:
                assert st[ply, K.F_OUTV] == pos.outcome.points[pos.caller], where
                break
            pool = legal if rng.random() < 0.3 else [m for m in legal if m.kind != CLAIM]
            m = rng.choice(pool)
            pos.push(m)
            K.push(T, st, ply, encode(m))
            ply += 1
    assert checked > 3000


def test_table_key_matches_the_reference_where_cards_slide():
    """The kernel's tt_key (the slide inlined, its walk down a bit trick, one Zobrist term a move)
    is the reference's integer on positions full of gone and face-down cards: playouts that
    discard whenever they can, so blocked cards and long runs of gone cards are common."""
    from lukfu_solver.search.table_key import blocked_cards, canonical_hands

    T = tables()
    st = np.zeros((1, K.NF), dtype=np.int64)
    checked = slid = blocked = 0
    for seed in range(40):
        rng = random.Random(500 + seed)
        pos = full_deal(seed)
        while pos.outcome is None:
            load_row(st, 0, pos)
            assert K.to_unsigned(K.tt_key(T, st, 0)) == tt_key(pos), f"seed {seed}: {pos}"
            checked += 1
            slid += canonical_hands(pos)[0] != list(pos.hands)
            blocked += blocked_cards(pos) != 0
            legal = [m for m in pos.legal_moves() if m.kind != CLAIM]
            discards = [m for m in legal if m.kind == DISCARD]
            pos.push(rng.choice(discards if discards and rng.random() < 0.8 else legal or list(pos.legal_moves())))
    # the slides and the blocked cards must really be exercised, else the equality proves little
    assert checked > 500 and slid > checked // 2 and blocked > checked // 2, (checked, slid, blocked)


@pytest.mark.slow
def test_one_pass_discards_match_the_plain_route():
    """node_moves (discards generated, reduced and scored in one pass) gives the same moves and
    sort keys as gen_moves + reduce_moves + order_keys, with history scores and a table move."""
    T = tables()
    st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
    mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    mk = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros(K.SC_SIZE, dtype=np.int64)
    hk = np.zeros(1 << 14, dtype=np.int64)
    hv = np.zeros(1 << 14, dtype=np.int64)
    ctr = np.zeros(K.NCTR, dtype=np.int64)
    discard_nodes = 0
    for seed in range(60):
        rng = random.Random(seed)
        pos = Position.start(deal_hands(rng), rng.randrange(3))
        while not pos.is_over:
            load_row(st, 0, pos)
            legal = list(pos.legal_moves())
            for m in rng.sample(legal, min(3, len(legal))):  # some history
                K.hist_add(hk, hv, ctr, pos.to_move << 36 | m.cards, rng.randrange(1, 200))
            ttm = encode(rng.choice(legal)) if rng.random() < 0.5 else K.NO_MOVE
            k1, k2 = (encode(rng.choice(legal)) if rng.random() < 0.5 else 0 for _ in range(2))
            for reduce in (True, False):
                n1 = K.node_moves(T, st, 0, mv, mk, sc, ttm, k1, k2, hk, hv, reduce)
                got = (mv[0, :n1].tolist(), mk[0, :n1].tolist())
                n2 = K.node_moves_generic(T, st, 0, mv, mk, sc, ttm, k1, k2, hk, hv, reduce)
                assert got == (mv[0, :n2].tolist(), mk[0, :n2].tolist()), f"seed {seed} reduce={reduce}: {pos}"
            discard_nodes += legal[-1].kind == DISCARD
            pos.push(rng.choice([m for m in legal if m.kind != CLAIM] or legal))
    assert discard_nodes > 300


def test_the_longest_move_list():
    """A six-card run led into a hand of twelve that cannot beat it: C(12, 6) = 924 discards."""
    h0, h1 = parse_cards("S123456C147M147"), parse_cards("C258S789M258T257")
    pos = Position([h0, h1, ALL_CARDS & ~h0 & ~h1], 0, 0)
    pos.push(Play.parse("S123456"))
    T = tables()
    st = np.zeros((K.MAX_PLY, K.NF), dtype=np.int64)
    mv = np.zeros((K.MAX_PLY, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros(K.SC_SIZE, dtype=np.int64)
    out = np.zeros(K.MAX_MOVES, dtype=np.int64)
    load_row(st, 0, pos)
    n = K.legal_moves(T, st, 0, mv, sc, out)
    assert n == 924 and [decode(m) for m in out[:n].tolist()] == list(pos.legal_moves())
    a, b = Solver().solve(pos, max_nodes=5), CompiledSolver().solve(pos, max_nodes=5)
    assert summary(a) == summary(b) and a.stopped == b.stopped == "nodes"
    a, b = Solver().solve(pos), CompiledSolver().solve(pos)
    assert summary(a) == summary(b) and a.complete and b.complete


@settings(max_examples=200, deadline=None)
@given(keys=hyp.lists(hyp.integers(-(2**62), 2**62), min_size=0, max_size=300, unique=True), lo=hyp.integers(0, 5))
def test_the_kernels_sort_orders_a_row_as_sorted_does(keys: list[int], lo: int) -> None:
    """ordering.heap_sort (the sort of a node's remaining sort keys, which are distinct) sorts
    mk[p, lo:hi] and leaves the rest of the array alone."""
    from lukfu_solver.search.kernel.ordering import heap_sort

    mk = np.full((3, lo + len(keys) + 2), 7, dtype=np.int64)
    mk[1, lo : lo + len(keys)] = keys
    before = mk.copy()
    heap_sort(mk, 1, lo, lo + len(keys))
    assert mk[1, lo : lo + len(keys)].tolist() == sorted(keys)
    assert (mk[[0, 2]] == before[[0, 2]]).all() and (mk[1, :lo] == 7).all() and (mk[1, lo + len(keys) :] == 7).all()


# ---------------------------------------------------------------- the search


@pytest.mark.slow
def test_fresh_solvers_agree_on_330_endgames():
    """Value, bounds, best move, principal variation, probes, hits and nodes are identical; every
    fifth position also in all-moves mode."""
    bad = []
    for i, line in enumerate(search_cases()):
        pos = Position.parse(line)
        all_moves = i % 5 == 0
        fast = CompiledSolver()
        a = Solver().solve(pos, all_moves=all_moves)
        b = fast.solve(pos, all_moves=all_moves)
        assert fast.tt_replaced == 0
        if summary(a) != summary(b):
            bad.append(f"{line}: reference {summary(a)[-3:]} {a.value}, fast {summary(b)[-3:]} {b.value}")
    assert not bad, "\n".join(bad[:10])


@pytest.mark.slow
def test_shared_solvers_agree_and_keep_the_same_history():
    """One solver of each kind across many positions: the table and the history carry over
    between solves in both, identically."""
    ref, fast = Solver(), CompiledSolver()
    for i, line in enumerate(search_cases()[::3]):
        pos = Position.parse(line)
        a = ref.solve(pos, all_moves=i % 4 == 0)
        b = fast.solve(pos, all_moves=i % 4 == 0)
        assert summary(a) == summary(b), line
    assert fast.history == ref.history
    assert fast.tt_entries == len(ref.tt)


@pytest.mark.slow
@pytest.mark.parametrize("driver,reduce", [("bisect", True), ("mtdf", False)])
def test_other_drivers_and_no_reduction_agree(driver, reduce):
    ref, fast = Solver(driver=driver, reduce=reduce), CompiledSolver(driver=driver, reduce=reduce)
    for line in search_cases()[1::6]:
        pos = Position.parse(line)
        a, b = ref.solve(pos), fast.solve(pos)
        assert summary(a) == summary(b), f"{driver} reduce={reduce}: {line}"


@pytest.mark.slow
def test_larger_endgames_agree():
    """Seven- and eight-card endgames (tens of thousands of nodes)."""
    for seed, n in ((90_000, 7), (90_001, 7), (90_002, 8), (90_003, 8)):
        pos = endgame(seed, n)
        fast = CompiledSolver()
        a, b = Solver().solve(pos), fast.solve(pos)
        assert fast.tt_replaced == 0
        assert summary(a) == summary(b), str(pos)


@pytest.mark.slow
def test_a_small_table_stays_exact():
    """A table far too small for the search replaces entries; values stay exact."""
    for line in search_cases()[4::25]:
        pos = Position.parse(line)
        assert CompiledSolver(tt_slots=64, start_slots=64).solve(pos).value == Solver().solve(pos).value, line


def test_the_table_grows_without_losing_entries():
    pos = endgame(90_000, 7)
    fast = CompiledSolver(start_slots=64)
    b = fast.solve(pos)
    assert fast.tt_replaced == 0 and fast.ctr[K.C_TTB] * 4 > 64
    assert summary(b) == summary(Solver().solve(pos))


@pytest.mark.slow
def test_a_full_deal_loses_no_entry_before_the_table_is_full():
    """A full deal's search (set b seed 0 caller 1 of bench/solve.py, 346 k nodes, about 117 k
    entries) overflows a bucket of four now and then; the table doubles each time until it is at
    full size, so no entry is lost and the node counts stay the reference's (a table that grew only
    below 2**20 slots lost entries here, and its node counts then parted from the reference's)."""
    fast = CompiledSolver()
    res = fast.solve(full_deal(0, 1))
    assert fast.tt_replaced == 0
    assert fast.ctr[K.C_TTB] * 4 > 1 << 20  # it did grow past the old limit
    assert res.complete


def test_finished_position():
    pos = Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -")
    pos.push(CLAIM_PLAY)
    a, b = Solver().solve(pos), CompiledSolver().solve(pos)
    assert summary(a) == summary(b) and b.value == pos.outcome.points[0]


# ---------------------------------------------------------------- limits


@pytest.mark.slow
def test_node_limit_stops_at_the_same_node():
    """max_nodes is exact in both: the same node count, stop reason, bounds and (when the bounds
    met) value, also when the limit strikes in the principal variation or all-moves pass."""
    for seed, n in ((90_002, 8), (90_004, 8), (90_005, 7)):
        pos = endgame(seed, n)
        want = CompiledSolver().solve(pos).value
        for limit in (50, 1_000, 5_000, 20_000):
            for all_moves in (False, True):
                a = Solver().solve(pos, max_nodes=limit, all_moves=all_moves)
                b = CompiledSolver().solve(pos, max_nodes=limit, all_moves=all_moves)
                where = f"{pos} max_nodes={limit} all_moves={all_moves}"
                assert summary(a) == summary(b), where
                assert (a.complete, a.stopped) == (b.complete, b.stopped), where
                assert b.lower <= want <= b.upper, where
                if not b.complete:
                    assert b.stopped == "nodes" and b.nodes == limit, where
                    assert b.value is None or b.value == b.lower == b.upper, where


def test_time_limit_returns_promptly_on_a_full_deal():
    pos = full_deal(12, 0)  # the slowest deal of bench/solve.py (about 17 s): surely unfinished
    t0 = time.perf_counter()
    res = CompiledSolver().solve(pos, time_limit=0.05)
    wall = time.perf_counter() - t0
    assert wall < 1.0, f"time_limit=0.05 took {wall:.2f} s"
    assert not res.complete and res.stopped == "time"
    assert res.lower <= res.upper


def test_solver_stays_exact_after_an_aborted_search():
    fast = CompiledSolver()
    for seed in (90_002, 90_004):
        pos = endgame(seed, 8)
        fast.solve(pos, max_nodes=700)
        assert fast.solve(pos).value == Solver().solve(pos).value


def test_ctrl_c_stops_an_unlimited_solve_at_once():
    """Ctrl-C during a solve with no limits: the compiled search returns to Python every 65536
    nodes, so a signal's handler runs (and its KeyboardInterrupt is raised) within a few thousand
    nodes, not when the solve ends (this deal needs 40 M nodes; an interrupt after 0.2 s must find
    far fewer done). The signal comes from the kernel's interval timer, as a terminal's Ctrl-C
    comes from outside: a timer *thread* calling ``_thread.interrupt_main`` must first win the
    GIL, which on a loaded machine it may not do before the solve ends."""
    import signal

    pos = Position.parse("C1369S127M12T359/C48S35M45789T148/C257S4689M36T267 0 0 0,0,0 - -")
    fast = CompiledSolver()
    fast.solve(Position.parse("C9/C8/C7 0 0 6,3,2 S123456789M12 -"))  # compiled and warm

    def ctrl_c(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, ctrl_c)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            fast.solve(pos)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 0 < int(fast.ctr[K.C_NODES]) < 20_000_000


# ---------------------------------------------------------------- the warm start (guess=)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["reference", "compiled"])
def test_a_guess_never_changes_the_value(kind: str) -> None:
    """``solve(pos, guess=g)`` starts the driver at "at least g?"; the value is the same for every
    g (even, odd, outside the value range), both solvers agree node for node under one guess, and
    guess=None is the solve without one."""
    positions = [endgame(seed, 5) for seed in range(12)] + [endgame(seed, 6, plays=1) for seed in range(4)]
    for pos in positions:
        plain = make_solver(kind).solve(pos)
        again = make_solver(kind).solve(pos, guess=None)
        assert (again.value, again.nodes, again.best) == (plain.value, plain.nodes, plain.best)
        for g in (-20, -14, -3, 0, 1, 4, plain.value, 14, 30):
            res = make_solver(kind).solve(pos, guess=g)
            assert (res.value, res.lower, res.upper) == (plain.value, plain.value, plain.value), (pos, g)
            if kind == "compiled" and g in (-3, 4):
                ref = make_solver("reference").solve(pos, guess=g)
                assert (ref.value, ref.nodes, ref.pv) == (res.value, res.nodes, res.pv)
