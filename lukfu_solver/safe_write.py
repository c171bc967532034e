"""The one way the project writes a file the user named: atomically, and never over anything it should not.

:func:`write_atomic` writes to a fresh temporary file in the target's own directory (a unique
name from :mod:`tempfile`, so no file of the user's is ever clobbered, and the final rename never
crosses file systems), syncs it, checks the target once more and only then moves it into place:
with ``overwrite`` false a file that appeared meanwhile is kept (the move is a hard link, which
fails if the name exists); a symbolic link, a directory or a special file (a device such as
``/dev/full``, a FIFO, a socket) is never replaced. :func:`check_target` runs the same checks
before long work (a game, a generation), so a bad path fails at once instead of at the end.
Every fault is one ``NotationError(field, "<path as given>: …")``; the temporary file is removed.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> p = write_atomic(os.path.join(d, "a.json"), "{}\\n")
>>> p.read_text(), sorted(os.listdir(d))
('{}\\n', ['a.json'])
>>> write_atomic(p, "[]\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lukfu_solver.errors.NotationError: file: ....json already exists; refusing to overwrite it
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from .errors import NotationError
from .i18n import _


def _umask() -> int:
    """The process umask, read without changing it where the system allows (Linux), else set back at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _inspect(path: Path, shown: str, field: str, overwrite: bool, hint: str) -> os.stat_result | None:
    """The target's status if it is a regular file that may be replaced, None if it does not exist;
    a NotationError for a symbolic link, a directory, a special file, or a file without ``overwrite``."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise NotationError(
            field, _("{shown}: cannot check it ({reason})").format(shown=shown, reason=e.strerror or e)
        ) from None
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        raise NotationError(field, _("{shown} is a symbolic link; refusing to write through it").format(shown=shown))
    if stat.S_ISDIR(mode):
        raise NotationError(field, _("{shown} is a directory").format(shown=shown))
    if not stat.S_ISREG(mode):
        raise NotationError(
            field, _("{shown} is a special file (a device, FIFO or socket); refusing to replace it").format(shown=shown)
        )
    if not overwrite:
        raise NotationError(
            field, _("{shown} already exists; {hint}").format(shown=shown, hint=hint or _("refusing to overwrite it"))
        )
    return st


def _directory(path: Path, shown: str, field: str) -> Path:
    """The directory the target goes in, checked to exist."""
    parent = path.parent
    if not parent.is_dir():
        message = (
            _("{shown}: the directory {parent} is not a directory")
            if parent.exists()
            else _("{shown}: the directory {parent} does not exist")
        )
        raise NotationError(field, message.format(shown=shown, parent=parent))
    return parent


def check_target(path: str | os.PathLike[str], overwrite: bool = False, field: str = "file", hint: str = "") -> Path:
    """Check now that :func:`write_atomic` could write ``path``: the checks of the final write, and
    a probe file created and removed in its directory (so a read-only or missing directory fails
    before the work, not after it). Returns the path."""
    shown = os.fspath(path)
    p = Path(path)
    _inspect(p, shown, field, overwrite, hint)
    parent = _directory(p, shown, field)
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".probe", dir=parent)
    except OSError as e:
        raise NotationError(
            field,
            _("{shown}: cannot write in {parent} ({reason})").format(
                shown=shown, parent=parent, reason=e.strerror or e
            ),
        ) from None
    os.close(fd)
    os.unlink(probe)
    return p


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes,
    overwrite: bool = False,
    field: str = "file",
    hint: str = "",
    durable: bool = True,
    mode: int | None = None,
) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` as one atomic step and return the path.

    A unique temporary file in the same directory receives the data and is synced; the target is
    then checked again (a symbolic link, directory or special file that appeared is refused, and
    so is an existing file unless ``overwrite``) and the temporary file takes its name. A new file
    gets the permissions an ordinary ``open`` would give it, a replaced one keeps its own. On any
    fault nothing is left behind and the NotationError names ``path`` as given (``hint`` replaces
    "refusing to overwrite it" in the refusal of an existing file, e.g. ``"use --force"``).
    ``durable`` false skips the sync: the file is still whole or absent after the writing
    process dies (the rename is atomic), but a crash of the whole system may lose it (a server
    saving a game after every move syncs only the finished game).
    ``mode`` (``0o600``: the owner's alone) is the file's permissions, new or replaced, from the
    moment it has its name.
    """
    shown = os.fspath(path)
    p = Path(path)
    _inspect(p, shown, field, overwrite, hint)
    parent = _directory(p, shown, field)
    try:
        payload = data.encode("utf-8") if isinstance(data, str) else data
    except UnicodeEncodeError as e:  # a lone surrogate: such text is no UTF-8 and is never written
        raise NotationError(
            field,
            _("{shown}: the text holds U+{code:04X}, not a character").format(shown=shown, code=ord(data[e.start])),
        ) from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    except OSError as e:
        raise NotationError(
            field,
            _("{shown}: cannot write in {parent} ({reason})").format(
                shown=shown, parent=parent, reason=e.strerror or e
            ),
        ) from None
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                if durable:
                    os.fsync(f.fileno())
        except OSError as e:
            raise NotationError(
                field, _("{shown}: cannot write ({reason})").format(shown=shown, reason=e.strerror or e)
            ) from None
        st = _inspect(p, shown, field, overwrite, hint)  # again: it may have changed while we worked
        if mode is None:
            mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        if st is None:
            _link_new(tmp, p, shown, field, overwrite, hint)
        else:
            os.replace(tmp, p)
    except OSError as e:
        raise NotationError(
            field, _("{shown}: cannot write ({reason})").format(shown=shown, reason=e.strerror or e)
        ) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    return p


def _link_new(tmp: str, p: Path, shown: str, field: str, overwrite: bool, hint: str) -> None:
    """Give the finished temporary file the target's name, which must still be free: a hard link
    fails when the name was taken meanwhile (no window); where hard links are not supported, a
    last check and a rename."""
    try:
        os.link(tmp, p)
    except FileExistsError:
        _inspect(p, shown, field, overwrite, hint)  # refuses it (or, with overwrite, lets it be replaced)
        os.replace(tmp, p)
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            raise
        _inspect(p, shown, field, overwrite, hint)  # refuses a name taken meanwhile unless overwrite
        os.replace(tmp, p)
