"""What a person sees of an episode, as the fixed-size 0/1 vectors and the text the research
environments hand out: the **observation** (the table as it stands, PettingZoo's and Gymnasium's
observation, OpenSpiel's observation tensor) and the **information state** (the observation and
every play of the deal in order: OpenSpiel's information-state tensor, perfect recall within the
deal).

Seats are relative to the observer: 0 is the observer, 1 the next to play after it, 2 the one
before it. Every block is 0/1. The layout, block by block (:data:`OBSERVATION_BLOCKS`):

=================  ======  ==============================================================
block              size    one when
=================  ======  ==============================================================
hand               36      the observer holds the card (index ``cards.py``'s, C1 = 0 … T9 = 35)
chosen             36      the card is chosen for the play being built (actions.py)
old                36      the card of the hand is Old for the observer (R11–R13)
own_discards       36      the observer discarded the card face down this deal
played             3 × 36  the relative seat played the card face up this deal
trick              3 × 36  … in the trick in progress
trick_discard      3       the relative seat discarded face down in the trick in progress
best               3       the relative seat's play is the trick's current best (R8)
fu                 3 × 13  the relative seat has won that many fu (one-hot 0–12)
hidden_discards    3 × 13  the relative seat has that many cards face down (one-hot 0–12)
role               3       the observer's lukfu seat: Master, seat 1, seat 2 (R2)
caller             3       the relative seat called ``play`` (R3; all zero before)
passed             3       the relative seat passed this deal
phase              3       calling, leading, following
to_act             3       the relative seat acts next
can_claim          1       the observer may claim now (R14)
passed_master      1       R6 binds the observer (the Master, another seat called)
=================  ======  ==============================================================

The information state adds ``history``: 36 slots, one a play in order (a claim excluded), each
3 (the relative seat) + 36 (the cards of a face-up play, or of the observer's own discard) + 1
(a face-down discard). Deals passed out before (R3) are left out of both: nothing after a
redeal depends on them.

>>> from lukfu_solver.env.episode import Episode
>>> ep = Episode.from_seed(7)
>>> obs = observation(ep, 0)
>>> obs.shape, OBSERVATION_SIZE, INFORMATION_STATE_SIZE, int(obs[:36].sum())
((461,), 461, 1901, 12)
"""

from __future__ import annotations

import numpy as np

from ..cards import format_cards, old_cards
from ..plays import DISCARD
from ..view import HAND_SIZE
from .episode import Episode

PRIVATE_BLOCKS = ("hand", "chosen", "old", "own_discards", "can_claim")
"""The blocks only the observer knows (OpenSpiel's private information)."""
OBSERVATION_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", 36),
    ("chosen", 36),
    ("old", 36),
    ("own_discards", 36),
    ("played", 3 * 36),
    ("trick", 3 * 36),
    ("trick_discard", 3),
    ("best", 3),
    ("fu", 3 * (HAND_SIZE + 1)),
    ("hidden_discards", 3 * (HAND_SIZE + 1)),
    ("role", 3),
    ("caller", 3),
    ("passed", 3),
    ("phase", 3),
    ("to_act", 3),
    ("can_claim", 1),
    ("passed_master", 1),
)
HISTORY_SLOTS = 36
HISTORY_SLOT_SIZE = 3 + 36 + 1
INFORMATION_STATE_BLOCKS = OBSERVATION_BLOCKS + (("history", HISTORY_SLOTS * HISTORY_SLOT_SIZE),)
OBSERVATION_SIZE = sum(n for _, n in OBSERVATION_BLOCKS)
INFORMATION_STATE_SIZE = sum(n for _, n in INFORMATION_STATE_BLOCKS)


def layout(blocks: tuple[tuple[str, int], ...]) -> dict[str, tuple[int, int]]:
    """Each block's ``(offset, size)`` in a vector made of ``blocks`` in order."""
    out, at = {}, 0
    for name, size in blocks:
        out[name] = (at, size)
        at += size
    return out


def fill(out: np.ndarray, where: dict[str, tuple[int, int]], ep: Episode, person: int, private: bool = True) -> None:
    """Write ``person``'s view of ``ep`` into the vector ``out`` at the blocks ``where`` names
    (blocks it leaves out are skipped: OpenSpiel asks for public or private parts alone; without
    ``private`` the history shows no card of the observer's own discards)."""
    size = len(out)
    bits = _bits(where, ep, person, private)
    out[:] = np.unpackbits(np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8), bitorder="little")[:size]


