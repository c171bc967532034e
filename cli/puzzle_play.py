"""``puzzle play``: the interactive session of :mod:`.puzzle_cmd` (the solving side's moves typed,
the defence's best replies played, a wrong move refuted) and its hints, which describe the right
move without naming it and tell it apart from the other legal moves alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from rich.padding import Padding

from lukfu_solver.cards import format_cards, iter_cards, suit_bits
from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, ngettext, suit_name
from lukfu_solver.inputs import excerpt
from lukfu_solver.plays import CLAIM, CLAIM_PLAY, DISCARD, SET, SINGLE, Play
from lukfu_solver.position import Position

from .commands import command_of, is_word, meant, typed
from .output import menu_number
from .render import Hanging, fu_list, move_words, narrate_pv, position_renderable, result_line

if TYPE_CHECKING:
    from lukfu_solver.puzzles import Puzzle
    from lukfu_solver.search import ExactSolver

# ---------------------------------------------------------------- hints


def move_kind(pos: Position, move: Play) -> str:
    """A hint's description of a move: its shape and suit, not its cards."""
    if move.kind == CLAIM:
        return _("a claim")
    if move.kind == DISCARD:
        return ngettext("a discard of {n} card", "a discard of {n} cards", move.size).format(n=move.size)
    beat = bool(pos.trick)
    if move.kind == SET:
        return _("a set to beat") if beat else _("a set to lead")
    suit = suit_name(move.suit)
    if move.kind == SINGLE:
        return (_("a single of {suit} to beat") if beat else _("a single of {suit} to lead")).format(suit=suit)
    return (_("a run of {suit} to beat") if beat else _("a run of {suit} to lead")).format(suit=suit)


def _discard_suits(move: Play) -> str:
    """The suits a discard comes from, by name (``Coins and Tens``)."""
    names = [suit_name(s) for s in range(4) if suit_bits(move.cards, s)]
    if len(names) == 1:
        return names[0]
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def _which(k: int, n: int) -> str:
    """The place of a move among ``n`` alike, counted from the lowest (``k`` from 0)."""
    if k == 0:
        return _("the lowest of {n}").format(n=n)
    if k == n - 1:
        return _("the highest of {n}").format(n=n)
    if k == 1:
        return _("the second lowest of {n}").format(n=n)
    if k == n - 2:
        return _("the second highest of {n}").format(n=n)
    return _("number {k} of {n}, counted from the lowest").format(k=k + 1, n=n)


def move_hint(pos: Position, move: Play) -> str:
    """The first hint: the move's shape and suit (:func:`move_kind`), told apart from the other
    legal moves alike: a discard by the suits it comes from, then any move by its place among
    those still alike, from the lowest (``a single of Myriads to beat, the highest of 2``)."""
    kind = move_kind(pos, move)
    alike = [m for m in pos.legal_moves() if move_kind(pos, m) == kind]
    if len(alike) < 2:
        return kind
    if move.kind == DISCARD:
        kind = _("{kind} from {suits}").format(kind=kind, suits=_discard_suits(move))
        alike = [m for m in alike if _discard_suits(m) == _discard_suits(move)]
        if len(alike) < 2:
            return kind
    alike.sort(key=lambda m: (sorted(c % 9 for c in iter_cards(m.cards))[::-1], Play.sort_key(m)))
    return _("{kind}, {which}").format(kind=kind, which=_which(alike.index(move), len(alike)))


# ---------------------------------------------------------------- the session


def puzzle_head(puzzle: Puzzle) -> str:
    """``Puzzle <id>: <title>`` with the title in the language in use."""
    from lukfu_solver.puzzles.words import title_text

    head = _("Puzzle {id}").format(id=puzzle.id)
    return head + (f": {title_text(puzzle.title)}" if puzzle.title else "")


PUZZLE_COMMANDS = ("hint", "hand", "show", "skip", "help", "quit", "claim")
"""The words ``puzzle play`` understands besides moves (:mod:`.commands`: English and the language in use)."""


