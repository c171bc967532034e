"""The perfect-information position: hands, turn, caller, fu, face-up cards and the trick in
progress, with legal moves, ``push``/``pop`` and an incremental Zobrist hash.

>>> pos = Position.parse("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -")
>>> [str(m) for m in pos.legal_moves()][:3]
['T2', 'T3', 'T5']
>>> pos.push(Play.parse("T2")); str(pos)
'C69S246M567T135/C1378S57M24T4789/C245S1389M1389T6 1 1 0,0,0 - T2'
>>> pos.pop(); pos.to_move
0
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, NamedTuple

from .cards import ALL_CARDS, SUIT_MASK9, CardSet, format_cards, old_cards, parse_cards
from .errors import NotationError
from .history import best_index
from .i18n import _
from .inputs import excerpt, parse_int, split_fields
from .plays import CLAIM, CLAIM_PLAY, DISCARD, SINGLE, Play, beats, classify
from .rules import (
    Outcome,
    can_beat,
    can_claim,
    claim_outcome,
    claim_total,
    end_outcome,
    follow_plays,
    lead_plays,
    single_leads,
)

HAND_SIZE = 12

# ---------------------------------------------------------------- Zobrist keys

_rng = random.Random(0x6C756B6675)  # fixed: hashes are the same in every process


def _mask_tables() -> tuple[tuple[int, ...], ...]:
    """Four 512-entry tables (one per suit) whose XOR over a mask's suit fields is its key."""
    per_card = [_rng.getrandbits(64) for _ in range(36)]
    tables = []
    for s in range(4):
        t = [0] * 512
        for m in range(1, 512):
            low = m & -m
            t[m] = t[m ^ low] ^ per_card[9 * s + low.bit_length() - 1]
        tables.append(tuple(t))
    return tuple(tables)


Z_HAND = tuple(_mask_tables() for _ in range(3))
Z_FACEUP = _mask_tables()
Z_TRICK_UP = tuple(_mask_tables() for _ in range(3))
Z_TRICK_DOWN = tuple(_mask_tables() for _ in range(3))
Z_FU = tuple(tuple(_rng.getrandbits(64) for _ in range(HAND_SIZE + 1)) for _ in range(3))
Z_TO_MOVE = tuple(_rng.getrandbits(64) for _ in range(3))
Z_CALLER = tuple(_rng.getrandbits(64) for _ in range(3))
Z_ENDED = _rng.getrandbits(64)


def zmask(tables: tuple[tuple[int, ...], ...], mask: CardSet) -> int:
    """The Zobrist key of a card mask in one place (XOR-linear in the mask)."""
    return (
        tables[0][mask & SUIT_MASK9]
        ^ tables[1][(mask >> 9) & SUIT_MASK9]
        ^ tables[2][(mask >> 18) & SUIT_MASK9]
        ^ tables[3][mask >> 27]
    )


Fault = Literal[
    "malformed",
    "claim-in-trick",
    "claim-short",
    "hidden",
    "missing",
    "lead-discard",
    "R6",
    "R7",
    "size",
    "must-beat",
    "beat",
]
"""The first thing wrong with a move (see :func:`move_fault`); each caller words it for its reader."""


class Turn(NamedTuple):
    """What the legality of the next move depends on (R5–R9, R14), for the seat about to act.

    A :class:`Position` and a seat view both reduce to it, so both judge a move by one function,
    :func:`move_fault`. ``faceup`` holds the face-up cards of completed tricks, ``trick`` the
    trick in progress (leader first) with its best play at ``best_i``; ``is_caller`` frees the
    seat from R7, ``passed_master`` (seat 0 when another seat called) binds it to R6.
    """

    hand: CardSet
    faceup: CardSet
    fu: int
    trick: tuple[Play, ...]
    best_i: int
    is_caller: bool
    passed_master: bool

    @property
    def best(self) -> Play | None:
        """The current best play of the trick in progress (None before its lead)."""
        return self.trick[self.best_i] if self.trick else None


