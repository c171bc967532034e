"""The kernel's table keys (``kernel/state.py``): the cache of table keys, and the run slides'
scan of only the suits where a run may move.

- **The cache of table keys** (``tt_key_cached``, the tail of ``T`` at ``O_KEYC``, looked up by
  the row's full Zobrist key ``F_KEY``). A cached key must be the key computed: along random
  playouts written by the kernel's ``push`` (the only rows the search asks for a table key) the
  full key is the row's own and the cached key equals ``tt_key`` and the reference's, on a miss
  and on the hit that follows; a slot holding another key, or torn by two writers, reads as a
  miss (a variant that served a slot without checking the key in full would fail there).
  ``tt_key`` itself starts from ``F_KEY`` (the table key is the full key with the canonical
  form's changes XORed in), so keying the cache by it assumes nothing the uncached key does not.
- **The run slides over the candidate suits** (``slide_runs_all`` over the suits of its quick
  test's candidates). A run moves only onto cards of ``over`` just below its bottom, and only a
  move in its own suit changes those, so a suit with no candidate bottom (a run's lowest card,
  movable, with a card of ``over`` just below) has no move for the whole call; a suit where one
  run's move frees the places below another run (of another hand, not a candidate at first) is
  scanned whole, hand by hand, as the reference does. Checked against the reference's
  ``_slide_runs`` (the hands, ``over`` and the key's hand terms) on random suits dense in runs,
  with enough cases of a run that moves only after another one did; a scan over too few suits
  differs from the reference there, so the check has teeth.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from conftest import kernel_playouts  # noqa: E402

from lukfu_solver.position import Z_HAND, zmask  # noqa: E402
from lukfu_solver.search import kernel as K  # noqa: E402
from lukfu_solver.search import table_key as R  # noqa: E402
from lukfu_solver.search import tt_key  # noqa: E402
from lukfu_solver.search.compiled import tables  # noqa: E402
from lukfu_solver.search.kernel import state as KS  # noqa: E402
from lukfu_solver.search.kernel.layout import to_unsigned  # noqa: E402
from lukfu_solver.search.kernel.table import mix  # noqa: E402

# ---------------------------------------------------------------- the cache of table keys


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
    """alphabeta prefetches ``key_slot(F_KEY)`` at the caller's lead before the bounds: it must
    be the slot ``tt_key_cached`` then reads and writes."""
    T = tables()
    for pos, st, ply in kernel_playouts(range(5)):
        fk = int(st[ply, K.F_KEY])
        assert KS.key_slot(fk) == _slot(fk), str(pos)
        i = _slot(fk)
        T[i] = T[i + 1] = 0
        KS.tt_key_cached(T, st, ply)
        assert int(T[i] ^ T[i + 1]) == fk, str(pos)  # written at the prefetched slot


# ---------------------------------------------------------------- the run slides over the candidate suits


def random_suits(rng: random.Random) -> tuple[list[int], int, int]:
    """Hands, ``over`` and ``movable`` (cards of the hands) laid out suit by suit in blocks, so
    that runs of one hand sit above cards of ``over`` and above other hands' runs."""
    hands = [0, 0, 0]
    over = 0
    for suit in range(4):
        r = 0
        while r < 9:
            length = min(9 - r, rng.choice((1, 1, 2, 3, 3, 4)))
            what = rng.randrange(5)  # 0-2 a hand, 3 over, 4 neither (a card on the table)
            block = ((1 << length) - 1) << (9 * suit + r)
            if what < 3:
                hands[what] |= block
            elif what == 3:
                over |= block
            r += length
    live = hands[0] | hands[1] | hands[2]
    movable = live & ~(rng.getrandbits(36) & rng.getrandbits(36) & rng.getrandbits(36))
    return hands, over, movable


def quick_candidates(hands: list[int], over: int, movable: int) -> int:
    """The quick test of ``kernel.state.slide_runs``: run bottoms with a card of ``over`` below."""
    cand = 0
    for h in hands:
        starts = h & (h >> 1) & (h >> 2) & K.RUN_STARTS
        runs = starts | (starts << 1) | (starts << 2)
        cand |= runs & ~((h << 1) & ~K.RANK1) & (over << 1) & ~K.RANK1 & movable
    return cand


def kernel_runs(T, hands: list[int], over: int, movable: int, cand: int) -> tuple[list[int], int, int]:
    h0, h1, h2, after, key = KS.slide_runs_all(T, hands[0], hands[1], hands[2], over, movable, 0, cand)
    return [int(h0), int(h1), int(h2)], int(after), K.to_unsigned(key)


@pytest.mark.slow
def test_run_slides_over_the_candidate_suits_are_the_reference_s() -> None:
    T = tables()
    rng = random.Random(13)
    moved = later = narrow_differs = 0
    for _ in range(20000):
        hands, over, movable = random_suits(rng)
        cand = quick_candidates(hands, over, movable)
        if cand == 0:
            continue
        want_hands = list(hands)
        want_over = R._slide_runs(want_hands, over, movable)
        want_key = 0
        for s in range(3):
            want_key ^= zmask(Z_HAND[s], hands[s] ^ want_hands[s])
        got_hands, got_over, got_key = kernel_runs(T, hands, over, movable, cand)
        where = f"hands {[hex(h) for h in hands]}, over {over:#x}, movable {movable:#x}"
        assert (got_hands, got_over, got_key) == (want_hands, want_over, want_key), where
        if want_over != over:
            moved += 1
            # a hand's run that moved in a suit where that hand had no candidate at first: another
            # hand's run moved first and freed the places below it
            for s in range(3):
                own = quick_candidates([hands[s], 0, 0], over, movable)
                for suit in range(4):
                    suit_bits = 0x1FF << (9 * suit)
                    if (hands[s] ^ want_hands[s]) & suit_bits and not own & suit_bits:
                        later += 1
            # the candidate suits but the highest: some position then differs from the reference
            top = (cand.bit_length() - 1) // 9
            narrow = cand & ((1 << (9 * top)) - 1)
            if kernel_runs(T, hands, over, movable, narrow) != (want_hands, want_over, want_key):
                narrow_differs += 1
    assert moved > 1000
    assert later > 20
    assert narrow_differs > 100
