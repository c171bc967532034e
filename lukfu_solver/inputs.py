"""The one parsing layer for untrusted input: bounded numbers, bounded JSON, checked text, excerpts.

Every parser of the project reads numbers, JSON and free text through these functions, so the
limits of ``docs/limits.md`` hold everywhere and a hostile input (a 5,000-digit number, JSON
nested 100,000 deep, a lone surrogate, a 10 MB line) is refused with one short
:class:`~lukfu_solver.errors.NotationError` instead of a traceback or a huge message.

>>> parse_int("12", "fu", 0, 12)
12
>>> parse_int("9" * 5000, "seed", 0, MAX_SEED)
Traceback (most recent call last):
...
lukfu_solver.errors.NotationError: seed: a 5,000-digit number is too long (the range is 0-9223372036854775807)
>>> load_json('{"a": [1, 2]}', "record")
{'a': [1, 2]}
>>> excerpt("x" * 100, 8)
"'xxxxxxxx'... (100 characters)"
"""

from __future__ import annotations

import json
import math
import os
import re
import reprlib
import stat
import unicodedata
from pathlib import Path
from typing import Any

from .errors import NotationError
from .i18n import _, number

# ---------------------------------------------------------------- limits (docs/limits.md)

MAX_SEED = 2**63 - 1
"""Largest seed: seeds are 0 ≤ s < 2**63 (a negative seed would deal what its absolute value deals)."""
MAX_NODES = 2**62
"""Largest node limit: the compiled search counts nodes in a signed 64-bit integer, with headroom."""
MAX_DIGITS = 40
"""Longest digit string read as a number anywhere (no limit of the project needs more than 19)."""
MAX_TEXT = 10_000
"""Longest position, view, move or batch line in characters (a real one has under 200)."""
MAX_CARD_TEXT = 256
"""Longest card list in characters (36 cards with a separator after each need 108)."""
MAX_JSON_BYTES = 1 << 20
"""Largest JSON document by default (a record is under 10 KB; puzzle files pass their own limit)."""
MAX_JSON_DEPTH = 20
"""Deepest nesting of JSON arrays and objects (records need 3, puzzle files 4)."""
MAX_NAME = 64
"""Longest player name in a record, in characters."""
MAX_PUZZLE_FILE_BYTES = 16 << 20
"""Largest puzzle collection file (the collection in ``puzzles/`` holds files under 20 KB)."""
MAX_DEALS = 1_000_000
"""Most deals of a match (hours even for the fastest players; the 95% interval is then about ±0.01)."""
MAX_JOBS = 256
"""Most worker processes any command starts."""
MAX_SAMPLES = 100_000
"""Most sampled deals of an analysis or advice (each is solved exactly: hours at this count)."""
MAX_DRAWS = 1_000_000
"""Most deals ``lukfu sample`` draws in one run (about a minute and a gigabyte of output)."""
MAX_PUZZLES = 10_000
"""Most puzzles ``lukfu puzzle generate`` makes in one run (each takes seconds)."""
MAX_PUZZLE_DEALS = 10_000_000
"""Most deals ``lukfu puzzle generate --max-deals`` may try."""
MAX_SECONDS = 3600.0
"""Longest time budget of one answer or one solve (``--time``, ``--solve-time``; a review's
``time`` a decision): an hour, far past any default (seconds)."""

# the table's requests (``lukfu serve``): the same numbers bound the same options as on the command line
MAX_BODY_BYTES = 1 << 20
"""Largest request body of the table's API, 1 MiB (1,048,576 bytes): a record sent to be resumed or
replayed is inside it, so a record sent this way is a few bytes under its own 1 MiB limit."""
MAX_WAIT_SECONDS = 20.0
"""Longest a request of the table's API waits for a job to end (``?wait=``, a long poll)."""
MAX_MOVE_TEXT = 200
"""Longest move a person sends the table, in characters (``xC1C2C3…`` of twelve cards needs 25)."""
MAX_PAGE = 200
"""Most saved games one answer of the table's games list holds (``?limit=``; ``?before=`` pages on)."""

