"""Engine players: the registry, legality over many seeded deals, the rule player's principles,
PIMC's analysis and determinism."""

from __future__ import annotations

import pytest
from conftest import make_pos

from lukfu_solver.cards import ALL_CARDS, format_cards, parse_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.game import deal_from_seed, play_deal
from lukfu_solver.hidden.quick import QuickSampler, make_sampler
from lukfu_solver.players import CALL_CALIBRATION, PimcPlayer, Player, RulePlayer, make_player
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM, DISCARD, SINGLE, Play
from lukfu_solver.policy.calling import DEFAULT_CALL_THRESHOLD, hand_strength, rule_call
from lukfu_solver.policy.facts import facts_from_position, facts_from_view
from lukfu_solver.policy.rule import rule_move, rule_playout
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView


def small_pimc(seed: int) -> PimcPlayer:
    """PIMC at level 1 with small limits: quick enough for tests."""
    return PimcPlayer(1, seed, samples=3, call_samples=3, node_limit=5_000, node_budget=20_000, max_candidates=4)


# ---------------------------------------------------------------- registry


def test_make_player_specs() -> None:
    assert isinstance(make_player("random", 3), RandomPlayer)
    rule = make_player("RULE")
    assert isinstance(rule, RulePlayer) and rule.threshold == DEFAULT_CALL_THRESHOLD and rule.name == "rule"
    assert make_player("rule:4.5").threshold == 4.5  # type: ignore[attr-defined]
    pimc = make_player("pimc", 7)
    assert isinstance(pimc, PimcPlayer) and pimc.level == 3 and pimc.seed == 7 and pimc.name == "pimc"
    assert make_player(" pimc:1 ").level == 1  # type: ignore[attr-defined]
    for spec in ("random", "rule", "pimc:2"):
        assert isinstance(make_player(spec), Player)
    raw = make_player("pimc:3:0")
    assert raw.calibration == 0 and raw.name == "pimc:3:0"  # type: ignore[attr-defined]
    assert make_player("pimc").calibration == CALL_CALIBRATION  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    ["", "foo", "random:2", "rule:x", "rule:99", "pimc:0", "pimc:6", "pimc:a", "pimc:3:x", "pimc:3:99", "ipimc:0:4c"],
)
def test_make_player_bad_spec(spec: str) -> None:
    with pytest.raises(NotationError) as err:
        make_player(spec)
    assert err.value.field == "player"


@pytest.mark.parametrize("spec", ["ipimc:2:1c", "ipimc:2:5c", "ipimc:2:c", "ipimc:2:4cc", "ipimc:2:xc", "ipimc:2:-2c"])
def test_a_bad_carried_pool_is_one_line_naming_the_field(spec: str) -> None:
    """``ipimc:L:Pc`` takes a pool of 2-4 (a carried pool of 1 would carry nothing to draw from)."""
    with pytest.raises(NotationError) as err:
        make_player(spec)
    assert err.value.field == "player" and "\n" not in str(err.value)
    assert "ipimc:L:Pc" in str(err.value) and repr(spec.split(":")[2]) in str(err.value)


# ---------------------------------------------------------------- legality (play_deal checks every answer)


def test_random_and_rule_players_only_make_legal_moves() -> None:
    for seed in range(150):
        table = [make_player("rule"), make_player("random", seed), make_player(f"rule:{3 + seed % 5}")]
        rec = play_deal(table, seed)  # an illegal answer raises IllegalMove
        assert sum(rec.outcome.points) == 0
        rec.replay()
    for seed in range(150, 250):
        rec = play_deal([make_player("rule"), make_player("rule"), make_player("rule")], seed)
        rec.replay()


def test_pimc_level_1_only_makes_legal_moves() -> None:
    for seed in (2, 5, 7):  # deals in which the pimc player (person 0) is the Master, so it calls
        pimc = small_pimc(seed)
        rec = play_deal([pimc, make_player("rule"), make_player("random", seed)], seed)
        rec.replay()
        assert pimc.call_log and all(set(e) >= {"predicted", "call", "hand"} for e in pimc.call_log)


def test_call_calibration_shifts_the_call_decision() -> None:
    """PIMC's value of calling plus the calibration against the value of passing decides the call;
    the log keeps the raw value."""
    view = SeatView.parse("0 C1259S3M1246T379 - -")
    raw = small_pimc(4)
    raw.calibration = 0.0
    a = raw.analyse(view)
    m = next(v for v in a.moves if v.move == "play").caller_value
    q = next(v for v in a.moves if v.move == "pass").value
    for cal in (-20.0, q - m + 0.25, q - m - 0.25, 20.0):
        p = small_pimc(4)
        p.calibration = cal
        assert p(view) == ("play" if m + cal > q else "pass")
        (entry,) = p.call_log
        assert entry["predicted"] == m and entry["calibrated"] == m + cal and entry["pass"] == q
        assert entry["call"] == (m + cal > q)


