"""Inference from the other seats' actions (``hidden.inference``): the replay rebuilds
each seat's own facts, the likelihood of a known history, the softmax and the fits, the tempered
weights and their floor, weights 1 giving the unweighted answers to the bit, the ``ipimc``
player's spec and determinism, and ``analyse VIEW --infer``."""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest
from cli_checks import assert_bad_input
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_solver.errors import NotationError
from lukfu_solver.game import deal_from_seed, play_deal
from lukfu_solver.hidden.inference import (
    Decision,
    decisions,
    log_discard,
    log_likelihood,
    resample,
    rule_model,
    temper,
    weigh,
)
from lukfu_solver.hidden.pimc import (
    Paired,
    SampleValue,
    effective_samples,
    estimate,
    mean_stderr,
    p_better,
)
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.match import run_match
from lukfu_solver.players import make_player
from lukfu_solver.players.ipimc import DEFAULT_POOL, IpimcPlayer, opponent_model, pimc_candidates
from lukfu_solver.players.pimc import DEFAULT_LEVEL, PimcPlayer
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.policy.calling import sigmoid
from lukfu_solver.policy.facts import facts_from_view
from lukfu_solver.policy.rule import RulePlayer, rule_move
from lukfu_solver.policy.rule_fast import keep_order_fast
from lukfu_solver.view import SeatView
from train.opponent_fit import fit_call, fit_eps

runner = CliRunner()


def records(n: int) -> list:
    """Deals of rule and random players (fast, with varied leads, follows and discards)."""
    return [play_deal([RulePlayer(), RandomPlayer(k), RulePlayer(5.0)], 100 + k) for k in range(n)]


# ---------------------------------------------------------------- the replay


def test_replayed_facts_are_what_each_seat_saw() -> None:
    """At every decision the replay hands the policy exactly the rule player's facts of that seat's
    own view (its hand and discards, the others' discards hidden, what their discards proved)."""
    checked = 0
    for rec in records(8):
        if rec.caller is None:
            continue
        seen: list = []
        orders: list = []

        def policy(facts, seen=seen):  # type: ignore[no-untyped-def]
            seen.append(facts)
            return rule_move(facts)

        def order(facts, orders=orders):  # type: ignore[no-untyped-def]
            orders.append(facts)
            return keep_order_fast(facts)

        ds = list(decisions(policy, rec.hands, rec.caller, rec.plays, None, order))
        expected = []
        plays = list(rec.plays)
        for i, p in enumerate(plays):  # a final claim is a decision too (its view is before it)
            s = SeatView.from_deal(0, rec.hands[0], rec.caller, plays[:i]).to_move
            view = SeatView.from_deal(s, rec.hands[s], rec.caller, plays[:i])
            if len(list(view.legal_moves())) > 1:
                expected.append((facts_from_view(view), p, RulePlayer()(view)))
        assert len(ds) == len(expected)
        for d, (ctx, played, rule) in zip(ds, expected, strict=True):
            assert d.seat == ctx.seat
            assert d.matched == (played == rule)
        assert len(seen) + len(orders) >= len(ds)
        assert {tuple(f) for f in seen + orders} <= {tuple(c) for c, _, _ in expected}
        checked += len(ds)
    assert checked > 50


