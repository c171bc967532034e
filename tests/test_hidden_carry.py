"""The carried pool of ``ipimc`` (``carry``: a seat's weighed deals kept from one decision to the
next, ``hidden.carry``): a carried deal is always consistent with the new view, its
log-likelihood is a full replay's, kept deals are spread as fresh uniform ones would be, and a
game's carried analyses are the same in another process (any ``--jobs``)."""

from __future__ import annotations

import json
import random

import pytest

from lukfu_solver.game import play_deal
from lukfu_solver.hidden.carry import carry_deal, carry_pool, extends, fresh
from lukfu_solver.hidden.inference import log_likelihood, rule_model
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.parallel import ordered_map
from lukfu_solver.players.ipimc import IpimcPlayer, opponent_model
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.record import GameRecord
from lukfu_solver.view import SeatView


def games(n: int) -> list[GameRecord]:
    """``n`` random-player games with a caller (seeded)."""
    recs = (play_deal([RandomPlayer(s + i) for i in range(3)], s) for s in range(200))
    out = [r for r in recs if r.caller is not None and len(r.plays) > 20]
    return out[:n]


def decision_views(rec: GameRecord, seat: int) -> list[SeatView]:
    """``seat``'s views at its play decisions in order (a final claim is not in a view)."""
    plays = [p for p in rec.plays if p.kind != 4]
    return [v for i in range(len(plays)) for v in [rec.view(seat, i)] if v.to_move == seat]


@pytest.mark.slow
def test_carried_deals_stay_consistent_and_keep_a_full_replays_likelihood() -> None:
    """Through whole games, every deal carried is consistent with the view it is carried to and
    its log-likelihood equals the one computed afresh (to 1e-9), under both models; some deals
    are carried and some dropped."""
    kept = dropped = 0
    for k, rec in enumerate(games(3)):
        model = rule_model() if k % 2 else opponent_model()
        seat = k % 3
        views = decision_views(rec, seat)
        rng = random.Random(k)
        pool = [fresh(model, views[0], d) for d in make_sampler(views[0], k, exact=True).samples(8)]
        for old, view in zip(views, views[1:], strict=False):
            assert extends(old, view) and not extends(view, old)
            before = len(pool)
            pool = carry_pool(model, pool, view, rng)
            kept, dropped = kept + len(pool), dropped + before - len(pool)
            for q in pool:
                assert q.deal.problem.view == view and q.deal.problem.violation(q.deal.cards) is None
                assert abs(q.log - log_likelihood(model, view, q.deal)) < 1e-9
            pool += [fresh(model, view, d) for d in make_sampler(view, k, exact=True).samples(8 - len(pool))]
    assert kept > 20 and dropped > 20


OLD = "0 C1S259M24 0 C6,C7,x1/T2,T5,T7/C8,C9,x1/T6,T8,xM5/T3,T4,T9/M3,M9,xS6/S4"
NEW = OLD.replace("0 C1S259M24", "0 C1S25M24") + ",S9,x1"
"""Seat 0's views at two decisions of a random game; between them seat 1 played S9 and seat 2
discarded a card face down (20,832 deals consistent with the later view)."""


@pytest.mark.slow
def test_a_kept_deal_is_uniform_on_the_new_views_deals() -> None:
    """Uniform deals of one view carried to the next are spread over the later view's deals as
    the exact sampler's fresh draws are: for every hidden card and place (the new discard among
    them), the share of deals putting the card there agrees within 5 standard errors."""
    old, new = SeatView.parse(OLD), SeatView.parse(NEW)
    assert extends(old, new)
    rng = random.Random(5)
    carried = [carry_deal(d, new, rng) for d in make_sampler(old, 3, exact=True).samples(1500)]
    kept = [d for d in carried if d is not None]
    drawn = make_sampler(new, 4, exact=True).samples(1500)
    assert len(kept) > 1000 and all(d.problem.violation(d.cards) is None for d in kept)
    places = kept[0].problem.places
    assert any(p.trick == len(new.tricks) - 1 and not p.is_hand for p in places)  # the new discard
    worst = 0.0
    for j in range(len(places)):
        for c in range(36):
            a = sum(d.cards[j] >> c & 1 for d in kept) / len(kept)
            b = sum(d.cards[j] >> c & 1 for d in drawn) / len(drawn)
            pooled = (a * len(kept) + b * len(drawn)) / (len(kept) + len(drawn))
            se = (pooled * (1 - pooled) * (1 / len(kept) + 1 / len(drawn))) ** 0.5
            if se:
                worst = max(worst, abs(a - b) / se)
    assert worst < 5, worst


def carried_game(args: tuple[str, int]) -> list[tuple[str, float, int]]:
    """A carrying player analysing one seat's decisions of a game in order (a process's work):
    each decision's best move, its mean and how many deals it carried."""
    text, seat = args
    rec = GameRecord.from_json(json.loads(text))
    p = IpimcPlayer(1, seed=3, pool=2, evidence="plays", model=rule_model(), carry=True)
    out = []
    for view in decision_views(rec, seat)[-5:-1]:
        a = p.analyse(view)
        out.append((str(a.best), round(a.moves[0].mean, 9), p.kept))
    return out


@pytest.mark.slow
def test_a_games_carried_analyses_are_the_same_in_another_process() -> None:
    """The carried pool depends only on the seed and the game's earlier decisions, so a match
    gives the same games for any ``--jobs``: the same analyses here and in worker processes, and
    a later decision carried deals from the earlier one."""
    rec = games(1)[0]
    task = (json.dumps(rec.to_json()), 2)
    here = carried_game(task)
    assert len(here) == 4 and any(kept for _, _, kept in here[1:]) and here[0][2] == 0
    assert list(ordered_map(carried_game, [task, task], jobs=2)) == [here, here]


def test_the_carried_spec_is_the_carried_configuration() -> None:
    """``ipimc:L:Pc`` builds the resampling configuration with the carried pool (the rule model at
    temperature 1, the plays' evidence, the weighted call), named by its spec; it analyses a
    game's decisions exactly as the player built from the options (the bench's earlier route)."""
    from lukfu_solver.players import make_player

    p = make_player("ipimc:1:2c", 3)
    assert isinstance(p, IpimcPlayer) and p.name == "ipimc:1:2c" and p.level == 1 and p.pool == 2
    assert p.carry and p.evidence == "plays" and p.weigh_call and p.model == rule_model()
    assert make_player(" IPIMC:2:4C ").name == "ipimc:2:4c"  # type: ignore[attr-defined]
    rec = games(1)[0]
    q = IpimcPlayer(1, seed=3, pool=2, evidence="plays", model=rule_model(), carry=True)
    for view in decision_views(rec, 1)[-4:-1]:
        a, b = p.analyse(view), q.analyse(view)
        assert (str(a.best), a.moves[0].mean, p.kept) == (str(b.best), b.moves[0].mean, q.kept)
