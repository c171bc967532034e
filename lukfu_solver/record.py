"""Game records: one whole deal as a documented JSON object (``docs/records.md``).

A record keeps the hands as dealt (seat 0 = Master), the calls (seat 0 first, up to the first
``play``), every play in order with discards showing their cards, and the result; and, for the
table, the players' names by seat, the seed that dealt it and the deals passed out before it
(R3). Example (the deal of ``docs/records.md``)::

    {"format": "lukfu-record/1", "seed": 175, "players": ["ann", "bob", "cy"],
     "passed_out": ["C157S235M1569T28/C2689S19M3478T47/C34S4678M2T13569"],
     "hands": ["C68S1578M245T145", "C12457M1389T238", "C39S23469M67T679"],
     "calls": ["pass", "play"], "caller": 1,
     "plays": ["T5", "T8", "T9", "S6M6T6", "xC8S1T4", "xC7M3T2", "S234", "xS7M2T1", "xM19T3", "claim"],
     "result": {"winner": 2, "total": 10, "how": "claim", "points": [0, -10, 10]}}

``hands`` and ``passed_out`` use the card lists of NOTATION.md (a passed-out deal is its three
hands joined by ``/``), ``plays`` the plays of NOTATION.md (``xC2M4`` for a discard, ``claim``),
``caller`` is redundant (the seat of the ``play`` call) and checked, ``seed`` and ``players`` may
be null, ``result`` is null only while the deal is unfinished; ``how`` is ``claim`` (R14),
``end`` (R15 with a winner) or ``void``, ``winner`` is null exactly for ``void``, ``points`` are
the net points of seats 0, 1, 2 (R16–R17).

Reading (:meth:`GameRecord.from_json`) checks the structure only; :meth:`GameRecord.replay`
checks the rules: the deal (R1–R2), the calls (R3), every play and the result.

>>> rec = GameRecord.loads('''{"format": "lukfu-record/1", "hands": ["C69S246M567T1235",
...     "C1378S57M24T4789", "C245S1389M1389T6"], "calls": ["pass", "play"],
...     "plays": ["T2", "T4", "T6", "M3", "M5"], "result": null}''')
>>> rec.caller, len(rec.replay()), str(rec.view(1))
(1, 6, '1 C1378S57M24T789 1 T2,T4,T6/M3,M5')
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .cards import ALL_CARDS, CardSet, format_cards, parse_cards
from .errors import NotationError
from .history import DealHistory, Trick
from .i18n import _
from .inputs import MAX_JSON_BYTES, MAX_SEED, check_int, check_name, excerpt, load_json, load_json_file
from .plays import CLAIM, Play
from .position import Position
from .rules import Outcome
from .safe_write import write_atomic
from .view import HAND_SIZE, SeatView

FORMAT = "lukfu-record/3"
"""The value of the ``format`` key of every record this module writes."""
FORMATS: dict[str, int] = {"lukfu-record/1": 1, "lukfu-record/2": 2, FORMAT: 3}
"""The formats read, and their version. They differ only in what ``seed`` means. In version 3 the
seed deals the record's own hands (``game.deal_from_seed(seed)``, the hands ``lukfu deal --seed``
shows), and its Master is drawn after them, even after deals passed out (each deal of a game has
its seed, ``game.deal_seed``). Version 2 kept the seed of the game's first deal, whose generator
dealt the redeals too, so after a deal passed out no seed dealt the hand played; without a deal
passed out, 2 and 3 mean the same. Version 1 drew the Master first. The hands are always the
record's own, so all three replay the same."""

Hands = tuple[CardSet, CardSet, CardSet]
_KEYS = ("format", "seed", "players", "passed_out", "hands", "calls", "caller", "plays", "result")
_REQUIRED = ("format", "hands", "calls", "plays", "result")
_HOWS = ("claim", "end", "void")
MAX_PASSED_OUT = 100
"""At most this many deals passed out before a record's deal (``play_deal`` gives up there, R3)."""
MAX_PLAYS = 37
"""At most this many plays in a deal: every play but a final claim takes a card from a hand of 12."""
MAX_RECORD_BYTES = MAX_JSON_BYTES
"""The largest record file or text read (a real one is under 10 KB, docs/limits.md)."""


