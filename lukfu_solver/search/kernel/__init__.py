"""The compiled search kernel (numba): the rules engine and the alpha-beta search of
:mod:`lukfu_solver.search.reference`, move for move, on flat int64 arrays.

This package imports numba; nothing else in ``lukfu_solver`` imports it (use it through
:class:`lukfu_solver.search.compiled.CompiledSolver`). Every function is ``@njit(cache=True, _nrt=False)``
(numba's runtime left out: the kernel allocates no array, so it needs no reference counts): compiled once
(each function once: see ``_compile_once_each`` and ``compiled.compile_all``; what it costs:
``docs/getting-started.md``, "The first run") and cached on disk by :mod:`.disk_cache`, for every
checkout and install of the same kernel on the machine; ``pip install .`` compiles it while building
the wheel, so later runs only load it. The modules follow the
phases of a node (``docs/search.md``, "The compiled kernel"):

- :mod:`.layout`: intrinsics, encodings, field and counter indices, the constant table ``T``;
- :mod:`.bounds`: ``value_bounds`` and its parts (:mod:`lukfu_solver.search.bounds`);
- :mod:`.discards`: the next leader's look-ahead for a follower's discards (``discard_ahead_bound``);
- :mod:`.state`: ``push`` and the keys (``Position.push``, ``table_key.tt_key``);
- :mod:`.moves`: move generation and the rank-equivalence reduction;
- :mod:`.table`: the transposition table;
- :mod:`.ordering`: the history table, the sort keys, killers, selection and sorting;
- :mod:`.alphabeta`: the iterative alpha-beta ``search`` and its schedule.

This face re-exports what :mod:`lukfu_solver.search.compiled` and the tests use as ``K.<name>``.

Representation (all int64):

- a card set is a mask below 2**36 (card index = suit × 9 + rank − 1, as in :mod:`lukfu_solver.cards`);
- a move is ``cards | kind << 36 | size << 40`` (kinds as in :mod:`lukfu_solver.plays`; the claim is
  ``CLAIM << 36``);
- a position is one row of the state array ``st[ply, :]`` (fields ``F_*`` in :mod:`.layout`); ``push`` writes
  row ``ply + 1`` from row ``ply``, so taking a move back is ``ply − 1``;
- Zobrist keys are the 64-bit keys of :mod:`lukfu_solver.position` viewed as signed int64 (XOR is the
  same bit operation either way); ``build_tables`` copies them, with the suit tables of
  :mod:`lukfu_solver.cards`, into one flat constant array ``T`` (offsets ``O_*``), whose tail
  (``O_VBC``) is the one part written later: the cache of the costly bounds (:mod:`.bounds`,
  ``bounds_cache_key``), shared by every solver and thread of the process;
- the moves of the node at ply p are in ``mv[p, :n]`` in generation order, with sort keys
  ``mk[p, i] = score << 10 | i`` (the score of ``Solver._ordered``; the index makes the order
  that of Python's stable sort); ``next_move`` selects the first few lazily, then sorts the rest;
- the transposition table ``tt`` holds buckets of four slots, each slot two words (the full
  key, then the data), so a bucket is one 64-byte cache line: data = best move |
  (lower + 16) << 44 | (upper + 16) << 49 | cards a hand << 54; 0 marks an empty slot.
  Only the first ``ctr[C_TTB]`` buckets are in use: the table starts small and doubles in
  place (``tt_grow``) when half full and, below ``ctr[C_EXACT_B]`` buckets, whenever a bucket
  is full, so that small searches never lose an entry. At full size, a full bucket gives up
  its entry with the fewest cards a hand (the cheapest to recompute). A small table stays in
  the caches: the search runs faster the fewer cache lines the table spans;
- the history table is an open-addressing hash ``hk``/``hv`` keyed by ``seat << 36 | cards``
  (+1; 0 marks empty), grown by the caller between searches so that it never fills.

The search (``search``) is iterative (an explicit stack of frames ``fr[ply, :]``) so that it can
pause every ``ctr[C_PAUSE] + 1`` nodes and hand control back to Python (the clock, the helper
thread, Ctrl-C), then resume.

Speed notes (the measurements behind them: ``docs/search.md``, "The measurements behind the
kernel's choices"): with numba's runtime, passing numpy arrays between compiled functions costs a
call to its reference counting per array per call, even on arrays without a count, so every
function is compiled without it (``_nrt=False``); a node's moves are generated and scored only
after its table probe, since many probed nodes are decided by their entry and need none (the
table's move is scored first directly; a lone move is not scored, ``search_moves``); a follower's
discards are generated, reduced and scored in one pass (``discards_ordered``). The first moves of
the order that are known without generating the rest (the table's move, the claim, the killers,
each checked by ``move_ok``) are searched before the rest is generated (``known_move``); a node
where one of them cuts (most of those that have one) never pays for the others, and the rest of
a node where none cut is scored by the history as it was before the first was searched (a log of
the history's changes, taken out and put back: ``wake``, ``flush``).
"""

