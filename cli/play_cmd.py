"""``play``: one deal at the terminal, you against two engine players (the seed text's table).

The table loop is :func:`lukfu_solver.game.play_deal`; you are one of its players (answers read
from standard input) and its observer prints every call and play as it happens, showing only what
your seat may see (other seats' discards as card backs). ``undo`` replays the deal from its seed
with your earlier answers and the engines' remembered answers (so nothing is recomputed) and
stops one answer earlier. Works from a pipe: one answer a line; end of input ends cleanly.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from lukfu_solver.cards import format_cards, old_cards
from lukfu_solver.errors import NotationError
from lukfu_solver.plays import CLAIM, DISCARD, Play
from lukfu_solver.record import GameRecord
from lukfu_solver.view import InvalidMoveError, SeatView

from .common import bad_usage, note, stdout_console
from .options import check_seat
from .play_screen import claim_announcement, help_renderable, hint_renderable, menu, trick_summary
from .render import (
    caller_text,
    hand_table,
    hidden_cell,
    legend_for,
    outcome_text,
    play_text,
    plural,
    replay_renderable,
    role,
    signed,
    trick_rows_table,
    trick_table,
    view_trick_rows,
)

YOU = "you"
MAX_NUMBERED = 30
"""At most this many legal moves are listed with numbers (discards can be hundreds)."""


class Undo(Exception):
    """Take back the human's last answer: the deal is replayed up to it."""


class Quit(Exception):
    """The human ends the game (``quit`` or end of input)."""