def test_the_replayed_likelihood_is_the_one_of_each_seats_own_view() -> None:
    """The log-likelihood of a deal's plays from the replay (moved on as ``Position.push`` moves a deal) is, to
    the bit, the sum over every decision of the model's probability computed afresh from that
    seat's own ``SeatView`` (its rule facts, its legal moves): for the rule model and the
    candidate model, leaving out each seat in turn."""
    checked = 0
    for model in (rule_model(), opponent_model(1)):
        for rec in records(6):
            if rec.caller is None:
                continue
            plays = list(rec.plays)
            for skip in (None, 0, 1, 2):
                got = [
                    model.log_decision(d)
                    for d in decisions(model.policy, rec.hands, rec.caller, plays, skip, model.order, model.candidates)
                ]
                want = []
                for i, p in enumerate(plays):
                    s = SeatView.from_deal(0, rec.hands[0], rec.caller, plays[:i]).to_move
                    view = SeatView.from_deal(s, rec.hands[s], rec.caller, plays[:i])
                    legal = list(view.legal_moves())
                    if s == skip or len(legal) < 2:
                        continue
                    facts = facts_from_view(view)
                    kind = "lead" if not view.trick else ("discard" if legal[-1].kind == 3 else "follow")
                    if model.candidates is not None:
                        cs = model.candidates(
                            facts, [] if kind == "discard" else legal, p.size if kind == "discard" else 0
                        )
                        rank = cs.index(p) if p in cs else -1
                        d = Decision(s, kind, cs[0] == p, len(legal), (), view.hand.bit_count(), len(cs), p in cs, rank)
                    elif kind == "discard":
                        ranked = list(model.order(facts))  # type: ignore[misc]
                        places = tuple(sorted(ranked.index(c) for c in range(36) if p.cards >> c & 1))
                        d = Decision(s, kind, places == tuple(range(p.size)), len(legal), places, len(ranked))
                    else:
                        d = Decision(s, kind, model.policy(facts) == p, len(legal))
                    want.append(model.log_decision(d))
                assert got == want
                checked += len(got)
    assert checked > 200


def test_the_likelihood_of_calls_alone() -> None:
    """Seat 0 passed and seat 1 called, nothing played yet: a deal's log-likelihood is exactly
    log(1 - P(call | seat 0's hand)) + log P(call | seat 1's hand), so deals in which seat 0 would
    have called under the model weigh less, and strong hands for seat 1 more."""
    model = opponent_model()
    hands = deal_from_seed(7)
    view = SeatView.from_deal(2, hands[2], 1, [])
    deals = make_sampler(view, 3, exact=True).samples(300)
    logs = [log_likelihood(model, view, d) for d in deals]
    for d, lg in zip(deals, logs, strict=True):
        h = d.dealt()
        assert lg == pytest.approx(math.log(1 - model.p_call(h[0])) + math.log(model.p_call(h[1])))
    w = temper(logs, share=0.0)
    s0 = [model.strength(d.dealt()[0]) for d in deals]
    s1 = [model.strength(d.dealt()[1]) for d in deals]
    assert mean_stderr(s0, w.weights)[0] < mean_stderr(s0)[0] - 0.3
    assert mean_stderr(s1, w.weights)[0] > mean_stderr(s1)[0] + 0.3
    strong = [lg for lg, x in zip(logs, s0, strict=True) if x >= model.threshold + 1]
    weak = [lg for lg, x in zip(logs, s0, strict=True) if x <= model.threshold - 1]
    assert strong and weak


def test_a_rule_discard_weighs_more_than_another() -> None:
    """Of two deals differing only in which cards a seat discarded, the one where it discarded
    what the rule player would have has the higher likelihood."""
    rec = next(r for r in records(20) if r.caller is not None and any(p.kind == 3 for p in r.plays))
    model = rule_model()
    ds = list(decisions(model.policy, rec.hands, rec.caller, rec.plays, None, model.order))
    rows = [d for d in ds if d.kind == "discard"]
    assert rows and all(d.places for d in rows)
    for d in rows:
        best = tuple(range(len(d.places)))
        assert log_discard(best, d.hand, model.lam) >= log_discard(d.places, d.hand, model.lam)


