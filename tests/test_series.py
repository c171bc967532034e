"""A session of several deals as the library keeps it (``lukfu play --deals N`` and the browser's
evening draw the same value): deal k has the seed SEED + k - 1 and its Master drawn from that
seed (R2, R3), the same people and names all session, each deal's result read from its record,
the points added up as the records have them; a person's standing against each strength with the
match's 95% interval from MIN_DEALS deals on; a win's worth and who pays it (R16, R17)."""

from __future__ import annotations

import pytest

from lukfu_solver.errors import NotationError
from lukfu_solver.game import first_master
from lukfu_solver.match import interval
from lukfu_solver.rules import payments, worth
from lukfu_solver.series import MAX_SESSION, DealResult, DealSeries, deal_seeds
from lukfu_solver.session import YOU, GameSession, engine_answer
from lukfu_solver.standing import MIN_DEALS, standing


def played(s: GameSession) -> GameSession:
    """A deal played to its end here (the person takes a claim when it may, else its first choice)."""
    while s.phase != "over":
        if s.waiting_for_engine:
            task = s.engine_task()
            s.apply_engine(task, engine_answer(task))
        else:
            s.apply("claim" if "claim" in s.choices() else s.choices()[0])
    return s


def test_r2_r3_each_deal_has_its_seed_and_draws_its_master_the_people_stay() -> None:
    series = DealSeries.new(seed=74, deals=4, seat=0, opponents=["easy"])
    assert series.seeds == [74, 75, 76, 77]
    seats = []
    for k, seed in enumerate(series.seeds, 1):
        game = series.game(k)
        assert game.seed == seed and game.names == series.names and sorted(game.names) == ["easy A", "easy B", "you"]
        assert game.game.masters[0] == first_master(seed)  # the Master drawn from the deal's own seed (R2)
        assert game.game.person_at(0) == first_master(seed)
        seats.append(game.human_seat)
    assert seats[0] == 0 and len(set(seats)) > 1  # the seat chosen is the first deal's; then the draw decides
    assert [o.name for o in series.opponents] == ["easy A", "easy B"]  # the letters kept all session


def test_a_session_adds_up_the_records_points_you_first() -> None:
    series = DealSeries.new(seed=74, deals=2, seat=0, opponents="easy,strong")
    assert series.names.index(YOU) == series.human and series.order[0] == series.human
    records = []
    for k in (1, 2):
        rec = played(series.game(k)).record
        records.append(rec)
        result = DealResult.of(rec)
        assert result is not None and DealResult.from_json(result.to_json()) == result
        series.add(result)
    js = series.to_json()
    assert js["names"] == ["you", "easy", "strong"] and js["opponents"] == ["easy", "strong"] and js["over"]
    mine = [r.outcome.points[r.players.index(YOU)] for r in records if r.outcome and r.players]
    assert [row["points"][0] for row in js["rows"]] == mine and js["totals"][0] == sum(mine)
    assert sum(js["totals"]) == 0  # net points sum to zero (R17), deal by deal and in all
    for row, rec in zip(js["rows"], records, strict=True):
        assert rec.players is not None and row["seat"] == rec.players.index(YOU) and row["caller"] == rec.caller


def test_the_cli_and_the_library_seed_a_session_alike() -> None:
    assert deal_seeds(5, 3) == [5, 6, 7]
    with pytest.raises(NotationError, match="deals"):
        deal_seeds(5, MAX_SESSION + 1)
    with pytest.raises(NotationError, match="seed"):
        DealSeries.new(seed=2**63 - 2, deals=3)
    with pytest.raises(NotationError, match="deal"):
        DealSeries.new(seed=1, deals=2).game(3)


def test_a_result_knows_whom_you_played_and_refuses_what_is_not_one() -> None:
    r = DealResult(4, ("easy B", "you", "easy A"), 1, 1, (-1, 2, -1))
    assert r.you == 1 and r.your_points == 2 and r.against == ("easy",)
    assert DealResult(4, ("strong", "you", "easy"), 1, 0, (2, -2, 0)).against == ("easy", "strong")
    assert DealResult(4, ("a", "b", "c"), 0, None, (0, 0, 0)).against == ()
    for bad in ({}, {"seed": 1, "players": ["you"], "caller": 0, "winner": 0, "points": [0, 0, 0]},
                {"seed": -1, "players": ["you", "a", "b"], "caller": 0, "winner": 0, "points": [0, 0, 0]},
                {"seed": 1, "players": ["you", "a", "b"], "caller": 5, "winner": 0, "points": [0, 0, 0]}):
        with pytest.raises(NotationError, match="result|seed"):
            DealResult.from_json(bad)


