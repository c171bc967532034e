"""``play``: one deal at the terminal, you against two engine players (the seed text's table).

The game is :class:`lukfu_solver.session.GameSession`, the one the browser table drives too:
:func:`play_one` asks you (answers read from standard input) or an engine whenever it is their
turn and tells every call and play as it happens, showing only what your seat may see (other
seats' discards as card backs). ``undo`` is the game's own: it goes back to your previous
decision (the engines' answers are remembered, so nothing is recomputed). Works from a pipe: one
answer a line; end of input ends cleanly.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lukfu_solver.cards import format_cards, iter_cards, old_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, ngettext, pgettext
from lukfu_solver.i18n import seconds as i18n_seconds
from lukfu_solver.inputs import check_seed, excerpt
from lukfu_solver.plays import CLAIM, DISCARD, Play
from lukfu_solver.record import GameRecord
from lukfu_solver.safe_write import check_target
from lukfu_solver.view import InvalidMoveError, SeatView

from .commands import command_of, is_word, meant
from .options import check_seat
from .output import bad_usage, fresh_name, menu_number, note, stdout_console, tolerant_stdin
from .play_screen import claim_announcement, help_renderable, hint_renderable, menu, trick_summary
from .render import (
    calls_text,
    hand_table,
    hidden_cell,
    legend_for,
    outcome_text,
    play_text,
    player_name,
    plural,
    replay_renderable,
    role,
    signed,
    trick_rows_table,
    trick_table,
    worth_text,
)

if TYPE_CHECKING:
    from lukfu_solver.session import GameSession

TABLE_COMMANDS = ("hint", "undo", "tricks", "moves", "hand", "show", "help", "quit")
"""The words the table understands besides moves (:mod:`.commands`: English and the language in use)."""
REPLIES = ("play", "pass", "claim")
"""The words that answer: the calls (R3) and the claim (R14)."""
MAX_NUMBERED = 30
"""At most this many legal moves are listed with numbers (discards can be hundreds)."""


class Undo(Exception):
    """Take back the human's last answer (the game goes back to the human's previous decision)."""


class Quit(Exception):
    """The human ends the game (``quit`` or end of input)."""


class Remembering:
    """An engine player whose answers are remembered by view, so the same decision after an
    ``undo`` is not computed again (and a random player answers as it did)."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.name = str(player.name)
        self.memo: dict[str, Play | str] = {}

    def __call__(self, view: SeatView) -> Play | str:
        key = str(view)
        if key not in self.memo:
            self.memo[key] = self.player(view)
        return self.memo[key]


