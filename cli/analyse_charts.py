"""Small bar charts of ``advise`` and ``analyse``, as Rich renderables that fit the terminal width.

- :class:`OutcomeChart`: the spread of calling's results over the samples (how often the call
  wins, loses, and by how much): one bar per result, wins green, losses red;
- :class:`MovesChart`: each move's expected points as a bar from 0, with its standard error as
  a whisker (``├┤`` marks mean ± one standard error), over a scale with its ends and ``0`` marked.

Both size themselves to the width Rich offers (``options.max_width``), so they fit 60, 80 or
120 columns alike; the numbers are printed beside the bars, never inside them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.text import Text

from lukfu_solver.i18n import _, number, percent

from .render import signed


@dataclass
class OutcomeChart:
    """``outcomes``: the caller's result (points) -> the samples that came to it."""

    outcomes: dict[int, int]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        total = sum(self.outcomes.values())
        if not total:
            yield Text(_("No sampled deal finished: no spread to show."), style="dim")
            return
        most = max(self.outcomes.values())
        label = 5  # "+14 "
        tail = max(cell_len(f" {n} ({percent(n / total)})") for n in self.outcomes.values()) + 1
        room = max(4, options.max_width - label - tail)
        for value in sorted(self.outcomes):
            count = self.outcomes[value]
            n = max(1, round(count / most * room))
            style = "green" if value > 0 else ("red" if value < 0 else "yellow")
            line = Text(f"{signed(value):>4} ")
            line.append("█" * n, style=style)
            line.append(f" {count} ({percent(count / total)})")
            yield line


@dataclass
class MovesChart:
    """``rows``: ``(label, mean, stderr)`` best first; the bars share one scale and one zero."""

    rows: Sequence[tuple[str, float, float]]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        if not self.rows:
            return
        label = max(len(r[0]) for r in self.rows) + 1
        number_width = max(cell_len(f" {signed(m, 2)} ± {number(se, 2)}") for _, m, se in self.rows)
        room = max(8, options.max_width - label - number_width - 1)
        low = min(0.0, min(m - se for _, m, se in self.rows))
        high = max(0.0, max(m + se for _, m, se in self.rows))
        span = (high - low) or 1.0

        def col(x: float) -> int:
            return min(room - 1, max(0, round((x - low) / span * (room - 1))))

        zero = col(0.0)
        for i, (name, m, se) in enumerate(self.rows):
            cells = [" "] * room
            a, b = sorted((zero, col(m)))
            for c in range(a, b + 1):
                cells[c] = "█"
            lo, hi = col(m - se), col(m + se)
            for c in range(lo, hi + 1):
                if cells[c] == " ":
                    cells[c] = "─"
            cells[lo], cells[hi] = "├", "┤"
            if cells[zero] == " ":
                cells[zero] = "│"
            style = "green" if m > 0 else ("red" if m < 0 else "yellow")
            line = Text(f"{name:<{label}}", style="bold" if i == 0 else "")
            line.append("".join(cells), style=style)
            line.append(f" {signed(m, 2)} ± {number(se, 2)}")
            yield line
        yield axis(label, room, zero, number(low, 1), number(high, 1))


def axis(label: int, room: int, zero: int, low: str, high: str) -> Text:
    """The scale under the bars: the lowest and highest points at the ends and ``0`` under the
    zero column (a ``┴`` above it), so a bar reads as above or below nothing at a glance."""
    rule = ["─"] * room
    rule[zero] = "┴"
    marks = [" "] * room
    for at, text in ((0, low), (room - len(high), high)):
        for k, ch in enumerate(text):
            if 0 <= at + k < room:
                marks[at + k] = ch
    start = min(max(0, zero), room - 1)
    for k in range(start - 1, start + 2):  # clear room around the zero
        if 0 <= k < room:
            marks[k] = " "
    marks[start] = "0"
    return Text.assemble(" " * label, ("".join(rule), "dim"), "\n", " " * label, ("".join(marks), "dim"))
