"""What ``lukfu review`` prints: the review (:class:`lukfu_solver.analysis.review.Review`) in the
reader's language, the summary first, as a player reads a lichess analysis.

1. the deal in one line and how it ended;
2. the summary of each reviewed seat: its decisions, the points it lost a decision from its own
   view and with all cards seen, its verdicts (``?!`` inaccuracy, ``?`` mistake, ``??``
   blunder) and luck;
3. the turning points: the decisions that moved the result with all cards seen the most;
4. a chart of the caller's result after each trick, from a seat's view and exact
   (:class:`ResultChart`, sized to the terminal);
5. every decision in a table, then each verdict and luck mark told in full: the better move and,
   with all cards seen, the line that follows it.

The numbers come from the review; this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from lukfu_solver.i18n import _, counted, ngettext, number, pgettext, term
from lukfu_solver.plays import Play
from lukfu_solver.position import Position
from lukfu_solver.rules import Outcome

from .render import Hanging, narrate_pv, player_name, points_text, result_line, signed

if TYPE_CHECKING:
    from lukfu_solver.analysis.review import ChartPoint, Decision, Review, SeatSummary

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The verdicts' marks, as chess annotates moves."""


def verdict_word(verdict: str) -> str:
    """A verdict in the reader's language."""
    words = {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}
    return words[verdict]


def luck_word(luck: str) -> str:
    """A luck mark in the reader's language."""
    return _("lucky") if luck == "lucky" else _("unlucky")


def who(seat: int, review: Review, role: bool = True) -> str:
    """``seat 1 (ann, caller)``: the seat, its player when the record names one (``you`` and an
    engine's strength in the reader's language), the Master, and its role unless ``role`` is
    false."""
    players = review.record.get("players")
    parts = [player_name(players[seat])] if players else []
    if seat == 0:
        parts.append(term("Master"))
    if role and review.caller is not None:
        parts.append(term("caller") if seat == review.caller else term("non-caller"))
    label = _("seat {seat}").format(seat=seat)
    return f"{label} ({', '.join(parts)})" if parts else label


def move_text(d: Decision, move: str) -> str:
    """A move as the review names it: a call (``play``, ``pass``) and the claim in the reader's
    words, cards as the notation writes them."""
    return term(move) if d.is_call or move == "claim" else move


def play_phrase(d: Decision) -> str:
    """What the seat did: ``leads M7``, ``discards xC2``, ``says pass`` …"""
    if d.is_call:
        return _("says {call}").format(call=term(d.played))
    phrases = {
        "lead": _("leads {play}"),
        "follow": _("beats with {play}"),
        "discard": _("discards {play}"),
        "claim": _("claims"),
    }
    return phrases[d.kind].format(play=d.played)


def decision_title(d: Decision, review: Review) -> str:
    """``Trick 3, seat 1 (…) discards xS7`` or ``The call, seat 0 (…) says play``."""
    where = _("The call") if d.is_call else _("Trick {trick}").format(trick=d.trick)
    return f"{where}, {who(d.seat, review)} {play_phrase(d)}"


def exact_words(d: Decision) -> str:
    """The result with all cards seen before and after the move (a call: each choice's value)."""
    if d.is_call:
        return _("with all cards seen, {change}").format(change=change_words(d))
    return _("the caller's result with all cards seen {before} → {after}").format(
        before=signed(d.exact_before or 0), after=signed(d.exact_after or 0)
    )


def change_words(d: Decision) -> str:
    """``the caller's result +8 → +4``, or for a call each choice's value in the seat's points."""
    if d.is_call:
        assert d.exact is not None
        return _("{play}: {vplay}, {pass_}: {vpass}, in its own points").format(
            play=term("play"), vplay=signed(d.exact["play"]), pass_=term("pass"), vpass=signed(d.exact["pass"])
        )
    return _("the caller's result {before} → {after}").format(
        before=signed(d.exact_before or 0), after=signed(d.exact_after or 0)
    )