@dataclass(frozen=True)
class GameRecord:
    """One whole deal: dealt ``hands`` (seat 0 = Master), ``calls``, ``plays`` and ``outcome``.

    ``outcome`` is None only for an unfinished record. ``players`` names the players by seat,
    ``seed`` is the seed that dealt the deal (version 3: these very hands, whatever was passed
    out before), ``passed_out`` the deals passed out before it (R3).
    """

    hands: Hands
    calls: tuple[str, ...]
    plays: tuple[Play, ...]
    outcome: Outcome | None
    players: tuple[str, str, str] | None = None
    seed: int | None = None
    passed_out: tuple[Hands, ...] = ()
    version: int = 3
    """The format version (:data:`FORMATS`): 3 for every record written now, 1 or 2 read from an
    older file (and written back as it was)."""

    @property
    def caller(self) -> int | None:
        """The seat that called ``play`` (R3), or None if nobody has yet."""
        return self.calls.index("play") if "play" in self.calls else None

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (the format of ``docs/records.md``)."""
        o = self.outcome
        return {
            "format": next(f for f, v in FORMATS.items() if v == self.version),
            "seed": self.seed,
            "players": list(self.players) if self.players is not None else None,
            "passed_out": [format_deal(h) for h in self.passed_out],
            "hands": [format_cards(h) for h in self.hands],
            "calls": list(self.calls),
            "caller": self.caller,
            "plays": [str(p) for p in self.plays],
            "result": None if o is None else o.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record from its JSON dict, checking the structure (not the rules: see :meth:`replay`).

        A fault raises ``NotationError("record: <key>", …)`` (``"record"`` when not an object).
        """
        if not isinstance(data, dict):
            raise NotationError("record", _("expected a JSON object, got {kind}").format(kind=type(data).__name__))
        for key in data:
            if key not in _KEYS:
                raise NotationError(
                    "record",
                    _("unknown key {key} (keys: {choices})").format(key=excerpt(key), choices=", ".join(_KEYS)),
                )
        for key in _REQUIRED:
            if key not in data:
                raise NotationError(f"record: {key}", _("missing"))
        version = FORMATS.get(data["format"]) if isinstance(data["format"], str) else None
        if version is None:
            raise NotationError(
                "record: format",
                _("expected {expected!r} (or an older 'lukfu-record/1' or 'lukfu-record/2'), got {format}").format(
                    expected=FORMAT, format=excerpt(data["format"])
                ),
            )
        hands = _hands(data["hands"], "record: hands")
        calls = tuple(_str_list(data["calls"], "record: calls", 3))
        for i, c in enumerate(calls, 1):
            if c not in ("play", "pass"):
                raise NotationError(
                    "record: calls", _("call {i} is {c}; a call is 'play' or 'pass'").format(i=i, c=excerpt(c))
                )
        plays = []
        for i, text in enumerate(_str_list(data["plays"], "record: plays", MAX_PLAYS), 1):
            try:
                p = Play.parse(text, "record: plays")
            except NotationError as e:
                raise NotationError("record: plays", _("play {i}: {message}").format(i=i, message=e.message)) from None
            if p.hidden:
                raise NotationError(
                    "record: plays",
                    _("play {i}: {play} hides its cards; a record shows every discard's").format(i=i, play=p),
                )
            plays.append(p)
        seed = data.get("seed")
        if seed is not None:
            if type(seed) is not int:
                raise NotationError(
                    "record: seed", _("expected an integer or null, got {seed}").format(seed=excerpt(seed))
                )
            check_int(seed, "record: seed", 0, MAX_SEED)
        players = data.get("players")
        if players is not None:
            players = _str_list(players, "record: players", 3)
            if len(players) != 3:
                raise NotationError(
                    "record: players", _("expected 3 names (by seat), got {count}").format(count=len(players))
                )
            for name in players:
                check_name(name, "record: players")
        passed = data.get("passed_out", [])
        if not isinstance(passed, list):
            raise NotationError(
                "record: passed_out", _("expected a list, got {kind}").format(kind=type(passed).__name__)
            )
        if len(passed) > MAX_PASSED_OUT:
            raise NotationError(
                "record: passed_out",
                _("{count:,} deals; at most {most} (R3)").format(count=len(passed), most=MAX_PASSED_OUT),
            )
        passed_out = []
        for i, text in enumerate(passed, 1):
            if not isinstance(text, str):
                raise NotationError(
                    "record: passed_out",
                    _("deal {i}: expected a string H0/H1/H2, got {text}").format(i=i, text=excerpt(text)),
                )
            passed_out.append(_hands(text.split("/", 3), "record: passed_out", _("deal {i}: ").format(i=i)))
        rec = cls(
            hands,
            calls,
            tuple(plays),
            _outcome(data["result"]),
            tuple(players) if players is not None else None,  # type: ignore[arg-type]
            seed,
            tuple(passed_out),
            version,
        )
        if "caller" in data:
            caller = data["caller"]
            if not (caller is None or _is_int(caller)) or caller != rec.caller:
                raise NotationError(
                    "record: caller",
                    _("is {caller} but the calls make it {caller2!r}").format(
                        caller=excerpt(caller), caller2=rec.caller
                    ),
                )
        return rec

    def dumps(self) -> str:
        """The record as one line of JSON."""
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text (structure checked; bad JSON, a text over
        :data:`MAX_RECORD_BYTES` or nested too deep is NotationError("record", …))."""
        return cls.from_json(load_json(text, "record", MAX_RECORD_BYTES))

    def save(self, path: str | os.PathLike[str], overwrite: bool = False, field: str = "file", hint: str = "") -> None:
        """Write the record to ``path`` as JSON, atomically (:func:`~lukfu_solver.safe_write.write_atomic`):
        an existing file is replaced only with ``overwrite``, a link or special file never."""
        write_atomic(path, self.dumps() + "\n", overwrite=overwrite, field=field, hint=hint)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record from a JSON file; a missing, unreadable or oversized file or bad JSON is
        NotationError("file", …)."""
        return cls.from_json(load_json_file(path, MAX_RECORD_BYTES))

    # ------------------------------------------------------------ rules

    def replay(self) -> list[Position]:
        """Check the record against the rules and return the positions before each play and the last.

        Checks the deal and the passed-out deals (R1–R2: three disjoint hands of 12), the calls
        (R3), every play (the first illegal one is named: ``play 7 (trick 3, seat 2): …``) and
        that the recorded result is the one the plays give. Faults raise NotationError with the
        field ``hands``, ``passed_out``, ``calls``, ``plays`` or ``result``. A record still in
        the calling phase has no position: the list is empty.
        """
        check_deal(self.hands, "hands")
        for i, deal in enumerate(self.passed_out, 1):
            check_deal(deal, "passed_out", _("deal {i}: ").format(i=i))
        caller = check_calls(self.calls)
        if caller is None:
            if self.plays or self.outcome is not None:
                raise NotationError("calls", _("nobody has called 'play', so there can be no play and no result (R3)"))
            return []
        pos = Position.start(self.hands, caller)
        out = [pos.copy()]
        trick = 1
        for n, p in enumerate(self.plays, 1):
            if pos.is_over:
                raise NotationError(
                    "plays",
                    _("play {n}: the deal ended at play {n2} ({outcome})").format(
                        n=n, n2=n - 1, outcome=describe(pos.outcome)
                    ),
                )
            where = f"play {n} (trick {trick}, seat {pos.to_move})"
            if p.hidden:
                raise NotationError(
                    "plays",
                    _("{where}: {play} hides its cards; a record shows every discard's").format(where=where, play=p),
                )
            if not pos.is_legal(p):
                raise NotationError(
                    "plays",
                    _("{where}: {play} is not legal ({reason})").format(where=where, play=p, reason=pos.why_illegal(p)),
                )
            pos.push(p)
            if not pos.trick and p.kind != CLAIM:
                trick += 1
            out.append(pos.copy())
        if self.outcome is None:
            if pos.is_over:
                raise NotationError(
                    "result", _("null, but the deal ended: {outcome}").format(outcome=describe(pos.outcome))
                )
        elif not pos.is_over:
            raise NotationError(
                "result", _("recorded, but the deal has not ended after {count} plays").format(count=len(self.plays))
            )
        elif tuple(self.outcome) != tuple(pos.outcome):  # type: ignore[arg-type]
            raise NotationError(
                "result",
                _("the record says {outcome} but the plays give {outcome2}").format(
                    outcome=describe(self.outcome), outcome2=describe(pos.outcome)
                ),
            )
        return out

    def view(self, seat: int, plays: int | None = None) -> SeatView:
        """The view of ``seat`` after the first ``plays`` plays (default: all but a final claim).

        Before the caller is known it is the calling-phase view with the calls so far. A view
        does not show a claim: asking for the plays up to and including one is an error.
        """
        if seat not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat!r}").format(seat=seat))
        caller = self.caller
        if caller is None:
            if plays:
                raise NotationError("plays", _("nobody has called 'play' yet: there are no plays"))
            return SeatView(seat, self.hands[seat], None, (), self.calls)
        seq = self.plays
        if plays is None:
            if seq and seq[-1].kind == CLAIM:
                seq = seq[:-1]
        elif not 0 <= plays <= len(seq):
            raise NotationError("plays", _("{plays} is outside 0-{count}").format(plays=plays, count=len(seq)))
        else:
            seq = seq[:plays]
        return SeatView.from_deal(seat, self.hands[seat], caller, seq)

    @cached_property
    def history(self) -> DealHistory:
        """The deal's tricks (leader, plays, best play, winner, fu won) and its claim's total
        (:class:`~lukfu_solver.history.DealHistory`), for a record :meth:`replay` accepts."""
        return DealHistory.of_plays(self.plays, self.hands)

    def tricks(self) -> list[Trick]:
        """The tricks of the deal in order (a claim is not part of a trick)."""
        return list(self.history.tricks)

    def replay_json(self) -> dict[str, Any]:
        """The facts of ``lukfu replay --json`` for a record :meth:`replay` accepts: seed,
        players, the number of deals passed out, hands, calls, caller, the tricks
        (:meth:`~lukfu_solver.history.Trick.to_json`), the claim (its seat and the Old cards
        shown), the outcome and the net points."""
        claim, o = self.history.claim, self.outcome
        return {
            "seed": self.seed,
            "players": list(self.players) if self.players is not None else None,
            "passed_out": len(self.passed_out),
            "hands": [format_cards(h) for h in self.hands],
            "calls": list(self.calls),
            "caller": self.caller,
            "tricks": [t.to_json(n) for n, t in enumerate(self.history.tricks, 1)],
            "claim": None if claim is None else {"seat": claim.seat, "old": format_cards(claim.old)},
            "outcome": None if o is None else o.to_json(points=False),
            "points": None if o is None else list(o.points),
        }