_DIGITS = frozenset("0123456789")


# ---------------------------------------------------------------- numbers


def parse_int(text: str, field: str, low: int, high: int) -> int:
    """The integer written in ``text`` (ASCII digits, an optional leading ``-``), checked to lie in
    ``low``–``high``; anything else is a NotationError naming ``field``.

    The length is checked before ``int()`` is called, so a digit string of any length is refused
    cleanly (Python's own limit is 4,300 digits, with a ValueError), and fullwidth or other
    Unicode digits, which ``int()`` would accept, are refused.
    """
    digits = text[1:] if text.startswith("-") else text
    if not digits or not _DIGITS.issuperset(digits):
        raise NotationError(
            field, _("expected a whole number {range}, got {text}").format(range=_range(low, high), text=excerpt(text))
        )
    if len(digits) > MAX_DIGITS:
        raise NotationError(
            field,
            _("a {count:,}-digit number is too long (the range is {low}-{high})").format(
                count=len(digits), low=low, high=high
            ),
        )
    return check_int(int(text), field, low, high)


def check_int(value: Any, field: str, low: int, high: int) -> int:
    """``value`` when it is an ``int`` (not a bool) in ``low``–``high``, else a NotationError naming ``field``.

    Used for numbers that arrive already converted: command-line options and JSON values.
    """
    if type(value) is not int:
        raise NotationError(
            field,
            _("expected a whole number {range}, got {value}").format(range=_range(low, high), value=excerpt(value)),
        )
    if not low <= value <= high:
        raise NotationError(
            field, _("{value} is outside {low}-{high}").format(value=excerpt(value), low=low, high=high)
        )
    return value


def check_seed(value: Any, field: str = "seed") -> int:
    """A seed: a whole number in 0–:data:`MAX_SEED`. Negative seeds are refused because Python's
    ``random.Random(-s)`` is ``random.Random(s)``: two spellings of one deal would be a trap."""
    return check_int(value, field, 0, MAX_SEED)


