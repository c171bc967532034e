"""Batch input and output shared by the ``--batch`` modes (``legal``, ``apply``, later ``solve``).

A batch reads one request a line from FILE or standard input (``-``), skips blank lines but
numbers lines from 1 as in the file, and writes one JSON object a line on stdout in the same
order. A bad line yields ``{"line": N, "error": "<one-line message>"}`` and the batch goes on.
A progress bar (:mod:`.progress`) is shown on stderr only when stderr is a terminal.

Input is read as bytes, a line at a time: bytes that are not UTF-8 arrive in the text as lone
surrogates (``surrogateescape``), which every parser refuses with the byte and its column, so
an undecodable or oversized line is one error object and never ends the batch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from lukfu_solver.errors import NotationError

from .output import emit_json, error_text
from .progress import with_progress

STDIN = "-"
MAX_LINE_BYTES = 1 << 20
"""Bytes of a line read at most; the rest of a longer line is skipped (the parser refuses the
line as too long, docs/limits.md), so one huge line never fills memory."""


def _open(path: str) -> tuple[IO[bytes], bool]:
    """The byte stream to read and whether to close it."""
    if path == STDIN:
        return getattr(sys.stdin, "buffer", sys.stdin), False
    return open(path, "rb"), True  # closed by _lines


def read_lines(path: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of ``path`` (``-``: stdin) as ``(line number, text)``, numbered from 1.

    The file is opened at once (not at the first line), so a missing file raises ``OSError``
    before any output.
    """
    stream, close = _open(path)
    return _lines(stream, close)


def _lines(stream: IO[bytes], close: bool) -> Iterator[tuple[int, str]]:
    """Number and decode the lines of ``stream`` (bytes; a text stream is accepted too)."""
    try:
        n = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            n += 1
            if isinstance(raw, str):  # a text stream without a byte buffer
                raw = raw.encode("utf-8", "surrogateescape")
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                _skip_rest(stream)
            text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
            if text.strip():
                yield n, text
    finally:
        if close:
            stream.close()


def _skip_rest(stream: IO[bytes]) -> None:
    """Read and drop the rest of an oversized line, a bounded chunk at a time."""
    while True:
        chunk = stream.readline(MAX_LINE_BYTES)
        if not chunk or chunk.endswith(b"\n" if isinstance(chunk, bytes) else "\n"):
            return


def count_lines(path: str) -> int | None:
    """The number of non-blank lines of a file (None for stdin, which cannot be read twice)."""
    if path == STDIN:
        return None
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


def error_object(line: int, err: Exception) -> dict[str, Any]:
    """The output object of a bad input line: ``{"line": N, "error": "<message>"}``."""
    return {"line": line, "error": error_text(str(err))}


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