# ---------------------------------------------------------------- helpers


def format_deal(hands: Hands) -> str:
    """Three hands as ``H0/H1/H2`` (the form of ``passed_out``)."""
    return "/".join(format_cards(h) for h in hands)


def check_deal(hands: Hands, field: str, prefix: str = "") -> None:
    """R1–R2: three disjoint hands of 12 cards that use the whole deck; else NotationError(field, …)."""
    seen = 0
    for s, h in enumerate(hands):
        if h.bit_count() != HAND_SIZE:
            raise NotationError(
                field,
                _("{prefix}seat {s} has {count} cards; each is dealt {size} (R2)").format(
                    prefix=prefix, s=s, count=h.bit_count(), size=HAND_SIZE
                ),
            )
        if seen & h:
            raise NotationError(
                field,
                _("{prefix}{cards} is dealt twice (seat {s})").format(prefix=prefix, cards=format_cards(seen & h), s=s),
            )
        seen |= h
    if seen != ALL_CARDS:  # pragma: no cover - 36 distinct cards of 36 always cover the deck
        raise NotationError(field, _("{prefix}not every card is dealt (R2)").format(prefix=prefix))


def check_calls(calls: tuple[str, ...]) -> int | None:
    """R3: passes from seat 0 on, ending at the first ``play``; return the caller (None: none yet)."""
    for i, c in enumerate(calls):
        if c not in ("play", "pass"):
            raise NotationError("calls", _("call {i} is {c!r}; a call is 'play' or 'pass'").format(i=i + 1, c=c))
        if c == "play":
            if i + 1 < len(calls):
                raise NotationError(
                    "calls",
                    _("call {i} comes after seat {i2} called 'play'; calling stops there (R3)").format(i=i + 2, i2=i),
                )
            return i
    if len(calls) >= 3:
        raise NotationError(
            "calls",
            _(
                "all three seats passed, so the deal was passed out and dealt again (R3); its hands belong in passed_out of the next deal's record"
            ),
        )
    return None


