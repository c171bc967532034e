"""Seat views (NOTATION.md "Seat view"): what one player knows in mid-deal, as an immutable value.

A view is the line ``<seat> <hand> <caller> <history>``: the viewer's current hand, the caller and
every play so far, trick by trick. Other seats' face-down discards are hidden (``x2``); the
viewer's own discards show their cards. Everything else the viewer knows is derived from that:
leaders and winners, fu, face-up cards, hand sizes, whose turn it is and the viewer's legal moves
(from the :mod:`lukfu_solver.rules` generators, so a view can never disagree with a position).
:meth:`SeatView.is_legal` and :meth:`SeatView.why_illegal` judge one move by the same function as
:meth:`Position.is_legal <lukfu_solver.position.Position.is_legal>`, the reason worded for the
viewer; :meth:`SeatView.parse_move` reads a move as a player types it.

>>> v = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
>>> v.fu, v.leaders, v.to_move, str(v.best)
((0, 0, 1), (0, 2), 1, 'M5')
>>> [str(m) for m in v.legal_moves()][:3]
['xC1', 'xM2', 'xC3']

**Calling phase** (an extension of NOTATION.md): before the caller is known the caller field is
``-`` and the history field lists the calls made so far, seat 0 first (``-`` for none), e.g.
``2 C245S1389M1389T6 - pass,pass``. Every call in it is ``pass`` (the first ``play`` ends the
calling) and there are at most two (three passes redeal, R3).

Validation (:meth:`SeatView.validate`, run by :meth:`SeatView.parse`) rejects everything that
no deal can produce and that the view itself shows: cards named twice, malformed or mis-sized
plays, followers that do not beat (R8), R6 leads, an illegal play by the viewer (R7, R9, given
the hand it held then), a wrong hand size, a claim, more than 12 tricks; and two inferences
about other seats that their later face-up plays make certain: a discard by a seat that held a
beating play (R9), and a non-caller's single lead that R7 forbids given cards it showed later.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from .cards import ALL_CARDS, ALWAYS_OLD, SUIT_MASK9, CardSet, format_cards, old_cards, parse_cards
from .errors import NotationError
from .history import DealHistory
from .i18n import _, ngettext
from .inputs import excerpt, split_fields
from .plays import CLAIM, CLAIM_PLAY, DISCARD, SINGLE, Play, beats
from .position import Fault, Turn, move_fault, reason
from .rules import (
    Outcome,
    beating_plays,
    can_beat,
    can_claim,
    claim_total,
    end_outcome,
    follow_plays,
    lead_plays,
    single_leads,
)

HAND_SIZE = 12
"""R2: cards dealt to each seat."""
MAX_TRICKS = 12
"""A deal has at most 12 tricks (all singles)."""
CALLS = ("play", "pass")
"""The two calls of the calling phase (R3)."""

Tricks = tuple[tuple[Play, ...], ...]


class InvalidMoveError(NotationError):
    """Text that is no move in any reading (neither a play nor a card list), as opposed to a
    readable move the rules forbid (a plain NotationError): a player is told to ask for help."""


# ---------------------------------------------------------------- history text


def parse_history(text: str, reveal: bool, caller: int | None = None, check: bool = True) -> Tricks:
    """Parse a history field: tricks separated by ``/``, plays by ``,``; ``-`` is no trick yet.

    The public structure is checked (see :func:`check_history`). With ``reveal`` every discard
    must show its cards (a fully revealed history, as ``lukfu sample`` prints); otherwise hidden
    discards (``x2``) are allowed too and a :class:`SeatView` decides which ones must be hidden.
    With ``caller`` given, R6 is checked as well. ``check=False`` leaves the structure to the
    caller (:meth:`SeatView.parse` checks it once, with the view).

    >>> tricks = parse_history("t2,t4,t6/M3,xC1", reveal=True)
    >>> format_history(tricks), len(tricks[1])
    ('T2,T4,T6/M3,xC1', 2)
    >>> parse_history("T2,T4,T6/M3,x1", reveal=True)
    Traceback (most recent call last):
    ...
    lukfu_solver.errors.NotationError: history: trick 2, play 2: the discard x1 hides its cards; every discard must show them here
    """
    s = text.strip()
    if s == "-":
        return ()
    if not s:
        raise NotationError("history", _("empty (write '-' before the first lead)"))
    parts = s.split("/")
    if len(parts) > MAX_TRICKS:
        raise NotationError("history", _('at most {most} tricks, got {count}').format(most=MAX_TRICKS, count=len(parts)))
    tricks = []
    for t, part in enumerate(parts, 1):
        plays = []
        for i, pt in enumerate(part.split(","), 1):
            try:
                plays.append(Play.parse(pt, "history"))
            except NotationError as e:
                raise NotationError("history", _('trick {t}, play {i}: {message}').format(t=t, i=i, message=e.message)) from None
        tricks.append(tuple(plays))
    result = tuple(tricks)
    if check:
        check_history(result, reveal, caller)
    return result


def format_history(tricks: Sequence[Sequence[Play]]) -> str:
    """The canonical history field: ``-`` when empty, else tricks by ``/`` and plays by ``,``.

    >>> format_history(()), format_history([[Play.parse("s5"), Play.parse("x1")]])
    ('-', 'S5,x1')
    """
    if not tricks:
        return "-"
    return "/".join(",".join(str(p) for p in trick) for trick in tricks)


def check_history(
    tricks: Tricks, reveal: bool = False, caller: int | None = None, history: DealHistory | None = None
) -> None:
    """Check the public structure of a history; a fault raises ``NotationError("history", …)``.

    At most 12 tricks, three plays in every trick but the last, no claim, a face-up lead (R5) no
    larger than the hands, followers of the lead's size whose face-up plays beat the current
    best (R8), no card named twice, and (``caller`` given) no long lead by a passed Master (R6).
    With ``reveal``, discards must show their cards. ``history`` is the tricks' walk when the
    caller has it already (:attr:`SeatView.history`).
    """
    if len(tricks) > MAX_TRICKS:
        raise NotationError("history", _('at most {most} tricks, got {count}').format(most=MAX_TRICKS, count=len(tricks)))
    seen = 0
    left = HAND_SIZE  # cards each seat holds when the trick starts
    history = history or DealHistory.of_tricks(tricks)
    for t, trick in enumerate(tricks, 1):
        if not trick or len(trick) > 3:
            raise NotationError("history", _('trick {t}: a trick has 1 to 3 plays, got {count}').format(t=t, count=len(trick)))
        if t < len(tricks) and len(trick) < 3:
            raise NotationError(
                "history", _('trick {t}: only the last trick may be incomplete, but it has {count} plays').format(t=t, count=len(trick))
            )
        if left == 0:
            raise NotationError("history", _('trick {t}: the hands ran out after trick {t2} (R15)').format(t=t, t2=t - 1))
        leader = history.leaders[t - 1]
        for i, p in enumerate(trick):
            where = f"trick {t}, play {i + 1}"
            if p.kind == CLAIM:
                raise NotationError("history", _('{where}: a view has no claim (a claim ends the deal)').format(where=where))
            if p.kind == DISCARD and (p.cards.bit_count() != p.size if p.cards else not p.size):
                raise NotationError("history", _('{where}: a malformed discard {play}').format(where=where, play=p))
            if reveal and p.hidden:
                raise NotationError(
                    "history", _('{where}: the discard {play} hides its cards; every discard must show them here').format(where=where, play=p)
                )
            seat = (leader + i) % 3
            if i == 0:
                if p.kind == DISCARD:
                    raise NotationError(
                        "history", _('{where}: a trick is led with a single, set or run, not a discard {play}').format(where=where, play=p)
                    )
                if p.size > left:
                    raise NotationError(
                        "history", _('{where}: a {size}-card lead {play}, but each seat holds only {left} cards').format(where=where, size=p.size, play=p, left=left)
                    )
                if caller is not None and caller != 0 and seat == 0 and p.size >= 4:
                    raise NotationError(
                        "history",
                        _('{where}: seat 0 passed and may not lead {play}, a four-card set or a run of four or more (R6)').format(where=where, play=p),
                    )
            else:
                if p.size != trick[0].size:
                    raise NotationError(
                        "history", _('{where}: {play} has {size} cards but the lead {trick} has {size2}').format(where=where, play=p, size=p.size, trick=trick[0], size2=trick[0].size)
                    )
                best_i = 1 if i == 2 and trick[1].kind != DISCARD else 0  # the best play before it (R8)
                if p.kind != DISCARD and not beats(p, trick[best_i], best_i == 0):
                    raise NotationError("history", _('{where}: {play} does not beat {best} (R8)').format(where=where, play=p, best=trick[best_i]))
            dup = seen & p.cards
            if dup:
                raise NotationError(
                    "history", _('{where}: {cards} is already played in {trick}').format(where=where, cards=format_cards(dup), trick=_find(tricks, dup))
                )
            seen |= p.cards
        left -= trick[0].size


def _find(tricks: Tricks, mask: CardSet) -> str:
    """Where the first play naming a card of ``mask`` is: ``"trick 1, play 2"``."""
    for t, trick in enumerate(tricks, 1):
        for i, p in enumerate(trick, 1):
            if p.cards & mask:
                return f"trick {t}, play {i}"
    return "the history"  # pragma: no cover - only called for cards that are there


def parse_calls(text: str) -> tuple[str, ...]:
    """Parse the calls of a calling-phase view: ``-`` or up to two ``pass`` separated by commas."""
    s = text.strip().lower()
    if s == "-":
        return ()
    calls = tuple(c.strip() for c in s.split(","))
    for i, c in enumerate(calls, 1):
        if c == "play":
            raise NotationError(
                "history", _("call {i} is 'play', so seat {i2} is the caller: write its seat as the caller, not '-'").format(i=i, i2=i - 1)
            )
        if c != "pass":
            raise NotationError("history", _("call {i} is {c}; before the caller is known every call is 'pass'").format(i=i, c=excerpt(c)))
    if len(calls) > 2:
        raise NotationError("history", _('three passes: the deal is passed out and dealt again (R3)'))
    return calls


# ---------------------------------------------------------------- the view


class _Facts(NamedTuple):
    """Everything derived from a history in one pass (cached by :class:`SeatView`)."""

    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    faceup: CardSet
    trick: tuple[Play, ...]
    trick_leader: int
    trick_faceup: CardSet
    best_i: int
    fu: tuple[int, int, int]
    played: tuple[int, int, int]
    hidden: tuple[int, int, int]
    own_discards: CardSet


@dataclass(frozen=True)
class SeatView:
    """What seat ``seat`` knows: its ``hand``, the ``caller`` and the ``tricks`` played so far.

    ``tricks`` holds each trick's plays, leader first; the last may be incomplete. Other seats'
    discards are hidden (``Play(DISCARD, 0, k)``), the viewer's own show their cards. ``caller``
    is None only in the calling phase, whose ``calls`` so far (seat 0 first) are then kept.
    The constructor does not check anything: :meth:`parse` and :meth:`validate` do.
    """

    seat: int
    hand: CardSet
    caller: int | None
    tricks: Tricks
    calls: tuple[str, ...] = ()

    # ------------------------------------------------------------ text

    @classmethod
    def parse(cls, text: str) -> SeatView:
        """Parse and validate ``<seat> <hand> <caller> <history>``; a fault raises NotationError.

        >>> str(SeatView.parse("2 s1389c245T6m1389 - PASS,pass"))
        '2 C245S1389M1389T6 - pass,pass'
        """
        fields = split_fields(text, "view")
        if len(fields) != 4:
            raise NotationError("view", _('expected 4 fields (seat hand caller history), got {count}').format(count=len(fields)))
        seat = _parse_seat(fields[0], "seat")
        hand = parse_cards(fields[1], "hand")
        if fields[2] == "-":
            view = cls(seat, hand, None, (), parse_calls(fields[3]))
        else:
            caller = _parse_seat(fields[2], "caller")
            view = cls(seat, hand, caller, parse_history(fields[3], reveal=False, check=False))
        view.validate()
        return view

    def __str__(self) -> str:
        if self.caller is None:
            return f"{self.seat} {format_cards(self.hand)} - {','.join(self.calls) or '-'}"
        return f"{self.seat} {format_cards(self.hand)} {self.caller} {format_history(self.tricks)}"

    def __repr__(self) -> str:
        return f"SeatView.parse({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        """The facts of ``lukfu show --view VIEW --json`` (cards and plays as NOTATION.md writes them)."""
        trick = None
        if self.trick:
            leader = self.trick_leader
            trick = {
                "leader": leader,
                "plays": [{"seat": (leader + i) % 3, "play": str(p)} for i, p in enumerate(self.trick)],
                "best": {"seat": self.best_seat, "play": str(self.best)},
            }
        return {
            "view": str(self),
            "seat": self.seat,
            "hand": format_cards(self.hand),
            "old": format_cards(self.old_cards()),
            "caller": self.caller,
            "master": 0,
            "calls": list(self.calls),
            "tricks": [t.to_json(n) for n, t in enumerate(self.history.tricks, 1)],
            "trick": trick,
            "faceup": format_cards(self.faceup),
            "hand_sizes": list(self.hand_sizes),
            "fu": list(self.fu),
            "hidden_discards": list(self.hidden_discards),
            "own_discards": format_cards(self.own_discards),
            "unseen": format_cards(self.unseen),
            "to_move": self.to_move,
            "is_over": self.is_over,
            "legal": [str(m) for m in self.sorted_legal_moves()],
        }

    @classmethod
    def from_deal(cls, seat: int, dealt: CardSet, caller: int, plays: Sequence[Play]) -> SeatView:
        """The view of ``seat`` (dealt ``dealt``) after the fully known ``plays`` (no checks).

        Other seats' discards are hidden, the hand is ``dealt`` less the seat's own plays. A claim
        ends the deal and is not part of a view: it raises NotationError("plays", …).
        """
        history = DealHistory.of_plays(plays, seen_by=seat)
        n = sum(len(t.plays) for t in history.tricks) + 1
        if n <= len(plays):  # the walk stopped at a claim
            raise NotationError("plays", _('play {n} is a claim: the deal is over and a view does not show it').format(n=n))
        hand = dealt
        for t in history.tricks:
            mine = (seat - t.leader) % 3  # the place of the seat's own play
            if mine < len(t.plays):
                hand &= ~t.plays[mine].cards
        view = cls(seat, hand, caller, tuple([t.plays for t in history.tricks]))
        view.__dict__["history"] = history  # the cached :attr:`history`, already walked
        return view

    # ------------------------------------------------------------ derivations

    @cached_property
    def history(self) -> DealHistory:
        """The tricks so far, each with its leader, best play, winner and fu (:class:`DealHistory`)."""
        return DealHistory.of_tricks(self.tricks)

    @cached_property
    def _facts(self) -> _Facts:
        h = self.history
        own = done = 0  # done: the cards each seat played in the completed tricks (a trick's size each)
        played = [0, 0, 0]
        hidden = [0, 0, 0]
        for t in h.tricks:
            plays = t.plays
            if t.winner is not None:
                done += plays[0].size
            else:
                for i, p in enumerate(plays):
                    played[(t.leader + i) % 3] += p.size
            for i in range(1, len(plays)):  # the discards: the viewer's own, or hidden from it
                p = plays[i]
                if p.kind == DISCARD:
                    if (t.leader + i) % 3 == self.seat:
                        own |= p.cards
                    else:
                        hidden[(t.leader + i) % 3] += p.size
        cur = None if not h.tricks or h.tricks[-1].winner is not None else h.tricks[-1]
        return _Facts(
            h.leaders,
            h.winners,
            h.faceup,
            () if cur is None else cur.plays,
            h.next_leader,
            0 if cur is None else cur.faceup(),
            0 if cur is None else cur.best,
            h.fu,
            (played[0] + done, played[1] + done, played[2] + done),
            (hidden[0], hidden[1], hidden[2]),
            own,
        )

    @property
    def leaders(self) -> tuple[int, ...]:
        """The leader of each trick of the history (seat 0 first (R4), then each previous winner)."""
        return self._facts.leaders

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner of each completed trick (R10)."""
        return self._facts.winners

    @property
    def faceup(self) -> CardSet:
        """The face-up cards of the completed tricks."""
        return self._facts.faceup

    @property
    def trick(self) -> tuple[Play, ...]:
        """The plays of the trick in progress, leader first (``()`` when a seat is about to lead)."""
        return self._facts.trick

    @property
    def trick_leader(self) -> int:
        """The leader of the trick in progress, or the seat about to lead."""
        return self._facts.trick_leader

    @property
    def best(self) -> Play | None:
        """The current best play of the trick in progress (None before its lead)."""
        f = self._facts
        return f.trick[f.best_i] if f.trick else None

    @property
    def best_seat(self) -> int | None:
        """The seat whose play is currently best in the trick in progress (None before its lead)."""
        f = self._facts
        return (f.trick_leader + f.best_i) % 3 if f.trick else None

    @property
    def fu(self) -> tuple[int, int, int]:
        """The fu won so far by seats 0, 1, 2 (R10)."""
        return self._facts.fu

    @property
    def hand_sizes(self) -> tuple[int, int, int]:
        """The cards each seat holds now."""
        p = self._facts.played
        return (HAND_SIZE - p[0], HAND_SIZE - p[1], HAND_SIZE - p[2])

    @property
    def hidden_discards(self) -> tuple[int, int, int]:
        """By seat, the face-down cards it discarded that the viewer cannot see (0 for the viewer)."""
        return self._facts.hidden

    @property
    def own_discards(self) -> CardSet:
        """The cards the viewer discarded face down."""
        return self._facts.own_discards

    @property
    def unseen(self) -> CardSet:
        """The cards the viewer cannot place: other hands and other seats' face-down discards."""
        f = self._facts
        return ALL_CARDS & ~(self.hand | f.own_discards | f.faceup | f.trick_faceup)

    @property
    def to_move(self) -> int | None:
        """The seat that acts next: the next to call in the calling phase; None once the hands ran out."""
        if self.caller is None:
            return len(self.calls)
        f = self._facts
        if not f.trick and f.played[f.trick_leader] >= HAND_SIZE:
            return None
        return (f.trick_leader + len(f.trick)) % 3

    @property
    def is_over(self) -> bool:
        """True once the deal has ended (the hands ran out, R15)."""
        return self.to_move is None

    def old_cards(self) -> CardSet:
        """The viewer's Old cards (R11–R13): from its hand and every face-up card, the trick's too."""
        f = self._facts
        return old_cards(self.hand, f.faceup | f.trick_faceup)

    def claim_total(self) -> int | None:
        """The viewer's total T if it claimed now (R14, R16: its fu plus its Old cards), or None
        when it may not claim now."""
        turn = self.turn()
        if turn is None or turn.trick or not can_claim(turn.fu, turn.hand, turn.faceup):
            return None
        return claim_total(turn.fu, turn.hand, turn.faceup)

    def legal_moves(self) -> Iterator[Play]:
        """The viewer's legal moves when it is to move in the play phase, in Position's order.

        About to lead: the claim when allowed (R14), then every lead (R5–R7). Following: the
        plays that beat the current best, or else every discard (R8–R9). Otherwise nothing.
        """
        if self.caller is None or self.to_move != self.seat:
            return
        f = self._facts
        s = self.seat
        if not f.trick:
            if can_claim(f.fu[s], self.hand, f.faceup):
                yield CLAIM_PLAY
            yield from lead_plays(self.hand, f.faceup, s == self.caller, s == 0 and self.caller != 0)
        else:
            yield from follow_plays(self.hand, f.trick[f.best_i], f.best_i == 0, f.trick[0].size)

    @property
    def outcome(self) -> Outcome | None:
        """How the deal ended once the hands ran out (R15–R17), else None (a view shows no claim)."""
        if not self.is_over:
            return None
        return end_outcome(self.fu, self.winners[-1], self.caller)

    # ------------------------------------------------------------ moves

    def sorted_legal_moves(self) -> list[Play]:
        """The viewer's legal moves in canonical order (:meth:`Play.sort_key`), as listings print them."""
        return sorted(self.legal_moves(), key=Play.sort_key)

    def turn(self) -> Turn | None:
        """What the legality of the viewer's next move depends on; None unless it is to play."""
        if self.caller is None or self.to_move != self.seat:
            return None
        f = self._facts
        s = self.seat
        return Turn(self.hand, f.faceup, f.fu[s], f.trick, f.best_i, s == self.caller, s == 0 and self.caller != 0)

    def is_legal(self, move: Play) -> bool:
        """True when ``move`` is legal for the viewer now, checked directly (no discard is listed).

        The same rules as :meth:`Position.is_legal <lukfu_solver.position.Position.is_legal>`: the
        view knows all they depend on (its hand, the face-up cards, its fu, the trick).

        >>> v = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
        >>> v.is_legal(Play.parse("xC1")), v.is_legal(Play.parse("M4"))
        (True, False)
        """
        turn = self.turn()
        return turn is not None and move_fault(turn, move) is None

    def why_illegal(self, move: Play) -> str | None:
        """Why ``move`` is not legal for the viewer now, in words addressed to it and naming the
        rule (R5–R9, R14); None when it is legal. The reason is what a player at the table is told.

        >>> v = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
        >>> v.why_illegal(Play.parse("xC1")) is None, v.why_illegal(Play.parse("M4"))
        (True, 'M4 does not beat M5 (R8); you cannot beat it, so discard face down')
        """
        if self.caller is None:
            return _("in the calling phase the answer is play or pass (R3)")
        turn = self.turn()
        if turn is None:
            return _("the deal has ended") if self.is_over else _("it is seat {seat}'s turn, not yours").format(seat=self.to_move)
        return reason(turn, move, self._words)

    def _words(self, fault: Fault, turn: Turn, move: Play) -> str:
        """A fault in the words of a seat view (second person: its player), for :func:`reason`."""
        match fault:
            case "claim-in-trick":
                return _("a claim is made only when you are about to lead (R14)")
            case "claim-short":
                old = self.old_cards().bit_count()
                return _("you have {fu} fu and {old} Old cards: fewer than 6 together (R14)").format(fu=turn.fu, old=old)
            case "hidden":
                return _("name the cards you discard (xC2M4)")
            case "missing":
                return _("you do not hold {cards}").format(cards=format_cards(move.cards & ~self.hand))
            case "lead-discard":
                return _("you are leading: a lead is a single, a set or a run (R5)")
            case "R7":
                allowed = single_leads(self.hand, turn.faceup, turn.is_caller)
                return _(
                    "as a non-caller you lead a non-Old single of your highest suit holding one (R7): here {cards}"
                ).format(cards=format_cards(allowed))
            case "size":
                size = turn.trick[0].size
                return ngettext(
                    "the lead has {n} card: play or discard {n}", "the lead has {n} cards: play or discard {n}", size
                ).format(n=size)
        best = turn.best
        assert best is not None
        beat = next(beating_plays(self.hand, best, turn.best_i == 0), None)
        if fault == "must-beat":
            return _("you hold {beat}, which beats {best}: you must beat (R9)").format(beat=beat, best=best)
        if beat:  # the fault "beat"
            return _("{move} does not beat {best} (R8); you hold {beat}, which does").format(move=move, best=best, beat=beat)
        return _("{move} does not beat {best} (R8); you cannot beat it, so discard face down").format(move=move, best=best)

    def parse_move(self, text: str, field: str = "move") -> Play:
        """The move ``text`` names for the viewer, read as a player types it, and checked.

        NOTATION.md's plays, with two readings for a follower who cannot beat: a bare card list is
        its discard (``C2M4`` for ``xC2M4``), and so is a face-up play of the lead's size from its
        hand. Text that is no play and no card list raises :class:`InvalidMoveError`; a move
        that is not legal raises NotationError(field, reason) with :meth:`why_illegal`'s reason.

        >>> v = SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5")
        >>> str(v.parse_move("c1")), str(v.parse_move("xC3"))
        ('xC1', 'xC3')
        >>> v.parse_move("C1C3")
        Traceback (most recent call last):
        ...
        lukfu_solver.errors.NotationError: move: the lead has 1 card: play or discard 1
        """
        try:
            move = Play.parse(text, field)
        except NotationError as err:
            try:  # a follower who cannot beat may type just the cards of the discard
                cards = parse_cards(text, field)
            except NotationError:
                raise InvalidMoveError(field, _("{text} is not a move: {why}").format(text=excerpt(text), why=err.message)) from None
            if not self.trick:
                raise
            move = Play(DISCARD, cards, cards.bit_count())
        best = self.best
        if best is not None and move.kind not in (DISCARD, CLAIM) and move.size == self.trick[0].size:
            led = self.best_seat == self.trick_leader
            if not move.cards & ~self.hand and not beats(move, best, led) and not can_beat(self.hand, best, led):
                move = Play(DISCARD, move.cards, move.size)  # the cards, meant as a discard
        reason = self.why_illegal(move)
        if reason is not None:
            raise NotationError(field, reason)
        return move

    # ------------------------------------------------------------ validation

    def validate(self) -> None:
        """Check that some deal can produce this view; a fault raises NotationError naming its field.

        Fields: ``seat``, ``hand``, ``caller`` and ``history`` (with the trick and play at fault).
        """
        if self.seat not in (0, 1, 2):
            raise NotationError("seat", _('a seat is 0, 1 or 2, got {seat!r}').format(seat=self.seat))
        if not 0 <= self.hand <= ALL_CARDS:
            raise NotationError("hand", _('not a card set'))
        if self.caller is None:
            if self.tricks:
                raise NotationError("history", _('no trick is played before the caller is known (R3)'))
            if len(self.calls) > 2 or any(c != "pass" for c in self.calls):
                raise NotationError("history", _("calls {choices}: at most two, all 'pass' (R3)").format(choices=','.join(self.calls)))
            if self.hand.bit_count() != HAND_SIZE:
                raise NotationError("hand", _('{count} cards; a hand holds {size} before the play').format(count=self.hand.bit_count(), size=HAND_SIZE))
            return
        if self.caller not in (0, 1, 2):
            raise NotationError("caller", _('a seat is 0, 1 or 2, got {caller!r}').format(caller=self.caller))
        if self.calls:
            raise NotationError("history", _("calls are kept only in the calling phase (caller '-')"))
        check_history(self.tricks, reveal=False, caller=self.caller, history=self.history)
        self._check_seat()

    def _check_seat(self) -> None:
        """The checks that depend on the viewer: discards' visibility, the hand, the viewer's plays."""
        seat, caller, tricks = self.seat, self.caller, self.tricks
        f = self._facts
        walks = self.history.tricks
        seats = [[(w.leader + i) % 3 for i in range(len(w.plays))] for w in walks]  # the seat of every play
        for t, tr in enumerate(tricks):
            for i, p in enumerate(tr):
                s = seats[t][i]
                where = f"trick {t + 1}, play {i + 1}"
                if p.kind == DISCARD:
                    if s == seat and p.hidden:
                        raise NotationError(
                            "history", _("{where}: {play} is seat {seat}'s own discard; it must show its cards (xC2)").format(where=where, play=p, seat=seat)
                        )
                    if s != seat and p.cards:
                        raise NotationError(
                            "history",
                            _('{where}: the discard {play} of seat {s} is hidden from seat {seat}; write it as x{size}').format(where=where, play=p, s=s, seat=seat, size=p.size),
                        )
                dup = p.cards & self.hand
                if dup:
                    raise NotationError("history", _('{where}: {cards} is also in the hand').format(where=where, cards=format_cards(dup)))
        n = HAND_SIZE - f.played[seat]
        if self.hand.bit_count() != n:
            raise NotationError(
                "hand",
                _('seat {seat} holds {count} cards but has played {played}, so it holds {n}').format(seat=seat, count=self.hand.bit_count(), played=f.played[seat], n=n),
            )
        # suffix unions: face-up cards by seat from trick t on; own cards from trick t on
        count = len(tricks)
        up_by = [[0] * (count + 1) for _ in range(3)]
        mine_from = [0] * (count + 1)
        for t in range(count - 1, -1, -1):
            for s in range(3):
                up_by[s][t] = up_by[s][t + 1]
            mine_from[t] = mine_from[t + 1]
            for i, p in enumerate(tricks[t]):
                s = seats[t][i]
                if p.kind != DISCARD:
                    up_by[s][t] |= p.cards
                if s == seat:
                    mine_from[t] |= p.cards
        faceup = 0  # face-up cards of the tricks before t
        own_before = 0  # the viewer's discards before t
        for t, tr in enumerate(tricks):
            held = self.hand | mine_from[t]  # the viewer's hand when trick t started
            for i, p in enumerate(tr):
                s = seats[t][i]
                where = f"trick {t + 1}, play {i + 1}"
                if i == 0 and p.kind == SINGLE:
                    if s == seat:
                        allowed = single_leads(held, faceup, seat == caller)
                        if not p.cards & allowed:
                            raise NotationError(
                                "history",
                                _('{where}: seat {seat} may not lead {play}: a non-caller leads a non-Old single of its highest suit holding one, here {cards} (R7)').format(where=where, seat=seat, play=p, cards=format_cards(allowed)),
                            )
                    elif s != caller:
                        shown = p.cards | up_by[s][t + 1]
                        out = held | own_before | ((up_by[0][t] | up_by[1][t] | up_by[2][t]) & ~shown)
                        _check_single_lead(where, s, p, shown, out, faceup)
                if i and p.kind == DISCARD:
                    best_i = walks[t].best_before(i)
                    best = tr[best_i]
                    known = held if s == seat else up_by[s][t + 1]
                    beat = next(beating_plays(known, best, best_i == 0), None)
                    if beat is not None:
                        message = (
                            _("{where}: seat {s} discarded but held {beat}, which beats {best} (R9)")
                            if s == seat
                            else _("{where}: seat {s} discarded but held (shown later) {beat}, which beats {best} (R9)")
                        )
                        raise NotationError(
                            "history",
                            message.format(where=where, s=s, beat=beat, best=best),
                        )
                if s == seat:
                    held &= ~p.cards
                    if p.kind == DISCARD:
                        own_before |= p.cards
            if walks[t].complete:  # only completed tricks count for Old cards at the next lead
                faceup |= walks[t].faceup()


