"""A session of several deals at one table: ``lukfu play --deals N`` and the browser's evening.

The same three people sit at the table for the whole session: the person (``you``) and two
engine players, each keeping the name it was given (``easy A``, ``medium``, ``pimc:2 B``) from
the first deal to the last, and its place round the table: the first (``A``) right after the
person, the second (``B``) right before (:func:`~lukfu_solver.session.seated_after`). Deal k
(from 1) has the seed ``SEED + k - 1`` (:func:`deal_seeds`), so any deal can be played again
alone, and is a :class:`~lukfu_solver.session.GameSession` of that seed with the same persons:
its Master is drawn from its own seed, as RULES.md has it for every deal (R2), so the person's
seat number changes from deal to deal; the seat chosen for the session is the person's seat in
the first deal. After three passes (R3) deal k is dealt again by its own redeal seed,
:func:`~lukfu_solver.game.deal_seed` ``(SEED + k - 1, r)`` after ``r`` deals passed out, and its
record keeps that seed.

A deal that has ended is a :class:`DealResult` (its seats' names, the caller, the winner and
the net points, read from its record); :class:`DealSeries` adds them up: each person's points
a deal, the running totals, and the rows of the session's summary, as JSON for the browser and
as values for the terminal's table.

>>> s = DealSeries.new(seed=74, deals=2, seat=0, opponents=["easy"])
>>> s.names[s.human], s.seeds, [o.name for o in s.opponents]
('you', [74, 75], ['easy A', 'easy B'])
>>> g = s.game(1); g.human_seat, g.seed
(0, 74)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .errors import NotationError
from .game import first_master
from .i18n import _
from .inputs import MAX_SEED, check_int, check_seed
from .players.pimc import DEFAULT_LEVEL
from .record import GameRecord
from .session import YOU, GameSession, Opponent, named_opponents, parse_opponents, person_names, seated_after

MAX_SESSION = 100
"""The most deals of one session."""


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The seeds of a session's deals: ``seed``, ``seed + 1`` … (checked to stay seeds).

    >>> deal_seeds(5, 3)
    [5, 6, 7]
    """
    if not 1 <= deals <= MAX_SESSION:
        raise NotationError("deals", _("a session has 1-{most} deals, got {n}").format(most=MAX_SESSION, n=deals))
    if seed + deals - 1 > MAX_SEED:
        raise NotationError("seed", _("seed {seed} leaves no room for {n} deals").format(seed=seed, n=deals))
    return [seed + k for k in range(deals)]


class DealResult(NamedTuple):
    """One finished deal as a session and a record of play count it: its ``seed`` (the record's:
    the seed that dealt the hands played, so after deals passed out a redeal's own seed,
    :func:`~lukfu_solver.game.deal_seed`), the ``players`` by seat (``you`` among them, or not: a record played elsewhere), the ``caller``'s
    seat (None when the deal was passed out three times and given up), the ``winner``'s seat (None:
    void) and the net ``points`` by seat (R16–R17)."""

    seed: int | None
    players: tuple[str, str, str]
    caller: int | None
    winner: int | None
    points: tuple[int, int, int]

    @classmethod
    def of(cls, record: GameRecord) -> DealResult | None:
        """The result of ``record``, or None while its deal goes on (or it names no players)."""
        if record.outcome is None or record.players is None:
            return None
        p = record.outcome.points
        return cls(record.seed, record.players, record.caller, record.outcome.winner, (p[0], p[1], p[2]))

    @property
    def you(self) -> int | None:
        """The person's seat (None when no seat is ``you``)."""
        return self.players.index(YOU) if self.players.count(YOU) == 1 else None

    @property
    def your_points(self) -> int | None:
        """The person's net points (None when no seat is ``you``)."""
        return None if self.you is None else self.points[self.you]

    @property
    def against(self) -> tuple[str, ...]:
        """Whom the person played: the other seats' labels (a strength or an engine spec, the
        ``A``/``B`` letters dropped), in seat order, once each (``("easy",)`` for two easy
        players); empty when no seat is ``you``."""
        if self.you is None:
            return ()
        labels = [self.players[s].split(" ")[0] for s in range(3) if s != self.you]
        return tuple(dict.fromkeys(sorted(labels)))

    def to_json(self) -> dict[str, Any]:
        """``{"seed", "players", "caller", "winner", "points"}``."""
        return {
            "seed": self.seed,
            "players": list(self.players),
            "caller": self.caller,
            "winner": self.winner,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: Any) -> DealResult:
        """The result :meth:`to_json` wrote (checked: a NotationError naming ``result``)."""
        try:
            players = tuple(str(n) for n in data["players"])
            points = tuple(check_int(p, "result", -100, 100) for p in data["points"])
            seats = [data["caller"], data["winner"]]
            if len(players) != 3 or len(points) != 3 or any(s is not None and s not in (0, 1, 2) for s in seats):
                raise ValueError
            seed = data["seed"]
            return cls(None if seed is None else check_seed(seed), players, seats[0], seats[1], points)  # type: ignore[arg-type]
        except (KeyError, TypeError, ValueError):
            raise NotationError("result", _("not a deal's result")) from None