def check_seconds(value: Any, field: str, most: float = MAX_SECONDS) -> float:
    """A time budget: a number (not a bool) of seconds, more than 0 and at most ``most``; else a
    NotationError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise NotationError(field, _("expected a number of seconds, got {value}").format(value=excerpt(value)))
    if not value > 0:
        raise NotationError(field, _("must be more than 0 seconds, got {value}").format(value=excerpt(value)))
    if value > most:
        raise NotationError(
            field, _("{value} seconds is more than the limit, {most}").format(value=excerpt(value), most=number(most))
        )
    return float(value)


_SIZE = re.compile(r"([0-9]{1,15})(?:\.([0-9]{1,3}))?\s?([kmgt]?)(i?b?)", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(text: str, field: str, low: int, high: int) -> int:
    """A size in bytes written as a number with an optional unit (``500M``, ``2G``, ``1.5GiB``,
    ``100000``; K, M, G, T are powers of 1,024), checked to lie in ``low``-``high``.

    >>> parse_size("2G", "max-disk", 1, 2**50), parse_size("1.5m", "max-disk", 1, 2**50)
    (2147483648, 1572864)
    """
    m = _SIZE.fullmatch(text.strip())
    if m is None:
        raise NotationError(
            field, _("expected a size such as 500M or 2G, got {text}").format(text=excerpt(text))
        )
    whole, part, unit = m.group(1), m.group(2) or "", _SIZE_UNITS[m.group(3).lower()]
    size = int(whole) * unit + (int(part) * unit) // 10 ** len(part) if part else int(whole) * unit
    if not low <= size <= high:
        raise NotationError(
            field,
            _("{text} is outside {low}-{high} bytes").format(text=excerpt(text), low=number(low), high=number(high)),
        )
    return size


def _range(low: int, high: int) -> str:
    """The wording of a range in messages: ``"in 0-12"``."""
    return f"in {low}-{high}"


# ---------------------------------------------------------------- text


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, field: str, max_len: int = MAX_TEXT, allow_space: bool = True) -> str:
    """``text`` unchanged when it is at most ``max_len`` characters of printable text, else a
    NotationError naming ``field`` and the first fault with its column.

    Refused: control characters (tab, newline, NUL, …), format characters (bidi overrides,
    zero-width spaces), lone surrogates (undecodable bytes read with ``surrogateescape``),
    any space other than U+0020, and U+0020 itself when ``allow_space`` is false.
    """
    if len(text) > max_len:
        raise NotationError(
            field, _("{count:,} characters is too long (at most {max_len:,})").format(count=len(text), max_len=max_len)
        )
    if text.isascii() and text.isprintable():
        if not allow_space and " " in text:
            raise NotationError(
                field, _("a space at column {index} in {text}").format(index=text.index(" ") + 1, text=excerpt(text))
            )
        return text
    for i, ch in enumerate(text, 1):
        if ch == " ":
            if not allow_space:
                raise NotationError(field, _("a space at column {i} in {text}").format(i=i, text=excerpt(text)))
            continue
        if ch.isprintable():
            continue
        raise NotationError(
            field, _("{ch} at column {i} in {text}").format(ch=describe_char(ch), i=i, text=excerpt(text))
        )
    return text  # pragma: no cover - a non-printable text has a faulty character


def describe_char(ch: str) -> str:
    """A short name for a character that is refused: ``"a tab"``, ``"an undecodable byte 0xff"``."""
    if ch == "\t":
        return "a tab"
    if ch in "\n\r":
        return "a line break"
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's encoding of a byte that is not UTF-8
        return f"an undecodable byte 0x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"a lone surrogate U+{code:04X}"
    name = unicodedata.name(ch, "")
    return f"the character U+{code:04X}" + (f" ({name.lower()})" if name else "")


def split_fields(text: str, field: str, max_len: int = MAX_TEXT) -> list[str]:
    """The fields of a line written with single spaces between them (NOTATION.md), checked.

    The project's whitespace rule: positions, views and batch lines separate their fields by
    exactly one space; a tab, a line break inside, two spaces in a row or a space at either end
    is refused (naming the column), the same everywhere. One line break at the very end
    (``\\n`` or ``\\r\\n``, as a line read from a file has) ends the line and is not part of it.
    """
    if text.endswith("\n"):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    check_text(text, field, max_len)
    if text.startswith(" ") or text.endswith(" "):
        raise NotationError(
            field,
            (_("a space at the start of {text}") if text.startswith(" ") else _("a space at the end of {text}")).format(
                text=excerpt(text)
            ),
        )
    if "  " in text:
        raise NotationError(
            field,
            _("two spaces in a row at column {index} (fields are separated by single spaces)").format(
                index=text.index("  ") + 1
            ),
        )
    return text.split(" ") if text else []


def check_name(value: Any, field: str) -> str:
    """A player name: a string of 1 to :data:`MAX_NAME` printable characters (spaces allowed inside)."""
    if not isinstance(value, str) or not value:
        raise NotationError(field, _("a name is a non-empty string, got {value}").format(value=excerpt(value)))
    return check_text(value, field, MAX_NAME)


def has_surrogates(text: str) -> bool:
    """True when ``text`` holds a lone surrogate (it cannot be written as UTF-8)."""
    return _SURROGATE.search(text) is not None


def decode_line(raw: bytes, field: str = "line") -> str:
    """A line of bytes as text: strict UTF-8, a fault naming the first bad byte and its column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotationError(
            field,
            _("an undecodable byte 0x{raw:02x} at byte {start} (not UTF-8)").format(
                raw=raw[e.start], start=e.start + 1
            ),
        ) from None


# ---------------------------------------------------------------- excerpts for messages

_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 4


