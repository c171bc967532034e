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
import os
import random
import re
import statistics
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

from . import i18n
from .errors import NotationError
from .game import play_deal
from .inputs import MAX_DEALS, MAX_JOBS, check_int, check_seed
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
    return list(iter_deal_seeds(seed, deals))


def iter_deal_seeds(seed: int, deals: int) -> Iterator[int]:
    """The deal seeds of :func:`deal_seeds` one at a time, so a long match never lists them."""
    rng = random.Random(f"lukfu-match|{seed}")
    for _ in range(deals):
        yield rng.getrandbits(32)


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
    """A match's results: per-deal sums by place (compact arrays, so a long match stays small),
    the calls by place, and every game in order (deal, then seating) when the match kept them.

    Built by :func:`run_match` through :meth:`add`; ``games`` is empty when ``keep_games`` was
    false. The figures never depend on ``games``.
    """

    specs: tuple[str, str, str]
    seed: int
    deals: int
    seatings: list[Seating]
    games: list[GameResult] = field(default_factory=list)
    game_count: int = 0
    deal_seed_list: array = field(default_factory=lambda: array("Q"))
    point_sums: tuple[array, array, array] = field(default_factory=lambda: (array("q"), array("q"), array("q")))
    call_counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    call_point_sums: list[int] = field(default_factory=lambda: [0, 0, 0])
    point_totals: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, g: GameResult, keep: bool = True) -> None:
        """Count one game (games arrive in order: deal, then seating); keep it when ``keep``."""
        if g.deal == len(self.deal_seed_list):
            self.deal_seed_list.append(g.deal_seed)
            for a in self.point_sums:
                a.append(0)
        for p in range(3):
            self.point_sums[p][g.deal] += g.points[p]
            self.point_totals[p] += g.points[p]
            if g.called[p]:
                self.call_counts[p] += 1
                self.call_point_sums[p] += g.points[p]
        self.game_count += 1
        if keep:
            self.games.append(g)

    def running_score(self) -> list[tuple[str, int]]:
        """Each place's label and its net points summed over the games played so far (the
        score a table would keep; the three sum to zero)."""
        return [(lab, self.point_totals[p]) for p, lab in enumerate(self.labels)]  # O(1): called every game

    @property
    def labels(self) -> list[str]:
        """The players' labels by place."""
        return labels_for(self.specs)

    def per_deal(self, places: Sequence[int]) -> list[float]:
        """For each deal, the mean points of the players at ``places`` over its games."""
        n = len(self.seatings) * len(places)
        sums = [self.point_sums[p] for p in places]
        return [sum(a[d] for a in sums) / n for d in range(len(self.deal_seed_list))]

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
            calls = sum(self.call_counts[p] for p in places)
            points = sum(self.call_point_sums[p] for p in places)
            out.append(
                Summary(label, spec, len(values), self.game_count, m, lo, hi, calls, points / calls if calls else None)
            )
        return out

    def to_json(self) -> dict[str, Any]:
        """The match as JSON data: setup, summaries and every deal's points by player."""
        labels = self.labels
        per = {lab: self.per_deal([i]) for i, lab in enumerate(labels)}
        seeds = self.deal_seed_list
        return {
            "players": labels,
            "specs": list(self.specs),
            "seed": self.seed,
            "deals": self.deals,
            "seatings": [[labels[p] for p in s] for s in self.seatings],
            "games": self.game_count,
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
        raise NotationError(
            "players", i18n._("give three players separated by commas (A,B,C), got {text}").format(text=repr(text))
        )
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
    keep_games: bool = True,
    on_game: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Play a match: ``deals`` deals from ``seed``, each in every seating (see :func:`seatings`).

    ``jobs`` > 1 plays games in that many processes (the results are the same). ``records``
    names a directory where every game's record is saved as it is played (created if needed;
    an existing file is never overwritten: NotationError before any game is played).
    ``progress(done, total)`` is called after each game, and ``on_game(result so far)`` too (a
    display shows the running score from :meth:`MatchResult.running_score`). The games are made one at a time and
    counted as they come back, so memory does not grow with the games played unless
    ``keep_games`` (the default, for callers that look at every game's record) keeps them all.
    ``deals`` is at most :data:`~lukfu_solver.inputs.MAX_DEALS` (memory grows by a few dozen
    bytes a deal), ``jobs`` at most :data:`~lukfu_solver.inputs.MAX_JOBS`, ``seed`` a seed
    (0 ≤ seed < 2**63).
    """
    sp = parse_specs(specs)
    if type(deals) is int and deals < 1:
        raise NotationError("deals", i18n._("at least 1 deal, got {n}").format(n=deals))
    check_int(deals, "deals", 1, MAX_DEALS)
    if type(jobs) is int and jobs < 1:
        raise NotationError("jobs", i18n._("at least 1 job, got {n}").format(n=jobs))
    check_int(jobs, "jobs", 1, MAX_JOBS)
    check_seed(seed)
    seats = seatings(sp)
    total = deals * len(seats)
    directory = Path(records) if records is not None else None
    if directory is not None:
        _check_records_directory(directory, deals, len(seats))
        directory.mkdir(parents=True, exist_ok=True)
    tasks = (
        GameTask(sp, d, ds, k, s) for d, ds in enumerate(iter_deal_seeds(seed, deals)) for k, s in enumerate(seats)
    )
    result = MatchResult(sp, seed, deals, seats)
    chunk = max(1, min(8, total // (8 * jobs)))
    for r in ordered_map(play_game, tasks, jobs, chunksize=chunk):
        if directory is not None:
            r.record.save(record_path(directory, r), field="records")
        result.add(r, keep_games)
        if progress:
            progress(result.game_count, total)
        if on_game:
            on_game(result)
    return result


_RECORD_NAME = re.compile(r"deal(\d+)-s(\d+)\.json")


def _check_records_directory(directory: Path, deals: int, seatings_a_deal: int) -> None:
    """Refuse a records directory that is not one, or that already holds a record this match
    would write (the first such, in the match's order), listing the directory once."""
    if directory.exists() and not directory.is_dir():
        raise NotationError("records", i18n._("{path} exists and is not a directory").format(path=directory))
    if not directory.is_dir():
        return
    taken = []
    with os.scandir(directory) as entries:
        for e in entries:
            m = _RECORD_NAME.fullmatch(e.name)
            if m and len(m.group(1)) < 10 and len(m.group(2)) < 3:
                d, k = int(m.group(1)), int(m.group(2))
                if d < deals and k < seatings_a_deal and e.name == f"deal{d:04d}-s{k}.json":
                    taken.append((d, k))
    if taken:
        d, k = min(taken)
        p = directory / f"deal{d:04d}-s{k}.json"
        raise NotationError(
            "records", i18n._("{path} already exists; refusing to overwrite it (use a new directory)").format(path=p)
        )
