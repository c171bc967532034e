"""Luk Fu as a Gymnasium environment: one seat against two lukfu engines. Importing this module
registers it as ``lukfu/LukFuSeat-v0``.

The agent is one person (``seat=0``, 1, 2, or None: drawn each episode) at the table of
:mod:`.episode`; the two others are engines (``opponents="rule"``, any spec of
:func:`~lukfu_solver.players.make_player`, or two specs, one a person in order). The agent acts
with the 40 actions of :mod:`.actions`; the engines' turns are played between its steps.
Observations are the 0/1 vector of :mod:`.observation`; ``info["action_mask"]`` holds the legal
actions (``info["role"]`` the agent's lukfu seat). The reward is the agent's net points when the
deal ends (R15–R17), else 0. An action the mask forbids ends the episode with
``illegal_reward`` (−14 by default, the worst result of any deal) and ``info["illegal"]``.
After :data:`~lukfu_solver.record.MAX_PASSED_OUT` passed-out deals (R3) the episode is truncated.

``reset(seed=S)`` deals as ``lukfu deal --seed S`` does; the engines' seeds derive from it. A
deal in which the agent would have no decision at all (the Master calls and claims at once, R14)
is not an episode: the next seed is drawn and dealt instead (``info["skipped"]`` counts them;
the agent's choices cannot change such a deal, so paired comparisons are unaffected).
``env.unwrapped`` offers :meth:`LukFuSeatEnv.record`, :meth:`LukFuSeatEnv.exact_values` and
:meth:`LukFuSeatEnv.sample_worlds`, and :func:`engine_policy` makes an engine the agent.

>>> import gymnasium
>>> env = gymnasium.make("lukfu/LukFuSeat-v0", opponents="rule", seat=1)
>>> obs, info = env.reset(seed=3)
>>> policy, done = engine_policy("rule"), False
>>> while not done:
...     obs, reward, terminated, truncated, info = env.step(policy(env))
...     done = terminated or truncated
>>> env.unwrapped.record().outcome.points[info["role"]] == reward
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # the research extra is not installed
    raise ImportError(f"{__name__} needs gymnasium: pip install 'lukfu[research]' ({error})") from error

from ..errors import NotationError
from ..i18n import _
from ..inputs import MAX_SEED, check_seed
from ..players import Player, make_player
from ..record import MAX_PASSED_OUT
from ..search import MIN_VALUE
from .actions import NUM_ACTIONS
from .episode import Episode
from .observation import OBSERVATION_SIZE, observation
from .oracle import LukfuObjects
from .policies import EnginePolicy

ENV_ID = "lukfu/LukFuSeat-v0"


class LukFuSeatEnv(LukfuObjects, gymnasium.Env):
    """One seat of Luk Fu against two engines (see the module doc)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        opponents: str | Sequence[str] = "rule",
        seat: int | None = None,
        render_mode: str | None = None,
        illegal_reward: float = MIN_VALUE,
        max_passed_out: int = MAX_PASSED_OUT,
    ) -> None:
        specs = [opponents, opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) != 2:
            raise NotationError("opponents", _("two engines, got {count}").format(count=len(specs)))
        for spec in specs:
            make_player(spec, 0)  # checked now: a bad spec is one line naming it
        if seat not in (None, 0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.specs = specs
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.max_passed_out = max_passed_out
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0, 1, (OBSERVATION_SIZE,), np.int8)
        self._seeds = random.Random()
        self._illegal = False
        self._start(self._seeds.randrange(MAX_SEED + 1))

    def _start(self, deal_seed: int) -> None:
        """A new episode from ``deal_seed``, or, when the agent would have no decision in it
        (the Master calls and claims at once, R14), from the next seed drawn."""
        self.skipped: list[int] = []
        self._deal(deal_seed)
        while self.episode.is_over:
            self.skipped.append(deal_seed)
            deal_seed = self._seeds.randrange(MAX_SEED + 1)
            self._deal(deal_seed)

    def _deal(self, deal_seed: int) -> None:
        """The episode of ``deal_seed``: the agent's person and the engines' seeds derive from it."""
        draw = random.Random(deal_seed ^ 0x5EA7)
        self.person = self.fixed_seat if self.fixed_seat is not None else draw.randrange(3)
        others = [p for p in range(3) if p != self.person]
        self.engines: dict[int, EnginePolicy] = {
            p: EnginePolicy(make_player(spec, draw.randrange(MAX_SEED + 1)))
            for p, spec in zip(others, self.specs, strict=True)
        }
        names = ["agent"] * 3
        for p, engine in self.engines.items():
            names[p] = engine.name
        self.episode = Episode.from_seed(deal_seed, names=names, max_passed_out=self.max_passed_out)
        self._illegal = False
        self._play_engines()

    def _play_engines(self) -> None:
        ep = self.episode
        while not ep.is_over and ep.current_person() != self.person:
            ep.apply(self.engines[ep.current_person()](ep))  # type: ignore[index]

    def _obs(self) -> np.ndarray:
        return observation(self.episode, self.person)

    def _info(self) -> dict[str, Any]:
        ep = self.episode
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self._illegal and ep.current_person() == self.person:
            mask[ep.legal_actions()] = 1
        info: dict[str, Any] = {"action_mask": mask, "role": ep.seat_of(self.person), "skipped": len(self.skipped)}
        if self._illegal:
            info["illegal"] = True
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """A new deal: the deal of ``seed`` (0 ≤ seed < 2**63), else of the next seed drawn."""
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(check_seed(seed))
            deal_seed = seed
        else:
            deal_seed = self._seeds.randrange(MAX_SEED + 1)
        self._start(deal_seed)
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The agent's action, then the engines' turns up to the agent's next decision or the end."""
        ep = self.episode
        if ep.is_over or self._illegal:
            raise NotationError("step", _("the episode has ended: call reset()"))
        if int(action) not in ep.legal_actions():
            self._illegal = True
            return self._obs(), self.illegal_reward, True, False, self._info()
        ep.apply(int(action))
        self._play_engines()
        if self.render_mode == "human":
            self.render()
        reward = float(ep.returns()[self.person]) if ep.is_over else 0.0
        return self._obs(), reward, ep.is_over and not ep.truncated, ep.truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a 0/1 vector (the name maskable-PPO implementations call)."""
        return self._info()["action_mask"]


def engine_policy(player: Player | str, seed: int = 0) -> Callable[[gymnasium.Env], int]:
    """A lukfu engine (``rule``, ``pimc:2``, ``ipimc``, ``medium``, …) as the agent's policy:
    given the environment (wrapped or not), the agent's next action."""
    policy = EnginePolicy(player, seed)

    def act(env: gymnasium.Env) -> int:
        return policy(env.unwrapped.episode)  # type: ignore[attr-defined]

    return act


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="lukfu_solver.env.gymnasium:LukFuSeatEnv")
