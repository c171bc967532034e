"""Dealing and playing whole deals: seeded deals (R2), calling (R3), players and the table loop.

A player is any callable that takes its :class:`~lukfu_solver.view.SeatView` and answers: in the
calling phase (``view.caller is None``) ``"play"`` or ``"pass"``, in the play phase a
:class:`~lukfu_solver.plays.Play`. :class:`Game` is one game at the table, advanced one checked
answer at a time (the terminal and the browser drive it through
:class:`~lukfu_solver.session.GameSession`); :func:`play_deal`, the table loop, seats the players
at a Game, asks them in turn and returns the :class:`GameRecord`.

>>> from lukfu_solver.players.random import RandomPlayer
>>> rec = play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=7)
>>> rec == play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=7)
True
>>> sum(rec.outcome.points), len(rec.replay()) == len(rec.plays) + 1
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .cards import NUM_CARDS
from .errors import NotationError
from .i18n import _
from .inputs import MAX_SEED, check_seed
from .plays import CLAIM, CLAIM_PLAY, DISCARD, Play, classify
from .position import Position
from .record import MAX_PASSED_OUT, GameRecord, Hands
from .view import HAND_SIZE, SeatView

Player = Callable[[SeatView], Play | str]
"""A player: given its view, ``"play"``/``"pass"`` in the calling phase, else a Play."""
Observer = Callable[[GameRecord], None]
"""Told the deal so far (a record, ``outcome`` None until the end) at every deal, call and play."""


def deal_hands(rng: random.Random) -> Hands:
    """R2: shuffle the 36 cards with ``rng`` and deal 12 to each seat (seat 0 first)."""
    cards = list(range(NUM_CARDS))
    rng.shuffle(cards)
    hands = [0, 0, 0]
    for i, c in enumerate(cards):
        hands[i // HAND_SIZE] |= 1 << c
    return (hands[0], hands[1], hands[2])


def deal_from_seed(seed: int) -> Hands:
    """The deal of ``seed`` (0 ≤ seed < 2**63, checked): ``deal_hands(random.Random(seed))``, the
    same in every process."""
    return deal_hands(random.Random(check_seed(seed)))


REDEAL_STEP = 1_000_000_007
"""How far apart the seeds of a game's deals are: after ``k`` deals passed out (R3) the cards are
dealt by the seed ``seed + k × REDEAL_STEP`` (:func:`deal_seed`). A large step, so the redeals of
a session's seeds (``SEED``, ``SEED + 1`` …) are not that session's next deals; a plain number,
so a player can work a redeal's seed out."""


def deal_seed(seed: int, deal: int) -> int:
    """The seed that deals deal ``deal`` (0: the first) of a game of ``seed``: ``deal`` deals after
    it were passed out (R3), the cards are :func:`deal_from_seed` of it and its Master is
    :func:`first_master` of it. So ``lukfu deal --seed`` and ``lukfu play --seed`` of a redeal's
    seed show and play the hand played, and a record of it keeps that seed (``lukfu-record/3``).

    >>> deal_seed(7, 0), deal_seed(7, 2)
    (7, 2000000021)
    >>> deal_seed(MAX_SEED, 1) == REDEAL_STEP - 1  # the seeds wrap round, and stay seeds
    True
    """
    return (check_seed(seed) + deal * REDEAL_STEP) % (MAX_SEED + 1)


def game_seed(seed: int, deal: int) -> int:
    """The seed of the game whose deal ``deal`` is dealt by ``seed``: :func:`deal_seed` undone.

    >>> game_seed(deal_seed(7, 2), 2)
    7
    """
    return (check_seed(seed) - deal * REDEAL_STEP) % (MAX_SEED + 1)


def start_position(seed: int, caller: int = 0) -> Position:
    """The position before the first lead of the deal of ``seed``, with ``caller`` (R4)."""
    return Position.start(deal_from_seed(seed), caller)


def dealt_hand(seed: int, seat: int) -> int:
    """The hand ``seat`` (0 the Master, 1, 2; checked) holds in the deal of ``seed``, as
    ``lukfu deal --seed SEED`` deals it: so a seat's hand can be analysed from the seed alone
    (``analyse``/``advise --deal SEED --seat S``) instead of being cut out of a position line.

    >>> from lukfu_solver.cards import format_cards
    >>> format_cards(dealt_hand(7, 1)) == str(start_position(7)).split("/")[1]
    True
    """
    if seat not in (0, 1, 2):
        raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
    return deal_from_seed(seed)[seat]