class Terminal:
    """The human's side of the table: shows the deal, reads answers, tells what happens."""

    def __init__(self, console: Any, level: int, seed: int, infer: bool = False, against: str = "strong") -> None:
        self.console = console
        self.level = level
        self.seed = seed
        self.infer = infer
        self.against = against
        """The opponents' strength the hint's call values are calibrated against."""
        self.can_undo = False
        """Whether you have an answer to take back in this game."""
        self.echo = not sys.stdin.isatty()
        self.names: tuple[str, str, str] = ("", "", "")
        self.hand_shown: tuple[int, int] | None = None
        """The hand and Old cards last printed: not printed again until they change."""
        self.announced: set[int] = set()
        """The deals (by the number passed out before them) already announced: undo back to the
        first answer does not announce the deal again."""

    # ------------------------------------------------------------ the table loop

    def new_deal(self, seed: int) -> None:
        """A new deal at the same table: its seed (the hints sample from it, and from a redeal's
        own seed after a pass-out), nothing shown yet."""
        self.seed = seed
        self.announced = set()
        self.hand_shown = None

    def go_on(self) -> bool:
        """Between the deals of a session: Enter goes on, quit (or the end of input) stops."""
        try:
            line = self.ask(_("Enter for the next deal, or quit"), _("end of input"))
        except Quit:
            return False
        return command_of(line, ("quit",)) != "quit"

    def __call__(self, view: SeatView) -> Play | str:
        """Your answer at ``view``: the table shown, lines read until one is an answer (``undo``
        raises :class:`Undo`, ``quit`` or the end of input :class:`Quit`)."""
        self.show(view)
        while True:
            line = self.read(view)
            result = self.handle(view, line)
            if result is not None:
                return result

    def read(self, view: SeatView) -> str:
        """One line from standard input (end of input: Quit)."""
        return self.ask(_("call (play/pass)") if view.caller is None else _("your move"), _("end of input"))

    def ask(self, prompt: str, at_end: str) -> str:
        """The line typed after ``prompt>`` (echoed when read from a pipe); at the end of input,
        Quit with ``at_end``."""
        self.console.print(f"[bold]{prompt}>[/bold] ", end="")
        try:
            line = input()
        except EOFError:
            self.console.print()
            raise Quit(at_end) from None
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def valid_now(self, view: SeatView) -> list[str]:
        """The table words that do something at ``view`` (the only ones a typo is taken for):
        the calls at the call, a claim only when one may be made (R14), undo only when there is
        an answer to take back, tricks only once a trick has been played."""
        names = ["hint", "moves", "hand", "show", "help", "quit"]
        if view.tricks:
            names.append("tricks")
        if self.can_undo:
            names.append("undo")
        if view.caller is None:
            names += ["play", "pass"]
        elif view.claim_total() is not None:
            names.append("claim")
        return names

    def handle(self, view: SeatView, line: str) -> Play | str | None:
        """The answer typed, or None after a command or a mistake (explained)."""
        out = self.console.print
        if not line:
            return None
        cmd = command_of(line, (*TABLE_COMMANDS, *REPLIES, "yes", "no", "skip"))  # every word of a table
        if cmd == "quit":
            self.confirm_quit()
            return None
        if cmd == "help":
            out(help_renderable())
            return None
        if cmd in ("hand", "show"):
            self.hand_shown = None  # the whole table again, the hand with it
            self.show(view)
            return None
        if cmd == "undo":
            if not self.can_undo:
                out(_("Nothing to undo yet."))
                return None
            raise Undo
        if cmd == "hint":
            self.hint(view)
            return None
        if cmd == "tricks":
            out(
                trick_rows_table(view.history.tricks, title=_("Tricks")) if view.tricks else _("No trick played yet.")
            )
            return None
        if cmd == "moves":
            self.show_moves(view, limit=None)
            return None
        choices = _choices(view, self.level)
        if line.isdigit():  # the numbers of the menu and of 'moves' alike
            n = menu_number(line)
            if n is not None and 1 <= n <= len(choices):
                return choices[n - 1]
            typed_n = n if n is not None else excerpt(line, 12)
            out(Text(_("There is no move {n}: choose 1-{count}, or type the move.").format(n=typed_n, count=len(choices))))
            return None
        valid = self.valid_now(view)
        if view.caller is None:
            if cmd in ("play", "pass"):
                return cmd
            out(Text(_("At the call the answer is play or pass (1 or 2).") + meant(line, valid)))
            return None
        if cmd in ("play", "pass"):
            out(Text(_("The call is over: type a move or its number.")))
            return None
        if cmd is not None and cmd != "claim":  # yes, no, skip: a word of another question
            out(Text(_("'{word}' answers nothing here: type a move, its number or help.").format(word=line)))
            return None
        try:
            return view.parse_move("claim" if cmd == "claim" else line)
        except InvalidMoveError as err:  # no move at all: a mistyped command?
            if is_word(line):
                why = _("'{word}' is neither a move nor a command (type help).").format(word=line)
            else:
                why = _("{why} (type help)").format(why=err.message)
            out(Text(why + meant(line, valid)))
        except NotationError as err:
            out(_("[red]Not legal:[/red] {why}").format(why=err.message), highlight=False)
        return None

    def confirm_quit(self) -> None:
        """Ask before dropping the deal in progress; a yes (or the end of input) quits."""
        self.console.print(Text(_("Stop this game? It will not be saved.")), end=" ")
        if command_of(self.ask(_("yes/no"), _("quit")), ("yes", "no")) == "yes":
            raise Quit(_("quit"))
        self.console.print(_("The game goes on."))

    # ------------------------------------------------------------ showing

    def show(self, view: SeatView) -> None:
        """Your hand, the seats, the trick in progress and your numbered choices."""
        out = self.console.print
        seat = view.seat
        old = view.old_cards()
        parts: list[Any] = []
        if self.hand_shown != (view.hand, old):  # unchanged since it was last shown: not again
            parts += [hand_table(view.hand, old, _("your hand (seat {seat})").format(seat=seat)), legend_for(old)]
            self.hand_shown = (view.hand, old)
        if view.caller is not None:
            seats = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            seats.add_column("", width=1)
            seats.add_column(pgettext("column", "seat"))
            seats.add_column(pgettext("column", "player"))
            seats.add_column(pgettext("column", "cards"), justify="right")
            seats.add_column(pgettext("column", "fu"), justify="right")
            seats.add_column(pgettext("column", "face down"), no_wrap=True)
            for s in range(3):
                label = f"{s} {role(s, view.caller)}".rstrip()
                down = (
                    Text(format_cards(view.own_discards) if view.own_discards else "·")
                    if s == seat
                    else hidden_cell(view.hidden_discards[s], compact=True)
                )
                seats.add_row(
                    "▶" if s == view.to_move else "",
                    label,
                    player_name(self.names[s]),
                    str(view.hand_sizes[s]),
                    str(view.fu[s]),
                    down,
                )
            parts.append(seats)  # the caller is marked in the table; R6 was said once, at the call
            if view.trick:
                parts.append(
                    Text(_("Trick {n}, led by seat {seat}:").format(n=len(view.tricks), seat=view.trick_leader))
                )
                parts.append(trick_table(view.trick, view.trick_leader, view.best_seat))
            else:
                parts.append(Text(_("You lead trick {n}.").format(n=len(view.tricks) + 1)))
            total = view.claim_total()
            if total is not None:
                parts.append(
                    Text(
                        _(
                            "You may claim: {fu} won + {old} = {total}, {worth} (a claim ends the deal now)."
                        ).format(
                            fu=plural(view.fu[seat], "fu"),
                            old=plural(old.bit_count(), "Old card"),
                            total=total,
                            worth=worth_text(total, seat, view.caller),
                        ),
                        style="bold green",
                    )
                )
        else:
            parts.append(
                Text(
                    _(
                        "Calling: calls so far: {calls}. Do you play (you become the caller, against the other two) or pass?"
                    ).format(calls=calls_text(view.calls))
                )
            )
        out(Group(*parts))
        self.show_moves(view, limit=MAX_NUMBERED)

    def show_moves(self, view: SeatView, limit: int | None) -> None:
        """The legal choices in columns that fit the width, numbered as typed (the first
        ``limit``; at a discard only the sensible few, the rest typed as cards)."""
        from lukfu_solver.analysis.hint import sensible_discards

        choices = _choices(view, self.level)
        shown = choices if limit is None else choices[:limit]
        more = None
        if view.caller is not None and view.trick and choices and isinstance(choices[0], Play):
            if choices[0].kind == DISCARD:
                size = view.trick[0].size
                example = " ".join(format_cards(1 << c) for c in iter_cards(choices[0].cards))
                self.console.print(
                    Text(
                        ngettext(
                            "You cannot beat {best}: give up {n} card face down. Type it (e.g. {example}) or "
                            "choose a number:",
                            "You cannot beat {best}: give up {n} cards face down. Type them in any order (e.g. "
                            "{example}) or choose a number:",
                            size,
                        ).format(best=view.best, n=size, example=example)
                    )
                )
                if limit is not None:
                    shown = choices[: len(sensible_discards(view)) or limit]
                    rest = len(choices) - len(shown)
                    more = ngettext(
                        "… {n} other discard: type its cards ('moves' lists it)",
                        "… {n} other discards: type their cards ('moves' lists them all)",
                        rest,
                    ).format(n=rest)
        self.console.print(menu(shown, numbered=True, more=len(choices) - len(shown), more_words=more))

    def hint(self, view: SeatView) -> None:
        """The library's hint for this decision (:func:`lukfu_solver.analysis.hint.hint`): at the
        call, the answer ``lukfu advise`` gives for this hand and seed with its own default budget
        (one question, one number; the line names the command); in play, the best few moves."""
        from lukfu_solver.analysis.defaults import ADVICE_MAX_NODES, make_limits
        from lukfu_solver.analysis.hint import hint

        from .progress import prepare_solver

        prepare_solver()  # the one-time compilation announced, not inside the hint
        with self.console.status(_("thinking…")) if self.console.is_terminal else _nothing():
            h = hint(view, self.level, self.seed, infer=self.infer, against=self.against)
        out = self.console.print
        if h.advice is not None:
            from .analyse_words import advice_lines

            out(
                Text(
                    _("Hint: what `{command}` answers (it thinks up to {seconds}):").format(
                        command=h.command, seconds=i18n_seconds(h.budget_seconds or 0.0)
                    )
                )
            )
            for line in advice_lines(h.advice, h.limits or make_limits(None, None, ADVICE_MAX_NODES), evidence=False):
                out(line)
            return
        a = h.analysis
        assert a is not None
        if not a.samples:
            out(_("Hint: {move} is your only legal move.").format(move=h.best))
            return
        out(hint_renderable(view, h, self.level))

    # ------------------------------------------------------------ the observer

    def observe(self, rec: GameRecord) -> None:
        """Tell what just happened at the table, as your seat sees it."""
        from lukfu_solver.session import YOU

        if rec.players is None:
            return
        self.names = rec.players
        me = rec.players.index(YOU)
        out = self.console.print
        if not rec.calls:
            if len(rec.passed_out) in self.announced:
                return
            self.announced.add(len(rec.passed_out))
            if rec.passed_out:
                out(Text(_("All three passed: the cards are dealt again and a new Master is drawn at random (R3).")))
            out(deal_announcement(rec, me))
            if me != 0:
                hand = rec.hands[me]
                old = old_cards(hand, 0)
                out(Group(hand_table(hand, old, _("your hand (seat {seat})").format(seat=me)), legend_for(old)))
                self.hand_shown = (hand, old)
            return
        if not rec.plays:
            s = len(rec.calls) - 1
            call = rec.calls[-1]
            out(_call_line(s, player_name(rec.players[s]), call, s == me))
            return
        last = rec.plays[-1]
        if last.kind == CLAIM:
            out(claim_announcement(rec, me))
            return
        view = rec.view(me, len(rec.plays))
        trick = view.history.tricks[-1]
        i = len(trick.plays) - 1
        s = trick.seat(i)
        shown = trick.plays[i]
        mine, player = s == me, player_name(rec.players[s])
        if i == 0:
            words = _("You lead ") if mine else _("Seat {seat} ({player}) leads ")
            line = Text(words.format(seat=s, player=player)).append_text(play_text(shown))
        elif shown.kind == DISCARD:
            words = _("You discard face down ") if mine else _("Seat {seat} ({player}) discards face down ")
            line = Text(words.format(seat=s, player=player)).append_text(
                Text(format_cards(shown.cards), style="dim") if mine else hidden_cell(shown.size)
            )
        else:
            words = _("You beat with ") if mine else _("Seat {seat} ({player}) beats with ")
            line = Text(words.format(seat=s, player=player)).append_text(play_text(shown))
        out(line)
        if trick.complete:
            out(trick_summary(view, rec.players, me))


