"""Game review: every decision of a played deal, costed in points (``docs/review.md``).

A record (``docs/records.md``) holds every call and play of a deal. The review judges each
decision that had more than one legal choice — the call (R3), every lead, beating play, discard
and claim — twice:

- **from the seat's own view** (what it could know at that moment): the expected points of each
  candidate move over sampled deals (the one evaluation of a decision, as the hint and
  ``analyse`` value the view; the call exactly as ``advise`` values the dealt hand), the move
  played, and its **loss** against the best move, whose error is the **paired** standard error
  (both moves valued on the same sampled deals, so the luck of the deal cancels); a loss not
  more than :data:`CLEAR_Z` of its errors is **within error** of the best
  (:func:`within_error`), and is never called worse;
- **with all cards seen**: the exact value before and after the move (the one solver, as
  ``solve`` gives it), so the move's **cost** with every card in view.

A **verdict** (inaccuracy, mistake, blunder) is given only where it is clear: the loss reaches
the verdict's threshold in points (:data:`CALLER_GRADES`, :data:`NON_CALLER_GRADES`) *and* is more
than :data:`CLEAR_Z` of its standard errors above zero, on at least :data:`MIN_VERDICT_SAMPLES`
sampled deals. **Luck** compares the two judgements: *unlucky* where the seat's view finds no
fault but the move cost at least a mistake's worth with all cards seen, *lucky* where the seat's
view finds a mistake or a blunder that cost less than an inaccuracy with all cards seen.

Everything here is a plain value, JSON-ready by :meth:`Review.to_json` (English keys, card
notation, numbers: the same in every language); the command line only renders it. The work
itself (what is solved, where, in what order) is in :mod:`.review_work`.

Points are the seat's own: the caller's net points for the caller, a defender's share (minus half
the caller's, M2) for a non-caller; exact values (``exact_before``, ``exact_after``) are always
the caller's net points, as ``solve`` prints them.

>>> grade(2.5, 0.5, 16, "caller"), grade(2.5, 1.5, 16, "caller"), grade(1.0, 0.0, 16, "non-caller")
('mistake', None, 'mistake')
>>> luck(None, 2.0, "caller"), luck("blunder", 0.0, "caller"), luck("mistake", 2.0, "caller")
('unlucky', 'lucky', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

FORMAT = "lukfu-review/1"
"""The ``format`` key of a review's JSON object."""

VERDICTS: tuple[str, ...] = ("inaccuracy", "mistake", "blunder")
"""The verdicts, mildest first."""
LUCK: tuple[str, ...] = ("lucky", "unlucky")
"""The two luck marks."""


class Grades(NamedTuple):
    """The least loss, in the seat's own points, of each verdict."""

    inaccuracy: float
    mistake: float
    blunder: float

    def to_json(self) -> dict[str, float]:
        """``{"inaccuracy", "mistake", "blunder"}``."""
        return self._asdict()


CALLER_GRADES = Grades(1.0, 2.0, 4.0)
"""The caller's thresholds, in its net points. A winner's total moves the caller's result by 2
points a fu (R16–R17: both others pay the caller, or the caller pays a winner twice), so a
**mistake** is one such step lost on average (a win turned void, a total one fu lower), a
**blunder** two steps (4 points: the least swing from a win, +2, to a loss, -2: a won deal thrown
away), an **inaccuracy** half a step. The call uses these too: it decides whether the seat stakes
the caller's points."""
NON_CALLER_GRADES = Grades(0.5, 1.0, 2.0)
"""A non-caller's thresholds, in a defender's share (minus half the caller's points): the same
changes of the deal's result as :data:`CALLER_GRADES`, which a defender's share counts at half."""
CLEAR_Z = 2.0
"""A verdict needs the loss more than this many paired standard errors above 0 (a one-sided 98%
test): a move as good as the best gets a verdict in about one decision in 40, where one standard
error (84%) would mark several moves of every deal for the sampling's luck alone."""
MIN_VERDICT_SAMPLES = 8
"""No verdict from fewer sampled deals: a standard error from a handful says little (with one
sampled deal it is 0), so an answer cut short by ``--time`` stays without a verdict."""


def within_error(loss: float, stderr: float) -> bool:
    """True when a move's loss against the best (the seat's points, with its paired standard
    error) is within error: not more than :data:`CLEAR_Z` standard errors above 0, the margin a
    verdict needs, so the sampled deals cannot tell it from the best (the best itself, and a move
    as good on every deal, are within error; a loss the same on every deal is not).

    >>> within_error(0.0, 0.0), within_error(0.63, 0.63), within_error(1.3, 0.6), within_error(0.5, 0.0)
    (True, True, False, False)
    """
    return loss <= CLEAR_Z * stderr


