"""``lukfu play --deals N``: deal after deal at one table, with a running score.

The same three people sit at the table for the whole session: you and two engine players, each
named by a plain strength (``easy``, ``medium``, ``strong``) or by the engine spec typed
(:func:`lukfu_solver.session.parse_opponents`, the one grammar of the opponents), the first
(``A``) always playing right after you and the second (``B``) right before
(:func:`lukfu_solver.session.seated_after`). Deal k (from 1) has the seed ``SEED + k - 1``, so
any deal can be played again alone; its Master is drawn at random, as RULES.md has it for every
deal (R2, and R3 after three passes), so your seat number changes from deal to deal while the
order round the table stays. Every deal is saved as its own record when it ends; before each deal
the score so far is shown, and at the end (or when you stop) a summary of every deal and the totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, ngettext, pgettext
from lukfu_solver.inputs import MAX_SEED
from lukfu_solver.players import STRENGTHS
from lukfu_solver.record import GameRecord

from .render import STRENGTH_WORDS, player_name, signed

MAX_SESSION = 100
"""The most deals of one session."""


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The seeds of a session's deals: ``seed``, ``seed + 1`` … (checked to stay seeds)."""
    if not 1 <= deals <= MAX_SESSION:
        raise NotationError("deals", _("a session has 1-{most} deals, got {n}").format(most=MAX_SESSION, n=deals))
    if seed + deals - 1 > MAX_SEED:
        raise NotationError("seed", _("seed {seed} leaves no room for {n} deals").format(seed=seed, n=deals))
    return [seed + k for k in range(deals)]


def record_path(record: Path | None, k: int, deals: int) -> Path | None:
    """Where deal ``k`` (from 1) is saved: ``--record FILE`` itself for one deal, ``FILE-k`` (the
    suffix kept) for each deal of a session; None: a fresh ``lukfu-SEED.json``."""
    if record is None or deals == 1:
        return record
    return record.with_name(f"{record.stem}-{k}{record.suffix}")


@dataclass
class Session:
    """The deals played so far: the people at the table (``names[person]``, you among them as
    ``you``), each deal's record and where it was saved."""

    names: list[str]
    deals: int
    records: list[GameRecord] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)

    @property
    def order(self) -> list[int]:
        """The people as the score lists them: you first, then the engines in playing order from
        you (the one after you, then the one before: ``A`` then ``B``), as every deal seats them."""
        you = self.names.index("you")
        return [you, (you + 1) % 3, (you + 2) % 3]

    def add(self, rec: GameRecord, path: Path) -> None:
        """A deal finished and saved."""
        self.records.append(rec)
        self.paths.append(path)

    def points(self, rec: GameRecord) -> list[int]:
        """Each person's net points in one deal (the record has them by seat)."""
        assert rec.players is not None and rec.outcome is not None
        return [rec.outcome.points[rec.players.index(name)] for name in self.names]

    def totals(self) -> list[int]:
        """Each person's net points over the deals played."""
        sums = [0, 0, 0]
        for rec in self.records:
            for p, v in enumerate(self.points(rec)):
                sums[p] += v
        return sums

    def score(self) -> str:
        """``you +3 · medium A -1 · medium B -2``: each person's points so far."""
        totals = self.totals()
        return " · ".join(f"{player_name(self.names[p])} {signed(totals[p])}" for p in self.order)

    def score_line(self) -> Text:
        """``Score after deal 2 of 5: you +3 · medium A -1 · medium B -2``."""
        return Text(
            _("Score after deal {k} of {n}: {score}").format(k=len(self.records), n=self.deals, score=self.score()),
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
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=_("The session"), title_justify="left")
        table.add_column(pgettext("column", "deal"), justify="right")
        table.add_column(pgettext("column", "your seat"), justify="right")
        table.add_column(pgettext("column", "winner"))
        for p in self.order:
            table.add_column(player_name(self.names[p]), justify="right")
        for k, rec in enumerate(self.records, 1):
            assert rec.players is not None and rec.outcome is not None
            winner = rec.outcome.winner
            mine = rec.players.index("you")
            table.add_row(
                str(k),
                f"{mine}*" if mine == rec.caller else str(mine),
                "-" if winner is None else player_name(rec.players[winner]),
                *(signed(self.points(rec)[p]) for p in self.order),
            )
        table.add_section()
        totals = self.totals()
        table.add_row(_("total"), "", "", *(signed(totals[p]) for p in self.order))
        played = len(self.records)
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


__all__ = ["STRENGTHS", "STRENGTH_WORDS", "Session", "deal_seeds", "record_path"]
