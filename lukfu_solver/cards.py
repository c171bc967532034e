"""Cards and card sets (R1): one card is one bit, a card set is an ``int`` mask below 2**36.

Index of a card = suit × 9 + (rank − 1), suits Coins < Strings < Myriads < Tens, so each suit
is a 9-bit field of the mask and ``mask.bit_count()`` is a set's size.

>>> format_cards(parse_cards("s5 c9, C1 s34"))
'C19S345'
>>> card_name(parse_card("t1"))
'T1'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from .errors import NotationError
from .i18n import _
from .inputs import MAX_CARD_TEXT, check_text, excerpt

SUITS = "CSMT"
SUIT_NAMES = ("Coins", "Strings", "Myriads", "Tens")
COINS, STRINGS, MYRIADS, TENS = range(4)
RANKS = range(1, 10)
NUM_CARDS = 36
ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASK9 = 0x1FF

Card = int
"""A card is its index 0..35 (suit × 9 + rank − 1)."""
CardSet = int
"""A set of cards is an int bit mask (bit i = card index i)."""


def card(suit: int, rank: int) -> Card:
    """The card index of ``suit`` (0..3) and ``rank`` (1..9)."""
    return suit * 9 + rank - 1


def suit_of(c: Card) -> int:
    """The suit (0..3) of card index ``c``."""
    return c // 9


def rank_of(c: Card) -> int:
    """The rank (1..9) of card index ``c``."""
    return c % 9 + 1


def bit(c: Card) -> CardSet:
    """The one-card set of card ``c``."""
    return 1 << c


SUIT_MASK = tuple(SUIT_MASK9 << (9 * s) for s in range(4))
"""All cards of a suit, by suit."""
RANK_MASK = (0,) + tuple(sum(1 << card(s, r) for s in range(4)) for r in RANKS)
"""All cards of a rank, indexed by rank 1..9 (index 0 is empty)."""
ALWAYS_OLD = RANK_MASK[9] | (1 << card(COINS, 1)) | (1 << card(TENS, 1))
"""R11: the four 9s, Mau Gung (C1) and Bak Chi (T1)."""
UNBEATABLE_LEAD = (1 << card(COINS, 1)) | (1 << card(TENS, 1))
"""R8: C1 or T1 led as a single cannot be beaten."""


def iter_cards(mask: CardSet) -> Iterator[Card]:
    """The card indices of ``mask`` in ascending index order (suit-major)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_list(mask: CardSet) -> list[Card]:
    """The card indices of ``mask`` as a list, ascending."""
    return list(iter_cards(mask))


def suit_bits(mask: CardSet, suit: int) -> int:
    """The 9-bit rank field of ``suit`` in ``mask`` (bit r−1 = rank r)."""
    return (mask >> (9 * suit)) & SUIT_MASK9


# ---------------------------------------------------------------- text forms

_RANK_TEXT = tuple("".join(str(r + 1) for r in range(9) if m >> r & 1) for m in range(512))


def card_name(c: Card) -> str:
    """The canonical name of a card: ``"C1"`` … ``"T9"``."""
    return SUITS[c // 9] + str(c % 9 + 1)


def format_cards(mask: CardSet) -> str:
    """Canonical card list: suits C, S, M, T in order, ranks ascending; ``-`` when empty."""
    if not mask:
        return "-"
    parts = []
    for s in range(4):
        m9 = (mask >> (9 * s)) & SUIT_MASK9
        if m9:
            parts.append(SUITS[s] + _RANK_TEXT[m9])
    return "".join(parts)


LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic letters drawn as the notation's: typed on a Russian keyboard without switching it
        "С": "C", "с": "C", "М": "M", "м": "M", "Т": "T", "т": "T", "Ѕ": "S", "ѕ": "S", "Х": "x", "х": "x",
        # the Ç key of a Spanish keyboard, and the multiplication sign for the discard's x
        "Ç": "C", "ç": "C", "×": "x",
        # Devanagari digits, as a Hindi keyboard types them
        **{chr(0x0966 + d): str(d) for d in range(10)},
    }
)
"""The look-alike characters a person's keyboard types for the notation's letters and digits
(beside full-width Latin letters and digits, which NFKC folds; other NFKC foldings, such as
a superscript ² for 2, are no keyboard's and stay refused)."""


def typed_char(ch: str) -> str:
    """The notation's text for one character as a person types it: full-width Latin letters and
    digits (NFKC), Cyrillic С М Т Ѕ Х, the Spanish Ç, × and Devanagari digits read as C M T S x C x and
    0-9; anything else as it is.

    >>> [typed_char(c) for c in "Сｍ७×q"]
    ['C', 'm', '7', 'x', 'q']
    """
    if ch.isascii():
        return ch
    if "\uff01" <= ch <= "\uff5e":  # full-width ASCII (NFKC), not superscripts or circled digits
        return unicodedata.normalize("NFKC", ch)
    return ch.translate(LOOK_ALIKES)


