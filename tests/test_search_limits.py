"""The exact solver under node and time limits: its bounds bracket the value, it stops when told,
and a search stopped by a limit leaves the next solves exact."""

from __future__ import annotations

import random
import time

import pytest
from oracle import random_endgame
from search_cases import check_value, disagreements, guard, limit_positions, mix

from lukfu_solver.game import deal_hands
from lukfu_solver.position import Position
from lukfu_solver.search import Solver


@pytest.fixture(autouse=True)
def no_hang():
    """Every test of this module fails after 300 s rather than hanging the suite."""
    with guard(300):
        yield


def big_positions() -> list[Position]:
    deals = [Position.start(deal_hands(random.Random(s)), s % 3) for s in (1, 2, 3)]
    return deals + [random_endgame(90_000 + i, 10, i % 3) for i in range(2)]


def check_partial(res, where: str) -> None:
    assert res.lower <= res.upper, where
    check_value(res.lower, where)
    check_value(res.upper, where)
    if not res.complete:
        assert res.value is None or res.value == res.lower == res.upper, where


def test_node_limit_stops_a_large_search():
    for pos in big_positions():
        with guard(20):
            res = Solver().solve(pos, max_nodes=50)
        check_partial(res, str(pos))
        assert not res.complete, f"{pos}: 50 nodes cannot solve this"


@pytest.mark.slow
def test_node_and_time_limited_bounds_bracket_the_value():
    for line, want in limit_positions():
        pos = Position.parse(line)
        for kwargs in ({"max_nodes": 50}, {"max_nodes": 2_000}, {"max_nodes": 10_000}, {"time_limit": 0.01}):
            res = Solver().solve(pos, **kwargs)
            check_partial(res, f"{line} {kwargs}")
            if res.complete:
                assert res.value == want, f"{line} {kwargs}"
            else:
                assert res.lower <= want <= res.upper, f"{line} {kwargs}: ({res.lower}, {res.upper}) miss {want}"


@pytest.mark.slow
def test_solver_stays_exact_after_an_aborted_search():
    """A search stopped by a limit leaves a table behind; the next solves must still be exact."""
    solver = Solver()
    for line, want in limit_positions():
        pos = Position.parse(line)
        solver.solve(pos, max_nodes=500)
        solver.solve(pos, max_nodes=3_000, all_moves=True)
        assert solver.solve(pos).value == want, line
    for pos in big_positions()[:2]:
        with guard(20):
            solver.solve(pos, max_nodes=3_000)
    bad = disagreements(mix()[::10], solver.value)
    assert not bad, "\n".join(bad)


@pytest.mark.slow
def test_time_limit_returns_promptly_on_a_full_deal():
    for pos in big_positions()[:3]:
        assert pos.cards_per_hand() == 12
        # The solver's own work after the limit is measured in CPU seconds (a shared machine
        # stretches wall time, not the work done between two clock checks); wall time only guards a hang.
        t0, c0 = time.perf_counter(), time.process_time()
        with guard(20):
            res = Solver().solve(pos, time_limit=0.05)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        assert cpu < 1.0, f"{pos}: time_limit=0.05 took {cpu:.2f} s of CPU"
        assert wall < 10.0, f"{pos}: time_limit=0.05 took {wall:.2f} s"
        assert not res.complete
        check_partial(res, str(pos))

