"""The PettingZoo environment passes PettingZoo's own conformance tests, plays lukfu's game
(random episodes replay through ``lukfu replay`` with the same result, R15–R17) and offers the
oracle and the engines."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from env_checks import check_cli_replays, check_replays
from pettingzoo.test import api_test, seed_test

from lukfu_solver.env import pettingzoo as lz
from lukfu_solver.env.actions import CALL_PASS, NUM_ACTIONS
from lukfu_solver.game import play_deal
from lukfu_solver.players import make_player
from lukfu_solver.record import GameRecord


def random_episodes(count: int, seed: int, wrapped: bool = True) -> list[GameRecord]:
    """``count`` episodes of uniformly random legal actions; each checked to replay. The records."""
    rng = random.Random(seed)
    e = lz.env() if wrapped else lz.raw_env()
    out = []
    for i in range(count):
        e.reset(seed=seed * 100_000 + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert e.observation_space(agent).contains(obs)
            e.step(int(legal[rng.randrange(len(legal))]))
        rec = check_replays(e.unwrapped.episode)
        if rec is not None:
            out.append(rec)
    return out


def test_api_test_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the classic games' warnings: a dict observation with its mask
        api_test(lz.env(), num_cycles=1000)
        api_test(lz.raw_env(), num_cycles=1000)


def test_seed_test_passes() -> None:
    seed_test(lz.env, num_cycles=300)
    seed_test(lz.raw_env, num_cycles=300)


def test_reset_with_a_seed_deals_that_seeds_deal_r2() -> None:
    e = lz.env()
    e.reset(seed=175)
    ep = e.unwrapped.episode
    want = play_deal([make_player("rule")] * 3, 175)
    assert ep.hands == (want.passed_out[0] if want.passed_out else want.hands)
    assert e.agent_selection == f"seat_{ep.master}"  # the Master calls first (R3)


def test_random_episodes_replay_with_their_result_r15_r17(tmp_path: Path) -> None:
    records = random_episodes(150, seed=1)
    assert len(records) >= 140 and {r.outcome.how for r in records} >= {"claim", "end"}
    check_cli_replays(records[:5], tmp_path)


@pytest.mark.slow
def test_thousands_of_random_episodes_replay() -> None:
    assert len(random_episodes(3000, seed=2, wrapped=False)) >= 2900


def test_rewards_are_the_net_points_by_agent_r16_r17() -> None:
    e = lz.env()
    e.reset(seed=11)
    policy = lz.engine_policy("rule")
    got: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            got[agent] = reward
            e.step(None)
        else:
            e.step(policy(e))
    ep = e.unwrapped.episode
    assert got == {f"seat_{p}": ep.returns()[p] for p in range(3)} and sum(got.values()) == 0


def test_engines_through_the_environment_play_as_play_deal() -> None:
    for seed in range(5):
        e = lz.raw_env()
        e.reset(seed=seed)
        policies = [lz.engine_policy(s, 3 + i) for i, s in enumerate(("rule", "random", "rule:3"))]
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else policies[int(agent[-1])](e))
        want = play_deal([make_player(s, 3 + i) for i, s in enumerate(("rule", "random", "rule:3"))], seed)
        got = e.record()
        assert (got.hands, got.calls, got.plays, got.outcome) == (want.hands, want.calls, want.plays, want.outcome)


def test_an_illegal_action_ends_the_episode_with_the_worst_result() -> None:
    e = lz.env()
    e.reset(seed=5)
    bad = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(0)  # a card in the calling phase
    assert all(e.terminations.values())
    assert e.rewards[bad] == lz.ILLEGAL_REWARD == -14


def test_every_deal_passed_out_truncates_every_agent_r3() -> None:
    e = lz.raw_env(max_passed_out=2)
    e.reset(seed=3)
    for _ in range(6):
        e.step(CALL_PASS)
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e.rewards.values()) == {0}


def test_the_observation_space_and_render() -> None:
    e = lz.raw_env(render_mode="ansi")
    e.reset(seed=7)
    obs = e.observe(e.agent_selection)
    assert obs["observation"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
    assert obs["action_mask"].sum() == 2  # play or pass (R3)
    other = e.observe(next(a for a in e.agents if a != e.agent_selection))
    assert other["action_mask"].sum() == 0
    assert "to act: " + e.agent_selection in e.render()
    assert str(e.view()).startswith("0 ")  # the Master's calling view
