"""PIMC analysis of seat views (``lukfu_solver.analysis.moves``) and call/pass advice
(``lukfu_solver.analysis.advice``), on late-deal views from real deals and on hands whose answer is certain.

Solves are kept small: views with 3-4 cards a hand (exact in milliseconds), and for the advice
hands whose answer holds even when a solve stops at its node limit (see each test's argument).
"""

from __future__ import annotations

import pytest

from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.moves import SolveLimits, analyse, p_better, viewer_points
from lukfu_solver.cards import parse_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.sampling import Sampler
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.policy.calling import hand_facts, policy_calls
from lukfu_solver.search.reference import Solver
from lukfu_solver.view import SeatView

LIMITS = SolveLimits(max_nodes=50_000)
"""Per-solve limit of the late-deal tests: far above what 3-4-card positions need."""


# late views of random deals (3-4 cards a hand, several legal moves), frozen as text: the seat
# to move, its role and what it does (they came from play_deal's random deals 19, 36, 5, 7, 0 and
# 26 in the record-1 dealing, Master drawn first)
CASES = {
    "caller-leads": "0 C267 0 T3,x1,T5/T6,T8,x1/M8,x1,x1/S9M9T9,x3,x3/S6,x1,x1/T4,x1,x1/T2,x1,x1",  # seat 0, the caller, to lead
    "caller-leads-2": "1 C3M2T4 1 T5,xM8,T6/T3,T7,xS4/M5,M9,x1/T2,x1,T9/M7,xS3,x1/S6,S7,S8/M3,x1,M4/S9,x1,x1/S5,x1,x1",  # seat 1, the caller, to lead
    "noncaller-follows": "2 C48T7 0 T1,x1,xC2/S2,S9,xC6/T5,T6,T9/T2,T8,xM5/M1,M3,M4/M2,M8,xT3/M6,M7,M9/S6,S7,S8/S3,S5,x1/C9,x1",  # seat 2, a non-caller, discards
    "noncaller-follows-2": "0 C16M3 1 T4,T7,x1/M4,M8,M9/T6,T8,x1/M567,x3,xC9M2T9/S7,S8,xT1/T5,xS4,x1/S3,S6,S9/T3,x1",  # seat 0 (passed Master), a non-caller, discards
    "caller-follows": "1 C45T2 1 T4,T7,T9/T3,T8,xM1/M2,M7,M9/S1,S6,xT1/M4,M6,M8/S8,S9,xC9/S5,xC2,S7/C3,C6,C7/M3,x1,M5/S2",  # seat 1, the caller, discards
}
CLEAR = "0 C5M1T5 0 T2,T3,T4/M2,M5,M8/C6S6T6,x3,S9M9T9/S123,x3,x3/T7,T8,x1/C7,x1"
"""Seat 0, the caller, to follow, with one discard clearly best (the analysis stops early)."""


@pytest.fixture(scope="module")
def views() -> dict[str, SeatView]:
    return {name: SeatView.parse(case) for name, case in CASES.items()}


@pytest.fixture(scope="module")
def analyses(views: dict[str, SeatView]) -> dict[str, object]:
    """Each view analysed with 32 samples, no early stopping (seed 1)."""
    return {name: analyse(v, samples=32, seed=1, limits=LIMITS, early_stop=False) for name, v in views.items()}


# ---------------------------------------------------------------- analyse


def test_cases_are_late_and_the_viewer_is_to_move(views: dict[str, SeatView]) -> None:
    for name, v in views.items():
        assert v.to_move == v.seat, name
        assert 3 <= v.hand_sizes[v.seat] <= 4, name
        assert len(list(v.legal_moves())) >= 3, name
        assert ("noncaller" in name) == (v.seat != v.caller), name


@pytest.mark.slow
def test_every_legal_move_is_valued_in_range(views: dict[str, SeatView], analyses: dict[str, object]) -> None:
    for name, v in views.items():
        a = analyses[name]
        assert sorted(str(m) for m in v.legal_moves()) == sorted(str(e.move) for e in a.moves), name
        bound = 14 if v.seat == v.caller else 7
        for e in a.moves:
            assert -bound <= e.mean <= bound, (name, e)
            assert all(-bound <= x <= bound for x in e.values), (name, e)
            assert e.n == a.samples == 32 and e.stderr >= 0
        assert a.incomplete == 0 and not a.stopped_early


