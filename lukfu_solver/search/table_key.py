"""The transposition table's keys: :func:`tt_key`, the Zobrist key of a position's canonical form,
and :func:`last_key`, the key of the last player to a trick after the second player's discard.

Both searches key their table so (the compiled kernel computes the same integers in
``kernel/state.py``). The canonical form (:func:`canonical_hands`) slides free cards and runs
down over gone cards and splits the gone cards into face up and face down canonically, keeping
every card's beats, sets, runs and Old (R5, R8, R12) as they were, so positions that differ only
in that share one entry (``docs/search.md``, "The transposition table").
"""

from __future__ import annotations

from ..cards import ALL_CARDS, RANK_MASK, SUIT_MASK9, UNBEATABLE_LEAD, CardSet
from ..plays import DISCARD
from ..position import Z_FACEUP, Z_HAND, Z_TRICK_DOWN, Position, zmask
from ..rules import can_beat

Z_LAST = 0x5A3C6E1F0B9D2748
"""Mixed into :func:`last_key`'s keys, so that they never meet :func:`tt_key`'s."""


def _below_top9(m9: int) -> int:
    """The ranks of a suit below the highest rank of ``m9`` (0 when ``m9`` is empty)."""
    return (1 << (m9.bit_length() - 1)) - 1 if m9 else 0


BELOW_TOP9 = tuple(_below_top9(m) for m in range(512))
"""Per 9-bit rank mask: the ranks below its highest one (:func:`tt_key`, the blocked cards)."""


def blocked_cards(pos: Position) -> CardSet:
    """The cards in hands that a face-down discard of a completed trick keeps from ever being
    Old (R12): those below the highest such discard of their suit."""
    return _blocked(pos.hands[0] | pos.hands[1] | pos.hands[2], pos.facedown)


def _blocked(live: CardSet, down: CardSet) -> CardSet:
    """The cards of ``live`` below the highest card of ``down`` of their suit."""
    return (
        (live & BELOW_TOP9[down & SUIT_MASK9])
        | (live & (BELOW_TOP9[(down >> 9) & SUIT_MASK9] << 9))
        | (live & (BELOW_TOP9[(down >> 18) & SUIT_MASK9] << 18))
        | (live & (BELOW_TOP9[down >> 27] << 27))
    )


def tt_key(pos: Position) -> int:
    """The table key: the Zobrist key of the position's canonical form (:func:`canonical_hands`:
    cards slid down over gone cards), with the completed tricks' face-up cards replaced by the
    cards in hands they leave blocked (:func:`blocked_cards`).

    The cards of completed tricks are gone; whether one went face up or face down matters only
    through Old (R12): a card in a hand is Old for its holder when no other hand and no
    face-down card holds a higher one of its suit. For the cards in hands that is decided, per
    suit, by the highest face-down discard alone (every card below it is blocked, every card
    above it sees only face-up cards), and the hands only shrink and later discards are common
    to both lines, so two positions with the same hands, trick, fu and seat to move and the
    same blocked cards are the same game for ever: they share one entry. The gone cards are
    known from the hands and the trick, so the blocked cards stand for the split.
    """
    hands, down = canonical_hands(pos)
    return _canonical_key(pos, pos.key, hands, down)


def _canonical_key(pos: Position, key: int, hands: list[int], down: int) -> int:
    """``key`` (the position's Zobrist key, or :func:`last_key`'s start) with the hands made
    ``hands`` and the face-up cards replaced by the cards in ``hands`` that ``down`` blocks."""
    key ^= zmask(Z_FACEUP, pos.faceup)
    for s in range(3):
        if hands[s] != pos.hands[s]:
            key ^= zmask(Z_HAND[s], hands[s] ^ pos.hands[s])
    return key ^ zmask(Z_FACEUP, _blocked(hands[0] | hands[1] | hands[2], down))


