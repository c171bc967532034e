"""The 30 hands of the advice benchmarks and their sampling seeds, shared by the benchmarks
(``bench/advise.py``, ``bench/studies/advise_levers.py``, ``bench/studies/advise_master.py``) and the exact
reference they are judged against (``train/advise_reference.py``, whose records are
``bench/results/advise-reference.json``): hand ``i`` is seat ``i % 3`` of
``deal_from_seed(1000 + i)``.

>>> bench_hand(4)[1]
1
>>> len(sample_seeds(REF_SEED, 3))
3
"""

from __future__ import annotations

import random

from lukfu_solver.game import deal_from_seed

FIRST_DEAL = 1000
"""Hand ``i`` comes from ``deal_from_seed(FIRST_DEAL + i)``."""
REF_SEED = 1_000_003
"""The reference's sampling seed: not 2 or 3, the seeds bench/advise.py tests."""
TESTED_SEEDS = (2, 3)
"""bench/advise.py's sampling seeds, whose sample seeds the reference must not reuse."""
TESTED_SAMPLES = 256
"""The most samples bench/advise.py draws a hand (``ANYTIME_SAMPLES``)."""


def bench_hand(i: int) -> tuple[int, int]:
    """``(hand, seat)`` of bench hand ``i``."""
    seat = i % 3
    return deal_from_seed(FIRST_DEAL + i)[seat], seat


def sample_seeds(seed: int, n: int) -> list[int]:
    """The per-sample seeds ``call_values`` draws from ``seed`` (the same stream)."""
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(n)]
