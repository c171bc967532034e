"""The options and argument texts that several commands share, defined once."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import N_, _
from lukfu_solver.inputs import excerpt

from .output import bad_usage

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON only (one object).")]
BatchOpt = Annotated[
    str | None,
    typer.Option("--batch", metavar="FILE", help="Read requests from FILE, one a line ('-' is standard input)."),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS|local[:N]",
        help="Run the batch on a Dask cluster: a running scheduler tcp://HOST:PORT, or local:N worker "
        "processes started here (pip install 'lukfu[dask]'); the same output, in order (docs/cluster.md).",
        show_default=False,
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option("--seed", metavar="SEED", help="Seed of the deal; omitted, one is chosen at random and shown."),
]
DealOpt = Annotated[
    int | None,
    typer.Option(
        "--deal",
        metavar="SEED",
        help="Instead of HAND: the hand --seat holds in the deal `lukfu deal --seed SEED` deals.",
    ),
]
AgainstOpt = Annotated[
    str,
    typer.Option(
        "--against",
        metavar="easy|medium|strong",
        help="The opponents' strength the call's expected points are calibrated against: the deals are played "
        "out with every card in view, as if the opponents saw them, and the points are corrected to what such "
        "deals bring against players of that strength (docs/pimc.md, Calibration); --json adds \"against\" and "
        "\"uncalibrated\" (the points before the correction).",
    ),
]


def hand_text(hand: str | None, deal: int | None, seat: int | None, name: str = "HAND") -> str:
    """The HAND a command analyses: as given, or the one ``seat`` holds in the deal ``deal``
    (``--deal SEED --seat SEAT``, :func:`lukfu_solver.game.dealt_hand`); exactly one of the two."""
    from lukfu_solver.cards import format_cards
    from lukfu_solver.game import dealt_hand

    if deal is None:
        if not hand:
            raise bad_usage(
                name.split("|")[-1].lower(),
                _("missing: give {name}, or --deal SEED with --seat SEAT").format(name=name),
            )
        return hand
    if hand:
        raise bad_usage("deal", _("give either {name} or --deal SEED, not both").format(name=name))
    if seat is None:
        raise bad_usage("seat", _("--deal SEED needs --seat SEAT: whose hand in the deal"))
    return format_cards(dealt_hand(deal, seat))


POSITION_HELP = N_("A position line (NOTATION.md), quoted: `'<hands> <to-move> <caller> <fu> <face-up> <trick>'`.")


def check_seat(value: int, field: str) -> int:
    """``value`` if it is a seat (0, 1, 2), else a NotationError naming ``field``."""
    if value not in (0, 1, 2):
        raise NotationError(field, _("a seat is 0, 1 or 2, got {value}").format(value=excerpt(value)))
    return value


def one_source(argument: Any, other: str | None, name: str, other_name: str = "--batch FILE") -> None:
    """Require exactly one of a command-line ``argument`` and an option (``--batch FILE``)."""
    if other is not None and argument:
        raise bad_usage(name.lower(), _("give either {name} or {other}, not both").format(name=name, other=other_name))
    if other is None and not argument:
        raise bad_usage(name.lower(), _("missing: give {name} or {other}").format(name=name, other=other_name))
