"""A pseudo-terminal for the screen tests: ``lukfu`` run in tmux at a given width, its screen
read back as the player sees it (scroll-back included), lines typed into it."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import unicodedata
import uuid
from pathlib import Path

import pytest

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")
LUKFU = str(Path(sys.executable).with_name("lukfu"))


class Screen:
    """One tmux session on its own server, ``width`` columns wide, running a command."""

    def __init__(self, command: str, width: int, cwd: Path) -> None:
        self.server = f"lukfu-{uuid.uuid4().hex[:8]}"
        self.width = width
        # without COLUMNS/LINES: under pytest the C environment holds COLUMNS=80 (not in os.environ),
        # which would make Rich lay out for 80 columns whatever the pane's width
        wrapped = f"env -u COLUMNS -u LINES sh -c {shlex.quote(command)}"
        self.tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", "50", "-c", str(cwd), wrapped)
        self.tmux("set-option", "-t", "t", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.server, *args], capture_output=True, text=True, check=True).stdout

    def text(self) -> str:
        """Everything shown so far (the scroll-back too), as displayed, line by line."""
        return self.tmux("capture-pane", "-p", "-t", "t", "-S", "-", "-E", "-")

    def send(self, line: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", line)
        self.tmux("send-keys", "-t", "t", "Enter")

    def wait_for(self, needle: str, count: int = 1, timeout: float = 120) -> str:
        """The screen once ``needle`` shows ``count`` times (fails after ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.text()
            if text.count(needle) >= count:
                return text
            time.sleep(0.2)
        pytest.fail(f"{needle!r} did not show within {timeout} s:\n{self.text()}")

    def answer_until(self, prompt: str, end: str, answer: str = "1", most: int = 40) -> str:
        """Answer ``answer`` at each new ``prompt`` until ``end`` shows; the screen then."""
        for k in range(1, most + 1):
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                text = self.text()
                if end in text:
                    return text
                if text.count(prompt) >= k:
                    break
                time.sleep(0.2)
            else:
                pytest.fail(f"neither {prompt!r} nor {end!r} showed:\n{self.text()}")
            self.send(answer)
        return self.wait_for(end)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True)


def cells(line: str) -> int:
    """The terminal cells of a line as a terminal draws it (glibc's ``wcwidth``: a non-spacing
    mark takes none, a Devanagari vowel sign one, a wide character two)."""
    total = 0
    for ch in line:
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space: a phrase wrapped by words reads whole."""
    return " ".join(text.split())


def column_starts(line: str) -> list[int]:
    """The terminal columns where a table's cells begin on ``line``: the first non-blank after
    the edge or after two blanks or more, measured in the terminal's cells (:func:`cells`)."""
    starts, col, blanks = [], 0, 2
    for ch in line:
        width = cells(ch)
        if ch == " ":
            blanks += 1
        else:
            if blanks >= 2 and width:
                starts.append(col)
            if width:
                blanks = 0
        col += width
    return starts
