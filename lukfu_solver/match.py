"""Matches between engine players: many deals, every deal played in every seating.

A match takes three player specs (``A,B,C``, see :func:`~lukfu_solver.players.make_player`) and
``deals`` deal seeds drawn from the match seed. Each deal is played once in every **seating**
(:func:`seatings`): all 6 permutations of the players when the three specs differ, the 3
rotations when two are the same (``pimc,rule,rule``: the odd one out once in each seat), 1 when
all are. The deal seed fixes the cards and the Master, so across its seatings every player holds
every hand in every seat (in both cyclic orders when there are six) and the card luck cancels.
(A deal that all three pass is dealt again from the same seed's sequence, R3; seatings whose
calls differ can then go on to different deals.)

Each game is a pure function of (specs, deal seed, seating): player seeds derive from them,
``pimc`` limits its solver by nodes, so results are the same for any ``jobs`` (games run in
separate processes and are put back in order).

Points per deal: for each player, its net points averaged over the seatings of a deal (one
number per deal, the unit that is independent), then the mean over deals with a 95% interval
(mean ± t·sd/√n). A spec that sits twice (``rule,rule,random``) is reported per place
(``rule#1``, ``rule#2``) and pooled (``rule``).

>>> m = run_match(["rule", "random", "random"], deals=2, seed=1)
>>> len(m.games), [s.label for s in m.summaries()]
(6, ['rule', 'random#1', 'random#2', 'random'])
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

from .errors import NotationError
from .game import play_deal
from .parallel import ordered_map
from .players import make_player
from .record import GameRecord

Seating = tuple[int, int, int]
"""``seating[person]`` is the place (index into the specs) of the player who is person ``person``
at :func:`~lukfu_solver.game.play_deal`'s table."""


def labels_for(specs: Sequence[str]) -> list[str]:
    """The players' labels: the spec when it is unique, else ``spec#k`` (k-th place with it).

    >>> labels_for(["pimc", "rule", "rule"])
    ['pimc', 'rule#1', 'rule#2']
    """
    out = []
    for i, s in enumerate(specs):
        same = [j for j, t in enumerate(specs) if t == s]
        out.append(s if len(same) == 1 else f"{s}#{same.index(i) + 1}")
    return out


