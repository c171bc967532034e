"""Rank equivalence: the moves the search may skip because an interchangeable one is searched.

:func:`equivalence_classes` finds the cards of the hand to move that no line of play can tell
apart (every card between them is gone face up, neither is in a set or run), and
:func:`reduced_moves` keeps one representative of each class (see ``docs/search.md``,
"Reductions"). Values never change; the searched tree shrinks.
"""

from __future__ import annotations

from ..cards import RANK_MASK, RUNS9, SUIT_MASK9, UNBEATABLE_LEAD
from ..plays import DISCARD, SINGLE, Play
from ..position import Position


def equivalence_classes(pos: Position) -> tuple[list[int], list[int]]:
    """Classes of interchangeable cards in the hand of the seat to move (rank equivalence).

    Two cards of one suit in one hand are interchangeable as singles when neither can take part
    in a set or a run of that hand (hands only shrink, so it never will), neither is C1 or T1
    (R8, R11), and every card between them is gone face up in a completed trick, or else (gone
    face down, or in the same hand) a higher face-down card blocks both from ever being Old: no
    card of the other hands separates them, so they beat and are beaten by the same plays, and
    each is Old exactly when the other is, never if blocked (R12). (A card of the hand between
    two unblocked ones would part them: it stays Old-eligible if the lower one is kept and later
    discarded, not if the higher one is.) Swapping them maps every line of play onto an equally
    valued one. As *discards* they differ: the kept card may become Old later, and only
    the higher one can. For a non-caller that can matter either way (Old cards raise its claim
    but R7 restricts which of its singles it may lead), so discarding them is treated as
    interchangeable only when a face-down card above already blocks both from ever becoming
    Old. For the caller, keeping the higher card *dominates*: it wins and loses the same tricks
    (no live card lies between), is Old whenever the lower one would be, and more Old cards only
    widen the caller's claims (R7 does not bind the caller; the others' Old cards do not change,
    since of the two one stays hidden and one face down either way). That holds as long as no
    card of the *other hands* lies between the two (gone cards and the caller's own may): so
    the caller's discard classes are the wider chains of :func:`_caller_chains`, and its
    discards are searched with the lowest cards of each chain only.

    Returns (single classes, discard classes), each a list of card masks with 2+ cards.
    """
    s = pos.to_move
    hand = pos.hands[s]
    busy = 0
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        if m.bit_count() >= 3:
            busy |= m
    blocked_below = 0  # per suit: cards below the highest face-down card
    down = pos.facedown
    for suit in range(4):
        shift = 9 * suit
        m9 = (hand >> shift) & SUIT_MASK9
        for run in RUNS9[m9]:
            busy |= run << shift
        d9 = (down >> shift) & SUIT_MASK9
        if d9:
            blocked_below |= ((1 << (d9.bit_length() - 1)) - 1) << shift
    caller = s == pos.caller
    others = pos.hands[(s + 1) % 3] | pos.hands[(s + 2) % 3]
    apart = others | pos.trick_cards  # cards that part two cards of a class (see the docstring)
    free = hand & ~busy & ~UNBEATABLE_LEAD  # C1 and T1 are special: always Old, unbeatable led
    singles: list[int] = []
    discards: list[int] = []
    for suit in range(4):
        shift = 9 * suit
        f = (free >> shift) & SUIT_MASK9
        if f.bit_count() < 2:
            continue
        apart9 = (apart >> shift) & SUIT_MASK9
        kept9 = ((down | hand) >> shift) & SUIT_MASK9  # between only when both are blocked
        blocked9 = (blocked_below >> shift) & SUIT_MASK9
        cls = 0
        prev = -1
        for r in range(9):
            if not f >> r & 1:
                continue
            between = ((1 << r) - 1) & ~((1 << (prev + 1)) - 1)
            if prev >= 0 and between & apart9 == 0 and (between & kept9 == 0 or blocked9 >> r & 1):
                cls |= 1 << r
            else:
                _close(cls, shift, blocked_below, singles, discards if not caller else [])
                cls = 1 << r
            prev = r
        _close(cls, shift, blocked_below, singles, discards if not caller else [])
        if caller:
            _caller_chains(f, (others >> shift) & SUIT_MASK9, shift, discards)
    return singles, discards


def _caller_chains(f9: int, others9: int, shift: int, discards: list[int]) -> None:
    """The caller's discard classes of one suit: runs of its free cards (``f9``) with no card of
    the other hands (``others9``) between neighbours. Between two such cards lie only cards that
    are gone (face up or down, or in the trick) or the caller's own: the higher card beats
    exactly the others' cards the lower one beats, is Old whenever the lower one is (and keeps
    the caller's cards between it and the lower one able to become Old), and whichever of the
    two goes face down blocks the same cards of the others (none lies between): so keeping the
    higher card dominates, and the caller's discards take the lowest cards of each chain."""
    cls = 0
    prev = -1
    for r in range(9):
        if not f9 >> r & 1:
            continue
        if prev >= 0 and (((1 << r) - 1) & ~((1 << (prev + 1)) - 1)) & others9 == 0:
            cls |= 1 << r
        else:
            if cls.bit_count() >= 2:
                discards.append(cls << shift)
            cls = 1 << r
        prev = r
    if cls.bit_count() >= 2:
        discards.append(cls << shift)


def _close(cls9: int, shift: int, blocked_below: int, singles: list[int], discards: list[int]) -> None:
    """Record a finished class of a suit (9-bit mask ``cls9`` at ``shift``) if it has two cards
    or more: always as singles, as discards only when ``blocked_below`` covers it."""
    if cls9.bit_count() < 2:
        return
    cls = cls9 << shift
    singles.append(cls)
    if cls & blocked_below == cls:
        discards.append(cls)


def reduced_moves(pos: Position) -> list[Play]:
    """The legal moves with interchangeable ones searched once (see :func:`equivalence_classes`):
    of a class of singles only the lowest card; of discards only those that take the lowest
    cards of each discard class."""
    moves = list(pos.legal_moves())
    if len(moves) < 2:
        return moves
    singles, discards = equivalence_classes(pos)
    if not singles and not discards:
        return moves
    skip = 0
    for c in singles:
        skip |= c & ~(c & -c)  # every card of the class but the lowest
    out = []
    for m in moves:
        if m.kind == SINGLE:
            if m.cards & skip:
                continue
        elif m.kind == DISCARD and discards:
            ok = True
            for c in discards:
                d = m.cards & c
                if d and d != _lowest_bits(c, d.bit_count()):
                    ok = False
                    break
            if not ok:
                continue
        out.append(m)
    return out


def _lowest_bits(mask: int, k: int) -> int:
    """The ``k`` lowest cards of ``mask``."""
    out = 0
    for _ in range(k):
        low = mask & -mask
        out |= low
        mask ^= low
    return out
