"""The console a command prints on: Rich's, with no line ending in padding.

Rich pads every line of a table (and of a wrapped paragraph) with spaces to its full width, so a
copied screen, a saved page or a diff carries a tail of blanks on every line. The console here
drops the spaces a line ends with before it is written, unless they show (a background, reverse
video, an underline): a code block's shaded background keeps its width. A line written without
its end (a prompt, ``your move> ``) keeps its spaces. Imported only where a command prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.style import Style


def shows_blanks(style: Style | None) -> bool:
    """True when a space drawn in ``style`` can be seen: a background, reverse video, a line."""
    if style is None:
        return False
    return bool(style.bgcolor or style.reverse or style.underline or style.underline2 or style.strike or style.overline)


def trimmed(segments: Iterable[Segment]) -> list[Segment]:
    """``segments`` with the unseen spaces at the end of each line left out (the text, its styles
    and every line break kept).

    >>> [s.text for s in trimmed([Segment("a  "), Segment("   "), Segment("\\n"), Segment("b ")])]
    ['a', '\\n', 'b', ' ']
    """
    out: list[Segment] = []
    tail: list[Segment] = []  # blanks since the line's last visible character
    for seg in segments:
        if seg.control:
            out += tail
            tail = []
            out.append(seg)
            continue
        for k, part in enumerate(seg.text.split("\n")):
            if k:  # a line break: the blanks before it go, unless they show
                while tail and not shows_blanks(tail[-1].style):
                    tail.pop()
                out += tail
                tail = []
                out.append(Segment("\n", seg.style))
            if not part:
                continue
            head = part.rstrip(" ")
            if head:
                out += tail
                tail = []
                out.append(Segment(head, seg.style))
            if len(head) < len(part):
                tail.append(Segment(part[len(head) :], seg.style))
    return out + tail


class TrimmedConsole(Console):
    """A Rich console whose lines end at their last visible character (:func:`trimmed`)."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(trimmed(buffer))


def text_console(file: Any = None) -> TrimmedConsole:
    """The console of a command's output: on ``file``, or on standard output when None (looked up
    when written, so a test that swaps ``sys.stdout`` sees it)."""
    return TrimmedConsole(file=file, highlight=False)
