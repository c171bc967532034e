"""The table's refusals as types: each kind of refusal is its own exception class, and its HTTP
status is the class's (the app registers one handler for each class, :data:`STATUS`).

Every refusal is a :class:`~lukfu_solver.errors.NotationError`, one line ``field: message`` in
the reader's language, so a library fault (a bad move, a bad record) and the table's own ones
read alike; what the request asked is bad input (400) unless a class below says otherwise.
"""

from __future__ import annotations

from lukfu_solver.errors import NotationError
from lukfu_solver.i18n import _


class UnknownGame(NotationError):
    """No game has this id (here or on disk): 404."""

    def __init__(self, game_id: str) -> None:
        super().__init__("game", _("no game {id}").format(id=game_id[:32]))


class UnknownJob(NotationError):
    """No job has this id (or it was forgotten long ago): 404."""

    def __init__(self, job_id: str) -> None:
        super().__init__("job", _("no job {id}").format(id=job_id[:32]))


class DamagedGame(NotationError):
    """The game's record is on disk but cannot be read or replayed (it is kept as it is): 422."""

    def __init__(self, game_id: str, reason: str) -> None:
        super().__init__(
            "game", _("the record of game {id} is damaged ({reason}); it is kept as it is").format(id=game_id, reason=reason)
        )


class NotEnginesTurn(NotationError):
    """An engine's move was asked for while it is the person's turn or the deal is over: 409."""

    def __init__(self) -> None:
        super().__init__("engine", _("it is not an engine's turn"))


class NotYourTurn(NotationError):
    """A hint was asked for while it is not the person's decision: 409."""

    def __init__(self) -> None:
        super().__init__("hint", _("a hint is for your own turn"))


class NothingToUndo(NotationError):
    """Undo with no decision of the person's to take back (none yet, or the deal is over): 409."""

    def __init__(self, why: str) -> None:
        super().__init__("undo", why)


class DealNotOver(NotationError):
    """A review asked for before the deal ended: 409."""

    def __init__(self) -> None:
        super().__init__("review", _("the review comes when the deal is over"))


class UnknownSession(NotationError):
    """No session of deals has this id: 404."""

    def __init__(self, session_id: str) -> None:
        super().__init__("session", _("no session {id}").format(id=session_id[:32]))


class DamagedSession(NotationError):
    """The session's file is in the folder but cannot be read (it is kept as it is): 422."""

    def __init__(self, session_id: str, reason: str) -> None:
        super().__init__(
            "session", _("the file of session {id} is damaged ({reason}); it is kept as it is").format(id=session_id, reason=reason)
        )


class DealGoesOn(NotationError):
    """The next deal of a session asked for before the last one ended, or past its last deal: 409."""


class Busy(NotationError):
    """Too much work waits already, the client's or everyone's: nothing is queued (429)."""


class DiskFull(NotationError):
    """The games folder has reached ``--max-disk``: no new game or review is written (507)."""


STATUS: dict[type[NotationError], int] = {
    NotationError: 400,
    UnknownGame: 404,
    UnknownJob: 404,
    DamagedGame: 422,
    NotEnginesTurn: 409,
    NotYourTurn: 409,
    NothingToUndo: 409,
    DealNotOver: 409,
    UnknownSession: 404,
    DamagedSession: 422,
    DealGoesOn: 409,
    Busy: 429,
    DiskFull: 507,
}
"""The HTTP status of each refusal class (a subclass not named here: its nearest base's)."""


def status_of(err: NotationError) -> int:
    """The status of ``err`` by its class (the nearest class of :data:`STATUS` in its MRO)."""
    return next(STATUS[c] for c in type(err).__mro__ if c in STATUS)