def deal_announcement(rec: GameRecord, me: int) -> RenderableType:
    """Before a deal's calls: its seed, your seat, who the Master is and why (R2: drawn at random
    for every deal), and the table in playing order from you, so each opponent is seen keeping
    its place (the first always plays after you) while the seat numbers turn with the Master."""
    assert rec.players is not None
    head = Text("\n" + _("New deal, seed {seed}: you are seat {seat}.").format(seed=rec.seed, seat=me), style="bold")
    if me == 0:
        master = _("You are the Master, drawn at random for this deal (R2): seat 0, you call first and lead the first trick.")
    else:
        master = _(
            "{player} is the Master, drawn at random for this deal (R2): seat 0, who calls first and leads the first trick."
        ).format(player=player_name(rec.players[0]))
    order = [(me + k) % 3 for k in range(3)]
    table = " → ".join(
        (_("you (seat {seat})") if s == me else _("{player} (seat {seat})")).format(
            seat=s, player=player_name(rec.players[s])
        )
        for s in order
    )
    return Group(head, Text(master), Text(_("In playing order from you: {order}.").format(order=table)))


def _call_line(seat: int, player: str, call: str, mine: bool) -> str:
    """``You pass.``, ``Seat 1 (rule A) calls play: seat 1 is the caller.`` (one message each)."""
    if mine:
        if call == "play":
            line = _("You call play: you are the caller.")
            return line + " " + r6_note() if seat else line
        return _("You pass.")
    if call == "play":
        line = _("Seat {seat} ({player}) calls play: seat {seat} is the caller.").format(seat=seat, player=player)
        return line + " " + r6_note() if seat else line
    return _("Seat {seat} ({player}) passes.").format(seat=seat, player=player)