def move_fault(turn: Turn, move: Play) -> Fault | None:
    """The first rule ``move`` breaks for the seat of ``turn``, or None when the move is legal.

    In this order: ``malformed`` (kind, cards and size disagree), a claim away from the lead
    (``claim-in-trick``) or short of six (``claim-short``, R14), a ``hidden`` discard (its cards
    are needed), cards not held (``missing``); leading: a discard (``lead-discard``, R5), a long
    lead by a passed Master (``R6``), a single R7 forbids; following: the wrong ``size``, a
    discard by a seat that can beat (``must-beat``, R9), a play that does not ``beat`` (R8).

    >>> t = Turn(parse_cards("C1S2S3"), 0, 0, (), 0, False, False)
    >>> move_fault(t, Play.parse("S3")), move_fault(t, Play.parse("C1")), move_fault(t, Play.parse("S4"))
    (None, 'R7', 'missing')
    """
    if move.kind == CLAIM:
        if move != CLAIM_PLAY:
            return "malformed"
        if turn.trick:
            return "claim-in-trick"
        return None if can_claim(turn.fu, turn.hand, turn.faceup) else "claim-short"
    if move.kind == DISCARD:
        if move.cards and move.cards.bit_count() != move.size:
            return "malformed"
    elif move.cards.bit_count() != move.size or classify(move.cards) != move.kind:
        return "malformed"
    if move.hidden:
        return "hidden"
    if move.cards & ~turn.hand:
        return "missing"
    if not turn.trick:
        if move.kind == DISCARD:
            return "lead-discard"
        if turn.passed_master and move.size >= 4:
            return "R6"
        if move.kind == SINGLE and not move.cards & single_leads(turn.hand, turn.faceup, turn.is_caller):
            return "R7"
        return None
    best = turn.trick[turn.best_i]
    if move.size != turn.trick[0].size:
        return "size"
    if move.kind == DISCARD:
        return "must-beat" if can_beat(turn.hand, best, turn.best_i == 0) else None
    return None if beats(move, best, turn.best_i == 0) else "beat"


def reason(turn: Turn, move: Play, words: Callable[[Fault, Turn, Play], str]) -> str | None:
    """Why ``move`` is illegal for ``turn``, or None when it is legal: the faults every reader is
    told alike (a malformed play, R6) are worded here, the others by ``words`` (a position speaks
    of the seat to move, a seat view to its player)."""
    fault = move_fault(turn, move)
    if fault is None:
        return None
    if fault == "malformed":
        return _("its kind, cards and size disagree")
    if fault == "R6":
        return _("the Master passed and may not lead a four-card set or a run of four or more (R6)")
    return words(fault, turn, move)