def last_key(pos: Position) -> int | None:
    """The table key of the last player to a trick who can only discard, after the second
    player's discard (None elsewhere): :func:`tt_key` with that discard taken as already gone
    face down.

    The discard wins nothing and is never seen again; what it leaves behind is only that its
    cards are gone and block the cards below them (R12), as they will once the trick is over.
    The last player's moves are every discard of as many cards as the lead, whatever the second
    put down, and the lead wins. So two such positions whose hands, lead, fu and blocked cards
    agree once the discard counts as gone are the same game: the positions after the trick, for
    each discard of the last player, are the same (``tt_key``'s canonical form, with the
    discard's cards gone too). Many discards of the second player lead to one such position, so
    its entry decides the last player's node for them all (``tests/test_search_table_key.py`` proves the
    merge where it applies)."""
    trick = pos.trick
    if len(trick) != 2 or trick[1].kind != DISCARD:
        return None
    if can_beat(pos.hands[pos.to_move], trick[0], True):
        return None
    gone = trick[1].cards
    hands, down = _canonical(list(pos.hands), pos.facedown | gone, pos.trick_cards & ~gone)
    key = pos.key ^ zmask(Z_TRICK_DOWN[(pos.leader + 1) % 3], gone) ^ Z_LAST
    return _canonical_key(pos, key, hands, down)


RANK1 = 0x201 | (0x201 << 18)
"""The rank-1 cards of every suit (bits 0, 9, 18 and 27): no card slides below them."""


def _free(hand: int, card: int) -> bool:
    """Whether ``card`` of ``hand`` is in no set (three or more of its rank) and no run (three or
    more consecutive ranks of its suit) of that hand."""
    bit = card.bit_length() - 1
    rank_cards = hand & RANK_MASK[bit % 9 + 1]
    if rank_cards.bit_count() >= 3:
        return False
    m9 = (hand >> (bit - bit % 9)) & SUIT_MASK9
    starts = m9 & (m9 >> 1) & (m9 >> 2)
    return not (starts | starts << 1 | starts << 2) >> (bit % 9) & 1


def canonical_hands(pos: Position) -> tuple[list[int], int]:
    """The position's canonical form, (hands, face-down cards of completed tricks): every card
    that can *slide* moved down over the gone cards below it, the relative ranks of the bridge
    solvers kept exact for sets, runs, C1 and T1.

    A card x of a hand slides to a lower place x' of its suit (x goes where x' was, x' where
    x was) when it is in no set and no run of its hand in either place (it is *free*: hands only
    shrink, so it never will be), x' is not the place of C1 or T1, and only cards gone in
    completed tricks lie between: it then beats and is beaten by the same live cards. It is Old
    exactly when x' would be, and leaves every other card's Old as it was (a card below sees x
    or x' above it, neither face up), in two cases. First the *blocked* cards (below the
    highest face-down card of their suit, never Old): they slide over any gone cards. Then,
    with the gone cards split canonically (:func:`tt_key`: only the lowest gone card above the
    highest blocked card face down, the others face up, which blocks the same cards), the
    others slide over face-up cards: every card above x' but x is then face up. Every line of
    play of one position is a line of the other with x for x', of equal value. The cards are
    taken in order of their bit (suit by suit, low ranks first), each slid when it can on what
    the cards before it left, so the result is a function of the position and equivalent to it.
    In each case whole runs then slide as blocks (:func:`_slide_runs`), and singles and runs
    again while a run moved.
    """
    return _canonical(list(pos.hands), pos.facedown, pos.trick_cards)


