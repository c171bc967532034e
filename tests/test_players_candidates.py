"""pimc's candidate moves (``players.pimc.candidate_moves``): a discard's first candidate, built
from the seat's keep values without asking the rule player, is the rule player's own discard,
and the candidates are distinct discards of the asked size (the opponent model rebuilds them for
every sampled deal, so they must be pimc's exactly)."""

from __future__ import annotations

from lukfu_solver.game import play_deal
from lukfu_solver.players.pimc import LEVELS, candidate_moves
from lukfu_solver.players.random import RandomPlayer
from lukfu_solver.plays import DISCARD
from lukfu_solver.policy.facts import facts_from_view
from lukfu_solver.policy.rule import RulePlayer, rule_move
from lukfu_solver.rules import beating_plays


def test_a_discards_first_candidate_is_the_rule_players_discard() -> None:
    checked = 0
    for seed in range(30):
        rec = play_deal([RulePlayer(), RandomPlayer(seed), RulePlayer(5.0)], 700 + seed)
        if rec.caller is None:
            continue
        for n, pos in enumerate(rec.replay()):
            if not pos.trick or pos.outcome is not None or n >= len(rec.plays):
                continue
            s = pos.to_move
            if list(beating_plays(pos.hands[s], pos.trick[pos.best_i], pos.best_i == 0)):
                continue
            ctx = facts_from_view(rec.view(s, n))
            size = pos.trick[0].size
            for level in (1, 2, 3):
                cands = candidate_moves(ctx, LEVELS[level].max_candidates, discard=size)
                assert cands[0] == rule_move(ctx)
                assert len(set(cands)) == len(cands) >= 1
                assert all(c.kind == DISCARD and c.size == size and c.cards & ~ctx.hand == 0 for c in cands)
            checked += 1
    assert checked > 50
