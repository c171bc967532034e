"""A step-wise game: one deal of Luk Fu, one person against two engine players, one decision at a time.

:func:`~lukfu_solver.game.play_deal` runs a whole deal in one call, asking its players in turn;
a table that waits for a person's click (the browser table of ``lukfu serve``; a terminal could
use it too) needs the same deal as a value it can advance one answer at a time, save, reload and
take back. :class:`GameSession` is that value:

- the deal comes from the seed exactly as ``play_deal`` deals it (hands, then the Master drawn;
  a redeal after three passes), so ``lukfu deal --seed SEED`` shows the same cards;
- :meth:`~GameSession.choices` lists the person's legal answers, :meth:`~GameSession.apply`
  checks one (a :class:`~lukfu_solver.errors.NotationError` with the rules' reason otherwise);
- an engine's turn is an :class:`EngineTask`, a small picklable value that :func:`engine_answer`
  answers anywhere (another process): each engine decision is a function of the game's seed,
  the engine's spec and its seat view, so it is the same wherever and whenever it is computed,
  and :meth:`~GameSession.apply_engine` refuses an answer computed for a state that has moved on;
- :meth:`~GameSession.undo` goes back to the person's previous decision;
- :attr:`~GameSession.record` is the deal so far as a :class:`~lukfu_solver.record.GameRecord`
  (unfinished records have a null result) and :meth:`GameSession.from_record` resumes one.

The engines are those of ``lukfu play``: ``make_player(spec, seed)`` seeded per person as the
play command seeds them, so a session and ``play_deal`` with the same players give the same
record (``tests/test_session.py`` holds them equal).

>>> s = GameSession.new(seed=74, seat=0)
>>> s.human_seat, s.phase, s.choices()
(0, 'call', ['play', 'pass'])
>>> s.apply("play")
>>> s.phase, s.to_move, s.waiting_for_engine
('play', 0, False)
>>> s.apply("C2"); s.waiting_for_engine
True
>>> task = s.engine_task()
>>> s.apply_engine(task, engine_answer(task)), len(s.record.plays)
(True, 2)
>>> s.undo(); len(s.record.plays), s.phase
(0, 'play')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import format_cards, old_cards
from .errors import NotationError
from .game import deal_hands, first_master
from .i18n import _
from .inputs import check_seed
from .players import STRENGTHS, make_player
from .players.pimc import DEFAULT_LEVEL, LEVELS
from .plays import CLAIM, DISCARD, KIND_NAMES, Play
from .position import Position
from .record import MAX_PASSED_OUT, GameRecord, Hands
from .rules import claim_total
from .view import SeatView

YOU = "you"
"""The person's name in the record's ``players`` (as ``lukfu play`` writes it)."""
OPPONENT_KINDS = ("rule", "pimc", "ipimc", "random")
"""The engines a person can sit against (the ``play`` command's): ``pimc`` and ``ipimc`` play
at the session's level. A table offers the plain strengths first (:data:`STRENGTHS`)."""


@dataclass(frozen=True)
class EngineTask:
    """One engine decision, as a value another process can answer (:func:`engine_answer`).

    ``at`` is the number of answers given so far in the game: an answer computed for one state
    is refused by :meth:`GameSession.apply_engine` once the game has moved (an undo, say)."""

    spec: str
    seed: int
    view: str
    at: int


def engine_answer(task: EngineTask) -> str:
    """The engine's answer to ``task``: ``"play"``/``"pass"`` at the call, else the move's text.

    A pure function of the task (the players answer from their seed and the view's text alone),
    so it may run in any process and be run again after a lost worker with the same result."""
    view = SeatView.parse(task.view)
    answer = make_player(task.spec, task.seed)(view)
    return answer if isinstance(answer, str) else str(answer)


def opponent_specs(opponents: Sequence[str], level: int) -> tuple[str, str]:
    """The two engines (one for both, or two): a plain strength (``easy``, ``medium``,
    ``strong``: :data:`~lukfu_solver.players.STRENGTHS`) stays its name, as ``lukfu play``
    records it; ``pimc``/``ipimc`` play at ``level``; a bad kind or level is a NotationError
    naming ``opponents`` or ``level``.

    >>> opponent_specs(["rule"], 3), opponent_specs(["pimc", "rule"], 2), opponent_specs(["medium"], 1)
    (('rule', 'rule'), ('pimc:2', 'rule'), ('medium', 'medium'))
    """
    if level not in LEVELS:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
    kinds = [str(k).strip().lower() for k in opponents]
    if len(kinds) == 1:
        kinds = kinds * 2
    if len(kinds) != 2 or not all(k in STRENGTHS or k in OPPONENT_KINDS for k in kinds):
        raise NotationError(
            "opponents",
            _("give one player for both opponents or two, each one of {kinds}").format(
                kinds=", ".join([*STRENGTHS, *OPPONENT_KINDS])
            ),
        )
    specs = [f"{k}:{level}" if k in ("pimc", "ipimc") else k for k in kinds]
    return specs[0], specs[1]


def _spec_of(name: str) -> str:
    """The engine spec behind a player's name in a record (``rule A`` → ``rule``)."""
    return name.split(" ")[0]


class GameSession:
    """One deal (with its redeals) between the person and two engines, advanced one answer at a time.

    ``persons`` are fixed for the game (person 0, 1, 2 as ``play_deal`` numbers them); every deal
    draws its Master, so the person's seat can change after three passes (R3). The state is the
    seed and the list of answers given (calls and plays of every deal, in order): every other
    fact is derived from them, so undo and resume are a replay of answers, never a recomputation.
    """

    def __init__(self, seed: int, human: int, specs: tuple[str, str], level: int = DEFAULT_LEVEL) -> None:
        check_seed(seed)
        if human not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=human))
        for spec in specs:
            make_player(spec, 0)  # checks the spec
        self.seed = seed
        self.human = human
        self.specs = specs
        self.level = level
        self.engines: dict[int, str] = {}
        self.names: list[str] = []
        k = 0
        for person in range(3):
            if person == human:
                self.names.append(YOU)
            else:
                self.engines[person] = specs[k]
                self.names.append(specs[k] if specs[0] != specs[1] else f"{specs[k]} {'AB'[k]}")
                k += 1
        # each engine's seed, as `lukfu play` seeds its engines (so both give the same deal)
        order = [p for p in range(3) if p != human]
        self.engine_seeds = {p: random.Random(f"play|{seed}|{i}").getrandbits(32) for i, p in enumerate(order)}
        self.answers: list[str] = []
        self._restart()

    # ------------------------------------------------------------ building

    @classmethod
    def new(
        cls, seed: int, seat: int | None = None, opponents: Sequence[str] = ("rule",), level: int = DEFAULT_LEVEL
    ) -> GameSession:
        """A new game of ``seed``: the person at ``seat`` of the first deal (None: person 0, as
        ``lukfu play`` without ``--seat``), against ``opponents`` (``opponent_specs``)."""
        check_seed(seed)
        if seat is not None and seat not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
        human = 0 if seat is None else (first_master(seed) + seat) % 3
        return cls(seed, human, opponent_specs(opponents, level), level)

    @classmethod
    def from_record(cls, record: GameRecord, level: int | None = None) -> GameSession:
        """Resume the game ``record`` holds (a session's own record, finished or not): its seed
        deals the same cards again and its answers are replayed, checked. ``level`` (default: the
        engines' level, else the default) is the hints' level."""
        if record.seed is None or record.players is None or record.players.count(YOU) != 1:
            raise NotationError(
                "record", _("only a game played here can be resumed (it needs its seed and one player named 'you')")
            )
        seat = record.players.index(YOU)
        specs = [_spec_of(n) for s, n in enumerate(record.players) if s != seat]
        engines = [STRENGTHS.get(s, s) for s in specs]
        levels = [int(e.split(":")[1]) for e in engines if e.split(":")[0] in ("pimc", "ipimc") and ":" in e]
        lv = level if level is not None else (levels[0] if levels else DEFAULT_LEVEL)
        rng = random.Random(record.seed)
        masters = []
        for _deal in range(len(record.passed_out) + 1):
            deal_hands(rng)
            masters.append(rng.randrange(3))
        # the person is the one that sits at ``seat`` in the last deal
        human = (masters[-1] + seat) % 3
        session = cls(record.seed, human, (specs[0], specs[1]), lv)
        answers: list[str] = []
        for _deal in record.passed_out:
            answers += ["pass"] * 3
        answers += list(record.calls) + [str(p) for p in record.plays]
        try:
            for a in answers:
                session._step(a)
        except NotationError as err:
            raise NotationError("record", _("it does not replay from its seed: {why}").format(why=err.message)) from None
        if session.record.hands != record.hands or session.record.passed_out != record.passed_out:
            raise NotationError("record", _("its hands are not the ones its seed deals"))
        return session

    def _restart(self) -> None:
        """The state before any answer: the first deal of the seed."""
        self._rng = random.Random(self.seed)
        self._sensible: tuple[int, list[str]] | None = None  # the state's sensible discards, by answers given
        self._state: tuple[int, dict[str, Any]] | None = None  # the state as JSON data, by answers given
        self.passed_out: list[Hands] = []
        self.answers = []
        self.by_human: list[bool] = []
        self._deal()

    def _deal(self) -> None:
        """Deal the next deal from the seed's generator and draw its Master (as ``play_deal``)."""
        self.hands: Hands = deal_hands(self._rng)
        self.master = self._rng.randrange(3)
        self.calls: list[str] = []
        self.plays: list[Play] = []
        self.pos: Position | None = None

    # ------------------------------------------------------------ facts

    def person_at(self, seat: int) -> int:
        """The person sitting at ``seat`` in the current deal."""
        return (self.master + seat) % 3

    @property
    def seat_names(self) -> tuple[str, str, str]:
        """The players' names by seat of the current deal (``you`` for the person)."""
        n = [self.names[self.person_at(s)] for s in range(3)]
        return (n[0], n[1], n[2])

    @property
    def human_seat(self) -> int:
        """The person's seat in the current deal."""
        return (self.human - self.master) % 3

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

    @property
    def waiting_for_engine(self) -> bool:
        """Whether an engine is to answer now."""
        s = self.to_move
        return s is not None and s != self.human_seat

    @property
    def record(self) -> GameRecord:
        """The game so far as a record (``outcome`` None until the end)."""
        outcome = None if self.pos is None else self.pos.outcome
        return GameRecord(
            self.hands, tuple(self.calls), tuple(self.plays), outcome, self.seat_names, self.seed, tuple(self.passed_out)
        )

    def view(self, seat: int | None = None) -> SeatView:
        """What ``seat`` (default: the person) knows now: the calling-phase view during the call."""
        s = self.human_seat if seat is None else seat
        if self.pos is None:
            return SeatView(s, self.hands[s], None, (), tuple(self.calls))
        plays = self.plays[:-1] if self.plays and self.plays[-1].kind == CLAIM else self.plays
        return SeatView.from_deal(s, self.hands[s], self.pos.caller, plays)

    def choices(self) -> list[str]:
        """The person's legal answers now, canonical and sorted: ``play``/``pass`` at the call,
        the legal moves in play; empty when it is not the person's turn."""
        if self.to_move != self.human_seat or self.to_move is None:
            return []
        if self.pos is None:
            return ["play", "pass"]
        return [str(m) for m in self.view().sorted_legal_moves()]

    def sensible_discards(self) -> list[str]:
        """At a discard of the person's, the few worth considering, best first (the hint's own
        candidates: :func:`~lukfu_solver.analysis.hint.sensible_discards`, the order ``lukfu
        play``'s menu offers them); empty otherwise. Kept until the next answer or undo."""
        at = len(self.answers)
        if self._sensible is None or self._sensible[0] != at:
            chosen: list[str] = []
            if self.pos is not None and self.to_move == self.human_seat and not self.pos.is_over:
                from .analysis.hint import sensible_discards

                chosen = [str(m) for m in sensible_discards(self.view(), self.level)]
            self._sensible = (at, chosen)
        return list(self._sensible[1])

    @property
    def can_undo(self) -> bool:
        """Whether the person has a decision to take back (never after the end: a finished record stands)."""
        return self.phase != "over" and self._last_human() is not None

    # ------------------------------------------------------------ moving

    def apply(self, text: str) -> None:
        """The person's answer (``play``/``pass``, or a move as NOTATION.md writes it), checked:
        a NotationError says why it is not legal and nothing changes."""
        if self.to_move is None:
            raise NotationError("move", _("the deal is over"))
        if self.to_move != self.human_seat:
            raise NotationError("move", _("it is seat {seat}'s turn, not yours").format(seat=self.to_move))
        self._step(self._checked(text))

    def _checked(self, text: str) -> str:
        """The person's answer in canonical text, or a NotationError with the rules' reason."""
        if self.pos is None:
            word = text.strip().lower()
            if word not in ("play", "pass"):
                raise NotationError("move", _("at the call the answer is play or pass"))
            return word
        return str(self.view().parse_move(text))

    def engine_task(self) -> EngineTask:
        """The decision the engine to move faces now (a NotationError when it is not an engine's turn)."""
        s = self.to_move
        if s is None or s == self.human_seat:
            raise NotationError("move", _("it is not an engine's turn"))
        person = self.person_at(s)
        spec = self.engines[person]
        seed = self.engine_seeds[person]
        if spec == "random":  # the random player draws from its own generator: seed it per decision
            seed = random.Random(f"random|{self.engine_seeds[person]}|{len(self.answers)}").getrandbits(32)
        return EngineTask(spec, seed, str(self.view(s)), len(self.answers))

    def apply_engine(self, task: EngineTask, answer: str) -> bool:
        """Apply an engine's answer to ``task``; False (nothing changes) when the game has moved on
        since the task was made. An illegal answer is a NotationError (an engine fault)."""
        if task.at != len(self.answers) or not self.waiting_for_engine or str(self.view(self.to_move)) != task.view:
            return False
        self._step(answer)
        return True

    def _step(self, answer: str) -> None:
        """Give the next answer (checked against the rules) and advance: a third pass redeals."""
        human = self.to_move == self.human_seat
        if self.pos is None:
            if answer not in ("play", "pass"):
                raise NotationError("move", _("at the call the answer is play or pass"))
            self.calls.append(answer)
            self.answers.append(answer)
            self.by_human.append(human)
            if answer == "play":
                self.pos = Position.start(self.hands, len(self.calls) - 1)
            elif len(self.calls) == 3:
                if len(self.passed_out) + 1 >= MAX_PASSED_OUT:
                    raise NotationError(
                        "calls",
                        _("{count} deals in a row were passed out (R3); giving up").format(count=MAX_PASSED_OUT),
                    )
                self.passed_out.append(self.hands)
                self._deal()
            return
        if self.pos.is_over:
            raise NotationError("move", _("the deal is over"))
        move = Play.parse(answer, "move")
        self.pos.push_checked(move)
        self.plays.append(move)
        self.answers.append(str(move))
        self.by_human.append(human)

    def _last_human(self) -> int | None:
        """The index in :attr:`answers` of the person's last answer, or None."""
        return next((i for i in range(len(self.answers) - 1, -1, -1) if self.by_human[i]), None)

    def undo(self) -> None:
        """Take back the person's last answer and every engine answer after it (the game stands
        again at the person's previous decision); a NotationError when there is none, or after
        the end."""
        if self.phase == "over":
            raise NotationError("undo", _("the deal is over; its record stands"))
        last = self._last_human()
        if last is None:
            raise NotationError("undo", _("nothing to undo yet"))
        answers = self.answers[:last]
        self._restart()
        for a in answers:
            self._step(a)

    # ------------------------------------------------------------ the state as JSON

    def state(self) -> dict[str, Any]:
        """What the person may see now, as JSON data (cards and plays in NOTATION.md's text):
        other seats' discards are counts until the end, when every hand is shown. Made once a
        state (a server answers with it after every request): the dict is new, the lists in it
        are shared with the next call until the game moves, so treat them as read-only."""
        at = len(self.answers)
        if self._state is None or self._state[0] != at:
            self._state = (at, self._make_state())
        return dict(self._state[1])

    def _make_state(self) -> dict[str, Any]:
        """The state of :meth:`state`, computed."""
        seat = self.human_seat
        view = self.view()
        data: dict[str, Any] = {
            "seed": self.seed,
            "level": self.level,
            "opponents": list(self.specs),
            "players": list(self.seat_names),
            "seat": seat,
            "deal": len(self.passed_out) + 1,
            "phase": self.phase,
            "calls": list(self.calls),
            "caller": self.caller,
            "to_move": self.to_move,
            "your_turn": self.to_move == seat,
            "hand": format_cards(view.hand),
            "old": format_cards(view.old_cards()),
            "choices": self.choices(),
            "sensible": [],
            "answers": len(self.answers),
            "can_undo": self.can_undo,
            "fu": [0, 0, 0],
            "hand_sizes": [12, 12, 12],
            "hidden_discards": [0, 0, 0],
            "own_discards": "",
            "tricks": [],
            "claim": None,
            "claim_total": None,
            "outcome": None,
            "hands": None,
        }
        if self.pos is None:
            return data
        data["fu"] = list(view.fu)
        data["hand_sizes"] = list(view.hand_sizes)
        data["hidden_discards"] = list(view.hidden_discards)
        data["own_discards"] = format_cards(view.own_discards)
        over = self.pos.is_over
        tricks = []
        for t in self.record.tricks():
            shown = [
                f"x{p.size}" if p.kind == DISCARD and (t.leader + i) % 3 != seat and not over else None
                for i, p in enumerate(t.plays)
            ]
            best = self.pos.best_i if t.winner is None else (t.winner - t.leader) % 3
            tricks.append(trick_json(t.leader, t.plays, best, t.winner, t.fu_won, shown))
        data["tricks"] = tricks
        data["sensible"] = self.sensible_discards()
        if "claim" in data["choices"]:
            data["claim_total"] = claim_total(self.pos.fu[seat], self.pos.hands[seat], self.pos.faceup)
        if self.plays and self.plays[-1].kind == CLAIM:
            before = self.record.replay()[-2]
            s = before.to_move
            data["claim"] = {
                "seat": s,
                "fu": before.fu[s],
                "old": format_cards(before.old_cards(s)),
                "total": claim_total(before.fu[s], before.hands[s], before.faceup),
            }
        if over:
            o = self.pos.outcome
            assert o is not None
            data["outcome"] = {"winner": o.winner, "total": o.total, "how": o.how, "points": list(o.points)}
            data["hands"] = [format_cards(h) for h in self.hands]
            data["old_dealt"] = [format_cards(old_cards(h, 0)) for h in self.hands]
        return data


