"""Small things a player notices on the screen: a face-down card is drawn as one mark (two read
as two), no line ends in padding (a copied screen carries no tail of blanks), and the seed of a
game chosen at random is in the banner, not on a line of its own above it."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from typer.testing import CliRunner

from lukfu_cli.app import app
from lukfu_cli.console import TrimmedConsole, trimmed
from lukfu_cli.render import CARD_BACK, hidden_cell, play_text
from lukfu_solver.plays import Play

runner = CliRunner()


def test_one_face_down_card_is_one_mark() -> None:
    assert len(CARD_BACK) == 1
    assert hidden_cell(1).plain == CARD_BACK and hidden_cell(2).plain == f"{CARD_BACK} {CARD_BACK}"
    assert play_text(Play.parse("x1")).plain == f"x {CARD_BACK}"
    assert play_text(Play.parse("x3")).plain.count(CARD_BACK) == 3
    assert hidden_cell(5, compact=True).plain == f"{CARD_BACK} ×5"


def test_the_play_screen_draws_each_hidden_discard_card_once(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--seed", "5", "--seat", "2", "--level", "1", "--record", str(tmp_path / "g.json")], input="1\n" * 60
    )
    assert res.exit_code == 0, res.stdout[-2000:]
    discards = re.findall(r"discards face down ([▒ ]+)$", res.stdout, re.M)
    assert discards and all(d.split() == [CARD_BACK] * len(d.split()) for d in discards)
    assert "▒▒" not in res.stdout


def test_no_line_ends_in_padding(tmp_path: Path) -> None:
    res = runner.invoke(
        app, ["play", "--seed", "5", "--seat", "2", "--level", "1", "--record", str(tmp_path / "g.json")], input="1\n" * 60
    )
    assert res.exit_code == 0
    for args in (["replay", str(tmp_path / "g.json")], ["deal", "--seed", "7", "--show"], ["rules"]):
        out = runner.invoke(app, args, env={"COLUMNS": "80"})
        assert out.exit_code == 0, args
        res.stdout_bytes += out.stdout_bytes
    padded = [line for line in res.stdout.splitlines() if line.endswith(" ")]
    assert not padded, padded[:5]


def test_spaces_that_show_are_kept() -> None:
    """A background or an underline shows its spaces (a code block's shading keeps its width);
    a line without its end (a prompt) keeps its spaces."""
    shaded = Style(bgcolor="blue")
    segments = [Segment("code"), Segment("   ", shaded), Segment("  "), Segment("\n"), Segment("> ")]
    assert "".join(s.text for s in trimmed(segments)) == "code   \n> "
    table = Table(box=None)
    table.add_column("seat", header_style="bold")
    table.add_row("0")
    table.add_row("12345")
    padded = io.StringIO()
    Console(file=padded, width=40).print(table)  # Rich's own console pads "seat" and "0"
    assert [line for line in padded.getvalue().splitlines() if line.endswith(" ")]
    out = io.StringIO()
    console = TrimmedConsole(file=out, width=40, force_terminal=True, color_system="standard")
    console.print(table)
    console.print("prompt> ", end="")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert plain.splitlines() == [" seat", " 0", " 12345", "prompt> "]


def test_a_random_seed_is_in_the_banner_not_above_it(tmp_path: Path) -> None:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        res = runner.invoke(app, ["play", "--level", "1"], input="quit\n")
    finally:
        os.chdir(old)
    assert res.exit_code == 0
    banner = res.stdout.splitlines()[0]
    seed = re.search(r"seed (\d+)\.", banner)
    assert seed, banner
    assert f"seed {seed[1]}" not in res.stderr  # said once, where the player reads it
