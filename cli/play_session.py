"""``lukfu play --deals N``: deal after deal at one table, with a running score.

The session itself (its seeds, its people, each deal's game, the points) is the library's
:class:`~lukfu_solver.series.DealSeries`, the one the browser's evening keeps too; this module
draws it. The same three people sit at the table for the whole session: you and two engine
players, each named by a plain strength (``easy``, ``medium``, ``strong``) or by the engine spec
typed (:func:`lukfu_solver.session.parse_opponents`, the one grammar of the opponents), the first
(``A``) always playing right after you and the second (``B``) right before
(:func:`lukfu_solver.session.seated_after`). Deal k (from 1) has the seed ``SEED + k - 1``, so
any deal can be played again alone; its Master is drawn at random, as RULES.md has it for every
deal (R2, and R3 after three passes), so your seat number changes from deal to deal while the
order round the table stays. Every deal is saved as its own record when it ends; before each deal
the score so far is shown, and at the end (or when you stop) a summary of every deal and the totals.
"""

from __future__ import annotations

from pathlib import Path

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.i18n import _, ngettext, pgettext
from lukfu_solver.players import STRENGTHS
from lukfu_solver.record import GameRecord
from lukfu_solver.series import MAX_SESSION, DealResult, DealSeries, deal_seeds

from .render import STRENGTH_WORDS, player_name, signed


def record_path(record: Path | None, k: int, deals: int) -> Path | None:
    """Where deal ``k`` (from 1) is saved: ``--record FILE`` itself for one deal, ``FILE-k`` (the
    suffix kept) for each deal of a session; None: a fresh ``lukfu-SEED.json``."""
    if record is None or deals == 1:
        return record
    return record.with_name(f"{record.stem}-{k}{record.suffix}")


class Session:
    """The deals played so far at the terminal: the library's session of deals
    (:class:`~lukfu_solver.series.DealSeries`: the people at the table, ``names[person]``, you
    among them as ``you``, each deal's game and result), each deal's record and where it was saved."""

    def __init__(self, series: DealSeries) -> None:
        self.series = series
        self.records: list[GameRecord] = []
        self.paths: list[Path] = []

    @property
    def names(self) -> list[str]:
        """The people at the table."""
        return self.series.names

    @property
    def deals(self) -> int:
        """The deals the session was to have."""
        return self.series.deals

    def add(self, rec: GameRecord, path: Path) -> None:
        """A deal finished and saved."""
        result = DealResult.of(rec)
        assert result is not None
        self.series.add(result)
        self.records.append(rec)
        self.paths.append(path)

    def score(self) -> str:
        """``you +3 · medium A -1 · medium B -2``: each person's points so far, you first, then
        the engines in playing order from you (:attr:`DealSeries.order`)."""
        totals = self.series.totals()
        return " · ".join(f"{player_name(self.names[p])} {signed(totals[p])}" for p in self.series.order)

    def score_line(self) -> Text:
        """``Score after deal 2 of 5: you +3 · medium A -1 · medium B -2``."""
        return Text(
            _("Score after deal {k} of {n}: {score}").format(k=self.series.played, n=self.deals, score=self.score()),
            style="bold",
        )

    def deal_head(self, k: int) -> str:
        """The line before deal ``k`` (from 1): ``Deal 2 of 5 — score so far: you +3 · …``."""
        if k == 1:
            return _("Deal {k} of {n}").format(k=k, n=self.deals)
        return _("Deal {k} of {n} — score so far: {score}").format(k=k, n=self.deals, score=self.score())

    def summary(self) -> RenderableType:
        """Every deal played: your seat (marked when you called), who won and everyone's points,
        then the totals and where each record is (each deal's seed is in its record and in the
        line that opened it)."""
        order = self.series.order
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=_("The session"), title_justify="left")
        table.add_column(pgettext("column", "deal"), justify="right")
        table.add_column(pgettext("column", "your seat"), justify="right")
        table.add_column(pgettext("column", "winner"))
        for p in order:
            table.add_column(player_name(self.names[p]), justify="right")
        for row in self.series.rows():
            mine, winner = row["seat"], row["winner_name"]
            table.add_row(
                str(row["deal"]),
                f"{mine}*" if mine == row["caller"] else str(mine),
                "-" if winner is None else player_name(winner),
                *(signed(v) for v in row["points"]),
            )
        table.add_section()
        totals = self.series.totals()
        table.add_row(_("total"), "", "", *(signed(totals[p]) for p in order))
        played = self.series.played
        lines: list[RenderableType] = [table, Text(_("* you were the caller"), style="dim")]
        if played < self.deals:
            lines.append(
                Text(
                    ngettext(
                        "Stopped after {k} of {n} deal.", "Stopped after {k} of {n} deals.", self.deals
                    ).format(k=played, n=self.deals)
                )
            )
        if self.paths:
            first, last = self.paths[0], self.paths[-1]
            where = str(first) if played == 1 else f"{first} … {last}"
            lines.append(Text(_("Records: {files} (see one again with: lukfu replay FILE)").format(files=where)))
        return Group(*lines)


__all__ = ["MAX_SESSION", "STRENGTHS", "STRENGTH_WORDS", "Session", "deal_seeds", "record_path"]
