"""The constraint model of a seat view and the uniform sampler (constraints.py, sampling.py).

Ground truths: a deal is consistent when replaying the history from its dealt hands makes every
play legal (Position.push_checked), which the brute force below checks for every way of filling
the hidden places; the CP-SAT model must find exactly those deals, and the sampler must draw
each of them (support) equally often (chi-square against the enumeration, fixed seeds).
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from collections import Counter

import pytest

from lukfu_solver.cards import ALL_CARDS, iter_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.constraints import (
    Deal,
    Discard,
    Lead,
    Problem,
    build_model,
    count_deals,
    derive,
    enumerate_deals,
    explain_infeasible,
    is_consistent,
)
from lukfu_solver.hidden.sampling import Sampler
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView, parse_history

# Small late-deal views of real (RandomPlayer) deals, each exercising part of the model.
DISCARDS = "1 - 0 C6,C7,x1/T2,T9,x1/T3,T4,T7/M6,M9,x1/T6,T8,xC5/S5,xM7,S8/S4,S9,xT1/C8,C9,x1/M3,x1,M4/S2,xM1,x1/C1,xC2,x1/M2,xC4"
"""Single discards only (per-card rules, merged places): 324 deals."""
R7_ONE = "0 M6T1 2 T5,T9,x1/T7,T8,xM8/S3,S6,S8/T2,T3,xC4/T4,xM5,T6/M4,M9,xM2/C5,C7,C8/M7,x1,xC2/S5,S9,xS1/S4,xM3,S7/C6"
"""Six R7 leads, one of them of unknown Oldness (a mode bit): 48 deals."""
R7_TWO = "2 - 0 S3,S7,S8/M7,M8,x1/T3,T8,T9/M234,T567,x3/T2,T4,xM9/S2,S5,S6/M5,x1,M6/C6,C7,C8/C5,xT1,x1/C2,xC1,x1"
"""Two leads of unknown Oldness and a run discard: 352 deals."""
SET_REJECT = "0 C6S2 0 T5,T9,x1/T4,T6,xM1/M3,M4,M6/S7M7T7,x3,xC1T23/M2,M5,xS4/S1,S6,S9/S3,S5,xC7/C3,C8,C9/C4"
"""A discard against a set of sevens left to rejection, and R7 leads: 182 deals."""
MIXED = "2 C7M1 2 C5M5T5,x3,C8S8T8/T2,T6,T9/T4,xC3,T7/M6,M8,xC4/M4,xS1,M9/M2,x1,xT3/S4,S5,S7/S6"
"""A set discard left to rejection with a lead of unknown Oldness: 1,500 deals."""
SMALL = {"discards": DISCARDS, "r7_one": R7_ONE, "r7_two": R7_TWO, "set_reject": SET_REJECT, "mixed": MIXED}
COUNTS = {"discards": 324, "r7_one": 48, "r7_two": 352, "set_reject": 182, "mixed": 1500}

# Views no deal fits, though each passes SeatView.validate.
TWO_DISCARDS = "0 C123456789S12 0 S5,x1,x1"
"""Seats 1 and 2 both discarded against S5 at the first trick, yet one of them holds S6-S9."""
R7_IMPOSSIBLE = "1 C123456789S1M9T9 2 S2"
"""Seat 0 led S2 as a non-caller: its M and T cards were Old, so it held at most 8 cards."""
RUN_IMPOSSIBLE = "0 C24M5T5 0 C678,x3,S234/S678,xC39M6,x3/T6,T7,x1/M2,M8,M9/M3"
"""Only CP-SAT sees it: the exact part of the sampler admits deals, rejection finds none."""


def record(seed: int) -> GameRecord:
    """A whole deal of three seeded random players."""
    return play_deal([RandomPlayer(seed), RandomPlayer(seed + 1), RandomPlayer(seed + 2)], seed)


def views_of(rec: GameRecord, step: int = 1) -> list[tuple[int, SeatView]]:
    """Every seat's view after every ``step``-th play (a final claim excluded), with the play count."""
    last = len(rec.plays) - (1 if rec.plays and rec.plays[-1].kind == CLAIM else 0)
    return [(k, rec.view(seat, plays=k)) for k in range(0, last + 1, step) for seat in range(3)]


def true_cards(rec: GameRecord, k: int, problem: Problem) -> tuple[int, ...]:
    """The cards of every hidden place in the real deal of ``rec`` after ``k`` plays."""
    plays = rec.plays[:k]
    tricks = [plays[i : i + 3] for i in range(0, len(plays), 3)]
    leaders = problem.view.leaders
    out = []
    for p in problem.places:
        if p.is_hand:
            m = rec.hands[p.seat]
            for t, tr in enumerate(tricks):
                for i, play in enumerate(tr):
                    if (leaders[t] + i) % 3 == p.seat:
                        m &= ~play.cards
            out.append(m)
        else:
            out.append(tricks[p.trick][p.play].cards)
    return tuple(out)


