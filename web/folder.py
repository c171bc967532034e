"""The data folder as the server touches it: private, read without ever blocking, bounded in size.

- :func:`private_folder` makes a folder readable by its owner alone (``0700``), tightening one
  of the server's own that others could read, with a line in the log;
- :func:`read_file` reads only a regular file (opened without blocking and without following a
  link: a FIFO, a device, a socket or a dangling link put in the folder costs a refusal, never a
  hung thread) and tells a missing file (None) from a damaged one (:class:`Unreadable`);
- :class:`DiskUse` counts the bytes of the games folder (counted once at the start, then kept
  up to date by every write) against ``--max-disk``;
- :func:`write_private` writes atomically (:func:`~lukfu_solver.safe_write.write_atomic`) a file
  readable by its owner alone (``0600``).

:func:`damaged_once` logs a damaged file once for each state of it (its time, size and inode).
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from pathlib import Path

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _, language, number, using_language
from lukfu_solver.inputs import read_regular_file
from lukfu_solver.safe_write import write_atomic

from .errors import DiskFull

log = logging.getLogger("lukfu_web")
FILE_MODE = 0o600
FOLDER_MODE = 0o700
LOG_LANGUAGE = {"code": language()}
"""The language of the server's log lines (the one ``lukfu serve`` was started in)."""


class Unreadable(Exception):
    """A file that is there but cannot be read as asked (its reason in the message)."""


def private_folder(folder: Path) -> Path:
    """``folder`` created if need be, readable by its owner alone; a folder of the server's that
    others may read or enter is tightened to 0700 (a line in the log says so)."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & 0o077:
        os.chmod(folder, FOLDER_MODE)
        with using_language(LOG_LANGUAGE["code"]):
            log.warning(_("{folder} was open to other users ({mode}); now only its owner may read it (0700)").format(folder=folder, mode=oct(mode)))
    return folder


def identity(st: os.stat_result) -> tuple[int, int, int]:
    """A file's state: time, size and inode (a file written anew has another)."""
    return st.st_mtime_ns, st.st_size, st.st_ino


def read_file(path: Path, max_bytes: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``; None when it is
    missing (or went away meanwhile); :class:`Unreadable` with the reason otherwise."""
    try:
        return read_regular_file(path, max_bytes, "file")
    except NotationError as err:
        if not os.path.lexists(path):
            return None
        reason = err.message.split(": ", 1)[1] if err.message.startswith(f"{path}: ") else err.message
        raise Unreadable(reason) from None


def write_private(path: Path, text: str, overwrite: bool = True, durable: bool = False) -> int:
    """Write ``text`` to ``path`` atomically, readable by its owner alone; the bytes it took
    more than the file it replaced (negative when smaller)."""
    try:
        before = os.lstat(path).st_size
    except OSError:
        before = 0
    payload = text.encode("utf-8")
    write_atomic(path, payload, overwrite=overwrite, field="data", durable=durable, mode=FILE_MODE)
    return len(payload) - before


class DiskUse:
    """The bytes the games folder holds, against an optional bound (``--max-disk``)."""

    def __init__(self, folder: Path, most: int | None = None) -> None:
        self.folder = folder
        self.most = most
        self._lock = threading.Lock()
        self.used = 0
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    self.used += st.st_size

    def add(self, delta: int) -> None:
        """Count ``delta`` bytes more (a file written)."""
        with self._lock:
            self.used = max(0, self.used + delta)

    @property
    def full(self) -> bool:
        """Whether the bound is reached."""
        return self.most is not None and self.used >= self.most

    def check_room(self) -> None:
        """A :class:`~.errors.DiskFull` refusal when the bound is reached."""
        if self.full:
            assert self.most is not None
            raise DiskFull(
                "data",
                _(
                    "the games folder {folder} holds {used} bytes, the --max-disk limit of {most}: "
                    "delete games you no longer need from it, or restart lukfu serve with a larger --max-disk"
                ).format(folder=self.folder, used=number(self.used), most=number(self.most)),
            )


_reported: dict[Path, tuple[int, int, int] | None] = {}
_reported_lock = threading.Lock()


def damaged_once(path: Path, reason: str, state: tuple[int, int, int] | None) -> None:
    """Log that ``path`` is damaged, once for each ``state`` of the file (so a list read again
    and again does not fill the log)."""
    with _reported_lock:
        if path in _reported and _reported[path] == state:
            return
        _reported[path] = state
    with using_language(LOG_LANGUAGE["code"]):
        log.warning(_("{path} is damaged ({reason}); it is kept as it is and left out of play").format(path=path, reason=reason))
