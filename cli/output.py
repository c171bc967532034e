"""What every command shares: the error policy (one line on stderr, exit 2; Ctrl-C exits 130)
and the output helpers (data on stdout, notes on stderr).

The policy lives in :class:`LukfuGroup`, the Typer group of the ``lukfu`` app: every command,
including those added later in their own modules, runs inside its :meth:`LukfuGroup.invoke`.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

try:  # Typer 0.2x runs on its own copy of Click: its usage errors are these
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - an older Typer uses Click itself
    from click.exceptions import UsageError

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import N_, _, language, set_language, take_lang_option
from lukfu_solver.inputs import excerpt
from lukfu_solver.parallel import WorkerLost

EXIT_BAD_INPUT = 2
"""Exit code for bad input (notation, file, arguments), the same as Typer's usage errors."""
EXIT_FAILED = 1
"""Exit code when the work could not finish for a reason outside the input (a worker process lost)."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT)."""
EXIT_TERMINATED = 143
"""Exit code after SIGTERM (128 + SIGTERM)."""
ERROR_MAX = 300
"""The longest error line (after ``error: ``): messages quote excerpts, and this bounds the rest."""


def one_line(message: str) -> str:
    """``message`` squeezed onto one line (messages are printed and stored one per line)."""
    return " ".join(message.split())


def os_error_message(err: OSError) -> str:
    """The one-line ``file: ...`` message of a file that cannot be read or written."""
    what = err.strerror or str(err)
    if err.filename is not None:
        return one_line(f"file: {err.filename}: {what}")
    return one_line(f"file: {what}")


def error_text(message: str) -> str:
    """An error message as one line of at most :data:`ERROR_MAX` characters (cut with ``...``)."""
    text = one_line(message[: 4 * ERROR_MAX])
    return text if len(text) <= ERROR_MAX else text[: ERROR_MAX - 3] + "..."


def error_line(message: str) -> None:
    """Print ``error: <message>`` as one line on stderr."""
    sys.stderr.write(_("error: {message}").format(message=error_text(message)) + "\n")
    sys.stderr.flush()