def replay(deal: Deal) -> Position:
    """Replay the deal's history from its dealt hands, checking every play; return the end position."""
    view = deal.problem.view
    hands = deal.dealt()
    seen = 0
    for h in hands:
        assert h.bit_count() == 12 and not h & seen
        seen |= h
    assert seen == ALL_CARDS
    pos = Position.start(hands, view.caller)
    for tr in deal.tricks():
        for p in tr:
            pos.push_checked(p)
    return pos


def replays(deal: Deal) -> bool:
    """True when every play of the deal's history is legal from its dealt hands."""
    try:
        replay(deal)
    except NotationError:
        return False
    return True


def brute_force(view: SeatView) -> list[tuple[int, ...]]:
    """Every filling of the hidden places whose replay is legal, sorted (the ground truth)."""
    problem = derive(view)

    def fill(i: int, rest: list[int]):
        if i == len(problem.places):
            yield ()
            return
        for combo in itertools.combinations(rest, problem.places[i].size):
            m = sum(1 << c for c in combo)
            for tail in fill(i + 1, [c for c in rest if not m >> c & 1]):
                yield (m,) + tail

    return sorted(cards for cards in fill(0, list(iter_cards(problem.hidden))) if replays(Deal(problem, cards)))


def fillings(problem: Problem) -> int:
    """The number of ways to fill the hidden places by size alone."""
    n = math.factorial(problem.hidden.bit_count())
    for p in problem.places:
        n //= math.factorial(p.size)
    return n


def chi2_sf(x: float, k: int) -> float:
    """P(X ≥ x) for X chi-square with ``k`` degrees of freedom (regularized upper gamma)."""
    a, y = k / 2, x / 2
    if y <= 0:
        return 1.0
    front = math.exp(-y + a * math.log(y) - math.lgamma(a))
    if y < a + 1:  # series for the lower function
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= y / (a + n)
            total += term
        return max(0.0, 1 - front * total)
    b = y + 1 - a  # continued fraction for the upper function (Lentz)
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        if abs(c) < 1e-300:
            c = 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h


def test_chi2_sf_known_values() -> None:
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(18.307038, 10) == pytest.approx(0.05, abs=1e-5)
    assert chi2_sf(124.342, 100) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(0.0, 5) == 1.0


# ---------------------------------------------------------------- the model


def test_places_and_constraints_of_a_view() -> None:
    view = SeatView.parse("0 C9S156M249T24 0 T1,x1,x1/S2,S9,x1/T5,T6,T9")
    problem = derive(view)
    assert [p.label() for p in problem.places] == [
        "seat 1, trick 1 discard",
        "seat 1 hand",
        "seat 2, trick 1 discard",
        "seat 2, trick 2 discard",
        "seat 2 hand",
    ]
    assert [p.size for p in problem.places] == [1, 9, 1, 1, 9]
    assert sum(p.size for p in problem.places) == problem.hidden.bit_count() == 21
    kinds = [(type(c).__name__, c.seat, c.trick) for c in problem.constraints]
    # T1 led is unbeatable: the discards of trick 1 prove nothing; S9 beat S2, T5 is an R7 lead
    assert kinds == [("Discard", 2, 1), ("Lead", 1, 2)]
    model, variables, places = build_model(view)
    assert places == problem.places
    assert len(variables) == 21 * 5


def test_calling_phase_view() -> None:
    view = SeatView.parse("1 C1378S57M24T4789 - pass")
    problem = derive(view)
    assert [(p.seat, p.size) for p in problem.places] == [(0, 12), (2, 12)]
    sampler = Sampler(view, 3)
    assert sampler.count == math.comb(24, 12)
    deal = sampler.sample()
    assert deal.position() is None and deal.history() == "-"
    assert deal.dealt()[1] == view.hand and sum(h.bit_count() for h in deal.dealt()) == 36
    assert deal.to_json()["position"] is None


def test_view_after_the_last_trick() -> None:
    """When the hands have run out, only discards are hidden; the position is the end (R15)."""
    rec = record(0)
    assert rec.outcome.how == "end"
    view = rec.view(0)
    assert view.is_over
    problem = derive(view)
    assert all(p.size == 0 for p in problem.places if p.is_hand)
    deal = Sampler(view, 1).sample()
    pos = replay(deal)
    assert pos.is_over and pos == deal.position() and pos.outcome == rec.replay()[-1].outcome