def grades(role: str) -> Grades:
    """The thresholds of a role: ``"caller"`` (also the call) or ``"non-caller"``."""
    return CALLER_GRADES if role == "caller" else NON_CALLER_GRADES


def grade(loss: float, stderr: float, samples: int, role: str) -> str | None:
    """The verdict of a loss (the seat's points) with its paired standard error over ``samples``
    sampled deals: the worst verdict whose threshold it reaches, given only when the loss is more
    than :data:`CLEAR_Z` standard errors above 0 on at least :data:`MIN_VERDICT_SAMPLES`."""
    if samples < MIN_VERDICT_SAMPLES or not loss > CLEAR_Z * stderr:
        return None
    g = grades(role)
    for name, least in reversed(list(zip(VERDICTS, g, strict=True))):
        if loss >= least:
            return name
    return None


def seat_points(role: str, caller_value: float) -> float:
    """A seat's own points from the caller's net points: the caller's as they are, a
    non-caller's share minus half of them (M2).

    >>> seat_points("caller", 4.0), seat_points("non-caller", 4.0)
    (4.0, -2.0)
    """
    return caller_value if role == "caller" else -caller_value / 2


def luck(verdict: str | None, cost: float, role: str) -> str | None:
    """``"unlucky"``: no verdict from the seat's view, but the move cost at least a mistake's
    worth with all cards seen; ``"lucky"``: a mistake or blunder from the seat's view that cost
    less than an inaccuracy with all cards seen; else None."""
    g = grades(role)
    if verdict is None and cost >= g.mistake:
        return "unlucky"
    if verdict in ("mistake", "blunder") and cost < g.inaccuracy:
        return "lucky"
    return None


# ---------------------------------------------------------------- values


@dataclass(frozen=True)
class MoveValue:
    """One legal move seen from the seat's view: its expected points (``mean`` ± ``stderr``) and
    how far below the best move it is on the same sampled deals (``loss`` ± ``loss_stderr``).
    ``caller_mean`` is the caller's expected net points after it."""

    move: str
    mean: float
    stderr: float
    loss: float
    loss_stderr: float
    caller_mean: float

    def to_json(self) -> dict[str, Any]:
        """The move as JSON data."""
        return {
            "move": self.move,
            "mean": self.mean,
            "stderr": self.stderr,
            "loss": self.loss,
            "loss_stderr": self.loss_stderr,
            "caller_mean": self.caller_mean,
        }


@dataclass(frozen=True)
class Better:
    """The move that does better with all cards seen, for a decision whose move cost something
    there (the best with all cards seen), the value after it (``exact_after``: the caller's net
    points; for a call, the seat's own points), better for the seat than after the move played,
    and the line that follows it: ``line`` is best play to the end of the deal from the position
    ``start`` (for a play, the decision's position, and the line starts with the better move; for
    a call, the start of the deal with the caller that choice makes)."""

    move: str
    exact_after: float | None
    line: tuple[str, ...]
    start: str

    def to_json(self) -> dict[str, Any]:
        """The better move as JSON data."""
        return {"move": self.move, "exact_after": self.exact_after, "start": self.start, "line": list(self.line)}


