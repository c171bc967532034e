"""The rule policy in a replay (``policy.rule_fast.rule_move_fast``, ``keep_values_fast``,
``keep_order_fast``): the same moves, values and discard orders as the straightforward
definitions (``rule_move``, ``keep_values``, ``discard_order``), which stay the reference, on
every decision of many seeded games, from each seat's own view and from the full position; the
rule model's likelihood with them equal, to the bit, to the one asking the reference policy; and
deliberately wrong variants are caught by the same comparisons."""

from __future__ import annotations

import dataclasses
import random

from lukfu_solver.cards import RUNS9, old_cards
from lukfu_solver.game import play_deal
from lukfu_solver.hidden.inference import log_likelihood, rule_model
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.players.ipimc import opponent_model
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import CLAIM_PLAY, Play
from lukfu_solver.policy.calling import hand_strength, hand_strength_fast
from lukfu_solver.policy.facts import SeatFacts, facts_from_position, facts_from_view
from lukfu_solver.policy.rule import RulePlayer, _combo_cards, discard_order, keep_values, rule_move, seat_keep_values
from lukfu_solver.policy.rule_fast import combo_cards_fast, keep_order_fast, keep_values_fast, rule_move_fast
from lukfu_solver.position import Position
from lukfu_solver.record import GameRecord
from lukfu_solver.rules import beating_plays, can_claim, lead_plays
from lukfu_solver.view import SeatView


def records(n: int) -> list[GameRecord]:
    """Deals of rule and random players in every seating, with a caller (varied leads, beating
    plays, discards and claims)."""
    out = []
    for k in range(n):
        table = [RulePlayer(), RandomPlayer(k), RulePlayer(4.0 + k % 4)]
        rot = k % 3
        rec = play_deal(table[rot:] + table[:rot], 500 + k)
        if rec.caller is not None:
            out.append(rec)
    return out


def listed(ctx: SeatFacts) -> tuple[str, list[Play]]:
    """The moves the replay lists at ``ctx``: the leads then the claim when allowed, or the
    beating plays (``discard`` when there are none)."""
    s = ctx.seat
    if not ctx.trick:
        moves = list(lead_plays(ctx.hand, ctx.faceup, s == ctx.caller, s == 0 and ctx.caller != 0))
        return "lead", moves + ([CLAIM_PLAY] if can_claim(ctx.fu[s], ctx.hand, ctx.faceup) else [])
    beating = list(beating_plays(ctx.hand, ctx.trick[ctx.best_i], ctx.best_i == 0))
    return ("follow" if beating else "discard"), beating


def situations(n: int) -> list[SeatFacts]:
    """The rule facts of every decision of ``n`` seeded games: from the seat's own view and from
    the full position (every hand known, as PIMC's playouts see it)."""
    out = []
    for rec in records(n):
        assert rec.caller is not None
        pos = Position.start(rec.hands, rec.caller)
        plays = list(rec.plays)
        for i, p in enumerate(plays):
            s = pos.to_move
            out.append(facts_from_position(pos))
            out.append(facts_from_view(SeatView.from_deal(s, rec.hands[s], rec.caller, plays[:i])))
            pos.push(p)
    return out


SITUATIONS = situations(60)


def test_there_are_enough_situations_of_every_kind() -> None:
    kinds = [listed(ctx)[0] for ctx in SITUATIONS]
    claims = sum(1 for ctx in SITUATIONS if listed(ctx)[0] == "lead" and rule_move(ctx) == CLAIM_PLAY)
    assert kinds.count("lead") > 300 and kinds.count("follow") > 300 and kinds.count("discard") > 200
    assert claims > 10


def test_the_fast_rule_move_is_the_rule_move() -> None:
    """At every lead and every follow that can beat, the same move as ``rule_move``."""
    checked = 0
    for ctx in SITUATIONS:
        kind, moves = listed(ctx)
        if kind != "discard":
            assert rule_move_fast(ctx, moves) == rule_move(ctx), ctx
            checked += 1
    assert checked > 600


