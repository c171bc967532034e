"""One episode of Luk Fu as the research environments play it: the deals, the calls and the
plays of three persons, advanced one action (``actions.py``) at a time over lukfu's own
:class:`~lukfu_solver.position.Position`, :class:`~lukfu_solver.view.SeatView` and rules.

The players are **persons** 0, 1, 2, the chairs of :func:`~lukfu_solver.game.play_deal`'s
table (the agents ``seat_0`` … ``seat_2``, OpenSpiel's players 0–2). Each deal draws its Master
(R2), and a person's lukfu seat in that deal, its role, is ``(person − master) mod 3``: seat 0
is the Master, who calls first (R3) and leads (R4). Three passes deal again with a new Master
(R3); after :data:`~lukfu_solver.record.MAX_PASSED_OUT` passed-out deals the episode stops
without a result (``truncated``), as ``play_deal`` gives up there.

A seeded episode (:meth:`Episode.from_seed`) deals exactly as ``play_deal(players, seed)`` and
``lukfu deal --seed`` do, so the same seed and the same choices give the same record.

>>> ep = Episode.from_seed(7)
>>> ep.phase, ep.current_person() == ep.person_of(0)
('call', True)
>>> ep.apply(CALL_PLAY); ep.phase, ep.record().caller
('play', 0)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence

from ..cards import CardSet
from ..errors import NotationError
from ..game import deal_hands, deal_seed
from ..i18n import _
from ..inputs import check_seed
from ..plays import CLAIM_PLAY, DISCARD, Play
from ..position import Position
from ..record import MAX_PASSED_OUT, GameRecord, Hands
from ..rules import Outcome
from ..view import SeatView
from .actions import (
    CALL_ACTIONS,
    CALL_PASS,
    CALL_PLAY,
    CLAIM_ACTION,
    FINISH,
    NUM_ACTIONS,
    Decision,
    action_name,
    legal_actions,
)

Dealer = Callable[[], tuple[Hands, int]]
"""Gives the next deal: the hands by lukfu seat (seat 0 the Master's) and the Master (a person)."""
AGENTS = ("seat_0", "seat_1", "seat_2")
"""The persons' names, as PettingZoo's agents and a record's players."""


class SeededDealer:
    """The deals of ``game.play_deal(players, seed)``: deal ``k`` (0 the first, ``lukfu deal
    --seed SEED``'s) from ``random.Random(game.deal_seed(seed, k))``, its Master drawn from the
    same stream after the cards."""

    def __init__(self, seed: int) -> None:
        self.seed = check_seed(seed)
        self.dealt = 0

    def __call__(self) -> tuple[Hands, int]:
        rng = random.Random(deal_seed(self.seed, self.dealt))
        self.dealt += 1
        hands = deal_hands(rng)
        return hands, rng.randrange(3)


class IllegalAction(NotationError):
    """An action the mask does not allow (its text and the phase say which)."""


class Episode:
    """The state of one episode: the deal in progress, the deals passed out before it, the
    calls, the plays and the cards chosen so far of the play being made.

    ``dealer`` gives each deal (None: the caller deals with :meth:`deal`, as OpenSpiel's chance
    nodes do). ``seed`` is the game's seed (:meth:`from_seed`; a record names the seed of its own
deal, ``game.deal_seed``), ``names`` the persons' names.
    """

    def __init__(
        self,
        dealer: Dealer | None = None,
        *,
        seed: int | None = None,
        names: Sequence[str] = AGENTS,
        max_passed_out: int = MAX_PASSED_OUT,
    ) -> None:
        if len(names) != 3:
            raise NotationError("names", _("three names, got {count}").format(count=len(names)))
        self.dealer = dealer
        self.seed = seed
        self.names = tuple(str(n) for n in names)
        self.max_passed_out = max_passed_out
        self.hands: Hands | None = None
        self.master = 0
        self.passed_out: list[Hands] = []
        self.truncated = False
        self.deals = 0
        self._new_deal_state()
        if dealer is not None:
            self.deal(*dealer())

    @classmethod
    def from_seed(cls, seed: int, names: Sequence[str] = AGENTS, max_passed_out: int = MAX_PASSED_OUT) -> Episode:
        """The episode ``play_deal`` would play with ``seed`` (0 ≤ seed < 2**63, checked)."""
        return cls(SeededDealer(seed), seed=seed, names=names, max_passed_out=max_passed_out)

    def _new_deal_state(self) -> None:
        self.calls: list[str] = []
        self.plays: list[Play] = []
        self.actors: list[int] = []
        """The lukfu seat of each play."""
        self.pos: Position | None = None
        self.decision: Decision | None = None
        self.chosen: CardSet = 0
        self.up = [0, 0, 0]
        """The cards each seat has played face up this deal (the trick in progress included)."""
        self.down = [0, 0, 0]
        """The cards each seat has discarded face down this deal (known to that seat alone)."""

    def deal(self, hands: Hands, master: int) -> None:
        """Start a deal: ``hands`` by lukfu seat (seat 0 the Master's), ``master`` a person."""
        if self.phase != "deal":
            raise NotationError("deal", _("a deal is dealt only before the calls"))
        self.hands = (hands[0], hands[1], hands[2])
        self.master = master
        self.deals += 1
        self._new_deal_state()

    # ------------------------------------------------------------ who and where

    @property
    def phase(self) -> str:
        """``deal`` (waiting for a deal), ``call``, ``play`` or ``over``."""
        if self.truncated or (self.pos is not None and self.pos.is_over):
            return "over"
        if self.hands is None or (len(self.calls) == 3 and "play" not in self.calls):
            return "deal"
        return "call" if self.pos is None else "play"

    @property
    def is_over(self) -> bool:
        """True once the deal has a result or the episode was truncated."""
        return self.phase == "over"

    def seat_of(self, person: int) -> int:
        """The lukfu seat (0 = the Master) of ``person`` in the deal in progress."""
        return (person - self.master) % 3

    def person_of(self, seat: int) -> int:
        """The person at lukfu seat ``seat`` in the deal in progress."""
        return (self.master + seat) % 3

    def current_seat(self) -> int | None:
        """The lukfu seat to act (None between deals and at the end)."""
        phase = self.phase
        if phase == "call":
            return len(self.calls)
        if phase == "play":
            assert self.pos is not None
            return self.pos.to_move
        return None

    def current_person(self) -> int | None:
        """The person to act (None between deals and at the end)."""
        seat = self.current_seat()
        return None if seat is None else self.person_of(seat)

    @property
    def caller(self) -> int | None:
        """The caller's lukfu seat (None before anyone calls ``play``)."""
        return self.pos.caller if self.pos is not None else None

    @property
    def outcome(self) -> Outcome | None:
        """The result of the deal (None until it ends, and for a truncated episode)."""
        return self.pos.outcome if self.pos is not None else None

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now."""
        if self.pos is not None:
            return self.pos.hands[seat]
        return self.hands[seat] if self.hands is not None else 0

    # ------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        """The legal actions of the person to act, ascending (none between deals and at the end)."""
        phase = self.phase
        if phase == "call":
            return [CALL_PLAY, CALL_PASS]
        if phase == "play":
            assert self.decision is not None
            return legal_actions(self.decision, self.chosen)
        return []

    def apply(self, action: int) -> None:
        """Take ``action`` for the person to act; one the mask forbids raises :class:`IllegalAction`."""
        action = int(action)
        if action not in self.legal_actions():
            shown = action_name(action) if 0 <= action < NUM_ACTIONS else str(action)
            raise IllegalAction(
                "action",
                _("{action} is not legal here (phase {phase}; legal: {legal})").format(
                    action=shown, phase=self.phase, legal=" ".join(action_name(a) for a in self.legal_actions()) or "-"
                ),
            )
        if action in (CALL_PLAY, CALL_PASS):
            self._call("play" if action == CALL_PLAY else "pass")
            return
        decision = self.decision
        assert decision is not None
        if action == CLAIM_ACTION:
            self._make(CLAIM_PLAY)
        elif action == FINISH:
            play = decision.formed(self.chosen)
            assert play is not None
            self._make(play)
        else:
            self.chosen |= 1 << action
            play = decision.formed(self.chosen)
            if play is not None and not decision.next_cards(self.chosen):
                self._make(play)

    def actions_for(self, choice: Play | str) -> list[int]:
        """The actions that make ``choice`` (a call ``"play"``/``"pass"``, or a play) from the
        decision's start; an illegal choice raises NotationError."""
        if isinstance(choice, str):
            if self.phase != "call" or choice not in CALL_ACTIONS:
                raise NotationError("call", _("{call} is not a call here").format(call=choice))
            return [CALL_ACTIONS[choice]]
        if self.decision is None:
            raise NotationError("play", _("no play is due here (phase {phase})").format(phase=self.phase))
        return self.decision.actions_for(choice)

    def apply_choice(self, choice: Play | str) -> None:
        """Make a whole call or play (an engine's answer) by its actions; the decision must be at its start."""
        if self.chosen:
            raise NotationError("play", _("cards are already chosen for this play"))
        for a in self.actions_for(choice):
            self.apply(a)

    def _call(self, call: str) -> None:
        self.calls.append(call)
        if call == "play":
            assert self.hands is not None
            self.pos = Position.start(self.hands, len(self.calls) - 1)
            self.decision = Decision(self.pos)
        elif len(self.calls) == 3:  # three passes: a new deal (R3)
            assert self.hands is not None
            self.passed_out.append(self.hands)
            if len(self.passed_out) >= self.max_passed_out:
                self.truncated = True
            elif self.dealer is not None:
                self.deal(*self.dealer())

    def _make(self, play: Play) -> None:
        pos = self.pos
        assert pos is not None
        seat = pos.to_move
        pos.push(play)
        self.plays.append(play)
        self.actors.append(seat)
        if play.kind == DISCARD:
            self.down[seat] |= play.cards
        else:
            self.up[seat] |= play.cards
        self.chosen = 0
        self.decision = None if pos.is_over else Decision(pos)

    # ------------------------------------------------------------ results and lukfu's objects

    def returns(self) -> tuple[int, int, int]:
        """The net points of persons 0, 1, 2 (R15–R17): zeros until the deal ends, and for a
        void or truncated episode."""
        out = self.outcome
        if out is None:
            return (0, 0, 0)
        return (out.points[self.seat_of(0)], out.points[self.seat_of(1)], out.points[self.seat_of(2)])

    def view(self, person: int | None = None) -> SeatView:
        """``person``'s seat view (default: the person to act), exactly as ``play_deal`` shows it
        to a player: the calls so far before the caller is known, else the history of plays."""
        if person is None:
            person = self.current_person()
        if person is None or self.hands is None or self.phase == "deal":
            raise NotationError("view", _("no seat is to act (phase {phase})").format(phase=self.phase))
        seat = self.seat_of(person)
        if self.pos is None:
            return SeatView(seat, self.hands[seat], None, (), tuple(self.calls))
        plays = self.plays[:-1] if self.outcome is not None and self.outcome.how == "claim" else self.plays
        return SeatView.from_deal(seat, self.hands[seat], self.pos.caller, plays)

    def position(self) -> Position:
        """A copy of the perfect-information position of the play phase (lukfu seats)."""
        if self.pos is None:
            raise NotationError("position", _("nobody has called 'play' yet: there is no position"))
        return self.pos.copy()

    def record(self) -> GameRecord:
        """The lukfu record of the episode so far (``lukfu replay`` checks it); the players are
        named by lukfu seat. A truncated episode, or one between deals, has none."""
        if self.truncated or self.hands is None or self.phase == "deal":
            raise NotationError(
                "record",
                _("no deal to record: {count} deals were passed out (R3)").format(count=len(self.passed_out)),
            )
        players = (self.names[self.person_of(0)], self.names[self.person_of(1)], self.names[self.person_of(2)])
        return GameRecord(
            self.hands,
            tuple(self.calls),
            tuple(self.plays),
            self.outcome,
            players,
            None if self.seed is None else deal_seed(self.seed, len(self.passed_out)),
            tuple(self.passed_out),
        )

    def clone(self) -> Episode:
        """An independent copy (the position copied without its move stack; the dealer's stream too)."""
        new = copy.copy(self)
        new.dealer = copy.deepcopy(self.dealer)
        new.passed_out = self.passed_out[:]
        new.calls = self.calls[:]
        new.plays = self.plays[:]
        new.actors = self.actors[:]
        new.up = self.up[:]
        new.down = self.down[:]
        new.pos = self.pos.copy() if self.pos is not None else None
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Episode:
        return self.clone()
