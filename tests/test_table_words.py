"""The words of a table besides moves (``play``, ``puzzle play``), in every language: ``hand``
(or ``show``) prints the table again; a mistyped word is taken only for a command that does
something at that moment (a claim only when one may be made, R14; undo only when there is an
answer to take back; tricks only once one is played); and every word of a table, typed when it
means nothing, is answered as a word, never as a card with a bad character."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from screens import flat
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.commands import COMMAND_WORDS, command_of, suggestion, typed, words
from lukfu_cli.play_cmd import Terminal, Undo
from lukfu_cli.puzzle_play import valid_now as puzzle_valid_now
from lukfu_solver.errors import NotationError
from lukfu_solver.game import deal_from_seed
from lukfu_solver.i18n import _, pgettext, using_language
from lukfu_solver.plays import CLAIM_PLAY
from lukfu_solver.position import Position
from lukfu_solver.session import GameSession
from lukfu_solver.view import InvalidMoveError, SeatView

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "ru", "hi", "es")
runner = CliRunner()


def claim_view() -> SeatView:
    """Seat 0 of deal 11, the caller, about to lead with six Old cards or more: it may claim (R14)."""
    s = GameSession.new(11, 0)
    s.apply("play")
    return s.view()


STATES = {
    "call": (SeatView.parse("1 C12457M1389T238 - pass"), False),
    "follow, nothing to undo": (SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5"), False),
    "follow, an answer to undo": (SeatView.parse("1 C1378S57M24T789 1 T2,T4,T6/M3,M5"), True),
    "lead, a claim possible": (claim_view(), True),
}
"""A table's moments: the view and whether the person has an answer to take back."""


def terminal(can_undo: bool) -> tuple[Terminal, io.StringIO]:
    """The person's side of a table, printing to a buffer."""
    buf = io.StringIO()
    term = Terminal(Console(file=buf, width=200, color_system=None), level=1, seed=7)
    term.can_undo = can_undo
    return term, buf


def typos(word: str) -> list[str]:
    """Words a slip of the finger makes of ``word``: a letter dropped, two swapped, one doubled."""
    out = {word[:i] + word[i + 1 :] for i in range(len(word))}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
    out |= {word[:i] + word[i] + word[i:] for i in range(len(word))}
    return sorted(out - {word})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_is_valid_follows_the_moment(lang: str) -> None:
    valid = {name: terminal(undo)[0].valid_now(view) for name, (view, undo) in STATES.items()}
    assert {"play", "pass"} <= set(valid["call"]) and "claim" not in valid["call"] and "tricks" not in valid["call"]
    assert "claim" not in valid["follow, nothing to undo"] and "undo" not in valid["follow, nothing to undo"]
    assert "undo" in valid["follow, an answer to undo"] and "tricks" in valid["follow, an answer to undo"]
    assert "claim" in valid["lead, a claim possible"] and "play" not in valid["lead, a claim possible"]
    for names in valid.values():
        assert {"hand", "show", "help", "hint", "quit"} <= set(names)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_typo_is_taken_only_for_a_command_valid_now(lang: str) -> None:
    with using_language(lang):
        every = words(COMMAND_WORDS)
        for state, (view, undo) in STATES.items():
            term, _buf = terminal(undo)
            valid = set(term.valid_now(view))
            for name in COMMAND_WORDS:
                for word in {name, typed(name)}:
                    for typo in typos(word):
                        if command_of(typo, COMMAND_WORDS):
                            continue  # a word of its own (``no`` from ``now``)
                        meant = suggestion(typo, valid)
                        assert meant is None or every[meant] in valid, (state, typo, meant)
        follow = STATES["follow, nothing to undo"][0]
        assert suggestion("clear", terminal(False)[0].valid_now(follow)) is None
        assert suggestion(typed("claim")[:-1] + "x", terminal(False)[0].valid_now(follow)) is None
        assert suggestion(typed("claim")[:-1] + "x", terminal(True)[0].valid_now(claim_view())) == typed("claim")


