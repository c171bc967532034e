"""Luk Fu as an OpenSpiel game. Importing this module registers ``python_luk_fu``:
``pyspiel.load_game("python_luk_fu")``.

Three players (the persons of :mod:`.episode`), sequential, imperfect information, zero-sum,
terminal rewards: the net points of the deal (R15–R17), −14 to 14. Each deal is dealt by chance
nodes: first the Master (3 outcomes, R2), then the 36 cards one at a time (uniform over the cards
left; cards 1–12 go to the Master, 13–24 to seat 1, 25–36 to seat 2). Players act with the 40
actions of :mod:`.actions`. Three passes deal again (R3); after ``max_passed_out`` passed-out
deals (a parameter, default :data:`~lukfu_solver.record.MAX_PASSED_OUT`) the game ends with 0
for all.

Information-state and observation tensors and strings come from :mod:`.observation` (the
information state: perfect recall within the deal; the strings: the seat view in NOTATION
form). A state offers lukfu's objects too: ``state.record()``, ``state.exact_values()``,
``state.sample_worlds(n, seed)``; :class:`EngineBot` makes a lukfu engine a ``pyspiel.Bot``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_luk_fu")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as error:  # the research extra is not installed
    raise ImportError(f"{__name__} needs open-spiel: pip install 'lukfu[research]' ({error})") from error

from ..cards import card_name, format_cards
from ..errors import NotationError
from ..i18n import _
from ..players import Player
from ..plays import DISCARD
from ..record import MAX_PASSED_OUT
from ..search import MAX_VALUE, MIN_VALUE
from .actions import NUM_ACTIONS, action_name
from .episode import Episode
from .observation import (
    INFORMATION_STATE_BLOCKS,
    OBSERVATION_BLOCKS,
    PRIVATE_BLOCKS,
    fill,
    information_state_text,
    layout,
    observation_text,
)
from .oracle import LukfuObjects
from .policies import EnginePolicy
from .render import table_text

GAME_NAME = "python_luk_fu"
PLAY_ACTIONS_MOST = 36 + 36 + 1
"""The most actions of a play phase: every card, a FINISH for each play, a claim."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Luk Fu (Six Tigers)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"max_passed_out": MAX_PASSED_OUT},
)


def _game_info(max_passed_out: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=36,
        num_players=3,
        min_utility=float(MIN_VALUE),
        max_utility=float(MAX_VALUE),
        utility_sum=0.0,
        max_game_length=3 * max_passed_out + 3 + PLAY_ACTIONS_MOST,
    )


