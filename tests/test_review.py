"""The game review (``analysis.review``, ``analysis.review_work``, docs/review.md): a thrown-away
won deal is a blunder with its exact cost, a deal played perfectly with all cards seen costs
nothing anywhere, no verdict is given within a loss's error (such a loss is counted within error
of the best), the better line does better with all cards seen than the move played, and every
number is the one ``analyse``, ``advise`` and ``solve`` give for the same view, hand or position
and seed."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from lukfu_solver.analysis.advice import advise
from lukfu_solver.analysis.defaults import REVIEW_CALL_MAX_NODES, REVIEW_MAX_NODES, REVIEW_SAMPLES
from lukfu_solver.analysis.moves import analyse, candidates
from lukfu_solver.analysis.review import (
    CALLER_GRADES,
    CLEAR_Z,
    MIN_VERDICT_SAMPLES,
    NON_CALLER_GRADES,
    Review,
    grade,
    luck,
    seat_points,
    within_error,
)
from lukfu_solver.analysis.review_work import ReviewSettings, caller_if_passed, review_record, seat_cost
from lukfu_solver.cards import parse_cards
from lukfu_solver.game import deal_from_seed, play_deal
from lukfu_solver.hidden.pimc import SolveLimits
from lukfu_solver.players import make_player
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.search import make_solver
from lukfu_solver.view import SeatView

FAST = ReviewSettings(samples=8, max_nodes=20_000, call_max_nodes=100_000)
"""Small work for the tests whose point is exact (with all cards seen) or structural."""


def best_move(pos: Position) -> Play:
    """The solver's best move, as ``lukfu solve`` gives it."""
    best = make_solver().solve(pos).best
    assert best is not None
    return best


def dd_record(seed: int, caller: int, swap: dict[int, str] | None = None) -> GameRecord:
    """Deal ``seed`` with ``caller`` calling, every play the solver's best with all cards seen,
    except the plays ``swap`` names (play index -> move)."""
    hands = deal_from_seed(seed)
    pos = Position.start(hands, caller)
    plays: list[Play] = []
    while not pos.is_over:
        move = Play.parse(swap[len(plays)]) if swap and len(plays) in swap else best_move(pos)
        plays.append(move)
        pos.push(move)
    return GameRecord(hands, ("pass",) * caller + ("play",), tuple(plays), pos.outcome, seed=seed)


BLUNDER_SEED, BLUNDER_AT, BLUNDER = 6, 15, "C2"
"""Deal 6, the Master calling: at play 15 the caller, winning +2 with all cards seen, leads C2 and
the deal is lost (-4)."""


@functools.cache
def blunder_review() -> tuple[GameRecord, Review]:
    rec = dd_record(BLUNDER_SEED, 0, {BLUNDER_AT: BLUNDER})
    return rec, review_record(rec, ReviewSettings(seed=0, seats=(0,)))


@functools.cache
def perfect_review() -> tuple[GameRecord, Review]:
    rec = dd_record(BLUNDER_SEED, 0)
    return rec, review_record(rec, FAST)


# ---------------------------------------------------------------- the verdicts' rules


def test_thresholds_are_the_documented_points() -> None:
    assert tuple(CALLER_GRADES) == (1.0, 2.0, 4.0)
    assert tuple(NON_CALLER_GRADES) == tuple(x / 2 for x in CALLER_GRADES)  # a defender's share is half
    assert CLEAR_Z == 2.0 and MIN_VERDICT_SAMPLES == 8


@pytest.mark.parametrize(
    "loss,se,n,role,expected",
    [
        (4.0, 0.5, 16, "caller", "blunder"),
        (3.9, 0.5, 16, "caller", "mistake"),
        (1.0, 0.0, 16, "caller", "inaccuracy"),
        (0.9, 0.0, 16, "caller", None),
        (2.0, 0.5, 16, "non-caller", "blunder"),
        (1.0, 0.5, 16, "non-caller", None),  # exactly 2 errors: not clear
        (1.01, 0.5, 16, "non-caller", "mistake"),
        (6.0, 3.0, 16, "caller", None),  # within two errors
        (6.0, 0.0, 7, "caller", None),  # too few sampled deals
    ],
)
def test_a_verdict_only_where_clear(loss: float, se: float, n: int, role: str, expected: str | None) -> None:
    assert grade(loss, se, n, role) == expected