@dataclass
class DealSeries:
    """A session of ``deals`` deals: the persons' ``names`` (``you`` among them, each engine's
    name kept all session), the first deal's ``seed``, the engines' and hints' ``level``, and the
    results of the deals played so far, in order."""

    names: list[str]
    deals: int
    seed: int | None = None
    level: int = DEFAULT_LEVEL
    results: list[DealResult] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        seed: int,
        deals: int,
        seat: int | None = None,
        opponents: str | Sequence[str] = ("easy",),
        level: int = DEFAULT_LEVEL,
    ) -> DealSeries:
        """A new session of ``deals`` deals from ``seed`` (checked: :func:`deal_seeds`), the
        person at ``seat`` of the first deal (None: person 0, as ``lukfu play`` without
        ``--seat``), against ``opponents`` (:func:`~lukfu_solver.session.parse_opponents`)."""
        check_seed(seed)
        deal_seeds(seed, deals)
        if seat is not None and seat not in (0, 1, 2):
            raise NotationError("seat", _("a seat is 0, 1 or 2, got {seat}").format(seat=seat))
        engines = parse_opponents(opponents, level)
        human = 0 if seat is None else (first_master(seed) + seat) % 3
        return cls(person_names(human, engines), deals, seed, level)

    # ------------------------------------------------------------ the table

    @property
    def human(self) -> int:
        """The person's index at the table."""
        return self.names.index(YOU)

    @property
    def opponents(self) -> tuple[Opponent, Opponent]:
        """The two engines as the session seats them (their names as it keeps them): the one right
        after the person first, the one right before second (:func:`~lukfu_solver.session.named_opponents`)."""
        return named_opponents(self.names)

    @property
    def seeds(self) -> list[int]:
        """Every deal's seed, the first deal's first."""
        if self.seed is None:
            raise NotationError("seed", _("only a session with its seed deals its deals"))
        return deal_seeds(self.seed, self.deals)

    def game(self, k: int) -> GameSession:
        """Deal ``k`` (from 1): a new game of its seed with the session's persons, its Master
        drawn from that seed (R2)."""
        seeds = self.seeds
        if not 1 <= k <= len(seeds):
            raise NotationError("deal", _("a deal of this session is 1-{n}, got {k}").format(n=len(seeds), k=k))
        return GameSession(seeds[k - 1], self.human, self.opponents, self.level)

    # ------------------------------------------------------------ the score

    @property
    def order(self) -> list[int]:
        """The persons as the score lists them: you first, then the engines in playing order from
        you (the one after you, then the one before: ``A`` then ``B``), as every deal seats them."""
        you = self.human
        return [you, *seated_after(you)]

    @property
    def played(self) -> int:
        """How many deals have ended."""
        return len(self.results)

    @property
    def over(self) -> bool:
        """Whether every deal has been played."""
        return self.played >= self.deals

    def add(self, result: DealResult) -> None:
        """A deal that ended."""
        self.results.append(result)

    def points(self, result: DealResult) -> list[int]:
        """Each person's net points in one deal (the result has them by seat)."""
        return [result.points[result.players.index(name)] for name in self.names]

    def totals(self) -> list[int]:
        """Each person's net points over the deals played."""
        sums = [0, 0, 0]
        for result in self.results:
            for p, v in enumerate(self.points(result)):
                sums[p] += v
        return sums

    def rows(self) -> list[dict[str, Any]]:
        """The summary's rows, one a deal played: its number, seed, your seat, the caller's and the
        winner's seats (None: none), the winner's name and each person's points, in :attr:`order`."""
        out = []
        for k, r in enumerate(self.results, 1):
            points = self.points(r)
            out.append(
                {
                    "deal": k,
                    "seed": r.seed,
                    "seat": r.players.index(YOU),
                    "caller": r.caller,
                    "winner": r.winner,
                    "winner_name": None if r.winner is None else r.players[r.winner],
                    "points": [points[p] for p in self.order],
                }
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The session as the browser's page reads it: ``deals``, ``played``, ``over``, the first
        ``seed``, ``level``, the persons' ``names`` in :attr:`order`, the ``opponents``' labels
        (each once: ``["easy"]`` for two easy players), the ``rows`` and the ``totals`` in
        :attr:`order`."""
        totals = self.totals()
        return {
            "deals": self.deals,
            "played": self.played,
            "over": self.over,
            "seed": self.seed,
            "level": self.level,
            "names": [self.names[p] for p in self.order],
            "opponents": list(dict.fromkeys(o.label for o in self.opponents)),
            "rows": self.rows(),
            "totals": [totals[p] for p in self.order],
        }
