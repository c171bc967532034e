"""In Russian, Hindi and Spanish a player reads no English outside the card notation: the play
table from the call to the end of a deal (help, the table again, the hints at the call and in
play, tricks, moves, a word that is no command, a discard, the claim, a deal passed out and
dealt again, each deal's Master, the score before a deal and the summary of a session), a puzzle
played, advise, analyse, deal, show, solve with every move's value, replay and the review of a
deal played (its players' names, the claim and the calls in the table, its numbers). Each screen is compared with the same screen in English: an English word of the English
screen that shows up on the translated one is a message left untranslated.

Allowed: the card notation (C7, xC2M4), commands quoted to be typed (``lukfu replay FILE``,
``--record FILE``), rule numbers (R6), the seat letters A and B, and the English name of a table
command in brackets after the language's own word in help (``подсказка (hint)``: both are
accepted)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lukfu_cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
VIEW = "1 C1378S57M24T789 1 T2,T4,T6/M3,M5"
WORDS = {  # help, hint, tricks, moves, hand, quit in each language
    "en": ("help", "hint", "tricks", "moves", "hand", "quit"),
    "ru": ("помощь", "подсказка", "взятки", "ходы", "рука", "выход"),
    "hi": ("मदद", "संकेत", "दौर", "चालें", "हाथ", "बंद"),
    "es": ("ayuda", "pista", "bazas", "jugadas", "mano", "salir"),
}
NOT_WORDS = [
    r"lukfu\s+[a-z]+(?:\s+[A-Za-z0-9./:_,-]+)*",  # a command to type, wrapped or not
    r"NOTATION\.md",
    r"--[a-z-]+(?:\s+[A-Z]+\b)?",  # an option and its metavar
    r"\bx?(?:[CSMT][1-9]+)+\b",  # the card notation
    r"\bR\d+\b",
    r"\((?:hint|undo|tricks|moves|hand|show|help|quit)\)",  # the English command beside the language's own
    r"[\w./-]+\.json",  # file names
    r"\bs\d+c\d+p\d+b?\b",  # puzzle ids
]
ALLOWED = {"A", "B", "C", "S", "M", "T", "x", "Enter"}  # seat letters, suit letters, the key
ALLOWED |= {"Luk", "Fu", "fu", "s"}  # the game's name, its unit of score (every glossary), seconds
ALLOWED |= {"no", "total", "legal", "a", "error"}  # Spanish words spelled like English ones
ALLOWED |= {"ann", "bob", "cy"}  # the players' names in examples/deal-175.json
ALLOWED |= {"ms"}  # the millisecond's symbol, as Spanish and Hindi write it too
ALLOWED |= {"clear"}  # a word the script types that is no command, quoted back as typed


def screens(lang: str, tmp: Path) -> str:
    """Everything a player of ``lang`` reads in one sitting (standard output of each command)."""
    help_, hint, tricks, moves, hand, quit_ = WORDS[lang]
    out = []

    def run(*args: str, input: str | None = None) -> None:
        res = runner.invoke(app, [*args, "--lang", lang], input=input, env={"COLUMNS": "100"})
        assert res.exit_code == 0, (args, res.stdout[-2000:], res.stderr)
        out.append(res.stdout)

    script = f"{help_}\n{hand}\n{hint}\n1\n{hint}\n{tricks}\n{moves}\n{hand}\nclear\n" + "1\n" * 60
    run("play", "--seed", "5", "--seat", "2", "--level", "1", "--record", str(tmp / f"{lang}-a.json"), input=script)
    run("play", "--seed", "11", "--seat", "1", "--level", "1", "--deals", "2", "--opponents", "easy,medium",
        "--record", str(tmp / f"{lang}-b.json"), input=f"{hint}\n" + "1\n" * 80)
    run("play", "--seed", "5", "--seat", "0", "--level", "1", "--record", str(tmp / f"{lang}-c.json"), input="2\n" + "1\n" * 60)
    run("puzzle", "play", str(ROOT / "puzzles" / "stop.json"), input=f"{hand}\n{hint}\n{hint}\n1\n{help_}\n{quit_}\n")
    run("advise", "--deal", "7", "--seat", "1", "--samples", "4", "--max-nodes", "20000", "--evidence")
    run("analyse", "--deal", "7", "--seat", "0", "--samples", "4", "--max-nodes", "20000", "--lead-samples", "2")
    run("analyse", VIEW, "--samples", "4", "--max-nodes", "20000")
    run("deal", "--seed", "7", "--seat", "1")
    run("deal", "--seed", "7", "--show")
    run("show", "--view", VIEW)
    run("solve", "C69S246M567T1235/C1378S57M24T4789/C245S1389M1389T6 0 1 0,0,0 - -", "--all-moves")
    run("replay", str(tmp / f"{lang}-a.json"))
    run("review", str(tmp / f"{lang}-a.json"), "--samples", "4", "--max-nodes", "20000")
    run("review", str(ROOT / "examples" / "deal-175.json"), "--samples", "4", "--max-nodes", "20000", "--seat", "1")
    return "\n".join(out)


def words(text: str) -> set[str]:
    for pattern in NOT_WORDS:
        text = re.sub(pattern, " ", text)
    return {w for w in re.findall(r"[^\W\d_]+", text) if w.isascii()}


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return words(screens("en", tmp_path_factory.mktemp("en")))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "hi", "es"])
def test_no_english_word_is_left(lang: str, english: set[str], tmp_path: Path) -> None:
    left = sorted((words(screens(lang, tmp_path)) & english) - ALLOWED)
    assert not left, left
