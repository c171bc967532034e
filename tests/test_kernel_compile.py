"""The kernel compiles each function once per argument types, never once per constant argument.

numba compiles a function called from compiled code for the caller's argument types as they
are, literals included, so ``can_beat(T, hand, best, True)`` and ``can_beat(T, hand, best, led)``
would be two compiles, each with everything it calls; the kernel package makes every kernel
function type its calls with the plain types (``kernel._compile_once_each``). This is what keeps
the cold compile short (``docs/search.md``, "Pausing, and the compile")."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core.registry import CPUDispatcher

from lukfu_solver.search import kernel as K
from lukfu_solver.search.compiled import tables
from lukfu_solver.search.kernel import alphabeta, bounds, layout, moves, ordering, state, table

MODULES = (alphabeta, bounds, layout, moves, ordering, state, table)


def kernel_functions() -> list[CPUDispatcher]:
    """Every compiled function defined in a kernel module."""
    return [
        fn
        for module in MODULES
        for fn in vars(module).values()
        if isinstance(fn, CPUDispatcher) and fn.__module__ == module.__name__
    ]


def test_every_kernel_function_types_calls_with_plain_types() -> None:
    functions = kernel_functions()
    assert len(functions) > 40
    assert all("get_call_template" in vars(fn) for fn in functions)


@njit
def _led_literal(T: np.ndarray, hand: int, best: int) -> bool:
    return layout.can_beat(T, hand, best, True)


@njit
def _led_variable(T: np.ndarray, hand: int, best: int, led: bool) -> bool:
    return layout.can_beat(T, hand, best, led)


def test_a_constant_argument_compiles_no_copy_of_its_own() -> None:
    T = tables()
    best = (1 << 4) | (K.SINGLE << 36) | (1 << 40)  # a single: suit 0, rank 5
    hand = 1 << 7  # rank 8 of suit 0: beats it
    assert _led_literal(T, hand, best)
    assert _led_variable(T, hand, best, False)
    assert not _led_variable(T, 1 << 2, best, True)
    signatures = list(layout.can_beat.overloads)
    assert signatures
    assert not any(isinstance(a, types.Literal) for sig in signatures for a in sig)
    assert len({sig[3] for sig in signatures}) == 1  # one type for `best_led`, literal or not