def describe(outcome: Outcome | None) -> str:
    """A one-line account of an outcome: ``seat 1 wins by claim with T=7, points -4,4,0``."""
    if outcome is None:
        return "no result"
    pts = ",".join(str(x) for x in outcome.points)
    if outcome.winner is None:
        return f"a void deal ({outcome.how}), points {pts}"
    return f"seat {outcome.winner} wins by {outcome.how} with T={outcome.total}, points {pts}"


def _str_list(value: Any, field: str, most: int) -> list[str]:
    """``value`` checked to be a list of at most ``most`` strings."""
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise NotationError(field, _("expected a list of strings, got {value}").format(value=excerpt(value)))
    if len(value) > most:
        raise NotationError(field, _("{count:,} items; at most {most}").format(count=len(value), most=most))
    return value


def _hands(value: Any, field: str, prefix: str = "") -> Hands:
    if not isinstance(value, list) or len(value) != 3 or not all(isinstance(x, str) for x in value):
        raise NotationError(
            field,
            _("{prefix}expected three card lists (seats 0, 1, 2), got {value}").format(
                prefix=prefix, value=excerpt(value)
            ),
        )
    out = []
    for s, text in enumerate(value):
        try:
            out.append(parse_cards(text, field))
        except NotationError as e:
            raise NotationError(
                field, _("{prefix}seat {s}: {message}").format(prefix=prefix, s=s, message=e.message)
            ) from None
    return (out[0], out[1], out[2])