def test_luck_compares_the_two_judgements() -> None:
    assert luck(None, 2.0, "caller") == "unlucky" and luck(None, 1.0, "non-caller") == "unlucky"
    assert luck(None, 0.0, "caller") is None and luck("inaccuracy", 0.0, "caller") is None
    assert luck("mistake", 0.0, "caller") == "lucky" and luck("blunder", 0.0, "non-caller") == "lucky"
    assert luck("blunder", 2.0, "caller") is None


def test_cost_is_in_the_seats_own_points() -> None:
    assert seat_cost("caller", 4, -4) == 8
    assert seat_cost("non-caller", -4, -2) == 1  # the caller gained 2: each defender's share lost 1


# ---------------------------------------------------------------- a thrown-away won deal


@pytest.mark.slow
def test_a_thrown_away_won_deal_is_a_blunder_with_its_exact_cost() -> None:
    rec, review = blunder_review()
    positions = rec.replay()
    before = make_solver().solve(positions[BLUNDER_AT]).value
    after = make_solver().solve(positions[BLUNDER_AT + 1]).value
    assert before is not None and after is not None and before > 0 > after  # a won deal, then lost
    d = next(d for d in review.decisions if d.index == BLUNDER_AT)
    assert d.played == BLUNDER and d.seat == 0 and d.role == "caller" and d.kind == "lead"
    assert d.verdict == "blunder"
    assert (d.exact_before, d.exact_after, d.cost) == (before, after, before - after)
    assert d.loss >= CALLER_GRADES.blunder and d.loss > CLEAR_Z * d.loss_stderr and not d.within_error
    res = make_solver().solve(positions[BLUNDER_AT])
    assert d.better is not None and d.better.move == d.exact_best == str(res.best) != BLUNDER
    assert d.better.exact_after == res.value == before
    assert list(d.better.line) == [str(m) for m in res.pv] and d.better.line[0] == d.better.move
    assert d.better.start == str(positions[BLUNDER_AT])
    assert review.turning_points[0] == review.decisions.index(d)


@pytest.mark.slow
def test_a_perfect_deal_costs_nothing_anywhere() -> None:
    rec, review = perfect_review()
    plays = [d for d in review.decisions if not d.is_call]
    assert len(plays) >= 10 and {d.seat for d in plays} == {0, 1, 2}
    for d in review.decisions:
        assert d.cost == 0, d
        assert d.luck != "unlucky"
        if not d.is_call:
            assert d.exact_before == d.exact_after
    assert review.turning_points == ()
    assert all(s.cost == 0 for s in review.seats)
    call = review.decisions[0]
    assert call.is_call and call.exact is not None and call.exact["play"] >= call.exact["pass"]


@pytest.mark.slow
def test_a_changed_move_is_caught() -> None:
    """The check above can fail: the blunder record has a cost where the perfect one has none."""
    _, review = blunder_review()
    assert any(d.cost > 0 for d in review.decisions)


@pytest.mark.slow
def test_no_verdict_within_the_loss_error() -> None:
    within = 0
    for _, review in (blunder_review(), perfect_review()):
        for d in review.decisions:
            if d.verdict is not None:
                assert d.loss > CLEAR_Z * d.loss_stderr and d.samples >= MIN_VERDICT_SAMPLES
                assert not d.within_error
            if 0 < d.loss <= CLEAR_Z * d.loss_stderr:
                within += 1
                assert d.verdict is None and d.within_error
        for s in review.seats:
            mine = [d for d in review.decisions if d.seat == s.seat]
            assert s.within_error == sum(d.loss <= CLEAR_Z * d.loss_stderr for d in mine) >= s.best
    assert within > 0  # the case occurs in these deals


