"""The work of a game review (:mod:`.review`): what is solved, in what order, in which process.

A review is two passes of independent tasks, each a plain function of plain values, so they run
in this process or spread over processes (``parallel.Workers``; a batch of records over a Dask
cluster) and give the same result anywhere:

1. **exact values** with all cards seen: every position of the deal that has not ended, and the
   start of the deal with each other seat as the caller that the call needs, each solved by a
   fresh exact solver without limits (``search.make_solver``: the value, best move and best line
   ``lukfu solve POSITION`` prints);
2. **decisions** of the reviewed seats: a play's view valued by the one evaluation of a decision,
   ``analysis.moves.weigh_moves`` (the hint's and ``analyse``'s: the decision's candidates, and the
   move played if it is not one, on the same sampled deals), the call by
   ``analysis.advice.advise`` on the dealt hand; then the verdict, the luck and, where the move
   cost something with all cards seen, the line of the move that does better with all cards seen
   (the best line of the solve of the position before it).

The work of each decision is fixed (:data:`~.work.REVIEW_WORK`, or the hint's at a ``level``)
unless a time budget is asked for, so a seed gives the same review on any machine, with any
``jobs`` and on any cluster; the seed is the record's unless asked (the seed the hints of
``lukfu play`` used), so ``level`` gives the very numbers of the hints, and ``lukfu analyse VIEW
--samples N --max-nodes M --seed S`` and ``lukfu advise HAND --seat S --samples N --max-nodes M
--seed S`` print those of a decision.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import NotationError
from ..hidden.calls import Budget
from ..hidden.pimc import SolveLimits, paired_difference
from ..parallel import Workers, ordered_map
from ..players import against_of, strength_of_name
from ..players.pimc import DEFAULT_LEVEL
from ..plays import CLAIM, DISCARD, Play
from ..policy.calling import later_caller
from ..position import Position
from ..record import GameRecord
from ..view import SeatView
from .calibration import DEFAULT_AGAINST, check_against
from .defaults import (
    ADVICE_MAX_NODES,
    REVIEW_CALL_MAX_NODES,
    REVIEW_SAMPLES,
    VIEW_SAMPLES,
    advice_budget,
    make_limits,
)
from .review import (
    Better,
    Decision,
    MoveValue,
    Review,
    chart,
    grade,
    luck,
    summarise,
    turning_points,
    within_error,
)
from .work import REVIEW_WORK, Work, hint_work

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReviewSettings:
    """What a review is asked for: the ``seed`` of every decision's sampled deals (None: the
    record's, the seed the hints of ``lukfu play`` used); ``level``: judge each play at the
    in-game hint's work at that level (:func:`~.work.hint_work`) and the call as the hint answers
    it (``advise``'s own default), so the review gives the hints' numbers (None: the review's own
    work, :data:`~.work.REVIEW_WORK`); ``samples`` per decision (None: the work's, or with a
    ``budget`` as many as it allows); the per-solve node limits of the plays (``max_nodes``) and
    of the call (``call_max_nodes``; None: the defaults, 0: none); ``budget``: seconds a decision
    (None: fixed work, the same review on any machine); ``infer``: weigh a play's sampled deals by
    the opponent model (``analyse --infer``); ``seats``: the seats whose decisions are judged;
    ``hints``: the level of the hints the review is compared with in words (None: ``level``, or
    the default level); ``against``: the opponents' strength the call's values are calibrated
    against, as ``advise`` takes it (None: what the record's names tell of each seat's opponents,
    as the table's hint was calibrated, :meth:`call_against`)."""

    seed: int | None = None
    samples: int | None = None
    max_nodes: int | None = None
    call_max_nodes: int | None = None
    budget: float | None = None
    infer: bool = False
    seats: tuple[int, ...] = (0, 1, 2)
    level: int | None = None
    hints: int | None = None
    against: str | None = None

    def for_record(self, record: GameRecord) -> ReviewSettings:
        """These settings with the seed resolved: the record's own when none is asked (0 when the
        record has none)."""
        if self.seed is not None:
            return self
        return dataclasses.replace(self, seed=record.seed if record.seed is not None else 0)

    @property
    def hint_level(self) -> int:
        """The level of the hints the review is compared with."""
        return self.hints if self.hints is not None else self.level if self.level is not None else DEFAULT_LEVEL

    @property
    def play_work(self) -> Work:
        """The work of a play decision: the hint's at ``level`` or the review's, with the
        sampled deals, node limit, time budget and inference asked for."""
        work = hint_work(self.level) if self.level is not None else REVIEW_WORK
        samples = self.samples
        if samples is None and self.budget is not None:
            samples = VIEW_SAMPLES  # at most, with a budget
        if self.max_nodes is not None:
            work = dataclasses.replace(work, max_nodes=self.max_nodes or None)
        return dataclasses.replace(work.with_samples(samples), seconds=self.budget, infer=self.infer)

    @property
    def play_samples(self) -> int:
        """Sampled deals of a play decision (at most, with a budget)."""
        return self.play_work.samples

    @property
    def play_limits(self) -> SolveLimits:
        """The node limit of one solve of a play decision (the work's ``max_nodes``; a node
        budget lowers it decision by decision, as each decision's ``limits`` say)."""
        return SolveLimits(self.play_work.max_nodes)

    @property
    def call_limits(self) -> SolveLimits:
        """The per-solve limits of the call: the hint's (``advise``'s) at a ``level``, else the
        review's."""
        default = ADVICE_MAX_NODES if self.level is not None else REVIEW_CALL_MAX_NODES
        return make_limits(self.call_max_nodes, None, default)

    def call_request(self, seat: int) -> tuple[int, Budget | None]:
        """The call's samples and stopping rule, as ``advise`` takes them: at a ``level`` the
        hint's (``advise``'s own default unless ``samples``), else a fixed number."""
        if self.budget is None and self.level is None:
            return advice_budget(self.samples or REVIEW_SAMPLES, None, seat)
        return advice_budget(self.samples, self.budget, seat)

    def call_against(self, record: GameRecord, seat: int) -> str:
        """The strength ``seat``'s call is calibrated against: ``against`` if asked, else its
        opponents' as the record names them (:func:`~lukfu_solver.players.against_of`, as
        ``lukfu play`` and the web table calibrate the hint), else ``advise``'s default when a
        name tells no strength (a person's)."""
        if self.against is not None:
            return check_against(self.against)
        names = record.players or ("", "", "")
        strengths = [strength_of_name(n) for i, n in enumerate(names) if i != seat]
        known = [x for x in strengths if x is not None]
        return against_of(known) if len(known) == len(strengths) else DEFAULT_AGAINST

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data (the requested samples, the limits and the work actually
        used)."""
        return {
            "seed": self.seed,
            "level": self.level,
            "hint_level": self.hint_level,
            "samples": self.play_samples,
            "max_nodes": self.play_limits.max_nodes,
            "work": self.play_work.to_json(),
            "call_samples": self.call_request(1)[0],
            "call_max_nodes": self.call_limits.max_nodes,
            "budget": self.budget,
            "infer": self.infer,
            "against": self.against,
            "seats": list(self.seats),
        }


# ---------------------------------------------------------------- pass 1: exact values


class Exact(NamedTuple):
    """A position's exact value (the caller's net points), best move and best line, and the CPU
    seconds the solve took."""

    value: float
    best: str | None
    line: tuple[str, ...]
    cpu: float


def exact_value(position: str) -> Exact:
    """Solve one position exactly with a fresh solver, as ``lukfu solve POSITION`` does."""
    from ..search import make_solver

    t0 = time.process_time()
    pos = Position.parse(position)
    res = make_solver("compiled").solve(pos)
    assert res.value is not None, "a solve without limits always finishes"
    return Exact(
        float(res.value), None if res.best is None else str(res.best), tuple(map(str, res.pv)), time.process_time() - t0
    )


def ended_value(pos: Position) -> Exact:
    """The value of a position whose deal has ended: the caller's net points of its outcome."""
    assert pos.outcome is not None
    return Exact(float(pos.outcome.points[pos.caller]), None, (), 0.0)


# ---------------------------------------------------------------- pass 2: decisions


class PlayTask(NamedTuple):
    """One play decision to judge: where it is in the record, the position and the seat's view
    before it, the move played, the exact values around it, and the settings."""

    index: int
    trick: int
    seat: int
    role: str
    position: str
    view: str
    played: str
    legal: int
    exact_before: float
    exact_after: float
    exact_best: str | None
    settings: ReviewSettings
    exact_line: tuple[str, ...] = ()


class CallTask(NamedTuple):
    """The call of one seat: its dealt hand, what it said, the calling-phase view, each choice's
    exact value in its own points and the line with all cards seen after each (empty: none)."""

    call_index: int
    seat: int
    role: str
    hand: str
    played: str
    view: str
    exact_play: float
    exact_pass: float
    play_line: tuple[str, ...]
    pass_line: tuple[str, ...]
    play_start: str
    pass_start: str
    settings: ReviewSettings
    against: str = DEFAULT_AGAINST


def kind_of(pos: Position, move: Play) -> str:
    """The kind of a play decision: ``claim``, ``lead``, ``discard`` or ``follow`` (a beating play)."""
    if move.kind == CLAIM:
        return "claim"
    if not pos.trick:
        return "lead"
    return "discard" if move.kind == DISCARD else "follow"


def seat_cost(role: str, before: float, after: float) -> float:
    """What a move cost the seat with all cards seen, in its own points: the caller's value lost,
    or half the caller's value gained for a non-caller (a defender's share)."""
    return before - after if role == "caller" else (after - before) / 2


def _rounded(x: float) -> float:
    """A loss rounded to 1e-9, never below 0 (a difference of means and a mean of differences
    agree to the last bits only)."""
    return max(0.0, round(x, 9))


def judge_play(task: PlayTask) -> tuple[Decision, float]:
    """Judge one play decision (the one evaluation of its view, the verdict, the luck, the better
    line) and return it with the CPU seconds it took."""
    from .moves import candidates, weigh_moves

    t0 = time.process_time()
    s = task.settings
    assert s.seed is not None, "the settings' seed is resolved for the record"
    view = SeatView.parse(task.view)
    played_move = Play.parse(task.played)
    work = s.play_work
    weighed = candidates(view)
    a = weigh_moves(view, work, s.seed, extra=[played_move])
    best = a.moves[0]
    moves = []
    for e in a.moves:
        loss, se = paired_difference(best, e)
        moves.append(MoveValue(str(e.move), e.mean, e.stderr, _rounded(loss), _rounded(se), e.caller_mean))
    played = next(m for m in moves if m.move == task.played)
    verdict = grade(played.loss, played.loss_stderr, a.samples, task.role)
    cost = seat_cost(task.role, task.exact_before, task.exact_after)
    pos = Position.parse(task.position)
    better = None
    if cost > 0 and task.exact_best is not None:
        better = Better(task.exact_best, task.exact_before, task.exact_line, task.position)
    decision = Decision(
        kind=kind_of(pos, played_move),
        seat=task.seat,
        role=task.role,
        played=task.played,
        index=task.index,
        call_index=None,
        trick=task.trick,
        position=task.position,
        view=task.view,
        legal=task.legal,
        moves=tuple(moves),
        best=str(best.move),
        loss=played.loss,
        loss_stderr=played.loss_stderr,
        verdict=verdict,
        exact_before=task.exact_before,
        exact_after=task.exact_after,
        exact=None,
        exact_best=task.exact_best,
        cost=cost,
        luck=luck(verdict, cost, task.role),
        better=better,
        samples=a.samples,
        requested_samples=work.samples,
        incomplete=a.incomplete,
        seed=s.seed,
        limits=work.limits(len(weighed)).to_json(),
        budget=s.budget,
        inference=None if a.weights is None else a.weights.to_json(),
        within_error=within_error(played.loss, played.loss_stderr),
        work=work.to_json(),
    )
    return decision, time.process_time() - t0


def judge_call(task: CallTask) -> tuple[Decision, float]:
    """Judge one call with ``advise``'s numbers on the dealt hand and the exact value of each
    choice; return it with the CPU seconds it took."""
    from ..cards import parse_cards
    from .advice import advise

    t0 = time.process_time()
    s = task.settings
    count, stop = s.call_request(task.seat)
    adv = advise(parse_cards(task.hand), task.seat, count, s.seed, 1, s.call_limits, budget=stop, against=task.against)
    best = adv.recommendation
    gap = abs(adv.play.mean - adv.pass_.mean)
    se = _rounded(adv.gap_stderr)
    values = {"play": adv.play, "pass": adv.pass_}
    moves = tuple(
        MoveValue(
            name,
            values[name].mean,
            values[name].stderr,
            0.0 if name == best else _rounded(gap),
            0.0 if name == best else se,
            values[name].caller_mean,
        )
        for name in (best, "pass" if best == "play" else "play")
    )
    played = next(m for m in moves if m.move == task.played)
    verdict = grade(played.loss, played.loss_stderr, adv.samples, "caller")
    exact = {"play": task.exact_play, "pass": task.exact_pass}
    exact_best = max(("play", "pass"), key=lambda c: (exact[c], c == task.played))
    cost = exact[exact_best] - exact[task.played]
    better = None
    if cost > 0:  # the choice that does better with all cards seen, and its line
        line = task.play_line if exact_best == "play" else task.pass_line
        start = task.play_start if exact_best == "play" else task.pass_start
        better = Better(exact_best, exact[exact_best], line, start)
    decision = Decision(
        kind="call",
        seat=task.seat,
        role=task.role,
        played=task.played,
        index=None,
        call_index=task.call_index,
        trick=None,
        position=None,
        view=task.view,
        legal=2,
        moves=moves,
        best=best,
        loss=played.loss,
        loss_stderr=played.loss_stderr,
        verdict=verdict,
        exact_before=None,
        exact_after=None,
        exact=exact,
        exact_best=exact_best,
        cost=cost,
        luck=luck(verdict, cost, "caller"),
        better=better,
        samples=adv.samples,
        requested_samples=count,
        incomplete=adv.incomplete,
        seed=s.seed,
        limits=s.call_limits.to_json(),
        budget=s.budget,
        basis=adv.basis,
        within_error=within_error(played.loss, played.loss_stderr),
        against=adv.against,
    )
    return decision, time.process_time() - t0


def judge(task: PlayTask | CallTask) -> tuple[Decision, float]:
    """Judge a play or a call (the one task function of pass 2)."""
    return judge_call(task) if isinstance(task, CallTask) else judge_play(task)


# ---------------------------------------------------------------- the review


def caller_if_passed(record: GameRecord, seat: int) -> int | None:
    """Who calls if ``seat`` passes: the record's own later caller when its calls show one, else
    :func:`~lukfu_solver.policy.calling.later_caller` (``advise``'s calling policy; None: nobody,
    a redeal)."""
    caller = record.caller
    if caller is not None and caller > seat:
        return caller
    return later_caller(record.hands, seat)


def review_record(
    record: GameRecord,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> Review:
    """Review every decision of ``record`` with more than one legal choice, of the seats in
    ``settings.seats``: the calls, then the plays in order. ``jobs`` processes share the work
    (the same review for any ``jobs``); ``progress(done, total)`` is called after each task.

    The record is checked first (``GameRecord.replay``: a NotationError names its first fault).
    """
    s = (settings or ReviewSettings()).for_record(record)
    wall, cpu0 = time.perf_counter(), time.process_time()
    positions = record.replay()
    caller = record.caller
    plays = [str(p) for p in record.plays]
    starts: dict[int, str] = {}  # the start of the deal with each caller a call needs
    for seat in range(len(record.calls)):
        if seat not in s.seats:
            continue
        starts[seat] = str(Position.start(record.hands, seat))
        other = caller_if_passed(record, seat) if seat < 2 else None
        if other is not None:
            starts[other] = str(Position.start(record.hands, other))
    texts = sorted({str(p) for p in positions if p.outcome is None} | set(starts.values()))
    plan = _play_tasks(record, positions, s)
    total = len(texts) + len(plan) + sum(seat in s.seats for seat in range(len(record.calls)))
    done = 0
    cpu = 0.0
    with Workers(jobs) as workers:
        exact: dict[str, Exact] = {}
        for text, value in zip(texts, workers.map(exact_value, texts), strict=True):
            exact[text] = value
            cpu += value.cpu
            done += 1
            if progress:
                progress(done, total)
        values = [exact[str(p)] if p.outcome is None else ended_value(p) for p in positions]
        tasks: list[PlayTask | CallTask] = _call_tasks(record, s, starts, exact)
        tasks += [
            t._replace(
                exact_before=values[t.index].value,
                exact_after=values[t.index + 1].value,
                exact_best=values[t.index].best,
                exact_line=values[t.index].line,
            )
            for t in plan
        ]
        decisions: list[Decision] = []
        for decision, seconds in workers.map(judge, tasks):
            decisions.append(decision)
            cpu += seconds
            done += 1
            if progress:
                progress(done, total)
    points = None if record.outcome is None else record.outcome.points
    seats = tuple(
        summarise(decisions, seat, _role(seat, caller), None if points is None else points[seat]) for seat in s.seats
    )
    chart_seat = s.seats[0] if len(s.seats) == 1 else caller
    solves = len(texts)
    return Review(
        record=record.to_json(),
        decisions=tuple(decisions),
        seats=seats,
        turning_points=turning_points(decisions),
        chart=chart(decisions, [v.value for v in values], plays, chart_seat),
        chart_seat=chart_seat,
        settings=s.to_json(),
        seconds=time.perf_counter() - wall,
        cpu_seconds=time.process_time() - cpu0 + (cpu if jobs > 1 else 0.0),
        solves=solves,
    )


def _role(seat: int, caller: int | None) -> str:
    """``caller`` or ``non-caller`` (``caller`` too while nobody has called: its call is judged
    as the caller's stake)."""
    return "non-caller" if caller is not None and seat != caller else "caller"


def _play_tasks(record: GameRecord, positions: list[Position], s: ReviewSettings) -> list[PlayTask]:
    """The play decisions of the reviewed seats (more than one legal move), exact values unset."""
    tasks = []
    caller = record.caller
    for i, move in enumerate(record.plays):
        pos = positions[i]
        seat = pos.to_move
        if seat not in s.seats:
            continue
        legal = sum(1 for _ in pos.legal_moves())
        if legal < 2:
            continue
        tasks.append(
            PlayTask(
                i,
                i // 3 + 1,
                seat,
                _role(seat, caller),
                str(pos),
                str(record.view(seat, i)),
                str(move),
                legal,
                0.0,
                0.0,
                None,
                s,
            )
        )
    return tasks


def _call_tasks(
    record: GameRecord, s: ReviewSettings, starts: dict[int, str], exact: dict[str, Exact]
) -> list[CallTask]:
    """The calls of the reviewed seats with each choice's exact value in the seat's points."""
    from ..cards import format_cards

    tasks = []
    for seat, said in enumerate(record.calls):
        if seat not in s.seats:
            continue
        play = exact[starts[seat]]
        other = caller_if_passed(record, seat) if seat < 2 else None
        if other is None:
            pass_value, pass_line, pass_start = 0.0, (), ""
        else:
            e = exact[starts[other]]
            pass_value, pass_line, pass_start = -e.value / 2, e.line, starts[other]
        view = SeatView(seat, record.hands[seat], None, (), record.calls[:seat])
        tasks.append(
            CallTask(
                seat,
                seat,
                _role(seat, record.caller),
                format_cards(record.hands[seat]),
                said,
                str(view),
                play.value,
                pass_value,
                play.line,
                pass_line,
                starts[seat],
                pass_start,
                s,
                s.call_against(record, seat),
            )
        )
    return tasks


# ---------------------------------------------------------------- many records


class RecordItem(NamedTuple):
    """One record of a batch: where it came from (``{"file": path}``, ``{"line": n}``) and its
    JSON data as read, or the one-line error met reading it."""

    source: dict[str, Any]
    data: Any
    error: str | None = None


def load_item(source: dict[str, Any], path: str | os.PathLike[str]) -> RecordItem:
    """The record file ``path`` as a batch item (read with the record reader's limits)."""
    from ..inputs import load_json_file
    from ..record import MAX_RECORD_BYTES

    try:
        return RecordItem(source, load_json_file(path, MAX_RECORD_BYTES))
    except NotationError as err:
        return RecordItem(source, None, str(err))
    except OSError as err:
        return RecordItem(source, None, f"file: {path}: {err.strerror or err}")


def parse_item(source: dict[str, Any], text: str) -> RecordItem:
    """One record written as JSON text (a line of a batch file) as a batch item."""
    from ..inputs import load_json
    from ..record import MAX_RECORD_BYTES

    try:
        return RecordItem(source, load_json(text, "record", MAX_RECORD_BYTES))
    except NotationError as err:
        return RecordItem(source, None, str(err))


def directory_items(directory: str | os.PathLike[str]) -> list[RecordItem]:
    """Every ``*.json`` record of ``directory`` (as ``match --records`` writes them), by name."""
    from pathlib import Path

    return [load_item({"file": str(p)}, p) for p in sorted(Path(directory).glob("*.json"))]


def review_item(item: RecordItem, settings: ReviewSettings) -> dict[str, Any]:
    """Review one record of a batch in this process: its review's JSON object with the item's
    ``source`` keys first, or ``{source..., "error"}`` for a record that cannot be read or replayed
    (the record reader's one-line message)."""
    if item.error is not None:
        return {**item.source, "error": item.error}
    try:
        record = GameRecord.from_json(item.data)
        review = review_record(record, settings)
    except NotationError as err:
        return {**item.source, "error": str(err)}
    return {**item.source, **review.to_json()}


def item_cost(item: RecordItem) -> float:
    """The guessed cost of a batch record, so that a cluster starts the longest first: its plays."""
    plays = item.data.get("plays") if isinstance(item.data, dict) else None
    return float(len(plays)) if isinstance(plays, list) else 0.0


def review_many(
    items: Iterable[RecordItem],
    settings: ReviewSettings,
    jobs: int = 1,
    scheduler: Any = None,
    total: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Review many records, one JSON object each in input order, over ``jobs`` processes or the
    Dask cluster ``scheduler`` (an address or an open cluster): each record in one process, so
    the objects are the same wherever they ran (the timings aside)."""
    import functools

    work = functools.partial(review_item, settings=settings)
    return ordered_map(work, items, jobs, scheduler=scheduler, cost=item_cost, total=total)
