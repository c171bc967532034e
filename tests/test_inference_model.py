"""The rank model of the opponent (``hidden.inference``: a weight for each place among a seat's
candidates) and the likelihood's temperature: the probabilities sum to 1, the fit
(``train.opponent_fit``) recovers known weights, and ``L ** temperature`` is floored like the likelihood itself."""

from __future__ import annotations

import math
import random

import pytest

from lukfu_solver.game import play_deal
from lukfu_solver.hidden.inference import (
    ESS_SHARE,
    Decision,
    OpponentModel,
    log_likelihood,
    rank_p,
    temper,
)
from lukfu_solver.hidden.pimc import effective_samples
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.players.ipimc import IpimcPlayer, opponent_model
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.policy.rule import RulePlayer
from train.opponent_fit import fit_ranks


def test_the_rank_model_sums_to_one_over_the_legal_moves() -> None:
    q = (1.0, 0.6, 0.3, 0.25, 0.1)
    for cands, legal in ((1, 3), (3, 3), (4, 9), (5, 5), (5, 40)):
        base = Decision(1, "lead", False, legal, (), 8, cands, False, -1)
        inside = [base._replace(rank=r, in_cands=True, matched=r == 0) for r in range(cands)]
        outside = [base] * (legal - cands)
        total = sum(rank_p(d, q) for d in inside + outside)
        assert total == pytest.approx(1.0)
    # the policy's choice (place 0) is the likeliest when its weight is the largest
    d = Decision(1, "discard", True, 20, (), 8, 4, True, 0)
    assert rank_p(d, q) > rank_p(d._replace(rank=1), q) > rank_p(d._replace(rank=-1), q)


@pytest.mark.slow
def test_the_rank_fit_recovers_known_place_weights() -> None:
    rng = random.Random(3)
    true = [1.0, 0.5, 0.25, 0.125]
    rows = []
    for _ in range(6000):
        n = rng.randint(1, 4)
        r = rng.choices(range(n), weights=true[:n])[0]
        rows.append(Decision(0, "lead", r == 0, 9, (), 8, n, True, r))
    q = fit_ranks(rows, 4)
    assert q[0] == 1.0
    for got, want in zip(q, true, strict=True):
        assert got == pytest.approx(want, rel=0.1)


def test_the_temperature_powers_the_likelihood_and_keeps_the_floor() -> None:
    logs = [0.0, -1.0, -2.0, -0.5, -3.0, -1.5]
    w = temper(logs, share=0.0, temperature=0.5)
    want = [math.exp(0.5 * x) for x in logs]
    assert list(w.weights) == pytest.approx([x * len(want) / sum(want) for x in want])
    assert w.beta == 0.5 and not w.tempered and w.temperature == 0.5
    rng = random.Random(9)
    for _ in range(20):
        n = rng.randint(4, 40)
        sharp = [rng.gauss(0, 30.0) for _ in range(n)]
        t = rng.choice([0.2, 0.5, 1.0])
        w = temper(sharp, temperature=t)
        assert w.ess == pytest.approx(effective_samples(w.weights))
        assert w.ess >= w.floor - 1e-6 and w.beta <= t
        if w.tempered:
            assert w.ess == pytest.approx(w.floor, rel=1e-3)
    assert temper([-3.0] * 4, temperature=0.3).weights == (1.0,) * 4


def test_the_shipped_model_carries_its_temperature_and_ranks() -> None:
    m = opponent_model(2)
    assert isinstance(m, OpponentModel) and m.candidates is not None
    assert 0 < m.temperature <= 1
    data = m.to_json()
    assert data["temperature"] == m.temperature
    if m.ranks is not None:
        assert data["play_model"] == "ranks" and all(q[0] == 1.0 for q in m.ranks)


@pytest.mark.slow
def test_the_player_weighs_the_plays_at_the_models_temperature_and_resamples_by_them() -> None:
    """``ipimc`` with the plays' evidence: its weights are the model's log-likelihoods of the
    deals pimc draws, powered by the model's temperature and floored; with a pool, the deals it
    values are drawn from the pool (systematic resampling by those weights), the same for the
    same seed."""
    rec = next(r for s in range(40) for r in [play_deal([RulePlayer(), RandomPlayer(s), RulePlayer()], s)] if r.caller)
    seen = 0
    for n in (4, 10):
        view = rec.view(rec.replay()[n].to_move, n)
        ip = IpimcPlayer(1, seed=3, evidence="plays")
        assert ip.model.temperature == opponent_model(1).temperature < 1
        deals = make_sampler(view, 11).samples(ip.params.samples)
        want = temper([log_likelihood(ip.model, view, d) for d in deals], ESS_SHARE, ip.model.temperature)
        assert ip.weigh(view, deals) == want
        pooled = IpimcPlayer(1, seed=3, evidence="plays", pool=2)
        picked, w = pooled.draw(view, make_sampler(view, 11), random.Random(5))
        pool = make_sampler(view, 11).samples(2 * ip.params.samples)
        assert w is not None and len(w.weights) == len(pool) and len(picked) == ip.params.samples
        assert all(any(p.dealt() == d.dealt() for d in pool) for p in picked)
        again, _ = pooled.draw(view, make_sampler(view, 11), random.Random(5))
        assert [d.dealt() for d in again] == [d.dealt() for d in picked]
        seen += 1
    assert seen == 2
