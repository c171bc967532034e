"""A person against two engine players: one game the terminal and the browser both drive.

:class:`~lukfu_solver.game.Game` is the table (the deal of a seed, its calls and plays pushed one
checked answer at a time, undo, resume); :class:`GameSession` seats a person at it against two
engines, and is what ``lukfu play`` and ``lukfu serve``'s browser table drive:

- the opponents come from one grammar (:func:`parse_opponents`: a plain strength or an engine spec,
  one for both or two) and each engine is seeded by :func:`engine_seed`, so a game of the same
  seed and answers is the same at the terminal and in the browser;
- :meth:`~GameSession.choices` lists the person's legal answers, :meth:`~GameSession.apply`
  checks one (a :class:`~lukfu_solver.errors.NotationError` with the rules' reason otherwise);
- an engine's turn is answered in this process by its player (:meth:`~GameSession.engine_player`,
  as the terminal does, the players keeping what they learn from one decision to the next) or
  as an :class:`EngineTask`, a small picklable value that :func:`engine_answer` answers anywhere
  (the browser's worker processes): a function of the game's seed, the engine's spec and its seat
  view, and :meth:`~GameSession.apply_engine` refuses an answer computed for a state that has
  moved on;
- :meth:`~GameSession.undo` goes back to the person's previous decision;
- :attr:`~GameSession.record` is the deal so far as a :class:`~lukfu_solver.record.GameRecord`
  (unfinished records have a null result) and :meth:`GameSession.from_record` resumes one.

``tests/test_session.py`` holds a session and :func:`~lukfu_solver.game.play_deal` with the same
players equal.

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
>>> s.undo(), len(s.record.plays), s.phase
('C2', 0, 'play')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from .cards import format_cards, old_cards
from .errors import NotationError
from .game import Game, first_master
from .i18n import _
from .inputs import check_seed
from .players import STRENGTHS, Player, make_player
from .players.pimc import DEFAULT_LEVEL, LEVELS
from .plays import DISCARD, Play
from .position import Position
from .record import GameRecord, Hands
from .rules import worth
from .view import SeatView

YOU = "you"
"""The person's name in the record's ``players`` (as ``lukfu play`` writes it)."""
OPPONENT_KINDS = ("rule", "pimc", "ipimc", "random")
"""The engines a table offers besides the plain strengths (:data:`STRENGTHS`): ``pimc`` and
``ipimc`` play at the session's level."""


# ---------------------------------------------------------------- the opponents


class Opponent(NamedTuple):
    """One engine at the table: its ``label`` (a plain strength, ``medium``, or an engine spec,
    ``pimc:2``, as the person chose it), its ``name`` in the record (the label, with ``A``/``B``
    when both opponents have the same) and the ``engine`` spec that plays (a strength resolved)."""

    label: str
    name: str
    engine: str


def opponent_engine(label: str, field: str = "opponents") -> str:
    """The engine spec behind an opponent's label: a plain strength (:data:`STRENGTHS`) or any
    spec :func:`~lukfu_solver.players.make_player` accepts (``rule:4.5``, ``pimc:3:0``, ``ipimc``
    …). A bad label (``pimc:x``, ``pimc:``, ``pimc: 3``) is a NotationError naming ``field``.

    >>> opponent_engine("medium"), opponent_engine("pimc:2")
    ('pimc:1', 'pimc:2')
    """
    spec = STRENGTHS.get(label, label)
    try:
        make_player(spec, 0)
    except NotationError as err:
        words = _("an opponent is a strength ({names}) or an engine: {why}").format(
            names=", ".join(STRENGTHS), why=err.message
        )
        raise NotationError(field, words) from None
    return spec


def engine_level(engine: str) -> int | None:
    """The level of a ``pimc``/``ipimc`` engine spec (its default when not given), else None."""
    kind, _sep, arg = engine.partition(":")
    if kind not in ("pimc", "ipimc"):
        return None
    return int(arg.partition(":")[0]) if arg else DEFAULT_LEVEL


