"""The ``ipimc`` player's weighted call and its play-phase evidence: the call deals it
weighs are the ones pimc's call valuation draws, the weighted estimates are the self-normalised
means of pimc's own sample values under the earlier seats' passes, the Master's call (no earlier
call) is pimc's, and the evidence ``calls`` / ``none`` weighs the play phase by the calls alone
or not at all."""

from __future__ import annotations

import random

import pytest

from lukfu_solver.analysis.hint import hint
from lukfu_solver.cards import ALL_CARDS
from lukfu_solver.game import play_deal
from lukfu_solver.hidden import calls as calls_mod
from lukfu_solver.hidden.calls import call_deals, call_values
from lukfu_solver.hidden.inference import call_terms, temper
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.players.ipimc import DEFAULT_POOL, IpimcPlayer
from lukfu_solver.players.pimc import PimcPlayer
from lukfu_solver.policy.calling import policy_calls
from lukfu_solver.policy.rule import RulePlayer
from lukfu_solver.position import Position
from lukfu_solver.view import SeatView


def hand_of(seed: int) -> int:
    """A random 12-card hand."""
    return sum(1 << c for c in random.Random(seed).sample(range(36), 12))


def recording_deals(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """Every deal the call valuation draws from now on (``hidden.calls``' own ``deal_others``), in order."""
    drawn: list[tuple[int, ...]] = []
    real = calls_mod.deal_others

    def deal_others(hand: int, seat: int, rng: random.Random) -> list[int]:
        hands = real(hand, seat, rng)
        drawn.append(tuple(hands))
        return hands

    monkeypatch.setattr(calls_mod, "deal_others", deal_others)
    return drawn


def test_the_call_deals_are_the_ones_call_values_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sample keeps the deal the valuation drew for it (``CallSample.hands``, in order), and
    :func:`call_deals` (the one definition of that random stream) gives the same deals; each gives
    the sample's own evidence flag and, solved again, its own *play* value."""
    player = PimcPlayer(1)
    evaluator = player._evaluator(16, 12)
    drawn = recording_deals(monkeypatch)
    for seat, seed in ((1, 5), (2, 6)):
        hand = hand_of(seed)
        drawn.clear()
        v = call_values(hand, seat, 8, 1000 + seed, evaluator, policy_calls)
        valued = list(drawn)
        deals = call_deals(hand, seat, len(v.samples), 1000 + seed)
        assert len(deals) == len(v.samples) == len(valued) == 8
        assert [r.hands for r in v.samples] == deals == valued
        for d, r in zip(deals, v.samples, strict=True):
            assert d[seat] == hand and d[0] | d[1] | d[2] == ALL_CARDS and sum(h.bit_count() for h in d) == 36
            assert r.earlier_pass == (not any(policy_calls(d[s]) for s in range(seat)))
        for d, r in list(zip(deals, v.samples, strict=True))[:2]:
            assert evaluator.value(Position.start(d, seat), evaluator.solver()).value == r.play


@pytest.mark.parametrize("seat", [1, 2])
def test_the_weighted_call_is_pimcs_values_weighted_by_the_passes(seat: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """ipimc values the same samples as pimc (the same values, in order), weighted by the
    likelihood of the earlier passes under the model's call curve (tempered to the floor), on
    exactly the deals its call valuation drew (read from the valuation, not drawn again)."""
    hand = hand_of(40 + seat)
    view = SeatView(seat, hand, None, (), ("pass",) * seat)
    ip, pm = IpimcPlayer(1, seed=3, weigh_call=True), PimcPlayer(1, seed=3)
    drawn = recording_deals(monkeypatch)
    a = ip.analyse(view)
    weighed = list(drawn)
    b = pm.analyse(view)
    assert drawn[len(weighed) :] == weighed  # pimc's valuation drew the same deals, once each
    va = {m.move: m for m in a.moves}
    vb = {m.move: m for m in b.moves}
    assert va["play"].values == vb["play"].values and va["pass"].values == vb["pass"].values
    seed = random.Random(f"pimc|3|{view}").getrandbits(64)
    assert call_deals(hand, seat, len(vb["play"].values), seed) == weighed
    w = temper([call_terms(ip.model, d, seat, seat) for d in weighed]).weights
    assert a.weights is not None and a.weights.weights == w and len(set(w)) > 1
    for move in ("play", "pass"):
        mean = sum(x * v for x, v in zip(w, va[move].values, strict=True)) / sum(w)
        shown = va[move].mean - (ip.calibration if move == "play" else 0.0)
        assert shown == pytest.approx(mean, abs=1e-12)
    best_play = va["play"].mean > va["pass"].mean
    assert a.best == ("play" if best_play else "pass")


def test_the_masters_call_and_an_unweighted_call_are_pimcs() -> None:
    """No earlier call to weigh at the Master's seat; without ``weigh_call`` nothing is weighed."""
    for seat, weigh_call in ((0, True), (1, False), (2, False)):
        view = SeatView(seat, hand_of(seat + 60), None, (), ("pass",) * seat)
        a = IpimcPlayer(1, seed=2, weigh_call=weigh_call).analyse(view)
        b = PimcPlayer(1, seed=2).analyse(view)
        assert a.moves == b.moves and a.weights is None


def play_views() -> list[SeatView]:
    """Views in the play phase with a choice, from a deal whose caller is not the Master."""
    for seed in range(40):
        rec = play_deal([RulePlayer(), RulePlayer(), RulePlayer()], seed)
        if rec.caller:
            break
    out = []
    for n in (4, 10, 16):
        view = rec.view(rec.replay()[n].to_move, n)
        if len(list(view.legal_moves())) > 1:
            out.append(view)
    assert out
    return out


def test_the_play_evidence_calls_and_none() -> None:
    """``calls``: the weights are the tempered likelihoods of the calls alone (the caller not the
    Master, so an earlier pass weighs); ``none``: pimc's analysis, unweighted."""
    for view in play_views():
        ip = IpimcPlayer(1, seed=7, evidence="calls")
        a = ip.analyse(view)
        if not a.samples:
            continue
        b = PimcPlayer(1, seed=7).analyse(view)
        assert {m.move: m.values for m in a.moves} == {m.move: m.values for m in b.moves}
        assert a.weights is not None
        assert view.caller is not None
        rng = random.Random(f"pimc|7|{view}")
        deals = make_sampler(view, rng.getrandbits(64)).samples(ip.params.samples)
        expected = temper([call_terms(ip.model, d.dealt(), view.caller, view.seat) for d in deals])
        assert a.weights == expected
        c = IpimcPlayer(1, seed=7, evidence="none").analyse(view)
        assert c.moves == b.moves and c.weights is None
    with pytest.raises(ValueError):
        IpimcPlayer(1, evidence="everything")


def test_the_inferring_hint_weighs_its_deals_by_the_rule_model() -> None:
    """``hint(..., infer=True)`` in the play phase is the one evaluation of the decision with its
    sampled deals weighed by the rule model (``analyse --infer``: a pool of ``DEFAULT_POOL`` times
    the samples, weighed, the samples resampled from it), drawn afresh for the view; the weights
    are not the calls-only weights of ``ipimc:L:1``."""
    import dataclasses

    from lukfu_solver.analysis.moves import weigh_moves
    from lukfu_solver.analysis.work import hint_work

    differ = 0
    for view in play_views():
        h = hint(view, 1, 5, infer=True)
        assert h.analysis is not None
        a = weigh_moves(view, dataclasses.replace(hint_work(1), infer=True), 5)
        assert h.analysis.moves == a.moves and h.analysis.weights == a.weights
        assert h.analysis.weights is not None and len(h.analysis.weights.weights) == DEFAULT_POOL * h.analysis.samples
        plain = hint(view, 1, 5)
        differ += plain.analysis is not None and plain.analysis.moves != h.analysis.moves
        assert a.weights != IpimcPlayer(1, seed=5).analyse(view).weights
    assert differ