def test_the_table_says_the_command_meant_only_when_it_can_be_done() -> None:
    follow, claim = STATES["follow, nothing to undo"][0], STATES["lead, a claim possible"][0]
    for view, undo, line, said in [
        (follow, False, "clear", None),
        (follow, False, "cliam", None),
        (follow, False, "undp", None),
        (follow, True, "undp", "undo"),
        (claim, True, "cliam", "claim"),
        (follow, False, "hlep", "help"),
        (follow, False, "hnad", "hand"),
    ]:
        term, buf = terminal(undo)
        assert term.handle(view, line) is None
        out = flat(buf.getvalue())
        assert f"'{line}' is neither a move nor a command (type help)." in out, out
        assert ("Did you mean" in out) == (said is not None) and (said is None or f"'{said}'?" in out), out
    term, buf = terminal(False)
    term.handle(follow, "Q7")  # not a word: a move with a bad character, said as such
    assert "bad character 'Q' in 'Q7'" in buf.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_word_is_answered_as_a_word(lang: str) -> None:
    with using_language(lang):
        for state, (view, undo) in STATES.items():
            for name in COMMAND_WORDS:
                if name in ("hint", "quit"):  # a search; a question read from the keyboard
                    continue
                for word in {name, typed(name), typed(name).upper()}:
                    term, buf = terminal(undo)
                    try:
                        answer = term.handle(view, word)
                    except Undo:
                        assert undo and name == "undo"
                        continue
                    out = buf.getvalue()
                    assert "Traceback" not in out
                    if answer is not None:  # a call, or a claim when one may be made
                        assert name in ("play", "pass", "claim"), (state, word, answer)
                        continue
                    try:
                        view.parse_move(word)
                    except InvalidMoveError as err:  # not a move at all: never "bad character 'h'"
                        assert err.message not in out, (state, word, out)
                    except NotationError:
                        pass  # a claim where none may be made: the rule's reason is the answer
                    assert out.strip(), (state, word)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_prints_the_table_again(lang: str, tmp_path: Path) -> None:
    with using_language(lang):
        hand, show = typed("hand"), typed("show")
        title = _("your hand (seat {seat})").format(seat=1)
        face_down = pgettext("column", "face down")
        trick = _("Trick {n}, led by seat {seat}:").format(n=1, seat=0)
    script = f"{hand}\n1\n{show}\n{hand.upper()}\nquit\nyes\n"
    res = runner.invoke(
        app, ["play", "--seed", "74", "--seat", "1", "--record", str(tmp_path / "g.json"), "--lang", lang], input=script
    )
    assert res.exit_code == 0, res.stdout[-2000:]
    at_call, _sep, in_play = res.stdout.partition(f"> {hand}\n")
    assert title in at_call and title in in_play.split("> 1\n")[0]  # at the call: the hand again
    after_show = in_play.split(f"> {show}\n")[1].split(f"> {hand.upper()}\n")
    for part in after_show:  # in play: the hand, the seats with their fu and face-down cards, the trick
        assert title in part and face_down in part and trick in part


@pytest.mark.parametrize("lang", LANGUAGES)
def test_puzzle_play_shows_the_table_again(lang: str) -> None:
    with using_language(lang):
        hand, show = typed("hand"), typed("show")
    res = runner.invoke(
        app, ["puzzle", "play", str(ROOT / "puzzles" / "stop.json"), "--lang", lang], input=f"{hand}\n{show[:-1]}x\nquit\n"
    )
    assert res.exit_code == 0, res.stdout[-2000:]
    first, after_hand, after_typo = re.split(r"^> .*\n", res.stdout, flags=re.M)[:3]  # an answer, echoed
    for line in first.splitlines()[1:]:
        if line.strip():  # the table, its first line the header of the hands
            assert line in after_hand, line
            break
    _typo, _sep, meant = after_typo.partition(f"'{show[:-1]}x'")
    assert show in meant  # the typo taken for the command


def test_puzzle_play_offers_a_claim_only_where_one_is_legal() -> None:
    """R14: a claim is made by the seat about to lead, with six fu and Old cards or more."""
    lead = Position.start(deal_from_seed(11), 0)
    assert "claim" in puzzle_valid_now(lead)
    lead.push(next(m for m in lead.legal_moves() if m != CLAIM_PLAY))
    assert "claim" not in puzzle_valid_now(lead) and suggestion("clear", puzzle_valid_now(lead)) is None
