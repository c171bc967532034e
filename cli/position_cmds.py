"""``deal``, ``legal`` and ``apply``: positions in, positions and moves out."""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, ngettext
from lukfu_solver.plays import Play
from lukfu_solver.position import Position

from .batch import run_batch
from .options import POSITION_HELP, BatchOpt, JsonOpt, SeedOpt, check_seat, one_source
from .output import bad_usage, emit_json, emit_line, note, stdout_console
from .render import hand_table, hands_table, legend_for, position_renderable, result_line

# ---------------------------------------------------------------- deal


def deal(
    seed: SeedOpt = None,
    caller: Annotated[
        int | None,
        typer.Option(
            "--caller",
            metavar="SEAT",
            help="The seat that called 'play' (0-2) in the position line (default 0); with --show, the table as "
            "if that seat called (without it, the hands as dealt, before the calling).",
            show_default=False,
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", metavar="SEAT", help="Show this seat's hand (0 is the Master) and how to get advice on it."
        ),
    ] = None,
    show: Annotated[
        bool, typer.Option("--show", help="Show the whole table: every hand by suit, fu, whose lead.")
    ] = False,
    json_: JsonOpt = False,
) -> None:
    """Deal at random: the position ready for the Master's first lead (R2-R4).

    Prints the position line (for `lukfu solve`, `show`, `apply`; seat 0 the caller unless
    --caller); --seat SEAT shows that seat's hand by suit, Old cards marked, with the commands
    that analyse it; --show shows every hand as dealt (with --caller, the table as if that seat
    called). With --json `{"seed", "caller", "position"}` (with --seat also `"seat"`, `"hand"` and
    `"old"`). Without --seed the seed chosen is printed on stderr, so the deal can be reproduced.
    """
    from lukfu_solver.cards import format_cards, old_cards
    from lukfu_solver.game import dealt_hand, start_position

    given = caller is not None
    caller = 0 if caller is None else caller
    check_seat(caller, "caller")
    if seat is not None:
        check_seat(seat, "seat")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        note(_("seed {seed}").format(seed=seed))
    pos = start_position(seed, caller)
    if json_:
        data: dict[str, Any] = {"seed": seed, "caller": caller, "position": str(pos)}
        if seat is not None:
            hand = dealt_hand(seed, seat)
            data.update(seat=seat, hand=format_cards(hand), old=format_cards(old_cards(hand, 0)))
        emit_json(data)
        return
    if seat is None and not show:
        emit_line(str(pos))
        return
    console = stdout_console()
    if show and given:
        console.print(Text(_("Deal {seed}, caller seat {caller}:").format(seed=seed, caller=caller), style="bold"))
        console.print(position_renderable(pos))
    elif show:
        console.print(dealt_renderable(seed, pos))
    if seat is not None:
        console.print(seat_hand_renderable(seed, seat))


def dealt_renderable(seed: int, pos: Position) -> RenderableType:
    """The hands of the deal of ``seed`` as dealt, before anyone calls: no caller is named, since
    the calling decides it (R3)."""
    from lukfu_solver.cards import old_cards

    return Group(
        Text(_("Deal {seed}, the hands as dealt (seat 0 is the Master and speaks first):").format(seed=seed), style="bold"),
        hands_table(pos.hands, None),
        legend_for(*(old_cards(h, 0) for h in pos.hands)),
        Text(
            _(
                "The calling decides the caller (R3): lukfu play --seed {seed} plays this deal; "
                "--caller SEAT shows the table as if SEAT called."
            ).format(seed=seed)
        ),
    )


def seat_hand_renderable(seed: int, seat: int) -> RenderableType:
    """A seat's hand in the deal of ``seed`` before the calling, and the next commands to try."""
    from lukfu_solver.cards import format_cards, old_cards
    from lukfu_solver.game import dealt_hand

    hand = dealt_hand(seed, seat)
    old = old_cards(hand, 0)
    who = _("you are the Master and speak first") if seat == 0 else _("seat 0 is the Master and speaks first")
    n_old = old.bit_count()
    written = ngettext("Written {hand}; {n} Old card. Next:", "Written {hand}; {n} Old cards. Next:", n_old)
    lines: list[RenderableType] = [
        Text(_("Deal {seed}, your hand at seat {seat} ({who}):").format(seed=seed, seat=seat, who=who), style="bold"),
        hand_table(hand, old, _("seat {seat}").format(seat=seat)),
        legend_for(old),
        Text(written.format(hand=format_cards(hand), n=n_old)),
    ]
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(f"  lukfu advise --deal {seed} --seat {seat}", _("play or pass?"))
    grid.add_row(f"  lukfu analyse --deal {seed} --seat {seat}", _("the hand's strengths and the advice"))
    grid.add_row(f"  lukfu play --seed {seed} --seat {seat}", _("play this hand against the engine"))
    grid.add_row(f"  lukfu deal --seed {seed} --show", _("the whole table"))
    lines.append(grid)
    return Group(*lines)


