"""What every command shares: the error policy (one line on stderr, exit 2; Ctrl-C exits 130)
and the output helpers (data on stdout, notes on stderr).

The policy lives in :class:`LukfuGroup`, the Typer group of the ``lukfu`` app: every command,
including those added later in their own modules, runs inside its :meth:`LukfuGroup.invoke`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from typer.core import TyperGroup

from lukfu_solver.errors import NotationError

EXIT_BAD_INPUT = 2
"""Exit code for bad input (notation, file, arguments), the same as Typer's usage errors."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT)."""


def one_line(message: str) -> str:
    """``message`` squeezed onto one line (messages are printed and stored one per line)."""
    return " ".join(message.split())


def os_error_message(err: OSError) -> str:
    """The one-line ``file: ...`` message of a file that cannot be read or written."""
    what = err.strerror or str(err)
    if err.filename is not None:
        return one_line(f"file: {err.filename}: {what}")
    return one_line(f"file: {what}")


def error_line(message: str) -> None:
    """Print ``error: <message>`` as one line on stderr."""
    sys.stderr.write(f"error: {one_line(message)}\n")
    sys.stderr.flush()


def note(message: str) -> None:
    """Print a note (progress, a chosen seed) as one line on stderr, never on stdout."""
    sys.stderr.write(f"{message}\n")
    sys.stderr.flush()


def emit_json(obj: Any) -> None:
    """Write ``obj`` as one line of JSON on stdout (flushed, so batch output streams)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def emit_line(text: str) -> None:
    """Write a plain data line on stdout (never wrapped, unlike Rich output)."""
    sys.stdout.write(text + "\n")


def stdout_console() -> Any:
    """A Rich console on stdout (made when needed, so tests that swap ``sys.stdout`` see it)."""
    from rich.console import Console

    return Console(highlight=False)


def stderr_console() -> Any:
    """A Rich console on stderr, for progress bars."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def bad_usage(field: str, message: str) -> NotationError:
    """The error for a bad combination of arguments, reported like any bad input."""
    return NotationError(field, message)


class LukfuGroup(TyperGroup):
    """The ``lukfu`` command group: runs a command and turns bad input into one line and exit 2.

    ``NotationError`` (bad card, position, view, move, record) prints ``error: <field>: <fault>``;
    an ``OSError`` (a file that cannot be read) prints ``error: file: <name>: <reason>``;
    Ctrl-C prints ``interrupted`` and exits 130. A broken pipe is left to Typer. Anything else
    is a bug and keeps its traceback.
    """

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except NotationError as err:
            error_line(str(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except BrokenPipeError:
            raise
        except OSError as err:
            error_line(os_error_message(err))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except KeyboardInterrupt:
            note("interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
