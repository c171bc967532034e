"""The OpenSpiel game passes OpenSpiel's own random simulation test, runs OpenSpiel's algorithms
(an MCTS bot with random rollouts, outcome-sampling MCCFR), deals by chance nodes (R2) and plays
lukfu's game: random games replay through ``lukfu replay`` with the same result (R15–R17)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from env_checks import check_cli_replays, check_replays
from open_spiel.python.algorithms import mcts, outcome_sampling_mccfr
from open_spiel.python.observation import make_observation

from lukfu_solver.env import openspiel as lo
from lukfu_solver.env.actions import CALL_PASS, CALL_PLAY, NUM_ACTIONS
from lukfu_solver.env.observation import INFORMATION_STATE_SIZE, OBSERVATION_SIZE
from lukfu_solver.record import GameRecord

GAME = pyspiel.load_game(lo.GAME_NAME)


def deal_by_chance(state: pyspiel.State, rng: random.Random) -> None:
    """Sample the chance nodes up to the next decision."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(rng.choices(outcomes, probs)[0])


def random_games(count: int, seed: int) -> list[GameRecord]:
    """``count`` games of uniformly random legal actions; each checked to replay."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            deal_by_chance(state, rng)
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns() == [float(x) for x in state.episode.returns()]
        rec = check_replays(state.episode)
        if rec is not None:
            out.append(rec)
    return out


def test_random_sim_test_passes() -> None:
    pyspiel.random_sim_test(GAME, num_sims=30, serialize=False, verbose=False)
    pyspiel.random_sim_test(pyspiel.load_game(lo.GAME_NAME, {"max_passed_out": 1}), 10, False, False)


def test_the_game_is_described_as_luk_fu_is() -> None:
    info = GAME.get_type()
    assert info.utility == pyspiel.GameType.Utility.ZERO_SUM and GAME.num_players() == 3
    assert GAME.num_distinct_actions() == NUM_ACTIONS <= 128
    assert (GAME.min_utility(), GAME.max_utility()) == (-14.0, 14.0)  # R16-R17: T at most 12
    assert GAME.information_state_tensor_shape() == [INFORMATION_STATE_SIZE]
    assert GAME.observation_tensor_shape() == [OBSERVATION_SIZE]


def test_chance_deals_the_master_then_each_card_r2() -> None:
    state = GAME.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    for i in range(36):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 36 - i
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 2  # the Master calls first (R3)
    ep = state.episode
    assert ep.hands == ((1 << 12) - 1, ((1 << 24) - 1) ^ ((1 << 12) - 1), ((1 << 36) - 1) ^ ((1 << 24) - 1))
    text = state.information_state_string(2)
    assert text.startswith("p2 0 C123456789S123 - -")
    assert state.legal_actions() == [CALL_PLAY, CALL_PASS]


def test_random_games_replay_with_their_result_r15_r17(tmp_path: Path) -> None:
    records = random_games(120, seed=1)
    assert len(records) >= 110
    check_cli_replays(records[:3], tmp_path)


@pytest.mark.slow
def test_thousands_of_random_games_replay() -> None:
    assert len(random_games(2000, seed=2)) >= 1900


def test_an_mcts_bot_with_random_rollouts_plays_it() -> None:
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(GAME, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for seed in range(3):
        state, r = GAME.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            deal_by_chance(state, r)
            if state.is_terminal():
                break
            action = bot.step(state) if state.current_player() == 0 else r.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        check_replays(state.episode)


def test_outcome_sampling_mccfr_runs_on_it() -> None:
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(GAME)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    state, r = GAME.new_initial_state(), random.Random(4)
    deal_by_chance(state, r)
    probs = policy.action_probabilities(state)
    assert set(probs) <= set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9


def test_engine_bots_play_a_game_that_replays() -> None:
    bots = [lo.EngineBot(spec, p, seed=p) for p, spec in enumerate(("rule", "random", "rule"))]
    for seed in range(5):
        state, r = GAME.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            deal_by_chance(state, r)
            if not state.is_terminal():
                state.apply_action(bots[state.current_player()].step(state))
        check_replays(state.episode)


def test_observers_split_private_and_public_information() -> None:
    state, r = GAME.new_initial_state(), random.Random(6)
    deal_by_chance(state, r)
    state.apply_action(CALL_PLAY)
    player = state.current_player()
    state.apply_action(state.legal_actions()[0])  # a card chosen, the play perhaps not made yet
    full = make_observation(GAME, pyspiel.IIGObservationType(perfect_recall=True))
    public = make_observation(
        GAME, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    full.set_from(state, player)
    public.set_from(state, player)
    assert full.tensor.shape == (INFORMATION_STATE_SIZE,) and full.dict["hand"].sum() >= 11
    assert "hand" not in public.dict and public.tensor.shape[0] < OBSERVATION_SIZE
    assert "hand" not in public.string_from(state, player) and "chosen" not in public.string_from(state, player)
    assert np.array_equal(np.asarray(state.observation_tensor(player)), lo_obs(state, player))


def lo_obs(state: pyspiel.State, player: int) -> np.ndarray:
    """The observation vector the other interfaces give, as floats."""
    from lukfu_solver.env.observation import observation

    return observation(state.episode, player).astype(np.float32)


def test_passing_out_max_times_ends_with_nothing_r3() -> None:
    game = pyspiel.load_game(lo.GAME_NAME, {"max_passed_out": 2})
    state, r = game.new_initial_state(), random.Random(0)
    for _ in range(2):
        deal_by_chance(state, r)
        for _ in range(3):
            state.apply_action(CALL_PASS)
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0]
    assert len(state.history()) <= game.max_game_length() + 2 * 37