class IllegalMove(NotationError):
    """A player answered with an illegal call or move; ``seat`` and ``move`` say which."""

    def __init__(self, seat: int, move: object, reason: str, name: str | None = None) -> None:
        self.seat = seat
        self.move = move
        who = f"seat {seat}" + (f" ({name})" if name else "")
        shown = str(move) if isinstance(move, Play) else repr(move)
        super().__init__("move", f"{who} answered {shown}, which is not legal: {reason}")


def _name(player: Player) -> str:
    return str(getattr(player, "name", None) or getattr(player, "__name__", None) or type(player).__name__)


def first_master(seed: int) -> int:
    """The person (index into ``players``) that :func:`play_deal` makes Master of the first deal
    of ``seed``, drawn after that deal's cards (a later deal, after three passes, is dealt by its
    own seed, :func:`deal_seed`, and draws its Master after its cards the same way).

    >>> from lukfu_solver.players.random import RandomPlayer
    >>> rec = play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=7, names="abc")
    >>> rec.passed_out, rec.players[0] == "abc"[first_master(7)]
    ((), True)
    """
    rng = random.Random(check_seed(seed))
    deal_hands(rng)
    return rng.randrange(3)


class Game:
    """One game at a table of three, python-chess style: the deal of a seed (R2; dealt again and a
    new Master drawn after three passes, R3), its calls and plays pushed one answer at a time and
    checked, taken back (:meth:`pop`, :meth:`rewind`), resumed from a record (:meth:`from_record`),
    and where it stands: the phase, the seat to answer, each seat's view, the record so far.

    The three persons (0, 1, 2) sit at the table for the whole game, ``names[person]`` naming
    them in the record; each deal draws its Master among them, and seat ``s`` of a deal is person
    ``(master + s) % 3``. Deal ``k`` (0 the first) is dealt by :func:`deal_seed` ``(seed, k)``:
    the record of a deal keeps that seed. ``chained`` is the older rule of ``lukfu-record/2``
    games, kept to resume them: a redeal went on drawing from the first deal's generator, so
    no seed dealt it. The state is the seed and the answers given (the calls and plays of every
    deal, in order): everything else is derived from them.

    >>> g = Game(7, ("ann", "bob", "cy"))
    >>> g.phase, g.to_move, g.legal_answers()
    ('call', 0, ['play', 'pass'])
    >>> g.push("play"); g.phase, g.caller, len(g.legal_answers()) > 0
    ('play', 0, True)
    >>> g.pop(); g.phase, g.answers
    ('call', [])
    """

    def __init__(self, seed: int, names: Sequence[str] = ("", "", ""), chained: bool = False) -> None:
        check_seed(seed)
        if len(names) != 3:
            raise NotationError("names", _("three names, got {count}").format(count=len(names)))
        self.seed = seed
        self.chained = chained
        self.names = [str(n) for n in names]
        self._answers: list[str | Play] = []
        self.persons: list[int] = []
        """The person who gave each answer."""
        self._restart()

    def _restart(self) -> None:
        """The state before any answer: the first deal of the seed."""
        self.passed_out: list[Hands] = []
        self.masters: list[int] = []
        """The Master of each deal dealt so far (the current one last)."""
        self._answers = []
        self.persons = []
        self._deal()

    def _deal(self) -> None:
        """Deal the next deal from its seed (:func:`deal_seed`) and draw its Master after its cards."""
        k = len(self.passed_out)
        if k == 0 or not self.chained:
            self._rng = random.Random(deal_seed(self.seed, k))
        self.hands: Hands = deal_hands(self._rng)  # deal k is deal_from_seed(deal_seed(seed, k))
        self.master = self._rng.randrange(3)
        self.masters.append(self.master)
        self.calls: list[str] = []
        self.plays: list[Play] = []
        self.pos: Position | None = None

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """The game ``record`` holds, resumed (finished or not): its seed deals each deal again,
        checked against the record's hands, and its answers are pushed again; the persons are
        named as the record names the seats of its last deal. A ``lukfu-record/3`` record keeps
        the seed of its own deal (the game's is :func:`game_seed` of it); an older one the seed
        of the game's first deal, its redeals chained."""
        if record.seed is None:
            raise NotationError("record", _("only a game with its seed can be resumed"))
        k = len(record.passed_out)
        if record.version >= 3:
            game = cls(game_seed(record.seed, k))
        else:
            game = cls(record.seed, chained=k > 0)
        deals = [*record.passed_out, record.hands]
        for k, hands in enumerate(deals):
            if game.hands != hands:
                raise NotationError("record", _("its hands are not the ones its seed deals"))
            answers: list[str | Play] = ["pass"] * 3 if k < len(record.passed_out) else [*record.calls, *record.plays]
            for answer in answers:
                game.push(answer)
        if record.players is not None:
            game.names = [record.players[game.seat_of(p)] for p in range(3)]
        return game

    # ------------------------------------------------------------ where it stands

    @property
    def answers(self) -> list[str]:
        """Every answer given so far, in order, as NOTATION.md writes it (``play``, ``pass``, a move)."""
        return [a if isinstance(a, str) else str(a) for a in self._answers]

    @property
    def answered(self) -> int:
        """How many answers have been given so far."""
        return len(self._answers)

    def person_at(self, seat: int) -> int:
        """The person sitting at ``seat`` in the current deal."""
        return (self.master + seat) % 3

    def seat_of(self, person: int) -> int:
        """The seat of ``person`` in the current deal."""
        return (person - self.master) % 3

    @property
    def seat_names(self) -> tuple[str, str, str]:
        """The players' names by seat of the current deal."""
        n = [self.names[self.person_at(s)] for s in range(3)]
        return (n[0], n[1], n[2])

    @property
    def phase(self) -> str:
        """``call``, ``play`` or ``over``."""
        if self.pos is None:
            return "call"
        return "over" if self.pos.is_over else "play"

    @property
    def caller(self) -> int | None:
        """The caller's seat, None during the call."""
        return None if self.pos is None else self.pos.caller

    @property
    def to_move(self) -> int | None:
        """The seat to answer now (None when the deal is over)."""
        if self.pos is None:
            return len(self.calls)
        return None if self.pos.is_over else self.pos.to_move

    def seed_of(self, deal: int) -> int:
        """The seed a record of deal ``deal`` (0 the first) keeps: the one that deals it
        (:func:`deal_seed`), or the game's own for a chained game (``lukfu-record/2``)."""
        return self.seed if self.chained else deal_seed(self.seed, deal)

    @property
    def deal_seed(self) -> int:
        """The seed of the current deal (:meth:`seed_of`): ``lukfu deal --seed`` of it shows its
        hands, ``lukfu play --seed`` of it plays it."""
        return self.seed_of(len(self.passed_out))

    @property
    def record(self) -> GameRecord:
        """The game so far as a record (``outcome`` None until the end), keeping the seed of the
        current deal (:attr:`deal_seed`)."""
        outcome = None if self.pos is None else self.pos.outcome
        return GameRecord(
            self.hands,
            tuple(self.calls),
            tuple(self.plays),
            outcome,
            self.seat_names,
            self.deal_seed,
            tuple(self.passed_out),
            version=2 if self.chained else 3,
        )

    def passed_out_record(self, deal: int) -> GameRecord:
        """The record of passed-out deal ``deal`` (0 the first, -1 the last): its hands, the three
        passes, its seats' names and its seed (R3)."""
        k = range(len(self.passed_out))[deal]
        names = [self.names[(self.masters[k] + s) % 3] for s in range(3)]
        seat_names = (names[0], names[1], names[2])
        return GameRecord(
            self.passed_out[k],
            ("pass",) * 3,
            (),
            None,
            seat_names,
            self.seed_of(k),
            tuple(self.passed_out[:k]),
            version=2 if self.chained else 3,
        )

    def view(self, seat: int) -> SeatView:
        """What ``seat`` knows now: the calling-phase view during the call (a final claim is not shown)."""
        if self.pos is None:
            return SeatView(seat, self.hands[seat], None, (), tuple(self.calls))
        plays = self.plays[:-1] if self.plays and self.plays[-1].kind == CLAIM else self.plays
        return SeatView.from_deal(seat, self.hands[seat], self.pos.caller, plays)

    def legal_answers(self) -> list[str]:
        """The legal answers of the seat to move, canonical and sorted: ``play``/``pass`` at the
        call, the legal moves in play; empty once the deal is over."""
        s = self.to_move
        if s is None:
            return []
        if self.pos is None:
            return ["play", "pass"]
        return [str(m) for m in self.view(s).sorted_legal_moves()]

    # ------------------------------------------------------------ moving

    def push(self, answer: str | Play) -> None:
        """The next answer of the seat to move, checked: ``play``/``pass`` at the call, a Play (or
        its text) in play; a third pass deals again (R3: the deal passed out is
        :meth:`passed_out_record`). An illegal answer raises :class:`IllegalMove` and nothing
        changes."""
        s = self.to_move
        if s is None:
            raise NotationError("move", _("the deal is over"))
        person = self.person_at(s)
        if self.pos is None:
            if not isinstance(answer, str) or answer not in ("play", "pass"):
                raise IllegalMove(s, answer, "in the calling phase the answer is 'play' or 'pass' (R3)", self.names[person])
            if answer == "pass" and len(self.calls) == 2 and len(self.passed_out) + 1 >= MAX_PASSED_OUT:
                raise NotationError(
                    "calls", _("{count} deals in a row were passed out (R3); giving up").format(count=MAX_PASSED_OUT)
                )
            self.calls.append(answer)
            self._answers.append(answer)
            self.persons.append(person)
            if answer == "play":
                self.pos = Position.start(self.hands, s)
            elif len(self.calls) == 3:
                self.passed_out.append(self.hands)
                self._deal()
            return
        move = Play.parse(answer, "move") if isinstance(answer, str) else answer
        if not self.pos.is_legal(move):
            reason = "its kind, cards and size disagree" if _malformed(move) else self.pos.why_illegal(move)
            raise IllegalMove(s, move, reason or "", self.names[person])
        self.pos.push(move)
        self.plays.append(move)
        self._answers.append(move)
        self.persons.append(person)

    def rewind(self, count: int) -> None:
        """Go back to the game after its first ``count`` answers (the seed's deals again, the
        answers pushed again)."""
        if not 0 <= count <= len(self._answers):
            raise NotationError("undo", _("{plays} is outside 0-{count}").format(plays=count, count=len(self._answers)))
        answers = self._answers[:count]
        self._restart()
        for a in answers:
            self.push(a)

    def pop(self) -> None:
        """Take back the last answer (a NotationError before the first)."""
        if not self._answers:
            raise NotationError("undo", _("nothing to undo yet"))
        self.rewind(len(self._answers) - 1)