@pytest.mark.slow
def test_pimc_plays_only_its_candidates_and_the_mixture_sums_to_one() -> None:
    """The replay rebuilds the candidates of every pimc decision from that seat's facts: every
    move a pimc player made is among them, the first is the rule player's choice; and the
    candidate mixture over all legal moves of a decision sums to 1."""
    model = opponent_model(1)
    recs = [g.record for g in run_match(["pimc:1", "pimc:1", "pimc:1"], 2, seed=3).games]
    ds = [
        d
        for r in recs
        if r.caller is not None
        for d in decisions(rule_move, r.hands, r.caller, r.plays, None, None, pimc_candidates(1))
    ]
    assert len(ds) > 10 and all(d.in_cands and 1 <= d.cands <= d.legal for d in ds)
    assert any(d.cands < d.legal for d in ds) and any(not d.matched for d in ds)
    rules = [d for r in recs if r.caller is not None for d in decisions(rule_move, r.hands, r.caller, r.plays)]
    assert [d.matched for d in ds] == [d.matched for d in rules]
    for d in ds:
        e = model.eps[("lead", "follow", "discard").index(d.kind)]
        inside = [d._replace(matched=i == 0, in_cands=True, rank=i) for i in range(d.cands)]
        outside = [d._replace(matched=False, in_cands=False, rank=-1)] * (d.legal - d.cands)
        assert sum(math.exp(model.log_decision(x)) for x in inside + outside) == pytest.approx(1.0)
        assert e > 0


@pytest.mark.parametrize("hand,k,lam", [(5, 1, 0.7), (6, 2, 0.3), (7, 3, 1.5), (4, 4, 2.0)])
def test_the_discard_softmax_sums_to_one(hand: int, k: int, lam: float) -> None:
    total = sum(math.exp(log_discard(c, hand, lam)) for c in itertools.combinations(range(hand), k))
    assert total == pytest.approx(1.0)
    assert math.exp(log_discard(tuple(range(k)), hand, 0.0)) == pytest.approx(1 / math.comb(hand, k))


def test_the_fits_recover_known_parameters() -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(4000):
        legal = rng.randint(2, 9)
        matched = rng.random() < 0.7 or rng.randrange(legal) == 0
        rows.append(Decision(0, "lead", matched, legal))
    assert fit_eps(rows) == pytest.approx(0.3, abs=0.04)
    calls = []
    for _ in range(4000):
        x = rng.uniform(0, 12)
        calls.append((x, rng.random() < sigmoid(1.5 * (x - 6.0))))
    slope, threshold = fit_call(calls)
    assert slope == pytest.approx(1.5, rel=0.15)
    assert threshold == pytest.approx(6.0, abs=0.2)


# ---------------------------------------------------------------- weights and estimates


def test_the_tempered_weights_keep_the_floor() -> None:
    rng = random.Random(5)
    for _ in range(30):
        n = rng.randint(4, 60)
        logs = [rng.gauss(0, rng.choice([0.1, 2.0, 30.0])) for _ in range(n)]
        w = temper(logs)
        assert len(w.weights) == n and sum(w.weights) == pytest.approx(n)
        assert w.ess == pytest.approx(effective_samples(w.weights))
        assert w.ess >= w.floor - 1e-6
        if w.raw_ess >= w.floor:
            assert w.beta == 1.0 and not w.tempered
        else:
            assert w.tempered and 0 <= w.beta < 1 and w.ess == pytest.approx(w.floor, rel=1e-3)
    assert temper([-3.0] * 5).weights == (1.0,) * 5


def test_weights_of_one_give_the_unweighted_answers_to_the_bit() -> None:
    rng = random.Random(2)
    values = [[SampleValue(rng.uniform(-6, 6), True, 1) for _ in range(3)] for _ in range(17)]
    plain, ones = Paired(["a", "b", "c"], 1, 0), Paired(["a", "b", "c"], 1, 0)
    for v in values:
        plain.add(v)
        ones.add(v, 1.0)
    assert plain.estimates() == ones.estimates()
    assert all(e.weights is None and e.ess == e.n for e in ones.estimates())
    assert plain.clear(0.9) == ones.clear(0.9)
    xs = [v[0].value for v in values]
    ys = [v[1].value for v in values]
    assert mean_stderr(xs, [1.0] * len(xs)) == mean_stderr(xs)
    assert p_better(xs, ys, [1.0] * len(xs)) == p_better(xs, ys)


