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

from lukfu_solver.i18n import N_, _, number, percent, pgettext
from lukfu_solver.plays import CLAIM
from lukfu_solver.record import GameRecord

from .commands import shown, typed
from .render import hand_table, player_name, plural, signed, worth_text

COMMANDS = (
    (("hint",), N_("the engine's estimate of every legal move (at the call: play or pass)")),
    (("undo",), N_("take back your last answer")),
    (("tricks",), N_("every trick so far")),
    (("moves",), N_("all your legal moves")),
    (("hand", "show"), N_("the table again: your hand, the trick, everyone's fu and cards, your choices")),
    (("help",), N_("this help")),
    (("quit",), N_("stop without saving")),
)


def help_renderable() -> RenderableType:
    """How to answer, and the commands, as a table that wraps by words."""
    how = Text(
        _(
            "Type a move as the notation writes it: a card (S7), a set (C5S5M5), a run (S345), a discard "
            "(the cards, e.g. C2M4, when you cannot beat), {claim}; or its number in the list. At the call: "
            "{play} or {pass_} (1 or 2)."
        ).format(claim=typed("claim"), play=typed("play"), pass_=typed("pass"))
    )
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for names, what in COMMANDS:
        table.add_row(", ".join(shown(name) for name in names), _(what))
    return Group(how, Text(_("Commands:")), table)


def menu(
    choices: Sequence[Any], numbered: bool = True, more: int = 0, title: bool = True, more_words: str | None = None
) -> RenderableType:
    """``Choices:`` (unless ``title`` is False) and the choices in columns (``1) S7``), each kept
    whole; ``more`` not shown are counted, with the command that lists them (or ``more_words``)."""
    names = [choice_word(c) for c in choices]
    items = [Text(f"{i}) {c}" if numbered else c, no_wrap=True) for i, c in enumerate(names, 1)]
    parts: list[RenderableType] = [Text(_("Choices:"))] if title else []
    parts.append(Columns(items, padding=(0, 3)))
    if more:
        parts.append(Text(more_words or _("… {n} more ('moves' lists all)").format(n=more), style="dim"))
    return Group(*parts)


def choice_word(choice: Any) -> str:
    """A choice as the menu writes it: a call or a claim in the word the player may type in the
    language in use (``играю``, ``заявка``), any other move in the notation."""
    if isinstance(choice, str):
        return typed(choice)
    return typed("claim") if choice.kind == CLAIM else str(choice)


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


def hint_renderable(view: Any, h: Any, level: int) -> RenderableType:
    """The hint of a play decision (:class:`~lukfu_solver.analysis.hint.Hint`): the best few
    moves with your expected points (± one standard error) and how often the caller loses after
    each, then one line on the rest (weighed and within error of the best or worth less, or not
    weighed and why)."""
    analysis = h.analysis
    seat, caller = view.seat, view.caller
    if seat == caller:
        words = _("Hint (level {level}, {samples}): your expected points, and how often you lose:")
    else:
        words = _(
            "Hint (level {level}, {samples}): your expected points (as a defender, half of what the caller loses "
            "or minus half of what it wins), and how often the caller loses:"
        )
    head = Text(words.format(level=level, samples=plural(analysis.samples, "sampled deal")))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(pgettext("column", "move"), no_wrap=True)
    table.add_column(pgettext("column", "points"), justify="right", no_wrap=True)
    table.add_column("±", justify="right", no_wrap=True)
    lose = pgettext("column", "you lose") if seat == caller else pgettext("column", "caller loses")
    table.add_column(lose, justify="right", no_wrap=True)
    for i, m in enumerate(h.top()):
        p = caller_loses(m, seat, caller)
        style = "bold" if i == 0 else ""
        table.add_row(
            Text(choice_word(m.move), style=style),
            Text(signed(m.value, 2), style=style),
            number(m.stderr, 2),
            "-" if p is None else percent(p),
        )
    parts: list[RenderableType] = [head, table]
    untold = h.untold()
    if untold:
        parts.append(Text(untold))
    parts.append(Text(_("Advice: {move}").format(move=choice_word(h.best)), style="bold"))
    return Group(*parts)


def who(seat: int, players: Sequence[str], me: int) -> str:
    """``you`` or ``seat 2 (rule B)``."""
    return _("you") if seat == me else _("seat {seat} ({player})").format(seat=seat, player=player_name(players[seat]))


def claim_announcement(rec: GameRecord, me: int) -> RenderableType:
    """The claim as it happens: who claims, the Old cards shown, the total and what it is worth."""
    assert rec.players is not None
    claim = rec.history.claim
    assert claim is not None
    seat, fu, old, total = claim
    if seat == me:
        words = _("You claim: {fu} won + {old} shown = {total}, {worth}. The deal ends.")
    else:
        words = _("Seat {seat} ({player}) claims: {fu} won + {old} shown = {total}, {worth}. The deal ends.")
    line = Text(
        words.format(
            seat=seat,
            player=player_name(rec.players[seat]),
            fu=plural(fu, "fu"),
            old=plural(old.bit_count(), "Old card"),
            total=total,
            worth=worth_text(total, seat, rec.caller),
        ),
        style="bold",
    )
    if not old:
        return line
    return Group(line, hand_table(old, old, _("The Old cards shown")))


def trick_summary(view: Any, players: Sequence[str], me: int) -> RenderableType:
    """After a trick: its number, who won it and the fu it brought, and everyone's fu so far."""
    last = view.history.tricks[-1]
    w, won = last.winner, last.fu_won
    fu = " · ".join(
        (_("you {fu}") if s == me else _("seat {seat} {fu}")).format(seat=s, fu=view.fu[s]) for s in range(3)
    )
    if w == me:
        head = _("→ You win trick {n} (+{won} fu).")
    else:
        head = _("→ Seat {seat} ({player}) wins trick {n} (+{won} fu).")
    return Group(
        Text(head.format(seat=w, player=player_name(players[w]), n=len(view.tricks), won=won), style="bold"),
        Text(_("  Fu so far: {fu}").format(fu=fu)),
    )