def cost_words(cost: float) -> str:
    """A cost in points: ``1 point``, ``4 points`` (costs with all cards seen are whole points:
    the caller's results are even, a defender's share is half of one)."""
    return counted(round(cost), "point")


def points(x: float) -> str:
    """Points with two decimals and no sign (a loss, a cost), as the reader's language writes
    them (``0.44``, ``0,44``)."""
    return number(x, 2)


def whole(x: float) -> str:
    """A cost with all cards seen: whole points (a half shown when there is one)."""
    return number(x, 0 if x == round(x) else 1)


def loss_text(d: Decision) -> str:
    """``4.69 ± 0.72`` (the loss from the seat's view and its error), ``0`` for the best move."""
    return f"{points(d.loss)} ± {points(d.loss_stderr)}" if d.loss else "0"


# ---------------------------------------------------------------- the summary


def header_lines(review: Review) -> list[Text]:
    """The deal in one line, the calls and the result."""
    rec = review.record
    seed = rec.get("seed")
    head = _("Review of deal {seed}").format(seed=seed) if seed is not None else _("Review of the deal")
    lines = [Text(head, style="bold")]
    if review.caller is not None:
        lines.append(Text(_("Caller: {who}").format(who=who(review.caller, review, role=False))))
    else:
        lines.append(Text(_("Nobody has called yet.")))
    result = rec.get("result")
    if result is not None:
        outcome = Outcome(result["winner"], result["total"], result["how"], tuple(result["points"]))
        lines.append(Text(result_line(outcome)))
    else:
        lines.append(Text(_("The deal is unfinished: its decisions so far are reviewed.")))
    return lines


def basis_line(review: Review) -> Text:
    """How each decision was valued, in a player's words (``work.Work.words``), and how that
    compares with the hint's work (``Review.hint_words``)."""
    from lukfu_solver.analysis.work import Work

    s = review.settings
    words = _(
        "From each seat's own view, each decision: {work}; seed {seed}; with all cards seen: every solve exact."
    ).format(work=Work(**s["work"]).words(), seed=s["seed"])
    return Text(f"{words} {review.hint_words()}", style="dim")


INDENT = 2
"""How far a summary's facts and a verdict's lines sit in; their wrapped lines sit two further."""


def indented(words: str, indent: int = INDENT, hang: int = 2) -> Hanging:
    """A line of the review under its title, wrapped by words at the terminal's width with its
    wrapped lines kept in (never back at column 0, never a card cut)."""
    return Hanging(words, indent, hang)


def seat_lines(summary: SeatSummary, review: Review) -> list[RenderableType]:
    """One seat's summary: decisions, points lost, verdicts, luck."""
    n = summary.decisions
    title = who(summary.seat, review)
    if summary.points is not None:
        title = _("{who}: net points {points}").format(who=title, points=signed(summary.points))
    lines: list[RenderableType] = [Hanging(Text(title, style="bold"), 0, 2)]
    if not n:
        lines.append(indented(_("no decision with more than one choice")))
        return lines
    lines.append(
        indented(
            ngettext("{n} decision", "{n} decisions", n).format(n=n)
            + "; "
            + _("lost {loss} points a decision from its own view, {cost} with all cards seen").format(
                loss=points(summary.loss_per_decision), cost=points(summary.cost_per_decision)
            )
        )
    )
    v = summary.verdicts
    counts = [
        ngettext("{n} inaccuracy", "{n} inaccuracies", v["inaccuracy"]).format(n=v["inaccuracy"]) + " ?!",
        ngettext("{n} mistake", "{n} mistakes", v["mistake"]).format(n=v["mistake"]) + " ?",
        ngettext("{n} blunder", "{n} blunders", v["blunder"]).format(n=v["blunder"]) + " ??",
    ]
    lines.append(indented(", ".join(counts)))
    lines.append(
        indented(
            _(
                "within error of the best move from its own view: {within} of {n} (the best itself: {best}); "
                "lucky {lucky}, unlucky {unlucky}"
            ).format(within=summary.within_error, best=summary.best, n=n, lucky=summary.lucky, unlucky=summary.unlucky)
        )
    )
    return lines