def _canonical(hands: list[int], down: int, trick_cards: int) -> tuple[list[int], int]:
    """:func:`canonical_hands` of a position with these hands, face-down cards of completed
    tricks and cards in the trick (``hands`` is changed in place and returned)."""
    live = hands[0] | hands[1] | hands[2]
    blocked = _blocked(live, down)
    gone = ALL_CARDS & ~live & ~trick_cards
    if blocked:
        while True:  # singles, then runs, again while a run moved (it may free a single's way down)
            gone = _slide(hands, gone, blocked)
            after = _slide_runs(hands, gone, blocked)
            if after == gone:
                break
            gone = after
            blocked = _blocked(hands[0] | hands[1] | hands[2], down)
        live = hands[0] | hands[1] | hands[2]
        blocked = _blocked(live, down)
    cdown = 0
    for shift in (0, 9, 18, 27):
        if not (down >> shift) & SUIT_MASK9:
            continue
        below = (blocked >> shift) & SUIT_MASK9
        above = ((gone >> shift) & SUIT_MASK9) & ~((1 << below.bit_length()) - 1)
        cdown |= (above & -above) << shift
    over = gone & ~cdown
    while True:
        over = _slide(hands, over, live & ~blocked)
        after = _slide_runs(hands, over, live & ~blocked)
        if after == over:
            return hands, cdown
        over = after
        live = hands[0] | hands[1] | hands[2]


def _slide(hands: list[int], over: int, movable: int) -> int:
    """Slide the free cards of ``movable`` down over the cards of ``over`` (:func:`canonical_hands`),
    in place; returns ``over`` as the slides leave it."""
    done = 0
    while True:
        cand = movable & (over << 1) & ~RANK1 & ~done
        if not cand:
            return over
        x = cand & -cand
        done |= (x << 1) - 1
        s = 0 if hands[0] & x else (1 if hands[1] & x else 2)
        hand = hands[s]
        if not _free(hand, x):
            continue
        low = x
        while not low & RANK1 and (low >> 1) & over:
            low >>= 1
        while low != x and (low & UNBEATABLE_LEAD or not _free(hand ^ x ^ low, low)):
            low <<= 1  # the lowest place that keeps the card free and is not that of C1 or T1
        if low == x:
            continue
        hands[s] = hand ^ x ^ low
        over ^= x ^ low


def _in_no_set(hand: int, cards: int) -> bool:
    """Whether no card of ``cards`` is in a set (three or more of its rank) of ``hand``."""
    while cards:
        x = cards & -cards
        cards ^= x
        if (hand & RANK_MASK[(x.bit_length() - 1) % 9 + 1]).bit_count() >= 3:
            return False
    return True


def _slide_runs(hands: list[int], over: int, movable: int) -> int:
    """Slide every maximal run (three or more consecutive cards of a suit in one hand, all in
    ``movable``) down over the cards of ``over`` below it as one block (:func:`canonical_hands`),
    in place; returns ``over`` as the slides leave it.

    The block keeps its length and its order against every live card (only cards of ``over``
    lie between its places), and it stays a maximal run: its new bottom is never just above a
    card of its hand, nor the place of C1 or T1. Its cards are in no set of the hand in either
    place. The gone cards it passes take the places it left, in the same order."""
    for s in range(3):
        for shift in (0, 9, 18, 27):
            m9 = (hands[s] >> shift) & SUIT_MASK9
            r = 0
            while r < 9:
                if not m9 >> r & 1:
                    r += 1
                    continue
                top = r
                while top + 1 < 9 and m9 >> (top + 1) & 1:
                    top += 1
                lo, length = r, top - r + 1
                r = top + 1
                block = ((1 << length) - 1) << (lo + shift)
                if length < 3 or block & ~movable:
                    continue
                b = lo
                while b > 0 and (over >> (b - 1 + shift)) & 1:
                    b -= 1
                hand = hands[s]
                while b < lo:
                    new = ((1 << length) - 1) << (b + shift)
                    moved = hand ^ block ^ new
                    below_ok = b == 0 or not (moved >> (b - 1 + shift)) & 1
                    if (
                        below_ok
                        and not new & UNBEATABLE_LEAD
                        and _in_no_set(hand, block)
                        and _in_no_set(moved, new)
                    ):
                        break
                    b += 1
                if b == lo:
                    continue
                new = ((1 << length) - 1) << (b + shift)
                hands[s] = hand ^ block ^ new
                over ^= block ^ new
                m9 = (hands[s] >> shift) & SUIT_MASK9
    return over