def _check_single_lead(where: str, s: int, lead: Play, shown: CardSet, out: CardSet, faceup: CardSet) -> None:
    """R7 for another non-caller's single lead, from what is certain about its hand then.

    ``shown`` are cards it surely held (the lead and its later face-up plays), ``out`` cards it
    surely did not hold and that were not face up. A shown card below an ``out`` card of its suit
    was surely not Old; the lead was surely Old when all higher cards were shown or face up.
    """
    not_old = 0
    for suit in range(4):
        out9 = (out >> (9 * suit)) & SUIT_MASK9
        if out9:
            not_old |= (((1 << (out9.bit_length() - 1)) - 1) << (9 * suit)) & shown
    not_old &= ~ALWAYS_OLD
    if not not_old:
        return
    higher = not_old >> (9 * (lead.suit + 1))
    if higher:
        y = not_old & ~((1 << (9 * (lead.suit + 1))) - 1)
        y &= -y
        raise NotationError(
            "history",
            _('{where}: seat {s}, a non-caller, led {lead} but held the non-Old {cards} (shown later) of a higher suit (R7)').format(where=where, s=s, lead=lead, cards=format_cards(y)),
        )
    if old_cards(shown, faceup) & lead.cards:
        y = not_old & -not_old
        raise NotationError(
            "history",
            _('{where}: seat {s}, a non-caller, led the Old {lead} but held the non-Old {cards} (shown later) (R7)').format(where=where, s=s, lead=lead, cards=format_cards(y)),
        )


def _parse_seat(text: str, field: str) -> int:
    if text not in ("0", "1", "2"):
        raise NotationError(field, _('a seat is 0, 1 or 2, got {text}').format(text=excerpt(text)))
    return int(text)