def turning_lines(review: Review) -> list[RenderableType]:
    """The turning points of the deal, the largest swing first."""
    if not review.turning_points:
        return [Text(_("Turning points: none; no decision changed the result with all cards seen."))]
    lines: list[RenderableType] = [Text(_("Turning points (the result with all cards seen moved most):"), style="bold")]
    for k, i in enumerate(review.turning_points, 1):
        d = review.decisions[i]
        words = f"{k}. {decision_title(d, review)}: {exact_words(d)}"
        if d.verdict is not None:
            words += f" ({verdict_word(d.verdict)} {MARKS[d.verdict]}"
            words += _("; best from its own view {move}").format(move=move_text(d, d.best)) + ")"
        elif d.luck is not None:
            words += f" ({luck_word(d.luck)})"
        lines.append(indented(words, hang=len(f"{k}. ")))
    return lines


# ---------------------------------------------------------------- the chart


@dataclass
class ResultChart:
    """The caller's result at the start and after each trick: ``●`` with all cards seen, ``○``
    the chart seat's expectation after its last move of the trick, ``◉`` both in one cell. One
    row each two points (the caller's results are even), one column a point, as wide as the
    terminal allows."""

    points: Sequence[ChartPoint]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        values = [v for p in self.points for v in (p.exact, p.seat_view) if v is not None]
        if not values:
            return
        top = max(2, 2 * round(max(values) / 2 + 0.5))
        bottom = min(-2, 2 * round(min(values) / 2 - 0.5))
        label = 4
        room = max(1, options.max_width - label - 2)
        step = max(2, min(6, room // max(1, len(self.points))))
        rows = range(top, bottom - 1, -2)
        for level in rows:
            line = Text(f"{signed(level):>{label}} ")
            line.append("┼" if level == 0 else "│", style="dim")
            for p in self.points:
                exact = p.exact is not None and _row(p.exact) == level
                seen = p.seat_view is not None and _row(p.seat_view) == level
                mark = "◉" if exact and seen else "●" if exact else "○" if seen else ("─" if level == 0 else " ")
                fill = "─" if level == 0 else " "
                style = "bold" if exact else ("cyan" if seen else "dim")
                line.append(mark.center(step, fill) if mark not in "─ " else fill * step, style=style)
            yield line
        axis = Text(" " * (label + 2))
        for p in self.points:
            axis.append(str(p.trick).center(step))
        yield axis


def _row(value: float) -> int:
    """The chart row of a value: the nearest even number of points."""
    return 2 * round(value / 2)


def chart_lines(review: Review) -> list[RenderableType]:
    """The chart with its title and key."""
    if not review.chart or review.caller is None:
        return []
    seat = review.chart_seat
    out: list[RenderableType] = [Text(_("The caller's result after each trick:"), style="bold")]
    key = _("● with all cards seen")
    if seat is not None and any(p.seat_view is not None for p in review.chart):
        key += "   " + _("○ what seat {seat} expected after its move").format(seat=seat)
    out.append(Text(key, style="dim"))
    out.append(ResultChart(review.chart))
    ends = [p for p in review.chart if p.label == "end"]
    note = _("0: after the call")
    if ends:
        note += "; " + _("{trick}: the claim").format(trick=ends[0].trick)
    out.append(Text(note, style="dim"))
    return out


# ---------------------------------------------------------------- the decisions


def decision_cells(d: Decision) -> dict[str, Text]:
    """One decision's cells by column: the trick (or the call), the seat, the move played, the best
    from the seat's view, the loss ± its error with the verdict's mark, the result with all cards
    seen (before → after; a call: play/pass), the cost, the luck. No cell wraps."""
    style = "bold red" if d.verdict == "blunder" else "red" if d.verdict == "mistake" else ""
    mark = MARKS.get(d.verdict or "", "")
    if d.is_call:
        assert d.exact is not None
        seen = f"{signed(d.exact['play'])}/{signed(d.exact['pass'])}"
    else:
        seen = f"{signed(d.exact_before or 0)}→{signed(d.exact_after or 0)}"
    cells = {
        "trick": pgettext("column", "call") if d.is_call else str(d.trick),
        "seat": str(d.seat),
        "played": Text(move_text(d, d.played), style=style),
        "best": move_text(d, d.best),
        "lost": Text(f"{loss_text(d)} {mark}".rstrip(), style=style),
        "seen": seen,
        "cost": whole(d.cost) if d.cost else "0",
        "luck": luck_word(d.luck) if d.luck else "",
    }
    return {k: v if isinstance(v, Text) else Text(v) for k, v in cells.items()}


def column_headers() -> dict[str, str]:
    """The decisions table's column headers in the reader's language."""
    return {
        "trick": pgettext("column", "trick"),
        "seat": pgettext("column", "seat"),
        "played": pgettext("column", "played"),
        "best": pgettext("column", "best"),
        "lost": pgettext("column", "lost ±"),
        "seen": pgettext("column", "all cards seen"),
        "cost": pgettext("column", "cost"),
        "luck": pgettext("column", "luck"),
    }


WIDE = (("trick",), ("seat",), ("played",), ("best",), ("lost",), ("seen",), ("cost",), ("luck",))
"""The decisions table one line a decision: a column each."""
NARROW = (("trick",), ("seat",), ("played", "seen"), ("best", "cost"), ("lost", "luck"))
"""Two lines a decision, for a narrow terminal: the move played over the result with all cards
seen, the best move over the cost, the loss over the luck."""
NARROWEST = (("trick", "seat"), ("played", "seen"), ("best", "cost"), ("lost", "luck"))
"""Two lines a decision and the trick over the seat, for the narrowest terminals."""
LAYOUTS = (WIDE, NARROW, NARROWEST)
"""The decisions table's layouts, widest first."""
RIGHT = {"lost", "seen", "cost"}
"""The columns of numbers set to the right (the trick and seat too, alone in their column)."""


def _lines_width(text: str) -> int:
    return max((cell_len(line) for line in text.split("\n")), default=0)


def _longest_word(text: str) -> int:
    return max((cell_len(w) for w in text.split()), default=0)


@dataclass
class DecisionsTable:
    """Every decision of the review in a table as wide as the terminal allows: one line a
    decision when every cell fits whole (:data:`WIDE`), else two (:data:`NARROW`, then
    :data:`NARROWEST`). A cell never wraps and is never cut (a card is read whole); only headers
    wrap, by words."""

    review: Review

    def table(self, layout: tuple[tuple[str, ...], ...], widths: list[int] | None) -> Table:
        """The table in ``layout``: a column a group of fields (the fields one over the other),
        each ``widths`` wide (None: as wide as its widest cell and its header's longest word)."""
        heads = column_headers()
        rows = [decision_cells(d) for d in self.review.decisions]
        columns = [[Text("\n").join(row[f] for f in group) for row in rows] for group in layout]
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        for k, group in enumerate(layout):
            header = "\n".join(heads[f] for f in group)
            cells = [_longest_word(header), *(_lines_width(c.plain) for c in columns[k])]
            width = widths[k] if widths is not None else max(cells)
            right = group[0] in RIGHT or group in (("trick",), ("seat",))
            table.add_column(Text(header), justify="right" if right else "left", width=width)
        for r in range(len(rows)):
            table.add_row(*(column[r] for column in columns))
        return table

    def fitted(self, console: Console, options: ConsoleOptions) -> Table:
        """The widest layout whose cells all fit ``options.max_width`` (the narrowest when none
        does), its headers unwrapped as far as the room left allows."""
        heads = column_headers()
        for layout in LAYOUTS:
            tight = self.table(layout, None)
            widths = [int(c.width or 0) for c in tight.columns]
            total = Measurement.get(console, options.update(max_width=10**6), tight).maximum
            if total > options.max_width and layout is not LAYOUTS[-1]:
                continue
            spare = max(0, options.max_width - total)
            full = [_lines_width("\n".join(heads[f] for f in group)) for group in layout]
            for k in sorted(range(len(layout)), key=lambda k: full[k] - widths[k]):
                grow = min(spare, max(0, full[k] - widths[k]))
                widths[k] += grow
                spare -= grow
            return self.table(layout, widths)
        raise AssertionError("unreachable: the narrow layout is always returned")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        yield self.fitted(console, options)


def loss_words(d: Decision) -> str:
    """The move played from the seat's own view: the best, within error of the best (never
    called worse), or how far below it, ± the error, over how many sampled deals."""
    sampled = ngettext("{n} sampled deal", "{n} sampled deals", d.samples).format(n=number(d.samples))
    if not d.loss:
        return _("From its own view: the best move, {mean} points expected ({n}).").format(
            mean=signed(d.played_value.mean, 2), n=sampled
        )
    fields = {"loss": points(d.loss), "se": points(d.loss_stderr), "best": move_text(d, d.best), "n": sampled}
    if d.within_error:
        return _("From its own view: within error of the best, {best} ({loss} ± {se} points below it, {n}).").format(
            **fields
        )
    return _("From its own view: {loss} ± {se} points below {best} ({n}).").format(**fields)


def seat_names(review: Review) -> list[str] | None:
    """The players' names by seat as the review shows them (None when the record names none)."""
    players = review.record.get("players")
    return [player_name(p) for p in players] if players else None


def detail_lines(d: Decision, review: Review) -> list[RenderableType]:
    """A decision with a verdict or a luck mark told in full: the loss from the seat's view
    (against the best from its view), the cost with all cards seen and, where it cost something,
    the move that does better with all cards seen and the line after it, trick by trick with the
    seats' names."""
    title = decision_title(d, review)
    marks = [f"{verdict_word(d.verdict)} {MARKS[d.verdict]}"] if d.verdict else []
    if d.luck:
        marks.append(luck_word(d.luck))
    lines: list[RenderableType] = [Hanging(Text(f"{title} — {', '.join(marks)}", style="bold"), 0, INDENT)]
    lines.append(indented(loss_words(d)))
    cost = (
        _("With all cards seen it cost {cost} ({change}).").format(cost=cost_words(d.cost), change=change_words(d))
        if d.cost
        else _("With all cards seen it cost nothing ({change}).").format(change=change_words(d))
    )
    lines.append(indented(cost))
    b = d.better
    if b is not None:
        if d.is_call:
            after = _("Better with all cards seen: {move}, {value} in its own points.")
            lines.append(indented(after.format(move=move_text(d, b.move), value=signed(b.exact_after or 0))))
        else:
            after = _("Better with all cards seen: {move}; after it the caller's result is {value}:")
            lines.append(indented(after.format(move=move_text(d, b.move), value=signed(b.exact_after or 0))))
        if b.line and b.start:
            first = 1 if d.is_call else d.trick or 1
            told = narrate_pv(Position.parse(b.start), [Play.parse(m) for m in b.line], first, seat_names(review))
            for line in told:
                lines.append(indented(line, 2 * INDENT))
    return lines


def review_renderables(review: Review) -> list[RenderableType]:
    """The whole review, summary first."""
    out: list[RenderableType] = [*header_lines(review), basis_line(review), Text("")]
    out.append(Text(_("Summary"), style="bold underline"))
    for summary in review.seats:
        out.extend(seat_lines(summary, review))
    out.append(Text(""))
    out.extend(turning_lines(review))
    chart = chart_lines(review)
    if chart:
        out.append(Text(""))
        out.extend(chart)
    if review.decisions:
        out.append(Text(""))
        out.append(
            Text(_("Every decision (points lost from the seat's own view ± error; ?! ? ?? marks):"), style="bold")
        )
        out.append(DecisionsTable(review))
    told = [d for d in review.decisions if d.verdict is not None or d.luck is not None]
    for d in told:
        out.append(Text(""))
        out.extend(detail_lines(d, review))
    if review.record.get("result") is not None:
        out.append(Text(""))
        out.append(Text(_("Net points: {points}").format(points=points_text(review.record["result"]["points"]))))
    return out