def valid_now(pos: Position) -> list[str]:
    """The words that do something at ``pos`` (the only ones a typo is taken for): a claim only
    when the seat to move may claim (R14)."""
    names = [n for n in PUZZLE_COMMANDS if n != "claim"]
    return names + ["claim"] if pos.is_legal(CLAIM_PLAY) else names


def play_help() -> str:
    """How to answer in ``puzzle play``, with the command words of the language in use."""
    return _(
        "Enter a move as written in NOTATION.md (S7, C5S5M5, xC2M4, {claim}) or its number in the menu; "
        "'{hint}' for a hint (twice: the move), '{show}' or '{hand}' for the table, '{skip}' for the next "
        "puzzle, '{quit}' to stop."
    ).format(**{name: typed(name) for name in PUZZLE_COMMANDS})


class PlaySession:
    """The interactive loop of ``puzzle play``: reads commands from ``stream`` (a terminal or a
    pipe), writes plain lines to ``out``; the engine plays the defence's best replies."""

    def __init__(self, stream: TextIO, out: TextIO, solver: str = "compiled") -> None:
        from .console import text_console

        self.stream = stream
        self.out = out
        self.solver = solver
        self.eof = False
        self.console = text_console(out)

    def say(self, text: str = "", indent: int = 0) -> None:
        """Write a paragraph wrapped by words at the terminal's width (an indented one goes on two
        further in), at once: a pipe reader sees it before the next prompt."""
        self.console.print(Hanging(text, indent, hang=2 if indent else 0) if text else "")
        self.out.flush()

    def ask(self) -> str | None:
        """The next command, or None at the end of input; echoed after the prompt when read from
        a pipe, as ``lukfu play`` does, so the screen reads as if typed."""
        self.out.write("> ")
        self.out.flush()
        line = self.stream.readline()
        if not line:
            self.out.write("\n")
            self.eof = True
            return None
        if not self.stream.isatty():
            self.out.write(line.strip() + "\n")
        return line.strip()

    def board(self, pos: Position) -> None:
        """Print the table (hands by suit, fu, the trick)."""
        self.console.print(position_renderable(pos))
        self.out.flush()

    def menu(self, moves: list[Play]) -> None:
        """The numbered legal moves in columns, each kept whole."""
        from .play_screen import menu

        self.console.print(Padding(menu(moves, title=False), (0, 0, 0, 2)))
        self.out.flush()

    def state(self, pos: Position) -> str:
        """One line: hands, fu and the trick so far."""
        hands = " · ".join(_("seat {seat} {cards}").format(seat=s, cards=format_cards(pos.hands[s])) for s in range(3))
        fu = fu_list(pos.fu)
        trick = ", ".join(
            _("seat {seat} {cards}").format(seat=(pos.leader + i) % 3, cards=p) for i, p in enumerate(pos.trick)
        ) or _("none")
        return _("{hands} · fu {fu} · trick: {trick}").format(hands=hands, fu=fu, trick=trick)

    def play(self, puzzle: Puzzle) -> str:
        """Play one puzzle; returns ``solved``, ``skipped``, ``quit``, ``eof`` or ``invalid``."""
        from lukfu_solver import puzzles as P
        from lukfu_solver.puzzles.words import tier_text

        pos = puzzle.pos()
        ctx = P.SolveContext(self.solver)
        solver = ctx.solver
        an = P.analyse(pos, puzzle.goal, line=puzzle.line(), context=ctx)
        self.say(puzzle_head(puzzle) + f" ({tier_text(puzzle.difficulty)})")
        if not an.ok:
            self.say(_("This puzzle does not verify ({why}); skipped.").format(why=an.failure))
            return "invalid"
        self.board(pos)
        self.say(_("Question: {question}").format(question=puzzle.question))
        self.say(play_help())
        p = pos.copy()
        mistakes = 0
        for st in an.steps:
            if st.role != P.SOLVE:
                tag = _(" (forced)") if st.role == P.FORCED else ""
                self.say(f"{move_words(p, st.move)}{tag}", indent=2)
                self._push(p, st.move)
                continue
            menu = sorted(p.legal_moves(), key=Play.sort_key)
            self.say(_("Your move, seat {seat}. {state}").format(seat=p.to_move, state=self.state(p)))
            self.menu(menu)
            hints = 0
            while True:
                cmd = self.ask()
                if cmd is None:
                    return "eof"
                if not cmd:
                    continue
                word = command_of(cmd, PUZZLE_COMMANDS)
                if word == "quit":
                    return "quit"
                if word == "skip":
                    self.say(_("Skipped. The solution: {moves}").format(moves=" ".join(puzzle.solution)))
                    return "skipped"
                if word == "help":
                    self.say(play_help())
                    continue
                if word in ("show", "hand"):
                    self.board(p)
                    self.menu(menu)
                    continue
                if word == "claim":
                    cmd = "claim"
                if word == "hint":
                    hints += 1
                    if hints == 1:
                        self.say(_("Hint: the move is {kind}.").format(kind=move_hint(p, st.move)))
                    else:
                        self.say(_("Hint: play {move}.").format(move=st.move))
                    continue
                move = self._parse(cmd, menu, p)
                if move is None:
                    continue
                if move == st.move:
                    self.say(_("Correct: {words}.").format(words=move_words(p, move)))
                    break
                mistakes += 1
                self._explain(solver, p, move, puzzle.goal, an.value or 0, st.values.get(move))
            self._push(p, st.move)
        if mistakes:
            self.say(
                ngettext("Solved after {n} wrong try!", "Solved after {n} wrong tries!", mistakes).format(n=mistakes)
            )
        else:
            self.say(_("Solved!"))
        if not p.is_over:
            cont = list(solver.solve(p).pv)
            if cont:
                self.say(_("Best play from here:"))
                for line in narrate_pv(p, cont):
                    self.say(line, indent=2)
        elif p.outcome is not None:
            self.say(result_line(p.outcome))
        return "solved"

    def _parse(self, cmd: str, menu: list[Play], pos: Position) -> Play | None:
        """The move a command names (a number or NOTATION), or None after saying what is wrong."""
        if cmd.isascii() and cmd.isdigit():
            n = menu_number(cmd)
            if n is not None and 1 <= n <= len(menu):
                return menu[n - 1]
            shown = n if n is not None else excerpt(cmd, 12)
            self.say(_("No move {n}: the menu has 1-{count}.").format(n=shown, count=len(menu)))
            return None
        try:
            move = Play.parse(cmd)
        except NotationError as err:
            if is_word(cmd):
                why = _("'{word}' is neither a move nor a command (type help).").format(word=cmd)
            else:
                why = _("Not a move: {why}. Type 'help' for help.").format(why=err)
            self.say(why + meant(cmd, valid_now(pos)))
            return None
        if not pos.is_legal(move):
            self.say(_("{move} is not legal here: {why}.").format(move=move, why=pos.why_illegal(move)))
            return None
        return move

    def _explain(
        self, solver: ExactSolver, pos: Position, move: Play, goal: str, target: int, value: int | None
    ) -> None:
        """Why a wrong move fails: its value and the refutation line."""
        from lukfu_solver import puzzles as P

        v, pv = P.refutation(solver, pos, move)
        if value is not None:
            v = value
        self.say(_("{move} fails: {why}. The refutation:").format(move=move, why=P.goal_failure(goal, v, target)))
        for line in narrate_pv(pos, [move, *pv]):
            self.say(line, indent=2)
        self.say(_("Try again."))

    def _push(self, pos: Position, move: Play) -> None:
        """Play ``move`` and say what it ended: a trick won (with its fu) or the deal."""
        before = pos.fu[:]
        in_trick = bool(pos.trick)
        pos.push(move)
        if move.kind == CLAIM and pos.outcome is not None:
            self.say(result_line(pos.outcome), indent=2)
        elif in_trick and not pos.trick:
            w = pos.to_move
            won = _("seat {seat} wins the trick: {n} fu (fu {fu})").format(
                seat=w, n=pos.fu[w] - before[w], fu=fu_list(pos.fu)
            )
            self.say(won, indent=2)
            if pos.outcome is not None:
                self.say(result_line(pos.outcome), indent=2)