USAGE_MESSAGES: tuple[tuple[str, str], ...] = (
    (r"Invalid value for (?P<option>.+?): (?P<detail>.*)", N_("Invalid value for {option}: {detail}")),
    (
        r"No such option: (?P<option>\S+) \(Possible options: (?P<choices>.*)\)",
        N_("No such option: {option} (Possible options: {choices})"),
    ),
    (r"No such option: (?P<option>\S+)", N_("No such option: {option}")),
    (r"Missing argument (?P<name>.+)", N_("Missing argument {name}")),
    (r"Missing option (?P<name>.+)", N_("Missing option {name}")),
    (r"Option (?P<option>.+) requires an argument", N_("Option {option} requires an argument")),
    (r"Got unexpected extra arguments? \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
)
"""Typer's usage errors (Click's English words) and their messages, translated when shown."""
USAGE_DETAILS: tuple[str, ...] = (
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
)
"""The reasons Typer gives for a bad option value, translated inside "Invalid value for"."""


def translated_usage_error(text: str) -> str:
    """Typer's usage error text in the language in use (as it is in English, or when unknown)."""
    if language() == "en":
        return text
    for pattern, template in USAGE_MESSAGES:
        found = re.fullmatch(pattern, text)
        if found:
            fields = found.groupdict()
            if "detail" in fields:
                fields["detail"] = _(fields["detail"].rstrip("."))
            return _(template).format(**fields)
    return text


SEAT_OPTIONS = ("--seat", "--caller")
"""The options whose value is a seat: a word there gets the seat's own message."""
_typed_args: list[str] = []
"""The arguments of the command line being run (set by :class:`LukfuGroup`), to quote a bad value."""


def _value_of(option: str) -> str | None:
    """The value typed after ``option`` (``--seat one`` or ``--seat=one``), if it can be found."""
    for i, arg in enumerate(_typed_args):
        if arg == option and i + 1 < len(_typed_args):
            return _typed_args[i + 1]
        if arg.startswith(option + "="):
            return arg.split("=", 1)[1]
    return None


def number_message(text: str) -> str | None:
    """Typer's "not a valid integer" for an option, said as a player reads it: the option, what it
    takes and the value typed (``--seat: a seat is 0, 1 or 2, got 'one'``); None for other errors."""
    found = re.fullmatch(r"Invalid value for '(--[\w-]+)'(?: / '[^']*')?: Input should be a valid integer.*", text)
    if not found:
        return None
    option = found.group(1)
    value = _value_of(option)
    shown = excerpt(value) if value is not None else _("a word")
    if option in SEAT_OPTIONS:
        return f"{option}: " + _("a seat is 0, 1 or 2, got {value}").format(value=shown)
    return f"{option}: " + _("expected a whole number, got {value}").format(value=shown)


def usage_message(err: UsageError) -> str:
    """Typer's usage error (a bad option value, an unknown option, a missing argument) as one
    line naming the option and where help is: the same form as every other error."""
    where = _(" (see: {command} --help)").format(command=err.ctx.command_path) if err.ctx is not None else ""
    text = err.format_message()
    number = number_message(one_line(text[: 4 * ERROR_MAX]))
    if number is not None:
        return error_text(number) + where
    if language() != "en":
        text = translated_usage_error(one_line(text[: 4 * ERROR_MAX]).rstrip("."))
    return error_text(text).rstrip(".") + where


def note(message: str) -> None:
    """Print a note (progress, a chosen seed) as one line on stderr, never on stdout."""
    sys.stderr.write(f"{message}\n")
    sys.stderr.flush()


def menu_number(text: str) -> int | None:
    """The number typed to choose from a numbered menu (at most 6 digits, as the keyboard types
    them: ``3``, ``３``, ``३``), or None: a number of any length typed there is a wrong choice,
    never an ``int()`` of 5,000 digits."""
    from lukfu_solver.cards import typed_text

    digits = typed_text(text)
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 6 else None


def tolerant_stdin() -> Any:
    """Standard input for an interactive command, with undecodable bytes read as U+FFFD: such a
    line is then a bad move, explained and asked again, not a UnicodeDecodeError."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    return sys.stdin


def fresh_name(stem: str, suffix: str = ".json") -> Path:
    """``<stem>.json`` in the current directory, or ``<stem>-2.json`` … when taken: a file the
    command writes without being asked for a name never replaces one the user has."""
    p = Path(stem + suffix)
    k = 2
    while p.exists() or p.is_symlink():
        p = Path(f"{stem}-{k}{suffix}")
        k += 1
    return p


def emit_json(obj: Any) -> None:
    """Write ``obj`` as one line of JSON on stdout (flushed, so batch output streams)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def emit_line(text: str) -> None:
    """Write a plain data line on stdout (never wrapped, unlike Rich output)."""
    sys.stdout.write(text + "\n")


def stdout_console() -> Any:
    """A Rich console on stdout (made when needed, so tests that swap ``sys.stdout`` see it),
    whose lines end without padding (:mod:`.console`)."""
    from .console import text_console

    return text_console()


def stderr_console() -> Any:
    """A Rich console on stderr, for progress bars."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def _safe_output() -> None:
    """Make stdout and stderr replace what their encoding cannot write (Devanagari on a Latin-1
    terminal) instead of failing: a translation never crashes the command."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # a stream that cannot be reconfigured: leave it
                pass


def bad_usage(field: str, message: str) -> NotationError:
    """The error for a bad combination of arguments, reported like any bad input."""
    return NotationError(field, message)


HELP_WORDS: dict[str, str] = {
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "DEFAULT_STRING": N_("[default: {}]"),
}
"""Typer's own words in a ``--help`` screen (``typer.rich_utils`` names them), translated with ours."""
REQUIRED_WORD = N_("required")
"""The word of Typer's ``[required]`` label (the brackets are added around its translation)."""
HELP_OPTION_TEXT = N_("Show this message and exit.")
"""The help text Click gives ``--help`` itself."""


def _swap(obj: Any, attr: str, saved: list[tuple[Any, str, Any]]) -> None:
    """Replace ``obj.attr`` (a help text) by its translation, remembering the English to restore."""
    value = getattr(obj, attr, None)
    if isinstance(value, str) and value:
        saved.append((obj, attr, value))
        setattr(obj, attr, _(value))


@contextmanager
def translated_help(command: Any, ctx: Any) -> Iterator[None]:
    """Show ``command``'s ``--help`` in the language in use, then put the English back.

    Help texts (``help=`` strings and command docstrings) are written in English at import time,
    before the language is known; they are translated here, when the help screen is drawn, by
    looking each one up in the catalogue (``tools.i18n_catalogues extract`` collects them without any
    markup in the source). A text with no translation stays English. Typer's panel titles and the
    ``[default: …]`` label are translated the same way.
    """
    if language() == "en":
        yield
        return
    from typer import rich_utils

    saved: list[tuple[Any, str, Any]] = []
    for attr, word in HELP_WORDS.items():
        saved.append((rich_utils, attr, getattr(rich_utils, attr)))
        setattr(rich_utils, attr, _(word))
    saved.append((rich_utils, "REQUIRED_LONG_STRING", rich_utils.REQUIRED_LONG_STRING))
    rich_utils.REQUIRED_LONG_STRING = f"[{_(REQUIRED_WORD)}]"
    _swap(command, "help", saved)
    for param in command.get_params(ctx):
        _swap(param, "help", saved)
    for name in getattr(command, "commands", {}):
        sub = command.commands[name]
        _swap(sub, "help", saved)
        _swap(sub, "short_help", saved)
    try:
        yield
    finally:
        for obj, attr, value in reversed(saved):
            setattr(obj, attr, value)


def translated_usage(usage: str) -> str:
    """Click's ``Usage:`` line with its first word translated (the command and metavars stay)."""
    head, sep, rest = usage.partition(":")
    return _("Usage") + sep + rest if sep and head.strip() == "Usage" else usage


class TranslatedHelp:
    """Mixin of a Typer command or group whose ``--help`` is shown in the language in use."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with translated_help(self, ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]

    def get_usage(self, ctx: Any) -> str:
        return translated_usage(super().get_usage(ctx))  # type: ignore[misc]


class LukfuCommand(TranslatedHelp, TyperCommand):
    """A ``lukfu`` command (``cls=`` of every ``app.command``): its help translated."""


class HelpGroup(TranslatedHelp, TyperGroup):
    """A group of subcommands (``lukfu puzzle``): its help translated."""


class LukfuGroup(TranslatedHelp, TyperGroup):
    """The ``lukfu`` command group: runs a command and turns bad input into one line and exit 2.

    ``NotationError`` (bad card, position, view, move, record) prints ``error: <field>: <fault>``;
    an ``OSError`` (a file that cannot be read) prints ``error: file: <name>: <reason>``;
    a usage error (a bad option value, an unknown option) prints ``error: <what Typer says>``
    on one line too, instead of Typer's box, so every error has one form; a worker process lost
    mid-batch (:class:`~lukfu_solver.parallel.WorkerLost`) prints one line and exits 1; Ctrl-C
    prints ``interrupted`` and exits 130. A broken pipe is left to Typer. Anything else is a bug and
    keeps its traceback.

    It also sets the language of everything printed: ``--lang CODE`` anywhere on the line (before
    or after the command), else the LANGUAGE/LC_ALL/LC_MESSAGES/LANG variables, else English;
    its ``--help`` and its commands' are translated when shown (:func:`translated_help`).
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.parent is None:
            _typed_args[:] = args
        try:
            args, code = take_lang_option(list(args))
            if ctx.parent is None or code is not None:  # every run of the top group sets it afresh
                set_language(code)
        except NotationError as err:
            error_line(str(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        if language() != "en":
            _safe_output()
        from .cells import measure_like_terminals

        measure_like_terminals()  # Hindi's vowel signs take a cell, as the terminal draws them
        return super().parse_args(ctx, args)

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as err:
            if _shows_help(err):
                raise
            error_line(usage_message(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as err:
            if _shows_help(err):
                raise
            error_line(usage_message(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except NotationError as err:
            error_line(str(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except BrokenPipeError:
            raise
        except WorkerLost as err:
            error_line(str(err))
            raise typer.Exit(EXIT_FAILED) from None
        except OSError as err:
            error_line(os_error_message(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except KeyboardInterrupt:
            note(_("interrupted"))
            raise typer.Exit(EXIT_INTERRUPTED) from None


def _shows_help(err: Exception) -> bool:
    """True for the "error" of a bare group (``lukfu``, ``lukfu puzzle``): Typer shows the help."""
    return type(err).__name__ == "NoArgsIsHelpError"
