"""``replay``: validate a game record and print it trick by trick."""

from __future__ import annotations

from typing import Annotated

import typer

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

from .options import JsonOpt
from .output import emit_json, stdout_console
from .render import replay_renderable


def is_puzzle_file(path: str) -> bool:
    """True when ``path`` holds puzzles (a collection, a list of puzzles or one puzzle) rather
    than a game record: the puzzle commands read it."""
    from lukfu_solver.puzzles.format import load

    try:
        return bool(load(path))
    except (NotationError, OSError, ValueError):
        return False


def replay(
    record: Annotated[
        str, typer.Argument(metavar="RECORD.json", help="A game record file (JSON).", show_default=False)
    ],
    json_: JsonOpt = False,
) -> None:
    """Validate a game record and print the deal trick by trick, then the result.

    Every play is checked against the rules; an invalid record exits with code 2 and one line
    naming the first illegal play. Shows the hands as dealt, the calls, each trick (leader, each
    seat's play, winner, fu won), a final claim, and the result with net points. --json prints
    the same as data: `{"seed", "players", "passed_out", "hands", "calls", "caller", "tricks",
    "claim", "outcome", "points"}`.
    """
    from lukfu_solver.record import GameRecord

    try:
        rec = GameRecord.load(record)
    except NotationError:
        if is_puzzle_file(record):
            raise NotationError(
                "record",
                _("{path} is a puzzle file, not a game record: try lukfu puzzle play {path}").format(path=record),
            ) from None
        raise
    rec.replay()
    if json_:
        emit_json(rec.replay_json())
    else:
        stdout_console().print(replay_renderable(rec))
        stdout_console().print(_("Review every decision: lukfu review {path}").format(path=record), highlight=False)