class Remembering:
    """An engine player whose answers are remembered by view, so a replay after ``undo`` asks
    nothing twice (and a random player answers as it did)."""

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

    name = YOU

    def __init__(self, console: Any, level: int, seed: int) -> None:
        self.console = console
        self.level = level
        self.seed = seed
        self.script: list[str] = []
        self.answers: list[str] = []
        self.quiet = False
        self.echo = not sys.stdin.isatty()
        self.names: tuple[str, str, str] = ("", "", "")

    # ------------------------------------------------------------ the table loop

    def start(self, script: list[str]) -> None:
        """Begin (again), answering ``script`` silently first (after an undo)."""
        self.script = list(script)
        self.answers = []
        self.quiet = bool(script)

    def __call__(self, view: SeatView) -> Play | str:
        if self.script:
            text = self.script.pop(0)
            self.answers.append(text)
            return _answer(view, text)
        self.quiet = False
        self.show(view)
        while True:
            line = self.read(view)
            result = self.handle(view, line)
            if result is not None:
                self.answers.append(str(result))
                return result

    def read(self, view: SeatView) -> str:
        """One line from standard input (end of input: Quit)."""
        prompt = "call (play/pass)" if view.caller is None else "your move"
        self.console.print(f"[bold]{prompt}>[/bold] ", end="")
        try:
            line = input()
        except EOFError:
            self.console.print()
            raise Quit("end of input") from None
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def handle(self, view: SeatView, line: str) -> Play | str | None:
        """The answer typed, or None after a command or a mistake (explained)."""
        word = line.lower()
        out = self.console.print
        if not word:
            return None
        if word in ("quit", "exit", "q"):
            raise Quit("quit")
        if word in ("help", "?", "h"):
            out(help_renderable())
            return None
        if word == "undo":
            if not self.answers:
                out("Nothing to undo yet.")
                return None
            raise Undo
        if word == "hint":
            self.hint(view)
            return None
        if word == "tricks":
            out(trick_rows_table(view_trick_rows(view), title="Tricks") if view.tricks else "No trick played yet.")
            return None
        if word == "moves":
            self.show_moves(view, limit=None)
            return None
        choices = _choices(view)
        if word.isdigit():
            n = int(word)
            shown = choices[:MAX_NUMBERED]
            if 1 <= n <= len(shown):
                return shown[n - 1]
            out(Text(f"There is no move {n}: choose 1-{len(shown)}, or type the move."))
            return None
        if view.caller is None:
            if word in ("play", "pass"):
                return word
            out("At the call the answer is play or pass (1 or 2).")
            return None
        try:
            return _parse_move(view, line)
        except NotationError as err:
            out(f"[red]Not legal:[/red] {err.message}", highlight=False)
            return None

    # ------------------------------------------------------------ showing

    def show(self, view: SeatView) -> None:
        """Your hand, the seats, the trick in progress and your numbered choices."""
        out = self.console.print
        seat = view.seat
        old = view.old_cards()
        parts: list[Any] = [hand_table(view.hand, old, f"your hand (seat {seat})"), legend_for(old)]
        if view.caller is not None:
            seats = Table(box=box.SIMPLE_HEAD, pad_edge=False)
            seats.add_column("", width=1)
            seats.add_column("seat")
            seats.add_column("player")
            seats.add_column("cards", justify="right")
            seats.add_column("fu", justify="right")
            seats.add_column("face down")
            for s in range(3):
                label = f"{s} {role(s, view.caller)}".rstrip()
                down = (
                    Text(format_cards(view.own_discards) if view.own_discards else "·")
                    if s == seat
                    else hidden_cell(view.hidden_discards[s])
                )
                seats.add_row(
                    "▶" if s == view.to_move else "",
                    label,
                    self.names[s],
                    str(view.hand_sizes[s]),
                    str(view.fu[s]),
                    down,
                )
            parts += [seats, Text(f"Caller: {caller_text(view.caller)}")]
            if view.trick:
                parts.append(Text(f"Trick {len(view.tricks)}, led by seat {view.trick_leader}:"))
                parts.append(trick_table(view.trick, view.trick_leader, view.best_seat))
            else:
                parts.append(Text(f"You lead trick {len(view.tricks) + 1}."))
            if any(isinstance(c, Play) and c.kind == CLAIM for c in _choices(view)):
                total = view.fu[seat] + old.bit_count()
                parts.append(
                    Text(
                        f"You may claim: {plural(view.fu[seat], 'fu')} won + {plural(old.bit_count(), 'Old card')} "
                        f"= {total}, worth {plural(total - 5, 'point')} (claim ends the deal now).",
                        style="bold green",
                    )
                )
        else:
            calls = ", ".join(f"seat {i} {c}" for i, c in enumerate(view.calls)) or "none yet"
            parts.append(
                Text(
                    f"Calling: calls so far: {calls}. Do you play (you become the caller, against the other two) or pass?"
                )
            )
        out(Group(*parts))
        self.show_moves(view, limit=MAX_NUMBERED)

    def show_moves(self, view: SeatView, limit: int | None) -> None:
        """The legal choices in columns that fit the width, numbered (the first ``limit``)."""
        choices = _choices(view)
        shown = choices if limit is None else choices[:limit]
        if view.caller is not None and view.trick and choices and isinstance(choices[0], Play):
            if choices[0].kind == DISCARD:
                size = view.trick[0].size
                self.console.print(
                    Text(
                        f"You cannot beat {view.best}: discard {plural(size, 'card')} face down "
                        f"(type the cards, e.g. {format_cards(choices[0].cards)}, or a number)."
                    )
                )
        self.console.print(menu(shown, numbered=limit is not None, more=len(choices) - len(shown)))

    def hint(self, view: SeatView) -> None:
        """The library's hint for this decision (:func:`lukfu_solver.analysis.hint.hint`): at the
        call, ``advise`` itself on this hand and seed (with the view analysis's node limit, so it
        answers in seconds; the line says how to reproduce it); in play, the pimc player's analysis."""
        from lukfu_solver.analysis.defaults import DEFAULT_MAX_NODES, make_limits
        from lukfu_solver.analysis.hint import hint

        from .progress import prepare_solver

        prepare_solver()  # the one-time compilation announced, not inside the hint
        limits = make_limits(None, None, DEFAULT_MAX_NODES)
        with self.console.status("thinking…") if self.console.is_terminal else _nothing():
            h = hint(view, self.level, self.seed, limits=limits)
        out = self.console.print
        if h.advice is not None:
            from .analyse_cmd import advice_lines

            adv = h.advice
            out(
                f"Hint (the same as `lukfu advise {format_cards(adv.hand)} --seat {adv.seat} --seed {adv.seed} "
                f"--samples {adv.samples} --max-nodes {DEFAULT_MAX_NODES}`):"
            )
            for line in advice_lines(adv, limits, evidence=False):
                out(line)
            return
        a = h.decision
        assert a is not None
        if not a.samples:
            out(f"Hint: {a.best} is your only legal move.")
            return
        out(hint_renderable(view, a, getattr(h, "left_out", None), self.level))

    # ------------------------------------------------------------ the observer

    def observe(self, rec: GameRecord) -> None:
        """Tell what just happened at the table, as your seat sees it."""
        if rec.players is None:
            return
        self.names = rec.players
        me = rec.players.index(YOU)
        out = self.console.print
        if not rec.calls:
            if self.quiet:
                return
            if rec.passed_out:
                out("All three passed: the cards are dealt again and a new Master is drawn.")
            who = "the Master, you call first" if me == 0 else f"seat 0 (the Master) is {rec.players[0]}"
            out(Text(f"\nNew deal: you are seat {me}; {who}.", style="bold"))
            order = ", ".join(f"seat {s} {rec.players[s]}" for s in range(3))
            out(f"Seats in playing order: {order}.")
            if me != 0:
                hand = rec.hands[me]
                old = old_cards(hand, 0)
                out(Group(hand_table(hand, old, f"your hand (seat {me})"), legend_for(old)))
            return
        if self.quiet:
            return
        if not rec.plays:
            s = len(rec.calls) - 1
            call = rec.calls[-1]
            who = "you" if s == me else f"seat {s} ({rec.players[s]})"
            said = "call play" if call == "play" else "pass"
            if s != me:
                said = "calls play" if call == "play" else "passes"
            line = f"{who} {said}"
            if call == "play":
                line += f": {'you are' if s == me else f'seat {s} is'} the caller"
            out(line[0].upper() + line[1:] + ".")
            return
        last = rec.plays[-1]
        if last.kind == CLAIM:
            out(claim_announcement(rec, me))
            return
        view = rec.view(me, len(rec.plays))
        trick = view.tricks[-1]
        leader = view.leaders[-1]
        i = len(trick) - 1
        s = (leader + i) % 3
        shown = trick[i]
        who = "You" if s == me else f"Seat {s} ({rec.players[s]})"
        if i == 0:
            verb = "lead" if s == me else "leads"
            line = Text(f"{who} {verb} ").append_text(play_text(shown))
        elif shown.kind == DISCARD:
            verb = "discard" if s == me else "discards"
            line = Text(f"{who} {verb} face down ").append_text(
                Text(format_cards(shown.cards), style="dim") if s == me else hidden_cell(shown.size)
            )
        else:
            verb = "beat" if s == me else "beats"
            line = Text(f"{who} {verb} with ").append_text(play_text(shown))
        out(line)
        if len(trick) == 3:
            out(trick_summary(view, rec.players, me))