@pytest.mark.parametrize("name", ["r7_one", "set_reject", "r7_two"])
def test_model_equals_brute_force_replay(name: str) -> None:
    """CP-SAT's solutions are exactly the fillings whose replay is legal."""
    view = SeatView.parse(SMALL[name])
    truth = brute_force(view)
    assert len(truth) == COUNTS[name]
    assert [d.key for d in enumerate_deals(view)] == truth
    assert count_deals(view) == COUNTS[name]


@pytest.mark.slow
def test_model_equals_brute_force_on_real_deals() -> None:
    """The same on every small view (at most 1,500 fillings) of a few real deals."""
    checked = 0
    for seed in (27, 50):
        for _, view in views_of(record(seed)):
            problem = derive(view)
            if fillings(problem) > 1500:
                continue
            assert [d.key for d in enumerate_deals(view)] == brute_force(view), str(view)
            checked += 1
    assert checked >= 20


@pytest.mark.slow
def test_true_deal_is_always_consistent() -> None:
    """A real deal satisfies the model of every view of it (checked without CP-SAT, and with it
    on a sample of views); the sampler accepts every such view."""
    views = 0
    for seed in range(8):
        rec = record(seed)
        for k, view in views_of(rec):
            problem = derive(view)
            cards = true_cards(rec, k, problem)
            assert problem.violation(cards) is None, str(view)
            assert replays(Deal(problem, cards))
            Sampler(view, seed)
            views += 1
            if views % 37 == 0:
                assert is_consistent(view)
    assert views > 200


@pytest.mark.slow
def test_true_deal_is_among_the_enumerated_deals() -> None:
    for seed in (5, 8):
        rec = record(seed)
        for k, view in views_of(rec):
            problem = derive(view)
            if fillings(problem) > 3000:
                continue
            keys = {d.key for d in enumerate_deals(view)}
            assert true_cards(rec, k, problem) in keys


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (TWO_DISCARDS, "trick 1, play 3"),
        (R7_IMPOSSIBLE, "trick 1, play 1"),
        (RUN_IMPOSSIBLE, "trick 5, play 1"),
    ],
)
def test_infeasible_views_are_explained(text: str, where: str) -> None:
    view = SeatView.parse(text)
    assert not is_consistent(view)
    assert count_deals(view) == 0 and enumerate_deals(view) == []
    message = explain_infeasible(view)
    assert message.startswith(f"no deal fits the history at {where}: ")
    with pytest.raises(NotationError) as err:
        Sampler(view, 1).samples(5)
    assert err.value.field == "view" and err.value.message == message


def test_explanations_name_the_rules() -> None:
    assert "seat 2 discarded x1 against S5" in explain_infeasible(SeatView.parse(TWO_DISCARDS))
    assert "contradicts trick 1, play 2" in explain_infeasible(SeatView.parse(TWO_DISCARDS))
    assert "a non-caller, led S2" in explain_infeasible(SeatView.parse(R7_IMPOSSIBLE))
    assert explain_infeasible(SeatView.parse(R7_ONE)) == ""


def test_invalid_view_is_not_consistent() -> None:
    bad = SeatView(0, 0, 0, parse_history("S5,x1,x1", reveal=False))  # the hand is missing
    assert not is_consistent(bad)
    assert explain_infeasible(bad).startswith("hand: ")
    with pytest.raises(NotationError):
        Sampler(bad)


def test_violation_names_what_is_wrong() -> None:
    view = SeatView.parse(R7_ONE)
    problem = derive(view)
    good = enumerate_deals(view)[0].key
    assert problem.violation(good) is None
    assert "places" in problem.violation(good[:-1])
    swapped = (good[1], good[0]) + good[2:]
    if problem.places[0].size != problem.places[1].size:
        assert "has" in problem.violation(swapped)
    bad = [cards for cards in brute_force_fillings(problem) if problem.violation(cards) is not None]
    assert bad and all(problem.violation(c).startswith("trick ") for c in bad)
    constraints = {type(c) for c in problem.constraints}
    assert constraints == {Lead, Discard}


def brute_force_fillings(problem: Problem) -> list[tuple[int, ...]]:
    """Every filling of the places by size (no rules)."""
    out = []

    def fill(i: int, rest: list[int], acc: tuple[int, ...]) -> None:
        if i == len(problem.places):
            out.append(acc)
            return
        for combo in itertools.combinations(rest, problem.places[i].size):
            m = sum(1 << c for c in combo)
            fill(i + 1, [c for c in rest if not m >> c & 1], acc + (m,))

    fill(0, list(iter_cards(problem.hidden)), ())
    return out