def excerpt(value: Any, limit: int = 60) -> str:
    """A short printable quotation of ``value`` for an error message: ``repr`` when short, else the
    first ``limit`` characters (their ``repr`` cut at ``2 * limit``) and the length. Control characters and surrogates come out escaped
    (so the message stays one line of valid UTF-8); a huge number or nested value costs nothing.

    >>> excerpt("C1\\tS2"), excerpt([[1, [2, [3]]]]), excerpt(10**50)
    ("'C1\\\\tS2'", '[[1, [...]]]', 'a 51-digit number')
    """
    if isinstance(value, str):
        shown = repr(value[:limit])
        if len(value) <= limit and len(shown) <= 2 * limit:
            return shown
        return f"{shown[: 2 * limit]}... ({len(value):,} characters)"
    if type(value) is int and value.bit_length() > 128:
        if value.bit_length() <= 14_000:  # under Python's 4,300-digit str() limit
            return f"a {len(str(abs(value)))}-digit number"
        return f"a number of about {round(value.bit_length() * math.log10(2)):,} digits"
    if isinstance(value, (bytes, bytearray)):
        return repr(bytes(value[:limit])) + (f"... ({len(value):,} bytes)" if len(value) > limit else "")
    return _REPR.repr(value)


# ---------------------------------------------------------------- JSON

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str, stop: int | None = None) -> int:
    """The deepest nesting of arrays and objects in JSON text, computed without recursion
    (counting stops once it passes ``stop``).

    Strings are skipped, so brackets inside them do not count. For invalid JSON the figure is
    what a parser would reach before the first fault, or more (never less).
    """
    depth = deepest = 0
    for m in _BRACKETS.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop is not None and deepest > stop:
                    break
        else:
            depth -= 1
    return deepest