def test_a_weight_of_two_counts_a_sample_twice() -> None:
    xs = [1.0, -2.0, 4.0, 0.5]
    e = estimate("m", xs, xs, 0, [2.0, 1.0, 1.0, 1.0])
    assert e.mean == pytest.approx(sum([1.0, 1.0, -2.0, 4.0, 0.5]) / 5)
    assert e.p_caller_loses == pytest.approx(1 / 5)
    assert e.ess == pytest.approx(25 / 7)


def long_record(seed: int):  # type: ignore[no-untyped-def]
    """A rule-player deal from ``seed`` on with more than 21 plays before any claim."""
    while True:
        rec = play_deal([RulePlayer(), RulePlayer(), RulePlayer()], seed)
        if len([p for p in rec.plays if p.kind != 4]) > 21:
            return rec
        seed += 1


def test_ipimc_without_weights_is_pimc() -> None:
    """A floor no weights can reach tempers them to 1 each: ipimc's analyses are then pimc's."""
    rec = long_record(11)
    compared = 0
    for n in (6, 13, 20):
        s = rec.replay()[n].to_move
        view = rec.view(s, n)
        if len(list(view.legal_moves())) < 2:
            continue
        a = IpimcPlayer(1, seed=4, share=2.0).analyse(view)
        b = PimcPlayer(1, seed=4).analyse(view)
        assert a.weights is not None and a.weights.weights == (1.0,) * a.samples
        assert a.moves == b.moves
        compared += 1
    assert compared


def test_ipimc_reports_its_weights() -> None:
    rec = long_record(12)
    view = rec.view(rec.replay()[10].to_move, 10)
    a = IpimcPlayer(2, seed=1).analyse(view)
    if a.samples:
        assert a.weights is not None and 1 <= a.weights.ess <= a.samples
        assert a.weights.ess >= a.weights.floor - 1e-6
    w = weigh(opponent_model(), view, make_sampler(view, 2).samples(30))
    assert len(w.weights) == 30
    r = IpimcPlayer(2, seed=1, pool=3).analyse(view)
    if r.samples:
        assert r.samples == 12 and r.weights is not None and len(r.weights.weights) == 36
        assert all(e.weights is None for e in r.moves)  # resampled: each counts 1
        assert r.moves == IpimcPlayer(2, seed=1, pool=3).analyse(view).moves


# ---------------------------------------------------------------- the player


def test_the_ipimc_spec_is_the_configuration_measured_ahead_of_pimc() -> None:
    """``ipimc`` and ``ipimc:L`` are the carried pool of four times the samples weighed by the rule
    model (``ipimc:L:4c``, measured ahead of ``pimc``), named by their spec and analysing as it
    does; ``ipimc:L:P`` keeps its meaning, ``ipimc:L:1`` (measured slightly behind ``pimc``, the
    weighted call) is an option, not the default."""
    top = make_player("ipimc")
    assert isinstance(top, IpimcPlayer) and top.name == "ipimc" and top.level == DEFAULT_LEVEL
    p = make_player("ipimc:2", 9)
    assert isinstance(p, IpimcPlayer) and p.level == 2 and p.name == "ipimc:2" and p.seed == 9
    for player in (top, p):
        assert player.pool == DEFAULT_POOL == 4 and player.carry and player.evidence == "plays"
        assert player.weigh_call and player.model == rule_model()
    view = SeatView.parse(late_view())
    c = make_player("ipimc:1:4c", 9)
    assert make_player("ipimc:1", 9).analyse(view).moves == c.analyse(view).moves  # type: ignore[attr-defined]
    q = make_player("ipimc:2:3")
    assert isinstance(q, IpimcPlayer) and q.pool == 3 and q.name == "ipimc:2:3" and not q.carry
    w = make_player("ipimc:2:1")
    assert isinstance(w, IpimcPlayer) and w.pool == 1 and w.evidence == "calls" and w.name == "ipimc:2:1"
    for bad in ("ipimc:7", "ipimc:x", "ipimc:2:9", "ipimc:2:x"):
        with pytest.raises(NotationError) as err:
            make_player(bad)
        assert err.value.field == "player"


