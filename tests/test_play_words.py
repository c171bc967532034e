"""What a player types and reads at ``lukfu play`` besides moves: a mistyped command gets the
command meant (never a capital the player did not type), every command works in the player's
language too, ``quit`` asks before dropping the deal, the hand is not printed twice before a
decision, undo back to the start does not announce the deal again; and the one-line answers to
``--seat one``, ``show VIEW`` and ``replay PUZZLES``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_checks import assert_bad_input
from screens import cells, flat
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.cells import measure_like_terminals, terminal_width
from lukfu_cli.commands import command_of, suggestion
from lukfu_solver.i18n import using_language

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"


def play(tmp_path: Path, *args: str, input: str) -> str:
    res = runner.invoke(app, ["play", *args, "--record", str(tmp_path / "g.json")], input=input)
    assert res.exit_code == 0, (res.stdout[-2000:], res.stderr, res.exception)
    return res.stdout


def test_a_mistyped_command_gets_the_command_meant(tmp_path: Path) -> None:
    script = "hlep\n1\nhlep\ncliam\nHlep\nQ7\nquit\nyes\n"
    out = flat(play(tmp_path, "--seed", "11", "--seat", "0", "--opponents", "rule", input=script))
    assert "At the call the answer is play or pass (1 or 2). Did you mean 'help'?" in out
    # in the play phase a word is answered as a word, quoted as typed, never as a card
    assert "'hlep' is neither a move nor a command (type help). Did you mean 'help'?" in out
    assert "'cliam' is neither a move nor a command (type help). Did you mean 'claim'?" in out  # R14: a claim is possible
    assert "'Hlep' is neither a move nor a command" in out and "bad character" not in out.split("Q7")[0]
    assert "bad character 'Q' in 'Q7'" in out  # not a word: a card with a bad character


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang,words",
    [("ru", ("помощь", "подсказка", "выход", "да")), ("es", ("ayuda", "pista", "salir", "sí")), ("hi", ("मदद", "संकेत", "बंद", "हाँ"))],
)
def test_commands_in_the_players_language(tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    help_, hint, quit_, yes = words
    script = f"{help_}\n{hint}\n{quit_}\n{yes}\n"
    out = flat(play(tmp_path, "--seed", "3", "--seat", "0", "--level", "1", "--lang", lang, input=script))
    assert f"{hint} (hint)" in out  # the help names the command in both words
    assert "Play (call)" not in out and out.count("±") >= 2  # the hint answered, in the language
    with using_language(lang):
        assert command_of(hint.upper(), ("hint",)) == "hint"
        assert suggestion(help_[:-1] + "x" + help_[-1], ("help", "hint")) == help_


def test_quit_asks_before_dropping_the_deal(tmp_path: Path) -> None:
    res = runner.invoke(app, ["play", "--seed", "74", "--seat", "0", "--record", str(tmp_path / "g.json")], input="quit\nno\n1\nquit\ny\n")
    assert res.exit_code == 0
    assert res.stdout.count("Stop this game? It will not be saved.") == 2
    assert "The game goes on." in res.stdout and "You call play" in res.stdout  # it went on after "no"
    assert "quit: the game is abandoned" in res.stderr and not (tmp_path / "g.json").exists()


def test_the_hand_is_shown_once_before_a_decision(tmp_path: Path) -> None:
    for seat in (0, 1):
        out = play(tmp_path, "--seed", "74", "--seat", str(seat), input="quit\nyes\n")
        before = out.split("Choices:")[0]
        assert before.count(f"your hand (seat {seat})") == 1, before
    out = play(tmp_path, "--seed", "74", "--seat", "0", input="1\nquit\nyes\n")
    first_lead = out.split("You call play")[1].split("Choices:")[0]
    assert "your hand" not in first_lead  # the same cards as at the call: not printed again


def test_undo_to_the_start_does_not_announce_the_deal_again(tmp_path: Path) -> None:
    out = play(tmp_path, "--seed", "74", "--seat", "0", input="1\nundo\nquit\nyes\n")
    assert out.count("New deal,") == 1
    assert "Taking back your answer play." in out
    assert "your hand (seat 0)" in out.split("Taking back")[1]  # the table is shown afresh


def test_r6_is_said_once_at_the_call(tmp_path: Path) -> None:
    out = play(tmp_path, "--seed", "5", "--seat", "2", input="1\n" * 40)
    assert out.count("(R6)") == 1
    assert "R6 limits" not in out.split("The deal is over")[0]


def test_seat_as_a_word_is_one_line_naming_the_seat() -> None:
    for args in (["play", "--seat", "one"], ["advise", "--deal", "7", "--seat=one"]):
        line = assert_bad_input(runner.invoke(app, args), "--seat: a seat is 0, 1 or 2, got 'one'")
        assert "Input should be" not in line
    assert_bad_input(runner.invoke(app, ["deal", "--seed", "x"]), "--seed: expected a whole number, got 'x'")
    ru = runner.invoke(app, ["play", "--seat", "one", "--lang", "ru"])
    assert ru.exit_code == 2 and ru.stderr.startswith("ошибка: --seat: место") and "'one'" in ru.stderr


def test_show_a_view_without_view_points_to_it() -> None:
    assert_bad_input(runner.invoke(app, ["show", VIEW]), "seat view", "--view")


def test_replay_a_puzzle_file_points_to_puzzle_play() -> None:
    path = str(ROOT / "puzzles" / "win.json")
    assert_bad_input(runner.invoke(app, ["replay", path]), "puzzle file", f"lukfu puzzle play {path}")


def test_advise_bullets_wrap_indented() -> None:
    res = runner.invoke(
        app, ["advise", "--deal", "7", "--seat", "1", "--samples", "4", "--max-nodes", "20000"], env={"COLUMNS": "60"}
    )
    assert res.exit_code == 0
    block = res.stdout.split("What decides the hand:")[1].split("How calling ends")[0].splitlines()[1:]
    assert any(not line.startswith("  • ") for line in block)  # some bullet wraps at 60 columns
    for line in block:
        assert line.startswith(("  • ", "    ")), line
    assert "lose the trick" in flat(res.stdout)


def test_a_claim_says_who_pays_so_the_net_points_add_up(tmp_path: Path) -> None:
    out = flat(play(tmp_path, "--seed", "74", "--seat", "0", input="1\n1\n"))
    assert "= 6, worth 1 point, paid twice by the caller. The deal ends." in out
    assert "Net points: seat 0 -2, seat 1 +2, seat 2 0" in out


@pytest.mark.slow
@pytest.mark.parametrize("lang,decimal", [("ru", ","), ("es", ","), ("hi", ".")])
def test_numbers_are_written_as_the_language_writes_them(tmp_path: Path, lang: str, decimal: str) -> None:
    out = play(tmp_path, "--seed", "11", "--seat", "1", "--level", "1", "--lang", lang, input="hint\nquit\nyes\n")
    table = out.split("hint\n", 1)[1]
    points = re.findall(r"[+-]\d+[.,]\d\d\b", table)
    assert points and all(p[-3] == decimal for p in points), points
    res = runner.invoke(
        app, ["analyse", VIEW, "--samples", "4", "--max-nodes", "20000", "--lang", lang], env={"COLUMNS": "100"}
    )
    assert res.exit_code == 0
    grouped = {"ru": "20\u00a0000", "es": "20.000", "hi": "20,000"}[lang]
    assert grouped in res.stdout  # "each solve stops after 20 000 positions"


def test_a_devanagari_vowel_sign_takes_the_cell_a_terminal_gives_it() -> None:
    from rich.cells import cell_len

    measure_like_terminals()
    for word in ("आसान", "कार्ड", "सिक्के", "ज़्यादा"):
        assert cell_len(word) == sum(terminal_width(ch) for ch in word) == cells(word), word
    assert cell_len("आसान") == 4  # आ स ा न: the sign ा (Mc) takes a cell; a virama or nukta (Mn) none