ROLES = ("lead", "beat", "discard", "claim")
"""What a play does in its trick, as a word of the JSON state (its shape is ``KIND_NAMES``)."""


def play_json(seat: int, play: Play, place: int, shown: str | None = None) -> dict[str, Any]:
    """One play as JSON: ``seat``, ``play`` (its text, or ``shown`` in its place: a hidden
    discard's ``x2``), ``shape`` (single, set, run, discard, claim) and ``role`` in its trick
    (lead, beat, discard, claim; ``place`` its index in the trick)."""
    role = "claim" if play.kind == CLAIM else "lead" if place == 0 else "discard" if play.kind == DISCARD else "beat"
    return {"seat": seat, "play": shown or str(play), "shape": KIND_NAMES[play.kind], "role": role}


def trick_json(
    leader: int,
    plays: Sequence[Play],
    best: int,
    winner: int | None,
    fu_won: int,
    shown: Sequence[str | None] = (),
) -> dict[str, Any]:
    """One trick as JSON: ``leader``, ``plays`` (leader first, :func:`play_json`), ``best`` (the
    index in ``plays`` of the best face-up play so far), ``winner`` (None while the trick is
    open) and ``fu_won``; ``shown`` replaces plays' texts (hidden discards)."""
    return {
        "leader": leader,
        "plays": [play_json((leader + i) % 3, p, i, shown[i] if i < len(shown) else None) for i, p in enumerate(plays)],
        "best": best,
        "winner": winner,
        "fu_won": fu_won,
    }