@pytest.mark.slow
def test_ipimc_matches_are_the_same_for_any_jobs() -> None:
    a = run_match(["ipimc:1", "rule", "rule"], 2, seed=5, jobs=1)
    b = run_match(["ipimc:1", "rule", "rule"], 2, seed=5, jobs=2)
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert a.per_deal([0]) == b.per_deal([0])


@pytest.mark.slow
def test_carried_pool_matches_are_the_same_for_any_jobs() -> None:
    """``ipimc:L:Pc`` carries its pool within a game only, so a match is the same in one process
    and in two (the spec needs no options set in the parent process)."""
    a = run_match(["ipimc:1:2c", "pimc:1", "pimc:1"], 2, seed=7, jobs=1)
    b = run_match(["ipimc:1:2c", "pimc:1", "pimc:1"], 2, seed=7, jobs=2)
    assert [g.record for g in a.games] == [g.record for g in b.games]
    assert a.per_deal([0]) == b.per_deal([0])


# ---------------------------------------------------------------- analyse VIEW --infer


def late_view() -> str:
    rec = play_deal([RandomPlayer(i) for i in (1, 2, 3)], 19)
    return str(rec.view(rec.replay()[21].to_move, plays=21))


@pytest.mark.slow
def test_analyse_infer_is_the_same_for_any_jobs() -> None:
    view = late_view()
    args = ["analyse", view, "--samples", "8", "--max-nodes", "20000", "--seed", "3", "--infer", "--json"]
    outs = []
    for jobs in ("1", "2"):
        r = runner.invoke(app, [*args, "--jobs", jobs])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        data.pop("seconds")
        data["sampler"] = {k: v for k, v in data["sampler"].items() if "second" not in k and "per_s" not in k}
        outs.append(data)
    assert outs[0] == outs[1]
    inf = outs[0]["inference"]
    assert inf["samples"] == DEFAULT_POOL * 8 and 1 <= inf["ess"] <= DEFAULT_POOL * 8  # the pool's
    assert outs[0]["samples"] == 8
    plain = json.loads(runner.invoke(app, args[:-2] + ["--json"]).stdout)
    assert "inference" not in plain
    text = runner.invoke(app, args[:-1])
    assert text.exit_code == 0 and "effective sample size" in text.stdout


def test_analyse_infer_needs_a_view_in_play() -> None:
    r = runner.invoke(app, ["analyse", "C2356S2457M3467T1", "--seat", "1", "--infer"])
    assert_bad_input(r, "infer")


def test_analyse_infer_resamples_a_pool_weighed_by_the_rule_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """``analyse VIEW --infer`` (a view from a real table) draws as the configuration measured
    ahead of pimc: a pool of four times the samples from the exact sampler, weighed by the softer
    rule model (not the ipimc player's candidate model), and solves the samples resampled from it
    by weight, each counting 1."""
    from lukfu_solver.analysis import moves as moves_mod
    from lukfu_solver.hidden.pimc import SolveLimits

    solved: list[str] = []
    real = moves_mod.sample_task

    def recording(task):  # type: ignore[no-untyped-def]
        solved.append(task[0])
        return real(task)

    monkeypatch.setattr(moves_mod, "sample_task", recording)
    view = SeatView.parse(late_view())
    a = moves_mod.analyse(view, samples=8, seed=3, limits=SolveLimits(20_000), early_stop=False, infer=True)
    pool = make_sampler(view, 3, exact=True).samples(DEFAULT_POOL * 8)
    assert a.weights is not None and a.samples == 8
    assert a.weights == weigh(rule_model(), view, pool)
    assert a.weights != weigh(opponent_model(), view, pool)
    picked = resample(pool, a.weights, 8, random.Random(f"analyse|3|{view}"))
    assert solved == [str(d.position()) for d in picked]
    assert solved != [str(d.position()) for d in pool[:8]]  # the weights changed which deals are solved
    assert all(m.weights is None for m in a.moves)
