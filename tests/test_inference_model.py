"""The rank model of the opponent (``hidden.inference``: a weight for each place among a seat's
candidates) and the likelihood's temperature: the probabilities sum to 1, the fit recovers known
weights, and ``L ** temperature`` is floored like the likelihood itself."""

from __future__ import annotations

import math
import random

import pytest

from lukfu_solver.hidden.inference import Decision, OpponentModel, fit_ranks, rank_p, temper
from lukfu_solver.hidden.pimc import effective_samples
from lukfu_solver.players.ipimc import opponent_model


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