def _is_int(x: Any) -> bool:
    return type(x) is int


def _outcome(value: Any) -> Outcome | None:
    """The ``result`` object as an Outcome (None for null); structure faults name ``record: result``."""
    if value is None:
        return None
    f = "record: result"
    if not isinstance(value, dict) or set(value) != {"winner", "total", "how", "points"}:
        raise NotationError(
            f,
            _("expected null or an object with winner, total, how and points, got {value}").format(
                value=excerpt(value)
            ),
        )
    winner, total, how, points = value["winner"], value["total"], value["how"], value["points"]
    if not isinstance(how, str) or how not in _HOWS:
        raise NotationError(
            f, _("how is {how}; it is one of {choices}").format(how=excerpt(how), choices=", ".join(_HOWS))
        )
    if (winner is None) != (how == "void") or (winner is not None and not (_is_int(winner) and 0 <= winner <= 2)):
        raise NotationError(
            f,
            _("winner {winner} with how {how!r}: a seat 0-2, null exactly when void").format(
                winner=excerpt(winner), how=how
            ),
        )
    if not _is_int(total) or total < 0:
        raise NotationError(f, _("total {total} is not a whole number >= 0").format(total=excerpt(total)))
    if not isinstance(points, list) or len(points) != 3 or not all(_is_int(x) for x in points):
        raise NotationError(
            f, _("points {points} are not three whole numbers (seats 0, 1, 2)").format(points=excerpt(points))
        )
    return Outcome(winner, total, how, (points[0], points[1], points[2]))