class LukFuGame(pyspiel.Game):
    """The game ``python_luk_fu`` (see the module doc)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.max_passed_out = int(params.get("max_passed_out", MAX_PASSED_OUT))
        if not 1 <= self.max_passed_out <= MAX_PASSED_OUT:
            raise ValueError(f"max_passed_out must be 1-{MAX_PASSED_OUT}, got {self.max_passed_out}")
        super().__init__(_GAME_TYPE, _game_info(self.max_passed_out), params)

    def new_initial_state(self) -> LukFuState:
        """The state before the first deal's chance nodes."""
        return LukFuState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> LukFuObserver:
        """An observer of the information state (``perfect_recall``) or the observation."""
        return LukFuObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class LukFuState(LukfuObjects, pyspiel.State):
    """A state of the game: an :class:`~.episode.Episode` and the chance nodes of the deal in progress."""

    def __init__(self, game: LukFuGame) -> None:
        super().__init__(game)
        self.episode = Episode(None, max_passed_out=game.max_passed_out)
        self._master: int | None = None
        self._dealt: list[int] = []

    def current_player(self) -> int:
        """The person to act, CHANCE while dealing, TERMINAL at the end."""
        ep = self.episode
        if ep.is_over:
            return pyspiel.PlayerId.TERMINAL
        if ep.phase == "deal":
            return pyspiel.PlayerId.CHANCE
        person = ep.current_person()
        assert person is not None
        return person

    def _legal_actions(self, player: int) -> list[int]:
        return self.episode.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The Master (3 persons), then each card of those not dealt yet, uniformly."""
        if self._master is None:
            return [(p, 1 / 3) for p in range(3)]
        taken = 0
        for c in self._dealt:
            taken |= 1 << c
        left = [c for c in range(36) if not taken >> c & 1]
        return [(c, 1 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if not self.is_chance_node():
            self.episode.apply(action)
            return
        if self._master is None:
            self._master = action
            return
        self._dealt.append(action)
        if len(self._dealt) == 36:
            hands = [0, 0, 0]
            for i, c in enumerate(self._dealt):
                hands[i // 12] |= 1 << c
            self.episode.deal((hands[0], hands[1], hands[2]), self._master)
            self._master, self._dealt = None, []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Master p{action}" if self._master is None else f"deal {card_name(action)}"
        return action_name(action)

    def is_terminal(self) -> bool:
        """Whether the deal has a result, or the game was passed out ``max_passed_out`` times."""
        return self.episode.is_over

    def returns(self) -> list[float]:
        """The net points of players 0, 1, 2 (R15–R17); zeros until the end."""
        return [float(x) for x in self.episode.returns()]

    def __str__(self) -> str:
        if self.episode.phase == "deal":
            master = "-" if self._master is None else f"p{self._master}"
            return f"dealing: Master {master}, cards {' '.join(card_name(c) for c in self._dealt) or '-'}"
        return table_text(self.episode)

    def dealt_so_far(self, player: int) -> str:
        """The cards dealt to ``player`` so far, while the chance nodes deal."""
        if self._master is None:
            return "-"
        seat = (player - self._master) % 3
        return format_cards(sum(1 << c for i, c in enumerate(self._dealt) if i // 12 == seat))


class LukFuObserver:
    """OpenSpiel's observer: the tensor and string of the information state (``perfect_recall``)
    or of the observation, with the private blocks, the public ones or both as the type asks."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        blocks = INFORMATION_STATE_BLOCKS if self.perfect_recall else OBSERVATION_BLOCKS
        kept = tuple((name, size) for name, size in blocks if (self.private if name in PRIVATE_BLOCKS else self.public))
        self._where = layout(kept)
        self.tensor = np.zeros(sum(size for _, size in kept), np.float32)
        self.dict = {name: self.tensor[at : at + size] for name, (at, size) in self._where.items()}

    def set_from(self, state: LukFuState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        self.tensor.fill(0)
        fill(self.tensor, self._where, state.episode, player, self.private)

    def string_from(self, state: LukFuState, player: int) -> str:
        """``player``'s view of ``state`` as text (the seat view for the information state)."""
        ep = state.episode
        if ep.phase == "deal":
            mine = state.dealt_so_far(player) if self.private else "?"
            return f"p{player} dealing {mine}"
        if not self.private:
            return f"p{player} " + table_public(ep)
        return information_state_text(ep, player) if self.perfect_recall else observation_text(ep, player)


def table_public(ep: Episode) -> str:
    """What every player sees: the calls and every face-up play, by lukfu seat."""
    plays = ",".join(str(p) if p.kind != DISCARD else f"x{p.size}" for p in ep.plays) or "-"
    return f"calls {','.join(ep.calls) or '-'} plays {plays}"


class EngineBot(pyspiel.Bot):
    """A lukfu engine (``rule``, ``pimc:2``, ``ipimc``, ``medium``, …) as an OpenSpiel bot for
    ``player_id``: ``step(state)`` returns its next action (the engine sees its seat view only)."""

    def __init__(self, player: Player | str, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.policy = EnginePolicy(player, seed)
        self.player_id = player_id

    def step(self, state: LukFuState) -> int:
        """The next action of the engine's player in ``state``."""
        if state.current_player() != self.player_id:
            raise NotationError("state", _("seat {seat} is not to move").format(seat=self.player_id))
        return self.policy(state.episode)

    def restart_at(self, state: LukFuState) -> None:
        """Nothing to forget: the engine reads its seat view at each decision."""

    def inform_action(self, state: LukFuState, player_id: int, action: int) -> None:
        """Other players' actions need no bookkeeping."""

    def provides_policy(self) -> bool:
        """The bot plays; it gives no action distribution."""
        return False


pyspiel.register_game(_GAME_TYPE, LukFuGame)