def typed_text(text: str) -> str:
    """``text`` with every character read by :func:`typed_char` (``"М8"`` with a Cyrillic М is
    ``"M8"``). Parsers read the result and quote the original in their messages.

    >>> typed_text("хС２М४")
    'xC2M4'
    """
    if text.isascii():
        return text
    return "".join(typed_char(ch) for ch in text)


def parse_card(text: str, field: str = "card") -> Card:
    """Parse one card such as ``"S7"`` (case-insensitive)."""
    mask = parse_cards(text, field)
    if mask.bit_count() != 1:
        raise NotationError(field, _("expected one card, got {text}").format(text=excerpt(text)))
    return mask.bit_length() - 1


def parse_cards(text: str, field: str = "cards") -> CardSet:
    """Parse a card list (NOTATION.md): suit groups, any order, optional spaces or commas.

    Letters and digits are read as typed on the player's keyboard (:func:`typed_char`: a Cyrillic
    М is M, ७ is 7); a fault quotes the text as typed. ``-`` is the empty list. A card given twice, a rank outside 1–9, any other character (a tab
    or line break included) or a text over :data:`~lukfu_solver.inputs.MAX_CARD_TEXT` characters
    raises :class:`NotationError` naming ``field``.
    """
    check_text(text, field, MAX_CARD_TEXT)
    s = text.strip(" ")
    if s == "-":
        return 0
    if not s:
        raise NotationError(field, _("empty card list (write '-' for none)"))
    mask = 0
    suit = -1
    pending = False  # a suit letter waiting for its first rank
    for typed, ch in ((t, c) for t in s for c in typed_char(t)):  # a fault quotes ``typed``, never its reading
        if ch in " ,":
            continue
        pos = SUITS.find(ch.upper()) if len(ch.upper()) == 1 else -1
        if pos >= 0:
            if pending:
                raise NotationError(
                    field, _("suit {suit} has no rank in {text}").format(suit=SUITS[suit], text=excerpt(text))
                )
            suit, pending = pos, True
        elif ch in "123456789":
            if suit < 0:
                raise NotationError(field, _("rank {rank} has no suit in {text}").format(rank=typed, text=excerpt(text)))
            b = 1 << (suit * 9 + int(ch) - 1)
            if mask & b:
                raise NotationError(
                    field, _("card {card} given twice in {text}").format(card=f"{SUITS[suit]}{ch}", text=excerpt(text))
                )
            mask |= b
            pending = False
        elif ch == "0":
            raise NotationError(field, _("bad rank 0 in {text} (ranks are 1-9)").format(text=excerpt(text)))
        else:
            raise NotationError(field, _("bad character {char} in {text}").format(char=repr(typed), text=excerpt(text)))
    if pending:
        raise NotationError(field, _("suit {suit} has no rank in {text}").format(suit=SUITS[suit], text=excerpt(text)))
    return mask


# ---------------------------------------------------------------- precomputed suit tables


def _runs9(m9: int) -> tuple[int, ...]:
    """Every run (3+ consecutive ranks) contained in a 9-bit rank mask, as 9-bit masks."""
    out = []
    for lo in range(9):
        for hi in range(lo + 2, 9):
            run = ((1 << (hi - lo + 1)) - 1) << lo
            if m9 & run == run:
                out.append(run)
            else:
                break
    return tuple(out)


RUNS9 = tuple(_runs9(m) for m in range(512))
"""RUNS9[m9]: all runs contained in the 9-bit rank mask m9 (lowest start first, then length)."""


def _old_ranks9(known9: int) -> int:
    """Ranks r such that every higher rank of the suit is in ``known9`` (R12), as a 9-bit mask."""
    out = 0
    for r in range(8, -1, -1):
        out |= 1 << r
        if not known9 >> r & 1:
            break
    return out


OLD_RANKS9 = tuple(_old_ranks9(m) for m in range(512))
"""OLD_RANKS9[known9]: the ranks that are Old for a holder who knows the cards known9 of a suit."""
ABOVE_IN_SUIT = tuple((1 << ((c // 9 + 1) * 9)) - (1 << (c + 1)) for c in range(NUM_CARDS))
"""ABOVE_IN_SUIT[c]: the cards of card ``c``'s suit above it (``mask & ABOVE_IN_SUIT[c]`` is
``rules.higher_in_suit(mask, c)``, by table)."""


def old_cards(hand: CardSet, faceup: CardSet) -> CardSet:
    """The Old cards of ``hand`` for its holder (R11–R13), given the cards played face up.

    A card is Old when it is a 9, C1 or T1, or when every higher card of its suit is in the
    hand or face up. Face-down discards never count (R12).

    >>> format_cards(old_cards(parse_cards("C78S9M5"), parse_cards("C9")))
    'C78S9'
    """
    known = hand | faceup
    old = ALWAYS_OLD
    for s in range(4):
        old |= OLD_RANKS9[(known >> (9 * s)) & SUIT_MASK9] << (9 * s)
    return hand & old