def r6_note() -> str:
    """Said once when a seat after the Master calls (R6), not on every screen."""
    return _("The Master passed, so seat 0 may not lead a set of four or a run of four or more this deal (R6).")


class _nothing:
    """A context manager that does nothing (no spinner when output is not a terminal)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _choices(view: SeatView, level: int) -> list[Any]:
    """The numbered choices: play/pass, or the legal moves in the order the table offers them
    (at a discard the sensible ones first: :func:`lukfu_solver.analysis.hint.menu_order`)."""
    from lukfu_solver.analysis.hint import menu_order

    if view.caller is None:
        return ["play", "pass"]
    return menu_order(view)


def _fresh_name(seed: int) -> Path:
    """``lukfu-<seed>.json`` in the current directory, or ``lukfu-<seed>-2.json`` … if taken."""
    return fresh_name(f"lukfu-{seed}")


def play(
    seat: Annotated[
        int | None,
        typer.Option("--seat", metavar="SEAT", help="Your seat in the first deal: 0 is the Master (default: by seed)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the (first) deal; omitted, one is chosen at random and shown."),
    ] = None,
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            metavar="N",
            help="Play N deals in a row (seeds SEED, SEED+1 …) with a running score, one record per deal and a "
            "summary at the end.",
        ),
    ] = 1,
    level: Annotated[
        int, typer.Option("--level", metavar="LEVEL", help="Strength of the hints (and of a pimc opponent), 1-5.")
    ] = 3,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents",
            metavar="WHO",
            help="How strong the two engine players are: easy, medium or strong (or an engine: rule, pimc:L, "
            "ipimc:L, random); two as A,B.",
        ),
    ] = "easy",
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Save the game record here (default: lukfu-SEED.json in the current directory, never overwritten; "
            "with --deals, FILE-1.json, FILE-2.json …).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the --record file if it exists.")] = False,
    infer: Annotated[
        bool,
        typer.Option(
            "--infer",
            help="Hints in play draw 4 times the deals, weigh them by the other seats' calls and plays, and solve "
            "the ones picked by weight (as ipimc, measured ahead of pimc).",
        ),
    ] = False,
) -> None:
    """Play a deal (or --deals N in a row) against two engine players at the terminal.

    Your hand is shown by suit with Old cards marked, then the calling (R3) and every trick as it
    is played; other seats' face-down discards show as card backs. Type moves as NOTATION.md
    writes them (S7, C5S5M5, S345, claim), a discard as the cards you give up (C2 M4 T1), or a
    number; illegal input is explained and asked again. Commands: hint, undo, tricks, moves,
    hand (the table again), help, quit (in your language too). At the end of a deal every hand
    is revealed, the net points shown and the deal saved as a record for `lukfu replay` (never
    overwriting a file unless --force). Each deal's Master is drawn at random (R2; after three
    passes the cards are dealt again from the next seed, R3), so your seat number may change;
    the order round the table stays: the first opponent (A) plays right after you, the second
    (B) right before. Reads answers from a pipe too; end of input quits.
    """
    from lukfu_solver.players import against_of
    from lukfu_solver.series import DealSeries
    from lukfu_solver.session import parse_opponents

    from .play_session import Session, deal_seeds, record_path

    tolerant_stdin()
    if seat is not None:
        check_seat(seat, "seat")
    if not 1 <= level <= 5:
        raise bad_usage("level", _("a pimc level is 1-5, got {level}").format(level=level))
    engines = parse_opponents(opponents, level)
    path = Path(record) if record is not None else None
    if seed is not None:
        check_seed(seed)
    seeds = deal_seeds(0 if seed is None else seed, deals)
    for k in range(1, deals + 1):  # before the game: a bad path fails at once
        target = record_path(path, k, deals)
        if target is not None and target.is_file() and not target.is_symlink() and not force:
            raise NotationError("record", _("{path} already exists; use --force to overwrite it").format(path=target))
        if target is not None:
            check_target(target, overwrite=force, field="record", hint=force_hint())
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        seeds = deal_seeds(seed, deals)  # shown in the banner, where the player reads it
    if path is None:
        check_target(_fresh_name(seed), field="record")
    console = stdout_console()
    if any("pimc" in o.engine for o in engines):
        from .progress import prepare_solver

        prepare_solver()  # before the deal: the engines' first move never waits for a compilation
    # the library's session, the browser's evening's too: its seeds, the same people in the same
    # order round the table every deal (A right after you, B right before), each deal's game
    series = DealSeries.new(seed, deals, seat, opponents, level)
    a, b = (player_name(o.name) for o in series.opponents)
    if deals == 1:
        head = _("Luk Fu — you against {a} and {b}, seed {seed}. Type 'help' for help.")
        where = _("The game will be saved to {path} when the deal ends (--record FILE to choose).")
    else:
        head = ngettext(
            "Luk Fu — {n} deal against {a} and {b}, seeds {seed}-{last}. Type 'help' for help.",
            "Luk Fu — {n} deals against {a} and {b}, seeds {seed}-{last}. Type 'help' for help.",
            deals,
        )
        where = _("Each deal is saved when it ends, to {path} and on (--record FILE to choose).")
    first = record_path(path, 1, deals) or _fresh_name(seed)
    console.print(Text(head.format(a=a, b=b, seed=seed, n=deals, last=seeds[-1]), style="bold"))
    console.print(Text(where.format(path=first)))
    session = Session(series)
    term = Terminal(console, level, seed, infer, against_of([o.engine for o in engines]))
    for k, deal_seed in enumerate(series.seeds, 1):
        if deals > 1:
            console.print(Text("\n" + session.deal_head(k), style="bold"))
        rec = play_one(console, term, series.game(k))
        if rec is None:
            break
        session.add(rec, finish(console, rec, record_path(path, k, deals), force, deal_seed))
        if deals > 1:
            console.print(session.score_line())
            if k < deals and not term.go_on():
                break
    if deals > 1 and session.records:
        console.print(session.summary())


def play_one(console: Any, term: Terminal, session: GameSession) -> GameRecord | None:
    """One deal at the table (``session``, a new game: a deal of the session's
    :meth:`~lukfu_solver.series.DealSeries.game`): you and the engines answer in turn, every
    answer told as it happens, ``undo`` the game's own; its record, or None when you stop."""
    bots = {p: Remembering(session.engine_player(p)) for p in session.engines}
    term.new_deal(session.seed)
    term.observe(session.record)
    while session.phase != "over":
        seat = session.to_move
        assert seat is not None
        deal = len(session.passed_out)
        try:
            if seat == session.human_seat:
                term.can_undo = session.can_undo
                term.seed = session.game.deal_seed  # a redeal's own seed, as its record keeps it: the review's
                session.apply(term(session.view()))
            else:
                session.engine_move(bots[session.person_at(seat)](session.view(seat)))
        except Undo:
            console.print(_("Taking back your answer {answer}.").format(answer=session.undo()))
            term.hand_shown = None  # after an undo the table is shown afresh
            continue
        except Quit as q:
            note(_("{why}: the game is abandoned (no record saved)").format(why=q))
            return None
        if len(session.passed_out) != deal:  # all three passed: the deal passed out, the next one dealt
            term.observe(session.game.passed_out_record(-1))
        term.observe(session.record)
    return session.record