# ---------------------------------------------------------------- legal


def legal_data(text: str) -> dict[str, Any]:
    """``{"position", "legal"}`` for one position line (raises NotationError when bad)."""
    pos = Position.parse(text)
    return {"position": str(pos), "legal": [str(m) for m in pos.sorted_legal_moves()]}


def legal(
    position: Annotated[str | None, typer.Argument(metavar="POSITION", help=POSITION_HELP, show_default=False)] = None,
    batch: BatchOpt = None,
    json_: JsonOpt = False,
) -> None:
    """List the legal moves of a position in canonical order, one a line.

    With --json: `{"position", "legal"}`. With --batch FILE: one position a line in, one JSON
    object a line out (`{"position", "legal"}`, or `{"line", "error"}` for a bad line).
    """
    one_source(position, batch, "POSITION")
    if batch is not None:
        run_batch(batch, legal_data, "legal moves")
        return
    assert position is not None
    data = legal_data(position)
    if json_:
        emit_json(data)
        return
    if not data["legal"]:
        note(_("no legal moves: the deal has ended"))
    for move in data["legal"]:
        emit_line(move)


# ---------------------------------------------------------------- apply


def apply_moves(pos: Position, moves: list[str], fields: list[str]) -> list[Play]:
    """Play ``moves`` on ``pos`` in turn, each checked (R5-R9, R14); return the moves as parsed."""
    played = []
    for text, field in zip(moves, fields, strict=True):
        move = Play.parse(text, field)
        pos.push_checked(move, field)
        played.append(move)
    return played


def apply_line(text: str) -> dict[str, Any]:
    """One batch request ``POSITION<TAB>MOVE`` → ``{"position", "move", "result", "points"}``."""
    if "\t" not in text:
        raise NotationError("line", _("expected POSITION<TAB>MOVE"))
    pos_text, move_text = text.split("\t", 1)
    pos = Position.parse(pos_text)
    start = str(pos)
    (move,) = apply_moves(pos, [move_text], ["move"])
    return {
        "position": start,
        "move": str(move),
        "result": None if pos.is_over else str(pos),
        "points": None if pos.outcome is None else list(pos.outcome.points),
    }


def apply(
    position: Annotated[str | None, typer.Argument(metavar="POSITION", help=POSITION_HELP, show_default=False)] = None,
    moves: Annotated[
        list[str] | None, typer.Argument(metavar="MOVE...", help="Moves to play in turn (S7, C5S5M5, xC2, claim).")
    ] = None,
    batch: BatchOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Play moves on a position, each checked for legality; print the position reached.

    Once the deal has ended (a claim, or the last trick: R15) the result is printed instead:
    who won, T, how, and the net points. With --json: `{"position", "moves", "result", "points",
    "outcome"}`. With --batch FILE: lines `POSITION<TAB>MOVE` in, one JSON object a line out
    (`{"position", "move", "result", "points"}`; result is null and points set once the deal has
    ended; `{"line", "error"}` for a bad line).
    """
    one_source(position, batch, "POSITION")
    if batch is not None:
        if moves:
            raise bad_usage("move", _("with --batch the moves are in FILE"))
        run_batch(batch, apply_line, "applying")
        return
    assert position is not None
    if not moves:
        raise bad_usage("move", _("missing: give at least one MOVE"))
    pos = Position.parse(position)
    start = str(pos)
    fields = ["move"] if len(moves) == 1 else [f"move {i}" for i in range(1, len(moves) + 1)]
    played = apply_moves(pos, moves, fields)
    if json_:
        emit_json(
            {
                "position": start,
                "moves": [str(m) for m in played],
                "result": None if pos.is_over else str(pos),
                "points": None if pos.outcome is None else list(pos.outcome.points),
                "outcome": None if pos.outcome is None else pos.outcome.to_json(points=False),
            }
        )
    elif pos.outcome is not None:
        emit_line(result_line(pos.outcome))
    else:
        emit_line(str(pos))
