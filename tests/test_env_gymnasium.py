"""The Gymnasium environment passes Gymnasium's own checker, is registered, plays lukfu's game
against engines (random episodes replay through ``lukfu replay`` with the same result, R15–R17)
and offers the oracle and the engines as the agent."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from env_checks import check_cli_replays, check_replays
from gymnasium.utils.env_checker import check_env

from lukfu_solver.env import gymnasium as lg
from lukfu_solver.env.actions import CALL_PASS
from lukfu_solver.errors import NotationError
from lukfu_solver.game import play_deal
from lukfu_solver.players import make_player
from lukfu_solver.record import GameRecord


def random_episodes(count: int, seed: int, opponents: str = "random") -> list[GameRecord]:
    """``count`` episodes with a uniformly random legal agent; each checked to replay."""
    rng = random.Random(seed)
    env = gymnasium.make(lg.ENV_ID, opponents=opponents)
    out = []
    for i in range(count):
        obs, info = env.reset(seed=seed * 100_000 + i)
        done = False
        while not done:
            assert env.observation_space.contains(obs)
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
        ep = env.unwrapped.episode
        assert reward == ep.returns()[env.unwrapped.person]
        rec = check_replays(ep)
        if rec is not None:
            out.append(rec)
    return out


def test_check_env_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no render fps": a card table renders as text
        check_env(gymnasium.make(lg.ENV_ID).unwrapped)
        check_env(lg.LukFuSeatEnv(opponents=["random", "rule"], seat=2))


def test_the_environment_is_registered_with_its_options() -> None:
    env = gymnasium.make("lukfu/LukFuSeat-v0", opponents=["rule", "random"], seat=1)
    obs, info = env.reset(seed=9)
    assert env.unwrapped.person == 1 and info["role"] == env.unwrapped.episode.seat_of(1)
    names = env.unwrapped.episode.names
    assert names[1] == "agent" and sorted(names[0::2]) == ["random", "rule"]
    with pytest.raises(NotationError, match="unknown player"):
        lg.LukFuSeatEnv(opponents="nobody")


def test_random_episodes_replay_with_their_result_r15_r17(tmp_path: Path) -> None:
    records = random_episodes(100, seed=1)
    assert len(records) >= 95
    check_cli_replays(records[:3], tmp_path)
    assert len(random_episodes(40, seed=2, opponents="rule")) >= 38


@pytest.mark.slow
def test_thousands_of_random_episodes_replay() -> None:
    assert len(random_episodes(2000, seed=3)) >= 1900


def test_the_rule_engine_as_the_agent_plays_as_play_deal() -> None:
    for seed in range(6):
        env = lg.LukFuSeatEnv(opponents="rule", seat=seed % 3)
        env.reset(seed=seed)
        policy, done = lg.engine_policy("rule"), False
        while not done:
            _, reward, terminated, truncated, info = env.step(policy(env))
            done = terminated or truncated
        want = play_deal([make_player("rule")] * 3, seed)
        got = env.record()
        assert (got.hands, got.calls, got.plays, got.outcome) == (want.hands, want.calls, want.plays, want.outcome)
        assert reward == want.outcome.points[info["role"]]


def test_an_illegal_action_ends_the_episode_with_the_worst_result() -> None:
    env = lg.LukFuSeatEnv(seat=0)
    env.reset(seed=4)
    obs, reward, terminated, truncated, info = env.step(0)  # a card in the calling phase
    assert terminated and reward == -14 and info["illegal"] and info["action_mask"].sum() == 0
    with pytest.raises(NotationError, match="reset"):
        env.step(CALL_PASS)


def test_passing_for_ever_truncates_r3() -> None:
    env = lg.LukFuSeatEnv(opponents="rule:20", seat=0, max_passed_out=2)  # threshold 20: they never call
    env.reset(seed=1)
    done = truncated = False
    steps = 0
    while not done:
        _, reward, terminated, truncated, _ = env.step(CALL_PASS)
        done, steps = terminated or truncated, steps + 1
    assert truncated and reward == 0.0 and steps == 2


def test_same_seed_same_episode() -> None:
    a, b = lg.LukFuSeatEnv(opponents="random"), lg.LukFuSeatEnv(opponents="random")
    for env in (a, b):
        env.reset(seed=21)
        env.action_space.seed(0)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[0]))
            done = terminated or truncated
    assert a.record() == b.record()
    assert a.render() == b.render()