# ruff: noqa: E402 (numba's cache is set up before the phases are imported and compiled)

from collections.abc import Callable

from . import disk_cache

# every phase is cached in one folder, stamped with the whole kernel's digest, wherever it is
# installed (numba's own cache is per path and checks only a function's own file)
disk_cache.register()

from .alphabeta import legal_moves, node_key, ordered_moves, reduced_moves, schedule, search
from .bounds import value_bounds
from .layout import *  # noqa: F403 (every name of the layout is part of the face)
from .layout import _signed
from .moves import move_ok
from .ordering import hist_add, hist_rehash, node_moves, node_moves_generic
from .state import full_key, last_key, push, tt_key
from .table import tt_bounds, tt_grow, tt_lookup_move


def _compile_once_each() -> None:
    """Make every kernel function compile once per argument types, never per constant.

    A numba function called from compiled code is compiled for the caller's argument types as
    they are, literals included: ``f(x, True)`` and ``f(x, False)`` compile ``f`` twice, and so
    does a variable typed as its first constant (``u = 0`` before a loop grows it) while the
    caller's types are still being inferred, each copy with everything it calls linked into it.
    Typing each call with the arguments' plain types instead gives one compile per function (the
    same code: no kernel function needs a constant argument), which halves the cold compile."""
    from numba.core import types
    from numba.core.registry import CPUDispatcher

    from . import alphabeta, bounds, claims, discards, layout, moves, ordering, state, table

    def plain(template: Callable[..., object]) -> Callable[..., object]:
        def get_call_template(args: tuple, kws: dict) -> object:
            return template(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

        return get_call_template

    for module in (alphabeta, bounds, claims, discards, layout, moves, ordering, state, table):
        for fn in vars(module).values():
            if isinstance(fn, CPUDispatcher) and fn.__module__ == module.__name__:
                fn.get_call_template = plain(fn.get_call_template)


_compile_once_each()


def _use_kernel_cache() -> None:
    """Every phase's functions cached by :class:`.disk_cache.KernelCache`."""
    from . import alphabeta, bounds, claims, discards, layout, moves, ordering, state, table

    disk_cache.use_kernel_cache((alphabeta, bounds, claims, discards, layout, moves, ordering, state, table))


_use_kernel_cache()

__all__ = [
    "_signed",
    "full_key",
    "hist_add",
    "hist_rehash",
    "last_key",
    "legal_moves",
    "move_ok",
    "node_key",
    "node_moves",
    "node_moves_generic",
    "ordered_moves",
    "push",
    "reduced_moves",
    "schedule",
    "search",
    "tt_bounds",
    "tt_grow",
    "tt_key",
    "tt_lookup_move",
    "value_bounds",
]
"""The phases' functions the face re-exports; every name of :mod:`.layout` is here too."""