class _nothing:
    """A context manager that does nothing (no spinner when output is not a terminal)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _choices(view: SeatView) -> list[Any]:
    """The numbered choices: play/pass, or the legal moves in canonical order."""
    if view.caller is None:
        return ["play", "pass"]
    return view.sorted_legal_moves()


def _parse_move(view: SeatView, text: str) -> Play:
    """The move typed, read and checked by :meth:`SeatView.parse_move`; text that is no move at all
    gets a pointer to ``help`` (a fault: NotationError("move", why))."""
    try:
        return view.parse_move(text)
    except InvalidMoveError as err:
        raise NotationError("move", f"{err.message} (type help)") from None


def _answer(view: SeatView, text: str) -> Play | str:
    """A remembered answer (its text) as the table wants it."""
    if view.caller is None:
        return text
    return Play.parse(text)


def _fresh_name(seed: int) -> Path:
    """``lukfu-<seed>.json`` in the current directory, or ``lukfu-<seed>-2.json`` … if taken."""
    p = Path(f"lukfu-{seed}.json")
    k = 2
    while p.exists():
        p = Path(f"lukfu-{seed}-{k}.json")
        k += 1
    return p


def _opponent_specs(text: str, level: int) -> list[str]:
    """Two engine specs from ``--opponents`` (one spec for both, or ``A,B``); ``pimc`` gets ``--level``."""
    from lukfu_solver.players import make_player

    parts = [p.strip().lower() for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise NotationError("opponents", f"give one player for both opponents or two as A,B, got {text!r}")
    specs = [f"pimc:{level}" if p == "pimc" else p for p in parts]
    for s in specs:
        try:
            make_player(s, 0)
        except NotationError as err:
            raise NotationError("opponents", err.message) from None
    return specs


def play(
    seat: Annotated[
        int | None,
        typer.Option("--seat", metavar="SEAT", help="Your seat in the first deal: 0 is the Master (default: by seed)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal; omitted, one is chosen at random and shown.")
    ] = None,
    level: Annotated[
        int, typer.Option("--level", metavar="LEVEL", help="Strength of pimc (opponents and hints), 1-5.")
    ] = 3,
    opponents: Annotated[
        str, typer.Option("--opponents", metavar="SPEC", help="rule, pimc or random (or two, as A,B).")
    ] = "rule",
    record: Annotated[
        str | None,
        typer.Option(
            "--record",
            metavar="FILE",
            help="Save the game record here (default: lukfu-SEED.json in the current directory, never overwritten).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the --record file if it exists.")] = False,
) -> None:
    """Play one deal against two engine players at the terminal.

    Your hand is shown by suit with Old cards marked, then the calling (R3) and every trick as it
    is played; other seats' face-down discards show as card backs. Type moves as NOTATION.md
    writes them (S7, C5S5M5, S345, xC2M4, claim) or their number; illegal input is explained
    and asked again. Commands: hint, undo, tricks, moves, help, quit. At the end every hand is
    revealed, the net points shown and the game saved as a record for `lukfu replay` (never
    overwriting a file unless --force). If all three pass, the cards are dealt again with a new
    Master (R3), so your seat may change. Reads answers from a pipe too; end of input quits.
    """
    from lukfu_solver.game import first_master, play_deal
    from lukfu_solver.players import make_player

    if seat is not None:
        check_seat(seat, "seat")
    if not 1 <= level <= 5:
        raise bad_usage("level", f"a pimc level is 1-5, got {level}")
    specs = _opponent_specs(opponents, level)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        note(f"seed {seed}")
    path = Path(record) if record is not None else None
    if path is not None and path.exists() and not force:
        raise NotationError("record", f"{path} already exists; use --force to overwrite it")
    console = stdout_console()
    if any(spec.startswith("pimc") for spec in specs):
        from .progress import prepare_solver

        prepare_solver()  # before the deal: the engines' first move never waits for a compilation
    human_person = 0 if seat is None else (first_master(seed) + seat) % 3
    term = Terminal(console, level, seed)
    engines = [
        Remembering(make_player(spec, random.Random(f"play|{seed}|{i}").getrandbits(32)))
        for i, spec in enumerate(specs)
    ]
    players: list[Any] = []
    names: list[str] = []
    k = 0
    for person in range(3):
        if person == human_person:
            players.append(term)
            names.append(YOU)
        else:
            players.append(engines[k])
            names.append(specs[k] if specs[0] != specs[1] else f"{specs[k]} {'AB'[k]}")
            k += 1
    console.print(
        Text(f"Luk Fu — you against {specs[0]} and {specs[1]}, seed {seed}. Type 'help' for help.", style="bold")
    )
    where = path if path is not None else _fresh_name(seed)
    console.print(Text(f"The game will be saved to {where} when the deal ends (--record FILE to choose)."))
    answers: list[str] = []
    while True:
        term.start(answers)
        try:
            rec = play_deal(players, seed, names=names, observer=term.observe)
            break
        except Undo:
            answers = term.answers[:-1]
            console.print(f"Taking back your answer {term.answers[-1]}.")
        except Quit as q:
            note(f"{q}: the game is abandoned (no record saved)")
            return
    finish(console, rec, path, force)


def finish(console: Any, rec: GameRecord, path: Path | None, force: bool) -> None:
    """Reveal every hand and the tricks, show the result and save the record."""
    assert rec.players is not None and rec.outcome is not None
    me = rec.players.index(YOU)
    console.print(Text("\nThe deal is over. Every card revealed:", style="bold"))
    console.print(replay_renderable(rec, rec.replay()))
    mine = rec.outcome.points[me]
    console.print(
        Text(
            f"You (seat {me}): {signed(mine)} point{'s' if abs(mine) != 1 else ''} — {outcome_text(rec.outcome)}.",
            style="bold",
        )
    )
    target = path if path is not None else _fresh_name(rec.seed or 0)
    try:
        rec.save(target, overwrite=force)
    except NotationError:
        if path is None or force:
            raise
        target = _fresh_name(rec.seed or 0)  # the file appeared during the game
        rec.save(target)
    console.print(f"Record saved to {target} (see it again with: lukfu replay {target})", highlight=False)