class Position:
    """A mutable perfect-information position (NOTATION.md "Position"), python-chess style.

    ``hands`` and ``fu`` are lists by seat, ``faceup`` the cards shown in completed tricks,
    ``trick`` the plays of the trick in progress (leader first), ``outcome`` set once the deal
    has ended. ``key`` is a 64-bit Zobrist hash of everything that matters for play.
    """

    __slots__ = ("hands", "to_move", "caller", "fu", "faceup", "trick", "leader", "best_i", "outcome", "key", "_stack")

    def __init__(
        self,
        hands: Sequence[CardSet],
        to_move: int = 0,
        caller: int = 0,
        fu: Sequence[int] = (0, 0, 0),
        faceup: CardSet = 0,
        trick: Sequence[Play] = (),
    ) -> None:
        """Build a position without checks; use :meth:`parse` or :meth:`validate` for untrusted input."""
        self.hands = list(hands)
        self.to_move = to_move
        self.caller = caller
        self.fu = list(fu)
        self.faceup = faceup
        self.trick: tuple[Play, ...] = tuple(trick)
        self.leader = (to_move - len(self.trick)) % 3
        self.best_i = best_index(self.trick)
        self.outcome: Outcome | None = None
        self._stack: list[tuple] = []
        if not self.trick and not any(self.hands):
            self.outcome = end_outcome(self.fu, self.to_move, self.caller)
        self.key = self._full_key()

    @classmethod
    def start(cls, hands: Sequence[CardSet], caller: int) -> Position:
        """The position before the first lead: the Master (seat 0) leads (R4)."""
        return cls(hands, 0, caller)

    def copy(self) -> Position:
        """An independent copy of the position (without its move stack)."""
        p = Position(self.hands, self.to_move, self.caller, self.fu, self.faceup, self.trick)
        p.outcome = self.outcome
        p.key = self.key
        return p

    @property
    def ply(self) -> int:
        """How many moves have been pushed on this object and not popped (a copy starts at 0)."""
        return len(self._stack)

    # ------------------------------------------------------------ derived facts

    def _full_key(self) -> int:
        k = Z_TO_MOVE[self.to_move] ^ Z_CALLER[self.caller] ^ zmask(Z_FACEUP, self.faceup)
        for s in range(3):
            k ^= zmask(Z_HAND[s], self.hands[s]) ^ Z_FU[s][min(self.fu[s], HAND_SIZE)]
        for i, p in enumerate(self.trick):
            seat = (self.leader + i) % 3
            k ^= zmask((Z_TRICK_DOWN if p.kind == DISCARD else Z_TRICK_UP)[seat], p.cards)
        if self.outcome is not None:
            k ^= Z_ENDED
        return k

    @property
    def is_over(self) -> bool:
        """True once the deal has ended (a claim, or the last trick: R14, R15)."""
        return self.outcome is not None

    @property
    def trick_cards(self) -> CardSet:
        """All cards put into the trick in progress."""
        m = 0
        for p in self.trick:
            m |= p.cards
        return m

    @property
    def trick_faceup(self) -> CardSet:
        """The face-up cards of the trick in progress."""
        m = 0
        for p in self.trick:
            if p.kind != DISCARD:
                m |= p.cards
        return m

    @property
    def facedown(self) -> CardSet:
        """The face-down discards of completed tricks: every card named nowhere else."""
        named = self.hands[0] | self.hands[1] | self.hands[2] | self.faceup | self.trick_cards
        return ALL_CARDS & ~named

    @property
    def best(self) -> Play | None:
        """The current best play of the trick in progress (None before the lead)."""
        return self.trick[self.best_i] if self.trick else None

    @property
    def best_seat(self) -> int | None:
        """The seat whose play is currently best in the trick (None before the lead)."""
        return (self.leader + self.best_i) % 3 if self.trick else None

    def old_cards(self, seat: int) -> CardSet:
        """The Old cards of ``seat``'s hand for that seat (R11–R13), counting face-up plays so far."""
        return old_cards(self.hands[seat], self.faceup | self.trick_faceup)

    def can_claim(self) -> bool:
        """True when the seat to move is about to lead and may claim (R14)."""
        s = self.to_move
        return self.outcome is None and not self.trick and can_claim(self.fu[s], self.hands[s], self.faceup)

    def claim_total(self) -> int:
        """The total T of the seat to move if it claimed now (R16): its fu plus its Old cards."""
        s = self.to_move
        return claim_total(self.fu[s], self.hands[s], self.faceup)

    def cards_per_hand(self) -> int:
        """n: the cards each seat holds, counting what it has put into the trick in progress."""
        return self.hands[0].bit_count() + self._played_in_trick(0)

    def _played_in_trick(self, seat: int) -> int:
        i = (seat - self.leader) % 3
        return self.trick[i].size if i < len(self.trick) else 0

    # ------------------------------------------------------------ moves

    def legal_moves(self) -> Iterator[Play]:
        """The legal moves of the seat to move, as a generator (R5–R9, R14).

        Leading: the claim first when allowed, then every legal lead. Following: every play that
        beats the current best play, or, when there is none, every discard of the lead's size.
        """
        if self.outcome is not None:
            return
        s = self.to_move
        hand = self.hands[s]
        if not self.trick:
            if can_claim(self.fu[s], hand, self.faceup):
                yield CLAIM_PLAY
            yield from lead_plays(hand, self.faceup, s == self.caller, s == 0 and self.caller != 0)
        else:
            yield from follow_plays(hand, self.trick[self.best_i], self.best_i == 0, self.trick[0].size)

    def sorted_legal_moves(self) -> list[Play]:
        """The legal moves in canonical order (:meth:`Play.sort_key`), the order every listing prints."""
        return sorted(self.legal_moves(), key=Play.sort_key)

    def turn(self) -> Turn:
        """What the legality of the next move depends on (the seat to move's hand and the trick)."""
        s = self.to_move
        return Turn(
            self.hands[s],
            self.faceup,
            self.fu[s],
            self.trick,
            self.best_i,
            s == self.caller,
            s == 0 and self.caller != 0,
        )

    def is_legal(self, move: Play) -> bool:
        """True when ``move`` is legal here, checked directly (without listing every discard)."""
        return self.outcome is None and move_fault(self.turn(), move) is None

    def push(self, move: Play) -> None:
        """Play ``move`` for the seat to move (no legality check: see :meth:`push_checked`)."""
        self._stack.append(
            (
                self.hands[:],
                self.fu[:],
                self.faceup,
                self.to_move,
                self.leader,
                self.trick,
                self.best_i,
                self.outcome,
                self.key,
            )
        )
        s = self.to_move
        if move.kind == CLAIM:
            total = claim_total(self.fu[s], self.hands[s], self.faceup)
            self.outcome = claim_outcome(s, total, self.caller)
            self.key ^= Z_ENDED
            return
        k = self.key
        self.hands[s] ^= move.cards
        k ^= zmask(Z_HAND[s], move.cards)
        trick = self.trick
        if move.kind == DISCARD:
            k ^= zmask(Z_TRICK_DOWN[s], move.cards)
        else:
            k ^= zmask(Z_TRICK_UP[s], move.cards)
            if trick:  # a follower's play that is not a discard beats the best play
                self.best_i = len(trick)
        nxt = (s + 1) % 3
        trick = trick + (move,)
        if len(trick) < 3:
            self.trick = trick
            self.to_move = nxt
            self.key = k ^ Z_TO_MOVE[s] ^ Z_TO_MOVE[nxt]
            return
        # the trick is complete: R10
        leader = self.leader
        winner = (leader + self.best_i) % 3
        up = 0
        for i, p in enumerate(trick):
            seat = (leader + i) % 3
            if p.kind == DISCARD:
                k ^= zmask(Z_TRICK_DOWN[seat], p.cards)
            else:
                k ^= zmask(Z_TRICK_UP[seat], p.cards)
                up |= p.cards
        self.faceup |= up
        k ^= zmask(Z_FACEUP, up)
        old_fu = self.fu[winner]
        new_fu = old_fu + trick[self.best_i].size
        self.fu[winner] = new_fu
        k ^= Z_FU[winner][old_fu] ^ Z_FU[winner][new_fu]
        k ^= Z_TO_MOVE[s] ^ Z_TO_MOVE[winner]
        self.trick = ()
        self.best_i = 0
        self.to_move = winner
        self.leader = winner
        if not self.hands[winner]:  # all hands are the same size: they ran out (R15)
            self.outcome = end_outcome(self.fu, winner, self.caller)
            k ^= Z_ENDED
        self.key = k

    def pop(self) -> None:
        """Take back the last move pushed."""
        (
            self.hands,
            self.fu,
            self.faceup,
            self.to_move,
            self.leader,
            self.trick,
            self.best_i,
            self.outcome,
            self.key,
        ) = self._stack.pop()

    def push_checked(self, move: Play, field: str = "move") -> None:
        """Play ``move`` after checking it is legal; an illegal move raises :class:`NotationError`."""
        if not self.is_legal(move):
            raise NotationError(
                field, _("{move} is not legal here ({why})").format(move=move, why=self.why_illegal(move))
            )
        self.push(move)

    def why_illegal(self, move: Play) -> str | None:
        """Why ``move`` is not legal here, in a few words naming the rule; None when it is legal.

        >>> pos = Position.parse("C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -")
        >>> pos.why_illegal(Play.parse("T2")) is None, pos.why_illegal(Play.parse("C6"))
        (True, 'a non-caller must lead a non-Old single of the highest suit holding a non-Old card (R7)')
        """
        if self.outcome is not None:
            return _("the deal has ended")
        return reason(self.turn(), move, self._words)

    def _words(self, fault: Fault, turn: Turn, move: Play) -> str:
        """A fault in the words of a position (third person: the seat to move), for :func:`reason`."""
        s = self.to_move
        match fault:
            case "claim-in-trick":
                return _("a claim is made only when about to lead")
            case "claim-short":
                return _("seat {seat} has {fu} fu and {old} Old cards, fewer than 6").format(
                    seat=s, fu=self.fu[s], old=self.old_cards(s).bit_count()
                )
            case "hidden":
                return _("a discard must show its cards here")
            case "missing":
                return _("seat {seat} does not hold {cards}").format(
                    seat=s, cards=format_cards(move.cards & ~turn.hand)
                )
            case "lead-discard":
                return _("a leader cannot discard")
            case "R7":
                return _("a non-caller must lead a non-Old single of the highest suit holding a non-Old card (R7)")
            case "size":
                return _("the lead has {n} cards").format(n=self.trick[0].size)
            case "must-beat":
                return _("seat {seat} can beat {best} and must (R9)").format(seat=s, best=turn.best)
        return _("{move} does not beat {best} (R8)").format(move=move, best=turn.best)  # the fault "beat"

    # ------------------------------------------------------------ text

    def to_json(self) -> dict[str, Any]:
        """The facts of ``lukfu show POSITION --json`` (cards and plays as NOTATION.md writes them)."""
        trick = None
        if self.trick:
            trick = {
                "leader": self.leader,
                "plays": [{"seat": (self.leader + i) % 3, "play": str(p)} for i, p in enumerate(self.trick)],
                "best": {"seat": self.best_seat, "play": str(self.best)},
            }
        o = self.outcome
        return {
            "position": str(self),
            "hands": [format_cards(h) for h in self.hands],
            "old": [format_cards(self.old_cards(s)) for s in range(3)],
            "fu": list(self.fu),
            "caller": self.caller,
            "master": 0,
            "to_move": None if o is not None else self.to_move,
            "can_claim": self.can_claim(),
            "faceup": format_cards(self.faceup),
            "facedown": self.facedown.bit_count(),
            "trick": trick,
            "outcome": None if o is None else o.to_json(points=False),
            "points": None if o is None else list(o.points),
        }

    def __str__(self) -> str:
        hands = "/".join(format_cards(h) for h in self.hands)
        fu = ",".join(str(f) for f in self.fu)
        trick = ",".join(str(p) for p in self.trick) if self.trick else "-"
        return f"{hands} {self.to_move} {self.caller} {fu} {format_cards(self.faceup)} {trick}"

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and str(self) == str(other) and self.outcome == other.outcome

    __hash__ = None  # type: ignore[assignment]  # mutable

    @classmethod
    def parse(cls, text: str) -> Position:
        """Parse and validate a position line (NOTATION.md); faults raise :class:`NotationError`.

        The six fields are separated by single spaces (a tab, a line break, two spaces or a
        space at either end is refused) and the line is at most 10,000 characters.
        """
        fields = split_fields(text, "position")
        if len(fields) != 6:
            raise NotationError(
                "position",
                _("expected 6 fields (hands to-move caller fu face-up trick), got {count}").format(count=len(fields)),
            )
        hands_t, tm_t, caller_t, fu_t, up_t, trick_t = fields
        parts = hands_t.split("/")
        if len(parts) != 3:
            raise NotationError(
                "hands", _("expected three hands separated by '/', got {count}").format(count=len(parts))
            )
        hands = [parse_cards(p, f"hands: seat {i}") for i, p in enumerate(parts)]
        to_move = _parse_seat(tm_t, "to-move")
        caller = _parse_seat(caller_t, "caller")
        fu_parts = fu_t.split(",")
        if len(fu_parts) != 3 or not all(f.isascii() and f.isdigit() for f in fu_parts):
            raise NotationError("fu", _("expected three numbers f0,f1,f2, got {fu}").format(fu=excerpt(fu_t)))
        fu = [parse_int(f, "fu", 0, HAND_SIZE) for f in fu_parts]
        faceup = parse_cards(up_t, "face-up")
        trick: list[Play] = []
        if trick_t != "-":
            for i, t in enumerate(trick_t.split(",")):
                trick.append(Play.parse(t, f"trick: play {i + 1}"))
        pos = cls.__new__(cls)
        Position.__init__(pos, hands, to_move, caller, fu, faceup, ())
        pos._check_and_set_trick(trick)
        return pos

    def _check_and_set_trick(self, trick: list[Play]) -> None:
        """Validate the position as NOTATION.md requires, then install the trick in progress."""
        hands = self.hands
        seen = 0
        for h in hands:
            dup = seen & h
            if dup:
                raise NotationError("hands", _("card {cards} appears in two hands").format(cards=format_cards(dup)))
            seen |= h
        dup = seen & self.faceup
        if dup:
            raise NotationError("face-up", _("card {cards} is also in a hand").format(cards=format_cards(dup)))
        seen |= self.faceup
        if len(trick) > 2:
            raise NotationError(
                "trick", _("a trick in progress has at most 2 plays, got {count}").format(count=len(trick))
            )
        leader = (self.to_move - len(trick)) % 3
        for i, p in enumerate(trick):
            if p.kind == CLAIM:
                raise NotationError(f"trick: play {i + 1}", _("a claim ends the deal; it is not a play in a trick"))
            if p.hidden:
                raise NotationError(f"trick: play {i + 1}", _("a discard in a position must show its cards"))
            dup = seen & p.cards
            if dup:
                raise NotationError(
                    f"trick: play {i + 1}", _("card {cards} is also named elsewhere").format(cards=format_cards(dup))
                )
            seen |= p.cards
        sizes = []
        for s in range(3):
            i = (s - leader) % 3
            sizes.append(hands[s].bit_count() + (trick[i].size if i < len(trick) else 0))
        if len(set(sizes)) != 1:
            raise NotationError(
                "hands",
                _("seats hold {s0}, {s1}, {s2} cards counting their plays in the trick; they must be equal").format(
                    s0=sizes[0], s1=sizes[1], s2=sizes[2]
                ),
            )
        n = sizes[0]
        if n > HAND_SIZE:
            raise NotationError("hands", _("{n} cards a seat; at most {size}").format(n=n, size=HAND_SIZE))
        c = HAND_SIZE - n
        down = 36 - seen.bit_count()
        if not 0 <= down <= 2 * c:
            raise NotationError(
                "face-up",
                _(
                    "{down} cards are face down (named nowhere) but {played} cards a seat were played: at most {most} can be"
                ).format(down=down, played=c, most=2 * c),
            )
        if sum(self.fu) != c:
            raise NotationError(
                "fu",
                _("fu add up to {total} but {played} cards a seat were played in completed tricks").format(
                    total=sum(self.fu), played=c
                ),
            )
        if c == 0 and leader != 0:
            raise NotationError(
                "to-move",
                _(
                    "the first trick is led by seat 0 (R4), but to-move {to_move} with {count} plays makes seat {leader} the leader"
                ).format(to_move=self.to_move, count=len(trick), leader=leader),
            )
        if c > 0 and self.fu[leader] < 1:
            raise NotationError(
                "to-move",
                _("seat {leader} leads the trick but has won no fu, so it did not win the last trick").format(
                    leader=leader
                ),
            )
        if n == 0:
            return  # the deal has ended (R15); __init__ set the outcome
        # the trick so far must be legal: replay it from the hands at the time
        self.trick = ()
        self.leader = leader
        self.to_move = leader
        self.key = self._full_key()
        for s in range(3):
            i = (s - leader) % 3
            if i < len(trick):
                self.hands[s] |= trick[i].cards
        self.key = self._full_key()
        for i, p in enumerate(trick):
            if not self.is_legal(p):
                raise NotationError(
                    f"trick: play {i + 1}",
                    _("{play} by seat {to_move} is not legal ({reason})").format(
                        play=p, to_move=self.to_move, reason=self.why_illegal(p)
                    ),
                )
            self.push(p)
        self._stack.clear()


def _parse_seat(text: str, field: str) -> int:
    if text not in ("0", "1", "2"):
        raise NotationError(field, _("a seat is 0, 1 or 2, got {text}").format(text=excerpt(text)))
    return int(text)