def test_best_first(analyses: dict[str, object]) -> None:
    for name, a in analyses.items():
        means = [e.mean for e in a.moves]
        assert means == sorted(means, reverse=True), name
        assert a.best is a.moves[0]
        assert a.p_best == pytest.approx(p_better(a.moves[0].values, a.moves[1].values))
        assert 0.5 <= a.p_best <= 1.0  # the best has the higher mean, so at least an even chance


def test_paired_values_align_with_the_sampled_deals(views: dict[str, SeatView]) -> None:
    """values[i] of every move is that move's exact value in the i-th deal the seed samples."""
    v = views["noncaller-follows"]
    a = analyse(v, samples=10, seed=4, limits=LIMITS, early_stop=False)
    deals = Sampler(v, 4).samples(10)
    for i, deal in enumerate(deals):
        pos = deal.position()
        assert pos.hands[v.seat] == v.hand
        for e in a.moves:
            pos.push(e.move)
            value = Solver().solve(pos).value
            pos.pop()
            assert e.values[i] == viewer_points(v.seat, v.caller, value), (i, str(e.move))


@pytest.mark.slow
def test_reproducible_by_seed(views: dict[str, SeatView], analyses: dict[str, object]) -> None:
    v = views["caller-leads"]
    again = analyse(v, samples=32, seed=1, limits=LIMITS, early_stop=False)
    assert [(e.move, e.values) for e in again.moves] == [(e.move, e.values) for e in analyses["caller-leads"].moves]
    other = analyse(v, samples=32, seed=2, limits=LIMITS, early_stop=False)
    assert [e.values for e in other.moves] != [e.values for e in again.moves]


@pytest.mark.slow
def test_jobs_do_not_change_results(views: dict[str, SeatView]) -> None:
    v = views["noncaller-follows"]
    one = analyse(v, samples=24, seed=3, jobs=1, limits=LIMITS, min_samples=8)
    two = analyse(v, samples=24, seed=3, jobs=2, limits=LIMITS, min_samples=8)
    assert [(e.move, e.values) for e in one.moves] == [(e.move, e.values) for e in two.moves]
    assert (one.samples, one.stopped_early, one.p_best) == (two.samples, two.stopped_early, two.p_best)


def test_early_stopping_stops_on_a_clear_view() -> None:
    v = SeatView.parse(CLEAR)
    a = analyse(v, samples=96, seed=1, limits=LIMITS)
    assert a.stopped_early and a.samples < 96
    assert a.samples >= 24 and a.samples % 8 == 0  # after min_samples, at a batch boundary
    assert a.p_best is not None and a.p_best >= 0.999


@pytest.mark.slow
@pytest.mark.parametrize("name", [*CASES, "clear"])
def test_early_stopping_agrees_with_the_full_run(name: str, views: dict[str, SeatView]) -> None:
    """The early run's samples are the first of the full run's, and when it stopped, the full run
    does not contradict its answer (the early best is not clearly worse than the full best)."""
    v = views[name] if name != "clear" else SeatView.parse(CLEAR)
    early = analyse(v, samples=64, seed=5, limits=LIMITS, min_samples=16)
    full = analyse(v, samples=64, seed=5, limits=LIMITS, early_stop=False)
    by_move = {e.move: e for e in full.moves}
    for e in early.moves:
        assert e.values == by_move[e.move].values[: early.samples]
    if early.stopped_early:
        assert early.p_best >= 0.999
        f_best = by_move[early.best.move]
        assert p_better(f_best.values, full.best.values) >= 0.01 or f_best.values == full.best.values
    else:
        assert early.samples == 64 and early.best.move == full.best.move


def test_not_the_viewers_turn_and_over() -> None:
    v = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3")  # seat 0 is to follow
    a = analyse(v, samples=8)
    assert a.moves == [] and a.best is None and a.samples == 0 and a.p_best is None


def test_one_legal_move_has_no_p_best() -> None:
    v = forced_view()
    a = analyse(v, samples=8, seed=0, limits=LIMITS)
    assert len(a.moves) == 1 and a.p_best is None and not a.stopped_early and a.samples == 8


