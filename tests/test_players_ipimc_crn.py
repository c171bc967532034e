"""Common random numbers between ``ipimc`` and ``pimc``: at the same decision with the
same seed ipimc values exactly the deals pimc samples, only weighted, and a match game with
``pimc`` in ipimc's place gives every player the same seed, so the strength bench's control game
(``bench/inference.py``) differs from the ipimc game only where the weights change a choice."""

from __future__ import annotations

import pytest

from lukfu_solver.game import play_deal
from lukfu_solver.hidden.quick import make_sampler
from lukfu_solver.match import GameTask, play_game, seatings
from lukfu_solver.players.ipimc import IpimcPlayer
from lukfu_solver.players.pimc import PimcPlayer
from lukfu_solver.policy.rule import RulePlayer
from lukfu_solver.record import GameRecord


def views_in_play(rec: GameRecord) -> list:  # type: ignore[type-arg]
    """The views of the seat to move at a few points of a deal, where it has a choice."""
    out = []
    for n in (4, 9, 14, 19):
        if n >= len([p for p in rec.plays if p.kind != 4]):
            break
        view = rec.view(rec.replay()[n].to_move, n)
        if len(list(view.legal_moves())) > 1:
            out.append(view)
    return out


def test_ipimc_draws_the_deals_pimc_draws() -> None:
    """The same seed, view and sampler stream: ipimc's deals are pimc's, in order, and only the
    weights differ (some view has weights other than all 1, so the check is not vacuous)."""
    checked = weighted = 0
    for seed in (3, 8):
        rec = play_deal([RulePlayer(), RulePlayer(), RulePlayer()], seed)
        for view in views_in_play(rec):
            for level in (1, 2):
                ip, pm = IpimcPlayer(level, seed=seed), PimcPlayer(level, seed=seed)
                a = ip.draw(view, make_sampler(view, 99), None)  # type: ignore[arg-type]
                b = pm.draw(view, make_sampler(view, 99), None)  # type: ignore[arg-type]
                assert [d.dealt() for d in a[0]] == [d.dealt() for d in b[0]]
                assert b[1] is None and a[1] is not None and len(a[1].weights) == len(a[0])
                weighted += any(w != 1.0 for w in a[1].weights)
                checked += 1
    assert checked >= 4 and weighted


@pytest.mark.slow
def test_the_control_game_has_the_same_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game and its control (pimc in ipimc's place) on the same deal and seating: every player
    gets the same seed, so with ipimc's weights flattened to 1 (a floor no weights reach) the two
    games are the same move for move, in every rotation."""
    import lukfu_solver.match as match

    real = match.make_player

    def flat(spec: str, seed: int = 0):  # type: ignore[no-untyped-def]
        return IpimcPlayer(1, seed, share=2.0) if spec == "ipimc:1" else real(spec, seed)

    monkeypatch.setattr(match, "make_player", flat)
    specs, control = ("ipimc:1", "pimc:1", "pimc:1"), ("pimc:1", "pimc:1", "pimc:1")
    moves = 0
    for k, s in enumerate(seatings(specs)):
        t = play_game(GameTask(specs, 0, 12345, k, s))
        c = play_game(GameTask(control, 0, 12345, k, s))
        assert t.record.plays == c.record.plays and t.points == c.points and t.seats == c.seats
        moves += len(t.record.plays)
    assert moves > 30