def play_deal(
    players: Sequence[Player],
    seed: int,
    names: Sequence[str] | None = None,
    observer: Observer | None = None,
) -> GameRecord:
    """Play one deal at a table of three and return its record; the same ``seed`` gives the same deal.

    ``players[i]`` is person i, asked in turn by a :class:`Game` of ``seed``: with
    ``random.Random(seed)`` the hands are dealt, seat 0 first (so the first deal is
    :func:`deal_from_seed`'s: ``lukfu deal --seed SEED --seat S`` shows the hand seat S gets),
    then the Master is drawn among the persons (R2) and seats are numbered from the Master (seat
    s is person (master + s) % 3); the calls go from seat 0 (R3); if all pass, the hands go to
    ``passed_out`` and the next deal is dealt, and its Master drawn, the same way from its own
    seed, :func:`deal_seed` (at most :data:`~lukfu_solver.record.MAX_PASSED_OUT` times). The
    record keeps the seed of the deal played. ``seed`` is 0 ≤ seed < 2**63 (checked).
    Every answer is checked: an illegal one raises :class:`IllegalMove`. ``names`` (default: each
    player's ``name`` or function name) label the record's players by seat.

    ``observer``, when given, is called with the deal so far as a :class:`GameRecord` (``outcome``
    None until the deal ends) whenever a deal is dealt, after every call and after every play:
    a terminal uses it to show the other players' moves as they happen. It sees every card
    (discards included), so it must show a person only what that person's view shows.
    """
    check_seed(seed)
    if len(players) != 3:
        raise NotationError("players", _("a table has three players, got {count}").format(count=len(players)))
    labels = [str(n) for n in names] if names is not None else [_name(p) for p in players]
    game = Game(seed, labels)
    if observer is not None:
        observer(game.record)
    while game.phase != "over":
        s = game.to_move
        assert s is not None
        person = game.person_at(s)
        answer = players[person](game.view(s))
        if game.pos is not None and not isinstance(answer, Play):
            raise IllegalMove(s, answer, "in the play phase the answer is a Play", labels[person])
        deal = len(game.passed_out)
        try:
            game.push(answer)
        except NotationError as err:
            if err.field == "calls":  # endless passing
                raise NotationError("players", err.message) from None
            raise
        if observer is not None:
            if len(game.passed_out) != deal:  # the deal passed out, then the next one dealt
                observer(game.passed_out_record(-1))
            observer(game.record)
    return game.record


def _malformed(move: Play) -> bool:
    """True for a Play whose fields disagree (a size that is not its card count, a wrong kind)."""
    if move.kind == CLAIM:
        return move != CLAIM_PLAY
    if move.kind == DISCARD:  # x2 (cards hidden) is well formed, if illegal here
        return bool(move.cards) and move.cards.bit_count() != move.size
    return move.cards.bit_count() != move.size or classify(move.cards) != move.kind
