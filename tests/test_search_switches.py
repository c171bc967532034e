"""The searches with the switches of their look-aheads (``search/switches.py``), on the seeded
endgames where each bound applies (``tests/bound_cases.py``).

Each look-ahead the search calls after the table probe is behind one switch that both searches
read: with it on or off the reference search gives the plain alpha-beta oracle's value
(``tests/oracle.py``), and with it on it searches fewer nodes on some cases, where the look-ahead
decides a zero-window test. Wherever each bound or look-ahead applies, both solvers, as switched,
give the oracle's value with the same node count. The bounds themselves are proved in
``tests/test_search_bounds.py`` and ``tests/test_search_discards.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import bound_cases
import pytest
from oracle import oracle_ab_once

from lukfu_solver.position import Position
from lukfu_solver.search import make_solver
from lukfu_solver.search import switches as S

SWITCHED: dict[str, tuple[Callable[[], list[Position]], int | None, int]] = {
    "CALLER_AHEAD": (bound_cases.caller_leads, 80, 10),
    "COALITION_AHEAD": (bound_cases.coalition_leads, 80, 5),
    "DISCARD_AHEAD": (bound_cases.follower_discards, None, 20),
}
"""A look-ahead's switch: (its cases, how many of them are solved, the fewest on which the search
with it on must search fewer nodes)."""

APPLIES: dict[str, tuple[Callable[[], list[Position]], int | None]] = {
    "r7_lead": (bound_cases.r7_leads, 60),
    "r7_ahead": (bound_cases.r7_ahead, 80),
    "caller_ahead": (bound_cases.caller_leads, 80),
    "coalition_ahead": (bound_cases.coalition_leads, 80),
    "discard_ahead": (bound_cases.follower_discards, None),
}
"""A bound or look-ahead: (the cases where it applies, how many of them are solved)."""


@pytest.mark.slow
@pytest.mark.parametrize("switch", list(SWITCHED))
def test_the_reference_search_with_the_switch_on(switch: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference search with the look-ahead at its call point (after the table probe, up to
    the window's edge) gives the oracle's value on the cases, as it does with the look-ahead off,
    and on some of them, where the look-ahead can decide a test, searches fewer nodes."""
    cases, count, least = SWITCHED[switch]
    fewer = 0
    for pos in cases()[:count]:
        with monkeypatch.context() as m:
            m.setattr(S, switch, True)
            on = make_solver("reference").solve(pos)
        with monkeypatch.context() as m:
            m.setattr(S, switch, False)
            off = make_solver("reference").solve(pos)
        assert on.value == off.value == oracle_ab_once(pos), str(pos)
        fewer += on.nodes < off.nodes
    assert fewer >= least, fewer


@pytest.mark.slow
@pytest.mark.parametrize("bound", list(APPLIES))
def test_solvers_agree_with_the_oracle_where_the_bound_applies(bound: str) -> None:
    """Both solvers, as switched, give the oracle's value and the same node count on the cases
    where the bound applies (for the R7 look-ahead: inside the trick whose playout it ends)."""
    cases, count = APPLIES[bound]
    compiled, reference = make_solver("compiled"), make_solver("reference")
    for pos in cases()[:count]:
        a, b = compiled.solve(pos), reference.solve(pos)
        assert a.value == b.value == oracle_ab_once(pos), str(pos)
        assert a.nodes == b.nodes, str(pos)