def seatings(specs: Sequence[str]) -> list[Seating]:
    """The seatings of a deal, in a fixed order: all 6 permutations when the three specs differ;
    the 3 rotations when two are the same (each place, the odd one out included, sits once in
    every seat); 1 when all three are the same. Either way every place sits in every seat.

    >>> len(seatings(["a", "b", "c"])), seatings(["a", "b", "b"]), seatings(["a", "a", "a"])
    (6, [(0, 1, 2), (2, 0, 1), (1, 2, 0)], [(0, 1, 2)])
    """
    distinct = len(set(specs))
    if distinct == 3:
        return [(p[0], p[1], p[2]) for p in permutations(range(3))]
    if distinct == 2:
        return [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    return [(0, 1, 2)]


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The ``deals`` deal seeds of a match seed (the same in every process)."""
    rng = random.Random(f"lukfu-match|{seed}")
    return [rng.getrandbits(32) for _ in range(deals)]


@dataclass(frozen=True)
class GameTask:
    """One game to play: the deal's index and seed, the seating (its index and the permutation)."""

    specs: tuple[str, str, str]
    deal: int
    deal_seed: int
    seating_index: int
    seating: Seating


@dataclass
class GameResult:
    """One game played: its record and, by place (index into the specs), the net points, the
    seat held in the deal played (0 = Master) and whether that place called; plus, by place, the
    call decisions and decision times of players that log them (PIMC's ``call_log``, ``seconds``)."""

    deal: int
    deal_seed: int
    seating_index: int
    record: GameRecord
    points: tuple[int, int, int]
    seats: tuple[int, int, int]
    called: tuple[bool, bool, bool]
    call_logs: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    seconds: dict[int, list[float]] = field(default_factory=dict)


def play_game(task: GameTask) -> GameResult:
    """Play one game of a match (a pure function of the task)."""
    labels = labels_for(task.specs)
    players = []
    names = []
    for person in range(3):
        place = task.seating[person]
        pseed = random.Random(f"{task.deal_seed}|{task.seating_index}|{person}").getrandbits(32)
        players.append(make_player(task.specs[place], pseed))
        names.append(labels[place])
    rec = play_deal(players, task.deal_seed, names=names)
    assert rec.players is not None and rec.outcome is not None
    seats = tuple(rec.players.index(labels[place]) for place in range(3))
    points = tuple(rec.outcome.points[seats[place]] for place in range(3))
    called = tuple(rec.caller == seats[place] for place in range(3))
    logs = {}
    secs = {}
    for person, p in enumerate(players):
        if getattr(p, "call_log", None):
            logs[task.seating[person]] = list(p.call_log)
        if getattr(p, "seconds", None):
            secs[task.seating[person]] = list(p.seconds)
    return GameResult(
        task.deal,
        task.deal_seed,
        task.seating_index,
        rec,
        (points[0], points[1], points[2]),
        (seats[0], seats[1], seats[2]),
        (called[0], called[1], called[2]),
        logs,
        secs,
    )


# ---------------------------------------------------------------- statistics

_T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (approximate above 10)."""
    if df <= 0:
        return math.inf
    if df in _T95:
        return _T95[df]
    return 1.96 + 2.4 / df  # within 0.01 of the true quantile for df > 10


@dataclass(frozen=True)
class Summary:
    """A player's result: mean net points per deal with its 95% interval, over ``deals`` deals
    (each the mean over its seatings), and its calls: how many games it called in, and the mean
    points of those games."""

    label: str
    spec: str
    deals: int
    games: int
    mean: float
    low: float
    high: float
    calls: int
    call_points: float | None

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "player": self.label,
            "spec": self.spec,
            "deals": self.deals,
            "games": self.games,
            "mean": round(self.mean, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
            "calls": self.calls,
            "mean_points_when_calling": None if self.call_points is None else round(self.call_points, 4),
        }


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (t-based) of ``values``."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = statistics.fmean(values)
    if n == 1:
        return m, -math.inf, math.inf
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return m, m - half, m + half


@dataclass
class MatchResult:
    """Every game of a match, in order (deal, then seating)."""

    specs: tuple[str, str, str]
    seed: int
    deals: int
    seatings: list[Seating]
    games: list[GameResult]

    @property
    def labels(self) -> list[str]:
        """The players' labels by place."""
        return labels_for(self.specs)

    def per_deal(self, places: Sequence[int]) -> list[float]:
        """For each deal, the mean points of the players at ``places`` over its games."""
        sums: dict[int, list[float]] = {}
        for g in self.games:
            sums.setdefault(g.deal, []).extend(g.points[p] for p in places)
        return [statistics.fmean(sums[d]) for d in sorted(sums)]

    def summaries(self) -> list[Summary]:
        """One summary a place, then one per spec that sits at more than one place (pooled)."""
        groups: list[tuple[str, str, list[int]]] = [(lab, self.specs[i], [i]) for i, lab in enumerate(self.labels)]
        for spec in dict.fromkeys(self.specs):
            places = [i for i, s in enumerate(self.specs) if s == spec]
            if len(places) > 1:
                groups.append((spec, spec, places))
        out = []
        for label, spec, places in groups:
            values = self.per_deal(places)
            m, lo, hi = interval(values)
            called = [g.points[p] for g in self.games for p in places if g.called[p]]
            out.append(
                Summary(
                    label,
                    spec,
                    len(values),
                    len(self.games),
                    m,
                    lo,
                    hi,
                    len(called),
                    statistics.fmean(called) if called else None,
                )
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The match as JSON data: setup, summaries and every deal's points by player."""
        labels = self.labels
        per = {lab: self.per_deal([i]) for i, lab in enumerate(labels)}
        seeds = {g.deal: g.deal_seed for g in self.games}
        return {
            "players": labels,
            "specs": list(self.specs),
            "seed": self.seed,
            "deals": self.deals,
            "seatings": [[labels[p] for p in s] for s in self.seatings],
            "games": len(self.games),
            "results": [s.to_json() for s in self.summaries()],
            "per_deal": [
                {"deal": d, "seed": seeds[d], "points": {lab: round(per[lab][d], 4) for lab in labels}}
                for d in range(len(per[labels[0]]))
            ],
        }


def record_path(directory: Path, result: GameResult) -> Path:
    """Where a game's record is saved: ``deal0007-s2.json`` (deal 7, seating 2)."""
    return directory / f"deal{result.deal:04d}-s{result.seating_index}.json"


def parse_specs(text: str | Sequence[str]) -> tuple[str, str, str]:
    """Three player specs from ``A,B,C`` (checked: each must make a player)."""
    parts = [p.strip().lower() for p in (text.split(",") if isinstance(text, str) else text)]
    if len(parts) != 3 or not all(parts):
        raise NotationError("players", f"give three players separated by commas (A,B,C), got {text!r}")
    for p in parts:
        make_player(p, 0)
    return (parts[0], parts[1], parts[2])


def run_match(
    specs: Sequence[str],
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    records: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """Play a match: ``deals`` deals from ``seed``, each in every seating (see :func:`seatings`).

    ``jobs`` > 1 plays games in that many processes (the results are the same). ``records``
    names a directory where every game's record is saved (created if needed; an existing file
    is never overwritten: NotationError before any game is played). ``progress(done, total)``
    is called after each game.
    """
    sp = parse_specs(specs)
    if deals < 1:
        raise NotationError("deals", f"at least 1 deal, got {deals}")
    if jobs < 1:
        raise NotationError("jobs", f"at least 1 job, got {jobs}")
    seats = seatings(sp)
    tasks = [GameTask(sp, d, ds, k, s) for d, ds in enumerate(deal_seeds(seed, deals)) for k, s in enumerate(seats)]
    directory = Path(records) if records is not None else None
    if directory is not None:
        if directory.exists() and not directory.is_dir():
            raise NotationError("records", f"{directory} exists and is not a directory")
        for t in tasks:
            p = directory / f"deal{t.deal:04d}-s{t.seating_index}.json"
            if p.exists():
                raise NotationError("records", f"{p} already exists; refusing to overwrite it (use a new directory)")
        directory.mkdir(parents=True, exist_ok=True)
    results: list[GameResult] = []
    chunk = max(1, min(8, len(tasks) // (8 * jobs)))
    for r in ordered_map(play_game, tasks, jobs, chunksize=chunk):
        results.append(r)
        if progress:
            progress(len(results), len(tasks))
    if directory is not None:
        for r in results:
            r.record.save(record_path(directory, r))
    return MatchResult(sp, seed, deals, seats, results)
