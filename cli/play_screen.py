"""The play screen's pieces as Rich renderables that fit any terminal width: the menu of choices
in columns (a choice is never split), the hint's table of every legal move, the claim as it
happens and the summary after each trick. :mod:`lukfu_cli.play_cmd` prints them; the library
computes every number (the hint is :func:`lukfu_solver.analysis.hint.hint`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.plays import Play
from lukfu_solver.record import GameRecord

from .render import claim_of, hand_table, plural, signed

COMMANDS = (
    ("hint", "the engine's estimate of every legal move (at the call: play or pass)"),
    ("undo", "take back your last answer"),
    ("tricks", "every trick so far"),
    ("moves", "all your legal moves"),
    ("help", "this help"),
    ("quit", "stop without saving"),
)


def help_renderable() -> RenderableType:
    """How to answer, and the commands, as a table that wraps by words."""
    how = Text(
        "Type a move as the notation writes it: a card (S7), a set (C5S5M5), a run (S345), a discard "
        "(the cards, e.g. C2M4, when you cannot beat), claim; or its number in the list. At the call: "
        "play or pass (1 or 2)."
    )
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for word, what in COMMANDS:
        table.add_row(word, what)
    return Group(how, Text("Commands:"), table)


def menu(choices: Sequence[Any], numbered: bool = True, more: int = 0) -> RenderableType:
    """``Choices:`` and the choices in columns (``1) S7``), each kept whole; ``more`` not shown
    are counted, with the command that lists them."""
    items = [Text(f"{i}) {c}" if numbered else str(c), no_wrap=True) for i, c in enumerate(choices, 1)]
    if more:
        items.append(Text(f"… {more} more ('moves' lists all)", style="dim", no_wrap=True))
    return Group(Text("Choices:"), Columns(items, padding=(0, 3)))


def caller_loses(estimate: Any, seat: int, caller: int) -> float | None:
    """The chance the caller loses the deal after this move, over the sampled deals: the
    library's ``p_caller_loses`` when it gives one, else counted from the estimate's values
    sample by sample (the caller's points below zero; a defender's share is minus half of them)."""
    p = getattr(estimate, "p_caller_loses", None)
    if p is not None:
        return float(p)
    values = getattr(estimate, "values", ())
    if not values:
        return None
    sign = 1 if seat == caller else -1
    return sum(1 for v in values if sign * v < 0) / len(values)


def hint_renderable(
    view: Any, analysis: Any, left_out: Sequence[tuple[Play, str]] | None, level: int
) -> RenderableType:
    """Every legal move with your expected points (± one standard error) and how often the
    caller loses after it; a legal move the engine did not weigh is named, with why."""
    seat, caller = view.seat, view.caller
    share = "" if seat == caller else " (as a defender, half of what the caller loses or minus half of what it wins)"
    head = Text(
        f"Hint (level {level}, {plural(analysis.samples, 'sampled deal')}): your expected points{share}, "
        f"and how often {'you lose' if seat == caller else 'the caller loses'}:"
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("move", no_wrap=True)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("±", justify="right", no_wrap=True)
    table.add_column("you lose" if seat == caller else "caller loses", justify="right", no_wrap=True)
    for i, m in enumerate(analysis.moves):
        p = caller_loses(m, seat, caller)
        style = "bold" if i == 0 else ""
        table.add_row(
            Text(str(m.move), style=style),
            Text(signed(m.value, 2), style=style),
            f"{m.stderr:.2f}",
            "-" if p is None else f"{p:.0%}",
        )
    parts: list[RenderableType] = [head, table]
    if left_out is None:
        valued = {m.move for m in analysis.moves}
        missing = [mv for mv in view.sorted_legal_moves() if mv not in valued]
        left_out = [(mv, f"level {level} weighs its {len(valued)} likeliest moves") for mv in missing]
    if left_out:
        reasons: dict[str, list[str]] = {}
        for mv, why in left_out:
            reasons.setdefault(why, []).append(str(mv))
        for why, moves in reasons.items():
            parts.append(Text(f"Not weighed: {' '.join(moves)} — {why}."))
    parts.append(Text(f"Advice: {analysis.best}", style="bold"))
    return Group(*parts)


def who(seat: int, players: Sequence[str], me: int) -> str:
    """``you`` or ``seat 2 (rule B)``."""
    return "you" if seat == me else f"seat {seat} ({players[seat]})"


def claim_announcement(rec: GameRecord, me: int) -> RenderableType:
    """The claim as it happens: who claims, the Old cards shown, the total and what it is worth."""
    assert rec.players is not None
    positions = rec.replay()
    claim = claim_of(rec, positions)
    assert claim is not None
    seat, old = claim
    fu = positions[-2].fu[seat]
    total = fu + old.bit_count()
    name = who(seat, rec.players, me)
    verb = "claim" if seat == me else "claims"
    line = Text(
        f"{name[0].upper()}{name[1:]} {verb}: {plural(fu, 'fu')} won + {plural(old.bit_count(), 'Old card')} "
        f"shown = {total}, worth {plural(total - 5, 'point')}. The deal ends.",
        style="bold",
    )
    if not old:
        return line
    return Group(line, hand_table(old, old, "The Old cards shown"))


def trick_summary(view: Any, players: Sequence[str], me: int) -> RenderableType:
    """After a trick: its number, who won it and the fu it brought, and everyone's fu so far."""
    w = view.winners[-1]
    leader = view.leaders[-1]
    won = view.tricks[-1][(w - leader) % 3].size
    name = who(w, players, me)
    verb = "win" if w == me else "wins"
    fu = " · ".join(f"{'you' if s == me else f'seat {s}'} {view.fu[s]}" for s in range(3))
    return Group(
        Text(f"→ {name[0].upper()}{name[1:]} {verb} trick {len(view.tricks)} (+{won} fu).", style="bold"),
        Text(f"  Fu so far: {fu}"),
    )
