"""The Typer application behind the ``lukfu`` command: creates the app and registers commands.

Each command lives in its own module and is registered here. Modules import only the light
library (cards, plays, position); heavy dependencies (ortools, numba) are imported inside the
command functions that need them, so ``lukfu --help`` stays instant. Errors are handled once,
in :class:`~lukfu_cli.output.LukfuGroup`.
"""

from __future__ import annotations

import signal
import sys
from typing import Annotated, Any

import typer

from lukfu_solver.i18n import _

from . import (
    advise_cmd,
    analyse_cmd,
    match_cmd,
    play_cmd,
    position_cmds,
    puzzle_cmd,
    replay_cmd,
    review_cmd,
    rules_cmd,
    sample_cmd,
    serve_cmd,
    show_cmd,
    solve_cmd,
)
from .output import EXIT_INTERRUPTED, EXIT_TERMINATED, LukfuCommand, LukfuGroup, note

app = typer.Typer(
    cls=LukfuGroup,
    rich_markup_mode="markdown",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Luk Fu (Six Tigers): rules engine, solver and analysis.\n\n"
    "Positions, views, cards and moves are written as in NOTATION.md; --json prints JSON only. "
    "Bad input exits with code 2 and one line on stderr.",
)

# A position can start with "-" (seat 0's hand is empty at the end): such an argument is taken
# as the POSITION, not as an unknown option.
POSITION_ARGS = {"ignore_unknown_options": True}


def version_text() -> str:
    """``lukfu <version>``: the installed distribution's version (the source tree's when not installed)."""
    from importlib import metadata

    try:
        return f"lukfu {metadata.version('lukfu')}"
    except metadata.PackageNotFoundError:
        return "lukfu (not installed)"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_show_version, help="Print the version and exit."),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|ru|hi|es",
            help="Language of what lukfu prints, before or after any command (default: LANGUAGE, LC_ALL, "
            "LANG; English when none matches). --json keys and the card notation stay as they are.",
        ),
    ] = None,
) -> None:
    """Luk Fu (Six Tigers): rules engine, solver and analysis."""


app.command("deal", cls=LukfuCommand)(position_cmds.deal)
app.command("legal", cls=LukfuCommand, context_settings=POSITION_ARGS)(position_cmds.legal)
app.command("apply", cls=LukfuCommand, context_settings=POSITION_ARGS)(position_cmds.apply)
app.command("show", cls=LukfuCommand, context_settings=POSITION_ARGS)(show_cmd.show)
app.command("replay", cls=LukfuCommand)(replay_cmd.replay)
app.command("review", cls=LukfuCommand)(review_cmd.review)
app.command("rules", cls=LukfuCommand)(rules_cmd.rules)
app.command("solve", cls=LukfuCommand, context_settings=POSITION_ARGS)(solve_cmd.solve)
app.command("sample", cls=LukfuCommand)(sample_cmd.sample)
app.command("analyse", cls=LukfuCommand)(analyse_cmd.analyse)
app.command("advise", cls=LukfuCommand)(advise_cmd.advise)
app.command("play", cls=LukfuCommand)(play_cmd.play)
app.command("match", cls=LukfuCommand)(match_cmd.match)
app.command("serve", cls=LukfuCommand)(serve_cmd.serve)
app.add_typer(puzzle_cmd.app, name="puzzle")


def _one_metavar_style() -> None:
    """One metavar style in every ``--help``: an option's value is named in capitals (``--seed
    SEED``, ``--deals N``; an option without a metavar shows its name), a flag shows none (Typer
    itself writes ``<int>``, and ``<bool>`` beside flags)."""
    from typer.core import TyperOption

    if getattr(TyperOption, "_lukfu_metavars", False):
        return
    original = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        if self.is_flag:
            return None
        if self.metavar is None and self.name is not None:
            return self.name.upper().rstrip("_")
        return original(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
    TyperOption._lukfu_metavars = True  # type: ignore[attr-defined]


_one_metavar_style()


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM: leave like Ctrl-C, through the ``finally`` blocks (a worker pool is stopped, not
    left to write into a closed pipe), with one line and exit code 143."""
    note(_("terminated"))
    raise SystemExit(EXIT_TERMINATED)


def main() -> None:
    """Entry point of the ``lukfu`` command."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        app()
    except KeyboardInterrupt:  # outside a command (commands handle it in LukfuGroup)
        note(_("interrupted"))
        sys.exit(EXIT_INTERRUPTED)