def _bits(where: dict[str, tuple[int, int]], ep: Episode, person: int, private: bool) -> int:
    """The vector of :func:`fill` as the bits of one integer (bit i is entry i): one conversion
    to an array at the end instead of one a block."""
    b = 0
    if ep.hands is None or ep.phase == "deal":
        return b
    me = ep.seat_of(person)
    pos = ep.pos

    def rel(seat: int) -> int:
        return (seat - me) % 3

    hand = ep.hand(me)
    faceup = pos.faceup | pos.trick_faceup if pos is not None else 0
    acting = ep.current_seat()
    if "hand" in where:
        b |= hand << where["hand"][0]
    if "chosen" in where and acting == me:
        b |= ep.chosen << where["chosen"][0]
    if "old" in where:
        b |= old_cards(hand, faceup) << where["old"][0]
    if "own_discards" in where:
        b |= ep.down[me] << where["own_discards"][0]
    for s in range(3):
        r = rel(s)
        if "played" in where:
            b |= ep.up[s] << where["played"][0] + 36 * r
        if "fu" in where and pos is not None:
            b |= 1 << where["fu"][0] + 13 * r + pos.fu[s]
        if "hidden_discards" in where:
            b |= 1 << where["hidden_discards"][0] + 13 * r + ep.down[s].bit_count()
    if pos is not None and pos.trick:
        for i, p in enumerate(pos.trick):
            r = rel((pos.leader + i) % 3)
            if p.kind == DISCARD:
                if "trick_discard" in where:
                    b |= 1 << where["trick_discard"][0] + r
            elif "trick" in where:
                b |= p.cards << where["trick"][0] + 36 * r
        if "best" in where and pos.best_seat is not None:
            b |= 1 << where["best"][0] + rel(pos.best_seat)
    if "role" in where:
        b |= 1 << where["role"][0] + me
    if "caller" in where and pos is not None:
        b |= 1 << where["caller"][0] + rel(pos.caller)
    if "passed" in where:
        for s, call in enumerate(ep.calls):
            if call == "pass":
                b |= 1 << where["passed"][0] + rel(s)
    if acting is not None:
        if "phase" in where:
            b |= 1 << where["phase"][0] + (0 if pos is None else 1 if not pos.trick else 2)
        if "to_act" in where:
            b |= 1 << where["to_act"][0] + rel(acting)
        if "can_claim" in where and acting == me and ep.decision is not None and ep.decision.claim:
            b |= 1 << where["can_claim"][0]
    if "passed_master" in where and pos is not None and me == 0 and pos.caller != 0:
        b |= 1 << where["passed_master"][0]
    if "history" in where:
        at = where["history"][0]
        for i, (p, s) in enumerate(zip(ep.plays, ep.actors, strict=True)):
            if p.kind == DISCARD:
                b |= 1 << at + 39
                if s == me and private:
                    b |= p.cards << at + 3
            elif p.cards:
                b |= p.cards << at + 3
            b |= 1 << at + rel(s)
            at += HISTORY_SLOT_SIZE
            if i + 1 == HISTORY_SLOTS:
                break
    return b


_OBSERVATION_AT = layout(OBSERVATION_BLOCKS)
_INFORMATION_AT = layout(INFORMATION_STATE_BLOCKS)


def observation(ep: Episode, person: int, dtype: type = np.int8) -> np.ndarray:
    """``person``'s observation of ``ep`` (:data:`OBSERVATION_BLOCKS`), a new vector."""
    out = np.zeros(OBSERVATION_SIZE, dtype=dtype)
    fill(out, _OBSERVATION_AT, ep, person)
    return out


def information_state(ep: Episode, person: int, dtype: type = np.float32) -> np.ndarray:
    """``person``'s information state of ``ep`` (:data:`INFORMATION_STATE_BLOCKS`), a new vector."""
    out = np.zeros(INFORMATION_STATE_SIZE, dtype=dtype)
    fill(out, _INFORMATION_AT, ep, person)
    return out


def information_state_text(ep: Episode, person: int) -> str:
    """``person``'s information state as text: its seat view in NOTATION form (the seat, the
    hand, the caller and every play, or the calls so far) and the cards chosen so far.

    >>> from lukfu_solver.env.episode import Episode
    >>> information_state_text(Episode.from_seed(7), 1)
    'p1 1 C1378S57M24T4789 - - | chosen -'
    """
    if ep.hands is None or ep.phase == "deal":
        return f"p{person} dealing"
    view = ep.view(person)
    chosen = ep.chosen if ep.current_person() == person else 0
    text = f"p{person} {view} | chosen {format_cards(chosen)}"
    if ep.is_over:
        text += " | over " + ",".join(str(x) for x in ep.returns())
    return text


def observation_text(ep: Episode, person: int) -> str:
    """``person``'s observation as text: what the observation vector holds, in NOTATION's card lists.

    >>> from lukfu_solver.env.episode import Episode
    >>> observation_text(Episode.from_seed(7), 1)
    'p1 seat 1 hand C1378S57M24T4789 chosen - played -/-/- trick - fu 0,0,0 down 0,0,0 caller - passed - to_act seat 0'
    """
    if ep.hands is None or ep.phase == "deal":
        return f"p{person} dealing"
    me = ep.seat_of(person)
    pos = ep.pos
    chosen = ep.chosen if ep.current_person() == person else 0
    trick = ",".join(str(p) if p.kind != DISCARD else f"x{p.size}" for p in pos.trick) if pos and pos.trick else "-"
    fu = ",".join(str(f) for f in pos.fu) if pos is not None else "0,0,0"
    passed = ",".join(str(s) for s, c in enumerate(ep.calls) if c == "pass") or "-"
    acting = ep.current_seat()
    return (
        f"p{person} seat {me} hand {format_cards(ep.hand(me))} chosen {format_cards(chosen)}"
        f" played {'/'.join(format_cards(m) for m in ep.up)} trick {trick} fu {fu}"
        f" down {','.join(str(m.bit_count()) for m in ep.down)}"
        f" caller {ep.caller if ep.caller is not None else '-'} passed {passed}"
        f" to_act {'-' if acting is None else f'seat {acting}'}"
    )