# ---------------------------------------------------------------- the sampler


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SMALL))
def test_sampler_is_uniform_on_exactly_the_consistent_deals(name: str) -> None:
    """Support equals the enumeration; the frequencies pass a chi-square test (p > 0.001)."""
    view = SeatView.parse(SMALL[name])
    deals = [d.key for d in enumerate_deals(view)]
    assert len(deals) == COUNTS[name]
    sampler = Sampler(view, seed=20240)
    if sampler.method == "exact":
        assert sampler.count == len(deals)
    per_cell = 25 if len(deals) < 1000 else 12
    n = per_cell * len(deals)
    freq = Counter(d.key for d in sampler.samples(n))
    assert set(freq) == set(deals)
    expected = n / len(deals)
    stat = sum((freq[k] - expected) ** 2 / expected for k in deals)
    p = chi2_sf(stat, len(deals) - 1)
    assert p > 0.001, (name, stat, p)


def test_sampler_methods_and_stats() -> None:
    assert Sampler(SeatView.parse(R7_TWO), 1).method == "exact"
    rejecting = Sampler(SeatView.parse(SET_REJECT), 1)
    assert rejecting.method == "rejection" and rejecting.count is None
    assert rejecting.exact_count > COUNTS["set_reject"]
    rejecting.samples(200)
    stats = rejecting.stats()
    assert stats["accepted"] == 200 and stats["attempts"] >= 200
    assert 0.3 < stats["acceptance"] <= 1
    assert stats["seconds"] > 0 and stats["rejection_checks"] == 1 and stats["samples"] == 200
    assert rejecting.samples_per_s is not None and rejecting.samples_per_s > 0


def test_fallback_to_enumeration_stays_uniform() -> None:
    """With a demanding acceptance rate the sampler enumerates and samples the list."""
    view = SeatView.parse(SET_REJECT)
    sampler = Sampler(view, 5, budget=20, min_rate=0.99)
    freq = Counter(d.key for d in sampler.samples(25 * COUNTS["set_reject"]))
    assert sampler.method == "enumeration" and sampler.count == COUNTS["set_reject"]
    assert set(freq) == {d.key for d in enumerate_deals(view)}
    expected = 25
    stat = sum((f - expected) ** 2 / expected for f in freq.values())
    assert chi2_sf(stat, len(freq) - 1) > 0.001


@pytest.mark.slow
def test_every_sample_replays_to_its_position() -> None:
    """Deals of every stage: every play legal from the dealt hands, the end is the sample's
    position, the viewer's hand is the view's, and hiding the discards gives the view back."""
    for seed in (1, 2, 4):
        rec = record(seed)
        for _, view in views_of(rec, step=4):
            for deal in Sampler(view, seed).samples(4):
                pos = replay(deal)
                assert pos == deal.position()
                assert pos.hands[view.seat] == view.hand
                plays = [p for tr in parse_history(deal.history(), reveal=True) for p in tr]
                again = SeatView.from_deal(view.seat, deal.dealt()[view.seat], view.caller, plays)
                assert str(again) == str(view)
                assert Position.parse(str(pos)) == pos


def test_large_counts_are_exact() -> None:
    start = SeatView.parse("0 C69S246M567T1235 1 -")
    assert Sampler(start, 1).count == math.comb(24, 12)
    mid = Sampler(SeatView.parse("0 C9S156M249T249 0 T1,x1,x1/S2,S9,x1"), 1)
    assert mid.count is not None and mid.count > 10**9
    assert replays(mid.sample())


def test_samples_are_reproducible_by_seed() -> None:
    view = SeatView.parse(MIXED)
    first = [d.key for d in Sampler(view, 42).samples(30)]
    assert first == [d.key for d in Sampler(view, 42).samples(30)]
    assert first != [d.key for d in Sampler(view, 43).samples(30)]


def test_samples_are_the_same_in_another_process() -> None:
    code = (
        "from lukfu_solver.hidden.sampling import Sampler; from lukfu_solver.view import SeatView; "
        f"print([d.deal_text() for d in Sampler(SeatView.parse({MIXED!r}), 42).samples(5)])"
    )
    outs = set()
    for hash_seed in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
        )
        assert proc.returncode == 0, proc.stderr
        outs.add(proc.stdout)
    here = str([d.deal_text() for d in Sampler(SeatView.parse(MIXED), 42).samples(5)]) + "\n"
    assert outs == {here}


def test_library_import_does_not_load_ortools() -> None:
    code = (
        "import sys, lukfu_solver, lukfu_solver.hidden.constraints, lukfu_solver.hidden.sampling, lukfu_cli.sample_cmd; "
        "print('ortools' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