def load_json(data: str | bytes, field: str, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text with limits: size, nesting depth (checked before parsing, so no
    RecursionError), numbers of at most :data:`MAX_DIGITS` digits (checked before conversion),
    no NaN/Infinity, no duplicate key, no lone surrogate in a string. Faults are a NotationError
    naming ``field`` (``not valid JSON (… at line L column C)`` for a syntax error).
    """
    if len(data) > max_bytes:
        message = (
            _("{count:,} bytes is too large (at most {most:,})")
            if isinstance(data, bytes)
            else _("{count:,} characters is too large (at most {most:,})")
        )
        raise NotationError(field, message.format(count=len(data), most=max_bytes))
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise NotationError(
                field,
                _("an undecodable byte 0x{data:02x} at byte {start} (not UTF-8)").format(
                    data=data[e.start], start=e.start + 1
                ),
            ) from None
    else:
        text = data
    if json_depth(text, max_depth) > max_depth:
        raise NotationError(field, _("nested more than {max_depth} deep").format(max_depth=max_depth))
    try:
        value = json.loads(
            text,
            parse_int=lambda s: _json_number(s, field, int),
            parse_float=lambda s: _json_number(s, field, float),
            parse_constant=lambda s: _json_constant(s, field),
            object_pairs_hook=lambda pairs: _json_object(pairs, field),
        )
    except json.JSONDecodeError as e:
        raise NotationError(
            field,
            _("not valid JSON ({reason} at line {lineno} column {colno})").format(
                reason=e.msg, lineno=e.lineno, colno=e.colno
            ),
        ) from None
    except RecursionError:  # pragma: no cover - json_depth refuses deep text first
        raise NotationError(field, _("nested more than {max_depth} deep").format(max_depth=max_depth)) from None
    _check_strings(value, field)
    return value


def _check_strings(value: Any, field: str) -> None:
    """Refuse a lone surrogate (``"\\ud800"``) in any string of a parsed document: it is not a
    character and cannot be written back as UTF-8. The depth is already bounded."""
    if isinstance(value, str):
        if has_surrogates(value):
            raise NotationError(
                field, _("a lone surrogate (not a character) in the string {value}").format(value=excerpt(value))
            )
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, field)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_strings(key, field)
            _check_strings(item, field)


def _json_number(text: str, field: str, kind: type) -> Any:
    """A JSON number's text converted by ``kind`` once its length is known to be sane."""
    if len(text) > MAX_DIGITS + 10:
        raise NotationError(
            field,
            _("a {count:,}-character number is too long (at most {most} digits)").format(
                count=len(text), most=MAX_DIGITS
            ),
        )
    value = kind(text)
    if kind is float and not math.isfinite(value):
        raise NotationError(field, _("the number {text} is too large").format(text=text))
    return value


def _json_constant(text: str, field: str) -> Any:
    """NaN and Infinity are not JSON: refuse them."""
    raise NotationError(field, _("{text} is not a JSON value").format(text=text))


def _json_object(pairs: list[tuple[str, Any]], field: str) -> dict[str, Any]:
    """A JSON object as a dict, refusing a key given twice (JSON leaves it open which one counts)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise NotationError(field, _("key {key} given twice").format(key=excerpt(key)))
        out[key] = value
    return out


def read_bounded(path: str | os.PathLike[str], max_bytes: int, field: str = "file") -> bytes:
    """The bytes of a file of at most ``max_bytes`` (a bigger one is refused after reading one byte
    more, so a huge file or a device is never read whole); errors name ``path`` as given."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise NotationError(field, _("{path}: no such file").format(path=p)) from None
    except IsADirectoryError:
        raise NotationError(field, _("{path}: is a directory").format(path=p)) from None
    except OSError as e:
        raise NotationError(field, _("{path}: cannot read ({reason})").format(path=p, reason=e.strerror or e)) from None
    if len(data) > max_bytes:
        raise NotationError(
            field,
            _("{path}: larger than {max_bytes:,} bytes, the limit for this file").format(path=p, max_bytes=max_bytes),
        )
    return data


def read_regular_file(path: str | os.PathLike[str], max_bytes: int, field: str = "file") -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``max_bytes``, for a server that
    must never wait on its own data folder: the file is opened without blocking and without
    following a symbolic link, so a FIFO, a device, a socket, a directory or any link (a dangling
    one too) is refused at once, naming what it is. Every fault is a NotationError naming ``path``."""
    p = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise NotationError(field, _("{path}: no such file").format(path=p)) from None
    except OSError as e:
        kind = _kind_of(p)
        reason = kind if kind is not None else (e.strerror or str(e))
        raise NotationError(field, _("{path}: cannot read ({reason})").format(path=p, reason=reason)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = _kind_of(p) or _("not a regular file")
            raise NotationError(field, _("{path}: cannot read ({reason})").format(path=p, reason=kind))
        if st.st_size > max_bytes:
            data = b""
        else:
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(max_bytes + 1)
    except OSError as e:
        raise NotationError(field, _("{path}: cannot read ({reason})").format(path=p, reason=e.strerror or e)) from None
    finally:
        os.close(fd)
    if st.st_size > max_bytes or len(data) > max_bytes:
        raise NotationError(
            field,
            _("{path}: larger than {max_bytes:,} bytes, the limit for this file").format(path=p, max_bytes=max_bytes),
        )
    return data


def _kind_of(path: Path) -> str | None:
    """What ``path`` is when it is no regular file (a symbolic link, a FIFO, …), said for a message."""
    try:
        return file_kind(os.lstat(path).st_mode)
    except OSError:
        return None


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``st_mode``, not followed through a link) is when it is no regular
    file, said for a message: a symbolic link, a directory, a FIFO, a socket, a device."""
    for test, word in (
        (stat.S_ISLNK, _("a symbolic link")),
        (stat.S_ISDIR, _("a directory")),
        (stat.S_ISFIFO, _("a FIFO")),
        (stat.S_ISSOCK, _("a socket")),
        (stat.S_ISCHR, _("a device")),
        (stat.S_ISBLK, _("a device")),
    ):
        if test(mode):
            return word
    return None


def load_json_file(
    path: str | os.PathLike[str], max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> Any:
    """Read and parse a JSON file with the limits of :func:`load_json`; every fault is
    ``NotationError("file", "<path>: …")``."""
    data = read_bounded(path, max_bytes)
    try:
        return load_json(data, "file", max_bytes, max_depth)
    except NotationError as e:
        raise NotationError("file", f"{Path(path)}: {e.message}") from None
