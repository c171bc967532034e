"""The random player: uniformly random legal choices (the ``random`` spec), the weakest baseline
and the source of varied games for the tests and benchmarks."""

from __future__ import annotations

import random

from ..cards import iter_cards
from ..errors import NotationError
from ..i18n import _
from ..plays import DISCARD, Play
from ..rules import beating_plays
from ..view import SeatView


class RandomPlayer:
    """A player that chooses uniformly at random among its legal choices, from its own seeded RNG.

    Calls ``play`` or ``pass`` with probability 1/2 each; leads and beating plays are drawn
    uniformly from the rules' generators; a discard is a uniformly random set of the lead's size
    drawn without listing them all.

    >>> RandomPlayer(0)(SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")).kind == DISCARD
    True
    """

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: SeatView) -> Play | str:
        rng = self.rng
        if view.caller is None:
            return "play" if rng.random() < 0.5 else "pass"
        if view.to_move != view.seat:
            raise NotationError("view", _("seat {seat} is not to move").format(seat=view.seat))
        best = view.best
        if best is None:
            return rng.choice(list(view.legal_moves()))
        beating = list(beating_plays(view.hand, best, view.best_seat == view.trick_leader))
        if beating:
            return rng.choice(beating)
        size = view.trick[0].size
        chosen = rng.sample(list(iter_cards(view.hand)), size)
        return Play(DISCARD, sum(1 << c for c in chosen), size)
