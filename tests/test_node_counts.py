"""Fixed positions with their node counts: a change that silently searches more, or
differently, shows up here. Both the reference search and the compiled kernel must give these
exact values and node counts; update the numbers only with a change that is meant to alter the
search, and say so in its commit."""

from __future__ import annotations

import pytest

from lukfu_solver.position import Position
from lukfu_solver.search import make_solver

# (position, value, nodes) — from lukfu_solver.endgames.random_endgame(seed, cards) for
# (1, 6), (7, 6), (13, 6), (2, 8), (12, 8), solved with a fresh solver (default MTD(f) driver).
# The counts change only with a commit meant to change the search; its message gives the old ones.
FIXED = [
    ("C3S23M1T17/C46S15T23/C578S47T5 0 2 3,1,2 S69M2345678T4689 -", -2, 18),
    ("C69S4M57T2/C178S5M2T8/C45S139M3 2 0 2,2,2 S678M49T1345679 -", 0, 344),
    ("C146S25M4/C2358S7M9/C9S46M1T69 2 2 3,0,3 M678T12347 -", 4, 362),
    ("C135M35T245/C28S3456M1T3/C6S12M2468T1 0 0 3,1,0 C7S789M79T79 -", 6, 1243),
    ("C37S258M49T9/C4568M27T68/C1S14679M35 1 0 0,4,0 M16T123 -", -6, 3128),
]


@pytest.mark.parametrize(("text", "value", "nodes"), FIXED[:3])
def test_reference_value_and_node_count(text: str, value: int, nodes: int) -> None:
    res = make_solver("reference").solve(Position.parse(text))
    assert (res.value, res.nodes) == (value, nodes)


@pytest.mark.parametrize(("text", "value", "nodes"), FIXED)
def test_kernel_value_and_node_count(text: str, value: int, nodes: int) -> None:
    res = make_solver("compiled").solve(Position.parse(text))
    assert (res.value, res.nodes) == (value, nodes)
