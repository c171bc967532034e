"""Seeded test positions for the solver, its tests and benchmarks.

Every position is a pure function of its seed (and arguments), the same in every process:

- :func:`random_endgame` deals at random, draws a caller and plays random legal moves (never a
  claim) up to a trick boundary where each seat holds ``cards`` cards;
- :func:`full_deal` is the 12-card position of a seeded deal right after calling.

>>> pos = random_endgame(0, 6)
>>> pos.cards_per_hand(), pos.trick, pos == random_endgame(0, 6)
(6, (), True)
>>> full_deal(3, caller=2).caller, str(full_deal(3, 1)).split()[1:]
(2, ['0', '1', '0,0,0', '-', '-'])
>>> str(random_endgame(5, 12)) == str(full_deal(5))
True
"""

from __future__ import annotations

import random

from .errors import NotationError
from .game import deal_hands
from .i18n import _
from .plays import CLAIM, Play
from .position import HAND_SIZE, Position

MAX_ATTEMPTS = 1000
"""random_endgame gives up after this many deals that ended before reaching the target size."""


def _deal_and_caller(rng: random.Random, caller: int | None) -> tuple[Position, int]:
    hands = deal_hands(rng)
    drawn = rng.randrange(3)
    chosen = drawn if caller is None else caller
    return Position.start(hands, chosen), chosen


def full_deal(seed: int, caller: int | None = None) -> Position:
    """The position before the first lead of the deal of ``seed`` (R2–R4).

    The hands are ``deal_hands(random.Random(seed))``; the caller is then drawn from the same
    generator unless ``caller`` is given, so the three callers of one seed share its hands.
    """
    if caller is not None and caller not in (0, 1, 2):
        raise NotationError("caller", _("a seat is 0, 1 or 2, got {caller}").format(caller=caller))
    pos, _caller = _deal_and_caller(random.Random(seed), caller)
    return pos


def random_endgame(seed: int, cards: int) -> Position:
    """A position at a trick boundary with ``cards`` cards a hand, reached by random legal play.

    From ``random.Random(seed)``: the deal, the caller, then uniformly random legal moves (in
    canonical order, claims skipped) until each seat holds ``cards`` cards with no trick in
    progress. Should a deal end first, the same generator deals again, so the result is still a
    function of the seed alone.
    """
    if not 0 <= cards <= HAND_SIZE:
        raise NotationError(
            "cards", _("cards a hand must be 0-{size}, got {cards}").format(size=HAND_SIZE, cards=cards)
        )
    rng = random.Random(seed)
    for _attempt in range(MAX_ATTEMPTS):
        pos, _caller = _deal_and_caller(rng, None)
        while not pos.is_over and (pos.trick or pos.hands[0].bit_count() > cards):
            moves = sorted((m for m in pos.legal_moves() if m.kind != CLAIM), key=Play.sort_key)
            if not moves:
                break
            pos.push(rng.choice(moves))
        if not pos.trick and pos.hands[0].bit_count() == cards and (cards == 0 or not pos.is_over):
            return pos.copy()
    raise NotationError(
        "seed",
        _("no deal of seed {seed} reached {cards} cards a hand in {attempts} attempts").format(
            seed=seed, cards=cards, attempts=MAX_ATTEMPTS
        ),
    )
