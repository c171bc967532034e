"""The resampling route of ``ipimc`` (``pool`` above 1: a pool of deals weighed, the level's
samples drawn from it by weight): the draw follows the weights, the rule model's route is the
same for the same seed in another process (any ``--jobs``), and its cost is in the decision time
(counted on a clock that ticks, not timed)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from lukfu_solver.game import play_deal
from lukfu_solver.hidden.inference import Weights, rule_model
from lukfu_solver.parallel import ordered_map
from lukfu_solver.players import pimc as pimc_mod
from lukfu_solver.players.ipimc import IpimcPlayer
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.view import SeatView


class FixedWeights(IpimcPlayer):
    """An ``ipimc`` player whose pool weights are given (to test the draw alone)."""

    def __init__(self, weights: list[float], **kw: Any) -> None:
        super().__init__(1, seed=0, evidence="plays", **kw)
        self.fixed = weights

    def weigh(self, view: SeatView, deals: Any) -> Weights:
        n = float(len(self.fixed))
        return Weights(tuple(self.fixed), n, n, 1.0, 1.0)


class Numbers:
    """A stand-in sampler: its samples are the numbers 0, 1, ..."""

    def samples(self, n: int) -> list[int]:
        return list(range(n))


def test_the_draw_follows_the_weights() -> None:
    """Systematic resampling: each pool deal is drawn within one of its expected count (the
    level's samples times its share of the weight), in pool order; zero weight, never drawn."""
    for seed in range(12):
        r = random.Random(seed)
        n = IpimcPlayer(1).params.samples
        weights = [r.choice((0.0, 0.1, 1.0, 3.0, 9.0)) * r.random() for _ in range(4 * n)]
        weights[seed] += 1.0
        p = FixedWeights(weights, pool=4)
        picked, w = p.draw(None, Numbers(), random.Random(seed))  # type: ignore[arg-type]
        assert len(picked) == n and picked == sorted(picked) and w is not None
        total = sum(weights)
        for i, x in enumerate(weights):
            expected = n * x / total
            assert abs(picked.count(i) - expected) < 1 + 1e-9, (seed, i, picked.count(i), expected)
            if x == 0:
                assert i not in picked


def endgame_view() -> SeatView:
    rec = next(r for s in range(40) for r in [play_deal([RandomPlayer(s + i) for i in range(3)], s)] if r.caller)
    n = 18
    return rec.view(rec.replay()[n].to_move, n)


def rule_pool_moves(view_text: str) -> list[tuple[str, float]]:
    """The rule model's resampling route analysing a view (a top-level function: a process's work)."""
    view = SeatView.parse(view_text)
    a = IpimcPlayer(1, seed=7, pool=4, evidence="plays", model=rule_model()).analyse(view)
    return [(str(m.move), m.mean) for m in a.moves]


@pytest.mark.slow
def test_the_rule_models_resampling_is_the_same_in_another_process() -> None:
    """Seeded by the decision (the seed and the view), so a match gives the same games for any
    ``--jobs``: the same analysis here and in worker processes."""
    view = str(endgame_view())
    here = rule_pool_moves(view)
    assert len(here) > 1  # a real choice, valued on resampled deals
    there = list(ordered_map(rule_pool_moves, [view, view], jobs=2))
    assert there == [here, here]


def test_the_pools_weighing_is_counted_in_the_decision_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's likelihoods are computed inside the timed decision (``seconds``): on a clock
    that only moves when it is read, or by the ticks the weighing adds, a decision counts every
    tick its weighing added, and one without the extra ticks counts fewer."""
    ticks = [0.0]
    weighings = [0]

    def clock() -> float:
        ticks[0] += 1.0
        return ticks[0]

    monkeypatch.setattr(pimc_mod, "time", SimpleNamespace(perf_counter=clock))

    class Slow(IpimcPlayer):
        def weigh(self, view: SeatView, deals: Any) -> Weights | None:
            ticks[0] += 1000.0
            weighings[0] += 1
            return super().weigh(view, deals)

    view = endgame_view()
    p = Slow(1, seed=7, pool=4, evidence="plays", model=rule_model())
    p(view)
    assert weighings[0] == 1 and p.seconds and p.seconds[-1] >= 1000.0
    q = IpimcPlayer(1, seed=7, pool=4, evidence="plays", model=rule_model())
    q(view)
    assert q.seconds and q.seconds[-1] < 1000.0