def forced_view() -> SeatView:
    """A late view whose seat to move has a single legal move."""
    for seed in range(50):
        rec = play_deal([RandomPlayer(i) for i in (1, 2, 3)], seed)
        positions = rec.replay()
        for k in range(len(rec.plays) - 1, 0, -1):
            if positions[k].cards_per_hand() > 3:
                break
            v = rec.view(positions[k].to_move, plays=k)
            if len(list(v.legal_moves())) == 1:
                return v
    raise AssertionError("no forced move found")  # pragma: no cover


# ---------------------------------------------------------------- advice

ALL_OLD = "C789S789M789T789"
"""Twelve Old cards: the Master claims T = 12 at the first lead, +14, the most a deal gives."""
SIX_OLD = "C19S9M9T19 C2S2M3T4C5S6"
"""Six Old cards (the 9s, C1, T1): the Master can claim T = 6 at the first lead, so calling is
worth at least +2 whatever the other hands (the solver proves this lower bound at once)."""
LOW = "C2356S2457M3467"
"""Low cards, no set, no run, no Old card: the other seats hold every 1, 8 and 9."""
FEW = SolveLimits(max_nodes=30_000)


def test_hand_facts() -> None:
    f = hand_facts(parse_cards(SIX_OLD))
    assert f.old == parse_cards("C19S9M9T19") and f.sure_fu == 6
    assert f.sets == (parse_cards("C9S9M9T9"),) and f.runs == ()
    low = hand_facts(parse_cards(LOW))
    assert (low.old, low.sets, low.runs, low.sure_fu, low.call_score) == (0, (), (), 0, 0)
    assert not policy_calls(parse_cards(LOW)) and policy_calls(parse_cards(SIX_OLD))


def test_twelve_old_cards_play_for_certain() -> None:
    """Play is exactly +14 in every sample; pass is at most +7 (M2: half of the most a caller can
    lose), so play wins whatever the limits."""
    adv = advise(parse_cards(ALL_OLD), 0, samples=6, seed=1, limits=FEW)
    assert adv.recommendation == "play"
    assert adv.play.mean == 14 and adv.play.stderr == 0 and adv.pass_.mean <= 7
    assert adv.p_play_better > 0.999


def test_six_old_cards_as_master_play() -> None:
    facts = hand_facts(parse_cards(SIX_OLD))
    assert facts.old.bit_count() >= 6  # a claim at the first lead is available (R14)
    adv = advise(parse_cards(SIX_OLD), 0, samples=8, seed=2, limits=FEW)
    # every play value is exact or the midpoint of proven bounds whose lower end is >= +2
    assert adv.play.mean >= 2
    assert adv.recommendation == "play" and adv.play.mean > adv.pass_.mean
    assert "play" in adv.reason and "6 Old cards" in adv.reason


@pytest.mark.slow
def test_low_hand_passes() -> None:
    """Seat 2: pass is a redeal, exactly 0. Play is below 0: every value is exact or the midpoint of
    bounds around a negative value, and the losing side's bound is proved early."""
    adv = advise(parse_cards(LOW), 2, samples=8, seed=3, limits=FEW)
    assert adv.pass_.mean == 0 and adv.pass_.stderr == 0
    assert adv.play.mean < adv.pass_.mean and adv.recommendation == "pass"
    assert adv.p_play_better < 0.05
    for seat in (0, 1):  # the same hand earlier: passing is still better
        adv = advise(parse_cards(LOW), seat, samples=8, seed=3, limits=FEW)
        assert adv.recommendation == "pass" and adv.play.mean < adv.pass_.mean


@pytest.mark.slow
def test_advice_reproducible_and_jobs_independent() -> None:
    hand = parse_cards(SIX_OLD)
    a = advise(hand, 1, samples=6, seed=7, limits=FEW)
    b = advise(hand, 1, samples=6, seed=7, jobs=2, limits=FEW)
    assert (a.play, a.pass_, a.p_play_better, a.recommendation, a.incomplete) == (
        b.play,
        b.pass_,
        b.p_play_better,
        b.recommendation,
        b.incomplete,
    )
    assert a.evidence == b.evidence and set(a.evidence) == {"play", "pass"}


def test_advice_rejects_bad_hands() -> None:
    with pytest.raises(NotationError) as info:
        advise(parse_cards("C19S9M9T19C2S2M3T4C5"), 0, samples=1)
    assert info.value.field == "hand"
    with pytest.raises(NotationError) as info:
        advise(parse_cards(LOW), 3, samples=1)
    assert info.value.field == "seat"
