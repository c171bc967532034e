"""The environments' oracle: every legal play's exact value with all cards seen (the one solver,
M1 for the caller, M2 for a non-caller) and deals consistent with the acting seat's view (the one
sampler), through the episode and each interface."""

from __future__ import annotations

import random

import gymnasium
import pyspiel
import pytest

from lukfu_solver.env import gymnasium as lg
from lukfu_solver.env import openspiel as lo
from lukfu_solver.env import pettingzoo as lz
from lukfu_solver.env.episode import Episode
from lukfu_solver.env.oracle import exact_values, sample_worlds
from lukfu_solver.env.policies import EnginePolicy
from lukfu_solver.errors import NotationError
from lukfu_solver.search import make_solver


def late_episode(seed: int, cards: int = 3) -> Episode:
    """A seeded episode played by rule engines until each hand holds ``cards`` cards or fewer
    at the start of a decision (another seed when the deal ends first)."""
    while True:
        ep, rule = Episode.from_seed(seed), EnginePolicy("rule")
        while not ep.is_over and not (ep.pos is not None and ep.pos.hands[ep.pos.to_move].bit_count() <= cards):
            ep.apply(rule(ep))
        if not ep.is_over:
            return ep
        seed += 1000


@pytest.mark.parametrize("seed", range(4))
def test_exact_values_are_the_solvers_values_of_each_play_m1_m2(seed: int) -> None:
    ep = late_episode(seed)
    values = exact_values(ep)
    pos = ep.position()
    assert set(values) == set(pos.legal_moves())
    reference = make_solver("reference")
    for play, value in values.items():
        pos.push(play)
        caller_value = pos.outcome.points[pos.caller] if pos.is_over else reference.value(pos)
        pos.pop()
        assert value == (caller_value if pos.to_move == pos.caller else -caller_value / 2)
    best = max(values.values())
    whole = reference.value(pos)
    assert best == (whole if pos.to_move == pos.caller else -whole / 2)  # the mover's best is the value


def test_exact_values_need_the_play_phase() -> None:
    with pytest.raises(NotationError, match="play phase"):
        exact_values(Episode.from_seed(1))


def test_sampled_worlds_agree_with_the_view_and_the_seed() -> None:
    ep = late_episode(5, cards=6)
    seat, pos = ep.pos.to_move, ep.pos
    worlds = sample_worlds(ep, 8, seed=3)
    assert worlds == sample_worlds(ep, 8, seed=3) and len(worlds) == 8
    for w in worlds:
        assert w.dealt[seat] == ep.hands[seat] and w.position.hands[seat] == pos.hands[seat]
        assert (w.position.fu, w.position.faceup, w.position.to_move) == (pos.fu, pos.faceup, pos.to_move)
        assert sum(w.dealt) == (1 << 36) - 1
    pimc = [exact_values(ep, w) for w in worlds[:3]]  # PIMC: the same plays valued in each world
    assert all(set(v) == set(pimc[0]) for v in pimc)


def test_worlds_in_the_calling_phase_are_deals_of_the_unseen_cards() -> None:
    ep = Episode.from_seed(8)
    worlds = sample_worlds(ep, 5, seed=1)
    seat = ep.current_seat()
    assert all(w.position is None and w.dealt[seat] == ep.hands[seat] for w in worlds)
    assert len({w.dealt for w in worlds}) == 5


def late(ep: Episode) -> bool:
    """Whether the play phase has reached hands of two cards or fewer."""
    return ep.pos is not None and ep.pos.hands[ep.pos.to_move].bit_count() <= 2


def test_each_interface_offers_the_oracle() -> None:
    e = lz.raw_env()
    rule = lz.engine_policy("rule")
    for seed in range(20):
        e.reset(seed=seed)
        while not e.episode.is_over and not late(e.episode):
            e.step(rule(e))
        if not e.episode.is_over:
            break
    assert set(e.exact_values()) == set(e.view().legal_moves())
    assert len(e.sample_worlds(2, seed=1)) == 2

    g = gymnasium.make(lg.ENV_ID, seat=0).unwrapped
    policy = lg.engine_policy("rule")
    for seed in range(20):
        g.reset(seed=seed)
        while not g.episode.is_over and not late(g.episode):
            g.step(policy(g))
        if not g.episode.is_over:
            break
    assert g.episode.current_person() == 0
    assert set(g.exact_values()) == set(g.episode.view().legal_moves())
    assert len(g.sample_worlds(2)) == 2

    game = pyspiel.load_game(lo.GAME_NAME)
    bots = [lo.EngineBot("rule", p) for p in range(3)]
    for seed in range(20):
        state, r = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal() and not late(state.episode):
            if state.is_chance_node():
                state.apply_action(r.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        if not state.is_terminal():
            break
    assert set(state.exact_values()) == set(state.view().legal_moves())
    assert len(state.sample_worlds(2, seed=5)) == 2


def test_named_strengths_are_policies() -> None:
    assert [EnginePolicy(s).name for s in ("easy", "medium", "strong")] == ["rule", "pimc:1", "ipimc"]


@pytest.mark.slow
def test_pimc_and_ipimc_act_through_each_interface() -> None:
    """The PIMC engines answer through the action scheme as they answer ``play_deal``."""
    from env_checks import check_replays

    from lukfu_solver.game import play_deal
    from lukfu_solver.players import make_player

    e = lz.raw_env()
    e.reset(seed=4)
    policies = [lz.engine_policy("pimc:1", 1), lz.engine_policy("rule"), lz.engine_policy("ipimc:1", 3)]
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else policies[int(agent[-1])](e))
    want = play_deal([make_player("pimc:1", 1), make_player("rule"), make_player("ipimc:1", 3)], 4)
    assert (e.record().plays, e.record().outcome) == (want.plays, want.outcome)

    g = gymnasium.make(lg.ENV_ID, opponents=["pimc:1", "rule"], seat=2).unwrapped
    g.reset(seed=5)
    policy, done = lg.engine_policy("ipimc:1", 2), False
    while not done:
        _, _, terminated, truncated, _ = g.step(policy(g))
        done = terminated or truncated
    check_replays(g.episode)

    game = pyspiel.load_game(lo.GAME_NAME)
    bots = [lo.EngineBot("pimc:1", 0, 1), lo.EngineBot("ipimc:1", 1, 2), lo.EngineBot("rule", 2)]
    state, r = game.new_initial_state(), random.Random(6)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(r.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    check_replays(state.episode)