@dataclass(frozen=True)
class Decision:
    """One decision of the deal with its two judgements.

    ``kind`` is ``call``, ``lead``, ``follow`` (a beating play), ``discard`` or ``claim`` (the
    move played); ``index`` is the play's index in the record's ``plays`` (None for a call, whose
    ``call_index`` is its index in ``calls``). ``position`` is the position line before the play
    (NOTATION.md; None for a call), ``view`` what the seat knew (NOTATION.md's seat view; a call's
    is the calling-phase view). ``moves`` are the seat-view estimates of every legal move, best
    first (for a call: ``play`` and ``pass``). ``exact_before``/``exact_after`` are the caller's
    net points with all cards seen (None for a call, whose ``exact`` gives each choice's value in
    the seat's points), ``cost`` what the move cost with all cards seen in the seat's points,
    ``exact_best`` the best move with all cards seen.
    """

    kind: str
    seat: int
    role: str
    played: str
    index: int | None
    call_index: int | None
    trick: int | None
    position: str | None
    view: str
    legal: int
    moves: tuple[MoveValue, ...]
    best: str
    loss: float
    loss_stderr: float
    verdict: str | None
    exact_before: float | None
    exact_after: float | None
    exact: dict[str, float] | None
    exact_best: str | None
    cost: float
    luck: str | None
    better: Better | None
    samples: int
    requested_samples: int
    incomplete: int
    seed: int
    limits: dict[str, Any]
    budget: float | None = None
    basis: str | None = None
    inference: dict[str, Any] | None = None
    within_error: bool = True
    """The move played is within error of the best from the seat's view (:func:`within_error`)."""
    work: dict[str, Any] | None = None
    """A play's work (``work.Work.to_json``); None for a call."""
    against: str | None = None
    """A call's: the opponents' strength its values are calibrated against (``advise``'s
    ``against``); None for a play."""

    @property
    def is_call(self) -> bool:
        """True for the call (R3)."""
        return self.kind == "call"

    @property
    def played_value(self) -> MoveValue:
        """The played move's seat-view estimate."""
        return next(m for m in self.moves if m.move == self.played)

    @property
    def swing(self) -> float:
        """How far the move moved the caller's result with all cards seen, in the caller's net
        points (a non-caller's cost counts twice: its share is half the caller's); a call's cost
        as it is. What ranks the turning points."""
        return self.cost * (2 if self.role == "non-caller" and not self.is_call else 1)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON data (``docs/review.md`` has every key)."""
        return {
            "kind": self.kind,
            "call": self.is_call,
            "index": self.index,
            "call_index": self.call_index,
            "trick": self.trick,
            "seat": self.seat,
            "role": self.role,
            "played": self.played,
            "position": self.position,
            "view": self.view,
            "legal": self.legal,
            "best": self.best,
            "loss": self.loss,
            "loss_stderr": self.loss_stderr,
            "within_error": self.within_error,
            "verdict": self.verdict,
            "exact_before": self.exact_before,
            "exact_after": self.exact_after,
            "exact": self.exact,
            "exact_best": self.exact_best,
            "cost": self.cost,
            "luck": self.luck,
            "better": None if self.better is None else self.better.to_json(),
            "moves": [m.to_json() for m in self.moves],
            "samples": self.samples,
            "requested_samples": self.requested_samples,
            "incomplete": self.incomplete,
            "seed": self.seed,
            "limits": self.limits,
            "work": self.work,
            "budget": self.budget,
            "basis": self.basis,
            "inference": self.inference,
            "against": self.against,
        }


@dataclass(frozen=True)
class SeatSummary:
    """One seat's decisions summed up: how many, the points lost from its own view and with all
    cards seen (in all and per decision), each verdict's count, the luck marks, how often it
    played the move its own view found best (``best``) and a move within error of it
    (``within_error``, the best itself included)."""

    seat: int
    role: str
    decisions: int
    loss: float
    cost: float
    verdicts: dict[str, int]
    lucky: int
    unlucky: int
    best: int
    points: int | None
    within_error: int = 0

    @property
    def loss_per_decision(self) -> float:
        """The average loss from the seat's view (0 without a decision)."""
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def cost_per_decision(self) -> float:
        """The average cost with all cards seen (0 without a decision)."""
        return self.cost / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON data."""
        return {
            "seat": self.seat,
            "role": self.role,
            "decisions": self.decisions,
            "loss": self.loss,
            "loss_per_decision": self.loss_per_decision,
            "cost": self.cost,
            "cost_per_decision": self.cost_per_decision,
            "verdicts": dict(self.verdicts),
            "lucky": self.lucky,
            "unlucky": self.unlucky,
            "best": self.best,
            "within_error": self.within_error,
            "points": self.points,
        }


@dataclass(frozen=True)
class ChartPoint:
    """The caller's result at one point of the deal: ``label`` ``start`` (after the call, before
    the first lead), ``trick`` (after trick ``trick``) or ``end`` (the deal's result after a
    claim); ``exact`` with all cards seen, ``seat_view`` what the chart's seat expected after its
    last move of that trick (None where it had no decision there)."""

    label: str
    trick: int
    exact: float | None
    seat_view: float | None

    def to_json(self) -> dict[str, Any]:
        """The point as JSON data."""
        return {"label": self.label, "trick": self.trick, "exact": self.exact, "seat_view": self.seat_view}


@dataclass(frozen=True)
class Review:
    """The review of one record: its decisions (the calls first, then the plays in order), one
    summary a reviewed seat, the turning points (indices into ``decisions``, the largest swing
    first), the chart of the caller's result (from ``chart_seat``'s view and exact), the settings
    and what the work took."""

    record: dict[str, Any]
    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    turning_points: tuple[int, ...]
    chart: tuple[ChartPoint, ...]
    chart_seat: int | None
    settings: dict[str, Any]
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    solves: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def caller(self) -> int | None:
        """The caller's seat (None while nobody has called)."""
        return self.record.get("caller")

    def hint_words(self) -> str:
        """How the review's work on a play compares with the in-game hint's at the settings'
        ``hint_level``, in the reader's language: the hint's very numbers (its work on its
        seed, the record's), its work on other sampled deals, more work than the hint on its
        sampled deals or on others (the review looked further), or other work (its numbers can
        differ from the hint's)."""
        from ..i18n import _
        from .work import Work, hint_work

        s = self.settings
        level, seed, hint_seed = s["hint_level"], s["seed"], self.record.get("seed")
        hint = hint_work(level)
        work = Work(**s["work"])
        same = hint_seed is not None and seed == hint_seed
        fields = {"level": level, "hint": hint.words(), "seed": seed, "hint_seed": hint_seed}
        if work == hint and same:
            words = _("These are the hint's numbers: each play weighed as the hint at level {level} weighs it, on the same sampled deals.")
        elif work == hint:
            words = _("Each play weighed as the hint at level {level} weighs it, but on other sampled deals (seed {seed}; the hint's: {hint_seed}).")
        elif work.covers(hint) and same:
            words = _("More than the hint at level {level} weighs ({hint}), on the same sampled deals: where their numbers differ, the review looked further.")
        elif work.covers(hint):
            words = _("More than the hint at level {level} weighs ({hint}), on other sampled deals: its numbers can differ from the hint's.")
        else:
            words = _("Not the work of the hint at level {level} ({hint}): its numbers can differ from the hint's.")
        return words.format(**fields)

    def to_json(self) -> dict[str, Any]:
        """The review as one JSON object (``docs/review.md``)."""
        return {
            "format": FORMAT,
            "record": self.record,
            "settings": self.settings,
            "thresholds": thresholds_data(),
            "decisions": [d.to_json() for d in self.decisions],
            "summary": {
                "seats": [s.to_json() for s in self.seats],
                "turning_points": list(self.turning_points),
                "chart": {"seat": self.chart_seat, "points": [p.to_json() for p in self.chart]},
            },
            "solves": self.solves,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def thresholds_data() -> dict[str, Any]:
    """The verdicts' rules as JSON data."""
    return {
        "caller": CALLER_GRADES.to_json(),
        "non_caller": NON_CALLER_GRADES.to_json(),
        "clear_z": CLEAR_Z,
        "min_samples": MIN_VERDICT_SAMPLES,
    }


# ---------------------------------------------------------------- the summary


def summarise(decisions: Sequence[Decision], seat: int, role: str, points: int | None) -> SeatSummary:
    """One seat's :class:`SeatSummary` from its decisions."""
    mine = [d for d in decisions if d.seat == seat]
    verdicts = {v: sum(d.verdict == v for d in mine) for v in VERDICTS}
    return SeatSummary(
        seat,
        role,
        len(mine),
        sum(d.loss for d in mine),
        sum(d.cost for d in mine),
        verdicts,
        sum(d.luck == "lucky" for d in mine),
        sum(d.luck == "unlucky" for d in mine),
        sum(d.loss == 0 for d in mine),
        points,
        sum(d.within_error for d in mine),
    )


TURNING_POINTS = 3
"""At most this many turning points."""


def turning_points(decisions: Sequence[Decision], most: int = TURNING_POINTS) -> tuple[int, ...]:
    """The decisions (indices into ``decisions``) that moved the deal's result most with all
    cards seen (:attr:`Decision.swing` > 0), the largest first; ties: the larger loss from the
    seat's view, then the earlier decision."""
    ranked = sorted(
        (i for i, d in enumerate(decisions) if d.swing > 0), key=lambda i: (-decisions[i].swing, -decisions[i].loss, i)
    )
    return tuple(ranked[:most])


def chart(
    decisions: Sequence[Decision], exact: Sequence[float | None], plays: Sequence[str], seat: int | None
) -> tuple[ChartPoint, ...]:
    """The caller's result at the start and after each trick: ``exact`` are the caller's exact
    values before each play and after the last (``exact[i]`` before play ``i``); the seat-view
    line is ``seat``'s expectation after its last move of each trick (its call's *play*
    estimate at the start when it called). A final claim adds the ``end`` point."""
    points: list[ChartPoint] = []
    if not exact:
        return ()
    by_trick: dict[int, float] = {}
    start_view: float | None = None
    for d in decisions:
        if d.seat != seat:
            continue
        if d.is_call:
            if d.played == "play":
                start_view = d.played_value.mean
        elif d.trick is not None:
            by_trick[d.trick] = d.played_value.caller_mean
    points.append(ChartPoint("start", 0, exact[0], start_view))
    claimed = bool(plays) and plays[-1] == "claim"
    tricks = (len(plays) - claimed) // 3
    for k in range(1, tricks + 1):
        points.append(ChartPoint("trick", k, exact[3 * k], by_trick.get(k)))
    if claimed:
        points.append(ChartPoint("end", tricks + 1, exact[-1], None))
    return tuple(points)
