"""The kernel's cache of table keys (issue 13, ninth round: ``kernel.state.tt_key_cached``, the
tail of ``T`` at ``O_KEYC``, looked up by the row's full Zobrist key ``F_KEY``).

A cached key must be the key computed: along random playouts written by the kernel's ``push``
(the only rows the search asks for a table key) the full key is the row's own and the cached key
equals ``tt_key`` and the reference's, on a miss and on the hit that follows; a slot holding
another key, or torn by two writers, reads as a miss (a variant that served a slot without
checking the key in full would fail there). ``tt_key`` itself starts from ``F_KEY`` (the table key
is the full key with the canonical form's changes XORed in), so keying the cache by it assumes
nothing the uncached key does not.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from conftest import kernel_playouts  # noqa: E402

from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search import tt_key  # noqa: E402
from lukfu_solver.search.compiled import tables  # noqa: E402
from lukfu_solver.search.kernel import state as KS  # noqa: E402
from lukfu_solver.search.kernel.layout import to_unsigned  # noqa: E402
from lukfu_solver.search.kernel.table import mix  # noqa: E402


def _slot(key: int) -> int:
    return K.O_KEYC + ((int(mix(key)) & (K.KEY_CACHE_SLOTS - 1)) << 1)


def test_cached_keys_equal_the_computed_ones_on_a_miss_and_on_the_hit() -> None:
    T = tables()
    rows = 0
    for pos, st, ply in kernel_playouts(range(40)):
        where = str(pos)
        assert st[ply, K.F_KEY] == K.full_key(T, st, ply), where  # the search's rows keep F_KEY exact
        want = int(K.tt_key(T, st, ply))
        assert to_unsigned(want) == tt_key(pos), where
        fk = int(st[ply, K.F_KEY])
        i = _slot(fk)
        T[i] = T[i + 1] = 0  # a miss
        assert KS.tt_key_cached(T, st, ply) == want, where
        assert int(T[i] ^ T[i + 1]) == fk and T[i + 1] == want, where  # stored
        assert KS.tt_key_cached(T, st, ply) == want, where  # the hit
        T[i + 1] ^= 1 << 20  # torn: another writer's data beside this key's check word
        assert KS.tt_key_cached(T, st, ply) == want, where
        assert T[i + 1] == want, where  # computed and stored again
        T[i] = (fk ^ 1) ^ 12345  # another key's entry in the slot
        T[i + 1] = 12345
        assert KS.tt_key_cached(T, st, ply) == want, where
        rows += 1
    assert rows > 1000


def test_the_prefetched_slot_is_the_one_looked_up() -> None:
    """alphabeta prefetches ``key_slot(F_KEY)`` at the caller's lead before the bounds (issue 13,
    tenth round): it must be the slot ``tt_key_cached`` then reads and writes."""
    T = tables()
    for pos, st, ply in kernel_playouts(range(5)):
        fk = int(st[ply, K.F_KEY])
        assert KS.key_slot(fk) == _slot(fk), str(pos)
        i = _slot(fk)
        T[i] = T[i + 1] = 0
        KS.tt_key_cached(T, st, ply)
        assert int(T[i] ^ T[i + 1]) == fk, str(pos)  # written at the prefetched slot
