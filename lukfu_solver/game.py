"""Dealing and playing whole deals: seeded deals (R2), calling (R3), players and the table loop.

A player is any callable that takes its :class:`~lukfu_solver.view.SeatView` and answers: in the
calling phase (``view.caller is None``) ``"play"`` or ``"pass"``, in the play phase a
:class:`~lukfu_solver.plays.Play`. :func:`play_deal` seats the players, deals, runs the calling
and the play, checks every answer against the rules and returns the :class:`GameRecord`.

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
from .inputs import check_seed
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
    of ``seed``, drawn after that deal's cards (a later deal, after three passes, draws again).

    >>> from lukfu_solver.players.random import RandomPlayer
    >>> rec = play_deal([RandomPlayer(1), RandomPlayer(2), RandomPlayer(3)], seed=7, names="abc")
    >>> rec.passed_out, rec.players[0] == "abc"[first_master(7)]
    ((), True)
    """
    rng = random.Random(check_seed(seed))
    deal_hands(rng)
    return rng.randrange(3)


def play_deal(
    players: Sequence[Player],
    seed: int,
    names: Sequence[str] | None = None,
    observer: Observer | None = None,
) -> GameRecord:
    """Play one deal at a table of three and return its record; the same ``seed`` gives the same deal.

    ``players[i]`` is person i. With ``random.Random(seed)`` the hands are dealt, seat 0 first (so
    the first deal is :func:`deal_from_seed`'s: ``lukfu deal --seed SEED --seat S`` shows the hand
    seat S gets), then the Master is drawn among the persons (R2) and seats are numbered from the
    Master (seat s is person (master + s) % 3); the calls go from seat 0 (R3); if all pass, the
    hands go to ``passed_out``, the cards are dealt again and a new Master is drawn (at most :data:`~lukfu_solver.record.MAX_PASSED_OUT`
    times). ``seed`` is 0 ≤ seed < 2**63 (checked). Every answer is checked: an illegal one raises
    :class:`IllegalMove`. ``names`` (default: each player's ``name`` or function name) label the
    record's players by seat.

    ``observer``, when given, is called with the deal so far as a :class:`GameRecord` (``outcome``
    None until the deal ends) whenever a deal is dealt, after every call and after every play:
    a terminal uses it to show the other players' moves as they happen. It sees every card
    (discards included), so it must show a person only what that person's view shows.
    """
    check_seed(seed)
    if len(players) != 3:
        raise NotationError("players", _("a table has three players, got {count}").format(count=len(players)))
    labels = [str(n) for n in names] if names is not None else [_name(p) for p in players]
    if len(labels) != 3:
        raise NotationError("names", _("three names, got {count}").format(count=len(labels)))
    rng = random.Random(seed)
    passed_out: list[Hands] = []
    while True:
        hands = deal_hands(rng)  # the first deal is deal_from_seed(seed): `lukfu deal --seed` shows it
        master = rng.randrange(3)
        persons = [(master + s) % 3 for s in range(3)]
        seat_names = (labels[persons[0]], labels[persons[1]], labels[persons[2]])
        calls: list[str] = []
        if observer is not None:
            observer(GameRecord(hands, (), (), None, seat_names, seed, tuple(passed_out)))
        for s in range(3):
            call = players[persons[s]](SeatView(s, hands[s], None, (), tuple(calls)))
            if not isinstance(call, str) or call not in ("play", "pass"):
                raise IllegalMove(
                    s, call, "in the calling phase the answer is 'play' or 'pass' (R3)", labels[persons[s]]
                )
            calls.append(call)
            if observer is not None:
                observer(GameRecord(hands, tuple(calls), (), None, seat_names, seed, tuple(passed_out)))
            if call == "play":
                break
        if calls[-1] == "play":
            break
        passed_out.append(hands)
        if len(passed_out) >= MAX_PASSED_OUT:
            raise NotationError(
                "players", _("{count} deals in a row were passed out (R3); giving up").format(count=MAX_PASSED_OUT)
            )
    caller = len(calls) - 1
    pos = Position.start(hands, caller)
    plays: list[Play] = []
    while not pos.is_over:
        s = pos.to_move
        move = players[persons[s]](SeatView.from_deal(s, hands[s], caller, plays))
        if not isinstance(move, Play):
            raise IllegalMove(s, move, "in the play phase the answer is a Play", labels[persons[s]])
        if not pos.is_legal(move):
            reason = "its kind, cards and size disagree" if _malformed(move) else pos.why_illegal(move)
            raise IllegalMove(s, move, reason, labels[persons[s]])
        pos.push(move)
        plays.append(move)
        if observer is not None:
            observer(GameRecord(hands, tuple(calls), tuple(plays), pos.outcome, seat_names, seed, tuple(passed_out)))
    return GameRecord(hands, tuple(calls), tuple(plays), pos.outcome, seat_names, seed, tuple(passed_out))


def _malformed(move: Play) -> bool:
    """True for a Play whose fields disagree (a size that is not its card count, a wrong kind)."""
    if move.kind == CLAIM:
        return move != CLAIM_PLAY
    if move.kind == DISCARD:  # x2 (cards hidden) is well formed, if illegal here
        return bool(move.cards) and move.cards.bit_count() != move.size
    return move.cards.bit_count() != move.size or classify(move.cards) != move.kind
