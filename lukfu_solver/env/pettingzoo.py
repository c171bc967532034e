"""Luk Fu as a PettingZoo AEC environment: three agents, ``seat_0`` … ``seat_2`` (the persons of
:mod:`.episode`), taking turns with the 40 actions of :mod:`.actions`.

Each observation is a dict: ``observation``, the 0/1 vector of :mod:`.observation`, and
``action_mask``, the legal actions of the agent to act (all zero for the others). Rewards are
the net points of the deal (R15–R17), given to every agent when it ends; a void deal gives 0.
``reset(seed=S)`` deals as ``lukfu deal --seed S`` and ``game.play_deal(..., S)`` do; a reset
without a seed draws the next deal's seed from the last seed given. After
:data:`~lukfu_solver.record.MAX_PASSED_OUT` passed-out deals (R3) every agent is truncated.

:func:`env` wraps :class:`raw_env` as PettingZoo's classic games are wrapped: an illegal action
ends the episode with ``ILLEGAL_REWARD`` for its agent, an out-of-range one is an error, and the
API's order is enforced. ``env.unwrapped`` offers lukfu's objects: :meth:`raw_env.record`, the
exact oracle (:meth:`raw_env.exact_values`, :meth:`raw_env.sample_worlds`), the acting
agent's seat view and engine policies (:func:`engine_policy`).

>>> e = env()
>>> e.reset(seed=7)
>>> policy = engine_policy("rule")
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     e.step(None if terminated or truncated else policy(e))
>>> e.unwrapped.record().outcome == e.unwrapped.episode.outcome
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # the research extra is not installed
    raise ImportError(
        f"{__name__} needs pettingzoo (and gymnasium): pip install 'lukfu[research]' ({error})"
    ) from error

from ..inputs import MAX_SEED
from ..players import Player
from ..record import MAX_PASSED_OUT
from ..search import MIN_VALUE
from .actions import NUM_ACTIONS
from .episode import AGENTS, Episode
from .observation import OBSERVATION_SIZE, observation
from .oracle import LukfuObjects
from .policies import EnginePolicy

ILLEGAL_REWARD = MIN_VALUE
"""The reward of an illegal action under :func:`env`: −14, the worst result of any deal (R16–R17),
so that no illegal action ever pays better than a legal line."""


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (see the module doc)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def mask_array(ep: Episode) -> np.ndarray:
    """The legal actions of ``ep`` as a 0/1 vector of :data:`~.actions.NUM_ACTIONS`."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask[ep.legal_actions()] = 1
    return mask


class raw_env(LukfuObjects, AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """The unwrapped AEC environment (see the module doc)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "luk_fu_v0", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, max_passed_out: int = MAX_PASSED_OUT) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.max_passed_out = max_passed_out
        self.possible_agents = list(AGENTS)
        self.agents = self.possible_agents[:]
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._seeds = random.Random()
        self.episode = Episode.from_seed(self._seeds.randrange(MAX_SEED + 1), max_passed_out=max_passed_out)
        self._reset_dicts()

    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(40)`` for every agent."""
        return self._action_space

    def _reset_dicts(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        person = self.episode.current_person()
        self.agent_selection = AGENTS[person if person is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal: the deal of ``seed`` (0 ≤ seed < 2**63), else of the next seed drawn."""
        if seed is not None:
            self._seeds = random.Random(seed)
            deal_seed = seed
        else:
            deal_seed = self._seeds.randrange(MAX_SEED + 1)
        self.episode = Episode.from_seed(deal_seed, max_passed_out=self.max_passed_out)
        self._reset_dicts()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation vector and action mask (zeros unless it is to act)."""
        person = AGENTS.index(agent)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self.episode.current_person() == person:
            mask[self.episode.legal_actions()] = 1
        return {"observation": observation(self.episode, person), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Take ``action`` for the agent to act (None for an agent whose episode has ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        assert action is not None
        self._cumulative_rewards[agent] = 0
        ep.apply(int(action))
        if ep.is_over:
            points = ep.returns()
            self.rewards = {a: points[i] for i, a in enumerate(self.possible_agents) if a in self.agents}
            done = dict.fromkeys(self.agents, True)
            if ep.truncated:
                self.truncations = done
            else:
                self.terminations = done
        else:
            self.rewards = dict.fromkeys(self.agents, 0)
            person = ep.current_person()
            assert person is not None
            self.agent_selection = AGENTS[person]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release."""


def engine_policy(player: Player | str, seed: int = 0) -> Callable[[AECEnv], int]:
    """A lukfu engine (``rule``, ``pimc:2``, ``ipimc``, ``medium``, …) as a policy: given the
    environment (wrapped or not), the next action of the agent to act."""
    policy = EnginePolicy(player, seed)

    def act(e: AECEnv) -> int:
        return policy(e.unwrapped.episode)

    return act
