"""Batch input and output shared by the ``--batch`` modes (``legal``, ``apply``, later ``solve``).

A batch reads one request a line from FILE or standard input (``-``), skips blank lines but
numbers lines from 1 as in the file, and writes one JSON object a line on stdout in the same
order. A bad line yields ``{"line": N, "error": "<one-line message>"}`` and the batch goes on.
A progress bar (:mod:`.progress`) is shown on stderr only when stderr is a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from lukfu_solver.errors import NotationError

from .common import emit_json, one_line
from .progress import with_progress

STDIN = "-"


def _open(path: str) -> tuple[TextIO, bool]:
    """The stream to read and whether to close it; undecodable bytes become a per-line error."""
    if path == STDIN:
        return sys.stdin, False
    return open(path, encoding="utf-8", errors="replace"), True  # closed by _lines


def read_lines(path: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of ``path`` (``-``: stdin) as ``(line number, text)``, numbered from 1.

    The file is opened at once (not at the first line), so a missing file raises ``OSError``
    before any output.
    """
    stream, close = _open(path)
    return _lines(stream, close)


def _lines(stream: TextIO, close: bool) -> Iterator[tuple[int, str]]:
    try:
        for n, raw in enumerate(stream, 1):
            text = raw.rstrip("\r\n")
            if text.strip():
                yield n, text
    finally:
        if close:
            stream.close()


def count_lines(path: str) -> int | None:
    """The number of non-blank lines of a file (None for stdin, which cannot be read twice)."""
    if path == STDIN:
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        return sum(1 for line in f if line.strip())


def error_object(line: int, err: Exception) -> dict[str, Any]:
    """The output object of a bad input line: ``{"line": N, "error": "<message>"}``."""
    return {"line": line, "error": one_line(str(err))}


def run_batch(path: str, handle: Callable[[str], dict[str, Any]], description: str = "working") -> int:
    """Answer every line of ``path`` with ``handle(text)``, one JSON object a line; return the count.

    ``handle`` raises :class:`NotationError` for a bad line, which becomes an error object
    (with the file's line number) and the batch goes on.
    """
    lines = read_lines(path)
    total = count_lines(path) if sys.stderr.isatty() else None
    done = 0
    for n, text in with_progress(lines, total, description):
        try:
            obj = handle(text)
        except NotationError as err:
            obj = error_object(n, err)
        emit_json(obj)
        done += 1
    return done