def test_the_fast_keep_values_and_order_are_the_reference() -> None:
    """The keep values of every hand (with its Old cards and the others' cards as the seat sees
    them, and with none), the cards in sets and runs, and the discard order."""
    rng = random.Random(19)
    for ctx in SITUATIONS:
        values = seat_keep_values(ctx)
        s = ctx.seat
        out = ctx.out[(s + 1) % 3] | ctx.out[(s + 2) % 3]
        old = old_cards(ctx.hand, ctx.seen_up)
        assert keep_values_fast(ctx.hand, old, out) == values
        assert list(keep_values_fast(ctx.hand, old, out)) == list(values)  # the same order too
        assert keep_values_fast(ctx.hand, 0, 0) == keep_values(ctx.hand, 0, 0)
        assert keep_order_fast(ctx) == discard_order(ctx.hand, values)
        assert combo_cards_fast(ctx.hand) == _combo_cards(ctx.hand)
    for _ in range(2000):  # random hands, Old cards and outs of every size
        hand = rng.getrandbits(36)
        old, out = rng.getrandbits(36) & hand, rng.getrandbits(36) & ~hand
        assert keep_values_fast(hand, old, out) == keep_values(hand, old, out)
        assert combo_cards_fast(hand) == _combo_cards(hand)


def test_wrong_variants_are_caught() -> None:
    """The comparisons above fail for a policy that forgets the claim, for one that breaks ties the
    other way, and for keep values that ignore what the others may hold."""
    forgot_claim = reversed_ties = wrong_values = 0
    for ctx in SITUATIONS:
        kind, moves = listed(ctx)
        if kind == "lead":
            leads = [m for m in moves if m != CLAIM_PLAY]
            forgot_claim += rule_move_fast(ctx, leads) != rule_move(ctx)
            reversed_ties += rule_move_fast(ctx, leads[::-1] + moves[len(leads) :]) != rule_move(ctx)
        s = ctx.seat
        old = old_cards(ctx.hand, ctx.seen_up)
        wrong_values += keep_values_fast(ctx.hand, old, 0) != seat_keep_values(ctx) and bool(
            ctx.out[(s + 1) % 3] | ctx.out[(s + 2) % 3]
        )
    assert forgot_claim > 10 and reversed_ties > 3 and wrong_values > 100


def test_the_rule_models_likelihood_asks_the_fast_policy_and_is_the_same() -> None:
    """The rule model (its policy given the listed moves and the fast keep order) gives, to the
    bit, the log-likelihood of the model asking the reference policy and discard order, over
    recorded games (leaving out each seat) and sampled deals of their views."""
    fast = rule_model()
    assert fast.policy_moves is not None
    slow = dataclasses.replace(
        fast, policy_moves=None, order=lambda f: discard_order(f.hand, seat_keep_values(f))
    )
    assert slow.policy is rule_move
    checked = 0
    for k, rec in enumerate(records(12)):
        assert rec.caller is not None
        plays = [p for p in rec.plays if p.kind != 4]
        for seat in range(3):
            for cut in (len(plays) // 3, 2 * len(plays) // 3, len(plays)):
                view = rec.view(seat, cut)
                if view.caller is None:
                    continue
                for deal in make_sampler(view, 1000 * k + 10 * seat + cut).samples(4):
                    assert log_likelihood(fast, view, deal) == log_likelihood(slow, view, deal)
                    checked += 1
    assert checked > 300


def test_the_fast_hand_strength_is_the_hand_strength() -> None:
    """The calling strength of 3,000 seeded hands of 12 cards, and of other sizes, is the
    reference's, to the bit; one that forgets the runs is caught."""
    rng = random.Random(1919)
    forgot_runs = 0
    for k in range(3000):
        size = 12 if k < 2000 else rng.randrange(1, 13)
        hand = sum(1 << c for c in rng.sample(range(36), size))
        assert hand_strength_fast(hand) == hand_strength(hand)
        forgot_runs += hand_strength(hand) != _strength_without_runs(hand)
    assert forgot_runs > 500
    model = rule_model()
    assert model.strength is hand_strength_fast and opponent_model().strength is hand_strength_fast


def _strength_without_runs(hand: int) -> float:
    """A wrong variant: the strength without the half point of a suit's longest run."""
    score = hand_strength(hand)
    old = old_cards(hand, 0)
    for shift in (0, 9, 18, 27):
        runs = RUNS9[(hand >> shift) & 0x1FF]
        if runs and (max(runs, key=int.bit_count) << shift) & ~old:
            score -= 0.5
    return score