def test_players_are_deterministic() -> None:
    for spec in ("rule", "random"):
        a = play_deal([make_player(spec, 1), make_player(spec, 2), make_player("rule")], 5)
        b = play_deal([make_player(spec, 1), make_player(spec, 2), make_player("rule")], 5)
        assert a == b
    a = play_deal([small_pimc(1), make_player("rule"), make_player("rule")], 2)
    b = play_deal([small_pimc(1), make_player("rule"), make_player("rule")], 2)
    assert a == b


# ---------------------------------------------------------------- the rule player


def test_calling_strength() -> None:
    strong = parse_cards("C19S79M2345M9T159")
    weak = parse_cards("C234S234M234T234")
    assert hand_strength(strong) == 7.0
    assert rule_call(strong) == "play" and rule_call(weak) == "pass"
    assert rule_call(weak, threshold=0) == "play"
    view = SeatView.parse("1 C19S79M2345M9T159 - pass")
    assert RulePlayer()(view) == "play" and RulePlayer(8)(view) == "pass"


def test_rule_cashes_a_sure_non_old_single_before_claiming() -> None:
    # seat 0 (caller) has 5 fu and S8, Old with S9 face up; M5 is not Old (M6 is face down) but
    # tops every Myriad the others hold: it adds one before the claim
    hands = ["S8M5", "C2C3", "M3M4"]
    up = format_cards(ALL_CARDS & ~parse_cards("".join(hands)) & ~parse_cards("M6"))
    pos = make_pos(hands, to_move=0, caller=0, fu=(5, 2, 3), faceup=up)
    ctx = facts_from_position(pos)
    assert pos.can_claim()
    assert rule_move(ctx) == Play.parse("M5")
    pos.push(Play.parse("M5"))
    pos.push(Play.parse("xC2"))
    pos.push(Play.parse("xM3"))
    assert rule_move(facts_from_position(pos)) == Play(CLAIM, 0, 0)


def test_rule_claims_when_nothing_is_sure() -> None:
    pos = make_pos(["S8M2", "C2M3", "M4M5"], to_move=0, caller=0, fu=(5, 2, 3), faceup=None)
    assert rule_move(facts_from_position(pos)).kind == CLAIM


def test_rule_last_follower_beats_cheaply_and_keeps_old_cards() -> None:
    # seat 2 follows S3 (led by seat 0, seat 1 discarded): S5 wins as well as S9, which is Old
    pos = make_pos(["C1C2", "C3C4", "S5S9M1"], to_move=2, caller=0, fu=None, trick="S3,xC5")
    assert rule_move(facts_from_position(pos)) == Play.parse("S5")


def test_rule_first_follower_prefers_a_sure_win() -> None:
    # seat 1 follows S3; seat 2 holds S6: S5 would be beaten, S7 wins for sure
    pos = make_pos(["C1C2", "S5S7M2", "S6C4M3"], to_move=1, caller=1, fu=None, trick="S3")
    assert rule_move(facts_from_position(pos)) == Play.parse("S7")


def test_rule_discards_low_isolated_cards_keeping_old_cards_and_sets() -> None:
    # seat 2 led T9; seat 0 cannot beat it: C1, C9, S7 and T4 are Old, S2 is the lowest and
    # most topped of the rest
    pos = make_pos(["C1C9S2S7M3M4T4", "C2C3C4C5C6C7C8", "S4S5S6M5M6M7"], to_move=0, caller=2, fu=None, trick="T9")
    move = rule_move(facts_from_position(pos))
    assert move.kind == DISCARD and move.cards == parse_cards("S2")


def test_rule_non_caller_lead_follows_r7() -> None:
    for seed in range(40):
        pos = Position.start(deal_from_seed(seed), caller=1)
        move = rule_move(facts_from_position(pos))
        assert pos.is_legal(move)
        if move.kind == SINGLE:  # seat 0 passed: R7 singles only
            assert not move.cards & pos.old_cards(0) or pos.hands[0] == pos.old_cards(0)


def test_facts_from_view_uses_discards_against_singles() -> None:
    # seat 2 discarded against T6 in trick 1, so it holds no T7, T8, T9 (R9)
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    ctx = facts_from_view(view)
    assert ctx.out[1] == 0 and ctx.out[2] == ctx.out[0] == view.unseen  # no discard seen yet
    view = SeatView.parse("0 C69S246M567T135 1 T2,T4,x1")
    ctx = facts_from_view(view)
    assert ctx.out[2] & parse_cards("T56789") == 0 and ctx.out[1] & parse_cards("T6789")


def test_a_discard_against_a_led_c1_or_t1_proves_nothing() -> None:
    # nothing beats a led C1 (R8): seat 1's discard says nothing about its Coins
    view = SeatView.parse("2 S123456789M123 0 C1,x1")
    assert facts_from_view(view).out[1] & parse_cards("C2345678") == parse_cards("C2345678")
    view = SeatView.parse("2 S123456789M123 0 C2,x1")  # any higher Coin beats a led C2
    assert facts_from_view(view).out[1] & parse_cards("C3456789") == 0