@pytest.mark.slow
def test_the_seed_is_the_records_unless_asked() -> None:
    """Unasked, a review samples with the record's seed, the one the hints of lukfu play used."""
    rec, review = perfect_review()
    assert FAST.seed is None and review.settings["seed"] == rec.seed == BLUNDER_SEED
    assert {d.seed for d in review.decisions} == {BLUNDER_SEED}


def test_within_error_is_the_verdicts_margin() -> None:
    assert within_error(0.0, 0.0) and within_error(0.63, 0.63) and within_error(CLEAR_Z * 0.5, 0.5)
    assert not within_error(CLEAR_Z * 0.5 + 1e-9, 0.5) and not within_error(0.25, 0.0)
    for se in (0.5, 1.0, 2.0, 2.3, 3.0):  # a loss past every threshold: a verdict exactly when not within error
        assert within_error(4.5, se) == (grade(4.5, se, 24, "caller") is None)


# ---------------------------------------------------------------- the better line


def replayed(start: str, line: tuple[str, ...]) -> Position:
    """The position at the end of ``line`` played from ``start``."""
    pos = Position.parse(start)
    for move in line:
        pos.push(Play.parse(move))
    return pos


ENGINE_DEALS = (12, 13)
"""Seeds of deals the engines played (a rule player, ``pimc:1``, a rule player calling at 4),
reviewed whole: real deals with costly moves of every kind."""


@functools.cache
def reviewed_deals() -> list[tuple[GameRecord, Review]]:
    """The reviewed deals the better line is checked on: the thrown-away deal, the docs' example
    and the engines' deals, each reviewed whole."""
    engines = [
        play_deal([make_player("rule"), make_player("pimc:1", seed), make_player("rule:4")], seed) for seed in ENGINE_DEALS
    ]
    return [blunder_review(), *((rec, review_record(rec, FAST)) for rec in (EXAMPLE, *engines))]


@pytest.mark.slow
def test_a_better_line_beats_the_move_played_with_all_cards_seen() -> None:
    """Wherever a move cost something with all cards seen, the review shows a move that does
    strictly better there for the seat (its points at the better move's ``exact_after`` above its
    points at the move played's), and its line, played out, ends where it says; on every deal
    reviewed, the engines' own among them."""
    shown = 0
    for _rec, review in reviewed_deals():
        for d in review.decisions:
            if d.cost <= 0:
                assert d.better is None, d
                continue
            b = d.better
            assert b is not None and b.move != d.played and b.exact_after is not None
            shown += 1
            if d.is_call:
                assert d.exact is not None and b.exact_after == d.exact[b.move] > d.exact[d.played]
                continue
            assert d.exact_after is not None
            assert seat_points(d.role, b.exact_after) > seat_points(d.role, d.exact_after)
            assert b.line[0] == b.move and b.start == d.position
            end = replayed(b.start, b.line)
            assert end.outcome is not None and end.outcome.points[end.caller] == b.exact_after
    assert shown >= 6


def named(move: str, text: str) -> bool:
    """Whether ``text`` names ``move`` as a word of its own (not a part of a longer move)."""
    return re.search(rf"(?<![\w]){re.escape(move)}(?![\w])", text) is not None


@pytest.mark.slow
def test_the_seat_view_best_is_named_apart_from_the_better_move() -> None:
    """Where the best move from the seat's own view is not the move that does better with all
    cards seen, the review names each on its own line: the own view's best in the loss line, the
    better move in the line after it; the JSON keeps them apart (``best``, ``better.move``)."""
    from rich.console import Console

    from lukfu_cli.review_render import detail_lines, loss_words, move_text

    differ = 0
    for _rec, review in reviewed_deals():
        for d in review.decisions:
            b = d.better
            if b is None or d.is_call or b.move == d.best or d.played == d.best:
                continue
            differ += 1
            data = d.to_json()
            assert data["best"] == d.best and data["better"]["move"] == b.move != d.best
            console = Console(width=200, record=True, color_system=None)
            for line in detail_lines(d, review):
                console.print(line)
            text = console.export_text()
            own = loss_words(d)
            assert own in text and named(move_text(d, d.best), own) and not named(move_text(d, b.move), own)
            better = next(line for line in text.splitlines() if "Better with all cards seen:" in line)
            assert f"Better with all cards seen: {move_text(d, b.move)};" in better
            assert not named(move_text(d, d.best), better.split(";")[0])
    assert differ >= 2


