"""Plays (R5, R8, R9, R14): single, set, run, face-down discard and claim as small immutable values.

A play is a :class:`Play` named tuple ``(kind, cards, size)``. ``cards`` is the card mask; for a
discard whose cards are hidden (another seat's, in a seat view) it is 0 and only ``size`` is known.

>>> p = Play.parse("s345")
>>> p.kind == RUN, str(p)
(True, 'S345')
>>> str(Play.parse("x2")), str(Play.parse("xm4c2")), str(CLAIM_PLAY)
('x2', 'xC2M4', 'claim')
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import RANK_MASK, RUNS9, SUIT_MASK9, UNBEATABLE_LEAD, CardSet, format_cards, parse_cards, typed_text
from .errors import NotationError
from .i18n import _
from .inputs import MAX_CARD_TEXT, MAX_DIGITS, check_text, excerpt

SINGLE, SET, RUN, DISCARD, CLAIM = range(5)
KIND_NAMES = ("single", "set", "run", "discard", "claim")


class Play(NamedTuple):
    """One move: ``kind`` (SINGLE, SET, RUN, DISCARD, CLAIM), ``cards`` (mask), ``size`` (cards)."""

    kind: int
    cards: CardSet
    size: int

    def __str__(self) -> str:
        if self.kind == CLAIM:
            return "claim"
        if self.kind == DISCARD:
            return "x" + (format_cards(self.cards) if self.cards else str(self.size))
        return format_cards(self.cards)

    @property
    def face_up(self) -> bool:
        """True for a single, set or run (cards shown); False for a discard or a claim."""
        return self.kind <= RUN

    @property
    def hidden(self) -> bool:
        """True for a discard whose cards are not known (``x2`` in a seat view)."""
        return self.kind == DISCARD and not self.cards and self.size > 0

    @property
    def rank(self) -> int:
        """Rank of a set, top rank of a run, rank of a single (0 for other kinds)."""
        if self.kind > RUN:
            return 0
        top = self.cards.bit_length() - 1
        return top % 9 + 1

    @property
    def suit(self) -> int:
        """Suit of a single or run (its highest card's suit for a set; −1 for other kinds)."""
        if self.kind > RUN:
            return -1
        return (self.cards.bit_length() - 1) // 9

    def sort_key(self) -> tuple[int, int, int, int, int]:
        """The canonical order of moves: claim, singles, sets, runs, discards; then size, rank, cards."""
        order = (1, 2, 3, 4, 0)[self.kind]
        first = (self.cards & -self.cards).bit_length()
        return (order, self.size, self.rank if self.kind == SET else 0, first, self.cards)

    @classmethod
    def parse(cls, text: str, field: str = "play") -> Play:
        """Parse a play as NOTATION.md writes it: a card list, ``x`` + cards or count, ``claim``.

        The text is checked like a card list (printable, at most
        :data:`~lukfu_solver.inputs.MAX_CARD_TEXT` characters); a discard count of any length
        is refused cleanly when it is outside 1–12. Letters and digits are read as the player's
        keyboard types them (:func:`~lukfu_solver.cards.typed_text`: ``хС2`` with Cyrillic letters
        is ``xC2``); a fault quotes the text as typed.
        """
        check_text(text, field, MAX_CARD_TEXT)
        s = text.strip(" ")
        low = typed_text(s).lower()
        if low == "claim":
            return CLAIM_PLAY
        if low.startswith("x"):
            rest = s[1:].strip(" ")
            digits = typed_text(rest)
            if digits.isascii() and digits.isdigit():
                n = int(digits) if len(digits) <= MAX_DIGITS else None  # never int() of a huge digit string
                if n is None or not 1 <= n <= 12:
                    shown = n if n is not None else f"of {len(digits):,} digits"
                    raise NotationError(
                        field, _("discard count {n} outside 1-12 in {text}").format(n=shown, text=excerpt(text))
                    )
                return Play(DISCARD, 0, n)
            if not rest:
                raise NotationError(field, _("discard {text} names no cards and no count").format(text=excerpt(text)))
            mask = parse_cards(rest, field)
            if not mask:
                raise NotationError(field, _("discard {text} names no cards and no count").format(text=excerpt(text)))
            return Play(DISCARD, mask, mask.bit_count())
        if not s:
            raise NotationError(field, _("empty play"))
        mask = parse_cards(s, field)
        kind = classify(mask)
        if kind < 0:
            raise NotationError(
                field,
                _("{cards} is not a single, a set (3-4 of a rank) or a run (3+ in suit)").format(
                    cards=format_cards(mask)
                ),
            )
        return Play(kind, mask, mask.bit_count())


CLAIM_PLAY = Play(CLAIM, 0, 0)
"""The claim of victory (R14)."""


def classify(mask: CardSet) -> int:
    """The kind of a face-up card group: SINGLE, SET or RUN (R5), or −1 if it is none of them."""
    n = mask.bit_count()
    if n == 1:
        return SINGLE
    if n < 3:
        return -1
    rank = (mask.bit_length() - 1) % 9 + 1
    if n <= 4 and mask & RANK_MASK[rank] == mask:
        return SET
    suit = (mask.bit_length() - 1) // 9
    m9 = (mask >> (9 * suit)) & SUIT_MASK9
    if m9 << (9 * suit) == mask and m9 in RUNS9[m9]:
        return RUN
    return -1


def make_play(kind: int, cards: CardSet) -> Play:
    """A face-up play or known discard of ``cards`` (no checks: the move generator's constructor)."""
    return Play(kind, cards, cards.bit_count())


def beats(play: Play, best: Play, best_led: bool) -> bool:
    """True when ``play`` beats ``best``, the current best play of a trick (R8).

    ``best_led`` says whether ``best`` is the lead (a led C1/T1 single and a led set of 1s are
    special). Discards and claims never beat.

    >>> beats(Play.parse("S7"), Play.parse("S5"), True), beats(Play.parse("S9"), Play.parse("C1"), True)
    (True, False)
    """
    if play.kind != best.kind or play.size != best.size or play.kind > RUN:
        return False
    if play.kind == SINGLE:
        if best_led and best.cards & UNBEATABLE_LEAD:
            return False
        return play.suit == best.suit and play.rank > best.rank
    if play.kind == SET:
        if best_led and best.rank == 1:
            return play.rank == 9
        return play.rank > best.rank
    # runs: same length (checked), same suit with a higher top, or any higher suit
    return play.suit > best.suit or (play.suit == best.suit and play.rank > best.rank)
