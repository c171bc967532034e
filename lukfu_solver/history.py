"""The history of a deal, trick by trick: the one walk through the plays that finds each trick's
best play, its winner and the fu it brought (R8–R10), and a claim's total (R14, R16).

Every reader of a deal asks the same questions of its plays: who led each trick, which play is
the best so far (R8: a face-up follower beats the best before it, so the best is the last
face-up play), who won the trick and how many fu (R10), each seat's fu, the cards shown face up,
and, when a claim ended the deal, what the claimant counted: its fu plus the Old cards it showed.
:class:`DealHistory` answers them from a deal's plays (a record, a game) or from the tricks of a
seat view; the record, the view, the reasoners and the front ends read it instead of walking the
tricks again.

>>> from lukfu_solver.plays import Play
>>> h = DealHistory.of_plays([Play.parse(p) for p in "T2 T4 T6 M3 xC1".split()])
>>> [(t.leader, t.best, t.winner, t.fu_won) for t in h.tricks], h.fu, h.next_leader
([(0, 2, 2, 1), (2, 0, None, 0)], (0, 0, 1), 2)
>>> [h.tricks[1].role(i) for i in range(2)], h.tricks[1].best_seat
(['lead', 'discard'], 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .cards import CardSet, format_cards, old_cards
from .plays import CLAIM, DISCARD, KIND_NAMES, Play
from .rules import worth

Hands = tuple[CardSet, CardSet, CardSet]

ROLES = ("lead", "beat", "discard", "claim")
"""What a play does at the table: leads a trick, beats the best play so far (R8), is discarded
face down (R9), or claims the deal (R14)."""


def best_index(plays: Sequence[Play]) -> int:
    """The index in ``plays`` (a trick, leader first) of its best play so far: the last face-up
    play, since a face-up follower must beat the best before it (R8) and a discard never does.

    >>> best_index([Play.parse("T2"), Play.parse("T4"), Play.parse("xC1")])
    1
    """
    for i in range(len(plays) - 1, 0, -1):
        if plays[i].kind != DISCARD:
            return i
    return 0


def play_role(place: int, play: Play) -> str:
    """What ``play``, the ``place``-th of its trick (0: the lead), does: one of :data:`ROLES`."""
    if play.kind == CLAIM:
        return "claim"
    if place == 0:
        return "lead"
    return "discard" if play.kind == DISCARD else "beat"


def play_json(seat: int, play: Play, place: int, shown: str | None = None, index: int | None = None) -> dict[str, Any]:
    """One play as a table's page reads it: ``seat``, ``play`` (its text, or ``shown`` in its
    place), ``shape`` (single, set, run, discard, claim: :data:`~lukfu_solver.plays.KIND_NAMES`)
    and ``role`` in its trick (:func:`play_role`; ``place`` its index in the trick); with
    ``index``, the play's place in the deal's plays (what a review's decision names it by)."""
    data = {"seat": seat, "play": shown or str(play), "shape": KIND_NAMES[play.kind], "role": play_role(place, play)}
    if index is not None:
        data["index"] = index
    return data


class Trick(NamedTuple):
    """One trick: its ``leader``, ``plays`` (leader first), ``best`` (the index in ``plays`` of
    the best play so far), ``winner`` and ``fu_won`` (None and 0 while the trick is unfinished)."""

    leader: int
    plays: tuple[Play, ...]
    best: int
    winner: int | None
    fu_won: int

    @classmethod
    def of(cls, leader: int, plays: Sequence[Play]) -> Trick:
        """The trick ``leader`` led with ``plays``: complete (won, R10) after three plays."""
        best = best_index(plays)
        if len(plays) < 3:
            return cls(leader, tuple(plays), best, None, 0)
        return cls(leader, tuple(plays), best, (leader + best) % 3, plays[best].size)

    @property
    def complete(self) -> bool:
        """Whether all three seats have played to it."""
        return self.winner is not None

    def seat(self, place: int) -> int:
        """The seat of the ``place``-th play (0: the leader)."""
        return (self.leader + place) % 3

    @property
    def best_seat(self) -> int:
        """The seat whose play is best so far (the winner, once complete)."""
        return (self.leader + self.best) % 3

    @property
    def best_play(self) -> Play:
        """The best play so far."""
        return self.plays[self.best]

    def best_before(self, place: int) -> int:
        """The index of the best play the ``place``-th play had to beat (0 for the lead itself):
        the second play when it beat the lead and this is the third, else the lead (R8)."""
        return 1 if place == 2 and self.plays[1].kind != DISCARD else 0

    def role(self, place: int) -> str:
        """What the ``place``-th play does: ``lead``, ``beat`` or ``discard`` (:func:`play_role`)."""
        return play_role(place, self.plays[place])

    def table_json(self, shown: Sequence[str | None] = (), first: int | None = None) -> dict[str, Any]:
        """The trick as a table's page reads it: ``leader``, ``plays`` (leader first, each
        :func:`play_json`), ``best`` (the index of the best play so far), ``winner`` (None while
        the trick is open) and ``fu_won``; ``shown`` replaces plays' texts (a hidden discard's
        ``x2``); with ``first``, the place of its lead in the deal's plays, each play carries its
        own ``index`` there."""
        return {
            "leader": self.leader,
            "plays": [
                play_json(self.seat(i), p, i, shown[i] if i < len(shown) else None, None if first is None else first + i)
                for i, p in enumerate(self.plays)
            ],
            "best": self.best,
            "winner": self.winner,
            "fu_won": self.fu_won,
        }

    def faceup(self) -> CardSet:
        """The cards played face up in this trick."""
        m = 0
        for p in self.plays:
            if p.kind != DISCARD:
                m |= p.cards
        return m

    def to_json(self, number: int) -> dict[str, Any]:
        """The trick as ``replay --json`` and ``show --view --json`` write it: its ``number`` (from
        1), leader, plays as NOTATION.md writes them, winner and fu won (null while unfinished)."""
        return {
            "number": number,
            "leader": self.leader,
            "plays": [str(p) for p in self.plays],
            "winner": self.winner,
            "fu_won": self.fu_won if self.complete else None,
        }


_trick = tuple.__new__
"""``_trick(Trick, fields)`` makes a :class:`Trick` without its generated ``__new__``: the walks
below make one a trick, at every decision of a table loop."""


class Claim(NamedTuple):
    """A claim that ended the deal (R14): the claimant's ``seat``, the ``fu`` it had won, the
    ``old`` cards it showed and its ``total`` T, fu plus Old cards (R16)."""

    seat: int
    fu: int
    old: CardSet
    total: int

    def to_json(self, caller: int | None = None) -> dict[str, Any]:
        """``{"seat", "fu", "old", "total"}``, the Old cards as NOTATION.md writes them; given the
        ``caller``, its ``worth`` too (what it is worth and who pays: :func:`~lukfu_solver.rules.worth`)."""
        data: dict[str, Any] = {"seat": self.seat, "fu": self.fu, "old": format_cards(self.old), "total": self.total}
        if caller is not None:
            data["worth"] = worth(self.seat, self.total, caller).to_json()
        return data


class DealHistory(NamedTuple):
    """A deal's ``tricks`` so far (the last may be unfinished) with their ``leaders`` and the
    ``winners`` of the completed ones, each seat's ``fu``, the ``faceup`` cards of the completed
    tricks, and the ``claim`` that ended the deal (None: no claim, or the hands were not known)."""

    tricks: tuple[Trick, ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    fu: tuple[int, int, int]
    faceup: CardSet
    claim: Claim | None = None

    @classmethod
    def of_tricks(cls, tricks: Iterable[Sequence[Play]]) -> DealHistory:
        """The history of plays already split into tricks (a seat view's): each trick but the
        last complete, the first led by seat 0 (R4), each next one by the last winner (R10). The
        walk is :meth:`of_plays`' (a claim, which no view holds, counts as a play here)."""
        return cls.of_plays([p for t in tricks for p in t], claims=False)

    @classmethod
    def of_plays(
        cls, plays: Sequence[Play], hands: Hands | None = None, seen_by: int | None = None, claims: bool = True
    ) -> DealHistory:
        """The history of a deal's plays in order, three to a trick (a claim ends it, unless
        ``claims`` is False). With the dealt ``hands`` (seat 0 first) a claim's Old cards and
        total are known (:attr:`claim`); with ``seen_by`` a seat, the other seats' discards are
        hidden (``x2``) as that seat's view shows them (hiding a discard moves no trick: a
        discard is never the best play)."""
        out: list[Trick] = []
        leaders: list[int] = []
        winners: list[int] = []
        fu = [0, 0, 0]
        faceup = 0
        leader = 0
        cur: list[Play] = []
        place = 0
        claimed = False
        for p in plays:  # the hot path of the table loop and of every view: a trick closed every third play
            kind = p.kind
            if kind == CLAIM and claims:
                claimed = True
                break
            if kind == DISCARD and seen_by is not None and (leader + place) % 3 != seen_by:
                p = Play(DISCARD, 0, p.size)
            cur.append(p)
            if place < 2:
                place += 1
                continue
            a, b, c = cur
            best = 2 if c.kind != DISCARD else 1 if b.kind != DISCARD else 0
            winner = (leader + best) % 3
            leaders.append(leader)
            out.append(_trick(Trick, (leader, (a, b, c), best, winner, a.size)))
            winners.append(winner)
            fu[winner] += a.size
            faceup |= a.cards | (b.cards if b.kind != DISCARD else 0) | (c.cards if c.kind != DISCARD else 0)
            leader = winner
            cur = []
            place = 0
        if cur:
            leaders.append(leader)
            out.append(_trick(Trick, (leader, tuple(cur), 1 if place > 1 and cur[1].kind != DISCARD else 0, None, 0)))
        history = cls(tuple(out), tuple(leaders), tuple(winners), (fu[0], fu[1], fu[2]), faceup)
        if not claimed or hands is None:
            return history
        s = history.next_leader
        held = hands[s]
        for t in history.tricks:
            place = (s - t.leader) % 3
            if place < len(t.plays):
                held &= ~t.plays[place].cards
        old = old_cards(held, history.faceup)
        return history._replace(claim=Claim(s, history.fu[s], old, history.fu[s] + old.bit_count()))

    @property
    def completed(self) -> int:
        """How many tricks are complete."""
        return len(self.winners)

    @property
    def current(self) -> Trick | None:
        """The trick in progress (None when a seat is about to lead, or the deal has ended)."""
        return self.tricks[-1] if self.tricks and self.tricks[-1].winner is None else None

    @property
    def next_leader(self) -> int:
        """The leader of the trick in progress, or the seat about to lead (the last winner; seat
        0 before the first trick, R4)."""
        if not self.tricks:
            return 0
        last = self.tricks[-1]
        return last.leader if last.winner is None else last.winner
