"""``show``: a Rich rendering of a position or of one seat's view."""

from __future__ import annotations

from typing import Annotated

import typer

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _
from lukfu_solver.position import Position

from .options import POSITION_HELP, JsonOpt, one_source
from .output import emit_json, stdout_console
from .render import position_renderable, view_renderable


def looks_like_view(text: str) -> bool:
    """True when ``text`` reads as a seat view (``<seat> <hand> <caller> [history]``), which a
    position line never does (it starts with three hands)."""
    from lukfu_solver.view import SeatView

    try:
        SeatView.parse(text)
    except NotationError:
        return False
    return True


def show(
    position: Annotated[str | None, typer.Argument(metavar="POSITION", help=POSITION_HELP, show_default=False)] = None,
    view: Annotated[
        str | None,
        typer.Option(
            "--view",
            metavar="VIEW",
            help="A seat view instead (NOTATION.md), quoted: `'<seat> <hand> <caller> <history>'`.",
        ),
    ] = None,
    json_: JsonOpt = False,
) -> None:
    """Show a position, or with --view what one seat knows.

    A position: hands by suit with Old cards marked, fu, caller and Master, whose turn, face-up
    cards and the trick in progress. A view: the seat's hand (Old marked), the tricks so far,
    hidden discards as card backs, hand sizes and fu, whose turn, and the seat's legal moves when
    it is to play. --json prints the data instead.
    """
    one_source(position, view, "POSITION", "--view VIEW")
    if view is not None:
        from lukfu_solver.view import SeatView

        seat_view = SeatView.parse(view)
        if json_:
            emit_json(seat_view.to_json())
        else:
            stdout_console().print(view_renderable(seat_view))
        return
    assert position is not None
    try:
        pos = Position.parse(position)
    except NotationError:
        if looks_like_view(position):
            raise NotationError(
                "position", _("this is a seat view, not a position: show it with --view VIEW (lukfu show --view '…')")
            ) from None
        raise
    if json_:
        emit_json(pos.to_json())
    else:
        stdout_console().print(position_renderable(pos))