def force_hint() -> str:
    """Said when the --record file exists."""
    return _("use --force to overwrite it")


def save_record(rec: GameRecord, path: Path | None, force: bool, seed: int) -> Path:
    """Save the record to ``path`` (default: a fresh ``lukfu-<seed>.json``, ``seed`` the one the
    deal was started with, as the banner said, even when a redeal's record keeps another) and
    return where.

    A record is never lost and never saved elsewhere in silence: when ``path`` fails (a file or
    link appeared during the game, the disk is full) it is saved to a fresh name and, failing
    that too, printed on stdout; either way a NotationError then says what happened (exit 2).
    """
    target = path if path is not None else _fresh_name(seed)
    try:
        rec.save(target, overwrite=force, field="record", hint=force_hint())
        return target
    except NotationError as err:
        fault = err.message
    fallback = _fresh_name(seed)
    try:
        if fallback == target:
            raise NotationError("record", fault)
        rec.save(fallback, field="record")
    except NotationError:
        sys.stdout.write(rec.dumps() + "\n")
        sys.stdout.flush()
        raise NotationError(
            "record", _("{fault}; the record is printed on standard output instead").format(fault=fault)
        ) from None
    raise NotationError(
        "record", _("{fault}; the record is saved to {path} instead").format(fault=fault, path=fallback)
    )


def finish(console: Any, rec: GameRecord, path: Path | None, force: bool, seed: int) -> Path:
    """Reveal every hand and the tricks, show the result and save the record (where: returned;
    by default a file named for ``seed``, the seed the deal was started with)."""
    from lukfu_solver.session import YOU

    assert rec.players is not None and rec.outcome is not None
    me = rec.players.index(YOU)
    console.print(Text("\n" + _("The deal is over. Every card revealed:"), style="bold"))
    console.print(replay_renderable(rec))
    mine = rec.outcome.points[me]
    console.print(
        Text(
            ngettext(
                "You (seat {seat}): {points} point — {outcome}.",
                "You (seat {seat}): {points} points — {outcome}.",
                abs(mine),
            ).format(seat=me, points=signed(mine), outcome=outcome_text(rec.outcome)),
            style="bold",
        )
    )
    target = save_record(rec, path, force, seed)
    console.print(
        _("Record saved to {path} (see it again with: lukfu replay {path})").format(path=target), highlight=False
    )
    console.print(
        _("Review your decisions: lukfu review {path} --seat {seat}").format(path=target, seat=me), highlight=False
    )
    return target
