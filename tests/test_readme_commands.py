"""The README's command table says what the command line does: every command of ``lukfu`` has a
row, every option a row names is one the command takes, and the options a player chooses a game
by (``play``'s strength of the opponents, number of deals, seat, seed, level) are all there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer

from lukfu_cli.app import app

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| `lukfu (?P<name>[a-z]+)(?P<rest>[^|]*(?:\\\|[^|]*)*)` \|(?P<what>.*)$", re.M)
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def commands() -> dict[str, Any]:
    """Every command of ``lukfu`` by name (Typer's click commands; ``puzzle`` is a group)."""
    return dict(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def rows() -> dict[str, str]:
    """Each command's row of the table: the command and what it does, as one text."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## The command line") :]
    found: dict[str, str] = {}
    for m in ROW.finditer(table):
        found[m["name"]] = found.get(m["name"], "") + m["rest"] + m["what"]
    return found


def options(command: Any) -> set[str]:
    return {opt for p in command.params for opt in p.opts if opt.startswith("--")}


def test_every_command_has_a_row() -> None:
    missing = set(commands()) - set(rows())
    assert not missing, missing


def test_every_option_named_is_the_command_s() -> None:
    cmds = commands()
    wrong = {}
    for name, text in rows().items():
        if name not in cmds or hasattr(cmds[name], "commands"):  # a group's options are its commands'
            continue
        named = set(OPTION.findall(text)) - {"--lang", "--help", "--version", "--json"}
        if named - options(cmds[name]):
            wrong[name] = sorted(named - options(cmds[name]))
    assert not wrong, wrong


def test_play_s_row_names_how_a_game_is_chosen() -> None:
    play = rows()["play"]
    chosen = options(commands()["play"]) - {"--record", "--force", "--help"}
    assert chosen <= set(OPTION.findall(play)), sorted(chosen - set(OPTION.findall(play)))