EXAMPLE = GameRecord.load(str(Path(__file__).resolve().parent.parent / "examples" / "match-deal.json"))
"""The docs' reviewed deal: two blunders and an unlucky discard, each with a cost."""


# ---------------------------------------------------------------- the same numbers as analyse, advise, solve


@pytest.mark.slow
def test_the_numbers_are_analyses_and_solves() -> None:
    rec, review = blunder_review()
    positions = rec.replay()
    d = next(d for d in review.decisions if d.index == BLUNDER_AT)
    view = SeatView.parse(d.view)
    assert view == rec.view(0, BLUNDER_AT) and d.seed == 0
    moves = candidates(view)
    moves += [Play.parse(d.played)] if Play.parse(d.played) not in moves else []
    a = analyse(view, REVIEW_SAMPLES, d.seed, 1, SolveLimits(REVIEW_MAX_NODES), moves=moves)
    assert [(str(e.move), e.mean, e.stderr) for e in a.moves] == [(m.move, m.mean, m.stderr) for m in d.moves]
    assert d.samples == a.samples and d.incomplete == a.incomplete
    for decision in review.decisions:
        if not decision.is_call:
            pos = positions[decision.index]
            assert decision.position == str(pos)
            assert decision.exact_before == make_solver().solve(pos).value
    call = review.decisions[0]
    adv = advise(parse_cards(call.view.split()[1]), 0, REVIEW_SAMPLES, call.seed, 1, SolveLimits(REVIEW_CALL_MAX_NODES))
    assert {m.move: (m.mean, m.stderr) for m in call.moves} == {
        "play": (adv.play.mean, adv.play.stderr),
        "pass": (adv.pass_.mean, adv.pass_.stderr),
    }
    assert call.loss_stderr in (0.0, round(adv.gap_stderr, 9))


@pytest.mark.slow
def test_the_calls_exact_values() -> None:
    rec = dd_record(BLUNDER_SEED, 0)
    other = caller_if_passed(rec, 0)
    _, review = perfect_review()
    call = review.decisions[0]
    assert call.exact is not None
    assert call.exact["play"] == make_solver().solve(Position.start(rec.hands, 0)).value
    if other is None:
        assert call.exact["pass"] == 0
    else:
        assert call.exact["pass"] == -make_solver().solve(Position.start(rec.hands, other)).value / 2


@pytest.mark.slow
def test_the_same_review_on_two_processes() -> None:
    rec = GameRecord.loads(
        '{"format": "lukfu-record/1", "hands": ["C157S235M1569T28", "C2689S19M3478T47", "C34S4678M2T13569"],'
        ' "calls": ["pass", "play"], "plays": ["T2", "T4", "T5", "S678", "xC5S5T8", "xS9M48", "claim"],'
        ' "result": {"winner": 2, "total": 6, "how": "claim", "points": [0, -2, 2]}}'
    )

    def timeless(d: object) -> object:
        if isinstance(d, dict):
            return {k: timeless(v) for k, v in d.items() if not k.endswith("seconds")}
        return [timeless(v) for v in d] if isinstance(d, list) else d

    one = review_record(rec, FAST, jobs=1).to_json()
    two = review_record(rec, FAST, jobs=2).to_json()
    assert timeless(one) == timeless(two)
    kinds = [d["call"] for d in one["decisions"]]
    assert kinds == sorted(kinds, reverse=True) and kinds.count(True) == 2  # the two calls, then the plays
    indices = [d["index"] for d in one["decisions"] if not d["call"]]
    assert indices == sorted(indices) and indices


@pytest.mark.slow
def test_only_the_asked_seat() -> None:
    _, review = blunder_review()
    assert {d.seat for d in review.decisions} == {0}
    assert [s.seat for s in review.seats] == [0]
    assert review.chart_seat == 0 and review.chart[0].label == "start"