LONG_VIEW = "1 C9M7T4 1 T5,T9,x1/C1,x1,x1/T1,x1,x1/S8,x1,x1/S6,x1,x1/S9,x1,x1/S2,x1,x1/S3,x1,x1/T2,T6,x1/M8,x1"
"""Seventeen hidden discards: the exact sampler's setup takes seconds here, PIMC uses QuickSampler."""


@pytest.mark.slow
def test_quick_sampler_deals_consistent_positions() -> None:
    view = SeatView.parse(LONG_VIEW)
    q = QuickSampler(view, 1)
    for deal in q.samples(20):  # each sample replays legally: QuickSampler checks it
        pos = deal.position()
        assert pos is not None and deal.problem.view == view
        assert pos.hands[1] == view.hand and tuple(h.bit_count() for h in pos.hands) == view.hand_sizes
        assert pos.to_move == view.to_move and pos.fu == list(view.fu) and pos.faceup == view.faceup
    assert q.unchecked == 0
    assert [d.key for d in QuickSampler(view, 1).samples(3)] == [d.key for d in QuickSampler(view, 1).samples(3)]
    assert q.stats()["method"] == "quick" and q.stats()["samples"] == 20
    assert type(make_sampler(view, 1)) is QuickSampler and make_sampler(view, 1, exact=True).method != "quick"
    a = small_pimc(0).analyse(view)
    assert a.notes == ["sampler: quick"] and a.moves[0].move in set(view.legal_moves())


def test_rule_playout_is_a_caller_value() -> None:
    pos = Position.start(deal_from_seed(4), caller=2)
    v = rule_playout(pos)
    assert v % 2 == 0 and -14 <= v <= 14 and str(pos).endswith("0 2 0,0,0 - -")


# ---------------------------------------------------------------- PIMC


def test_pimc_analysis_ranks_candidates_and_is_deterministic() -> None:
    view = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    p = small_pimc(0)
    a = p.analyse(view)
    assert a.kind == "play" and a.samples == 3
    values = [m.value for m in a.moves]
    assert values == sorted(values, reverse=True)
    legal = set(view.legal_moves())
    assert all(m.move in legal for m in a.moves)
    assert {m.move for m in a.moves} == set(p.candidates(view))
    b = small_pimc(0).analyse(view)
    assert [(m.move, m.value) for m in a.moves] == [(m.move, m.value) for m in b.moves]
    assert p(view) == a.best


def test_pimc_solves_small_endgames_exactly() -> None:
    # four cards a hand: the solver finishes every evaluation (the first seed from 8 whose deal gets there)
    for seed in range(8, 40):
        rec = play_deal([make_player("rule"), make_player("rule"), make_player("random", 3)], seed)
        plays = rec.plays if rec.plays[-1].kind != CLAIM else rec.plays[:-1]
        k = next(
            (i for i in range(len(plays)) if rec.view(0, i).hand_sizes == (4, 4, 4) and not rec.view(0, i).trick),
            None,
        )
        if k is not None:
            break
    assert k is not None, "no deal of seeds 8-39 reached four cards a hand"
    seat = rec.view(0, k).to_move
    view = rec.view(seat, k)
    a = small_pimc(0).analyse(view)
    assert a.moves and all(m.exact == m.samples for m in a.moves)


def test_pimc_call_is_logged() -> None:
    p = small_pimc(2)
    view = SeatView.parse("0 C19S79M2345M9T159 - -")
    ans = p(view)
    assert ans in ("play", "pass")
    (entry,) = p.call_log
    assert entry["call"] == (ans == "play") and entry["hand"] == format_cards(parse_cards("C19S79M2345M9T159"))
    with pytest.raises(NotationError):
        p.analyse(SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6"))  # seat 1 is not to move
    only = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
    assert len(list(only.legal_moves())) > 1
    assert p.candidates(only)[0] == RulePlayer()(only)


# ---------------------------------------------------------------- the table's observer (game.py)


def test_play_deal_observer_sees_every_deal_call_and_play() -> None:
    seen: list[GameRecord] = []
    rec = play_deal([make_player("rule"), make_player("rule"), make_player("rule")], 2, observer=seen.append)
    assert rec.passed_out  # the rule players passed the first deal out: a redeal is observed too
    deals = 1 + len(rec.passed_out)
    starts = [r for r in seen if not r.calls]
    assert len(starts) == deals
    calls = [r for r in seen if r.calls and not r.plays]
    assert len(calls) == 3 * len(rec.passed_out) + len(rec.calls)
    plays = [r for r in seen if r.plays]
    assert [r.plays for r in plays] == [rec.plays[:n] for n in range(1, len(rec.plays) + 1)]
    assert all(r.outcome is None for r in seen[:-1]) and seen[-1] == rec
    assert play_deal([make_player("rule"), make_player("rule"), make_player("rule")], 2) == rec
