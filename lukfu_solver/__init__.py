"""lukfu_solver: the Luk Fu (Six Tigers) rules engine, notation, solver and analysis library.

The rules are those of ``RULES.md`` (R1–R17, M1–M2); the text forms those of ``NOTATION.md``,
both shipped in ``lukfu_solver/data``.
"""

from .cards import CardSet, card_name, format_cards, old_cards, parse_card, parse_cards
from .errors import NotationError
from .game import play_deal
from .plays import CLAIM_PLAY, Play
from .position import Position
from .record import GameRecord
from .rules import Outcome, payments
from .view import SeatView

__all__ = [
    "CLAIM_PLAY",
    "CardSet",
    "GameRecord",
    "NotationError",
    "Outcome",
    "Play",
    "Position",
    "SeatView",
    "card_name",
    "format_cards",
    "old_cards",
    "parse_card",
    "parse_cards",
    "payments",
    "play_deal",
]
__version__ = "0.1.0"
