"""The server's token, kept in the data folder so that the printed address outlives a restart.

``DATA/token`` holds the token (48 hex digits from the system's randomness), readable by its
owner alone, as Jupyter keeps its secrets: the same address opens the table after a restart, and
a tab left open goes on working. :func:`server_token` makes it the first time, and again when
asked (``lukfu serve --new-token``: every address printed before stops working), when the file
is damaged, or when other users could read it (a token others may have read is no secret).
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _

from .folder import FILE_MODE, Unreadable, read_file, write_private

TOKEN_FILE = "token"
TOKEN = re.compile(r"[0-9a-f]{32,128}")
"""A kept token: hex digits (one this server makes has 48)."""


def new_token() -> str:
    """A fresh token: 192 bits from the system's randomness, as 48 hex digits."""
    return secrets.token_hex(24)


def server_token(data: Path, renew: bool = False) -> tuple[str, str | None]:
    """The token kept in ``data`` (made and kept when there is none, or with ``renew``), and a
    line to tell the person when a kept token was replaced (None otherwise). A token file that
    cannot be replaced (a directory, a FIFO in its place) is a NotationError naming ``data``."""
    path = data / TOKEN_FILE
    why = _("a new token, as asked: addresses printed before no longer open the table") if renew else None
    if not renew:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            st = None
        except OSError as err:
            raise NotationError("data", f"{path}: {err.strerror or err}") from None
        if st is not None:
            kept = _kept(path, st)
            if isinstance(kept, str) and TOKEN.fullmatch(kept):
                return kept, None
            why = kept.reason if isinstance(kept, _Replaced) else _(
                "the token file {path} was damaged; a new token made"
            ).format(path=path)
    token = new_token()
    write_private(path, token + "\n", overwrite=True, durable=True)
    return token, why


class _Replaced:
    """Why a kept token is not used."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _kept(path: Path, st: os.stat_result) -> str | _Replaced:
    """The token in the file, or why it must be replaced."""
    owner_only = st.st_uid == os.geteuid() and not stat.S_IMODE(st.st_mode) & ~FILE_MODE & 0o777
    if stat.S_ISREG(st.st_mode) and not owner_only:
        return _Replaced(
            _("the token file {path} could be read by other users; a new token made (addresses printed before no longer open the table)").format(path=path)
        )
    try:
        raw = read_file(path, 4096)
    except Unreadable as err:
        raise NotationError("data", f"{path}: {err}") from None
    return (raw or b"").decode("ascii", "replace").strip()
