"""The one error type for bad input: it names the field at fault, so the CLI can print one line."""

from __future__ import annotations


class NotationError(ValueError):
    """A text form (card, card list, play, position, view, record) that cannot be accepted.

    ``field`` names the part of the input at fault (``"hands"``, ``"trick"``, ``"card"`` …);
    ``str(err)`` is the one-line message ``"<field>: <fault>"``.

    >>> str(NotationError("fu", "must be three numbers"))
    'fu: must be three numbers'
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def within(self, outer: str) -> NotationError:
        """Return the same fault re-labelled under an enclosing field (``trick`` → ``trick: play 2``)."""
        return NotationError(outer, f"{self.field}: {self.message}" if self.field else self.message)