def test_standing_gives_the_interval_from_min_deals_on_strengths_first() -> None:
    def deal(points: int, names: tuple[str, str, str] = ("you", "easy A", "easy B"), caller: int = 0) -> DealResult:
        you = names.index("you")
        share = [0, 0, 0]
        share[you] = points
        share[(you + 1) % 3] = -points
        return DealResult(1, names, caller, you if points > 0 else None, (share[0], share[1], share[2]))

    few = [deal(p) for p in (2, -1, 0)]
    many = [deal(p, ("medium A", "you", "medium B"), 1) for p in [2, -2, 1, 0, 4, -1, 2, 2, -3, 1]]
    mixed = [deal(1, ("you", "strong", "easy"))]
    rows = standing(mixed + many + few)
    assert [r.opponents for r in rows] == [("easy",), ("medium",), ("easy", "strong")]
    easy, medium, _mixed = rows
    assert (easy.deals, easy.points, easy.low, easy.high) == (3, 1, None, None)  # fewer than MIN_DEALS: no interval
    assert len(many) == MIN_DEALS and medium.deals == MIN_DEALS and medium.called == MIN_DEALS
    mean, low, high = interval([r.your_points or 0 for r in many])
    assert (medium.mean, medium.low, medium.high) == (mean, low, high)
    assert medium.to_json()["ci95"] == [round(low, 4), round(high, 4)] and easy.to_json()["ci95"] is None
    assert medium.won == sum(1 for r in many if (r.your_points or 0) > 0)
    assert standing([DealResult(1, ("a", "b", "c"), 0, 0, (2, -1, -1))]) == []  # no seat of yours: not yours


@pytest.mark.parametrize("winner,total,caller", [(1, 7, 1), (2, 6, 0), (0, 11, 0), (1, 8, 2)])
def test_r16_r17_a_win_is_worth_t_minus_5_paid_by_the_others_or_twice_by_the_caller(winner: int, total: int, caller: int) -> None:
    w = worth(winner, total, caller)
    assert w.points == total - 5 and w.net == payments(winner, total, caller)
    if winner == caller:
        assert w.paid_by == "others" and all(w.net[s] == -w.points for s in range(3) if s != winner)
    else:
        assert w.paid_by == "caller" and w.net[caller] == -2 * w.points and w.net[winner] == 2 * w.points
    assert w.to_json() == {"points": total - 5, "paid_by": w.paid_by, "net": list(w.net)}


def test_the_table_state_carries_the_rules_facts_the_page_shows() -> None:
    """The Master's seat, a claim's worth and who pays (R16–R17), and each play's index in the
    deal's plays (what a review's decision names it by): the page works none of them out."""
    offered = []
    for seed in range(74, 90):
        s = GameSession.new(seed, 1, ["easy"])
        assert s.state()["master"] == 0 and s.state()["claim_worth"] is None  # seats count from the Master (R2)
        while s.phase != "over":
            if s.waiting_for_engine:
                task = s.engine_task()
                s.apply_engine(task, engine_answer(task))
                continue
            state = s.state()
            if "claim" in s.choices():
                assert state["claim_worth"] == worth(state["seat"], state["claim_total"], state["caller"]).to_json()
                offered.append(seed)
            s.apply("claim" if "claim" in s.choices() else s.choices()[0])
        if offered and s.state()["claim"] is not None:
            break
    assert offered
    state = s.state()
    plays = [p for t in state["tricks"] for p in t["plays"]]
    assert [p["index"] for p in plays] == list(range(len(plays)))
    assert [p["play"] for p in plays] == [str(p) for p in s.record.plays[: len(plays)]]
    if state["claim"] is not None:
        c = state["claim"]
        assert c["worth"] == worth(c["seat"], c["total"], state["caller"]).to_json()
        assert c["worth"]["net"] == state["outcome"]["points"]