def parse_opponents(given: str | Sequence[str], level: int) -> tuple[Opponent, Opponent]:
    """The two opponents of ``lukfu play --opponents`` (text, ``A,B``) or of the browser table (a
    list): one strength or spec for both, or two. The bare ``pimc``/``ipimc`` play at ``level``;
    a bad level, count or label is a NotationError naming ``level`` or ``opponents``.

    >>> [o.name for o in parse_opponents("medium", 3)], parse_opponents(["pimc", "rule"], 2)[0]
    (['medium A', 'medium B'], Opponent(label='pimc:2', name='pimc:2', engine='pimc:2'))
    """
    if level not in LEVELS:
        raise NotationError("level", _("a pimc level is 1-5, got {level}").format(level=level))
    text = given if isinstance(given, str) else ",".join(str(g) for g in given)
    parts = [p.strip().lower() for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise NotationError(
            "opponents", _("give one player for both opponents or two as A,B, got {text}").format(text=repr(text))
        )
    labels = [f"{p}:{level}" if p in ("pimc", "ipimc") else p for p in parts]
    engines = [opponent_engine(label) for label in labels]
    if labels[0] == labels[1]:  # the same twice: told apart as A and B
        return (Opponent(labels[0], f"{labels[0]} A", engines[0]), Opponent(labels[1], f"{labels[1]} B", engines[1]))
    return (Opponent(labels[0], labels[0], engines[0]), Opponent(labels[1], labels[1], engines[1]))


def seated_after(person: int) -> tuple[int, int]:
    """The persons who play right after ``person`` and right before it, in every deal: seats
    are numbered in playing order from each deal's Master (R2), so the order round the table
    never changes, only where seat 0 is. The opponents are seated this way (the first after
    the person), so ``A`` always plays after you and ``B`` before you, at the terminal and in
    the browser alike, whatever seat you take.

    >>> seated_after(0), seated_after(1), seated_after(2)
    ((1, 2), (2, 0), (0, 1))
    """
    return ((person + 1) % 3, (person + 2) % 3)


def person_names(human: int, opponents: tuple[Opponent, Opponent]) -> list[str]:
    """The names of the persons 0, 1, 2 at a table where ``human`` (named ``you``) plays
    ``opponents`` seated as :func:`seated_after` seats them.

    >>> person_names(1, parse_opponents("easy", 3))
    ['easy B', 'you', 'easy A']
    """
    after, before = seated_after(human)
    names = [YOU, YOU, YOU]
    names[after], names[before] = opponents[0].name, opponents[1].name
    return names


def named_opponents(names: Sequence[str], field: str = "names") -> tuple[Opponent, Opponent]:
    """The two engines of a table whose persons are ``names`` (``you`` among them), as
    :func:`person_names` seats them (its inverse): the one right after ``you`` first, the one
    right before second (:func:`seated_after`). Each name is the opponent's label, with
    ``A``/``B`` after it when both have the same (``rule A`` plays ``rule``). A name no engine
    answers to is a NotationError naming ``field``.

    >>> [o.name for o in named_opponents(["medium B", "you", "medium A"])]
    ['medium A', 'medium B']
    >>> named_opponents(person_names(2, parse_opponents("easy,strong", 3))) == parse_opponents("easy,strong", 3)
    True
    """
    if len(names) != 3 or list(names).count(YOU) != 1:
        raise NotationError(field, _("three players, one of them 'you', got {names}").format(names=", ".join(names)[:80]))
    after, before = seated_after(list(names).index(YOU))
    found = [Opponent(names[p].split(" ")[0], names[p], opponent_engine(names[p].split(" ")[0], field)) for p in (after, before)]
    return (found[0], found[1])


def engine_seed(seed: int, index: int) -> int:
    """The seed of engine ``index`` (0 or 1, in the order of the persons at the table) in the
    game of ``seed``: the same at the terminal and in the browser."""
    return random.Random(f"play|{seed}|{index}").getrandbits(32)


# ---------------------------------------------------------------- engine turns as values


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


# ---------------------------------------------------------------- the session


class GameSession:
    """One deal (with its redeals) between the person and two engines, advanced one answer at a time.

    ``human`` is the person's index at the :class:`~lukfu_solver.game.Game` (persons 0, 1, 2,
    fixed for the game); every deal draws its Master, so the person's seat can change after
    three passes (R3). ``opponents`` are the two engines as the person sees them: the first
    (``A`` when both are alike) plays right after the person, the second right before, in every
    deal (:func:`seated_after`), whichever person the person is.
    """

    def __init__(
        self,
        seed: int,
        human: int,
        opponents: tuple[Opponent, Opponent],
        level: int = DEFAULT_LEVEL,
        game: Game | None = None,
    ) -> None:
        """The person ``human`` against ``opponents`` at a new game of ``seed`` (or at ``game``, a
        game of that seed already under way, its persons named as here)."""
        check_seed(seed)
        if human not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=human))
        self.human = human
        self.opponents = opponents
        self.level = level
        others = seated_after(human)
        self.engines = {p: o.engine for p, o in zip(others, opponents, strict=True)}
        """Each engine person's spec."""
        self.engine_seeds = {p: engine_seed(seed, i) for i, p in enumerate(sorted(others))}
        """Each engine person's seed (:func:`engine_seed`, in the order of the persons)."""
        names = person_names(human, opponents)
        self.game = game if game is not None else Game(seed, names)
        self._forget()

    def _forget(self) -> None:
        """Drop what is kept for one state (after any move or undo)."""
        self._sensible: tuple[int, list[str]] | None = None  # the state's sensible discards, by answers given
        self._state: tuple[int, dict[str, Any]] | None = None  # the state as JSON data, by answers given

    # ------------------------------------------------------------ building

    @classmethod
    def new(
        cls, seed: int, seat: int | None = None, opponents: str | Sequence[str] = ("rule",), level: int = DEFAULT_LEVEL
    ) -> GameSession:
        """A new game of ``seed``: the person at ``seat`` of the first deal (None: person 0, as
        ``lukfu play`` without ``--seat``), against ``opponents`` (:func:`parse_opponents`)."""
        check_seed(seed)
        if seat is not None and seat not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
        human = 0 if seat is None else (first_master(seed) + seat) % 3
        return cls(seed, human, parse_opponents(opponents, level), level)

    @classmethod
    def from_record(cls, record: GameRecord, level: int | None = None) -> GameSession:
        """Resume the game ``record`` holds (a session's own record, finished or not): the
        :class:`~lukfu_solver.game.Game` resumes it from its seed, and the engines are the ones
        the record names. ``level`` (default: the engines' level, else the default) is the hints'."""
        if record.seed is None or record.players is None or record.players.count(YOU) != 1:
            raise NotationError(
                "record", _("only a game played here can be resumed (it needs its seed and one player named 'you')")
            )
        game = Game.from_record(record)
        human = game.names.index(YOU)
        found = named_opponents(game.names, "record: players")  # each engine stays at its person, under the record's name
        if level is None:
            levels = [lv for o in found if (lv := engine_level(o.engine)) is not None]
            level = levels[0] if levels else DEFAULT_LEVEL
        return cls(game.seed, human, found, level, game)

    # ------------------------------------------------------------ facts

    @property
    def seed(self) -> int:
        """The game's seed."""
        return self.game.seed

    @property
    def specs(self) -> tuple[str, str]:
        """The opponents' labels (a strength or an engine spec), as given: the one right after the
        person first, the one right before second (:func:`seated_after`)."""
        return (self.opponents[0].label, self.opponents[1].label)

    @property
    def names(self) -> list[str]:
        """The persons' names (``you`` for the person)."""
        return self.game.names

    @property
    def answers(self) -> list[str]:
        """Every answer given so far (calls and plays of every deal, in order)."""
        return self.game.answers

    @property
    def passed_out(self) -> list[Hands]:
        """The deals passed out before the current one (R3)."""
        return self.game.passed_out

    @property
    def hands(self) -> Hands:
        """The current deal's hands as dealt (seat 0 first)."""
        return self.game.hands

    @property
    def master(self) -> int:
        """The person who is Master of the current deal."""
        return self.game.master

    @property
    def pos(self) -> Position | None:
        """The current deal's position (None during the call)."""
        return self.game.pos

    def person_at(self, seat: int) -> int:
        """The person sitting at ``seat`` in the current deal."""
        return self.game.person_at(seat)

    @property
    def seat_names(self) -> tuple[str, str, str]:
        """The players' names by seat of the current deal (``you`` for the person)."""
        return self.game.seat_names

    @property
    def human_seat(self) -> int:
        """The person's seat in the current deal."""
        return self.game.seat_of(self.human)

    @property
    def phase(self) -> str:
        """``call``, ``play`` or ``over``."""
        return self.game.phase

    @property
    def caller(self) -> int | None:
        """The caller's seat, None during the call."""
        return self.game.caller

    @property
    def to_move(self) -> int | None:
        """The seat to answer now (None when the deal is over)."""
        return self.game.to_move

    @property
    def waiting_for_engine(self) -> bool:
        """Whether an engine is to answer now."""
        s = self.to_move
        return s is not None and s != self.human_seat

    @property
    def record(self) -> GameRecord:
        """The game so far as a record (``outcome`` None until the end)."""
        return self.game.record

    def view(self, seat: int | None = None) -> SeatView:
        """What ``seat`` (default: the person) knows now: the calling-phase view during the call."""
        return self.game.view(self.human_seat if seat is None else seat)

    def choices(self) -> list[str]:
        """The person's legal answers now, canonical and sorted: ``play``/``pass`` at the call,
        the legal moves in play; empty when it is not the person's turn."""
        return self.game.legal_answers() if self.to_move == self.human_seat else []

    def sensible_discards(self) -> list[str]:
        """At a discard of the person's, the few worth considering, best first (the hint's own
        candidates: :func:`~lukfu_solver.analysis.hint.sensible_discards`, the order ``lukfu
        play``'s menu offers them); empty otherwise. Kept until the next answer or undo."""
        at = self.game.answered
        if self._sensible is None or self._sensible[0] != at:
            chosen: list[str] = []
            if self.phase == "play" and self.to_move == self.human_seat:
                from .analysis.hint import sensible_discards

                chosen = [str(m) for m in sensible_discards(self.view())]
            self._sensible = (at, chosen)
        return list(self._sensible[1])

    @property
    def can_undo(self) -> bool:
        """Whether the person has a decision to take back (never after the end: a finished record stands)."""
        return self.phase != "over" and self._last_human() is not None

    # ------------------------------------------------------------ moving

    def apply(self, answer: str | Play) -> None:
        """The person's answer (``play``/``pass``, or a move as NOTATION.md writes it or as a
        Play), checked: a NotationError says why it is not legal and nothing changes."""
        if self.to_move is None:
            raise NotationError("move", _("the deal is over"))
        if self.to_move != self.human_seat:
            raise NotationError("move", _("it is seat {seat}'s turn, not yours").format(seat=self.to_move))
        if self.pos is None:
            word = answer.strip().lower() if isinstance(answer, str) else ""
            if word not in ("play", "pass"):
                raise NotationError("move", _("at the call the answer is play or pass"))
            self._push(word)
        else:
            self._push(self.view().parse_move(answer) if isinstance(answer, str) else answer)

    def _push(self, answer: str | Play) -> None:
        self.game.push(answer)
        self._forget()

    def engine_player(self, person: int) -> Player:
        """The engine ``person`` as a player of this process, seeded as :func:`engine_seed` seeds it."""
        return make_player(self.engines[person], self.engine_seeds[person])

    def engine_task(self) -> EngineTask:
        """The decision the engine to move faces now (a NotationError when it is not an engine's turn)."""
        s = self.to_move
        if s is None or s == self.human_seat:
            raise NotationError("move", _("it is not an engine's turn"))
        person = self.person_at(s)
        spec = self.engines[person]
        seed = self.engine_seeds[person]
        if spec == "random":  # the random player draws from its own generator: seed it per decision
            seed = random.Random(f"random|{self.engine_seeds[person]}|{self.game.answered}").getrandbits(32)
        return EngineTask(spec, seed, str(self.view(s)), self.game.answered)

    def apply_engine(self, task: EngineTask, answer: str) -> bool:
        """Apply an engine's answer to ``task``; False (nothing changes) when the game has moved on
        since the task was made. An illegal answer is a NotationError (an engine fault)."""
        if task.at != self.game.answered or not self.waiting_for_engine or str(self.view(self.to_move)) != task.view:
            return False
        self.engine_move(answer)
        return True

    def engine_move(self, answer: str | Play) -> None:
        """The engine to move answers ``answer`` (checked: an illegal one is a NotationError, an
        engine fault)."""
        if not self.waiting_for_engine:
            raise NotationError("move", _("it is not an engine's turn"))
        self._push(answer)

    def _last_human(self) -> int | None:
        """The index in :attr:`answers` of the person's last answer, or None."""
        persons = self.game.persons
        return next((i for i in range(len(persons) - 1, -1, -1) if persons[i] == self.human), None)

    def undo(self) -> str:
        """Take back the person's last answer and every engine answer after it (the game stands
        again at the person's previous decision) and return it; a NotationError when there is
        none, or after the end."""
        if self.phase == "over":
            raise NotationError("undo", _("the deal is over; its record stands"))
        last = self._last_human()
        if last is None:
            raise NotationError("undo", _("nothing to undo yet"))
        answer = self.answers[last]
        self.game.rewind(last)
        self._forget()
        return answer

    # ------------------------------------------------------------ the state as JSON

    def state(self) -> dict[str, Any]:
        """What the person may see now, as JSON data (cards and plays in NOTATION.md's text):
        other seats' discards are counts until the end, when every hand is shown. Made once a
        state (a server answers with it after every request): the dict is new, the lists in it
        are shared with the next call until the game moves, so treat them as read-only."""
        at = self.game.answered
        if self._state is None or self._state[0] != at:
            self._state = (at, self._make_state())
        return dict(self._state[1])

    def _make_state(self) -> dict[str, Any]:
        """The state of :meth:`state`, computed."""
        seat = self.human_seat
        view = self.view()
        data: dict[str, Any] = {
            "seed": self.seed,
            "deal_seed": self.game.deal_seed,
            "level": self.level,
            "opponents": list(self.specs),
            "players": list(self.seat_names),
            "seat": seat,
            "master": self.game.seat_of(self.master),
            "deal": len(self.passed_out) + 1,
            "phase": self.phase,
            "calls": list(self.game.calls),
            "caller": self.caller,
            "to_move": self.to_move,
            "your_turn": self.to_move == seat,
            "hand": format_cards(view.hand),
            "old": format_cards(view.old_cards()),
            "choices": self.choices(),
            "sensible": [],
            "answers": self.game.answered,
            "can_undo": self.can_undo,
            "fu": [0, 0, 0],
            "hand_sizes": [12, 12, 12],
            "hidden_discards": [0, 0, 0],
            "own_discards": "",
            "tricks": [],
            "claim": None,
            "claim_total": None,
            "claim_worth": None,
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
        history = self.record.history
        tricks = []
        for k, t in enumerate(history.tricks):
            shown = [
                f"x{p.size}" if p.kind == DISCARD and t.seat(i) != seat and not over else None
                for i, p in enumerate(t.plays)
            ]
            tricks.append(t.table_json(shown, 3 * k))  # three plays a trick: its lead is play 3k
        data["tricks"] = tricks
        data["sensible"] = self.sensible_discards()
        if "claim" in data["choices"]:
            total = view.claim_total()
            assert total is not None
            data["claim_total"] = total
            data["claim_worth"] = worth(seat, total, self.pos.caller).to_json()
        if history.claim is not None:
            data["claim"] = history.claim.to_json(self.pos.caller)
        if over:
            o = self.pos.outcome
            assert o is not None
            data["outcome"] = o.to_json()
            data["hands"] = [format_cards(h) for h in self.hands]
            data["old_dealt"] = [format_cards(old_cards(h, 0)) for h in self.hands]
        return data
