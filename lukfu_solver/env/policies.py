"""lukfu's engine players as policies of the action scheme: an engine answers a whole call or
play for its seat view, and :class:`EnginePolicy` gives that answer's actions one at a time.

>>> from lukfu_solver.env.episode import Episode
>>> ep, rule = Episode.from_seed(3), EnginePolicy("rule")
>>> while not ep.is_over:
...     ep.apply(rule(ep))
>>> from lukfu_solver.game import play_deal
>>> from lukfu_solver.players import make_player
>>> ep.record().plays == play_deal([make_player("rule")] * 3, seed=3).plays
True
"""

from __future__ import annotations

from ..errors import NotationError
from ..i18n import _
from ..players import Player, make_player
from .episode import Episode


class EnginePolicy:
    """An engine (a :func:`~lukfu_solver.players.make_player` spec such as ``rule``, ``pimc:2``,
    ``ipimc``, ``medium``, or any player) acting through the action scheme: called with an
    episode, it returns the next action of the person to act. The engine is asked once a
    decision, on that person's seat view, exactly as ``game.play_deal`` asks it."""

    def __init__(self, player: Player | str, seed: int = 0) -> None:
        self.player: Player = make_player(player, seed) if isinstance(player, str) else player
        self.name = str(getattr(self.player, "name", "engine"))
        self._key: tuple[object, ...] | None = None
        self._actions: list[int] = []

    def __call__(self, ep: Episode) -> int:
        pos = ep.pos
        key = (id(ep), ep.deals, ep.hands, len(ep.calls), len(ep.plays), None if pos is None else pos.key)
        if key != self._key:
            if ep.chosen:
                raise NotationError("policy", _("an engine plays a whole play: cards are already chosen"))
            if ep.current_person() is None:
                raise NotationError("policy", _("no seat is to act (phase {phase})").format(phase=ep.phase))
            self._actions = ep.actions_for(self.player(ep.view()))
            self._key = key
        return self._actions[ep.chosen.bit_count()]
